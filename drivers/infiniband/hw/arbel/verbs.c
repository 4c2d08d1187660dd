// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verbs: the mthca user ABI (so that rdma-core's libmthca binds), user
 * contexts with one UAR page and its UAR context each, protection
 * domains, memory regions, device and port queries answered by the
 * firmware, restrack.  The queue verbs (CQ, QP, SRQ, AH) are in their
 * rooms (cq.c, qp.c, srq.c and, for kernel queues, kcq.c, kqp.c, mlx.c,
 * ah.c).  User AHs need no kernel: on mem-free Arbel libmthca keeps a
 * user AH's address vector in the process and copies it into each UD WQE.
 */

#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/sysfs.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_umem.h>
#include <rdma/mthca-abi.h>
#include <rdma/rdma_netlink.h>
#include <rdma/restrack.h>
#include <rdma/uverbs_ioctl.h>

#include <arbel/mpt.h>
#include <arbel/pgsz.h>
#include "arbel.h"
#include "frmr.h"
#include "mad.h"
#include "queue.h"
#include "verbs.h"

/* libmthca derives a shift from qp_tab_size and needs at least 256. */
#define ARBEL_MIN_QP_TAB_SIZE	256

static struct arbel_ucontext *to_actx(struct ib_ucontext *ibctx)
{
	return container_of(ibctx, struct arbel_ucontext, ibucontext);
}

static int arbel_query_device(struct ib_device *ibdev,
			      struct ib_device_attr *props,
			      struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibdev);
	const struct arbel_dev_lim *lim = &adev->lim;

	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;

	memset(props, 0, sizeof(*props));
	props->fw_ver = (u64)adev->fw.major << 32 | (u64)adev->fw.minor << 16 |
			adev->fw.subminor;
	props->sys_image_guid = adev->sys_image_guid;
	props->vendor_id = adev->vendor_id;
	props->vendor_part_id = adev->pdev->device;
	props->hw_ver = adev->pdev->revision;
	props->max_mr_size = 1ULL << lim->log_max_mr_size;
	props->page_size_cap = ARBEL_MPT_PAGE_SIZES & ~((u64)PAGE_SIZE - 1);
	/* the EQ ring's region holds an MPT for good (event mode) */
	props->max_mr = adev->keys.num_mpts - adev->keys.reserved -
			(adev->eq.region ? 1 : 0);
	props->max_pd = adev->max_pd - adev->rsvd_pd;
	props->max_pkeys = arbel_pkey_table_len(adev);
	/*
	 * fast registration as frmr.c and kqp_fr.c do it; a port change in
	 * SQD2SQD as qctx.c encodes it (optional-parameter bit 11)
	 */
	props->device_cap_flags = IB_DEVICE_CHANGE_PHY_PORT |
				  IB_DEVICE_PORT_ACTIVE_EVENT |
				  IB_DEVICE_SYS_IMAGE_GUID |
				  IB_DEVICE_RC_RNR_NAK_GEN |
				  IB_DEVICE_MEM_MGT_EXTENSIONS;
	props->max_fast_reg_page_list_len = ARBEL_FR_MAX_PAGES;
	/* what the firmware says the HCA does by itself (as mthca) */
	if (lim->flags & ARBEL_DEV_LIM_FLAG_BAD_PKEY_CNTR)
		props->device_cap_flags |= IB_DEVICE_BAD_PKEY_CNTR;
	if (lim->flags & ARBEL_DEV_LIM_FLAG_BAD_QKEY_CNTR)
		props->device_cap_flags |= IB_DEVICE_BAD_QKEY_CNTR;
	if (lim->flags & ARBEL_DEV_LIM_FLAG_UD_AV_PORT)
		props->device_cap_flags |= IB_DEVICE_UD_AV_PORT_ENFORCE;
	props->max_qp = adev->num_qps - adev->rsvd_qps - ARBEL_SPECIAL_QPS;
	props->max_qp_wr = 1 << lim->log_max_qp_sz;
	props->max_send_sge = min(lim->max_sg, lim->max_sg_rq);
	props->max_recv_sge = props->max_send_sge;
	props->max_sge_rd = props->max_send_sge;
	props->max_cq = adev->num_cqs - adev->rsvd_cqs;
	props->max_cqe = (1 << min_t(u8, lim->log_max_cq_sz,
				     ARBEL_CQ_LOG_MAX)) - 1;
	props->max_qp_rd_atom = arbel_max_rd_atom(adev);
	props->max_qp_init_rd_atom = 1 << lim->log_max_ra_req_qp;
	props->max_res_rd_atom = props->max_qp_rd_atom * props->max_qp;
	if (lim->flags & ARBEL_DEV_LIM_FLAG_SRQ) {
		props->max_srq = adev->num_srqs - adev->rsvd_srqs;
		props->max_srq_wr = (1 << lim->log_max_srq_sz) - 1;
		props->max_srq_sge = lim->max_sg_rq;
	}
	/* every entry of the multicast table can be a group */
	props->max_mcast_grp = adev->mcg.num;
	props->max_mcast_qp_attach = ARBEL_MGM_QPS;
	props->max_total_mcast_qp_attach = adev->mcg.num * ARBEL_MGM_QPS;
	props->local_ca_ack_delay = lim->local_ca_ack_delay;
	props->atomic_cap = lim->flags & ARBEL_DEV_LIM_FLAG_ATOMIC ?
			    IB_ATOMIC_HCA : IB_ATOMIC_NONE;
	return 0;
}

