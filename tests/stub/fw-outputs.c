// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance: the firmware's outputs as the real drivers read them
 * -- QUERY_FW's register addresses (bus addresses in BAR0), QUERY_DEV_LIM
 * decoded as mthca_QUERY_DEV_LIM does and checked against the NodeInfo
 * and PortInfo MAD answers, QUERY_ADAPTER's board ID where mthca's
 * get_board_id() finds it.  Called from the bring-up suite.
 */
#include <inttypes.h>

#include "conformance.h"

/* the VSD starts at outbox 0x20; the Mellanox board ID is at VSD + 0xd0 */
#define VSD			0x20
#define VSD_BOARD_ID		0xd0
#define VSD_SIG2		0xde
#define VSD_TOPSPIN		0x5ad
/* the stub's board ID (qemu/arbel-hw.h), as ibv_devinfo shows it */
#define STUB_BOARD_ID		"ARBEL-STUB-0001"

static uint8_t dev_lim[256];

/* BAR0's bus address, from config space (a 64-bit memory BAR at 0x10) */
static uint64_t bar0_bus_addr(void)
{
	uint64_t lo = arbel_dev_cfg_read16(dev, 0x10) |
		      (uint32_t)arbel_dev_cfg_read16(dev, 0x12) << 16;
	uint64_t hi = arbel_dev_cfg_read16(dev, 0x14) |
		      (uint32_t)arbel_dev_cfg_read16(dev, 0x16) << 16;

	return (hi << 32 | lo) & ~0xfULL;
}

/* QUERY_FW 0x20, 0x30, 0x40, 0x48: bus addresses inside BAR0 */
void fw_query_fw(void)
{
	uint64_t bar0 = bar0_bus_addr(), a[4];
	static const unsigned int off[4] = { 0x20, 0x30, 0x40, 0x48 };
	uint8_t *o = outbox->va;
	unsigned int i, inside = 0;

	check_status(cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa), ST_OK,
		     "QUERY_FW after RUN_FW");
	for (i = 0; i < 4; i++) {
		a[i] = get64(o + off[i]);
		inside += a[i] >= bar0 && a[i] - bar0 < ARBEL_BAR0_SIZE;
	}
	ktap_test_check(bar0 && inside == 4,
			"QUERY_FW: clr_int, catas, EQ arm, EQ set-CI are bus addresses in BAR0",
			"BAR0 0x%" PRIx64 ": 0x%" PRIx64 " 0x%" PRIx64
			" 0x%" PRIx64 " 0x%" PRIx64, bar0, a[0], a[1], a[2],
			a[3]);
	ktap_test_check(a[0] != a[2] && a[2] != a[3] && a[0] != a[3] &&
			(a[0] & (ARBEL_BAR0_SIZE - 1)) != ARBEL_HCR_BASE &&
			get32(o + 0x38) > 0,
			"QUERY_FW: the three registers apart, catas size > 0",
			"catas size %u", get32(o + 0x38));
}

/* QUERY_DEV_LIM, every field mthca_QUERY_DEV_LIM reads */
void fw_query_dev_lim(void)
{
	uint8_t *o = dev_lim;

	memset(outbox->va, 0, PAGE);
	check_status(cmd(OP_QUERY_DEV_LIM, 0, 0, 0, outbox->pa), ST_OK,
		     "QUERY_DEV_LIM for the field checks");
	memcpy(dev_lim, outbox->va, sizeof(dev_lim));
	/* MT25208: two ports (the "ports" property's default) */
	ktap_test_check((o[0x37] & 0xf) == 2, "DEV_LIM ports (0x37 bits 3:0) = 2",
			"%u", o[0x37] & 0xf);
	ktap_test_check(o[0x11] >= 6 && o[0x10] >= 6 && o[0x19] >= 6,
			"DEV_LIM log max WQEs (0x11), SRQ WQEs (0x10), CQEs (0x19) >= 6",
			"%u %u %u", o[0x11], o[0x10], o[0x19]);
	ktap_test_check(o[0x51] >= 1 && o[0x55] >= 1 &&
			get16(o + 0x52) >= 64 && get16(o + 0x56) >= 64,
			"DEV_LIM S/G entries (0x51, 0x55) and WQE bytes (0x52, 0x56)",
			"%u %u %u %u", o[0x51], o[0x55], get16(o + 0x52),
			get16(o + 0x56));
	/* reserved UARs and PDs are counts in bits 7:4 [mthca: field >> 4] */
	ktap_test_check(o[0x48] >> 4 == 1 && o[0x64] >> 4 == 1,
			"DEV_LIM reserved UARs (0x48) and PDs (0x64): count 1 in bits 7:4",
			"0x%02x 0x%02x", o[0x48], o[0x64]);
	ktap_test_check((o[0x1f] & 7) == 6 && get16(o + 0x88) == 64,
			"DEV_LIM log max EQs (0x1f bits 2:0) = 6, EQC entry 64",
			"%u %u", o[0x1f] & 7, get16(o + 0x88));
	ktap_test_check(get16(o + 0x80) && get16(o + 0x82) && get16(o + 0x84) &&
			get16(o + 0x86) && get16(o + 0x8a) && get16(o + 0x8c) &&
			get16(o + 0x8e),
			"DEV_LIM entry sizes EEC, QPC, EEEC, EQPC, CQC, SRQ, UAR scratch",
			"%u %u %u %u %u %u %u", get16(o + 0x80),
			get16(o + 0x82), get16(o + 0x84), get16(o + 0x86),
			get16(o + 0x8a), get16(o + 0x8c), get16(o + 0x8e));
	ktap_test_check((get32(o + 0x44) & 0x7) == 0x7 && o[0x63] && o[0x61],
			"DEV_LIM flags RC|UC|UD (0x44), MCG limits (0x61, 0x63)",
			"flags 0x%08x mcg %u qp/mcg %u", get32(o + 0x44),
			o[0x63], o[0x61]);
}

