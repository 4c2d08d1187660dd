/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Firmware status codes and opcodes by name, and the status -> errno table.
 * Pure code: runs under UML KUnit.
 */
#ifndef _ARBEL_STATUS_H
#define _ARBEL_STATUS_H

#include <linux/types.h>

/*
 * Every opcode (enum arbel_opcode) and status (enum arbel_status) by
 * name, written once: status.c builds its tables from these lists and
 * trace.h its __print_symbolic() tables.  @x is applied to every entry but
 * the last, @y to the last (a symbol table takes no trailing comma).
 * ARBEL_STATUS_LIST's second argument is the status's errno (mthca's).
 */
#define ARBEL_OPCODE_LIST(x, y)						\
	x(SYS_EN) x(SYS_DIS) x(QUERY_DEV_LIM) x(QUERY_FW) x(QUERY_DDR)	\
	x(QUERY_ADAPTER) x(INIT_HCA) x(CLOSE_HCA) x(INIT_IB) x(CLOSE_IB)	\
	x(QUERY_HCA) x(SET_IB) x(SW2HW_MPT) x(QUERY_MPT) x(HW2SW_MPT)	\
	x(READ_MTT) x(WRITE_MTT) x(MAP_EQ) x(SW2HW_EQ) x(HW2SW_EQ)	\
	x(QUERY_EQ) x(SW2HW_CQ) x(HW2SW_CQ) x(QUERY_CQ)			\
	x(RST2INIT_QPEE) x(INIT2RTR_QPEE) x(RTR2RTS_QPEE)		\
	x(RTS2RTS_QPEE) x(SQERR2RTS_QPEE) x(2ERR_QPEE) x(RTS2SQD_QPEE)	\
	x(SQD2RTS_QPEE) x(ERR2RST_QPEE) x(QUERY_QPEE)			\
	x(CONF_SPECIAL_QP) x(MAD_IFC) x(READ_MGM) x(WRITE_MGM)		\
	x(MGID_HASH) x(QUERY_DEBUG_MSG) x(SET_DEBUG_MSG) x(RESIZE_CQ)	\
	x(INIT2INIT_QPEE) x(ACCESS_DDR) x(SYNC_TPT) x(DIAG_RPRT) x(NOP)	\
	x(SUSPEND_QPEE) x(UNSUSPEND_QPEE) x(MOD_STAT_CFG) x(SW2HW_SRQ)	\
	x(HW2SW_SRQ) x(QUERY_SRQ) x(SQD2SQD_QPEE) x(ARM_SRQ) x(RUN_FW)	\
	x(DISABLE_LAM) x(ENABLE_LAM) x(UNMAP_ICM) x(MAP_ICM)		\
	x(UNMAP_ICM_AUX) x(MAP_ICM_AUX) x(SET_ICM_SIZE) x(UNMAP_FA)	\
	y(MAP_FA)

#define ARBEL_STATUS_LIST(x, y)						\
	x(OK, 0) x(INTERNAL_ERR, -EIO) x(BAD_OP, -EPERM)			\
	x(BAD_PARAM, -EINVAL) x(BAD_SYS_STATE, -ENXIO)			\
	x(BAD_RESOURCE, -EBADF) x(RESOURCE_BUSY, -EBUSY)		\
	x(DDR_MEM_ERR, -ENOMEM) x(EXCEED_LIM, -ENOMEM)			\
	x(BAD_RES_STATE, -EBADF) x(BAD_INDEX, -EBADF)			\
	x(BAD_NVMEM, -EFAULT) x(BAD_QPEE_STATE, -EINVAL)		\
	x(BAD_SEG_PARAM, -EFAULT) x(REG_BOUND, -EBUSY)			\
	x(LAM_NOT_PRE, -EAGAIN) x(BAD_PKT, -EBADMSG)			\
	y(BAD_SIZE, -ENOMEM)

int arbel_status_to_errno(u8 status);
bool arbel_status_known(u8 status);
const char *arbel_status_name(u8 status);
const char *arbel_opcode_name(u16 opcode);

#endif /* _ARBEL_STATUS_H */
