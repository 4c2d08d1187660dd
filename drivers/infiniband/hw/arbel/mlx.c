// SPDX-License-Identifier: GPL-2.0-only
/*
 * MLX sends of the special QPs (QP0 and QP1): the HCA sends such a WQE's
 * bytes as they are, so the driver builds the packet's headers -- LRH,
 * GRH where the address handle has one, BTH, DETH -- with the core's UD
 * header helpers, keeps them in the QP's header area (one slot per send
 * WQE, in the QP's own buffer and region) and points the WQE's first
 * gather entry at them; the payload follows, then the ICRC's placeholder
 * (kqp.c).  QP0 goes out on VL15 with the P_Key of its own index, QP1 on
 * VL0 with the work request's (mthca's MLX path).
 */

#include <rdma/ib_cache.h>
#include <rdma/ib_pack.h>

#include "arbel.h"
#include "queue.h"
#include "verbs.h"

static int arbel_mlx_grh(struct ib_device *ibdev, const struct arbel_ah *ah,
			 struct ib_ud_header *h)
{
	const struct arbel_av *av = &ah->av;
	int err;

	h->grh.traffic_class = av->tclass;
	h->grh.flow_label = cpu_to_be32(av->flow_label);
	h->grh.hop_limit = av->hop_limit;
	err = rdma_query_gid(ibdev, av->port, ah->sgid_index,
			     &h->grh.source_gid);
	if (err)
		return err;
	memcpy(h->grh.destination_gid.raw, av->dgid, sizeof(av->dgid));
	return 0;
}

/**
 * arbel_mlx_build() - the headers and control of a special QP's send
 * @adev: the HCA
 * @qp: the special QP
 * @ind: the WQE's index (its header slot)
 * @wr: the work request (SEND or SEND_WITH_IMM)
 * @wqe: the WQE: its control becomes MLX control, and the gather entry
 *	 of the headers is written after it
 * @size: receives the bytes written after the first 16
 *
 * Context: any.
 * Return: 0, or -EINVAL for a P_Key index the table has not or headers
 * that do not fit their slot.
 */
int arbel_mlx_build(struct arbel_dev *adev, struct arbel_qp *qp, u32 ind,
		    const struct ib_ud_wr *wr, void *wqe, u32 *size)
{
	const struct arbel_ah *ah = to_aah(wr->ah);
	bool qp0 = !qp->ibqp.qp_num;
	struct ib_ud_header h;
	u32 len = 0, hdr;
	bool perm = ah->av.dlid == be16_to_cpu(IB_LID_PERMISSIVE);
	u16 pkey;
	void *slot;
	int i, err;

	for (i = 0; i < wr->wr.num_sge; i++)
		len += wr->wr.sg_list[i].length;
	err = ib_ud_header_init(len, 1, 0, 0, ah->av.grh, 0, 0,
				wr->wr.opcode == IB_WR_SEND_WITH_IMM, &h);
	if (err)
		return err;
	h.lrh.service_level = ah->av.sl;
	h.lrh.virtual_lane = qp0 ? 15 : 0;
	h.lrh.destination_lid = cpu_to_be16(ah->av.dlid);
	/*
	 * Toward the permissive LID the source is permissive too (SLR: the
	 * HCA takes it from the headers); otherwise the HCA puts the port's
	 * LID there itself (SLR clear), so only the path bits are given.
	 */
	h.lrh.source_lid = perm ? IB_LID_PERMISSIVE :
				  cpu_to_be16(ah->av.path_bits);
	if (ah->av.grh) {
		err = arbel_mlx_grh(qp->ibqp.device, ah, &h);
		if (err)
			return err;
	}
	if (wr->wr.opcode == IB_WR_SEND_WITH_IMM) {
		h.bth.opcode = IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE;
		h.immediate_data = wr->wr.ex.imm_data;
	} else {
		h.bth.opcode = IB_OPCODE_UD_SEND_ONLY;
	}
	h.bth.solicited_event = !!(wr->wr.send_flags & IB_SEND_SOLICITED);
	err = ib_get_cached_pkey(qp->ibqp.device, qp->hw.port,
				 qp0 ? qp->pkey_index : wr->pkey_index, &pkey);
	if (err)
		return -EINVAL;
	h.bth.pkey = cpu_to_be16(pkey);
	h.bth.destination_qpn = cpu_to_be32(wr->remote_qpn);
	h.bth.psn = cpu_to_be32(qp->sqp_psn++ & GENMASK(23, 0));
	h.deth.qkey = cpu_to_be32(wr->remote_qkey & BIT(31) ? qp->qkey :
				  wr->remote_qkey);
	h.deth.source_qpn = cpu_to_be32(qp->ibqp.qp_num);

	hdr = qp->hdr_base + (ind & (qp->sq.max - 1)) * ARBEL_MLX_HDR_SIZE;
	slot = arbel_kbuf_at(&qp->buf, hdr);
	len = ib_ud_header_pack(&h, slot);
	if (len > ARBEL_MLX_HDR_SIZE)
		return -EINVAL;
	arbel_wqe_set_mlx(wqe, wr->wr.send_flags & IB_SEND_SIGNALED,
			  ah->av.sl, qp0, perm, ah->av.dlid);
	*size = arbel_wqe_set_data(wqe + ARBEL_SEG_NEXT_SIZE, len,
				   qp->buf.mr.key, hdr);
	return 0;
}