/* QUERY_DEV_LIM's port limits agree with NodeInfo and PortInfo (IBA) */
void fw_dev_lim_vs_mad(void)
{
	uint8_t *d = outbox->va + 64, *o = dev_lim;
	unsigned int st, ports;

	st = mad_get(0x01, 0x0011, 0, 1);
	ports = d[3];
	ktap_test_check(st == ST_OK && ports == (o[0x37] & 0xf) &&
			get16(d + 28) == 1u << (o[0x3f] & 0xf),
			"DEV_LIM ports and P_Keys = NodeInfo NumPorts, PartitionCap",
			"dev_lim %u ports 2^%u pkeys; NodeInfo %u, %u",
			o[0x37] & 0xf, o[0x3f] & 0xf, ports, get16(d + 28));
	st = mad_get(0x01, 0x0015, 0, ports);
	ktap_test_check(st == ST_OK && d[28] == ports &&
			d[50] == 1u << (o[0x3b] & 0xf) &&
			(d[41] & 0xf) == o[0x36] >> 4 &&
			(d[30] & 0xf) == (o[0x36] & 0xf) &&
			d[37] >> 4 == o[0x37] >> 4,
			"DEV_LIM GIDs, MTU, widths, VLs = PortInfo of the last port",
			"port %u GUIDCap %u MTUCap %u width %u VLCap %u; "
			"dev_lim 0x%02x 0x%02x 0x%02x", d[28], d[50],
			d[41] & 0xf, d[30], d[37] >> 4, o[0x36], o[0x37],
			o[0x3b]);
	st = mad_get(0x01, 0x0016, 1, 1);
	ktap_test_check(st == ST_OK && get16(outbox->va + 4) == 0,
			"MAD_IFC P_KeyTable block 1 of 2^6 P_Keys",
			"status 0x%02x mad 0x%04x", st, get16(outbox->va + 4));
}

/* QUERY_ADAPTER: the board ID as mthca's get_board_id() reads it */
void fw_query_adapter(void)
{
	uint8_t *o = outbox->va;
	char id[17] = { 0 };
	unsigned int i;

	memset(o, 0, PAGE);
	check_status(cmd(OP_QUERY_ADAPTER, 0, 0, 0, outbox->pa), ST_OK,
		     "QUERY_ADAPTER");
	/* not a Topspin VSD: the ID is at VSD + 0xd0, each dword swapped */
	for (i = 0; i < 16; i++)
		id[i] = o[VSD + VSD_BOARD_ID + (i & ~3u) + 3 - (i & 3)];
	ktap_test_check(!(get16(o + VSD) == VSD_TOPSPIN &&
			  get16(o + VSD + VSD_SIG2) == VSD_TOPSPIN) &&
			!strcmp(id, STUB_BOARD_ID),
			"QUERY_ADAPTER: board ID at VSD + 0xd0 (0xf0), dwords byte-swapped",
			"'%s'", id);
	ktap_test_check(memcmp(o + VSD, STUB_BOARD_ID, 4) != 0,
			"QUERY_ADAPTER: no plain board ID at the VSD's start (0x20)",
			"%02x%02x%02x%02x", o[VSD], o[VSD + 1], o[VSD + 2],
			o[VSD + 3]);
}
