// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the WQE segment encoders, the CQE decoder and the
 * doorbell encoders of kernel queues (wqe.c).
 *
 * Golden values are written by hand from the PRM (iPXE's MT25218 header):
 * arbelprm_wqe_segment_next_st, _ctrl_send_st, _ctrl_mlx_st,
 * _remote_address_st, _atomic_st, _ud_st, arbelprm_ud_address_vector_st,
 * _data_ptr_st, _data_inline_st, arbelprm_recv_wqe_segment_next_st,
 * arbelprm_completion_queue_entry_st, arbelprm_completion_with_error_st,
 * arbelprm_send_doorbell_st, arbelprm_cq_cmd_doorbell_st and the doorbell
 * records (fields LSB-first in big-endian dwords; the sums are in the
 * comments).  Receive CQE opcodes are IBTA BTH opcodes.  Where a value is
 * mthca's rather than the PRM's, the comment says so.  Nothing here is
 * produced by the code under test.
 */

#include <kunit/test.h>
#include <linux/string.h>

#include <arbel/wqe.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct dw {
	u16 off;
	u32 val;
};

/* the big-endian dwords listed, into @buf */
static void put_dws(u8 *buf, const struct dw *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		buf[d[i].off] = d[i].val >> 24;
		buf[d[i].off + 1] = d[i].val >> 16;
		buf[d[i].off + 2] = d[i].val >> 8;
		buf[d[i].off + 3] = d[i].val;
	}
}

/* an image of @len bytes: zero but the dwords listed */
static void image(u8 *buf, size_t len, const struct dw *d, size_t n)
{
	memset(buf, 0, len);
	put_dws(buf, d, n);
}

/* 6.1 has no KUNIT_EXPECT_MEMEQ: the first byte that differs, by offset */
static void expect_bytes(struct kunit *test, const u8 *got, const u8 *exp,
			 size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (got[i] != exp[i]) {
			KUNIT_FAIL(test, "byte 0x%zx: 0x%02x, want 0x%02x", i,
				   got[i], exp[i]);
			return;
		}
	}
}

/* @len bytes of @got against the image of the dwords listed */
static void expect_image(struct kunit *test, const u8 *got, size_t len,
			 const struct dw *d, size_t n)
{
	u8 exp[64];

	KUNIT_ASSERT_LE(test, len, sizeof(exp));
	image(exp, len, d, n);
	expect_bytes(test, got, exp, len);
}

static void seg_raddr(struct kunit *test)
{
	static const struct dw want[] = {
		{ 0x00, 0x01234567 },	/* remote_virt_addr_h */
		{ 0x04, 0x89abcdef },	/* remote_virt_addr_l */
		{ 0x08, 0x00c0ffee },	/* rkey */
		/* 0x0c reserved: 0 */
	};
	u8 got[16];

	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_raddr(got, 0x0123456789abcdefULL,
						  0x00c0ffee), 16);
	expect_image(test, got, sizeof(got), want, ARRAY_SIZE(want));
}

static void seg_atomic(struct kunit *test)
{
	static const struct dw want[] = {
		{ 0x00, 0x11223344 },	/* swap_add_h */
		{ 0x04, 0x55667788 },	/* swap_add_l */
		{ 0x08, 0x99aabbcc },	/* compare_h */
		{ 0x0c, 0xddeeff00 },	/* compare_l */
	};
	static const struct dw want_fa[] = {
		{ 0x04, 0x00000001 },	/* add 1, compare 0 */
	};
	u8 got[16];

	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_atomic(got, 0x1122334455667788ULL,
						   0x99aabbccddeeff00ULL), 16);
	expect_image(test, got, sizeof(got), want, ARRAY_SIZE(want));

	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_atomic(got, 1, 0), 16);
	expect_image(test, got, sizeof(got), want_fa, ARRAY_SIZE(want_fa));
}

static void seg_data(struct kunit *test)
{
	static const struct dw want[] = {
		{ 0x00, 0x00000200 },	/* byte_count 512, always0 (31) clear */
		{ 0x04, 0x00001500 },	/* l_key */
		{ 0x08, 0x00000001 },	/* local_address_h */
		{ 0x0c, 0x23456780 },	/* local_address_l */
	};
	static const struct dw want_masked[] = {
		/* 0x80000040: bit 31 is always0, only byte_count 0x40 stays */
		{ 0x00, 0x00000040 },
		{ 0x04, 0x00000100 },	/* the invalid lkey ending a list */
		{ 0x08, 0xffffffff },
		{ 0x0c, 0xfffffff0 },
	};
	static const struct dw want_max[] = {
		{ 0x00, 0x7fffffff },	/* byte_count is 31 bits wide */
		{ 0x04, 0xffffffff },
	};
	u8 got[16];

	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_data(got, 0x200, 0x1500,
						 0x123456780ULL), 16);
	expect_image(test, got, sizeof(got), want, ARRAY_SIZE(want));

	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_data(got, 0x80000040, 0x100,
						 0xfffffffffffffff0ULL), 16);
	expect_image(test, got, sizeof(got), want_masked,
		     ARRAY_SIZE(want_masked));

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_set_data(got, 0x7fffffff, 0xffffffff, 0);
	expect_image(test, got, sizeof(got), want_max, ARRAY_SIZE(want_max));
}

