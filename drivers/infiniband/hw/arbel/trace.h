/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints for firmware commands: arbel_cmd_start when a command is
 * posted, arbel_cmd_done when it completed, failed or timed out.  Both
 * record the mode (event or polling) and the command's token: in event
 * mode its slot's, in polling mode 0xffff.  Opcodes and statuses are
 * printed through __print_symbolic() tables (with TRACE_DEFINE_ENUM), so
 * that trace-cmd and perf decode a recorded trace offline.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM arbel

#if !defined(_ARBEL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ARBEL_TRACE_H

#include <linux/device.h>
#include <linux/tracepoint.h>

#include <arbel/prm.h>
#include <arbel/status.h>
#include "compat.h"

#undef ARBEL_TRACE_OP
#undef ARBEL_TRACE_ST
#define ARBEL_TRACE_OP(name)		TRACE_DEFINE_ENUM(ARBEL_CMD_##name);
#define ARBEL_TRACE_ST(name, err)	TRACE_DEFINE_ENUM(ARBEL_STAT_##name);
ARBEL_OPCODE_LIST(ARBEL_TRACE_OP, ARBEL_TRACE_OP)
ARBEL_STATUS_LIST(ARBEL_TRACE_ST, ARBEL_TRACE_ST)

#undef ARBEL_TRACE_OP
#undef ARBEL_TRACE_OP_END
#undef ARBEL_TRACE_ST
#undef ARBEL_TRACE_ST_END
#define ARBEL_TRACE_OP(name)		{ ARBEL_CMD_##name, #name },
#define ARBEL_TRACE_OP_END(name)	{ ARBEL_CMD_##name, #name }
#define ARBEL_TRACE_ST(name, err)	{ ARBEL_STAT_##name, #name },
#define ARBEL_TRACE_ST_END(name, err)	{ ARBEL_STAT_##name, #name }
#define arbel_show_opcode(op)						\
	__print_symbolic(op, ARBEL_OPCODE_LIST(ARBEL_TRACE_OP,		\
					       ARBEL_TRACE_OP_END))
#define arbel_show_status(st)						\
	__print_symbolic(st, ARBEL_STATUS_LIST(ARBEL_TRACE_ST,		\
					       ARBEL_TRACE_ST_END))

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
