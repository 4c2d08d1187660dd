// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "rdma", its TPT side: a type 1 memory window
 * bound, used, refused outside its range and rights, unbound; the TPT
 * cache serving a translation the CPU rewrote in ICM until SYNC_TPT;
 * mthca's FMR cycle (unmap, SYNC_TPT, map again under a new key), done
 * with CPU stores into the MPT entry.
 * Sources: rdma.c's header.
 */
#include "rdma.h"

/* a type 1 window bound to a region, used, refused outside, unbound */
void rd_windows(void)
{
	uint32_t wkey = lkey_of(hw_key(WINDOW_IDX, 4));
	uint32_t wkey2 = lkey_of(hw_key(WINDOW_IDX, 5));
	uint8_t e[64];

	memset(e, 0, 64);
	put32(e + 0, MPT_SW_OWNS);		/* r_w 0: a window, unbound */
	put32(e + 8, hw_key(WINDOW_IDX, 3));
	put32(e + 12, PD);
	check_status(sw2hw(WINDOW_IDX, e), ST_OK, "SW2HW_MPT a type 1 window");

	rd_post_bind(wkey, rd_key(DST_IDX), DST_VA + 0x100, 0x100, BIND_RWRITE);
	rd_check_cqe(OPC_BIND, SYN_MW_BIND, 0,
		     "BIND_MW to a region without bind enable (eb) -> 0x06");
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);

	rd_post_bind(wkey, rd_key(BINDABLE_IDX), DST_VA + 0x100, 0x100,
		     BIND_RWRITE | BIND_RREAD);
	rd_check_cqe(OPC_BIND, 0, 0,
		     "BIND_MW: 256 bytes of the region, CQE 0x18");
	memset(rd.dst->va, 0xaa, PAGE);
	rd_post(OPC_WRITE, DST_VA + 0x100, wkey, SRC_VA, rd_key(SRC_IDX), 16, 0,
		0);
	rd_check_cqe(OPC_WRITE, 0, 0, "WRITE through the window's rkey");
	ktap_test_check(!memcmp(rd.dst->va + 0x100, rd.src->va, 16),
			"... the bytes landed in the region behind it",
			"byte 0x100: 0x%02x", rd.dst->va[0x100]);
	check_status(cmd(OP_HW2SW_MPT, 1, 0, BINDABLE_IDX, 0), ST_REG_BOUND,
		     "HW2SW_MPT of a region with a window bound -> 0x21");
	rd_refused_write(DST_VA, wkey, SRC_VA, SYN_REMOTE_ACCESS,
			 "WRITE through the window, below its range -> 0x13");
	rd_post(OPC_FA, DST_VA + 0x100, wkey, SRC_VA, rd_key(SRC_IDX), 8, 1, 0);
	rd_check_cqe(OPC_FA, SYN_REMOTE_ACCESS, 0,
		     "ATOMIC through a window without the atomic right -> 0x13");
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);

	rd_post_bind(wkey2, 0, 0, 0, 0);
	rd_check_cqe(OPC_BIND, 0, 0, "BIND_MW of length 0 unbinds");
	rd_refused_write(DST_VA + 0x100, wkey2, SRC_VA, SYN_REMOTE_ACCESS,
			 "WRITE through the unbound window -> 0x13");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, BINDABLE_IDX, 0), ST_OK,
		     "HW2SW_MPT of the region, no window bound");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, WINDOW_IDX, 0), ST_OK,
		     "HW2SW_MPT of the window");
}

