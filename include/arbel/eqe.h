/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event queue entries and contexts as the HCA lays them out, and their
 * pure encoding and decoding (eqe.c).  UML-testable: prm.h-level facts
 * only.  Source: mthca's eq code (struct mthca_eqe, struct mthca_eq_context,
 * the event types and masks), Documentation/arbel-hw.rst "Event queues".
 */
#ifndef _ARBEL_EQE_H
#define _ARBEL_EQE_H

#include <linux/bits.h>
#include <linux/types.h>

/* ---- EQ entry (32 bytes; byte offsets) ------------------------------- */

#define ARBEL_EQE_SIZE			32
#define ARBEL_EQE_TYPE			0x01
#define ARBEL_EQE_SUBTYPE		0x03
#define ARBEL_EQE_OWNER			0x1f
#define ARBEL_EQE_OWNER_HW		BIT(7)	/* the HCA owns the entry */
/* command completion (type 0x0a) */
#define ARBEL_EQE_CMD_TOKEN		0x06	/* be16 */
#define ARBEL_EQE_CMD_STATUS		0x0f
#define ARBEL_EQE_CMD_OUT_PARAM		0x10	/* be64 */
/* port state change (type 0x09): port in bits 29:28 of this be32 */
#define ARBEL_EQE_PORT			0x0c
#define ARBEL_EQE_PORT_MASK		GENMASK(29, 28)
#define ARBEL_PORT_CHANGE_ACTIVE	0x4	/* subtype; anything else: down */
/* queue events: the CQ, QP or SRQ number in bits 23:0 of this be32 */
#define ARBEL_EQE_OBJ			0x04
#define ARBEL_EQE_OBJ_MASK		GENMASK(23, 0)
/* CQ error (type 0x04): the syndrome byte */
#define ARBEL_EQE_CQ_SYNDROME		0x0f

/* Event types (EQE byte 1; bit n of MAP_EQ's mask) */
enum arbel_event_type {
	ARBEL_EV_COMP			= 0x00,
	ARBEL_EV_PATH_MIG		= 0x01,
	ARBEL_EV_COMM_EST		= 0x02,
	ARBEL_EV_SQ_DRAINED		= 0x03,
	ARBEL_EV_CQ_ERROR		= 0x04,
	ARBEL_EV_WQ_CATAS_ERROR		= 0x05,
	ARBEL_EV_EEC_CATAS_ERROR	= 0x06,
	ARBEL_EV_PATH_MIG_FAILED	= 0x07,
	ARBEL_EV_LOCAL_CATAS_ERROR	= 0x08,
	ARBEL_EV_PORT_CHANGE		= 0x09,
	ARBEL_EV_CMD			= 0x0a,
	ARBEL_EV_ECC_DETECT		= 0x0e,
	ARBEL_EV_EQ_OVERFLOW		= 0x0f,
	ARBEL_EV_WQ_INVAL_REQ_ERROR	= 0x10,
	ARBEL_EV_WQ_ACCESS_ERROR	= 0x11,
	ARBEL_EV_SRQ_CATAS_ERROR	= 0x12,
	ARBEL_EV_SRQ_LAST_WQE		= 0x13,
	ARBEL_EV_SRQ_LIMIT		= 0x14,
	ARBEL_EV_NR			= 0x20,	/* types counted in debugfs */
};

/* The asynchronous events the driver's EQ takes (mthca's async mask) */
#define ARBEL_ASYNC_EVENT_MASK	(BIT_ULL(ARBEL_EV_PATH_MIG) |		\
				 BIT_ULL(ARBEL_EV_COMM_EST) |		\
				 BIT_ULL(ARBEL_EV_SQ_DRAINED) |		\
				 BIT_ULL(ARBEL_EV_CQ_ERROR) |		\
				 BIT_ULL(ARBEL_EV_WQ_CATAS_ERROR) |	\
				 BIT_ULL(ARBEL_EV_EEC_CATAS_ERROR) |	\
				 BIT_ULL(ARBEL_EV_PATH_MIG_FAILED) |	\
				 BIT_ULL(ARBEL_EV_WQ_INVAL_REQ_ERROR) |	\
				 BIT_ULL(ARBEL_EV_WQ_ACCESS_ERROR) |	\
				 BIT_ULL(ARBEL_EV_LOCAL_CATAS_ERROR) |	\
				 BIT_ULL(ARBEL_EV_PORT_CHANGE) |	\
				 BIT_ULL(ARBEL_EV_ECC_DETECT) |		\
				 BIT_ULL(ARBEL_EV_SRQ_CATAS_ERROR) |	\
				 BIT_ULL(ARBEL_EV_SRQ_LAST_WQE) |	\
				 BIT_ULL(ARBEL_EV_SRQ_LIMIT))
