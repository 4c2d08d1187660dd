// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "eq": an event queue whose buffer is a physical
 * region, SW2HW_EQ / MAP_EQ / QUERY_EQ / HW2SW_EQ with the refusals the
 * sources state, event-mode commands completing as EQEs (type 0x0a, token,
 * status, owner bit), the arm and set-CI doorbells and the INTx line with
 * its clear-interrupt register (seen in PCI_STATUS.INTERRUPT, with
 * PCI_COMMAND.INTX_DISABLE set so no interrupt reaches the guest), port
 * state change EQEs and the catastrophic-error buffer (debug window).
 *
 * Layouts: mthca's struct mthca_eq_context and struct mthca_eqe, the
 * registers as mthca reaches them (Documentation/arbel-stub.rst).
 */
#include "conformance.h"

#define OP_MAP_EQ		0x012
#define OP_HW2SW_EQ		0x014
#define OP_QUERY_EQ		0x015

#define EQ_MPT_IDX		(RSVD_MPT + 40)
#define EQ_LOG_SIZE		3		/* 8 EQEs of 32 bytes */
#define EQE_SIZE		32
#define EV_CMD			0x0a
#define EV_PORT_CHANGE		0x09
#define TOKEN			0x4a21

#define PCI_STATUS		0x06
#define PCI_STATUS_INT		0x0008
#define PCI_CMD_INTX_OFF	0x0400

static uint64_t clr_int, eq_arm, eq_set_ci;	/* BAR0 offsets */
static struct arbel_dma_page *eqbuf;

static bool intx_raised(void)
{
	return arbel_dev_cfg_read16(dev, PCI_STATUS) & PCI_STATUS_INT;
}

/* the HCA-side addresses QUERY_FW reports, masked into BAR0 as mthca does */
static bool read_regs(void)
{
	if (cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa) != ST_OK)
		return false;
	clr_int = get64(outbox->va + 0x20) & (ARBEL_BAR0_SIZE - 1);
	eq_arm = get64(outbox->va + 0x40) & (ARBEL_BAR0_SIZE - 1);
	eq_set_ci = get64(outbox->va + 0x48) & (ARBEL_BAR0_SIZE - 1);
	return true;
}

/* a command with the e bit and token @token; go clears at once */
static bool ev_cmd(uint16_t op, uint32_t in_mod, uint16_t token)
{
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x00, 0);
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x04, 0);
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x08, in_mod);
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x0c, 0);
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x10, 0);
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x14, (uint32_t)token << 16);
	arbel_be32_write(dev, ARBEL_HCR_CTRL, ARBEL_HCR_GO | ARBEL_HCR_E | op);
	return hcr_wait(1000);
}

static uint8_t *eqe(unsigned int n)
{
	return eqbuf->va + (n % (1u << EQ_LOG_SIZE)) * EQE_SIZE;
}

/* EQE @n: a command completion with @token and @status, software-owned */
static void check_cmd_eqe(unsigned int n, uint16_t token, uint8_t status,
			  const char *name)
{
	const uint8_t *e = eqe(n);

	ktap_test_check(e[1] == EV_CMD && get16(e + 6) == token &&
			e[0x0f] == status && !(e[0x1f] & 0x80), name,
			"type 0x%02x token 0x%04x status 0x%02x owner 0x%02x",
			e[1], get16(e + 6), e[0x0f], e[0x1f]);
}

/* SW2HW_EQ mailbox: mthca's EQ context for EQ buffer @start, key @lkey */
static void eq_ctx(uint8_t *m, uint64_t start, uint32_t lkey)
{
	memset(m, 0, 0x40);
	/* status OK, owner HW, armed, TR, the Arbel state bit (8 << 8) */
	put32(m + 0x00, (1u << 24) | (1u << 18) | (1u << 8) | (8u << 8));
	put64(m + 0x04, start);
	put32(m + 0x0c, EQ_LOG_SIZE << 24);
	m[0x17] = 0;			/* INTx pin A */
	put32(m + 0x18, 7);		/* PD */
	put32(m + 0x1c, lkey);
}

static void refusals_before(void)
{
	check_status(cmd(OP_SW2HW_EQ, 0, inbox->pa, 0, 0), ST_BAD_RESOURCE,
		     "SW2HW_EQ with its context ICM unmapped -> 0x05");
	check_status(cmd(OP_SW2HW_EQ, 0, inbox->pa, 1, 0), ST_BAD_INDEX,
		     "SW2HW_EQ eqn >= 2^log_num_eqs (INIT_HCA) -> 0x0a");
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_CMD, 1, 0), ST_BAD_INDEX,
		     "MAP_EQ eqn >= 2^log_num_eqs -> 0x0a");
}

