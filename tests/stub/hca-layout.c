// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance: INIT_HCA's layout rules (Documentation/arbel-stub.rst,
 * "Checks and their sources").  Refused, as a source states: log_num_eq
 * above 6, a base not aligned to its entry, a table past the largest ICM.
 * Taken with an "unconfirmed:" line, as the PRM leaves the layout to
 * software: a table not aligned to its whole size, overlapping another,
 * outside the ICM SET_ICM_SIZE sized, an MPT table of reserved entries
 * only.  Each case changes one field of the good layout of
 * init_hca_mbox(); sizes are entry size << log count with the entry sizes
 * of QUERY_DEV_LIM.
 * Called from the bring-up suite, after MAP_ICM and before INIT_HCA.
 */
#include "conformance.h"

static uint8_t *mbox(void)
{
	init_hca_mbox(inbox->va, MPT_BASE, LOG_MPT, MTT_BASE);
	return inbox->va;
}

static void refused(const char *name)
{
	check_status(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_BAD_PARAM, name);
}

/* no source refuses it: taken ("unconfirmed:" in the trace), closed again */
static void taken(const char *name)
{
	check_status(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_OK, name);
	check_status(cmd(OP_CLOSE_HCA, 0, 0, 0, 0), ST_OK,
		     "... CLOSE_HCA after it");
}

void hca_layout_rules(void)
{
	uint8_t *m;

	/* refused: what a source states */
	/* 2^7 EQs x 64 bytes = 8 KiB at 0x1c000 fits, aligned and alone;
	 * the count does not (QUERY_DEV_LIM 0x1f: 6) */
	m = mbox();
	put64(m + 0x80, 0x1c000);
	m[0x87] = 7;
	refused("INIT_HCA log_num_eq 7 > 6 -> bad parameter");

	/* MPT entries are 64 bytes: a base 32 bytes off */
	m = mbox();
	put64(m + 0xf0, MPT_BASE + 0x20);
	refused("INIT_HCA MPT base not aligned to its 64-byte entry -> bad parameter");

	/* MTT entries are 8 bytes */
	m = mbox();
	put64(m + 0x100, MTT_BASE + 4);
	refused("INIT_HCA MTT base not 8-byte aligned -> bad parameter");

	/* 0x129: 2^4 pages per UAR: one UAR's 64 KiB context at 0x1a000 */
	m = mbox();
	m[0x129] = 4;
	refused("INIT_HCA UARC size (0x129) 64 KiB at 0x1a000, not aligned to it -> bad parameter");

	/* 2 CQs x 64 bytes at 2^36 - 64: past the largest ICM (DEV_LIM 0xa0) */
	m = mbox();
	put64(m + 0x50, ((1ULL << 36) - 0x40) | 1);
	refused("INIT_HCA CQC past the largest ICM (2^36) -> bad parameter");

	/* taken: what the PRM leaves to software */
	/* QPC 2 x 256 bytes at 0x11100: 256- but not 512-aligned */
	m = mbox();
	put64(m + 0x30, QPC_BASE + 0x100);
	m[0x37] = 1;
	taken("INIT_HCA QPC not aligned to its size -> OK (unconfirmed)");

	/* EEC and EEEC left at ICM 0, on top of the MPT table */
	m = mbox();
	put64(m + 0x40, 0);
	taken("INIT_HCA EEC at ICM 0 over the MPT table -> OK (unconfirmed)");
	m = mbox();
	put64(m + 0x70, 0);
	taken("INIT_HCA EEEC at ICM 0 over the MPT table -> OK (unconfirmed)");

	/* UAR contexts left at 0 as well */
	m = mbox();
	put64(m + 0x138, 0);
	taken("INIT_HCA UARC at ICM 0 over the MPT table -> OK (unconfirmed)");

	/* an RDB (size unknown) whose base is inside the MPT table */
	m = mbox();
	put64(m + 0x90, MPT_BASE + 0x1000);
	taken("INIT_HCA RDB base inside the MPT table -> OK (unconfirmed)");

	/* CQC at the end of ICM */
	m = mbox();
	put64(m + 0x50, ICM_SIZE);
	taken("INIT_HCA CQC beyond ICM size -> OK (unconfirmed)");

	/* be16 at 0xd2: log entry size 13, one 8 KiB entry at 0x18000
	 * reaches over the UAR scratch table at 0x19000 */
	m = mbox();
	m[0xd3] = 13;
	taken("INIT_HCA MC entry size be16 at 0xd2: overlap -> OK (unconfirmed)");

	/* 0xd4 bits 16:0: a hash table of 6 entries, not a power of 2 */
	m = mbox();
	m[0xd7] = 6;
	taken("INIT_HCA MC hash size 6, not a power of 2 -> OK (unconfirmed)");

	/* 0x12a: 2^2 UARs: UARC 16 KiB at 0x1a000, 4 KiB-aligned only */
	m = mbox();
	m[0x12a] = 2;
	taken("INIT_HCA log num UARs (0x12a) 2: UARC 16 KiB misaligned -> OK (unconfirmed)");

	/* UAR contexts above the ICM size, as iPXE lays them out */
	m = mbox();
	put64(m + 0x138, ICM_SIZE);
	taken("INIT_HCA UARC above the ICM size (iPXE) -> OK (unconfirmed)");

	/* an MPT table of the 16 reserved entries only */
	m = mbox();
	m[0xfb] = 4;
	taken("INIT_HCA log_mpt_sz 4, reserved MPTs only -> OK (unconfirmed)");
}
