// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for the registration allocators: MPT keys with tag
 * rotation and MTT entry ranges.  Expected keys are worked out by hand:
 * key = hardware index rotated left by 8, hardware index = tag | slot.
 */

#include <kunit/test.h>
#include <linux/errno.h>

#include <arbel/alloc.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static void keys_test_first_and_exhaustion(struct kunit *test)
{
	struct arbel_keys keys;
	u32 key, i;

	/* 16 slots, 4 reserved: slots 4..15, first key rol8(4) */
	KUNIT_ASSERT_EQ(test, arbel_keys_init(&keys, 16, 4, 0), 0);
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &key), 0);
	KUNIT_EXPECT_EQ(test, key, 0x00000400u);
	for (i = 5; i < 16; i++) {
		KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &key), 0);
		KUNIT_EXPECT_EQ(test, key, i << 8);
	}
	KUNIT_EXPECT_EQ(test, arbel_key_alloc(&keys, &key), -ENOMEM);
	for (i = 4; i < 16; i++)
		arbel_key_free(&keys, i << 8);
	arbel_keys_destroy(&keys);
}

static void keys_test_tag_rotation(struct kunit *test)
{
	struct arbel_keys keys;
	u32 a, b;

	KUNIT_ASSERT_EQ(test, arbel_keys_init(&keys, 16, 4, 0), 0);
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &a), 0);	/* slot 4 */
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &b), 0);	/* slot 5 */
	KUNIT_EXPECT_EQ(test, a, 0x00000400u);
	KUNIT_EXPECT_EQ(test, b, 0x00000500u);

	/* slot 4 again: tag 16, hw 0x14, key 0x1400 */
	arbel_key_free(&keys, a);
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &a), 0);
	KUNIT_EXPECT_EQ(test, a, 0x00001400u);
	/* and again: hw 0x24 */
	arbel_key_free(&keys, a);
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &a), 0);
	KUNIT_EXPECT_EQ(test, a, 0x00002400u);
	/* slot 5 keeps its own tag */
	arbel_key_free(&keys, b);
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &b), 0);
	KUNIT_EXPECT_EQ(test, b, 0x00001500u);

	arbel_key_free(&keys, a);
	arbel_key_free(&keys, b);
	arbel_keys_destroy(&keys);
}

static void keys_test_tag_in_high_bits(struct kunit *test)
{
	struct arbel_keys keys;
	u32 key, i;

	/*
	 * 2^17 slots, 16 reserved: slot 16's first key is 0x1000; after
	 * 256 reuses the tag is 256 << 17 = 0x02000000, hw 0x02000010,
	 * key rol8 = 0x00001002 (the tag reaches the key's low byte).
	 */
	KUNIT_ASSERT_EQ(test, arbel_keys_init(&keys, 1 << 17, 16, 0), 0);
	for (i = 0; i < 256; i++) {
		KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &key), 0);
		arbel_key_free(&keys, key);
	}
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &key), 0);
	KUNIT_EXPECT_EQ(test, key, 0x00001002u);
	arbel_key_free(&keys, key);
	arbel_keys_destroy(&keys);
}

/*
 * Finding 5 of issue #11: the place that holds a slot's next tag exists
 * before the slot is freed, so arbel_key_free() only stores into it (no
 * allocation, nothing that can fail).  Before, the first free of a slot
 * allocated the entry and ignored a failure: the next key of that slot
 * could equal the old one.  Now every slot's tag is in the array made by
 * arbel_keys_init(), zero until the slot is first freed.
 */
static void keys_test_tag_stored_without_memory(struct kunit *test)
{
	struct arbel_keys keys;
	u32 a, b;

	KUNIT_ASSERT_EQ(test, arbel_keys_init(&keys, 16, 4, 0), 0);
	KUNIT_ASSERT_NOT_NULL(test, keys.tags);
	KUNIT_EXPECT_EQ(test, keys.tags[4], 0u);
	KUNIT_EXPECT_EQ(test, keys.tags[15], 0u);
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &a), 0);	/* slot 4 */
	KUNIT_EXPECT_EQ(test, a, 0x00000400u);

	/* free stores the next tag, 16 (one table size on) */
	arbel_key_free(&keys, a);
	KUNIT_EXPECT_EQ(test, keys.tags[4], 16u);
	KUNIT_EXPECT_EQ(test, keys.tags[5], 0u);		/* never used */
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &b), 0);
	KUNIT_EXPECT_EQ(test, b, 0x00001400u);		/* hw 0x14 */
	arbel_key_free(&keys, b);
	KUNIT_EXPECT_EQ(test, keys.tags[4], 32u);
	arbel_keys_destroy(&keys);
	KUNIT_EXPECT_NULL(test, keys.tags);
}

/*
 * Issue 30: a key from an earlier life of the device (before a recovery,
 * an unbind) must not name a region again.  By hand, 16 slots, 4
 * reserved: a first tag of 0x45 keeps 0x40 (its bits above the slot);
 * slot 4's first key is hw 0x44, rotated left by 8: 0x4400; two uses
 * advance its tag to 0x60, the next life's first tag; its first key there
 * is hw 0x64, none of the 0x44 and 0x54 of the life before.
 */