static void create(uint32_t lkey)
{
	struct arbel_dma_page *pg = page_alloc();
	unsigned int i;

	check_status(map_pages(OP_MAP_ICM, &pg, 1, EQC_BASE), ST_OK,
		     "MAP_ICM the EQ context page");
	check_status(cmd(OP_HW2SW_EQ, 0, 0, 0, outbox->pa), ST_BAD_RES_STATE,
		     "HW2SW_EQ of an EQ not in hardware -> 0x09");
	for (i = 0; i < 1u << EQ_LOG_SIZE; i++)
		eqe(i)[0x1f] = 0x80;	/* every entry hardware-owned */
	eq_ctx(inbox->va, eqbuf->pa, lkey);
	check_status(cmd(OP_SW2HW_EQ, 1, inbox->pa, 0, 0), ST_BAD_OP,
		     "SW2HW_EQ op_mod 1 -> 0x02");
	check_status(cmd(OP_SW2HW_EQ, 0, inbox->pa, 0, 0), ST_OK, "SW2HW_EQ");
	ktap_test_check(get32(pg->va) >> 24 == 1 && get32(pg->va + 0x1c) == lkey,
			"SW2HW_EQ context in ICM at eqc_base, owner hardware",
			"flags 0x%08x lkey 0x%08x", get32(pg->va),
			get32(pg->va + 0x1c));
	check_status(cmd(OP_SW2HW_EQ, 0, inbox->pa, 0, 0), ST_BAD_RES_STATE,
		     "SW2HW_EQ of an EQ in hardware -> 0x09");
}

static void completions(void)
{
	bool ok;

	ok = ev_cmd(OP_NOP, 0x1f, TOKEN);
	ktap_test_check(ok && eqe(0)[0x1f] == 0x80,
			"event-mode NOP with event 10 unmapped: go clears, no EQE",
			"go %s, EQE 0 owner 0x%02x", ok ? "clear" : "stuck",
			eqe(0)[0x1f]);
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_CMD, 0, 0), ST_OK,
		     "MAP_EQ event 10 (command completion) to EQ 0");
	ktap_test_check(!intx_raised(), "INTx low before any EQE", "raised");

	ok = ev_cmd(OP_NOP, 0x1f, TOKEN);
	ktap_test_check(ok, "event-mode NOP 0x1f: go clears", "go stuck");
	check_cmd_eqe(0, TOKEN, ST_OK,
		      "NOP 0x1f completes as EQE 0: type 0x0a, token, status 0, owner SW");
	ktap_test_check(eqe(1)[0x1f] == 0x80, "EQE 1 untouched", "owner 0x%02x",
			eqe(1)[0x1f]);
	ktap_test_check(intx_raised(), "the EQE on the armed EQ raises INTx",
			"PCI_STATUS 0x%04x", arbel_dev_cfg_read16(dev, PCI_STATUS));
	arbel_be32_write(dev, clr_int + 4, 1u << 0);
	ktap_test_check(!intx_raised(), "clear-interrupt (pin 0) lowers INTx",
			"still raised");

	ev_cmd(0x7fe, 0, TOKEN + 1);
	check_cmd_eqe(1, TOKEN + 1, ST_BAD_OP,
		      "unknown opcode in event mode: EQE 1 with status 0x02");
	ktap_test_check(!intx_raised(), "EQ disarmed after firing: no interrupt",
			"raised");
}

