// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "ports": INIT_IB / CLOSE_IB / SET_IB on the
 * stub's two ports, and the port state change event INIT_IB posts (type
 * 0x09, subtype 0x04 "active", the port in bits 29:28 of EQE dword 3:
 * mthca's eq code port_change) on the EQ that MAP_EQ routed event 9 to.  The
 * INIT_IB inbox as mthca's cmd code mthca_INIT_IB and mthca's qp code init_port
 * fill it from QUERY_DEV_LIM.  The EQ: conformance.c's eq_create_unarmed.
 */
#include "conformance.h"

#define OP_INIT_IB		0x009
#define OP_CLOSE_IB		0x00a
#define OP_SET_IB		0x00c
#define OP_MAP_EQ		0x012
#define OP_HW2SW_EQ		0x014

#define PORT_MPT_IDX		(RSVD_MPT + 41)
#define EV_PORT			0x09
#define EQE_SIZE		32

static struct arbel_dma_page *evbuf;

static uint8_t *ev(unsigned int n)
{
	return evbuf->va + n * EQE_SIZE;
}

static void init_ib_box(uint8_t *m)
{
	memset(m, 0, 56);
	/* MTU cap 2048 (4), width 1x|4x (3), VL cap 4: QUERY_DEV_LIM's */
	put32(m, 4u << 12 | 3u << 8 | 4u << 4);
	m[0x07] = 8;			/* be16 0x06: GIDs */
	m[0x0b] = 64;			/* be16 0x0a: P_Keys */
}

/* EQE @n: a port @port active event, software-owned */
static void check_port_eqe(unsigned int n, unsigned int port,
			   const char *name)
{
	const uint8_t *e = ev(n);

	ktap_test_check(e[1] == EV_PORT && e[3] == 0x04 &&
			(get32(e + 0x0c) >> 28 & 3) == port && !(e[0x1f] & 0x80),
			name, "type 0x%02x subtype 0x%02x dword3 0x%08x owner 0x%02x",
			e[1], e[3], get32(e + 0x0c), e[0x1f]);
}

void suite_ports(void)
{
	uint32_t hw = hw_key(PORT_MPT_IDX, 5);
	uint8_t e[64];

	ktap_print_msg("suite: ports");
	evbuf = page_alloc();
	init_ib_box(inbox->va);
	check_status(cmd(OP_INIT_IB, 0, inbox->pa, 0, 0), ST_BAD_PARAM,
		     "INIT_IB port 0 -> 0x03");
	check_status(cmd(OP_INIT_IB, 0, inbox->pa, 3, 0), ST_BAD_PARAM,
		     "INIT_IB port 3 of a 2-port HCA -> 0x03");
	check_status(cmd(OP_CLOSE_IB, 0, 0, 3, 0), ST_BAD_PARAM,
		     "CLOSE_IB port 3 -> 0x03");
	check_status(cmd(OP_SET_IB, 0, inbox->pa, 0, 0), ST_BAD_PARAM,
		     "SET_IB port 0 -> 0x03");

	mpt_build(e, MPT_LR | MPT_LW | MPT_PA, 0, hw, 7, evbuf->pa, PAGE, 0);
	check_status(sw2hw(PORT_MPT_IDX, e), ST_OK,
		     "SW2HW_MPT the EQ buffer (physical region)");
	eq_create_unarmed(evbuf->va, evbuf->pa, lkey_of(hw));
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_PORT, 0, 0), ST_OK,
		     "MAP_EQ event 9 (port state change) to EQ 0");

	init_ib_box(inbox->va);
	check_status(cmd(OP_INIT_IB, 0, inbox->pa, 1, 0), ST_OK,
		     "INIT_IB port 1");
	check_port_eqe(0, 1, "INIT_IB port 1: EQE 0, port 1 active");
	check_status(cmd(OP_INIT_IB, 0, inbox->pa, 1, 0), ST_OK,
		     "INIT_IB port 1 again");
	ktap_test_check(ev(1)[0x1f] == 0x80, "a port already up: no new EQE",
			"EQE 1 owner 0x%02x type 0x%02x", ev(1)[0x1f], ev(1)[1]);
	check_status(cmd(OP_CLOSE_IB, 0, 0, 1, 0), ST_OK, "CLOSE_IB port 1");
	check_status(cmd(OP_CLOSE_IB, 0, 0, 2, 0), ST_OK,
		     "CLOSE_IB port 2, never up (mthca closes every port)");
	check_status(cmd(OP_INIT_IB, 0, inbox->pa, 2, 0), ST_OK,
		     "INIT_IB port 2");
	check_port_eqe(1, 2, "INIT_IB port 2: EQE 1, port 2 active");
	memset(inbox->va, 0, 0x40);
	put32(inbox->va + 0x04, 0x02510868);
	check_status(cmd(OP_SET_IB, 0, inbox->pa, 2, 0), ST_OK,
		     "SET_IB port 2, a capability mask");
	check_status(cmd(OP_CLOSE_IB, 0, 0, 2, 0), ST_OK, "CLOSE_IB port 2");

	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_PORT, 1u << 31, 0), ST_OK,
		     "MAP_EQ unmap event 9");
	check_status(cmd(OP_INIT_IB, 0, inbox->pa, 1, 0), ST_OK,
		     "INIT_IB port 1, event 9 unmapped");
	ktap_test_check(ev(2)[0x1f] == 0x80, "event 9 unmapped: no EQE",
			"EQE 2 owner 0x%02x", ev(2)[0x1f]);
	check_status(cmd(OP_CLOSE_IB, 0, 0, 1, 0), ST_OK, "CLOSE_IB port 1");
	check_status(cmd(OP_HW2SW_EQ, 1, 0, 0, 0), ST_OK, "HW2SW_EQ");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, PORT_MPT_IDX, 0), ST_OK,
		     "HW2SW_MPT the EQ buffer's region");
	check_status(cmd(OP_UNMAP_ICM, 0, EQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the EQ context page");
}
