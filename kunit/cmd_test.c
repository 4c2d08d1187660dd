// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for the pure parts of the command transport: HCR word
 * packing, firmware status -> errno, opcode and status names.  Expected
 * values are taken from Documentation/arbel-hw.rst (HCR layout, status
 * table), not from prm.h.
 */

#include <kunit/test.h>
#include <linux/errno.h>

#include <arbel/hcr.h>
#include <arbel/status.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct hcr_case {
	const char *name;
	struct arbel_hcr_cmd cmd;
	u32 words[7];
};

static const struct hcr_case hcr_cases[] = {
	{
		"SW2HW_MPT with an inbox, index 0x11",
		{ .in_param = 0x0000000123456000ULL, .in_mod = 0x11,
		  .opcode = 0x00d, .token = 0xffff },
		/* dword 6: go (bit 23) | opcode 0x00d */
		{ 0x00000001, 0x23456000, 0x00000011, 0, 0, 0xffff0000,
		  0x0080000d },
	},
	{
		"HW2SW_MPT op_mod 1 with an outbox",
		{ .out_param = 0x0000000abcdef000ULL, .in_mod = 0x20,
		  .opcode = 0x00f, .op_mod = 1, .token = 0x1234 },
		/* op_mod in bits 15:12 */
		{ 0, 0, 0x00000020, 0x0000000a, 0xbcdef000, 0x12340000,
		  0x0080100f },
	},
	{
		"MAP_FA, 12-bit opcode, event bit",
		{ .in_param = 0xfedcba9876543000ULL, .in_mod = 3,
		  .opcode = 0xfff, .op_mod = 0xf, .event = true },
		/* e (bit 22) | go | op_mod 0xf | opcode 0xfff */
		{ 0xfedcba98, 0x76543000, 3, 0, 0, 0, 0x00c0ffff },
	},
};

static void hcr_desc(const struct hcr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hcr, hcr_cases, hcr_desc);

static void hcr_test_pack(struct kunit *test)
{
	const struct hcr_case *c = test->param_value;
	u32 words[7];
	int i;

	memset(words, 0xa5, sizeof(words));
	arbel_hcr_pack(&c->cmd, words);
	for (i = 0; i < 7; i++)
		KUNIT_EXPECT_EQ_MSG(test, words[i], c->words[i], "dword %d", i);
}

/*
 * Finding 7 of issue #11: cmd_timeout_ms=0 made every command wait
 * forever.  The range is 1 ms to 10 minutes (arbel-hw.rst, "Command
 * timeouts"); arbel_cmd_init() refuses the rest with it (arbel_cmd_flow
 * checks that it does so before touching the transport).
 */
static void hcr_test_timeout_range(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, arbel_cmd_timeout_ok(0));
	KUNIT_EXPECT_TRUE(test, arbel_cmd_timeout_ok(1));
	KUNIT_EXPECT_TRUE(test, arbel_cmd_timeout_ok(60000));
	KUNIT_EXPECT_TRUE(test, arbel_cmd_timeout_ok(600000));
	KUNIT_EXPECT_FALSE(test, arbel_cmd_timeout_ok(600001));
	KUNIT_EXPECT_FALSE(test, arbel_cmd_timeout_ok(UINT_MAX));
}

static struct kunit_case hcr_kcases[] = {
	KUNIT_CASE_PARAM(hcr_test_pack, hcr_gen_params),
	KUNIT_CASE(hcr_test_timeout_range),
	{}
};

static struct kunit_suite arbel_hcr_suite = {
	.name = "arbel_hcr",
	.test_cases = hcr_kcases,
};

struct status_case {
	u8 status;
	int err;
	const char *name;
};

/* arbel-hw.rst's status table with mthca's errno column. */
static const struct status_case status_cases[] = {
	{ 0x00, 0, "OK" },
	{ 0x01, -EIO, "INTERNAL_ERR" },
	{ 0x02, -EPERM, "BAD_OP" },
	{ 0x03, -EINVAL, "BAD_PARAM" },
	{ 0x04, -ENXIO, "BAD_SYS_STATE" },
	{ 0x05, -EBADF, "BAD_RESOURCE" },
	{ 0x06, -EBUSY, "RESOURCE_BUSY" },
	{ 0x07, -ENOMEM, "DDR_MEM_ERR" },
	{ 0x08, -ENOMEM, "EXCEED_LIM" },
	{ 0x09, -EBADF, "BAD_RES_STATE" },
	{ 0x0a, -EBADF, "BAD_INDEX" },
	{ 0x0b, -EFAULT, "BAD_NVMEM" },
	{ 0x10, -EINVAL, "BAD_QPEE_STATE" },
	{ 0x20, -EFAULT, "BAD_SEG_PARAM" },
	{ 0x21, -EBUSY, "REG_BOUND" },
	{ 0x22, -EAGAIN, "LAM_NOT_PRE" },
	{ 0x30, -EBADMSG, "BAD_PKT" },
	{ 0x40, -ENOMEM, "BAD_SIZE" },
	{ 0x0c, -EINVAL, "UNKNOWN" },
	{ 0x11, -EINVAL, "UNKNOWN" },
	{ 0x50, -EINVAL, "UNKNOWN" },
	{ 0xff, -EINVAL, "UNKNOWN" },
};

static void status_desc(const struct status_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "status 0x%02x", c->status);
}

KUNIT_ARRAY_PARAM(status, status_cases, status_desc);

static void status_test_errno(struct kunit *test)
{
	const struct status_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, arbel_status_to_errno(c->status), c->err);
	KUNIT_EXPECT_STREQ(test, arbel_status_name(c->status), c->name);
	KUNIT_EXPECT_EQ(test, arbel_status_known(c->status),
			strcmp(c->name, "UNKNOWN") != 0);
}

static void status_test_opcode_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x003), "QUERY_DEV_LIM");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x004), "QUERY_FW");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x00d), "SW2HW_MPT");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x00e), "QUERY_MPT");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x00f), "HW2SW_MPT");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x011), "WRITE_MTT");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x02f), "SYNC_TPT");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x040), "ARM_SRQ");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0xff6), "RUN_FW");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0xff8), "ENABLE_LAM");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0xffd), "SET_ICM_SIZE");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0xfff), "MAP_FA");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x000), "UNKNOWN");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x03f), "UNKNOWN");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0x0a0), "UNKNOWN");
	KUNIT_EXPECT_STREQ(test, arbel_opcode_name(0xff5), "UNKNOWN");
}

static struct kunit_case status_kcases[] = {
	KUNIT_CASE_PARAM(status_test_errno, status_gen_params),
	KUNIT_CASE(status_test_opcode_names),
	{}
};

static struct kunit_suite arbel_status_suite = {
	.name = "arbel_status",
	.test_cases = status_kcases,
};

kunit_test_suites(&arbel_hcr_suite, &arbel_status_suite);

MODULE_DESCRIPTION("KUnit tests for the Arbel HCR packing and status codes");
MODULE_LICENSE("GPL");
