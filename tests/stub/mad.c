// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "mad": MAD_IFC answers SubnGet of the SMA
 * attributes (IBA layouts) for port 1 and refuses ports past the
 * device's (2 by default, QUERY_DEV_LIM 0x37).
 */
#include <inttypes.h>

#include "conformance.h"

/* a Get MAD of class @mclass for @attr / @mod to @port, answer in outbox */
unsigned int mad_get(uint8_t mclass, uint16_t attr, uint32_t mod,
			    uint32_t port)
{
	uint8_t *m = inbox->va;

	memset(m, 0, 256);
	m[0] = 1;			/* base version */
	m[1] = mclass;
	m[2] = 1;			/* class version */
	m[3] = 0x01;			/* Get */
	put32(m + 8, 0x1234);		/* TID */
	put32(m + 12, 0x5678);
	m[16] = attr >> 8;
	m[17] = attr & 0xff;
	put32(m + 20, mod);
	memset(outbox->va, 0, 256);
	return cmd(OP_MAD_IFC, 0, inbox->pa, port, outbox->pa);
}

/* SubnSet(@attr) of port @port: the LID and SM LID fields of PortInfo */
static unsigned int mad_set(uint16_t attr, uint16_t lid, uint16_t sm_lid)
{
	uint8_t *m = inbox->va;

	memset(m, 0, 256);
	m[0] = 1;
	m[1] = 0x01;
	m[2] = 1;
	m[3] = 0x02;			/* Set */
	m[16] = attr >> 8;
	m[17] = attr & 0xff;
	put32(m + 20, 1);		/* port 1 */
	m[64 + 16] = lid >> 8;
	m[64 + 17] = lid & 0xff;
	m[64 + 18] = sm_lid >> 8;
	m[64 + 19] = sm_lid & 0xff;
	memset(outbox->va, 0, 256);
	return cmd(OP_MAD_IFC, 0, inbox->pa, 1, outbox->pa);
}

/*
 * The ports' LIDs: the stub's subnet manager numbers port n from its lid
 * property (default 1; Documentation/arbel-stub.rst "Data path"); a
 * SubnSet(PortInfo) -- what a subnet manager sends -- gives the port a
 * LID and an SM LID (PortInfo: LID at 16, MasterSMLID at 18, IBTA 14.2.5.6)
 */
static void subn_set(void)
{
	uint8_t *r = outbox->va, *d = outbox->va + 64;
	unsigned int st;

	st = mad_get(0x01, 0x0015, 2, 1);
	ktap_test_check(st == ST_OK && get16(d + 16) == 2 && get16(d + 18) == 1,
			"PortInfo of port 2: LID 2, SM LID 1",
			"status 0x%02x LID %u SM LID %u", st, get16(d + 16),
			get16(d + 18));
	st = mad_set(0x0015, 0x20, 0x21);
	ktap_test_check(st == ST_OK && r[3] == 0x81 && get16(r + 4) == 0 &&
			get16(d + 16) == 0x20 && get16(d + 18) == 0x21,
			"SubnSet(PortInfo) LID 0x20, SM LID 0x21: GetResp with them",
			"status 0x%02x method 0x%02x mad 0x%04x LID 0x%x SM LID 0x%x",
			st, r[3], get16(r + 4), get16(d + 16), get16(d + 18));
	st = mad_get(0x01, 0x0015, 1, 1);
	ktap_test_check(st == ST_OK && get16(d + 16) == 0x20,
			"SubnGet(PortInfo) after it: LID 0x20", "LID 0x%x",
			get16(d + 16));
	st = mad_set(0x0011, 0, 0);
	ktap_test_check(st == ST_OK && (get16(r + 4) & 0x1c) == 0x0c,
			"SubnSet(NodeInfo) -> MAD status 0x000c", "0x%04x",
			get16(r + 4));
	check_status(mad_set(0x0015, 1, 1), ST_OK,
		     "SubnSet(PortInfo) LID 1, SM LID 1 again");
}

