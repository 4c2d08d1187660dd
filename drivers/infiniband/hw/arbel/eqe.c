// SPDX-License-Identifier: GPL-2.0-only
/*
 * EQ entries and contexts: decoding what the HCA writes, encoding what
 * SW2HW_EQ takes, names for logs.  Pure code: runs under UML KUnit.
 */

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "compat.h"
#include <arbel/eqe.h>

/**
 * arbel_eqe_sw_owned() - whether software owns an EQ entry
 * @eqe: the 32-byte entry
 *
 * The HCA clears the owner bit when it writes an entry; the driver sets
 * it again once the entry is consumed.
 *
 * Context: any.
 * Return: true if the entry holds an event not yet consumed.
 */
bool arbel_eqe_sw_owned(const u8 *eqe)
{
	return !(READ_ONCE(eqe[ARBEL_EQE_OWNER]) & ARBEL_EQE_OWNER_HW);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_eqe_sw_owned);

/**
 * arbel_eqe_decode() - the fields of an EQ entry
 * @eqe: the 32-byte entry, software-owned
 * @info: filled in; fields that the entry's type does not carry are 0
 *
 * Context: any.
 */
void arbel_eqe_decode(const u8 *eqe, struct arbel_eqe_info *info)
{
	memset(info, 0, sizeof(*info));
	info->type = eqe[ARBEL_EQE_TYPE];
	info->subtype = eqe[ARBEL_EQE_SUBTYPE];
	switch (info->type) {
	case ARBEL_EV_CMD:
		info->token = get_unaligned_be16(eqe + ARBEL_EQE_CMD_TOKEN);
		info->status = eqe[ARBEL_EQE_CMD_STATUS];
		info->out_param = get_unaligned_be64(eqe +
						     ARBEL_EQE_CMD_OUT_PARAM);
		break;
	case ARBEL_EV_PORT_CHANGE:
		info->port = FIELD_GET(ARBEL_EQE_PORT_MASK,
				       get_unaligned_be32(eqe + ARBEL_EQE_PORT));
		info->port_active = info->subtype == ARBEL_PORT_CHANGE_ACTIVE;
		break;
	case ARBEL_EV_CQ_ERROR:
		info->syndrome = eqe[ARBEL_EQE_CQ_SYNDROME];
		fallthrough;
	default:
		info->obj = FIELD_GET(ARBEL_EQE_OBJ_MASK,
				      get_unaligned_be32(eqe + ARBEL_EQE_OBJ));
		break;
	}
}
EXPORT_SYMBOL_IF_KUNIT(arbel_eqe_decode);

/**
 * arbel_eqc_encode() - the SW2HW_EQ inbox for an EQ
 * @eqc: the EQ's fields
 * @ctx: receives the %ARBEL_EQC_SIZE-byte context: hardware-owned, status
 *	 OK, armed (with the mem-free state bit), producer and consumer 0
 *
 * Context: any.
 */
void arbel_eqc_encode(const struct arbel_eqc *eqc, u8 *ctx)
{
	memset(ctx, 0, ARBEL_EQC_SIZE);
	put_unaligned_be32(FIELD_PREP(ARBEL_EQC_OWNER, ARBEL_EQC_OWNER_HW) |
			   FIELD_PREP(ARBEL_EQC_STATE, ARBEL_EQC_STATE_ARMED |
				      ARBEL_EQC_STATE_ARBEL),
			   ctx + ARBEL_EQC_FLAGS);
	put_unaligned_be64(eqc->start, ctx + ARBEL_EQC_START);
	put_unaligned_be32(FIELD_PREP(ARBEL_EQC_LOG_SIZE_MASK, eqc->log_size),
			   ctx + ARBEL_EQC_LOG_SIZE);
	ctx[ARBEL_EQC_INTR] = eqc->intr;
	put_unaligned_be32(eqc->pd, ctx + ARBEL_EQC_PD);
	put_unaligned_be32(eqc->lkey, ctx + ARBEL_EQC_LKEY);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_eqc_encode);

/**
 * arbel_event_name() - an event type's name, for logs
 * @type: EQE byte 1
 *
 * Context: any.
 * Return: the name, "UNKNOWN" for a type the driver does not know.
 */
const char *arbel_event_name(u8 type)
{
	switch (type) {
	case ARBEL_EV_COMP: return "COMP";
	case ARBEL_EV_PATH_MIG: return "PATH_MIG";
	case ARBEL_EV_COMM_EST: return "COMM_EST";
	case ARBEL_EV_SQ_DRAINED: return "SQ_DRAINED";
	case ARBEL_EV_CQ_ERROR: return "CQ_ERROR";
	case ARBEL_EV_WQ_CATAS_ERROR: return "WQ_CATAS_ERROR";
	case ARBEL_EV_EEC_CATAS_ERROR: return "EEC_CATAS_ERROR";
	case ARBEL_EV_PATH_MIG_FAILED: return "PATH_MIG_FAILED";
	case ARBEL_EV_LOCAL_CATAS_ERROR: return "LOCAL_CATAS_ERROR";
	case ARBEL_EV_PORT_CHANGE: return "PORT_CHANGE";
	case ARBEL_EV_CMD: return "CMD";
	case ARBEL_EV_ECC_DETECT: return "ECC_DETECT";
	case ARBEL_EV_EQ_OVERFLOW: return "EQ_OVERFLOW";
	case ARBEL_EV_WQ_INVAL_REQ_ERROR: return "WQ_INVAL_REQ_ERROR";
	case ARBEL_EV_WQ_ACCESS_ERROR: return "WQ_ACCESS_ERROR";
	case ARBEL_EV_SRQ_CATAS_ERROR: return "SRQ_CATAS_ERROR";
	case ARBEL_EV_SRQ_LAST_WQE: return "SRQ_LAST_WQE";
	case ARBEL_EV_SRQ_LIMIT: return "SRQ_LIMIT";
	}
	return "UNKNOWN";
}
EXPORT_SYMBOL_IF_KUNIT(arbel_event_name);

/**
 * arbel_catas_type_name() - what a catastrophic error is, for the log
 * @dword0: the catastrophic-error buffer's first dword, host order
 *
 * Types from mthca's catas code: 0 internal, 3 uplink bus, 4 DDR data,
 * 5 internal parity.
 *
 * Context: any.
 * Return: the name.
 */
const char *arbel_catas_type_name(u32 dword0)
{
	switch (FIELD_GET(ARBEL_CATAS_TYPE, dword0)) {
	case 0: return "internal error";
	case 3: return "uplink bus error";
	case 4: return "DDR data error";
	case 5: return "internal parity error";
	}
	return "unknown error";
}
EXPORT_SYMBOL_IF_KUNIT(arbel_catas_type_name);
