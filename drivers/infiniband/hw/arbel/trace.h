/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints for firmware commands: arbel_cmd_start when a command is
 * posted, arbel_cmd_done when it completed, failed or timed out.  Both
 * record the mode (event or polling) and the command's token: in event
 * mode its slot's, in polling mode 0xffff.  Opcodes and statuses are
 * printed through __print_symbolic() tables of plain constants, so that
 * trace-cmd and perf decode a recorded trace offline.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM arbel

#if !defined(_ARBEL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ARBEL_TRACE_H

#include <linux/device.h>
#include <linux/tracepoint.h>

#include <arbel/prm.h>
#include "compat.h"

/*
 * Opcode and status names for the format (the names of status.c's
 * tables): a TP_printk() may not call arbel_opcode_name().
 */
#define arbel_show_opcode(op)						\
	__print_symbolic(op,						\
			 { ARBEL_CMD_SYS_EN, "SYS_EN" },		\
			 { ARBEL_CMD_SYS_DIS, "SYS_DIS" },		\
			 { ARBEL_CMD_QUERY_DEV_LIM, "QUERY_DEV_LIM" },	\
			 { ARBEL_CMD_QUERY_FW, "QUERY_FW" },		\
			 { ARBEL_CMD_QUERY_DDR, "QUERY_DDR" },		\
			 { ARBEL_CMD_QUERY_ADAPTER, "QUERY_ADAPTER" },	\
			 { ARBEL_CMD_INIT_HCA, "INIT_HCA" },		\
			 { ARBEL_CMD_CLOSE_HCA, "CLOSE_HCA" },		\
			 { ARBEL_CMD_INIT_IB, "INIT_IB" },		\
			 { ARBEL_CMD_CLOSE_IB, "CLOSE_IB" },		\
			 { ARBEL_CMD_QUERY_HCA, "QUERY_HCA" },		\
			 { ARBEL_CMD_SET_IB, "SET_IB" },		\
			 { ARBEL_CMD_SW2HW_MPT, "SW2HW_MPT" },		\
			 { ARBEL_CMD_QUERY_MPT, "QUERY_MPT" },		\
			 { ARBEL_CMD_HW2SW_MPT, "HW2SW_MPT" },		\
			 { ARBEL_CMD_READ_MTT, "READ_MTT" },		\
			 { ARBEL_CMD_WRITE_MTT, "WRITE_MTT" },		\
			 { ARBEL_CMD_MAP_EQ, "MAP_EQ" },		\
			 { ARBEL_CMD_SW2HW_EQ, "SW2HW_EQ" },		\
			 { ARBEL_CMD_HW2SW_EQ, "HW2SW_EQ" },		\
			 { ARBEL_CMD_QUERY_EQ, "QUERY_EQ" },		\
			 { ARBEL_CMD_SW2HW_CQ, "SW2HW_CQ" },		\
			 { ARBEL_CMD_HW2SW_CQ, "HW2SW_CQ" },		\
			 { ARBEL_CMD_QUERY_CQ, "QUERY_CQ" },		\
			 { ARBEL_CMD_RST2INIT_QPEE, "RST2INIT_QPEE" },	\
			 { ARBEL_CMD_INIT2RTR_QPEE, "INIT2RTR_QPEE" },	\
			 { ARBEL_CMD_RTR2RTS_QPEE, "RTR2RTS_QPEE" },	\
			 { ARBEL_CMD_RTS2RTS_QPEE, "RTS2RTS_QPEE" },	\
			 { ARBEL_CMD_SQERR2RTS_QPEE, "SQERR2RTS_QPEE" }, \
			 { ARBEL_CMD_2ERR_QPEE, "2ERR_QPEE" },		\
			 { ARBEL_CMD_RTS2SQD_QPEE, "RTS2SQD_QPEE" },	\
			 { ARBEL_CMD_SQD2RTS_QPEE, "SQD2RTS_QPEE" },	\
			 { ARBEL_CMD_ERR2RST_QPEE, "ERR2RST_QPEE" },	\
			 { ARBEL_CMD_QUERY_QPEE, "QUERY_QPEE" },	\
			 { ARBEL_CMD_CONF_SPECIAL_QP, "CONF_SPECIAL_QP" }, \
			 { ARBEL_CMD_MAD_IFC, "MAD_IFC" },		\
			 { ARBEL_CMD_READ_MGM, "READ_MGM" },		\
			 { ARBEL_CMD_WRITE_MGM, "WRITE_MGM" },		\
			 { ARBEL_CMD_MGID_HASH, "MGID_HASH" },		\
			 { ARBEL_CMD_QUERY_DEBUG_MSG, "QUERY_DEBUG_MSG" }, \
			 { ARBEL_CMD_SET_DEBUG_MSG, "SET_DEBUG_MSG" },	\
			 { ARBEL_CMD_RESIZE_CQ, "RESIZE_CQ" },		\
			 { ARBEL_CMD_INIT2INIT_QPEE, "INIT2INIT_QPEE" }, \
			 { ARBEL_CMD_ACCESS_DDR, "ACCESS_DDR" },	\
			 { ARBEL_CMD_SYNC_TPT, "SYNC_TPT" },		\
			 { ARBEL_CMD_DIAG_RPRT, "DIAG_RPRT" },		\
			 { ARBEL_CMD_NOP, "NOP" },			\
			 { ARBEL_CMD_SUSPEND_QPEE, "SUSPEND_QPEE" },	\
			 { ARBEL_CMD_UNSUSPEND_QPEE, "UNSUSPEND_QPEE" }, \
			 { ARBEL_CMD_MOD_STAT_CFG, "MOD_STAT_CFG" },	\
			 { ARBEL_CMD_SW2HW_SRQ, "SW2HW_SRQ" },		\
			 { ARBEL_CMD_HW2SW_SRQ, "HW2SW_SRQ" },		\
			 { ARBEL_CMD_QUERY_SRQ, "QUERY_SRQ" },		\
			 { ARBEL_CMD_SQD2SQD_QPEE, "SQD2SQD_QPEE" },	\
			 { ARBEL_CMD_ARM_SRQ, "ARM_SRQ" },		\
			 { ARBEL_CMD_RUN_FW, "RUN_FW" },		\
			 { ARBEL_CMD_DISABLE_LAM, "DISABLE_LAM" },	\
			 { ARBEL_CMD_ENABLE_LAM, "ENABLE_LAM" },	\
			 { ARBEL_CMD_UNMAP_ICM, "UNMAP_ICM" },		\
			 { ARBEL_CMD_MAP_ICM, "MAP_ICM" },		\
			 { ARBEL_CMD_UNMAP_ICM_AUX, "UNMAP_ICM_AUX" },	\
			 { ARBEL_CMD_MAP_ICM_AUX, "MAP_ICM_AUX" },	\
			 { ARBEL_CMD_SET_ICM_SIZE, "SET_ICM_SIZE" },	\
			 { ARBEL_CMD_UNMAP_FA, "UNMAP_FA" },		\
			 { ARBEL_CMD_MAP_FA, "MAP_FA" })

