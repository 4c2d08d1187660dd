// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "mcg": MGID_HASH, READ_MGM and WRITE_MGM on the
 * multicast table INIT_HCA set up (init_hca_mbox: 16 entries of 256 bytes
 * at MC_BASE, the first 8 the hash table), with the refusals of
 * Documentation/arbel-stub.rst "Multicast".  The entry layout is the PRM's
 * arbelprm_mgm_entry_st (next_gid_index in bits 31:6 of dword 0, the GID
 * at 0x10, member QPs from 0x20 with bit 31 valid); the operands are
 * mthca's cmd code (READ_MGM / WRITE_MGM: in_mod the index, MGID_HASH: the
 * GID in the inbox, the hash as the immediate result).
 *
 * The hashes are computed by hand from the documented function (the XOR
 * of the GID's four big-endian dwords, the upper 16 bits folded onto the
 * lower, modulo the hash table size):
 *   ff12:401b:ffff:0:0:0:ffff:ffff (IPoIB's broadcast group):
 *     ff12401b ^ ffff0000 ^ 00000000 ^ ffffffff = ff12bfe4,
 *     ff12 ^ bfe4 = 40f6, mod 8 = 6;
 *   ff12:401b:abcd:0:0:0:0:1: ff12401b ^ abcd0000 ^ 0 ^ 1 = 54df401a,
 *     54df ^ 401a = 14c5, mod 8 = 5; the same GID with 00010001 XOR-ed
 *     into its second dword: 54de401b, 54de ^ 401b = 14c5 again.
 */
#include "conformance.h"

#define OP_READ_MGM		0x025
#define OP_WRITE_MGM		0x026
#define OP_MGID_HASH		0x027

#define MGM_SIZE		256
#define MC_ENTRIES		16
#define MGM_GID			0x10
#define MGM_QP			0x20
#define QP_VALID		(1u << 31)

static const uint8_t gid_bcast[16] = {
	0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0,
	0xff, 0xff, 0xff, 0xff,
};

static const uint8_t gid_a[16] = {
	0xff, 0x12, 0x40, 0x1b, 0xab, 0xcd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
};

static const uint8_t gid_b[16] = {	/* gid_a ^ 00010001 in dword 1 */
	0xff, 0x12, 0x40, 0x1b, 0xab, 0xcc, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1,
};

static void hash_is(const uint8_t *gid, uint64_t want, const char *name)
{
	uint64_t imm = ~0ULL;
	unsigned int st;

	memcpy(inbox->va, gid, 16);
	st = cmd_full(OP_MGID_HASH, 0, inbox->pa, 0, 0, false, &imm);
	ktap_test_check(st == ST_OK && imm == want, name,
			"status 0x%02x hash 0x%llx", st,
			(unsigned long long)imm);
}

/* an entry for @gid: @next chained, members @qpn and @qpn + 1 */
static void mgm_build(uint8_t *e, const uint8_t *gid, uint32_t next,
		      uint32_t qpn)
{
	memset(e, 0, MGM_SIZE);
	put32(e, next << 6);
	memcpy(e + MGM_GID, gid, 16);
	put32(e + MGM_QP, QP_VALID | qpn);
	put32(e + MGM_QP + 4, QP_VALID | (qpn + 1));
}

void suite_mcg(void)
{
	struct arbel_dma_page *pg = page_alloc();
	uint8_t want[MGM_SIZE];

	ktap_print_msg("suite: mcg");
	hash_is(gid_bcast, 6, "MGID_HASH of IPoIB's broadcast MGID -> 6");
	hash_is(gid_a, 5, "MGID_HASH of ff12:401b:abcd::1 -> 5");
	hash_is(gid_b, 5, "MGID_HASH of a GID differing by 00010001 in one "
		"dword -> the same 5");
	check_status(cmd(OP_READ_MGM, 0, 0, 0, outbox->pa), ST_BAD_RESOURCE,
		     "READ_MGM with the table's ICM unmapped -> 0x05");
	check_status(map_pages(OP_MAP_ICM, &pg, 1, MC_BASE), ST_OK,
		     "MAP_ICM the multicast table page");
	check_status(cmd(OP_READ_MGM, 0, 0, MC_ENTRIES, outbox->pa),
		     ST_BAD_INDEX, "READ_MGM past the 2^4 entries -> 0x0a");
	mgm_build(inbox->va, gid_a, 0, 0x40);
	check_status(cmd(OP_WRITE_MGM, 0, inbox->pa, MC_ENTRIES, 0),
		     ST_BAD_INDEX, "WRITE_MGM past the 2^4 entries -> 0x0a");

	/* gid_a in its hash entry, gid_b chained behind it in the AMGM */
	mgm_build(want, gid_a, 9, 0x40);
	memcpy(inbox->va, want, MGM_SIZE);
	check_status(cmd(OP_WRITE_MGM, 0, inbox->pa, 5, 0), ST_OK,
		     "WRITE_MGM 5 (hash entry, next 9)");
	ktap_test_check(!memcmp(pg->va + 5 * MGM_SIZE, want, MGM_SIZE),
			"WRITE_MGM: the entry in ICM at mc_base + 5 * 256",
			"dword 0 0x%08x, QP 0 0x%08x",
			get32(pg->va + 5 * MGM_SIZE),
			get32(pg->va + 5 * MGM_SIZE + MGM_QP));
	memset(outbox->va, 0xa5, MGM_SIZE);
	check_status(cmd(OP_READ_MGM, 0, 0, 5, outbox->pa), ST_OK,
		     "READ_MGM 5");
	ktap_test_check(!memcmp(outbox->va, want, MGM_SIZE),
			"READ_MGM: the entry WRITE_MGM wrote",
			"dword 0 0x%08x, GID[0] 0x%08x",
			get32(outbox->va), get32(outbox->va + MGM_GID));
	mgm_build(inbox->va, gid_b, 0, 0x50);
	check_status(cmd(OP_WRITE_MGM, 0, inbox->pa, 9, 0), ST_OK,
		     "WRITE_MGM 9 (AMGM, end of chain)");
	mgm_build(inbox->va, gid_bcast, 2, 0x60);
	check_status(cmd(OP_WRITE_MGM, 0, inbox->pa, 6, 0), ST_OK,
		     "WRITE_MGM next_gid_index inside the hash table -> OK "
		     "(unconfirmed)");
	check_status(cmd(OP_UNMAP_ICM, 0, MC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the multicast table page");
}
