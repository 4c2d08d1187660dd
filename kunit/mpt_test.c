// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for the MPT layer: field placement, golden images, round
 * trips, validation and access flags (keys: key_test.c).  The driver
 * encodes regions only; the images are read back here by the test's own
 * decoder, built from the seed table below.
 *
 * Every expected value here is transcribed by hand from the PRM struct
 * arbelprm_mpt_st (fields listed LSB first inside each big-endian dword)
 * and deliberately does not use the driver's prm.h masks, so that a wrong
 * mask in prm.h makes these tests fail.
 */

#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/stddef.h>
#include <rdma/ib_verbs.h>

#include <arbel/mpt.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define DWORDS 16

/*
 * One seed field: where it lies in the image (dword, first bit, width)
 * and where it lies in struct arbel_mpt (member, bit of the member that
 * holds the field's bit 0).
 */
struct seed_field {
	const char *name;
	int dword;
	int lsb;
	int width;
	size_t offset;
	size_t size;
	int member_shift;
};

#define OFF(m)	offsetof(struct arbel_mpt, m)
#define SZ(m)	sizeof_field(struct arbel_mpt, m)

/*
 * arbelprm_mpt_st, dword by dword: name, dword, first bit, width, member,
 * bit of the member that holds the field's bit 0.  The memory-window
 * fields (type, qpn, lkey, win_cnt) have no member: a region's are 0, and
 * r_w is always 1 (see mpt_test_region_bits()).
 */
static const struct seed_field seed_fields[] = {
	{ "pa", 0, 9, 1, OFF(pa), SZ(pa), 0 },
	{ "lr", 0, 10, 1, OFF(lr), SZ(lr), 0 },
	{ "lw", 0, 11, 1, OFF(lw), SZ(lw), 0 },
	{ "rr", 0, 12, 1, OFF(rr), SZ(rr), 0 },
	{ "rw", 0, 13, 1, OFF(rw), SZ(rw), 0 },
	{ "a", 0, 14, 1, OFF(a), SZ(a), 0 },
	{ "eb", 0, 15, 1, OFF(eb), SZ(eb), 0 },
	{ "status", 0, 28, 4, OFF(status), SZ(status), 0 },
	{ "page_size", 1, 0, 5, OFF(page_size), SZ(page_size), 0 },
	{ "mem_key", 2, 0, 32, OFF(mem_key), SZ(mem_key), 0 },
	{ "pd", 3, 0, 24, OFF(pd), SZ(pd), 0 },
	{ "ei", 3, 25, 1, OFF(ei), SZ(ei), 0 },
	{ "zb", 3, 26, 1, OFF(zb), SZ(zb), 0 },
	{ "fre", 3, 27, 1, OFF(fre), SZ(fre), 0 },
	{ "rae", 3, 28, 1, OFF(rae), SZ(rae), 0 },
	{ "start_address_h", 4, 0, 32, OFF(start), SZ(start), 32 },
	{ "start_address_l", 5, 0, 32, OFF(start), SZ(start), 0 },
	{ "reg_wnd_len_h", 6, 0, 32, OFF(length), SZ(length), 32 },
	{ "reg_wnd_len_l", 7, 0, 32, OFF(length), SZ(length), 0 },
	{ "mtt_adr_h", 11, 0, 6, OFF(mtt_addr), SZ(mtt_addr), 32 },
	{ "mtt_adr_l", 12, 3, 29, OFF(mtt_addr), SZ(mtt_addr), 3 },
	{ "mtt_sz", 13, 0, 32, OFF(mtt_sz), SZ(mtt_sz), 0 },
};

/* Reserved bits per dword, from the same struct. */
static const u32 seed_reserved[DWORDS] = {
	[0] = 0x0fff00ff,	/* reserved0[7:0], reserved1[27:16] */
	[1] = 0x00000060,	/* reserved2[6:5] */
	[3] = 0xe1000000,	/* reserved3[24], reserved4[31:29] */
	[10] = 0xffffffff,	/* reserved5 */
	[11] = 0xffffffc0,	/* reserved6 */
	[12] = 0x00000007,	/* reserved7 */
	[14] = 0xffffffff,	/* reserved8 */
	[15] = 0xffffffff,
};

/* Member by member: struct padding is not part of the entry. */
static bool mpt_same(const struct arbel_mpt *x, const struct arbel_mpt *y)
{
	return x->status == y->status && x->pa == y->pa && x->lr == y->lr &&
	       x->lw == y->lw && x->rr == y->rr && x->rw == y->rw &&
	       x->a == y->a && x->eb == y->eb &&
	       x->page_size == y->page_size && x->ei == y->ei &&
	       x->zb == y->zb && x->fre == y->fre && x->rae == y->rae &&
	       x->mem_key == y->mem_key && x->pd == y->pd &&
	       x->start == y->start && x->length == y->length &&
	       x->mtt_addr == y->mtt_addr && x->mtt_sz == y->mtt_sz;
}

