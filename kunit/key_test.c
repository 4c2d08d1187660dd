// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite arbel_key: the key <-> hardware index rotation and the
 * slot/tag split of mpt.h.  Expected values are worked out by hand from
 * Documentation/arbel-hw.rst ("Keys"), not from prm.h.
 */

#include <kunit/test.h>
#include <linux/prandom.h>

#include <arbel/mpt.h>

#define ROUNDS 2000

static void key_test_rotation(struct kunit *test)
{
	/* hw 0x00012345: key bits 31:8 = hw 23:0, key 7:0 = hw 31:24 */
	KUNIT_EXPECT_EQ(test, arbel_hw_to_key(0x00012345), 0x01234500u);
	KUNIT_EXPECT_EQ(test, arbel_hw_to_key(0xab012345), 0x012345abu);
	KUNIT_EXPECT_EQ(test, arbel_key_to_hw(0x01234500), 0x00012345u);
	KUNIT_EXPECT_EQ(test, arbel_key_to_hw(0x012345ab), 0xab012345u);
	KUNIT_EXPECT_EQ(test, arbel_key_to_hw(0xffffffff), 0xffffffffu);
	KUNIT_EXPECT_EQ(test, arbel_hw_to_key(0x80000000), 0x00000080u);
}

static void key_test_round_trip(struct kunit *test)
{
	struct rnd_state st;
	int n;

	prandom_seed_state(&st, 7);
	for (n = 0; n < ROUNDS; n++) {
		u32 k = prandom_u32_state(&st);

		KUNIT_ASSERT_EQ(test, arbel_hw_to_key(arbel_key_to_hw(k)), k);
		KUNIT_ASSERT_EQ(test, arbel_key_to_hw(arbel_hw_to_key(k)), k);
	}
}

static void key_test_slot_tag(struct kunit *test)
{
	const u32 num_mpts = 1 << 17;

	/* key 0x412345ab is hw 0xab412345: slot 0x12345, tag 0xab400000 */
	KUNIT_EXPECT_EQ(test, arbel_key_slot(0x412345ab, num_mpts), 0x12345u);
	KUNIT_EXPECT_EQ(test, arbel_key_tag(0x412345ab, num_mpts),
			0xab400000u);
	/* slot | tag is the hardware index again */
	KUNIT_EXPECT_EQ(test, arbel_key_slot(0x412345ab, num_mpts) |
			arbel_key_tag(0x412345ab, num_mpts), 0xab412345u);
	/* a smaller table moves bits from the slot to the tag */
	KUNIT_EXPECT_EQ(test, arbel_key_slot(0x412345ab, 1 << 4), 0x5u);
	KUNIT_EXPECT_EQ(test, arbel_key_tag(0x412345ab, 1 << 4), 0xab412340u);
	/* a reused slot with the next tag gives another key, same slot */
	KUNIT_EXPECT_EQ(test, arbel_hw_to_key(0xab412345 + num_mpts),
			0x432345abu);
	KUNIT_EXPECT_EQ(test, arbel_key_slot(0x432345ab, num_mpts), 0x12345u);
}

static struct kunit_case key_cases[] = {
	KUNIT_CASE(key_test_rotation),
	KUNIT_CASE(key_test_round_trip),
	KUNIT_CASE(key_test_slot_tag),
	{}
};

static struct kunit_suite arbel_key_suite = {
	.name = "arbel_key",
	.test_cases = key_cases,
};

kunit_test_suite(arbel_key_suite);

MODULE_DESCRIPTION("KUnit tests for the Arbel key <-> index rotation");
MODULE_LICENSE("GPL");
