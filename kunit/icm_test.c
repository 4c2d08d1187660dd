// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the ICM profile and chunk arithmetic.  The layouts are
 * worked out by hand in the comments from the sizing rules documented in
 * profile.c: every table a power of two of at least a page, aligned to its
 * size, MTT first at address 0, the rest largest first (equal sizes in
 * enum order), none on top of another -- EEC, EEEC and the UAR contexts
 * (one 4 KiB page per UAR) included.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/sizes.h>

#include <arbel/profile.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A plausible Arbel, as QUERY_DEV_LIM would describe it. */
static const struct arbel_dev_lim lim = {
	.log_rsvd_qps = 6, .log_max_qps = 18,
	.log_rsvd_srqs = 4, .log_max_srqs = 16, .log_rsvd_eecs = 0,
	.log_rsvd_cqs = 7, .log_max_cqs = 16,
	.log_max_mpts = 17, .log_rsvd_eqs = 0, .log_max_eqs = 6,
	.log_rsvd_mtts = 4, .log_rsvd_mrws = 4, .log_max_mtt_segs = 20,
	.num_rsvd_uars = 1, .uar_size = SZ_8M,
	.eec_entry_sz = 256, .eeec_entry_sz = 32,
	.qpc_entry_sz = 256, .eqpc_entry_sz = 32, .eqc_entry_sz = 64,
	.cqc_entry_sz = 64, .srq_entry_sz = 32, .uar_scratch_entry_sz = 32,
	.mtt_entry_sz = 8, .mpt_entry_sz = 64,
	.max_icm_sz = 1ULL << 36,
};

struct expect_place {
	int id;
	u64 base;
	u64 size;
	u8 log_num;
};

static void check_layout(struct kunit *test,
			 const struct arbel_icm_layout *l,
			 const struct expect_place *e, int n, u64 total)
{
	int i;

	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, l->t[e[i].id].base, e[i].base,
				    "table %d base", e[i].id);
		KUNIT_EXPECT_EQ_MSG(test, l->t[e[i].id].size, e[i].size,
				    "table %d size", e[i].id);
		KUNIT_EXPECT_EQ_MSG(test, l->t[e[i].id].log_num, e[i].log_num,
				    "table %d log_num", e[i].id);
	}
	KUNIT_EXPECT_EQ(test, l->total, total);
}

/* no two places share a byte of ICM */
static void check_disjoint(struct kunit *test, const struct arbel_icm_layout *l)
{
	int i, j;

	for (i = 0; i < ARBEL_ICM_NR_PLACES; i++) {
		for (j = i + 1; j < ARBEL_ICM_NR_PLACES; j++) {
			const struct arbel_icm_place *a = &l->t[i];
			const struct arbel_icm_place *b = &l->t[j];

			KUNIT_EXPECT_TRUE_MSG(test,
					      a->base + a->size <= b->base ||
					      b->base + b->size <= a->base,
					      "tables %d and %d overlap", i, j);
		}
	}
}

static void profile_test_default(struct kunit *test)
{
	/*
	 * MTT 8 B << 20 = 8 MiB at 0, then largest first: UARC 256 KiB per
	 * UAR, 8 MiB / 4 KiB = 2^11 UARs: 512 MiB, aligned to 512 MiB; QPC
	 * 256 B << 16 = 16 MiB at 1 GiB; MPT 64 B << 17 = 8 MiB and RDB
	 * 128 B << 16 = 8 MiB (enum order); CQC 64 B << 16 = 4 MiB; EQPC and
	 * SRQC 32 B << 16 = 2 MiB; UAR scratch 32 B << 11 = 64 KiB; EQC
	 * 64 B << 5 = 2 KiB -> 4 KiB; MCG 256 B << 4 = 4 KiB; EEC 256 B << 0
	 * and EEEC 32 B << 0 -> 4 KiB each.
	 */
	static const struct expect_place e[] = {
		{ ARBEL_ICM_MTT,     0x00000000, SZ_8M,   20 },
		{ ARBEL_ICM_UARC,    0x20000000, SZ_512M, 11 },
		{ ARBEL_ICM_QPC,     0x40000000, SZ_16M,  16 },
		{ ARBEL_ICM_MPT,     0x41000000, SZ_8M,   17 },
		{ ARBEL_ICM_RDB,     0x41800000, SZ_8M,   16 },
		{ ARBEL_ICM_CQC,     0x42000000, SZ_4M,   16 },
		{ ARBEL_ICM_EQPC,    0x42400000, SZ_2M,   16 },
		{ ARBEL_ICM_SRQC,    0x42600000, SZ_2M,   16 },
		{ ARBEL_ICM_UAR_SCR, 0x42800000, SZ_64K,  11 },
		{ ARBEL_ICM_EQC,     0x42810000, SZ_4K,    5 },
		{ ARBEL_ICM_MCG,     0x42811000, SZ_4K,    4 },
		{ ARBEL_ICM_EEC,     0x42812000, SZ_4K,    0 },
		{ ARBEL_ICM_EEEC,    0x42813000, SZ_4K,    0 },
	};
	struct arbel_icm_layout l;

	KUNIT_ASSERT_EQ(test, arbel_icm_profile(&lim, 17, 20, SZ_4K, &l), 0);
	check_layout(test, &l, e, ARRAY_SIZE(e), 0x42814000);
	check_disjoint(test, &l);
	KUNIT_EXPECT_EQ(test, l.num_uars, 2048u);
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_UARC].entry_size, (u32)SZ_256K);
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_MPT].log_rsvd, 4);
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_MTT].log_rsvd, 4);
	/* one reserved UAR: 2^0 scratch entries reserved */
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_UAR_SCR].log_rsvd, 0);
}

