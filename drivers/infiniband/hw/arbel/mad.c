// SPDX-License-Identifier: GPL-2.0-only
/*
 * NodeInfo, NodeDescription, PortInfo, GUIDInfo and P_KeyTable through the
 * firmware's subnet management agent (MAD_IFC): the real values behind
 * query_device, query_port, query_gid and query_pkey.  Attribute offsets
 * are the InfiniBand specification's.
 */

#include <linux/slab.h>
#include "compat.h"
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>

#include "arbel.h"
#include "mad.h"

/* NodeInfo */
#define NI_NUM_PORTS		3
#define NI_SYS_IMAGE_GUID	4
#define NI_NODE_GUID		12
#define NI_VENDOR_ID		37	/* 24 bits */
/* PortInfo */
#define PI_GID_PREFIX		8
#define PI_LID			16
#define PI_SM_LID		18
#define PI_CAP_MASK		20
#define PI_WIDTH_ACTIVE		31
#define PI_STATE		32	/* low nibble */
#define PI_PHYS_STATE		33	/* high nibble */
#define PI_LMC			34	/* bits 2:0 */
#define PI_SPEED_ACTIVE		35	/* high nibble */
#define PI_MTU_ACTIVE		36	/* high nibble; SM SL low nibble */
#define PI_VL_CAP		37	/* high nibble */
#define PI_MTU_CAP		41	/* low nibble */
#define PI_PKEY_VIOL		46
#define PI_QKEY_VIOL		48
#define PI_SUBNET_TIMEOUT	51	/* bits 4:0 */

#define ARBEL_GUIDS_PER_BLOCK	8
#define ARBEL_PKEYS_PER_BLOCK	32

/* SubnGet(attr, mod) on @port; the answer's attribute data goes to @data. */
static int arbel_mad_get(struct arbel_dev *adev, u32 port, __be16 attr,
			 u32 mod, u8 data[IB_SMP_DATA_SIZE])
{
	struct ib_smp *in, *out;
	int err;

	in = kzalloc(sizeof(*in), GFP_KERNEL);
	out = kzalloc(sizeof(*out), GFP_KERNEL);
	if (!in || !out) {
		err = -ENOMEM;
		goto out;
	}
	in->base_version = IB_MGMT_BASE_VERSION;
	in->mgmt_class = IB_MGMT_CLASS_SUBN_LID_ROUTED;
	in->class_version = 1;
	in->method = IB_MGMT_METHOD_GET;
	in->attr_id = attr;
	in->attr_mod = cpu_to_be32(mod);

	err = arbel_fw_mad_ifc(&adev->cmd, port, in, out);
	if (err)
		goto out;
	if (out->status) {
		dev_dbg(&adev->pdev->dev, "MAD 0x%04x failed: status 0x%04x\n",
			be16_to_cpu(attr), be16_to_cpu(out->status));
		err = -EINVAL;
		goto out;
	}
	memcpy(data, out->data, IB_SMP_DATA_SIZE);
out:
	kfree(out);
	kfree(in);
	return err;
}

/**
 * arbel_mad_node_info() - GUIDs, vendor and port count from NodeInfo
 * @adev: the HCA
 * @node_guid: receives the node GUID
 * @sys_image_guid: receives the system image GUID
 * @vendor_id: receives the 24-bit vendor ID
 * @ports: receives the number of ports
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno.
 */
int arbel_mad_node_info(struct arbel_dev *adev, __be64 *node_guid,
			__be64 *sys_image_guid, u32 *vendor_id, u8 *ports)
{
	u8 d[IB_SMP_DATA_SIZE];
	int err;

	err = arbel_mad_get(adev, 1, IB_SMP_ATTR_NODE_INFO, 0, d);
	if (err)
		return err;
	*ports = d[NI_NUM_PORTS];
	memcpy(sys_image_guid, d + NI_SYS_IMAGE_GUID, sizeof(*sys_image_guid));
	memcpy(node_guid, d + NI_NODE_GUID, sizeof(*node_guid));
	*vendor_id = d[NI_VENDOR_ID] << 16 | d[NI_VENDOR_ID + 1] << 8 |
		     d[NI_VENDOR_ID + 2];
	return 0;
}

/**
 * arbel_mad_node_desc() - NodeDescription
 * @adev: the HCA
 * @desc: receives IB_DEVICE_NODE_DESC_MAX bytes
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno.
 */
int arbel_mad_node_desc(struct arbel_dev *adev, char *desc)
{
	u8 d[IB_SMP_DATA_SIZE];
	int err;

	err = arbel_mad_get(adev, 1, IB_SMP_ATTR_NODE_DESC, 0, d);
	if (!err)
		memcpy(desc, d, IB_DEVICE_NODE_DESC_MAX);
	return err;
}

/**
 * arbel_mad_port_info() - port attributes from PortInfo
 * @adev: the HCA
 * @port: port number
 * @props: filled with state, LIDs, MTUs, widths, speeds and counters
 * @gid_prefix: receives the subnet prefix (may be NULL)
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno.
 */
int arbel_mad_port_info(struct arbel_dev *adev, u32 port,
			struct ib_port_attr *props, __be64 *gid_prefix)
{
	u8 d[IB_SMP_DATA_SIZE];
	int err;

