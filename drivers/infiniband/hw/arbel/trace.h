/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints for firmware commands: arbel_cmd_start when a command is
 * posted, arbel_cmd_done when it completed, failed or timed out; both
 * record the mode (event or polling).  In event mode start shows the
 * polling token: the slot's token is taken just after.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM arbel

#if !defined(_ARBEL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ARBEL_TRACE_H

#include <linux/device.h>
#include <linux/tracepoint.h>

#include "compat.h"

#include <arbel/status.h>

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
			      arbel_opcode_name(__entry->opcode),
			      __entry->opcode, __entry->op_mod,
			      __entry->in_mod, __entry->token,
			      __entry->status,
			      arbel_status_name(__entry->status),
			      __entry->err, __entry->duration_ns,
			      __entry->event ? "event" : "polling")
);

DEFINE_EVENT(arbel_cmd, arbel_cmd_start,
	     TP_PROTO(struct device *dev, u16 opcode, u8 op_mod, u32 in_mod,
		      u16 token, u8 status, int err, u64 duration_ns,
		      bool event),
	     TP_ARGS(dev, opcode, op_mod, in_mod, token, status, err,
		     duration_ns, event)
);

DEFINE_EVENT(arbel_cmd, arbel_cmd_done,
	     TP_PROTO(struct device *dev, u16 opcode, u8 op_mod, u32 in_mod,
		      u16 token, u8 status, int err, u64 duration_ns,
		      bool event),
	     TP_ARGS(dev, opcode, op_mod, in_mod, token, status, err,
		     duration_ns, event)
);

#endif /* _ARBEL_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