static void seg_inline(struct kunit *test)
{
	u8 got[4];
	/* always1 at bit 31, byte_count at 9:0 */
	static const struct dw want12[] = { { 0x00, 0x8000000c } };
	static const struct dw want13[] = { { 0x00, 0x8000000d } };
	static const struct dw want28[] = { { 0x00, 0x8000001c } };
	static const struct dw want0[] = { { 0x00, 0x80000000 } };
	static const struct dw want1023[] = { { 0x00, 0x800003ff } };

	/* 4 + 12 = 16: one chunk */
	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_inline_hdr(got, 12), 16);
	expect_image(test, got, sizeof(got), want12, ARRAY_SIZE(want12));

	/* 4 + 13 = 17: two chunks */
	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_inline_hdr(got, 13), 32);
	expect_image(test, got, sizeof(got), want13, ARRAY_SIZE(want13));

	/* 4 + 28 = 32: exactly two */
	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_inline_hdr(got, 28), 32);
	expect_image(test, got, sizeof(got), want28, ARRAY_SIZE(want28));

	/* no data: the header alone, padded */
	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_inline_hdr(got, 0), 16);
	expect_image(test, got, sizeof(got), want0, ARRAY_SIZE(want0));

	/* the field's largest, 1023: 4 + 1023 = 1027 -> 65 chunks, 1040 */
	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_inline_hdr(got, 1023), 1040);
	expect_image(test, got, sizeof(got), want1023, ARRAY_SIZE(want1023));
}

/* an AV with a GRH, and its 32 bytes */
static const struct arbel_av av_grh = {
	.port = 2, .pd = 0x15, .dlid = 0x1234, .path_bits = 0x45,
	.grh = true, .mgid_index = 0x21, .hop_limit = 0x40, .tclass = 0xa5,
	.flow_label = 0x12345, .sl = 0xb, .stat_rate = 1,
	.dgid = { 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x02, 0xc9, 0x03, 0x00, 0x01, 0x23, 0x45 },
};

static const struct dw av_grh_dws[] = {
	/* port 2 at 25:24 0x02000000 + pd 0x15 */
	{ 0x00, 0x02000015 },
	/* g (23) 0x00800000 + path bits 0x45 at 22:16 0x00450000 + rlid */
	{ 0x04, 0x00c51234 },
	/*
	 * mgid_index 0x21 at 21:16 0x00210000 + msg 3 at 13:12 0x3000
	 * (2048-byte messages: mthca's value, not the PRM's) + max_stat_rate
	 * 1 at 10:8 0x100 + hop_limit 0x40
	 */
	{ 0x08, 0x00213140 },
	/* sl 0xb at 31:28 0xb0000000 + tclass 0xa5 at 27:20 0x0a500000 + fl */
	{ 0x0c, 0xba512345 },
	{ 0x10, 0xfe800000 },	/* rgid_127_96 */
	{ 0x14, 0x00000000 },	/* rgid_95_64 */
	{ 0x18, 0x0002c903 },	/* rgid_63_32 */
	{ 0x1c, 0x00012345 },	/* rgid_31_0 */
};

/* an AV without one: a dgid that must not show */
static const struct arbel_av av_lid = {
	.port = 1, .pd = 0x15, .dlid = 0x0001, .sl = 3,
	.dgid = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
};

static const struct dw av_lid_dws[] = {
	{ 0x00, 0x01000015 },	/* port 1 at 25:24 + pd 0x15 */
	{ 0x04, 0x00000001 },	/* g clear, rlid 1 */
	{ 0x08, 0x00003000 },	/* msg 3 at 13:12 (mthca's 2048 bytes) */
	{ 0x0c, 0x30000000 },	/* sl 3 at 31:28 */
	/* rgid 0 but rgid_31_0, which the PRM wants 2 without a GRH */
	{ 0x1c, 0x00000002 },
};

static void av_encode(struct kunit *test)
{
	u8 got[32];

	memset(got, 0xa5, sizeof(got));
	arbel_av_encode(&av_grh, got);
	expect_image(test, got, sizeof(got), av_grh_dws,
		     ARRAY_SIZE(av_grh_dws));

	memset(got, 0xa5, sizeof(got));
	arbel_av_encode(&av_lid, got);
	expect_image(test, got, sizeof(got), av_lid_dws,
		     ARRAY_SIZE(av_lid_dws));
}

static void seg_ud(struct kunit *test)
{
	static const struct dw tail_grh[] = {
		{ 0x20, 0x00000001 },	/* destination_qp 1 at 23:0 */
		{ 0x24, 0x80010000 },	/* q_key */
		/* 0x28, 0x2c reserved: 0 */
	};
	static const struct dw tail_lid[] = {
		{ 0x20, 0x00123456 },	/* destination_qp */
		{ 0x24, 0x11111111 },	/* q_key */
	};
	u8 got[48], exp[48];

	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_ud(got, &av_grh, 1, 0x80010000),
			48);
	image(exp, sizeof(exp), av_grh_dws, ARRAY_SIZE(av_grh_dws));
	put_dws(exp, tail_grh, ARRAY_SIZE(tail_grh));
	expect_bytes(test, got, exp, sizeof(exp));

	memset(got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, arbel_wqe_set_ud(got, &av_lid, 0x123456,
					       0x11111111), 48);
	image(exp, sizeof(exp), av_lid_dws, ARRAY_SIZE(av_lid_dws));
	put_dws(exp, tail_lid, ARRAY_SIZE(tail_lid));
	expect_bytes(test, got, exp, sizeof(exp));
}