static void profile_test_rsvd_uars_count(struct kunit *test)
{
	struct arbel_dev_lim three = lim;
	struct arbel_icm_layout l;

	/* QUERY_DEV_LIM 0x48 = 0x30: three reserved UARs, not 2^3 */
	three.num_rsvd_uars = 3;
	KUNIT_ASSERT_EQ(test, arbel_icm_profile(&three, 17, 20, SZ_4K, &l), 0);
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_UAR_SCR].log_rsvd, 2);
}

static void profile_test_rsvd_eqs(struct kunit *test)
{
	struct arbel_dev_lim many = lim;
	struct arbel_icm_layout l;

	/*
	 * 2^5 reserved EQs (QUERY_DEV_LIM 0x1e = 5): the driver's EQ is number
	 * 32, so the table holds 2^6 (the device's maximum), not the
	 * profile's 2^5; with the maximum at 2^5 it stays 2^5 (no EQ left).
	 */
	many.log_rsvd_eqs = 5;
	KUNIT_ASSERT_EQ(test, arbel_icm_profile(&many, 17, 20, SZ_4K, &l), 0);
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_EQC].log_num, 6);
	many.log_max_eqs = 5;
	KUNIT_ASSERT_EQ(test, arbel_icm_profile(&many, 17, 20, SZ_4K, &l), 0);
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_EQC].log_num, 5);
}

static void profile_test_small_mtt(struct kunit *test)
{
	/*
	 * MTT 8 B << 14 = 128 KiB at 0; the 512 MiB UARC aligned up to
	 * 0x20000000; QPC 16 MiB at 0x40000000; RDB 8 MiB; CQC 4 MiB; EQPC
	 * and SRQC 2 MiB; MPT 64 B << 10 = 64 KiB at 0x42000000 (before UAR
	 * scratch, 64 KiB too, by enum order) and UAR scratch at 0x42010000;
	 * the four 4 KiB tables from 0x42020000.
	 */
	static const struct expect_place e[] = {
		{ ARBEL_ICM_MTT,     0x00000000, SZ_128K, 14 },
		{ ARBEL_ICM_UARC,    0x20000000, SZ_512M, 11 },
		{ ARBEL_ICM_QPC,     0x40000000, SZ_16M,  16 },
		{ ARBEL_ICM_RDB,     0x41000000, SZ_8M,   16 },
		{ ARBEL_ICM_CQC,     0x41800000, SZ_4M,   16 },
		{ ARBEL_ICM_EQPC,    0x41c00000, SZ_2M,   16 },
		{ ARBEL_ICM_SRQC,    0x41e00000, SZ_2M,   16 },
		{ ARBEL_ICM_MPT,     0x42000000, SZ_64K,  10 },
		{ ARBEL_ICM_UAR_SCR, 0x42010000, SZ_64K,  11 },
		{ ARBEL_ICM_EQC,     0x42020000, SZ_4K,    5 },
		{ ARBEL_ICM_MCG,     0x42021000, SZ_4K,    4 },
		{ ARBEL_ICM_EEC,     0x42022000, SZ_4K,    0 },
		{ ARBEL_ICM_EEEC,    0x42023000, SZ_4K,    0 },
	};
	struct arbel_icm_layout l;

	KUNIT_ASSERT_EQ(test, arbel_icm_profile(&lim, 10, 14, SZ_4K, &l), 0);
	check_layout(test, &l, e, ARRAY_SIZE(e), 0x42024000);
	check_disjoint(test, &l);
}