	err = arbel_mad_get(adev, port, IB_SMP_ATTR_PORT_INFO, port, d);
	if (err)
		return err;
	if (gid_prefix)
		memcpy(gid_prefix, d + PI_GID_PREFIX, sizeof(*gid_prefix));
	if (!props)
		return 0;
	props->lid = get_unaligned_be16(d + PI_LID);
	props->sm_lid = get_unaligned_be16(d + PI_SM_LID);
	props->port_cap_flags = get_unaligned_be32(d + PI_CAP_MASK);
	props->active_width = d[PI_WIDTH_ACTIVE] & 0xf;
	props->state = d[PI_STATE] & 0xf;
	props->phys_state = d[PI_PHYS_STATE] >> 4;
	props->lmc = d[PI_LMC] & 0x7;
	props->active_speed = d[PI_SPEED_ACTIVE] >> 4;
	props->active_mtu = d[PI_MTU_ACTIVE] >> 4;
	props->sm_sl = d[PI_MTU_ACTIVE] & 0xf;
	props->max_vl_num = d[PI_VL_CAP] >> 4;
	props->max_mtu = d[PI_MTU_CAP] & 0xf;
	props->bad_pkey_cntr = get_unaligned_be16(d + PI_PKEY_VIOL);
	props->qkey_viol_cntr = get_unaligned_be16(d + PI_QKEY_VIOL);
	props->subnet_timeout = d[PI_SUBNET_TIMEOUT] & 0x1f;
	props->gid_tbl_len = ARBEL_GID_TABLE_LEN;
	props->pkey_tbl_len = arbel_pkey_table_len(adev);
	props->max_msg_sz = 0x80000000;
	return 0;
}

/**
 * arbel_mad_guid() - one port GUID from GUIDInfo
 * @adev: the HCA
 * @port: port number
 * @index: GUID index
 * @guid: receives the GUID (0 for an empty entry)
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno.
 */
int arbel_mad_guid(struct arbel_dev *adev, u32 port, int index,
		   __be64 *guid)
{
	u8 d[IB_SMP_DATA_SIZE];
	int err;

	err = arbel_mad_get(adev, port, IB_SMP_ATTR_GUID_INFO,
			    index / ARBEL_GUIDS_PER_BLOCK, d);
	if (!err)
		memcpy(guid, d + (index % ARBEL_GUIDS_PER_BLOCK) * 8,
		       sizeof(*guid));
	return err;
}

/**
 * arbel_mad_pkey() - one P_Key from P_KeyTable
 * @adev: the HCA
 * @port: port number
 * @index: P_Key index
 * @pkey: receives the P_Key
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno.
 */
int arbel_mad_pkey(struct arbel_dev *adev, u32 port, u16 index, u16 *pkey)
{
	u8 d[IB_SMP_DATA_SIZE];
	int err;

	err = arbel_mad_get(adev, port, IB_SMP_ATTR_PKEY_TABLE,
			    index / ARBEL_PKEYS_PER_BLOCK, d);
	if (!err)
		*pkey = get_unaligned_be16(d + (index % ARBEL_PKEYS_PER_BLOCK) *
					   2);
	return err;
}

/* what the firmware's agents answer (mthca's choice of classes) */
static bool arbel_mad_for_firmware(const struct ib_mad_hdr *hdr)
{
	switch (hdr->mgmt_class) {
	case IB_MGMT_CLASS_SUBN_LID_ROUTED:
	case IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE:
		return hdr->method == IB_MGMT_METHOD_GET ||
		       hdr->method == IB_MGMT_METHOD_SET ||
		       hdr->method == IB_MGMT_METHOD_TRAP_REPRESS;
	case IB_MGMT_CLASS_PERF_MGMT:
		return hdr->method == IB_MGMT_METHOD_GET ||
		       hdr->method == IB_MGMT_METHOD_SET;
	default:
		return false;
	}
}

/**
 * arbel_mad_local() - a MAD for the local agents: SMA and PMA, in firmware
 * @adev: the HCA
 * @port: the port the MAD is for
 * @in: the MAD
 * @out: receives the answer
 *
 * Subnet management Get/Set/TrapRepress and performance management
 * Get/Set go to MAD_IFC (its key checks skipped, as for the driver's own
 * queries); everything else is not the device's to answer.
 *
 * Context: process; sleeps.
 * Return: IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY with @out filled,
 * IB_MAD_RESULT_SUCCESS for a MAD it does not answer (with
 * IB_MAD_RESULT_CONSUMED for a TrapRepress), or IB_MAD_RESULT_FAILURE.
 */
int arbel_mad_local(struct arbel_dev *adev, u32 port, const struct ib_mad *in,
		    struct ib_mad *out)
{
	if (!arbel_mad_for_firmware(&in->mad_hdr))
		return IB_MAD_RESULT_SUCCESS;
	if (arbel_fw_mad_ifc(&adev->cmd, port, in, out))
		return IB_MAD_RESULT_FAILURE;
	if (in->mad_hdr.method == IB_MGMT_METHOD_TRAP_REPRESS)
		return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_CONSUMED;
	return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
}