/* a CPU rewrite of an MTT entry in ICM is not seen until SYNC_TPT */
void rd_tpt_cache(void)
{
	uint32_t syncs = arbel_dbg_read(dev, ARBEL_DBG_TPT_SYNCS);
	uint8_t *mtt = icm_mtt_entry(RDMA_MTT + 3 * 8);	/* DST's entry */

	memset(rd.dst->va, 0xaa, PAGE);
	memset(rd.alt->va, 0xbb, PAGE);
	put64(mtt, rd.alt->pa | 1);
	rd_post(OPC_WRITE, DST_VA, rd_key(DST_IDX), SRC_VA, rd_key(SRC_IDX), 16,
		0, 0);
	rd_check_cqe(OPC_WRITE, 0, 0,
		     "WRITE after a CPU rewrite of the MTT entry");
	ktap_test_check(!memcmp(rd.dst->va, rd.src->va, 16) &&
			rd_all(rd.alt->va, 0xbb, PAGE),
			"no SYNC_TPT: the cached entry still maps the old page",
			"old 0x%02x new 0x%02x", rd.dst->va[0], rd.alt->va[0]);
	check_status(cmd(OP_SYNC_TPT, 0, 0, 0, 0), ST_OK, "SYNC_TPT");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_TPT_SYNCS) == syncs + 1 &&
			arbel_dbg_read(dev, ARBEL_DBG_TPT_HITS) > 0,
			"debug window: one more sync, cache hits counted",
			"syncs %u hits %u", arbel_dbg_read(dev, ARBEL_DBG_TPT_SYNCS),
			arbel_dbg_read(dev, ARBEL_DBG_TPT_HITS));
	rd_post(OPC_WRITE, DST_VA, rd_key(DST_IDX), SRC_VA, rd_key(SRC_IDX), 16,
		0, 0);
	rd_check_cqe(OPC_WRITE, 0, 0, "WRITE after SYNC_TPT");
	ktap_test_check(!memcmp(rd.alt->va, rd.src->va, 16),
			"after SYNC_TPT: the new page", "new 0x%02x",
			rd.alt->va[0]);
}

/* the destination region written with @key, 16 bytes; the CQE's syndrome */
static void rd_fmr_write(uint32_t key, uint8_t syn, const char *name)
{
	memset(rd.alt->va, 0xaa, PAGE);
	rd_post(OPC_WRITE, DST_VA, key, SRC_VA, rd_key(SRC_IDX), 16, 0, 0);
	rd_check_cqe(OPC_WRITE, syn, 0, name);
	if (syn) {
		ktap_test_check(rd_all(rd.alt->va, 0xaa, PAGE),
				"... the target bytes untouched",
				"first byte 0x%02x", rd.alt->va[0]);
		rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
	} else {
		ktap_test_check(!memcmp(rd.alt->va, rd.src->va, 16),
				"... the bytes landed", "first byte 0x%02x",
				rd.alt->va[0]);
	}
}

/*
 * mthca's FMR cycle on the destination region (mthca_fmr_unmap +
 * SYNC_TPT, then mthca_arbel_map_phys_fmr), by CPU stores into its MPT
 * entry: unmapped, its cached entry serves the key until SYNC_TPT; then
 * mapped again under a new key with no SYNC_TPT, which works at once
 * (the entry read software-owned was not cached) while the old key is
 * refused; a reserved dword the CPU set in it is noted, not refused.
 * After rd_tpt_cache(): the region maps rd.alt.
 */
void rd_fmr_cycle(void)
{
	uint8_t *mpt = icm_mpt_slot(DST_IDX);
	uint32_t d0 = get32(mpt), old = rd_key(DST_IDX);
	uint32_t key = lkey_of(hw_key(DST_IDX, 7));

	rd_fmr_write(old, 0, "FMR: WRITE with the region's key");
	put32(mpt, d0 | MPT_SW_OWNS);
	rd_fmr_write(old, 0,
		     "FMR: unmapped by the CPU, no SYNC_TPT: the cached entry");
	check_status(cmd(OP_SYNC_TPT, 0, 0, 0, 0), ST_OK, "FMR: SYNC_TPT");
	rd_fmr_write(old, SYN_REMOTE_ACCESS,
		     "FMR: unmapped and synced: the key refused -> 0x13");
	put32(mpt + 8, hw_key(DST_IDX, 7));
	/* a reserved dword set: the trace notes it (trace_checks.py) */
	put32(mpt + 40, 1);
	put32(mpt, d0 & ~MPT_SW_OWNS);
	rd_fmr_write(key, 0,
		     "FMR: mapped again under a new key, no SYNC_TPT: it works");
	rd_fmr_write(old, SYN_REMOTE_ACCESS, "FMR: the old key refused -> 0x13");
	/* the region as it was, for what follows */
	put32(mpt + 8, hw_key(DST_IDX, 3));
	put32(mpt + 40, 0);
	check_status(cmd(OP_SYNC_TPT, 0, 0, 0, 0), ST_OK,
		     "FMR: SYNC_TPT after the old key is back");
}