static void profile_test_mtt_first_and_aligned(struct kunit *test)
{
	/*
	 * MTT 8 B << 5 = 256 B -> one 4 KiB page at 0; the 512 MiB UARC
	 * cannot follow at 4 KiB: it is aligned up to 512 MiB; the 16 MiB
	 * QPC follows it at 1 GiB, the 8 MiB MPT table at 1 GiB + 16 MiB.
	 */
	struct arbel_icm_layout l;
	int i;

	KUNIT_ASSERT_EQ(test, arbel_icm_profile(&lim, 17, 5, SZ_4K, &l), 0);
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_MTT].base, 0ULL);
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_MTT].size, (u64)SZ_4K);
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_UARC].base, (u64)SZ_512M);
	KUNIT_EXPECT_EQ(test, l.t[ARBEL_ICM_MPT].base, (u64)SZ_1G + SZ_16M);
	for (i = 0; i < ARBEL_ICM_NR_PLACES; i++)
		KUNIT_EXPECT_EQ_MSG(test, l.t[i].base % l.t[i].size, 0ULL,
				    "table %d", i);
	check_disjoint(test, &l);
}

static void profile_test_refusals(struct kunit *test)
{
	struct arbel_dev_lim small = lim;
	struct arbel_icm_layout l;

	/* MPTs must exceed the 2^4 reserved and not pass the 2^17 maximum */
	KUNIT_EXPECT_EQ(test, arbel_icm_profile(&lim, 4, 20, SZ_4K, &l),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_icm_profile(&lim, 18, 20, SZ_4K, &l),
			-EINVAL);
	/* MTTs: above 2^4 reserved, at most 2^20 segments of 8 = 2^23 */
	KUNIT_EXPECT_EQ(test, arbel_icm_profile(&lim, 17, 4, SZ_4K, &l),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_icm_profile(&lim, 17, 23, SZ_4K, &l), 0);
	KUNIT_EXPECT_EQ(test, arbel_icm_profile(&lim, 17, 24, SZ_4K, &l),
			-EINVAL);
	/* the default layout needs 0x42814000 bytes of ICM */
	small.max_icm_sz = 0x42813fff;
	KUNIT_EXPECT_EQ(test, arbel_icm_profile(&small, 17, 20, SZ_4K, &l),
			-EINVAL);
	small.max_icm_sz = 0x42814000;
	KUNIT_EXPECT_EQ(test, arbel_icm_profile(&small, 17, 20, SZ_4K, &l), 0);
	small = lim;
	small.mpt_entry_sz = 0;
	KUNIT_EXPECT_EQ(test, arbel_icm_profile(&small, 17, 20, SZ_4K, &l),
			-EINVAL);
}

static void chunk_test_index(struct kunit *test)
{
	/* 2^17 MPT entries of 64 bytes in 256 KiB chunks: 4096 per chunk */
	static const struct arbel_icm_place mpt = {
		.entry_size = 64, .log_num = 17, .size = SZ_8M,
	};
	const u32 chunk = SZ_256K;

	KUNIT_EXPECT_EQ(test, arbel_icm_chunk_index(&mpt, chunk, 0), 0u);
	KUNIT_EXPECT_EQ(test, arbel_icm_chunk_index(&mpt, chunk, 4095), 0u);
	KUNIT_EXPECT_EQ(test, arbel_icm_chunk_index(&mpt, chunk, 4096), 1u);
	KUNIT_EXPECT_EQ(test, arbel_icm_chunk_index(&mpt, chunk, 0x1ffff),
			31u);
	/* tag bits above the table are ignored: 0x12345 * 64 / 256 KiB */
	KUNIT_EXPECT_EQ(test, arbel_icm_chunk_index(&mpt, chunk, 0xab412345),
			18u);
	/* a table smaller than a chunk is one chunk */
	KUNIT_EXPECT_EQ(test,
			arbel_icm_chunk_index(&(struct arbel_icm_place){
				.entry_size = 64, .log_num = 5, .size = SZ_4K },
				SZ_4K, 31), 0u);
}

static struct kunit_case profile_kcases[] = {
	KUNIT_CASE(chunk_test_index),
	KUNIT_CASE(profile_test_default),
	KUNIT_CASE(profile_test_rsvd_uars_count),
	KUNIT_CASE(profile_test_rsvd_eqs),
	KUNIT_CASE(profile_test_small_mtt),
	KUNIT_CASE(profile_test_mtt_first_and_aligned),
	KUNIT_CASE(profile_test_refusals),
	{}
};

static struct kunit_suite arbel_profile_suite = {
	.name = "arbel_profile",
	.test_cases = profile_kcases,
};

kunit_test_suites(&arbel_profile_suite);

MODULE_DESCRIPTION("KUnit tests for the Arbel ICM profile");
MODULE_LICENSE("GPL");