static void wqe_ctrl(struct kunit *test)
{
	/* always1 (0) is the PRM's: ctrl_send's bit 0 must be set */
	static const struct dw want_c[] = {
		{ 0x00, 0xa5a5a5a5 },	/* next: not the control's */
		{ 0x04, 0xa5a5a5a5 },
		{ 0x08, 0x00000009 },	/* always1 1 + c (3) 8 */
	};
	static const struct dw want_s_imm[] = {
		{ 0x00, 0xa5a5a5a5 },	/* next: not the control's */
		{ 0x04, 0xa5a5a5a5 },
		{ 0x08, 0x00000003 },	/* always1 1 + s (1) 2 */
		{ 0x0c, 0x12345678 },	/* immediate, as given */
	};
	static const struct dw want_cs[] = {
		{ 0x00, 0xa5a5a5a5 },	/* next: not the control's */
		{ 0x04, 0xa5a5a5a5 },
		{ 0x08, 0x0000000b },	/* 1 + s 2 + c 8 */
		{ 0x0c, 0xdeadbeef },
	};
	static const struct dw want_none[] = {
		{ 0x00, 0xa5a5a5a5 },	/* next: not the control's */
		{ 0x04, 0xa5a5a5a5 },
		{ 0x08, 0x00000001 },	/* always1 alone */
	};
	u8 got[16];

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_set_ctrl(got, true, false, 0);
	expect_image(test, got, sizeof(got), want_c, ARRAY_SIZE(want_c));

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_set_ctrl(got, false, true, cpu_to_be32(0x12345678));
	expect_image(test, got, sizeof(got), want_s_imm,
		     ARRAY_SIZE(want_s_imm));

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_set_ctrl(got, true, true, cpu_to_be32(0xdeadbeef));
	expect_image(test, got, sizeof(got), want_cs, ARRAY_SIZE(want_cs));

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_set_ctrl(got, false, false, 0);
	expect_image(test, got, sizeof(got), want_none, ARRAY_SIZE(want_none));
}

static void wqe_mlx(struct kunit *test)
{
	/*
	 * Bit 0 is reserved in the PRM's ctrl_mlx; mthca sets it as in
	 * ctrl_send, and so do these.
	 */
	static const struct dw want_smp[] = {
		{ 0x00, 0xa5a5a5a5 },	/* next: not the control's */
		{ 0x04, 0xa5a5a5a5 },
		/* 1 + c (3) 8 + slr (16) 0x10000 + v15 (17) 0x20000 */
		{ 0x08, 0x00030009 },
		{ 0x0c, 0xffff0000 },	/* rlid 0xffff at 31:16, vcrc 0 */
	};
	static const struct dw want_gmp[] = {
		{ 0x00, 0xa5a5a5a5 },	/* next: not the control's */
		{ 0x04, 0xa5a5a5a5 },
		{ 0x08, 0x00000a01 },	/* 1 + sl 0xa at 11:8 0xa00 */
		{ 0x0c, 0x00120000 },	/* rlid 0x12, vcrc 0: the HCA's */
	};
	static const struct dw want_sl[] = {
		{ 0x00, 0xa5a5a5a5 },	/* next: not the control's */
		{ 0x04, 0xa5a5a5a5 },
		{ 0x08, 0x00000f09 },	/* 1 + c 8 + sl 0xf 0xf00 */
		{ 0x0c, 0xbfff0000 },
	};
	u8 got[16];

	/* QP0 to a permissive DLID: over VL15, SLID from the headers */
	memset(got, 0xa5, sizeof(got));
	arbel_wqe_set_mlx(got, true, 0, true, true, 0xffff);
	expect_image(test, got, sizeof(got), want_smp, ARRAY_SIZE(want_smp));

	/* QP1, unsignaled */
	memset(got, 0xa5, sizeof(got));
	arbel_wqe_set_mlx(got, false, 0xa, false, false, 0x0012);
	expect_image(test, got, sizeof(got), want_gmp, ARRAY_SIZE(want_gmp));

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_set_mlx(got, true, 0xf, false, false, 0xbfff);
	expect_image(test, got, sizeof(got), want_sl, ARRAY_SIZE(want_sl));
}

static void wqe_link(struct kunit *test)
{
	static const struct dw want_send[] = {
		/* nda 0x12345678 & ~0x3f = 0x12345640 + nopcode SEND 0x0a */
		{ 0x00, 0x1234564a },
		{ 0x04, 0x00000084 },	/* always1 (7) 0x80 + nds 4 */
		{ 0x08, 0xa5a5a5a5 },	/* control: not the link's */
		{ 0x0c, 0xa5a5a5a5 },
	};
	static const struct dw want_read[] = {
		/* nda 0x1040 + nopcode RDMA-read 0x10 */
		{ 0x00, 0x00001050 },
		/* always1 0x80 + f (6) 0x40 + nds 0x3f */
		{ 0x04, 0x000000ff },
		{ 0x08, 0xa5a5a5a5 },	/* control: not the link's */
		{ 0x0c, 0xa5a5a5a5 },
	};
	static const struct dw want_write_imm[] = {
		/* nda 0xffffffc0 + RDMA-write with immediate 0x09 */
		{ 0x00, 0xffffffc9 },
		{ 0x04, 0x00000083 },	/* always1 0x80 + nds 3 */
		{ 0x08, 0xa5a5a5a5 },	/* control: not the link's */
		{ 0x0c, 0xa5a5a5a5 },
	};
	u8 got[16];

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_link(got, 0x12345678, 0x0a, 4, false);
	expect_image(test, got, sizeof(got), want_send, ARRAY_SIZE(want_send));

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_link(got, 0x1040, 0x10, 0x3f, true);
	expect_image(test, got, sizeof(got), want_read, ARRAY_SIZE(want_read));

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_link(got, 0xffffffff, 0x09, 3, false);
	expect_image(test, got, sizeof(got), want_write_imm,
		     ARRAY_SIZE(want_write_imm));
}