static void set_member_bit(struct arbel_mpt *mpt, const struct seed_field *f,
			   int bit)
{
	u8 *p = (u8 *)mpt + f->offset;
	u64 v = 0;

	memcpy(&v, p, f->size);		/* little-endian host: low bytes */
	v |= 1ULL << (f->member_shift + bit);
	memcpy(p, &v, f->size);
}

/*
 * The test's decoder: every bit of every seed field that is set in @img
 * sets that field's member bit; reserved and window bits are ignored.
 */
static void seed_decode(const __be32 img[DWORDS], struct arbel_mpt *mpt)
{
	const struct seed_field *f;
	int bit;

	memset(mpt, 0, sizeof(*mpt));
	for (f = seed_fields; f < seed_fields + ARRAY_SIZE(seed_fields); f++)
		for (bit = 0; bit < f->width; bit++)
			if (be32_to_cpu(img[f->dword]) & BIT(f->lsb + bit))
				set_member_bit(mpt, f, bit);
}

static void encode_ok(struct kunit *test, const struct arbel_mpt *mpt,
		      u32 out[DWORDS])
{
	__be32 img[DWORDS];
	int i;

	KUNIT_ASSERT_EQ(test, arbel_mpt_encode(mpt, img), 0);
	for (i = 0; i < DWORDS; i++)
		out[i] = be32_to_cpu(img[i]);
}