static int arbel_query_port(struct ib_device *ibdev, u32 port,
			    struct ib_port_attr *props)
{
	return arbel_mad_port_info(to_adev(ibdev), port, props, NULL);
}

/*
 * A client changes the port's capability mask (the IB CM sets IsCM): read
 * the mask PortInfo reports, change the bits asked for, give the result to
 * the firmware (SET_IB), as mthca does.  Shutting a port down is not
 * something this HCA's firmware offers.
 */
static int arbel_modify_port(struct ib_device *ibdev, u32 port, int mask,
			     struct ib_port_modify *props)
{
	struct arbel_dev *adev = to_adev(ibdev);
	struct ib_port_attr attr = {};
	u32 cap;
	int err;

	if (mask & IB_PORT_SHUTDOWN)
		return -EOPNOTSUPP;
	mutex_lock(&adev->port_lock);
	err = arbel_mad_port_info(adev, port, &attr, NULL);
	if (!err) {
		cap = (attr.port_cap_flags | props->set_port_cap_mask) &
		      ~props->clr_port_cap_mask;
		err = arbel_fw_set_ib(&adev->cmd, port, cap,
				      mask & IB_PORT_RESET_QKEY_CNTR);
	}
	mutex_unlock(&adev->port_lock);
	return err;
}

static int arbel_query_gid(struct ib_device *ibdev, u32 port, int index,
			   union ib_gid *gid)
{
	struct arbel_dev *adev = to_adev(ibdev);
	int err;

	err = arbel_mad_port_info(adev, port, NULL, &gid->global.subnet_prefix);
	if (err)
		return err;
	return arbel_mad_guid(adev, port, index, &gid->global.interface_id);
}

static int arbel_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			    u16 *pkey)
{
	return arbel_mad_pkey(to_adev(ibdev), port, index, pkey);
}

static int arbel_port_immutable(struct ib_device *ibdev, u32 port,
				struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int err;

	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	err = ib_query_port(ibdev, port, &attr);
	if (err)
		return err;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

/* MADs for the local agents: the firmware answers (mad.c) */
static int arbel_process_mad(struct ib_device *ibdev, int mad_flags,
			     u32 port, const struct ib_wc *in_wc,
			     const struct ib_grh *in_grh,
			     const struct ib_mad *in, struct ib_mad *out,
			     size_t *out_size, u16 *out_pkey_index)
{
	int ret = arbel_mad_local(to_adev(ibdev), port, in, out);

	if (ret & IB_MAD_RESULT_REPLY)
		*out_size = sizeof(*out);
	return ret;
}

static void arbel_dev_fw_str(struct ib_device *ibdev, char *str)
{
	struct arbel_dev *adev = to_adev(ibdev);

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u.%u", adev->fw.major,
		 adev->fw.minor, adev->fw.subminor);
}