static void doorbells(void)
{
	arbel_be32_write(dev, eq_arm + 4, 1u << 0);
	ktap_test_check(intx_raised(),
			"arming an EQ with unconsumed EQEs fires at once", "low");
	arbel_be32_write(dev, clr_int + 4, 1u << 0);
	arbel_be32_write(dev, eq_set_ci + 8 * 0, 2);
	arbel_be32_write(dev, eq_arm + 4, 1u << 0);
	ktap_test_check(!intx_raised(), "set-CI to the producer, arm: quiet",
			"raised");
	check_status(cmd(OP_QUERY_EQ, 0, 0, 0, outbox->pa), ST_OK, "QUERY_EQ");
	ktap_test_check(get32(outbox->va + 0x28) == 2 &&
			get32(outbox->va + 0x2c) == 2 &&
			get32(outbox->va + 0x1c) == lkey_of(hw_key(EQ_MPT_IDX, 3)),
			"QUERY_EQ: consumer 2 (set-CI), producer 2, the lkey",
			"ci %u pi %u lkey 0x%08x", get32(outbox->va + 0x28),
			get32(outbox->va + 0x2c), get32(outbox->va + 0x1c));
	ev_cmd(OP_NOP, 0, TOKEN + 2);
	check_cmd_eqe(2, TOKEN + 2, ST_OK, "armed again: EQE 2");
	ktap_test_check(intx_raised(), "... and INTx again", "low");
	arbel_be32_write(dev, clr_int + 4, 1u << 0);
}

/*
 * Port and catastrophic-error events (arbel-catas.c, debug window
 * 0x300..): a port down and up as EQEs 3 and 4 (type 0x09, subtype 1 / 4,
 * the port in bits 29:28 of 0x0c), the catastrophic-error buffer at
 * QUERY_FW's catas_base: zero, filled by an injection (type in bits 31:24
 * of dword 0), cleared again.
 */
static void events(void)
{
	uint32_t posted = arbel_dbg_read(dev, ARBEL_DBG_PORT_EVENTS);
	uint64_t catas;
	uint32_t size, i, nonzero = 0;
	const uint8_t *e;

	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_PORT_CHANGE, 0, 0), ST_OK,
		     "MAP_EQ event 9 (port change) to EQ 0");
	arbel_dbg_write(dev, ARBEL_DBG_PORT_EVENT, 1);
	arbel_dbg_write(dev, ARBEL_DBG_PORT_EVENT, 1 | ARBEL_DBG_PORT_EVENT_UP);
	e = eqe(3);
	ktap_test_check(e[1] == EV_PORT_CHANGE && e[3] == 0x01 &&
			(get32(e + 0x0c) >> 28 & 3) == 1 && !(e[0x1f] & 0x80),
			"port 1 down: EQE 3, type 0x09, subtype 0x01, port 1",
			"type 0x%02x subtype 0x%02x port dword 0x%08x owner 0x%02x",
			e[1], e[3], get32(e + 0x0c), e[0x1f]);
	e = eqe(4);
	ktap_test_check(e[1] == EV_PORT_CHANGE && e[3] == 0x04 &&
			(get32(e + 0x0c) >> 28 & 3) == 1 && !(e[0x1f] & 0x80),
			"port 1 active: EQE 4, type 0x09, subtype 0x04, port 1",
			"type 0x%02x subtype 0x%02x port dword 0x%08x owner 0x%02x",
			e[1], e[3], get32(e + 0x0c), e[0x1f]);
	arbel_dbg_write(dev, ARBEL_DBG_PORT_EVENT, 3 | ARBEL_DBG_PORT_EVENT_UP);
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_PORT_EVENTS) == posted + 2 &&
			eqe(5)[0x1f] == 0x80,
			"two port events counted; port 3 (no such port) posts nothing",
			"posted %u -> %u, EQE 5 owner 0x%02x", posted,
			arbel_dbg_read(dev, ARBEL_DBG_PORT_EVENTS), eqe(5)[0x1f]);

	if (cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa) != ST_OK)
		ktap_exit_fail_msg("QUERY_FW failed");
	catas = get64(outbox->va + 0x30) & (ARBEL_BAR0_SIZE - 1);
	size = get32(outbox->va + 0x38);
	for (i = 0; i < size; i++)
		nonzero |= arbel_be32_read(dev, catas + 4 * i);
	ktap_test_check(size && !nonzero,
			"catastrophic-error buffer (QUERY_FW 0x30/0x38) reads 0",
			"size %u, OR of its dwords 0x%08x", size, nonzero);
	arbel_dbg_write(dev, ARBEL_DBG_CATAS_INJECT, 5);
	ktap_test_check(arbel_be32_read(dev, catas) == 5u << 24 &&
			arbel_dbg_read(dev, ARBEL_DBG_CATAS_WORD0) == 5u << 24,
			"injected error: dword 0 = type 5 (parity) << 24",
			"dword 0 0x%08x", arbel_be32_read(dev, catas));
	arbel_dbg_write(dev, ARBEL_DBG_CATAS_CLEAR, 1);
	for (i = 0, nonzero = 0; i < size; i++)
		nonzero |= arbel_be32_read(dev, catas + 4 * i);
	ktap_test_check(!nonzero, "CATAS_CLEAR: the buffer reads 0 again",
			"OR of its dwords 0x%08x", nonzero);
}