void suite_mad(uint64_t want_node_guid, uint64_t want_port_guid)
{
	uint8_t *r = outbox->va, *d = outbox->va + 64;
	uint64_t node_guid, port_guid;
	unsigned int st;

	ktap_print_msg("suite: mad");
	st = mad_get(0x01, 0x0011, 0, 1);
	node_guid = get64(d + 12);
	port_guid = get64(d + 20);
	ktap_test_check(st == ST_OK && r[3] == 0x81 && get16(r + 4) == 0 &&
			get32(r + 12) == 0x5678 && d[0] == 1 && d[2] == 1 &&
			d[3] >= 1 && get16(d + 30) == 0x6282 &&
			(get32(d + 36) & 0xffffff) == 0x02c9,
			"MAD_IFC NodeInfo: GetResp, CA, device 0x6282, vendor 0x0002c9",
			"status 0x%02x method 0x%02x mad status 0x%04x type %u dev 0x%x vendor 0x%x",
			st, r[3], get16(r + 4), d[2], get16(d + 30),
			get32(d + 36) & 0xffffff);
	ktap_test_check(node_guid && port_guid &&
			(!want_node_guid || node_guid == want_node_guid) &&
			(!want_port_guid || port_guid == want_port_guid),
			"MAD_IFC NodeInfo GUIDs (node-guid / port-guid properties)",
			"node 0x%" PRIx64 " port 0x%" PRIx64, node_guid,
			port_guid);
	/* op_mod bit 3: no source gives it, so no refusal ("unconfirmed:") */
	memset(outbox->va, 0, 256);
	st = cmd(OP_MAD_IFC, 8, inbox->pa, 1, outbox->pa);
	ktap_test_check(st == ST_OK && r[3] == 0x81 &&
			get16(d + 30) == 0x6282,
			"MAD_IFC op_mod 8 -> OK (unconfirmed), NodeInfo answered",
			"status 0x%02x method 0x%02x", st, r[3]);
	st = mad_get(0x01, 0x0015, 1, 1);
	ktap_test_check(st == ST_OK && get16(r + 4) == 0 && d[28] == 1 &&
			(d[32] & 0xf) >= 1 && (d[32] & 0xf) <= 4 &&
			get16(d + 16),
			"MAD_IFC PortInfo: local port 1, valid state, LID",
			"status 0x%02x mad 0x%04x port %u state %u lid %u", st,
			get16(r + 4), d[28], d[32] & 0xf, get16(d + 16));
	st = mad_get(0x01, 0x0014, 0, 1);
	ktap_test_check(st == ST_OK && get64(d) == port_guid,
			"MAD_IFC GUIDInfo block 0 entry 0 = port GUID",
			"0x%" PRIx64, get64(d));
	st = mad_get(0x01, 0x0016, 0, 1);
	ktap_test_check(st == ST_OK && get16(d) == 0xffff,
			"MAD_IFC P_KeyTable entry 0 = 0xffff", "0x%04x",
			get16(d));
	st = mad_get(0x01, 0x0010, 0, 1);
	ktap_test_check(st == ST_OK && d[0] >= ' ', "MAD_IFC NodeDescription",
			"'%.16s'", (char *)d);
	st = mad_get(0x81, 0x0011, 0, 1);
	ktap_test_check(st == ST_OK && (get16(r + 4) & 0x8000) &&
			get64(d + 12) == node_guid,
			"MAD_IFC directed-route NodeInfo: D bit set",
			"status 0x%02x mad 0x%04x", st, get16(r + 4));
	st = mad_get(0x01, 0xff00, 0, 1);
	ktap_test_check(st == ST_OK && (get16(r + 4) & 0x1c) == 0x0c,
			"MAD_IFC unsupported attribute -> MAD status 0x000c",
			"0x%04x", get16(r + 4));
	check_status(mad_get(0x01, 0x0011, 0, 3), ST_BAD_PARAM,
		     "MAD_IFC port 3 -> bad parameter");
	subn_set();
}