static int arbel_alloc_ucontext(struct ib_ucontext *ibctx,
				struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibctx->device);
	struct arbel_ucontext *ctx = to_actx(ibctx);
	struct mthca_alloc_ucontext_resp resp = {};
	int uar, err;

	uar = ida_alloc_range(&adev->uar_ida, adev->rsvd_uar,
			      adev->layout.num_uars - 1, GFP_KERNEL);
	if (uar < 0)
		return uar == -ENOSPC ? -ENOMEM : uar;
	ctx->uar = uar;
	xa_init(&ctx->pds);
	ctx->db = arbel_db_table_alloc(uar,
				       adev->layout.t[ARBEL_ICM_UARC].entry_size);
	if (!ctx->db) {
		err = -ENOMEM;
		goto err_uar;
	}

	resp.qp_tab_size = max_t(u32, ARBEL_MIN_QP_TAB_SIZE,
				 1U << adev->layout.t[ARBEL_ICM_QPC].log_num);
	resp.uarc_size = adev->layout.t[ARBEL_ICM_UARC].entry_size;
	err = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (err)
		goto err_db;
	return 0;

err_db:
	arbel_db_table_free(adev, ctx->db);
err_uar:
	ida_free(&adev->uar_ida, uar);
	return err;
}

static void arbel_dealloc_ucontext(struct ib_ucontext *ibctx)
{
	struct arbel_dev *adev = to_adev(ibctx->device);

	arbel_db_table_free(adev, to_actx(ibctx)->db);
	xa_destroy(&to_actx(ibctx)->pds);
	ida_free(&adev->uar_ida, to_actx(ibctx)->uar);
}

/*
 * Removal with the context still open (unbind, hot-unplug, rmmod): by the
 * time this runs the core has destroyed the context's objects (queues and
 * regions, whose destroy verbs never leave one behind) and zapped its UAR
 * mapping (made with rdma_user_mmap_io()); its doorbell pages went with
 * the last queue that used them.  Having this op is what lets removal go on without waiting
 * for the process to close its file; the process's next verb fails with
 * EIO.  The UAR number is freed by arbel_dealloc_ucontext() as usual.
 */
static void arbel_disassociate_ucontext(struct ib_ucontext *ibctx)
{
}

/* Offset 0 maps the context's UAR page, as libmthca expects. */
static int arbel_mmap(struct ib_ucontext *ibctx, struct vm_area_struct *vma)
{
	struct arbel_dev *adev = to_adev(ibctx->device);
	unsigned long pfn;

	if (vma->vm_end - vma->vm_start != PAGE_SIZE || vma->vm_pgoff)
		return -EINVAL;
	pfn = (pci_resource_start(adev->pdev, ARBEL_UAR_BAR) >> PAGE_SHIFT) +
	      to_actx(ibctx)->uar;
	return rdma_user_mmap_io(ibctx, vma, pfn, PAGE_SIZE,
				 pgprot_noncached(vma->vm_page_prot), NULL);
}

static int arbel_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibpd->device);
	struct arbel_pd *pd = to_apd(ibpd);
	int pdn, err;

	pdn = ida_alloc_range(&adev->pd_ida, adev->rsvd_pd, adev->max_pd - 1,
			      GFP_KERNEL);
	if (pdn < 0)
		return pdn == -ENOSPC ? -ENOMEM : pdn;
	pd->pdn = pdn;

	if (udata) {
		struct mthca_alloc_pd_resp resp = { .pdn = pdn };

		pd->ctx = rdma_udata_to_drv_context(udata, struct arbel_ucontext,
						    ibucontext);
		err = xa_insert(&pd->ctx->pds, pdn, pd, GFP_KERNEL);
		if (err)
			goto err_pdn;
		err = ib_copy_to_udata(udata, &resp,
				       min(udata->outlen, sizeof(resp)));
		if (err) {
			xa_erase(&pd->ctx->pds, pdn);
			goto err_pdn;
		}
	}
	return 0;

err_pdn:
	ida_free(&adev->pd_ida, pdn);
	return err;
}

static int arbel_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct arbel_pd *pd = to_apd(ibpd);

	if (pd->ctx)
		xa_erase(&pd->ctx->pds, pd->pdn);
	ida_free(&to_adev(ibpd->device)->pd_ida, pd->pdn);
	return 0;
}

static struct ib_mr *arbel_mr_create(struct ib_pd *ibpd,
				     struct ib_umem *umem, u64 iova,
				     u64 length, int access, u8 page_shift)
{
	struct arbel_dev *adev = to_adev(ibpd->device);
	struct arbel_mr *mr;
	int err;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = umem;
	mr->hw.pdn = to_apd(ibpd)->pdn;
	mr->hw.iova = iova;
	mr->hw.length = length;
	mr->hw.access = access;
	mr->hw.mtt.page_shift = page_shift;

	err = arbel_mr_register(adev, &mr->hw, umem);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	mr->ibmr.lkey = mr->hw.key;
	mr->ibmr.rkey = mr->hw.key;
	return &mr->ibmr;
}