static void keys_test_no_key_across_lives(struct kunit *test)
{
	struct arbel_keys keys;
	u32 a, b, next;

	KUNIT_ASSERT_EQ(test, arbel_keys_init(&keys, 16, 4, 0x45), 0);
	KUNIT_EXPECT_EQ(test, arbel_keys_next_tag(&keys), 0x40u);
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &a), 0);
	KUNIT_EXPECT_EQ(test, a, 0x00004400u);
	arbel_key_free(&keys, a);
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &b), 0);
	KUNIT_EXPECT_EQ(test, b, 0x00005400u);
	arbel_key_free(&keys, b);
	next = arbel_keys_next_tag(&keys);
	KUNIT_EXPECT_EQ(test, next, 0x60u);
	arbel_keys_destroy(&keys);

	KUNIT_ASSERT_EQ(test, arbel_keys_init(&keys, 16, 4, next), 0);
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &a), 0);
	KUNIT_EXPECT_EQ(test, a, 0x00006400u);
	arbel_key_free(&keys, a);
	arbel_keys_destroy(&keys);
}

/*
 * The next tag is found past a wrap of 2^32: a first tag of 0xfffffff0
 * (16 slots) and one use of slot 4 give a next tag of 0 (0xfffffff0 +
 * 16), not the 0xfffffff0 an unsigned maximum would keep.
 */
static void keys_test_next_tag_wraps(struct kunit *test)
{
	struct arbel_keys keys;
	u32 a;

	KUNIT_ASSERT_EQ(test, arbel_keys_init(&keys, 16, 4, 0xfffffff0u), 0);
	KUNIT_ASSERT_EQ(test, arbel_key_alloc(&keys, &a), 0);
	arbel_key_free(&keys, a);
	KUNIT_EXPECT_EQ(test, arbel_keys_next_tag(&keys), 0u);
	arbel_keys_destroy(&keys);
}

/*
 * Finding 7 of issue #11: max_pd - rsvd_pd must not wrap.  Numbers by
 * hand: 2^17 PDs with 1 reserved hand out [1, 0x20000); the MPT's pd
 * field has 24 bits, so 2^30 is capped at 0x1000000.
 */
static void pd_test_range(struct kunit *test)
{
	u32 first = 7, end = 7;

	KUNIT_EXPECT_EQ(test, arbel_pd_range(17, 1, &first, &end), 0);
	KUNIT_EXPECT_EQ(test, first, 1u);
	KUNIT_EXPECT_EQ(test, end, 0x20000u);
	KUNIT_EXPECT_EQ(test, arbel_pd_range(30, 16, &first, &end), 0);
	KUNIT_EXPECT_EQ(test, first, 0x10u);
	KUNIT_EXPECT_EQ(test, end, 0x1000000u);

	/* every number reserved, more than all */
	first = 7;
	end = 7;
	KUNIT_EXPECT_EQ(test, arbel_pd_range(4, 16, &first, &end), -EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_pd_range(4, 17, &first, &end), -EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_pd_range(0, 1, &first, &end), -EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_pd_range(30, 0x1000000, &first, &end),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_pd_range(255, 0xffffffff, &first, &end),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, first, 7u);	/* untouched on error */
	KUNIT_EXPECT_EQ(test, end, 7u);
}

static struct kunit_case keys_cases[] = {
	KUNIT_CASE(keys_test_first_and_exhaustion),
	KUNIT_CASE(keys_test_tag_rotation),
	KUNIT_CASE(keys_test_tag_in_high_bits),
	KUNIT_CASE(keys_test_tag_stored_without_memory),
	KUNIT_CASE(keys_test_no_key_across_lives),
	KUNIT_CASE(keys_test_next_tag_wraps),
	KUNIT_CASE(pd_test_range),
	{}
};

static struct kunit_suite arbel_keys_suite = {
	.name = "arbel_keys",
	.test_cases = keys_cases,
};

static void mtt_test_alloc_free(struct kunit *test)
{
	struct arbel_mtt_pool mtt;
	u32 a, b, c, d;

	/* 1024 entries, 16 reserved: segments of 8 from entry 16 */
	KUNIT_ASSERT_EQ(test, arbel_mtt_pool_init(&mtt, 1024, 16), 0);
	KUNIT_EXPECT_EQ(test, gen_pool_avail(mtt.pool), (size_t)1008);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 1, &a), 0);
	KUNIT_EXPECT_EQ(test, a, 16u);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 8, &b), 0);
	KUNIT_EXPECT_EQ(test, b, 24u);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 9, &c), 0);	/* 2 segs */
	KUNIT_EXPECT_EQ(test, c, 32u);
	KUNIT_EXPECT_EQ(test, gen_pool_avail(mtt.pool), (size_t)(1008 - 32));

	/* a freed hole is reused first */
	arbel_mtt_free(&mtt, b, 8);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 5, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 24u);

	/* too much: nothing taken */
	KUNIT_EXPECT_EQ(test, arbel_mtt_alloc(&mtt, 1024, &b), -ENOMEM);
	KUNIT_EXPECT_EQ(test, arbel_mtt_alloc(&mtt, 0, &b), -EINVAL);

	arbel_mtt_free(&mtt, a, 1);
	arbel_mtt_free(&mtt, c, 9);
	arbel_mtt_free(&mtt, d, 5);
	KUNIT_EXPECT_EQ(test, gen_pool_avail(mtt.pool), (size_t)1008);
	arbel_mtt_pool_destroy(&mtt);
}

