// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the EQ entry decoder and the EQ context encoder (eqe.c).
 *
 * Golden bytes are written by hand from the layouts in
 * Documentation/arbel-hw.rst "Event queues" (mthca's eq code's struct
 * mthca_eqe and struct mthca_eq_context), never produced by the code
 * under test.
 */

#include <kunit/test.h>
#include <linux/string.h>

#include <arbel/eqe.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A command completion: token 0xbeef, status 0x0a, out_param. */
static const u8 eqe_cmd[32] = {
	[0x01] = 0x0a,				/* type CMD */
	[0x06] = 0xbe, [0x07] = 0xef,		/* token */
	[0x0f] = 0x0a,				/* status BAD_INDEX */
	[0x10] = 0x01, [0x11] = 0x23, [0x12] = 0x45, [0x13] = 0x67,
	[0x14] = 0x89, [0x15] = 0xab, [0x16] = 0xcd, [0x17] = 0xef,
	[0x1f] = 0x00,				/* software owns it */
};

static void eqe_decode_cmd(struct kunit *test)
{
	struct arbel_eqe_info info;

	KUNIT_EXPECT_TRUE(test, arbel_eqe_sw_owned(eqe_cmd));
	arbel_eqe_decode(eqe_cmd, &info);
	KUNIT_EXPECT_EQ(test, info.type, 0x0a);
	KUNIT_EXPECT_EQ(test, info.token, 0xbeef);
	KUNIT_EXPECT_EQ(test, info.status, 0x0a);
	KUNIT_EXPECT_EQ(test, info.out_param, 0x0123456789abcdefULL);
	KUNIT_EXPECT_EQ(test, info.port, 0);
}

static void eqe_owner(struct kunit *test)
{
	u8 e[32] = { };

	e[0x1f] = 0x80;			/* the HCA owns it */
	KUNIT_EXPECT_FALSE(test, arbel_eqe_sw_owned(e));
	e[0x1f] = 0x7f;			/* other bits do not matter */
	KUNIT_EXPECT_TRUE(test, arbel_eqe_sw_owned(e));
}

static void eqe_decode_port(struct kunit *test)
{
	struct arbel_eqe_info info;
	u8 e[32] = { };

	/* port change: type 0x09, subtype 0x04 active, port 2 at 0x0c 29:28 */
	e[0x01] = 0x09;
	e[0x03] = 0x04;
	e[0x0c] = 0x20;
	arbel_eqe_decode(e, &info);
	KUNIT_EXPECT_EQ(test, info.type, 0x09);
	KUNIT_EXPECT_EQ(test, info.port, 2);
	KUNIT_EXPECT_TRUE(test, info.port_active);
	KUNIT_EXPECT_EQ(test, info.token, 0);

	/* subtype 0x01: down; port 1; other bits of the dword ignored */
	e[0x03] = 0x01;
	e[0x0c] = 0xd0;
	e[0x0f] = 0xff;
	arbel_eqe_decode(e, &info);
	KUNIT_EXPECT_EQ(test, info.port, 1);
	KUNIT_EXPECT_FALSE(test, info.port_active);
}

static void eqc_encode_golden(struct kunit *test)
{
	static const u8 want[0x40] = {
		/* owner HW (1 << 24) | state armed + Arbel bit (9 << 8) */
		[0x00] = 0x01, [0x02] = 0x09,
		/* start */
		[0x04] = 0x00, [0x05] = 0x00, [0x06] = 0x00, [0x07] = 0x01,
		[0x08] = 0x23, [0x09] = 0x45, [0x0a] = 0x60, [0x0b] = 0x00,
		/* log size 9 in bits 28:24 */
		[0x0c] = 0x09,
		/* intr 128: MSI-X vector 0 */
		[0x17] = 0x80,
		/* PD 0x10 */
		[0x1b] = 0x10,
		/* lkey 0x00001234 */
		[0x1e] = 0x12, [0x1f] = 0x34,
	};
	struct arbel_eqc eqc = {
		.start = 0x123456000ULL,
		.log_size = 9,
		.intr = 128,
		.pd = 0x10,
		.lkey = 0x1234,
	};
	u8 ctx[0x40];
	int i;

	memset(ctx, 0xa5, sizeof(ctx));
	arbel_eqc_encode(&eqc, ctx);
	for (i = 0; i < sizeof(want); i++)
		KUNIT_EXPECT_EQ_MSG(test, ctx[i], want[i], "byte 0x%02x", i);
}

