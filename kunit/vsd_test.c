// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite arbel_vsd: the board ID in QUERY_ADAPTER's vendor-specific
 * data, as mthca's get_board_id() reads it.  The VSD images are written
 * by hand: a Mellanox board's ID at VSD + 0xd0 with every dword
 * byte-swapped, a Topspin board's plain string at VSD + 0x20 behind the
 * two 0x5ad signatures (be16 at VSD + 0x00 and + 0xde).
 */

#include <kunit/test.h>
#include <linux/string.h>

#include <arbel/vsd.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* outbox 0x20 .. 0x100: the ID's 16 bytes end the 256-byte outbox */
#define VSD_LEN	0xe0

static void vsd_test_mellanox(struct kunit *test)
{
	/* "MT_0" "2000" "0000" "1\0\0\0", each dword reversed */
	static const u8 swapped[16] = {
		'0', '_', 'T', 'M', '0', '0', '0', '2',
		'0', '0', '0', '0', 0, 0, 0, '1',
	};
	u8 vsd[VSD_LEN] = { };
	char id[17], small[5];

	memcpy(vsd + 0xd0, swapped, sizeof(swapped));
	/* a decoy where a plain-string reader would look */
	memcpy(vsd + 0x20, "WRONG", 5);
	arbel_vsd_board_id(vsd, id, sizeof(id));
	KUNIT_EXPECT_STREQ(test, id, "MT_0200000001");
	arbel_vsd_board_id(vsd, small, sizeof(small));
	KUNIT_EXPECT_STREQ(test, small, "MT_0");
}

static void vsd_test_full_length(struct kunit *test)
{
	/* 16 characters, no NUL inside: the result is cut and terminated */
	static const u8 swapped[16] = {
		'D', 'C', 'B', 'A', 'H', 'G', 'F', 'E',
		'L', 'K', 'J', 'I', 'P', 'O', 'N', 'M',
	};
	u8 vsd[VSD_LEN] = { };
	char id[32];

	memset(id, 'x', sizeof(id));
	memcpy(vsd + 0xd0, swapped, sizeof(swapped));
	arbel_vsd_board_id(vsd, id, sizeof(id));
	KUNIT_EXPECT_STREQ(test, id, "ABCDEFGHIJKLMNOP");
}

static void vsd_test_topspin(struct kunit *test)
{
	u8 vsd[VSD_LEN] = { };
	char id[17];

	vsd[0x00] = 0x05;
	vsd[0x01] = 0xad;
	vsd[0xde] = 0x05;
	vsd[0xdf] = 0xad;
	memcpy(vsd + 0x20, "TS-BOARD-7", 10);
	arbel_vsd_board_id(vsd, id, sizeof(id));
	KUNIT_EXPECT_STREQ(test, id, "TS-BOARD-7");
	/* one signature alone is not a Topspin VSD */
	vsd[0xdf] = 0xae;
	arbel_vsd_board_id(vsd, id, sizeof(id));
	KUNIT_EXPECT_STREQ(test, id, "");
}

static struct kunit_case vsd_kcases[] = {
	KUNIT_CASE(vsd_test_mellanox),
	KUNIT_CASE(vsd_test_full_length),
	KUNIT_CASE(vsd_test_topspin),
	{}
};

static struct kunit_suite arbel_vsd_suite = {
	.name = "arbel_vsd",
	.test_cases = vsd_kcases,
};

kunit_test_suites(&arbel_vsd_suite);

MODULE_DESCRIPTION("KUnit tests for the Arbel board ID decoding");
MODULE_LICENSE("GPL");