static struct ib_mr *arbel_get_dma_mr(struct ib_pd *ibpd, int access)
{
	return arbel_mr_create(ibpd, NULL, 0, U64_MAX, access,
			       ARBEL_MPT_PAGE_SHIFT_BASE);
}

static struct ib_mr *arbel_reg_user_mr(struct ib_pd *ibpd, u64 start,
				       u64 length, u64 iova, int access,
				       struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibpd->device);
	struct arbel_mpt probe = {};
	unsigned int page_shift;
	struct ib_umem *umem;
	struct ib_mr *mr;
	u64 end;
	int err;

	/* Refuse what the MPT cannot express before pinning anything. */
	err = arbel_mpt_set_access(&probe, access);
	if (err)
		return ERR_PTR(err);
	/*
	 * struct mthca_reg_mr (its one flag is for CQ buffers) may be short
	 * or absent; anything beyond it must be zero, as the core demands of
	 * its own requests.
	 */
	if (udata && udata->inlen > sizeof(struct mthca_reg_mr) &&
	    !ib_is_udata_cleared(udata, sizeof(struct mthca_reg_mr),
				 udata->inlen - sizeof(struct mthca_reg_mr)))
		return ERR_PTR(-EOPNOTSUPP);
	if (!length || check_add_overflow(start, length, &end) ||
	    check_add_overflow(iova, length, &end) ||
	    length > 1ULL << adev->lim.log_max_mr_size)
		return ERR_PTR(-EINVAL);

	/*
	 * Zero-based needs a page size at which the buffer starts on a page
	 * boundary (below): one not aligned even to PAGE_SIZE is refused
	 * before pinning -- ib_umem_find_best_pgsz() would set umem->iova to
	 * 0 and the release would then unaccount fewer pages than were
	 * pinned (VmPin would leak).
	 */
	if ((access & IB_ZERO_BASED) && offset_in_page(start))
		return ERR_PTR(-EINVAL);

	umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(umem))
		return ERR_CAST(umem);

	/*
	 * Zero-based: the HCA's address 0 is byte 0 of the first MTT page
	 * (the MPT has no first-byte offset), so the page size must be one
	 * at which the buffer starts on a page boundary -- the choice for
	 * iova 0 (the buffer is page-aligned, see above).
	 */
	if (access & IB_ZERO_BASED)
		iova = 0;
	page_shift = arbel_mr_page_shift(umem, iova);
	if (!page_shift) {
		err = -EINVAL;
		goto err_umem;
	}

	mr = arbel_mr_create(ibpd, umem, iova, length, access, page_shift);
	if (IS_ERR(mr)) {
		err = PTR_ERR(mr);
		goto err_umem;
	}
	return mr;

err_umem:
	ib_umem_release(umem);
	return ERR_PTR(err);
}

static int arbel_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct arbel_mr *mr = to_amr(ibmr);
	int err;

	if (mr->fr) {
		arbel_fr_free(to_adev(ibmr->device), mr);
		kfree(mr);
		return 0;
	}
	err = arbel_mr_unregister(to_adev(ibmr->device), &mr->hw);
	if (err)
		return err;
	ib_umem_release(mr->umem);
	kfree(mr);
	return 0;
}

static int arbel_fill_res_mr_entry(struct sk_buff *msg, struct ib_mr *ibmr)
{
	struct arbel_mr *mr = to_amr(ibmr);
	const struct arbel_mtt *mtt = &mr->hw.mtt;
	struct nlattr *table;

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		return -EMSGSIZE;
	if (rdma_nl_put_driver_u32(msg, "mpt_index", mr->hw.slot) ||
	    rdma_nl_put_driver_u32(msg, "page_shift", mtt->page_shift) ||
	    rdma_nl_put_driver_u32(msg, "mtt_entries", mtt->n) ||
	    (mtt->n &&
	     rdma_nl_put_driver_u64_hex(msg, "mtt_addr",
					arbel_mtt_addr(to_adev(ibmr->device),
						       mtt->first)))) {
		nla_nest_cancel(msg, table);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, table);
	return 0;
}

/* The MPT entry exactly as the firmware holds it (QUERY_MPT). */
static int arbel_fill_res_mr_entry_raw(struct sk_buff *msg,
				       struct ib_mr *ibmr)
{
	__be32 entry[ARBEL_MPT_DWORDS];
	int err;

