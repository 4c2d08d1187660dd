/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Subnet management queries answered by the firmware (MAD_IFC).
 */
#ifndef _ARBEL_MAD_H
#define _ARBEL_MAD_H

#include <rdma/ib_verbs.h>

struct arbel_dev;

/* The GID table the driver reports: one GUIDInfo block. */
#define ARBEL_GID_TABLE_LEN	8

int arbel_mad_node_info(struct arbel_dev *adev, __be64 *node_guid,
			__be64 *sys_image_guid, u32 *vendor_id, u8 *ports);
int arbel_mad_node_desc(struct arbel_dev *adev, char *desc);
int arbel_mad_port_info(struct arbel_dev *adev, u32 port,
			struct ib_port_attr *props, __be64 *gid_prefix);
int arbel_mad_guid(struct arbel_dev *adev, u32 port, int index,
		   __be64 *guid);
int arbel_mad_pkey(struct arbel_dev *adev, u32 port, u16 index, u16 *pkey);
int arbel_mad_local(struct arbel_dev *adev, u32 port, const struct ib_mad *in,
		    struct ib_mad *out);

#endif /* _ARBEL_MAD_H */