static void event_and_catas_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, arbel_event_name(0x09), "PORT_CHANGE");
	KUNIT_EXPECT_STREQ(test, arbel_event_name(0x0a), "CMD");
	KUNIT_EXPECT_STREQ(test, arbel_event_name(0x08), "LOCAL_CATAS_ERROR");
	KUNIT_EXPECT_STREQ(test, arbel_event_name(0x3f), "UNKNOWN");
	/* type in bits 31:24 of dword 0 (mthca's catas code) */
	KUNIT_EXPECT_STREQ(test, arbel_catas_type_name(0x00000001),
			   "internal error");
	KUNIT_EXPECT_STREQ(test, arbel_catas_type_name(0x03000000),
			   "uplink bus error");
	KUNIT_EXPECT_STREQ(test, arbel_catas_type_name(0x05abcdef),
			   "internal parity error");
	KUNIT_EXPECT_STREQ(test, arbel_catas_type_name(0x07000000),
			   "unknown error");
}

static void event_masks(struct kunit *test)
{
	/* command completions: bit 10 only */
	KUNIT_EXPECT_EQ(test, ARBEL_CMD_EVENT_MASK, 0x400ULL);
	/*
	 * mthca's async mask with SRQs: types 1-9, 0x0e, 0x10, 0x11 and the
	 * SRQ events 0x12-0x14: 0x3fe + 0x4000 + 0x30000 + 0x1c0000
	 */
	KUNIT_EXPECT_EQ(test, ARBEL_ASYNC_EVENT_MASK, 0x1f43feULL);
}

static void eqe_decode_queue(struct kunit *test)
{
	struct arbel_eqe_info info;
	u8 e[32] = { };

	/* completion event: type 0x00, CQN 0x000081 at 0x04 (bits 23:0) */
	e[0x04] = 0xff;		/* bits 31:24 are not the number */
	e[0x06] = 0x00;
	e[0x07] = 0x81;
	arbel_eqe_decode(e, &info);
	KUNIT_EXPECT_EQ(test, info.type, 0x00);
	KUNIT_EXPECT_EQ(test, info.obj, 0x81u);

	/* CQ error: type 0x04, CQN 0x000102, syndrome 1 (overrun) at 0x0f */
	memset(e, 0, sizeof(e));
	e[0x01] = 0x04;
	e[0x06] = 0x01;
	e[0x07] = 0x02;
	e[0x0f] = 0x01;
	arbel_eqe_decode(e, &info);
	KUNIT_EXPECT_EQ(test, info.obj, 0x102u);
	KUNIT_EXPECT_EQ(test, info.syndrome, 1);

	/* SRQ limit: type 0x14, SRQN 0x000013 */
	memset(e, 0, sizeof(e));
	e[0x01] = 0x14;
	e[0x07] = 0x13;
	arbel_eqe_decode(e, &info);
	KUNIT_EXPECT_EQ(test, info.obj, 0x13u);
	KUNIT_EXPECT_STREQ(test, arbel_event_name(0x14), "SRQ_LIMIT");
}

static struct kunit_case eqe_cases[] = {
	KUNIT_CASE(eqe_decode_cmd),
	KUNIT_CASE(eqe_owner),
	KUNIT_CASE(eqe_decode_queue),
	KUNIT_CASE(eqe_decode_port),
	KUNIT_CASE(eqc_encode_golden),
	KUNIT_CASE(event_and_catas_names),
	KUNIT_CASE(event_masks),
	{}
};

static struct kunit_suite arbel_eqe_suite = {
	.name = "arbel_eqe",
	.test_cases = eqe_cases,
};

kunit_test_suites(&arbel_eqe_suite);

MODULE_DESCRIPTION("KUnit tests for the Arbel EQ entry and context layouts");
MODULE_LICENSE("GPL");