static void wqe_link_recv(struct kunit *test)
{
	static const struct dw want[] = {
		{ 0x00, 0x0000abc0 },	/* nda 0xabc7 & ~0x3f, reserved 5:0 */
		{ 0x04, 0x00000003 },	/* nds 3; no f, no always1 here */
		/* 0x08, 0x0c reserved: 0 */
	};
	static const struct dw want_wrap[] = {
		{ 0x04, 0x00000004 },	/* nda 0: the ring's start */
	};
	u8 got[16];

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_link_recv(got, 0xabc7, 3);
	expect_image(test, got, sizeof(got), want, ARRAY_SIZE(want));

	memset(got, 0xa5, sizeof(got));
	arbel_wqe_link_recv(got, 0, 4);
	expect_image(test, got, sizeof(got), want_wrap, ARRAY_SIZE(want_wrap));
}

static void wqe_opcodes(struct kunit *test)
{
	/* the PRM's nopcode encodings (RC, UC, RD; UD's usual SEND) */
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_RDMA_WRITE), 0x08);
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_RDMA_WRITE_WITH_IMM),
			0x09);
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_SEND), 0x0a);
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_SEND_WITH_IMM), 0x0b);
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_RDMA_READ), 0x10);
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_ATOMIC_CMP_AND_SWP),
			0x11);
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_ATOMIC_FETCH_AND_ADD),
			0x12);
	/* nothing in the PRM for these */
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_LOCAL_INV), -EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_SEND_WITH_INV), -EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_REG_MR), -EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_wqe_opcode(IB_WR_LSO), -EINVAL);
}

static void cqe_owner(struct kunit *test)
{
	/* a send CQE (opcode 0x0a at 31:24, s at 23), software's */
	static const struct dw sw[] = {
		{ 0x00, 0x00000048 },
		{ 0x1c, 0x0a800000 },
	};
	/* the same, the HCA's: owner is bit 7 */
	static const struct dw hw[] = {
		{ 0x00, 0x00000048 },
		{ 0x1c, 0x0a800080 },
	};
	/* an opcode with bit 31 set is not the owner bit */
	static const struct dw err[] = {
		{ 0x1c, 0xff000000 },
	};
	u8 cqe[32], exp[32];

	image(cqe, sizeof(cqe), sw, ARRAY_SIZE(sw));
	KUNIT_EXPECT_FALSE(test, arbel_cqe_hw_owned(cqe));
	arbel_cqe_give(cqe);
	KUNIT_EXPECT_TRUE(test, arbel_cqe_hw_owned(cqe));
	/* nothing but the owner bit changes */
	image(exp, sizeof(exp), hw, ARRAY_SIZE(hw));
	expect_bytes(test, cqe, exp, sizeof(exp));

	/* given twice: still only that bit */
	arbel_cqe_give(cqe);
	expect_bytes(test, cqe, exp, sizeof(exp));

	image(cqe, sizeof(cqe), err, ARRAY_SIZE(err));
	KUNIT_EXPECT_FALSE(test, arbel_cqe_hw_owned(cqe));

	memset(cqe, 0, sizeof(cqe));
	cqe[0x1f] = 0x80;
	KUNIT_EXPECT_TRUE(test, arbel_cqe_hw_owned(cqe));
}

static void cqe_decode_send(struct kunit *test)
{
	static const struct dw cqe_dws[] = {
		{ 0x00, 0x00000048 },	/* my_qpn, ver 0 */
		{ 0x04, 0x00abcdef },	/* timestamp */
		{ 0x10, 0x00000003 },	/* EE credits (RC send) */
		/* wqe_adr 0x12340 + reserved 5:0 the decoder must drop */
		{ 0x18, 0x0001235a },
		/* opcode SEND with immediate 0x0b at 31:24 + s (23) 0x800000 */
		{ 0x1c, 0x0b800000 },
	};
	struct arbel_cqe_info ci;
	enum ib_wc_opcode op;
	int flags;
	u8 cqe[32];

	image(cqe, sizeof(cqe), cqe_dws, ARRAY_SIZE(cqe_dws));
	memset(&ci, 0xa5, sizeof(ci));
	arbel_cqe_decode(cqe, &ci);
	KUNIT_EXPECT_EQ(test, ci.qpn, 0x48u);
	KUNIT_EXPECT_TRUE(test, ci.is_send);
	KUNIT_EXPECT_FALSE(test, ci.error);
	KUNIT_EXPECT_EQ(test, ci.opcode, 0x0b);
	KUNIT_EXPECT_EQ(test, ci.wqe_addr, 0x12340u);

	KUNIT_EXPECT_EQ(test, arbel_cqe_wc_opcode(&ci, &op, &flags), 0);
	KUNIT_EXPECT_EQ(test, op, IB_WC_SEND);
	KUNIT_EXPECT_EQ(test, flags, IB_WC_WITH_IMM);
}