static void mtt_test_exhaustion(struct kunit *test)
{
	struct arbel_mtt_pool mtt;
	u32 first[16], x;
	int i;

	/* 128 entries, 8 reserved: 15 segments */
	KUNIT_ASSERT_EQ(test, arbel_mtt_pool_init(&mtt, 128, 8), 0);
	for (i = 0; i < 15; i++) {
		KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 8, &first[i]), 0);
		KUNIT_EXPECT_EQ(test, first[i], 8u + 8 * i);
	}
	KUNIT_EXPECT_EQ(test, arbel_mtt_alloc(&mtt, 1, &x), -ENOMEM);
	for (i = 0; i < 15; i++)
		arbel_mtt_free(&mtt, first[i], 8);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 120, &x), 0);
	KUNIT_EXPECT_EQ(test, x, 8u);
	arbel_mtt_free(&mtt, x, 120);
	arbel_mtt_pool_destroy(&mtt);
}

static void mtt_test_reserved_rounding(struct kunit *test)
{
	struct arbel_mtt_pool mtt;
	u32 x;

	/* no reserved entries still keeps segment 0 (address 0) out */
	KUNIT_ASSERT_EQ(test, arbel_mtt_pool_init(&mtt, 64, 0), 0);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 1, &x), 0);
	KUNIT_EXPECT_EQ(test, x, 8u);
	arbel_mtt_free(&mtt, x, 1);
	arbel_mtt_pool_destroy(&mtt);

	/* 17 reserved entries round up to 3 segments */
	KUNIT_ASSERT_EQ(test, arbel_mtt_pool_init(&mtt, 64, 17), 0);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 1, &x), 0);
	KUNIT_EXPECT_EQ(test, x, 24u);
	arbel_mtt_free(&mtt, x, 1);
	arbel_mtt_pool_destroy(&mtt);

	/* nothing left past the reserved entries */
	KUNIT_EXPECT_EQ(test, arbel_mtt_pool_init(&mtt, 64, 64), -EINVAL);
}

static void mtt_test_hole_below_larger_range(struct kunit *test)
{
	struct arbel_mtt_pool mtt;
	u32 a, b, c, d, e, f;

	/* 256 entries, 8 reserved: segments of 8 from entry 8 */
	KUNIT_ASSERT_EQ(test, arbel_mtt_pool_init(&mtt, 256, 8), 0);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 8, &a), 0);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 8, &b), 0);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 8, &c), 0);
	KUNIT_EXPECT_EQ(test, c, 24u);

	/* a one-segment hole at 8 does not fit two segments: they go to 32 */
	arbel_mtt_free(&mtt, a, 8);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 16, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 32u);
	/* ... and the hole is still found first */
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 1, &e), 0);
	KUNIT_EXPECT_EQ(test, e, 8u);
	/* the table full up to 48: the next range starts there */
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 1, &f), 0);
	KUNIT_EXPECT_EQ(test, f, 48u);

	/* freeing the highest and the lowest: the lowest comes back first */
	arbel_mtt_free(&mtt, f, 1);
	arbel_mtt_free(&mtt, b, 8);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&mtt, 8, &f), 0);
	KUNIT_EXPECT_EQ(test, f, 16u);

	arbel_mtt_free(&mtt, c, 8);
	arbel_mtt_free(&mtt, d, 16);
	arbel_mtt_free(&mtt, e, 1);
	arbel_mtt_free(&mtt, f, 8);
	KUNIT_EXPECT_EQ(test, gen_pool_avail(mtt.pool), (size_t)248);
	arbel_mtt_pool_destroy(&mtt);
}

static struct kunit_case mtt_cases[] = {
	KUNIT_CASE(mtt_test_alloc_free),
	KUNIT_CASE(mtt_test_hole_below_larger_range),
	KUNIT_CASE(mtt_test_exhaustion),
	KUNIT_CASE(mtt_test_reserved_rounding),
	{}
};

static struct kunit_suite arbel_mtt_suite = {
	.name = "arbel_mtt",
	.test_cases = mtt_cases,
};

kunit_test_suites(&arbel_keys_suite, &arbel_mtt_suite);

MODULE_DESCRIPTION("KUnit tests for the Arbel key and MTT allocators");
MODULE_LICENSE("GPL");