	err = arbel_mr_query(to_adev(ibmr->device), &to_amr(ibmr)->hw, entry);
	if (err)
		return err;
	return nla_put(msg, RDMA_NLDEV_ATTR_RES_RAW, sizeof(entry), entry);
}

/* sysfs board_id: QUERY_ADAPTER's board ID, which ibv_devinfo prints */
static ssize_t board_id_show(struct device *device,
			     struct device_attribute *attr, char *buf)
{
	struct arbel_ib *ib = rdma_device_to_drv_device(device, struct arbel_ib,
							ibdev);

	return sysfs_emit(buf, "%s\n", ib->adev->board_id);
}
static DEVICE_ATTR_RO(board_id);

static struct attribute *arbel_dev_attributes[] = {
	&dev_attr_board_id.attr,
	NULL
};

static const struct attribute_group arbel_attr_group = {
	.attrs = arbel_dev_attributes,
};

static const struct ib_device_ops arbel_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_MTHCA,
	.uverbs_abi_ver = MTHCA_UVERBS_ABI_VERSION,
	.uverbs_no_driver_id_binding = 1,
	.device_group = &arbel_attr_group,

	.alloc_mr = arbel_alloc_mr,
	.alloc_pd = arbel_alloc_pd,
	.create_ah = arbel_create_ah,
	.alloc_ucontext = arbel_alloc_ucontext,
	.attach_mcast = arbel_attach_mcast,
	.create_cq = arbel_create_cq,
	.create_qp = arbel_create_qp,
	.create_srq = arbel_create_srq,
	.dealloc_pd = arbel_dealloc_pd,
	.dealloc_ucontext = arbel_dealloc_ucontext,
	.dereg_mr = arbel_dereg_mr,
	.drain_rq = arbel_drain_rq,
	.destroy_ah = arbel_destroy_ah,
	.destroy_cq = arbel_destroy_cq,
	.destroy_qp = arbel_destroy_qp,
	.destroy_srq = arbel_destroy_srq,
	.detach_mcast = arbel_detach_mcast,
	.disassociate_ucontext = arbel_disassociate_ucontext,
	.fill_res_mr_entry = arbel_fill_res_mr_entry,
	.fill_res_mr_entry_raw = arbel_fill_res_mr_entry_raw,
	.get_dev_fw_str = arbel_dev_fw_str,
	.get_dma_mr = arbel_get_dma_mr,
	.map_mr_sg = arbel_map_mr_sg,
	.get_port_immutable = arbel_port_immutable,
	.mmap = arbel_mmap,
	.modify_port = arbel_modify_port,
	.modify_qp = arbel_modify_qp,
	.modify_srq = arbel_modify_srq,
	.poll_cq = arbel_poll_cq,
	.process_mad = arbel_process_mad,
	.post_recv = arbel_post_recv,
	.post_send = arbel_post_send,
	.post_srq_recv = arbel_post_srq_recv,
	.query_ah = arbel_query_ah,
	.query_device = arbel_query_device,
	.query_gid = arbel_query_gid,
	.query_pkey = arbel_query_pkey,
	.query_port = arbel_query_port,
	.query_qp = arbel_query_qp,
	.query_srq = arbel_query_srq,
	.reg_user_mr = arbel_reg_user_mr,
	.req_notify_cq = arbel_req_notify_cq,
	.resize_cq = arbel_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, arbel_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, arbel_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, arbel_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, arbel_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, arbel_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, arbel_ucontext, ibucontext),
};

/**
 * arbel_register_ibdev() - register the HCA with the RDMA core
 * @adev: the HCA, initialised
 *
 * Allocates a new ib_device, reads the node GUID and description from the
 * firmware, sets up the PD and UAR allocators and registers "arbel%d"
 * with the PCI function as its parent (libibverbs matches providers
 * through device/modalias); @adev->ibdev points at it.  Events are
 * dispatched to it (@adev->registered) from just before
 * ib_register_device(): the clients' queues it makes complete work at once.
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno with nothing registered.
 */