static void cqe_decode_ud_recv(struct kunit *test)
{
	static const struct dw grh_imm[] = {
		{ 0x00, 0x00000049 },	/* my_qpn */
		/* checksum_7_0 0xa5 at 31:24 + rqpn 0x123456 */
		{ 0x08, 0xa5123456 },
		/*
		 * sl 5 at 31:28 0x50000000 + ipok (24) 0x01000000 + g (23)
		 * 0x00800000 + ml_path 3 at 22:16 0x00030000 + rlid 0x42
		 */
		{ 0x0c, 0x51830042 },
		{ 0x10, 0xdeadbeef },	/* immediate */
		{ 0x14, 0x00000068 },	/* byte_cnt: 40 GRH + 64 */
		{ 0x18, 0x00002000 },	/* wqe_adr */
		/* UD SEND_ONLY_WITH_IMMEDIATE 0x65 at 31:24, s clear */
		{ 0x1c, 0x65000000 },
	};
	static const struct dw lid[] = {
		{ 0x00, 0x0000004a },	/* my_qpn */
		{ 0x08, 0x00ffffff },	/* rqpn 0xffffff */
		/* sl 0xf 0xf0000000 + ml_path 0x7f 0x007f0000 + rlid 0xbfff */
		{ 0x0c, 0xf07fbfff },
		{ 0x14, 0x00000100 },	/* byte_cnt 256 */
		{ 0x18, 0xffffffc0 },	/* wqe_adr */
		{ 0x1c, 0x64000000 },	/* UD SEND_ONLY 0x64 */
	};
	/* QP1's: always SEND with immediate, P_Key index at 31:16 */
	static const struct dw gsi[] = {
		{ 0x00, 0x00000001 },	/* my_qpn */
		{ 0x08, 0x00000001 },	/* rqpn */
		{ 0x0c, 0x00000007 },	/* rlid 7 */
		{ 0x10, 0x007f0000 },	/* P_Key index 0x7f */
		{ 0x14, 0x00000100 },
		{ 0x1c, 0x65000000 },	/* UD SEND_ONLY_WITH_IMMEDIATE */
	};
	struct arbel_cqe_info ci;
	enum ib_wc_opcode op;
	int flags;
	u8 cqe[32];

	image(cqe, sizeof(cqe), grh_imm, ARRAY_SIZE(grh_imm));
	memset(&ci, 0xa5, sizeof(ci));
	arbel_cqe_decode(cqe, &ci);
	KUNIT_EXPECT_EQ(test, ci.qpn, 0x49u);
	KUNIT_EXPECT_FALSE(test, ci.is_send);
	KUNIT_EXPECT_FALSE(test, ci.error);
	KUNIT_EXPECT_EQ(test, ci.opcode, 0x65);
	KUNIT_EXPECT_EQ(test, ci.rqpn, 0x123456u);
	KUNIT_EXPECT_EQ(test, ci.rlid, 0x42);
	KUNIT_EXPECT_EQ(test, ci.sl, 5);
	KUNIT_EXPECT_TRUE(test, ci.grh);
	KUNIT_EXPECT_EQ(test, ci.path_bits, 3);
	KUNIT_EXPECT_EQ(test, ci.imm, 0xdeadbeefu);
	KUNIT_EXPECT_EQ(test, ci.byte_cnt, 0x68u);
	KUNIT_EXPECT_EQ(test, ci.wqe_addr, 0x2000u);
	KUNIT_EXPECT_EQ(test, arbel_cqe_wc_opcode(&ci, &op, &flags), 0);
	KUNIT_EXPECT_EQ(test, op, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, flags, IB_WC_WITH_IMM);

	image(cqe, sizeof(cqe), lid, ARRAY_SIZE(lid));
	memset(&ci, 0xa5, sizeof(ci));
	arbel_cqe_decode(cqe, &ci);
	KUNIT_EXPECT_EQ(test, ci.qpn, 0x4au);
	KUNIT_EXPECT_FALSE(test, ci.is_send);
	KUNIT_EXPECT_FALSE(test, ci.error);
	KUNIT_EXPECT_EQ(test, ci.opcode, 0x64);
	KUNIT_EXPECT_EQ(test, ci.rqpn, 0xffffffu);
	KUNIT_EXPECT_EQ(test, ci.rlid, 0xbfff);
	KUNIT_EXPECT_EQ(test, ci.sl, 0xf);
	KUNIT_EXPECT_FALSE(test, ci.grh);
	KUNIT_EXPECT_EQ(test, ci.path_bits, 0x7f);
	KUNIT_EXPECT_EQ(test, ci.imm, 0u);
	KUNIT_EXPECT_EQ(test, ci.byte_cnt, 0x100u);
	KUNIT_EXPECT_EQ(test, ci.wqe_addr, 0xffffffc0u);
	KUNIT_EXPECT_EQ(test, arbel_cqe_wc_opcode(&ci, &op, &flags), 0);
	KUNIT_EXPECT_EQ(test, op, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, flags, 0);

	image(cqe, sizeof(cqe), gsi, ARRAY_SIZE(gsi));
	memset(&ci, 0xa5, sizeof(ci));
	arbel_cqe_decode(cqe, &ci);
	KUNIT_EXPECT_EQ(test, ci.qpn, 1u);
	KUNIT_EXPECT_FALSE(test, ci.is_send);
	KUNIT_EXPECT_FALSE(test, ci.error);
	KUNIT_EXPECT_EQ(test, ci.rqpn, 1u);
	KUNIT_EXPECT_EQ(test, ci.rlid, 7);
	KUNIT_EXPECT_EQ(test, ci.sl, 0);
	KUNIT_EXPECT_FALSE(test, ci.grh);
	KUNIT_EXPECT_EQ(test, ci.path_bits, 0);
	KUNIT_EXPECT_EQ(test, ci.imm >> 16, 0x7fu);
	KUNIT_EXPECT_EQ(test, ci.byte_cnt, 0x100u);
	KUNIT_EXPECT_EQ(test, ci.wqe_addr, 0u);
}

