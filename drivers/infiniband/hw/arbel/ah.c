// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address handles of kernel consumers.  On mem-free Arbel a UD WQE carries
 * its address vector itself (the UD segment), so a kernel AH is only the
 * vector, kept in host memory and copied into each WQE, as mem-free mthca
 * keeps it; the MLX path of the special QPs builds its headers from the
 * same fields.  User AHs never reach the kernel: libmthca builds them in
 * the process for a mem-free HCA.
 */

#include <rdma/ib_verbs.h>

#include "arbel.h"
#include "kq.h"
#include "mad.h"
#include "verbs.h"

/**
 * arbel_create_ah() - a kernel address handle
 * @ibah: core object (its PD set)
 * @init: the attributes
 * @udata: NULL (a user AH is libmthca's)
 *
 * Context: any (may be called in atomic context: no sleeping).
 * Return: 0; -EOPNOTSUPP for a user AH or a non-IB one; -EINVAL for a
 * port or source GID index the device has not.
 */
int arbel_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		    struct ib_udata *udata)
{
	const struct rdma_ah_attr *attr = init->ah_attr;
	struct arbel_dev *adev = to_adev(ibah->device);
	struct arbel_ah *ah = to_aah(ibah);
	struct arbel_av *av = &ah->av;
	u32 port = rdma_ah_get_port_num(attr);

	if (udata || attr->type != RDMA_AH_ATTR_TYPE_IB)
		return -EOPNOTSUPP;
	if (port < 1 || port > adev->num_ports)
		return -EINVAL;
	memset(av, 0, sizeof(*av));
	av->port = port;
	av->pd = to_apd(ibah->pd)->pdn;
	av->dlid = rdma_ah_get_dlid(attr);
	av->path_bits = rdma_ah_get_path_bits(attr);
	av->sl = rdma_ah_get_sl(attr);
	if (rdma_ah_get_ah_flags(attr) & IB_AH_GRH) {
		const struct ib_global_route *grh = rdma_ah_read_grh(attr);

		if (grh->sgid_index >= ARBEL_GID_TABLE_LEN)
			return -EINVAL;
		av->grh = true;
		ah->sgid_index = grh->sgid_index;
		av->mgid_index = (port - 1) * ARBEL_GID_TABLE_LEN +
				 grh->sgid_index;
		av->hop_limit = grh->hop_limit;
		av->tclass = grh->traffic_class;
		av->flow_label = grh->flow_label;
		memcpy(av->dgid, grh->dgid.raw, sizeof(av->dgid));
	}
	return 0;
}

/**
 * arbel_query_ah() - the attributes of a kernel address handle
 * @ibah: the AH
 * @attr: filled
 *
 * Return: 0.
 */
int arbel_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	const struct arbel_ah *ah = to_aah(ibah);
	const struct arbel_av *av = &ah->av;

	memset(attr, 0, sizeof(*attr));
	attr->type = ibah->type;
	rdma_ah_set_port_num(attr, av->port);
	rdma_ah_set_dlid(attr, av->dlid);
	rdma_ah_set_path_bits(attr, av->path_bits);
	rdma_ah_set_sl(attr, av->sl);
	if (av->grh) {
		rdma_ah_set_grh(attr, NULL, av->flow_label, ah->sgid_index,
				av->hop_limit, av->tclass);
		memcpy(rdma_ah_retrieve_grh(attr)->dgid.raw, av->dgid,
		       sizeof(av->dgid));
	}
	return 0;
}

/**
 * arbel_destroy_ah() - nothing of a kernel AH is the HCA's
 * @ibah: the AH
 * @flags: RDMA_DESTROY_AH_SLEEPABLE or not
 *
 * Return: 0.
 */
int arbel_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}