#define ARBEL_CMD_EVENT_MASK	BIT_ULL(ARBEL_EV_CMD)

/* MAP_EQ: in_mod bit 31 unmaps */
#define ARBEL_MAP_EQ_UNMAP		BIT(31)

/* ---- EQ context (SW2HW_EQ inbox, 0x40 bytes; byte offsets) ----------- */

#define ARBEL_EQC_SIZE			0x40
#define ARBEL_EQC_FLAGS			0x00	/* be32 */
#define ARBEL_EQC_STATUS		GENMASK(31, 28)
#define ARBEL_EQC_OWNER			GENMASK(27, 24)
#define ARBEL_EQC_OWNER_HW		1
#define ARBEL_EQC_STATE			GENMASK(11, 8)
#define ARBEL_EQC_STATE_ARMED		1
#define ARBEL_EQC_STATE_ARBEL		8	/* mem-free bit, set with the state */
#define ARBEL_EQC_START			0x04	/* be64, buffer virtual address */
#define ARBEL_EQC_LOG_SIZE		0x0c	/* be32, log2 of EQEs in 28:24 */
#define ARBEL_EQC_LOG_SIZE_MASK		GENMASK(28, 24)
#define ARBEL_EQC_INTR			0x17	/* INTx pin, or 128 + MSI-X vector */
#define ARBEL_EQC_PD			0x18	/* be32 */
#define ARBEL_EQC_LKEY			0x1c	/* be32 */
#define ARBEL_EQC_CI			0x28	/* be32 */
#define ARBEL_EQC_PI			0x2c	/* be32 */
#define ARBEL_EQ_INTR_MSIX		128

/* ---- Doorbells and the catastrophic-error buffer --------------------- */

/* Arm: eq_arm_base + 4 holds EQs 0..31 (+0: 32..63), big-endian bit n */
#define ARBEL_EQ_ARM_LOW		4
/* Set-CI: eq_set_ci_base + 8 * eqn, big-endian consumer index */
#define ARBEL_EQ_SET_CI_STRIDE		8
/* Clear interrupt: clr_int_base + 4 holds pins 0..31 (+0: 32..63) */
#define ARBEL_CLR_INT_LOW		4
/* Catastrophic-error buffer dword 0, bits 31:24: the error's type */
#define ARBEL_CATAS_TYPE		GENMASK(31, 24)

/**
 * struct arbel_eqe_info - what one EQE says
 * @type: event type (enum arbel_event_type)
 * @subtype: event subtype
 * @token: command completion: the command's token
 * @status: command completion: its firmware status
 * @out_param: command completion: its immediate output
 * @port: port state change: the port (1 or 2)
 * @port_active: port state change: the port went active (else down)
 * @obj: completion, CQ, QP and SRQ events: the queue's number
 * @syndrome: CQ error: why (1 overrun, 2 access violation)
 */
struct arbel_eqe_info {
	u8 type;
	u8 subtype;
	u16 token;
	u8 status;
	u64 out_param;
	u8 port;
	bool port_active;
	u32 obj;
	u8 syndrome;
};

/**
 * struct arbel_eqc - the fields of an EQ context the driver sets
 * @start: buffer virtual address (its region's iova)
 * @log_size: log2 of the number of EQEs
 * @intr: INTx pin, or %ARBEL_EQ_INTR_MSIX + MSI-X vector
 * @pd: PD of the buffer's region
 * @lkey: lkey of the buffer's region
 */
struct arbel_eqc {
	u64 start;
	u8 log_size;
	u8 intr;
	u32 pd;
	u32 lkey;
};

bool arbel_eqe_sw_owned(const u8 *eqe);
void arbel_eqe_decode(const u8 *eqe, struct arbel_eqe_info *info);
void arbel_eqc_encode(const struct arbel_eqc *eqc, u8 *ctx);
const char *arbel_event_name(u8 type);
const char *arbel_catas_type_name(u32 dword0);

#endif /* _ARBEL_EQE_H */