static void cqe_decode_err(struct kunit *test)
{
	static const struct dw send_err[] = {
		{ 0x00, 0x00000048 },	/* myqpn */
		/* syndrome 0x15 at 31:24 + vendor_code 0x81 at 23:16 */
		{ 0x10, 0x15810000 },
		{ 0x18, 0x00012380 },	/* wqe_addr */
		{ 0x1c, 0xff000000 },	/* opcode 0xff: send queue */
	};
	static const struct dw recv_err[] = {
		{ 0x00, 0x00000049 },
		/* syndrome 0x05 + vendor_code 0x32 + reserved 15:0 0x1234 */
		{ 0x10, 0x05321234 },
		{ 0x18, 0x00002040 },
		{ 0x1c, 0xfe000000 },	/* opcode 0xfe: receive queue */
	};
	struct arbel_cqe_info ci;
	u8 cqe[32];

	image(cqe, sizeof(cqe), send_err, ARRAY_SIZE(send_err));
	memset(&ci, 0xa5, sizeof(ci));
	arbel_cqe_decode(cqe, &ci);
	KUNIT_EXPECT_TRUE(test, ci.error);
	KUNIT_EXPECT_TRUE(test, ci.is_send);
	KUNIT_EXPECT_EQ(test, ci.qpn, 0x48u);
	KUNIT_EXPECT_EQ(test, ci.opcode, 0xff);
	KUNIT_EXPECT_EQ(test, ci.syndrome, 0x15);
	KUNIT_EXPECT_EQ(test, ci.vendor, 0x81);
	KUNIT_EXPECT_EQ(test, ci.wqe_addr, 0x12380u);
	KUNIT_EXPECT_EQ(test, arbel_cqe_status(ci.syndrome),
			IB_WC_RETRY_EXC_ERR);

	image(cqe, sizeof(cqe), recv_err, ARRAY_SIZE(recv_err));
	memset(&ci, 0xa5, sizeof(ci));
	arbel_cqe_decode(cqe, &ci);
	KUNIT_EXPECT_TRUE(test, ci.error);
	KUNIT_EXPECT_FALSE(test, ci.is_send);
	KUNIT_EXPECT_EQ(test, ci.qpn, 0x49u);
	KUNIT_EXPECT_EQ(test, ci.opcode, 0xfe);
	KUNIT_EXPECT_EQ(test, ci.syndrome, 0x05);
	KUNIT_EXPECT_EQ(test, ci.vendor, 0x32);
	KUNIT_EXPECT_EQ(test, ci.wqe_addr, 0x2040u);
	KUNIT_EXPECT_EQ(test, arbel_cqe_status(ci.syndrome),
			IB_WC_WR_FLUSH_ERR);
}

static void cqe_status(struct kunit *test)
{
	/* completion_with_error's syndrome table */
	static const struct {
		u8 syndrome;
		enum ib_wc_status status;
	} tbl[] = {
		{ 0x01, IB_WC_LOC_LEN_ERR },
		{ 0x02, IB_WC_LOC_QP_OP_ERR },
		{ 0x03, IB_WC_LOC_EEC_OP_ERR },
		{ 0x04, IB_WC_LOC_PROT_ERR },
		{ 0x05, IB_WC_WR_FLUSH_ERR },
		{ 0x06, IB_WC_MW_BIND_ERR },
		{ 0x10, IB_WC_BAD_RESP_ERR },
		{ 0x11, IB_WC_LOC_ACCESS_ERR },
		{ 0x12, IB_WC_REM_INV_REQ_ERR },
		{ 0x13, IB_WC_REM_ACCESS_ERR },
		{ 0x14, IB_WC_REM_OP_ERR },
		{ 0x15, IB_WC_RETRY_EXC_ERR },
		{ 0x16, IB_WC_RNR_RETRY_EXC_ERR },
		{ 0x20, IB_WC_LOC_RDD_VIOL_ERR },
		{ 0x21, IB_WC_REM_INV_RD_REQ_ERR },
		{ 0x22, IB_WC_REM_ABORT_ERR },
		{ 0x23, IB_WC_INV_EECN_ERR },
		{ 0x24, IB_WC_INV_EEC_STATE_ERR },
		/* other: reserved */
		{ 0x00, IB_WC_GENERAL_ERR },
		{ 0x07, IB_WC_GENERAL_ERR },
		{ 0x0f, IB_WC_GENERAL_ERR },
		{ 0x17, IB_WC_GENERAL_ERR },
		{ 0x25, IB_WC_GENERAL_ERR },
		{ 0x80, IB_WC_GENERAL_ERR },
		{ 0xff, IB_WC_GENERAL_ERR },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tbl); i++)
		KUNIT_EXPECT_EQ_MSG(test, arbel_cqe_status(tbl[i].syndrome),
				    tbl[i].status, "syndrome 0x%02x",
				    tbl[i].syndrome);
}