static void field_desc(const struct seed_field *f, char *desc)
{
	strscpy(desc, f->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(seed_field, seed_fields, field_desc);

/* Each bit of the field, set alone, lands exactly where the seed says. */
static void mpt_test_field_placement(struct kunit *test)
{
	const struct seed_field *f = test->param_value;
	struct arbel_mpt base, one;
	u32 b[DWORDS], o[DWORDS];
	int bit, i;

	memset(&base, 0, sizeof(base));
	encode_ok(test, &base, b);

	for (bit = 0; bit < f->width; bit++) {
		one = base;
		set_member_bit(&one, f, bit);
		encode_ok(test, &one, o);
		for (i = 0; i < DWORDS; i++) {
			u32 want = i == f->dword ? BIT(f->lsb + bit) : 0;

			KUNIT_EXPECT_EQ_MSG(test, o[i] ^ b[i], want,
					    "%s bit %d: dword %d", f->name,
					    bit, i);
		}
	}
}

/*
 * A region is r_w = 1 (dword 0 bit 8), and the memory-window fields --
 * type (dword 1 bit 7), qpn (dword 1 bits 31:8), lkey (dword 8) and
 * win_cnt (dword 9) -- are 0, whatever the other fields hold.
 */
static void mpt_test_region_bits(struct kunit *test)
{
	struct arbel_mpt all;
	u32 o[DWORDS];

	memset(&all, 0, sizeof(all));
	encode_ok(test, &all, o);
	KUNIT_EXPECT_EQ(test, o[0], BIT(8));
	all.status = 0xf;
	all.pa = 1;
	all.lr = 1;
	all.lw = 1;
	all.rr = 1;
	all.rw = 1;
	all.a = 1;
	all.eb = 1;
	all.ei = 1;
	all.zb = 1;
	all.fre = 1;
	all.rae = 1;
	all.page_size = 19;
	all.mem_key = U32_MAX;
	all.pd = 0xffffff;
	encode_ok(test, &all, o);
	KUNIT_EXPECT_EQ(test, o[0] & BIT(8), BIT(8));
	KUNIT_EXPECT_EQ(test, o[1] & ~GENMASK(4, 0), 0);
	KUNIT_EXPECT_EQ(test, o[8], 0);
	KUNIT_EXPECT_EQ(test, o[9], 0);
}

struct golden {
	const char *name;
	struct arbel_mpt mpt;
	u32 image[DWORDS];
};

/*
 * Images computed by hand from the seed.  For each dword the comment shows
 * the sum of the field values at their bit positions.
 */
static const struct golden goldens[] = {
	{
		.name = "user MR: 1 MiB, 4 KiB pages, lw+rr+rw",
		.mpt = {
			.status = 0xf, .lr = 1, .lw = 1, .rr = 1,
			.rw = 1, .page_size = 0, .mem_key = 0x00020011,
			.pd = 0x000005, .start = 0x00007f1234567000ULL,
			.length = 0x100000, .mtt_addr = 0x0000000100000400ULL,
		},
		.image = {
			/* status F<<28 | rw 1<<13 | rr 1<<12 | lw 1<<11 |
			 * lr 1<<10 | r_w 1<<8
			 */
			0xf0003d00,
			0x00000000,
			0x00020011,	/* mem_key */
			0x00000005,	/* pd */
			0x00007f12, 0x34567000,	/* start h, l */
			0x00000000, 0x00100000,	/* length h, l */
			0, 0, 0,
			0x00000001,	/* mtt_adr_h = address bits 37:32 */
			0x00000400,	/* mtt_adr_l<<3 = address bits 31:3 */
			0, 0, 0,
		},
	},
	{
		.name = "DMA MR: physical, all of memory, lw",
		.mpt = {
			.status = 0xf, .pa = 1, .lr = 1, .lw = 1,
			.mem_key = 0x00000010, .pd = 0x000001, .start = 0,
			.length = ~0ULL,
		},
		.image = {
			0xf0000f00,	/* F<<28 | lw | lr | pa 1<<9 | r_w */
			0x00000000,
			0x00000010,
			0x00000001,
			0x00000000, 0x00000000,
			0xffffffff, 0xffffffff,
			0, 0, 0, 0, 0, 0, 0, 0,
		},
	},
	{
		.name = "zero-based MR: 2 MiB pages, lw+a, ei",
		.mpt = {
			.status = 0x0, .lr = 1, .lw = 1, .a = 1,
			.page_size = 9, .mem_key = 0xab012345,
			.pd = 0xabcdef, .ei = 1, .zb = 1, .start = 0,
			.length = 0x40000000, .mtt_addr = 0x3ffffffff8ULL,
			.mtt_sz = 512,
		},
		.image = {
			0x00004d00,	/* a 1<<14 | lw | lr | r_w */
			0x00000009,	/* page_size 9 */
			0xab012345,
			0x06abcdef,	/* zb 1<<26 | ei 1<<25 | pd */
			0x00000000, 0x00000000,
			0x00000000, 0x40000000,
			0, 0, 0,
			0x0000003f,	/* address bits 37:32 */
			0xfffffff8,	/* address bits 31:3 */
			0x00000200,	/* mtt_sz 512 */
			0, 0,
		},
	},
};

static void golden_desc(const struct golden *g, char *desc)
{
	strscpy(desc, g->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(golden, goldens, golden_desc);

static void mpt_test_golden_encode(struct kunit *test)
{
	const struct golden *g = test->param_value;
	u32 o[DWORDS];
	int i;

	encode_ok(test, &g->mpt, o);
	for (i = 0; i < DWORDS; i++)
		KUNIT_EXPECT_EQ_MSG(test, o[i], g->image[i], "dword %d", i);
}

static void mpt_test_golden_decode(struct kunit *test)
{
	const struct golden *g = test->param_value;
	struct arbel_mpt got;
	__be32 img[DWORDS];
	int i;

	for (i = 0; i < DWORDS; i++)
		img[i] = cpu_to_be32(g->image[i]);
	seed_decode(img, &got);
	KUNIT_EXPECT_TRUE(test, mpt_same(&got, &g->mpt));
}

/* The image is big-endian in memory: byte 0 holds status and dword 0's top. */
static void mpt_test_byte_order(struct kunit *test)
{
	const struct golden *g = &goldens[0];
	__be32 img[DWORDS];
	const u8 *bytes = (const u8 *)img;

	KUNIT_ASSERT_EQ(test, arbel_mpt_encode(&g->mpt, img), 0);
	KUNIT_EXPECT_EQ(test, bytes[0], 0xf0);	/* status nibble, SW owned */
	KUNIT_EXPECT_EQ(test, bytes[2], 0x3d);
	KUNIT_EXPECT_EQ(test, bytes[3], 0x00);
	KUNIT_EXPECT_EQ(test, bytes[8 + 1], 0x02);	/* mem_key 0x00020011 */
	KUNIT_EXPECT_EQ(test, bytes[8 + 3], 0x11);
	KUNIT_EXPECT_EQ(test, bytes[16], 0x00);		/* start 0x00007f12.. */
	KUNIT_EXPECT_EQ(test, bytes[17], 0x00);
	KUNIT_EXPECT_EQ(test, bytes[18], 0x7f);
	KUNIT_EXPECT_EQ(test, bytes[19], 0x12);
}

static u64 rnd_bits(struct rnd_state *st, int width)
{
	u64 v = (u64)prandom_u32_state(st) << 32 | prandom_u32_state(st);

	return width >= 64 ? v : v & ((1ULL << width) - 1);
}

static void random_entry(struct rnd_state *st, struct arbel_mpt *m)
{
	memset(m, 0, sizeof(*m));
	m->status = rnd_bits(st, 4);
	m->lr = rnd_bits(st, 1);
	m->lw = rnd_bits(st, 1);
	m->rr = rnd_bits(st, 1);
	m->rw = rnd_bits(st, 1);
	m->a = rnd_bits(st, 1);
	m->page_size = rnd_bits(st, 8) % 20;
	m->mem_key = rnd_bits(st, 32);
	m->pd = rnd_bits(st, 24);
	m->ei = rnd_bits(st, 1);
	m->zb = rnd_bits(st, 1);
	m->start = rnd_bits(st, 64);
	m->length = rnd_bits(st, 64);
	m->mtt_addr = rnd_bits(st, 38) & ~7ULL;
	m->mtt_sz = rnd_bits(st, 32);
	m->pa = rnd_bits(st, 1);
	m->eb = rnd_bits(st, 1);
	m->fre = rnd_bits(st, 1);
	m->rae = rnd_bits(st, 1);
}

#define ROUNDS 2000

static void mpt_test_round_trip(struct kunit *test)
{
	struct arbel_mpt in, out;
	struct rnd_state st;
	__be32 img[DWORDS];
	int n, i;

	prandom_seed_state(&st, 0x4152424c);
	for (n = 0; n < ROUNDS; n++) {
		random_entry(&st, &in);
		KUNIT_ASSERT_EQ(test, arbel_mpt_encode(&in, img), 0);
		for (i = 0; i < DWORDS; i++)
			KUNIT_ASSERT_EQ_MSG(test,
					    be32_to_cpu(img[i]) & seed_reserved[i],
					    0, "round %d dword %d", n, i);
		seed_decode(img, &out);
		KUNIT_ASSERT_TRUE_MSG(test, mpt_same(&in, &out),
				      "round %d", n);
	}
}

/* Reserved bits of an image do not leak into the decoded entry. */
static void mpt_test_decode_ignores_reserved(struct kunit *test)
{
	const struct golden *g = &goldens[2];
	struct arbel_mpt got;
	__be32 img[DWORDS];
	u32 re[DWORDS];
	int i;

	for (i = 0; i < DWORDS; i++)
		img[i] = cpu_to_be32(g->image[i] | seed_reserved[i]);
	seed_decode(img, &got);
	KUNIT_EXPECT_TRUE(test, mpt_same(&got, &g->mpt));

	/* ...and re-encoding clears them again. */
	encode_ok(test, &got, re);
	for (i = 0; i < DWORDS; i++)
		KUNIT_EXPECT_EQ(test, re[i], g->image[i]);
}

struct refusal {
	const char *name;
	struct arbel_mpt mpt;
};

static const struct refusal refusals[] = {
	{ "status above 0xf",		{ .status = 0x10 } },
	{ "flag value 2",		{ .lw = 2 } },
	{ "page_size 20",		{ .page_size = 20 } },
	{ "page_size 31",		{ .page_size = 31 } },
	{ "pd 2^24",			{ .pd = 0x1000000 } },
	{ "mtt_addr not 8-aligned",	{ .mtt_addr = 0x1004 } },
	{ "mtt_addr beyond 38 bits",	{ .mtt_addr = 1ULL << 38 } },
	{ "mtt_addr bit 63",		{ .mtt_addr = 1ULL << 63 } },
	{ "mtt_addr bit 0",		{ .mtt_addr = 0x2001 } },
};

static void refusal_desc(const struct refusal *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(refusal, refusals, refusal_desc);

static void mpt_test_refusal(struct kunit *test)
{
	const struct refusal *r = test->param_value;
	__be32 img[DWORDS];
	int i;

	for (i = 0; i < DWORDS; i++)
		img[i] = cpu_to_be32(0xa5a5a5a5);
	KUNIT_EXPECT_EQ(test, arbel_mpt_validate(&r->mpt), -EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_mpt_encode(&r->mpt, img), -EINVAL);
	for (i = 0; i < DWORDS; i++)	/* untouched on error */
		KUNIT_EXPECT_EQ(test, be32_to_cpu(img[i]), 0xa5a5a5a5);
}

/* The limits themselves are accepted. */
static void mpt_test_limits_accepted(struct kunit *test)
{
	struct arbel_mpt m = {
		.status = 0xf, .page_size = 19, .pd = 0xffffff,
		.mtt_addr = (1ULL << 38) - 8,
	};

	KUNIT_EXPECT_EQ(test, arbel_mpt_validate(&m), 0);
}

static struct kunit_case mpt_encoding_cases[] = {
	KUNIT_CASE_PARAM(mpt_test_field_placement, seed_field_gen_params),
	KUNIT_CASE(mpt_test_region_bits),
	KUNIT_CASE_PARAM(mpt_test_golden_encode, golden_gen_params),
	KUNIT_CASE_PARAM(mpt_test_golden_decode, golden_gen_params),
	KUNIT_CASE(mpt_test_byte_order),
	KUNIT_CASE(mpt_test_round_trip),
	KUNIT_CASE(mpt_test_decode_ignores_reserved),
	KUNIT_CASE_PARAM(mpt_test_refusal, refusal_gen_params),
	KUNIT_CASE(mpt_test_limits_accepted),
	{}
};

static struct kunit_suite arbel_mpt_suite = {
	.name = "arbel_mpt",
	.test_cases = mpt_encoding_cases,
};

/* ---- access flags ---------------------------------------------------- */

struct access_case {
	const char *name;
	int flags;
	int err;
	u8 lr, lw, rr, rw, a, eb, zb;
};

static const struct access_case access_cases[] = {
	{ "none: local read only", 0, 0, 1, 0, 0, 0, 0, 0, 0 },
	{ "local write", IB_ACCESS_LOCAL_WRITE, 0, 1, 1, 0, 0, 0, 0, 0 },
	{ "remote read", IB_ACCESS_REMOTE_READ, 0, 1, 0, 1, 0, 0, 0, 0 },
	{ "remote write", IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	  0, 1, 1, 0, 1, 0, 0, 0 },
	{ "atomic", IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_ATOMIC,
	  0, 1, 1, 0, 0, 1, 0, 0 },
	{ "mw bind", IB_ACCESS_MW_BIND, 0, 1, 0, 0, 0, 0, 1, 0 },
	{ "zero based", IB_ZERO_BASED, 0, 1, 0, 0, 0, 0, 0, 1 },
	{ "everything", IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
	  IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC |
	  IB_ACCESS_MW_BIND, 0, 1, 1, 1, 1, 1, 1, 0 },
	{ "hugetlb hint ignored", IB_ACCESS_HUGETLB, 0, 1, 0, 0, 0, 0, 0, 0 },
	{ "relaxed ordering ignored", IB_ACCESS_RELAXED_ORDERING,
	  0, 1, 0, 0, 0, 0, 0, 0 },
	{ "remote write without local write", IB_ACCESS_REMOTE_WRITE,
	  -EINVAL },
	{ "atomic without local write", IB_ACCESS_REMOTE_ATOMIC, -EINVAL },
	{ "on demand paging", IB_ACCESS_ON_DEMAND, -EOPNOTSUPP },
	{ "odp with local write", IB_ACCESS_ON_DEMAND | IB_ACCESS_LOCAL_WRITE,
	  -EOPNOTSUPP },
	{ "unknown flag bit 8", 1 << 8, -EINVAL },
};

static void access_desc(const struct access_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(access, access_cases, access_desc);

static void access_test_map(struct kunit *test)
{
	const struct access_case *c = test->param_value;
	struct arbel_mpt m, before;

	memset(&m, 0x77, sizeof(m));
	before = m;
	KUNIT_ASSERT_EQ(test, arbel_mpt_set_access(&m, c->flags), c->err);
	if (c->err) {
		KUNIT_EXPECT_TRUE(test, mpt_same(&m, &before));
		return;
	}
	KUNIT_EXPECT_EQ(test, m.lr, c->lr);
	KUNIT_EXPECT_EQ(test, m.lw, c->lw);
	KUNIT_EXPECT_EQ(test, m.rr, c->rr);
	KUNIT_EXPECT_EQ(test, m.rw, c->rw);
	KUNIT_EXPECT_EQ(test, m.a, c->a);
	KUNIT_EXPECT_EQ(test, m.eb, c->eb);
	KUNIT_EXPECT_EQ(test, m.zb, c->zb);
	/* other fields untouched */
	KUNIT_EXPECT_EQ(test, m.pd, before.pd);
	KUNIT_EXPECT_EQ(test, m.status, before.status);
}

static struct kunit_case access_kcases[] = {
	KUNIT_CASE_PARAM(access_test_map, access_gen_params),
	{}
};

static struct kunit_suite arbel_access_suite = {
	.name = "arbel_access",
	.test_cases = access_kcases,
};

kunit_test_suites(&arbel_mpt_suite, &arbel_access_suite);

MODULE_DESCRIPTION("KUnit tests for the Arbel MPT layer");
MODULE_LICENSE("GPL");