int arbel_register_ibdev(struct arbel_dev *adev)
{
	struct ib_device *ibdev;
	struct arbel_ib *ib;
	u8 ports;
	int err;

	ib = ib_alloc_device(arbel_ib, ibdev);
	if (!ib)
		return -ENOMEM;
	ib->adev = adev;
	ibdev = &ib->ibdev;

	err = arbel_mad_node_info(adev, &ibdev->node_guid,
				  &adev->sys_image_guid, &adev->vendor_id,
				  &ports);
	if (err) {
		dev_err(&adev->pdev->dev, "NodeInfo (MAD_IFC) failed: %d\n",
			err);
		goto err_dealloc;
	}
	err = arbel_mad_node_desc(adev, ibdev->node_desc);
	if (err)
		goto err_dealloc;

	/* The first number after the firmware's is the driver's own PD. */
	err = arbel_pd_range(adev->lim.log_max_pds,
			     adev->lim.num_rsvd_pds + 1, &adev->rsvd_pd,
			     &adev->max_pd);
	if (err) {
		dev_err(&adev->pdev->dev,
			"QUERY_DEV_LIM: %u reserved of 2^%u PDs leaves none\n",
			adev->lim.num_rsvd_pds, adev->lim.log_max_pds);
		goto err_dealloc;
	}
	adev->rsvd_uar = max_t(u32, 1, adev->lim.num_rsvd_uars);
	ida_init(&adev->pd_ida);
	ida_init(&adev->uar_ida);
	mutex_init(&adev->port_lock);
	arbel_queues_init(adev);
	err = arbel_kq_init(adev);
	if (err) {
		dev_err(&adev->pdev->dev, "kernel queues: %d\n", err);
		goto err_queues;
	}
	adev->eq.queue_event = arbel_queue_event;

	ibdev->node_type = RDMA_NODE_IB_CA;
	adev->num_ports = min_t(u8, ports, ARBEL_MAX_PORTS);
	ibdev->phys_port_cnt = adev->num_ports;
	ibdev->num_comp_vectors = 1;
	ibdev->dev.parent = &adev->pdev->dev;
	ib_set_device_ops(ibdev, &arbel_dev_ops);

	/*
	 * The kernel's queues (the MAD agents') are made while registering,
	 * and their completions must reach them from the first: events flow
	 * from here.
	 */
	adev->ibdev = ibdev;
	WRITE_ONCE(adev->registered, true);
	err = ib_register_device(ibdev, "arbel%d", &adev->pdev->dev);
	if (err) {
		dev_err(&adev->pdev->dev, "ib_register_device failed: %d\n",
			err);
		WRITE_ONCE(adev->registered, false);
		if (adev->eq.irq)
			synchronize_irq(adev->eq.irq);
		adev->ibdev = NULL;
		arbel_kq_cleanup(adev);
		goto err_queues;
	}
	return 0;

err_queues:
	arbel_queues_cleanup(adev);
	mutex_destroy(&adev->port_lock);
	ida_destroy(&adev->uar_ida);
	ida_destroy(&adev->pd_ida);

err_dealloc:
	ib_dealloc_device(ibdev);
	return err;
}

/**
 * arbel_unregister_ibdev() - undo arbel_register_ibdev()
 * @adev: the HCA
 *
 * The core destroys every user object first (regions included) and
 * disassociates every user context; then the ib_device is freed.  On a
 * failed device the kernel queues' outstanding work requests are flushed
 * first (arbel_kq_fatal()): the MAD layer waits for them.  Events are
 * dispatched while the core unregisters: its clients still send and
 * complete work on the way out (IPoIB leaves its multicast groups through
 * the SA, and the SA client's multicast module waits for those leaves,
 * which need their MADs' send completions).  Dispatch stops after
 * (@adev->registered false, the EQ's interrupt synchronised).
 *
 * Context: process; sleeps.
 */
void arbel_unregister_ibdev(struct arbel_dev *adev)
{
	/* kernel consumers get back what the reset HCA will never complete */
	if (READ_ONCE(adev->cmd.state) == ARBEL_GONE)
		arbel_kq_fatal(adev);
	ib_unregister_device(adev->ibdev);
	/* no event reaches the ib_device from here on */
	WRITE_ONCE(adev->registered, false);
	if (adev->eq.irq)
		synchronize_irq(adev->eq.irq);
	arbel_kq_cleanup(adev);
	arbel_queues_cleanup(adev);
	mutex_destroy(&adev->port_lock);
	ida_destroy(&adev->uar_ida);
	ida_destroy(&adev->pd_ida);
	ib_dealloc_device(adev->ibdev);
	adev->ibdev = NULL;
}