static void cqe_wc_opcode_send(struct kunit *test)
{
	/* a send CQE's opcode is its WQE's nopcode */
	static const struct {
		u8 nopcode;
		enum ib_wc_opcode op;
		int flags;
	} tbl[] = {
		{ 0x08, IB_WC_RDMA_WRITE, 0 },
		{ 0x09, IB_WC_RDMA_WRITE, IB_WC_WITH_IMM },
		{ 0x0a, IB_WC_SEND, 0 },
		{ 0x0b, IB_WC_SEND, IB_WC_WITH_IMM },
		{ 0x10, IB_WC_RDMA_READ, 0 },
		{ 0x11, IB_WC_COMP_SWAP, 0 },
		{ 0x12, IB_WC_FETCH_ADD, 0 },
		{ 0x18, IB_WC_BIND_MW, 0 },
	};
	struct arbel_cqe_info ci = { .is_send = true };
	enum ib_wc_opcode op;
	int flags;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tbl); i++) {
		ci.opcode = tbl[i].nopcode;
		flags = -1;
		KUNIT_EXPECT_EQ_MSG(test, arbel_cqe_wc_opcode(&ci, &op, &flags),
				    0, "nopcode 0x%02x", tbl[i].nopcode);
		KUNIT_EXPECT_EQ_MSG(test, op, tbl[i].op, "nopcode 0x%02x",
				    tbl[i].nopcode);
		KUNIT_EXPECT_EQ_MSG(test, flags, tbl[i].flags,
				    "nopcode 0x%02x", tbl[i].nopcode);
	}

	/* reserved nopcodes */
	ci.opcode = 0x0c;
	KUNIT_EXPECT_EQ(test, arbel_cqe_wc_opcode(&ci, &op, &flags), -EINVAL);
	ci.opcode = 0x1f;
	KUNIT_EXPECT_EQ(test, arbel_cqe_wc_opcode(&ci, &op, &flags), -EINVAL);
}

static void cqe_wc_opcode_recv(struct kunit *test)
{
	/* the last packet's BTH opcode; the transport's bits 7:5 ignored */
	static const struct {
		u8 bth;
		enum ib_wc_opcode op;
		int flags;
	} tbl[] = {
		{ 0x02, IB_WC_RECV, 0 },		/* RC SEND_LAST */
		{ 0x03, IB_WC_RECV, IB_WC_WITH_IMM },	/* SEND_LAST_W_IMM */
		{ 0x04, IB_WC_RECV, 0 },		/* RC SEND_ONLY */
		{ 0x05, IB_WC_RECV, IB_WC_WITH_IMM },	/* SEND_ONLY_W_IMM */
		/* RDMA_WRITE_LAST_WITH_IMMEDIATE, _ONLY_WITH_IMMEDIATE */
		{ 0x09, IB_WC_RECV_RDMA_WITH_IMM, IB_WC_WITH_IMM },
		{ 0x0b, IB_WC_RECV_RDMA_WITH_IMM, IB_WC_WITH_IMM },
		/* UC (0x20) */
		{ 0x24, IB_WC_RECV, 0 },
		{ 0x23, IB_WC_RECV, IB_WC_WITH_IMM },
		{ 0x2b, IB_WC_RECV_RDMA_WITH_IMM, IB_WC_WITH_IMM },
		/* UD (0x60) SEND_ONLY, SEND_ONLY_WITH_IMMEDIATE */
		{ 0x64, IB_WC_RECV, 0 },
		{ 0x65, IB_WC_RECV, IB_WC_WITH_IMM },
	};
	struct arbel_cqe_info ci = { .is_send = false };
	enum ib_wc_opcode op;
	int flags;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tbl); i++) {
		ci.opcode = tbl[i].bth;
		flags = -1;
		KUNIT_EXPECT_EQ_MSG(test, arbel_cqe_wc_opcode(&ci, &op, &flags),
				    0, "BTH opcode 0x%02x", tbl[i].bth);
		KUNIT_EXPECT_EQ_MSG(test, op, tbl[i].op, "BTH opcode 0x%02x",
				    tbl[i].bth);
		KUNIT_EXPECT_EQ_MSG(test, flags, tbl[i].flags,
				    "BTH opcode 0x%02x", tbl[i].bth);
	}
}

static void send_db(struct kunit *test)
{
	static const struct dw want[] = {
		/*
		 * wqe_cnt 3 at 31:24 0x03000000 + wqe_counter 0x1234 at 23:8
		 * 0x00123400 + f clear + nopcode SEND 0x0a
		 */
		{ 0x00, 0x0312340a },
		/* qpn 0x48 at 31:8 0x00004800 + nds 4 */
		{ 0x04, 0x00004804 },
	};
	static const struct dw want_max[] = {
		/* 0xff000000 + 0x00ffff00 + f (5) 0x20 + atomic CS 0x11 */
		{ 0x00, 0xffffff31 },
		{ 0x04, 0xffffff3f },	/* qpn 0xffffff + nds 0x3f */
	};
	__be32 db[2];

	memset(db, 0xa5, sizeof(db));
	arbel_send_db(db, 0x1234, 3, 0x0a, false, 4, 0x48);
	expect_image(test, (const u8 *)db, sizeof(db), want, ARRAY_SIZE(want));

	memset(db, 0xa5, sizeof(db));
	arbel_send_db(db, 0xffff, 255, 0x11, true, 0x3f, 0xffffff);
	expect_image(test, (const u8 *)db, sizeof(db), want_max,
		     ARRAY_SIZE(want_max));
}