#define arbel_show_status(st)						\
	__print_symbolic(st,						\
			 { ARBEL_STAT_OK, "OK" },			\
			 { ARBEL_STAT_INTERNAL_ERR, "INTERNAL_ERR" },	\
			 { ARBEL_STAT_BAD_OP, "BAD_OP" },		\
			 { ARBEL_STAT_BAD_PARAM, "BAD_PARAM" },		\
			 { ARBEL_STAT_BAD_SYS_STATE, "BAD_SYS_STATE" },	\
			 { ARBEL_STAT_BAD_RESOURCE, "BAD_RESOURCE" },	\
			 { ARBEL_STAT_RESOURCE_BUSY, "RESOURCE_BUSY" },	\
			 { ARBEL_STAT_DDR_MEM_ERR, "DDR_MEM_ERR" },	\
			 { ARBEL_STAT_EXCEED_LIM, "EXCEED_LIM" },	\
			 { ARBEL_STAT_BAD_RES_STATE, "BAD_RES_STATE" },	\
			 { ARBEL_STAT_BAD_INDEX, "BAD_INDEX" },		\
			 { ARBEL_STAT_BAD_NVMEM, "BAD_NVMEM" },		\
			 { ARBEL_STAT_BAD_QPEE_STATE, "BAD_QPEE_STATE" }, \
			 { ARBEL_STAT_BAD_SEG_PARAM, "BAD_SEG_PARAM" },	\
			 { ARBEL_STAT_REG_BOUND, "REG_BOUND" },		\
			 { ARBEL_STAT_LAM_NOT_PRE, "LAM_NOT_PRE" },	\
			 { ARBEL_STAT_BAD_PKT, "BAD_PKT" },		\
			 { ARBEL_STAT_BAD_SIZE, "BAD_SIZE" })

/* One class for both events; a start has no status, errno or duration. */
DECLARE_EVENT_CLASS(arbel_cmd,
		    TP_PROTO(struct device *dev, u16 opcode, u8 op_mod,
			     u32 in_mod, u16 token, u8 status, int err,
			     u64 duration_ns, bool event),
		    TP_ARGS(dev, opcode, op_mod, in_mod, token, status, err,
			    duration_ns, event),
		    TP_STRUCT__entry(__string(dev, dev_name(dev))
				     __field(u16, opcode)
				     __field(u8, op_mod)
				     __field(u32, in_mod)
				     __field(u16, token)
				     __field(u8, status)
				     __field(int, err)
				     __field(u64, duration_ns)
				     __field(bool, event)),
		    TP_fast_assign(arbel_assign_str(dev, dev_name(dev));
				   __entry->opcode = opcode;
				   __entry->op_mod = op_mod;
				   __entry->in_mod = in_mod;
				   __entry->token = token;
				   __entry->status = status;
				   __entry->err = err;
				   __entry->duration_ns = duration_ns;
				   __entry->event = event;),
		    TP_printk("%s %s (0x%03x) op_mod=%u in_mod=0x%x token=0x%04x status=0x%02x (%s) err=%d %llu ns mode=%s",
			      __get_str(dev),
			      arbel_show_opcode(__entry->opcode),
			      __entry->opcode, __entry->op_mod,
			      __entry->in_mod, __entry->token,
			      __entry->status,
			      arbel_show_status(__entry->status),
			      __entry->err, __entry->duration_ns,
			      __entry->event ? "event" : "polling")
);

#define DEFINE_ARBEL_CMD_EVENT(name)					\
	DEFINE_EVENT(arbel_cmd, name,					\
		     TP_PROTO(struct device *dev, u16 opcode, u8 op_mod,	\
			      u32 in_mod, u16 token, u8 status, int err,	\
			      u64 duration_ns, bool event),		\
		     TP_ARGS(dev, opcode, op_mod, in_mod, token, status,	\
			     err, duration_ns, event))

DEFINE_ARBEL_CMD_EVENT(arbel_cmd_start);
DEFINE_ARBEL_CMD_EVENT(arbel_cmd_done);

#endif /* _ARBEL_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