/* HW2SW_EQ: the context back, owner software; events to it are lost */
static void to_sw(unsigned int pi, unsigned int status, const char *name)
{
	memset(outbox->va, 0, 0x40);
	check_status(cmd(OP_HW2SW_EQ, 0, 0, 0, outbox->pa), ST_OK, name);
	ktap_test_check(get32(outbox->va) >> 24 == status << 4 &&
			get32(outbox->va + 0x2c) == pi &&
			get64(outbox->va + 0x04) == eqbuf->pa,
			"HW2SW_EQ outbox: the context, its status, owner software, the producer",
			"flags 0x%08x pi %u, expected status %u pi %u",
			get32(outbox->va), get32(outbox->va + 0x2c), status, pi);
	eqe(pi)[0x1f] = 0x80;
	ev_cmd(OP_NOP, 0, TOKEN + 0x100);
	ktap_test_check(eqe(pi)[0x1f] == 0x80 && !intx_raised(),
			"no EQE and no interrupt after HW2SW_EQ",
			"owner 0x%02x", eqe(pi)[0x1f]);
}

/* the EQ again, empty: 8 EQEs fill it, the 9th overflows */
static void overflow(uint32_t lkey)
{
	unsigned int i;
	bool ok = true;

	for (i = 0; i < 1u << EQ_LOG_SIZE; i++)
		eqe(i)[0x1f] = 0x80;
	eq_ctx(inbox->va, eqbuf->pa, lkey);
	check_status(cmd(OP_SW2HW_EQ, 0, inbox->pa, 0, 0), ST_OK,
		     "SW2HW_EQ again after HW2SW_EQ");
	for (i = 0; i < 8; i++) {
		ev_cmd(OP_NOP, 0, TOKEN + 0x10 + i);
		ok &= eqe(i)[1] == EV_CMD && get16(eqe(i) + 6) == TOKEN + 0x10 + i;
	}
	ktap_test_check(ok, "8 EQEs fill the 8-entry EQ", "a token is missing");
	arbel_be32_write(dev, clr_int + 4, 1u << 0);
	ev_cmd(OP_NOP, 0, TOKEN + 0x18);
	check_status(cmd(OP_QUERY_EQ, 0, 0, 0, outbox->pa), ST_OK, "QUERY_EQ");
	ktap_test_check(get32(outbox->va) >> 28 == 9 &&
			get16(eqe(0) + 6) == TOKEN + 0x10,
			"the 9th overflows: status 9, the unconsumed EQE 0 kept",
			"flags 0x%08x token 0x%04x", get32(outbox->va),
			get16(eqe(0) + 6));
	ktap_test_check(!intx_raised(), "no interrupt for a lost EQE", "raised");
}

void suite_eq(void)
{
	uint16_t pcicmd = arbel_dev_cfg_read16(dev, ARBEL_PCI_COMMAND);
	uint32_t hw = hw_key(EQ_MPT_IDX, 3);
	uint8_t e[64];

	ktap_print_msg("suite: eq");
	if (!read_regs())
		ktap_exit_fail_msg("QUERY_FW failed");
	arbel_dev_cfg_write16(dev, ARBEL_PCI_COMMAND, pcicmd | PCI_CMD_INTX_OFF);
	eqbuf = page_alloc();
	refusals_before();

	/* the EQ buffer: a physical region, local read and write */
	mpt_build(e, MPT_LR | MPT_LW | MPT_PA, 0, hw, 7, eqbuf->pa, PAGE, 0);
	check_status(sw2hw(EQ_MPT_IDX, e), ST_OK,
		     "SW2HW_MPT the EQ buffer (physical region)");
	create(lkey_of(hw));
	completions();
	doorbells();
	events();
	to_sw(5, 0, "HW2SW_EQ");
	overflow(lkey_of(hw));
	to_sw(8, 9, "HW2SW_EQ of the overflowed EQ");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, EQ_MPT_IDX, 0), ST_OK,
		     "HW2SW_MPT the EQ buffer's region");
	check_status(cmd(OP_UNMAP_ICM, 0, EQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the EQ context page");
	arbel_dev_cfg_write16(dev, ARBEL_PCI_COMMAND, pcicmd);
}
