// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware status codes -> errno, and names for opcodes and statuses (for
 * logs, debugfs and tracepoints).
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <kunit/visibility.h>

#include <arbel/prm.h>
#include <arbel/status.h>

struct arbel_status_info {
	u8 status;
	int err;
	const char *name;
};

static const struct arbel_status_info arbel_statuses[] = {
	{ ARBEL_STAT_OK,		0,		"OK" },
	{ ARBEL_STAT_INTERNAL_ERR,	-EIO,		"INTERNAL_ERR" },
	{ ARBEL_STAT_BAD_OP,		-EPERM,		"BAD_OP" },
	{ ARBEL_STAT_BAD_PARAM,		-EINVAL,	"BAD_PARAM" },
	{ ARBEL_STAT_BAD_SYS_STATE,	-ENXIO,		"BAD_SYS_STATE" },
	{ ARBEL_STAT_BAD_RESOURCE,	-EBADF,		"BAD_RESOURCE" },
	{ ARBEL_STAT_RESOURCE_BUSY,	-EBUSY,		"RESOURCE_BUSY" },
	{ ARBEL_STAT_DDR_MEM_ERR,	-ENOMEM,	"DDR_MEM_ERR" },
	{ ARBEL_STAT_EXCEED_LIM,	-ENOMEM,	"EXCEED_LIM" },
	{ ARBEL_STAT_BAD_RES_STATE,	-EBADF,		"BAD_RES_STATE" },
	{ ARBEL_STAT_BAD_INDEX,		-EBADF,		"BAD_INDEX" },
	{ ARBEL_STAT_BAD_NVMEM,		-EFAULT,	"BAD_NVMEM" },
	{ ARBEL_STAT_BAD_QPEE_STATE,	-EINVAL,	"BAD_QPEE_STATE" },
	{ ARBEL_STAT_BAD_SEG_PARAM,	-EFAULT,	"BAD_SEG_PARAM" },
	{ ARBEL_STAT_REG_BOUND,		-EBUSY,		"REG_BOUND" },
	{ ARBEL_STAT_LAM_NOT_PRE,	-EAGAIN,	"LAM_NOT_PRE" },
	{ ARBEL_STAT_BAD_PKT,		-EBADMSG,	"BAD_PKT" },
	{ ARBEL_STAT_BAD_SIZE,		-ENOMEM,	"BAD_SIZE" },
};

static const struct arbel_status_info *arbel_status_find(u8 status)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(arbel_statuses); i++)
		if (arbel_statuses[i].status == status)
			return &arbel_statuses[i];
	return NULL;
}

/**
 * arbel_status_to_errno() - the errno a firmware status stands for
 * @status: HCR status byte
 *
 * Context: any.
 * Return: 0 for OK, a negative errno for every status the PRM names, and
 * -EINVAL for any other status.
 */
int arbel_status_to_errno(u8 status)
{
	const struct arbel_status_info *info = arbel_status_find(status);

	return info ? info->err : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_status_to_errno);

/**
 * arbel_status_known() - whether the PRM names a firmware status
 * @status: HCR status byte
 *
 * Context: any.
 * Return: true for the statuses in the PRM's table.
 */
bool arbel_status_known(u8 status)
{
	return arbel_status_find(status);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_status_known);

/**
 * arbel_status_name() - the PRM name of a firmware status
 * @status: HCR status byte
 *
 * Context: any.
 * Return: a static string, "UNKNOWN" for statuses the PRM does not name.
 */
const char *arbel_status_name(u8 status)
{
	const struct arbel_status_info *info = arbel_status_find(status);

	return info ? info->name : "UNKNOWN";
}
EXPORT_SYMBOL_IF_KUNIT(arbel_status_name);

struct arbel_opcode_info {
	u16 opcode;
	const char *name;
};

#define ARBEL_OP(name) { ARBEL_CMD_##name, #name }

static const struct arbel_opcode_info arbel_opcodes[] = {
	ARBEL_OP(SYS_EN), ARBEL_OP(SYS_DIS), ARBEL_OP(QUERY_DEV_LIM),
	ARBEL_OP(QUERY_FW), ARBEL_OP(QUERY_DDR), ARBEL_OP(QUERY_ADAPTER),
	ARBEL_OP(INIT_HCA), ARBEL_OP(CLOSE_HCA), ARBEL_OP(INIT_IB),
	ARBEL_OP(CLOSE_IB), ARBEL_OP(QUERY_HCA), ARBEL_OP(SET_IB),
	ARBEL_OP(SW2HW_MPT), ARBEL_OP(QUERY_MPT), ARBEL_OP(HW2SW_MPT),
	ARBEL_OP(READ_MTT), ARBEL_OP(WRITE_MTT), ARBEL_OP(MAP_EQ),
	ARBEL_OP(SW2HW_EQ), ARBEL_OP(HW2SW_EQ), ARBEL_OP(QUERY_EQ),
	ARBEL_OP(SW2HW_CQ), ARBEL_OP(HW2SW_CQ), ARBEL_OP(QUERY_CQ),
	ARBEL_OP(RST2INIT_QPEE), ARBEL_OP(INIT2RTR_QPEE),
	ARBEL_OP(RTR2RTS_QPEE), ARBEL_OP(RTS2RTS_QPEE),
	ARBEL_OP(SQERR2RTS_QPEE), ARBEL_OP(2ERR_QPEE),
	ARBEL_OP(RTS2SQD_QPEE), ARBEL_OP(SQD2RTS_QPEE),
	ARBEL_OP(ERR2RST_QPEE), ARBEL_OP(QUERY_QPEE),
	ARBEL_OP(CONF_SPECIAL_QP), ARBEL_OP(MAD_IFC), ARBEL_OP(READ_MGM),
	ARBEL_OP(WRITE_MGM), ARBEL_OP(MGID_HASH), ARBEL_OP(QUERY_DEBUG_MSG),
	ARBEL_OP(SET_DEBUG_MSG), ARBEL_OP(RESIZE_CQ),
	ARBEL_OP(INIT2INIT_QPEE), ARBEL_OP(ACCESS_DDR), ARBEL_OP(SYNC_TPT),
	ARBEL_OP(DIAG_RPRT), ARBEL_OP(NOP), ARBEL_OP(SUSPEND_QPEE),
	ARBEL_OP(UNSUSPEND_QPEE), ARBEL_OP(MOD_STAT_CFG),
	ARBEL_OP(SW2HW_SRQ), ARBEL_OP(HW2SW_SRQ), ARBEL_OP(QUERY_SRQ),
	ARBEL_OP(SQD2SQD_QPEE), ARBEL_OP(ARM_SRQ), ARBEL_OP(RUN_FW),
	ARBEL_OP(DISABLE_LAM), ARBEL_OP(ENABLE_LAM), ARBEL_OP(UNMAP_ICM),
	ARBEL_OP(MAP_ICM), ARBEL_OP(UNMAP_ICM_AUX), ARBEL_OP(MAP_ICM_AUX),
	ARBEL_OP(SET_ICM_SIZE), ARBEL_OP(UNMAP_FA), ARBEL_OP(MAP_FA),
};

/**
 * arbel_opcode_name() - the PRM name of a firmware opcode
 * @opcode: 12-bit opcode
 *
 * Context: any.
 * Return: a static string such as "SW2HW_MPT", or "UNKNOWN".
 */
const char *arbel_opcode_name(u16 opcode)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(arbel_opcodes); i++)
		if (arbel_opcodes[i].opcode == opcode)
			return arbel_opcodes[i].name;
	return "UNKNOWN";
}
EXPORT_SYMBOL_IF_KUNIT(arbel_opcode_name);
