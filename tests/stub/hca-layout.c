// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance: INIT_HCA's layout rules (Documentation/arbel-stub.rst,
 * "Checks and their sources"): every table aligned to its size, no two
 * overlapping, log_num_eq <= 6, every table inside the ICM SET_ICM_SIZE
 * sized -- except the UAR contexts, which iPXE places above it.  Each
 * refusal changes one field of the good layout of init_hca_mbox(); sizes
 * are entry size << log count with the entry sizes of QUERY_DEV_LIM.
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

void hca_layout_rules(void)
{
	uint8_t *m;

	/* QPC 2 x 256 bytes at 0x11100: 256- but not 512-aligned */
	m = mbox();
	put64(m + 0x30, QPC_BASE + 0x100);
	m[0x37] = 1;
	refused("INIT_HCA QPC not aligned to its size -> bad parameter");

	/* EEC and EEEC left at ICM 0, on top of the MPT table */
	m = mbox();
	put64(m + 0x40, 0);
	refused("INIT_HCA EEC at ICM 0 over the MPT table -> bad parameter");
	m = mbox();
	put64(m + 0x70, 0);
	refused("INIT_HCA EEEC at ICM 0 over the MPT table -> bad parameter");

	/* UAR contexts left at 0 as well */
	m = mbox();
	put64(m + 0x138, 0);
	refused("INIT_HCA UARC at ICM 0 over the MPT table -> bad parameter");

	/* an RDB (size unknown) whose base is inside the MPT table */
	m = mbox();
	put64(m + 0x90, MPT_BASE + 0x1000);
	refused("INIT_HCA RDB base inside the MPT table -> bad parameter");

	/* 2^7 EQs x 64 bytes = 8 KiB at 0x1c000 fits, aligned and alone;
	 * the count does not */
	m = mbox();
	put64(m + 0x80, 0x1c000);
	m[0x87] = 7;
	refused("INIT_HCA log_num_eq 7 > 6 -> bad parameter");

	/* CQC at the end of ICM */
	m = mbox();
	put64(m + 0x50, ICM_SIZE);
	refused("INIT_HCA CQC beyond ICM size -> bad parameter");

	/* be16 at 0xd2: log entry size 13, one 8 KiB entry at 0x18000
	 * reaches over the UAR scratch table at 0x19000 */
	m = mbox();
	m[0xd3] = 13;
	refused("INIT_HCA MC entry size be16 at 0xd2 -> overlap refused");

	/* 0x129: 2^4 pages per UAR = 64 KiB at 0x1a000, not aligned */
	m = mbox();
	m[0x129] = 4;
	refused("INIT_HCA UARC size (0x129) 64 KiB at 0x1a000 -> bad parameter");

	/* 0x12a: 2^1 UARs: UARC 8 KiB at 0x1a000 is aligned; 2^2 is not */
	m = mbox();
	m[0x12a] = 2;
	refused("INIT_HCA log num UARs (0x12a) 2: UARC 16 KiB misaligned -> bad parameter");

	/* UAR contexts above the ICM size, as iPXE lays them out: taken
	 * (an "unconfirmed:" line in the trace), then closed again */
	m = mbox();
	put64(m + 0x138, ICM_SIZE);
	check_status(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_OK,
		     "INIT_HCA UARC above the ICM size (iPXE) -> OK");
	check_status(cmd(OP_CLOSE_HCA, 0, 0, 0, 0), ST_OK,
		     "CLOSE_HCA after it");
}