static void cq_db(struct kunit *test)
{
	static const struct dw want_next[] = {
		/* cmd_sn 1 at 29:28 0x10000000 + cmd 2 at 26:24 + cqn 0x81 */
		{ 0x00, 0x12000081 },
		{ 0x04, 0x000001ff },	/* cq_param: the consumer counter */
	};
	static const struct dw want_sol[] = {
		/* cmd_sn 3 0x30000000 + cmd 1 0x01000000 + cqn 0xffffff */
		{ 0x00, 0x31ffffff },
		{ 0x04, 0xfffffffe },
	};
	__be32 db[2];

	memset(db, 0xa5, sizeof(db));
	arbel_cq_db(db, 0x81, ARBEL_CQ_ARM_NEXT, 1, 0x1ff);
	expect_image(test, (const u8 *)db, sizeof(db), want_next,
		     ARRAY_SIZE(want_next));

	memset(db, 0xa5, sizeof(db));
	arbel_cq_db(db, 0xffffff, ARBEL_CQ_ARM_SOLICITED, 3, 0xfffffffe);
	expect_image(test, (const u8 *)db, sizeof(db), want_sol,
		     ARRAY_SIZE(want_sol));
}

static void dbrec_tag(struct kunit *test)
{
	/* number at 31:8, res at 7:5 (reserved 4:0) */
	KUNIT_EXPECT_EQ(test, be32_to_cpu(arbel_dbrec_tag(ARBEL_DBREC_SQ, 0x48)),
			0x00004860u);	/* 0x4800 + SQ 3 << 5 */
	KUNIT_EXPECT_EQ(test, be32_to_cpu(arbel_dbrec_tag(ARBEL_DBREC_RQ, 0x48)),
			0x00004880u);	/* 0x4800 + RQ 4 << 5 */
	KUNIT_EXPECT_EQ(test,
			be32_to_cpu(arbel_dbrec_tag(ARBEL_DBREC_SRQ, 0x11)),
			0x000011a0u);	/* 0x1100 + SRQ 5 << 5 */
	KUNIT_EXPECT_EQ(test,
			be32_to_cpu(arbel_dbrec_tag(ARBEL_DBREC_CQ_CI, 0x81)),
			0x00008120u);	/* 0x8100 + CQ_CI 1 << 5 */
	KUNIT_EXPECT_EQ(test,
			be32_to_cpu(arbel_dbrec_tag(ARBEL_DBREC_RQ, 0xffffff)),
			0xffffff80u);
}

static void dbrec_arm(struct kunit *test)
{
	/* cq_number 31:8, res 2 at 7:5 0x40, cmd_sn 4:3, cmd 2:0 */
	KUNIT_EXPECT_EQ(test,
			be32_to_cpu(arbel_dbrec_arm(ARBEL_DBREC_CQ_ARM, 0x81,
						    ARBEL_CQ_ARM_NEXT, 1)),
			0x0000814au);	/* 0x8100 + 0x40 + 1 << 3 + 2 */
	KUNIT_EXPECT_EQ(test,
			be32_to_cpu(arbel_dbrec_arm(ARBEL_DBREC_CQ_ARM, 0x81,
						    ARBEL_CQ_ARM_SOLICITED, 3)),
			0x00008159u);	/* 0x8100 + 0x40 + 3 << 3 + 1 */
	KUNIT_EXPECT_EQ(test,
			be32_to_cpu(arbel_dbrec_arm(ARBEL_DBREC_CQ_ARM,
						    0xffffff,
						    ARBEL_CQ_ARM_NEXT, 0)),
			0xffffff42u);	/* 0xffffff00 + 0x40 + 2 */
}

static struct kunit_case wqe_cases[] = {
	KUNIT_CASE(seg_raddr),
	KUNIT_CASE(seg_atomic),
	KUNIT_CASE(seg_data),
	KUNIT_CASE(seg_inline),
	KUNIT_CASE(av_encode),
	KUNIT_CASE(seg_ud),
	KUNIT_CASE(wqe_ctrl),
	KUNIT_CASE(wqe_mlx),
	KUNIT_CASE(wqe_link),
	KUNIT_CASE(wqe_link_recv),
	KUNIT_CASE(wqe_opcodes),
	KUNIT_CASE(cqe_owner),
	KUNIT_CASE(cqe_decode_send),
	KUNIT_CASE(cqe_decode_ud_recv),
	KUNIT_CASE(cqe_decode_err),
	KUNIT_CASE(cqe_status),
	KUNIT_CASE(cqe_wc_opcode_send),
	KUNIT_CASE(cqe_wc_opcode_recv),
	KUNIT_CASE(send_db),
	KUNIT_CASE(cq_db),
	KUNIT_CASE(dbrec_tag),
	KUNIT_CASE(dbrec_arm),
	{}
};

static struct kunit_suite arbel_wqe_suite = {
	.name = "arbel_wqe",
	.test_cases = wqe_cases,
};

kunit_test_suites(&arbel_wqe_suite);

MODULE_DESCRIPTION("KUnit tests of arbel's WQEs, CQEs and doorbells");
MODULE_LICENSE("GPL");
