// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "mtt": WRITE_MTT and READ_MTT at absolute ICM
 * addresses, the refusals of WRITE_MTT, SYNC_TPT.
 */
#include <inttypes.h>

#include "conformance.h"

void suite_mtt(void)
{
	const uint64_t t = MTT_BASE + RSVD_MTT * 8 + 0x40;
	uint64_t ents[4], sentinel = 0x1122334455667788ULL;
	unsigned int st;
	int i;

	ktap_print_msg("suite: mtt");
	for (i = 0; i < 3; i++)
		ents[i] = pool[POOL_MTT_TARGETS + i].pa | 1;
	ents[3] = 0;
	memcpy(icm_mtt_entry(t + 24), &sentinel, 8);
	check_status(write_mtt(t, ents, 4), ST_OK,
		     "WRITE_MTT 3 entries + zero pad (in_mod 4)");
	ktap_test_check(get64(icm_mtt_entry(t)) == ents[0] &&
			get64(icm_mtt_entry(t + 8)) == ents[1] &&
			get64(icm_mtt_entry(t + 16)) == ents[2],
			"WRITE_MTT entries land at the absolute ICM address",
			"%" PRIx64, get64(icm_mtt_entry(t)));
	ktap_test_check(!memcmp(icm_mtt_entry(t + 24), &sentinel, 8),
			"WRITE_MTT does not write the pad entry", "%" PRIx64,
			get64(icm_mtt_entry(t + 24)));

	memset(outbox->va, 0, PAGE);
	st = cmd(OP_READ_MTT, 0, t, 3, outbox->pa);
	ktap_test_check(st == ST_OK && get64(outbox->va) == ents[0] &&
			get64(outbox->va + 8) == ents[1] &&
			get64(outbox->va + 16) == ents[2], "READ_MTT round trip",
			"status 0x%02x", st);

	check_status(write_mtt(MTT_BASE, ents, 2), ST_BAD_RESOURCE,
		     "WRITE_MTT into reserved MTTs -> 0x05");
	check_status(write_mtt(RSVD_MTT * 8 + 0x40, ents, 2), ST_BAD_PARAM,
		     "WRITE_MTT target relative to MTT base -> 0x03");
	check_status(write_mtt(t + 4, ents, 2), ST_BAD_PARAM,
		     "WRITE_MTT target not 8-byte aligned -> 0x03");
	check_status(write_mtt(EQC_BASE - 8, ents, 2), ST_BAD_PARAM,
		     "WRITE_MTT past the MTT area -> 0x03");
	/*
	 * no source refuses an entry without the present bit (mthca writes
	 * present ones only): written as given, "unconfirmed:" traced; the
	 * translation engine refuses it when it reads it (xlate.c)
	 */
	ents[1] &= ~1ULL;
	check_status(write_mtt(t, ents, 3), ST_OK,
		     "WRITE_MTT entry without present bit -> OK (unconfirmed)");
	ktap_test_check(get64(icm_mtt_entry(t + 8)) == ents[1] &&
			get64(icm_mtt_entry(t + 16)) == ents[2],
			"... written as given", "%" PRIx64,
			get64(icm_mtt_entry(t + 8)));
	ents[1] |= 1;
	ents[2] = 0;
	check_status(write_mtt(t, ents, 3), ST_OK,
		     "WRITE_MTT zero entry, odd count (no pad) -> OK (unconfirmed)");
	ktap_test_check(get64(icm_mtt_entry(t + 16)) == 0,
			"... the zero entry written", "%" PRIx64,
			get64(icm_mtt_entry(t + 16)));
	ents[2] = pool[POOL_MTT_TARGETS + 2].pa | 1;
	check_status(write_mtt(t, ents, 3), ST_OK, "WRITE_MTT them back");
	check_status(cmd(OP_WRITE_MTT, 0, inbox->pa, 511, 0), ST_BAD_PARAM,
		     "WRITE_MTT more than 510 entries -> 0x03");
	check_status(write_mtt(MTT_BASE + MTT_MAPPED_PAGES * PAGE, ents, 2),
		     ST_BAD_RESOURCE, "WRITE_MTT into unmapped ICM -> 0x05");
	check_status(cmd(OP_SYNC_TPT, 0, 0, 0, 0), ST_OK, "SYNC_TPT");
}
