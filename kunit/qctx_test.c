// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the queue contexts (qctx.c): the CQ, SRQ and QP context
 * encoders, the QP decoder, the transition opcodes and the work queue
 * geometry.
 *
 * Golden values are written by hand: the bytes from the PRM's
 * arbelprm_completion_queue_context_st, arbelprm_srq_context_st,
 * arbelprm_queue_pair_ee_context_entry_st and arbelprm_address_path_st
 * (fields LSB-first in big-endian dwords; the sums are in the comments),
 * the geometry from libmthca's mthca_alloc_qp_buf(), never produced by
 * the code under test.
 */

#include <kunit/test.h>
#include <linux/string.h>

#include <arbel/prm.h>
#include <arbel/qctx.h>

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

static void cqc_golden(struct kunit *test)
{
	const struct arbel_cqc c = {
		.start = 0, .log_size = 7, .uar = 2, .eqn = 1, .pd = 0x15,
		.lkey = 0x1500, .cqn = 0x81, .ci_db = 0x1ff, .state_db = 0,
	};
	static const struct dw want[] = {
		{ 0x0c, 0x07000002 },	/* log_cq_size 7 at 28:24, usr_page 2 */
		{ 0x14, 0x00000001 },	/* c_eqn */
		{ 0x18, 0x00000015 },	/* pd */
		{ 0x1c, 0x00001500 },	/* l_key */
		{ 0x30, 0x00000081 },	/* cqn */
		{ 0x34, 0x000001ff },	/* cq_ci_db_record */
	};
	u8 got[ARBEL_CQC_SIZE], exp[ARBEL_CQC_SIZE];

	memset(got, 0xa5, sizeof(got));
	arbel_cqc_encode(&c, got);
	image(exp, sizeof(exp), want, ARRAY_SIZE(want));
	expect_bytes(test, got, exp, sizeof(exp));
}

static void srqc_golden(struct kunit *test)
{
	const struct arbel_srqc c = {
		.srqn = 0x11, .log_size = 4, .lkey = 0x1234, .db = 0x1fe,
		.wqe_shift = 6, .uar = 3, .eqn = 1, .pd = 0x15,
	};
	static const struct dw want[] = {
		{ 0x00, 0x04000011 },	/* log_srq_size 4 at 27:24, srqn */
		{ 0x04, 0x00001234 },	/* l_key */
		{ 0x08, 0x000001fe },	/* srq_db_record_index */
		{ 0x0c, 0x40000003 },	/* log_rq_stride 6 - 4 at 31:29, uar 3 */
		{ 0x18, 0x01000015 },	/* EQ 1 at 31:24 (mthca), pd */
	};
	u8 got[ARBEL_SRQC_SIZE], exp[ARBEL_SRQC_SIZE];

	memset(got, 0xa5, sizeof(got));
	arbel_srqc_encode(&c, got);
	image(exp, sizeof(exp), want, ARRAY_SIZE(want));
	expect_bytes(test, got, exp, sizeof(exp));
}

static const struct arbel_wq_limits lim = {
	.max_wqes = 1 << 16, .max_sg = 30, .max_desc_sz = 1008,
};

static void wq_sizes_rc(struct kunit *test)
{
	struct ib_qp_cap cap = {
		.max_send_wr = 10, .max_recv_wr = 5,
		.max_send_sge = 1, .max_recv_sge = 1,
	};
	struct arbel_wq_sizes sz;

	/*
	 * send: 1 gather 16 + raddr 16 = 32, raised to atomic 16 + raddr 16 +
	 * data 16 = 48, + next 16 = 64: shift 6; (64 - 16 - 16) / 16 = 2
	 * gathers, 32 - 4 = 28 inline bytes.  receive: next 16 + 16 = 32 ->
	 * 64: (64 - 16) / 16 = 3 scatters.  8 receive WQEs = 512 bytes, then
	 * 16 send WQEs: 512 + 1024 = 1536.
	 */
	KUNIT_ASSERT_EQ(test, arbel_qp_wq_sizes(&lim, IB_QPT_RC, &cap, &sz), 0);
	KUNIT_EXPECT_EQ(test, sz.sq_max, 16u);
	KUNIT_EXPECT_EQ(test, sz.rq_max, 8u);
	KUNIT_EXPECT_EQ(test, sz.sq_wqe_shift, 6);
	KUNIT_EXPECT_EQ(test, sz.rq_wqe_shift, 6);
	KUNIT_EXPECT_EQ(test, sz.sq_base, 512u);
	KUNIT_EXPECT_EQ(test, sz.buf_size, 1536u);
	KUNIT_EXPECT_EQ(test, sz.max_send_sge, 2u);
	KUNIT_EXPECT_EQ(test, sz.max_recv_sge, 3u);
	KUNIT_EXPECT_EQ(test, sz.max_inline, 28u);

	/* 100 inline bytes: (100 + 4) / 16 -> 7 chunks: 112 + 16 + 16 = 144 */
	cap.max_inline_data = 100;
	KUNIT_ASSERT_EQ(test, arbel_qp_wq_sizes(&lim, IB_QPT_RC, &cap, &sz), 0);
	KUNIT_EXPECT_EQ(test, sz.sq_wqe_shift, 8);
	KUNIT_EXPECT_EQ(test, sz.max_inline, 256u - 16 - 16 - 4);
}

static void wq_sizes_ud(struct kunit *test)
{
	struct ib_qp_cap cap = {
		.max_send_wr = 1, .max_recv_wr = 1,
		.max_send_sge = 1, .max_recv_sge = 1,
	};
	struct arbel_wq_sizes sz;

	/*
	 * 16 + address vector 48 = 64, + next 16 = 80 -> 128: shift 7;
	 * (128 - 16 - 48) / 16 = 4 gathers, 60 inline; the receive queue's
	 * 64 bytes aligned up to one send stride: the SQ at 128.
	 */
	KUNIT_ASSERT_EQ(test, arbel_qp_wq_sizes(&lim, IB_QPT_UD, &cap, &sz), 0);
	KUNIT_EXPECT_EQ(test, sz.sq_wqe_shift, 7);
	KUNIT_EXPECT_EQ(test, sz.sq_base, 128u);
	KUNIT_EXPECT_EQ(test, sz.buf_size, 256u);
	KUNIT_EXPECT_EQ(test, sz.max_send_sge, 4u);
	KUNIT_EXPECT_EQ(test, sz.max_inline, 60u);
}

static void wq_sizes_refused(struct kunit *test)
{
	struct ib_qp_cap cap = { .max_send_wr = 1, .max_recv_wr = 1 };
	struct arbel_wq_sizes sz;

	/* RC: 1008 - next 16 - raddr 16 - inline header 4 = 972 at most */
	cap.max_inline_data = 972;
	KUNIT_EXPECT_EQ(test, arbel_qp_wq_sizes(&lim, IB_QPT_RC, &cap, &sz), 0);
	cap.max_inline_data = 973;
	KUNIT_EXPECT_EQ(test, arbel_qp_wq_sizes(&lim, IB_QPT_RC, &cap, &sz),
			-EINVAL);
	cap.max_inline_data = 0;
	cap.max_send_sge = 31;
	KUNIT_EXPECT_EQ(test, arbel_qp_wq_sizes(&lim, IB_QPT_RC, &cap, &sz),
			-EINVAL);
	cap.max_send_sge = 1;
	cap.max_recv_wr = (1 << 16) + 1;
	KUNIT_EXPECT_EQ(test, arbel_qp_wq_sizes(&lim, IB_QPT_UC, &cap, &sz),
			-EINVAL);
	cap.max_recv_wr = 1;
	KUNIT_EXPECT_EQ(test, arbel_qp_wq_sizes(&lim, IB_QPT_RAW_PACKET, &cap,
						&sz), -EOPNOTSUPP);
	/*
	 * GSI (MLX, mthca's layout): next 16 + header pointer 16 + ICRC 16 +
	 * one gather 16 = 64 -> stride 64; 64 send WQEs after 2 receive ones
	 * of 16 + 16 = 32 -> 64 bytes each: SQ at 128, 128 + 64 * 64 = 4224
	 */
	cap = (struct ib_qp_cap){ .max_send_wr = 64, .max_recv_wr = 2,
				  .max_send_sge = 1, .max_recv_sge = 1 };
	KUNIT_ASSERT_EQ(test, arbel_qp_wq_sizes(&lim, IB_QPT_GSI, &cap, &sz),
			0);
	KUNIT_EXPECT_EQ(test, sz.sq_wqe_shift, 6);
	KUNIT_EXPECT_EQ(test, sz.rq_wqe_shift, 6);
	KUNIT_EXPECT_EQ(test, sz.sq_base, 128);
	KUNIT_EXPECT_EQ(test, sz.buf_size, 4224);
	/* SRQ: 16 + 4 * 16 = 80 -> 128; 63 entries do not fit 1008 */
	KUNIT_EXPECT_EQ(test, arbel_srq_wqe_shift(&lim, 4), 7);
	KUNIT_EXPECT_EQ(test, arbel_srq_wqe_shift(&lim, 1), 6);
	KUNIT_EXPECT_EQ(test, arbel_srq_wqe_shift(&lim, 31), -EINVAL);
}

static void qp_opcodes(struct kunit *test)
{
	/* the PRM's QP/EE transition commands */
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_RESET, IB_QPS_INIT), 0x19);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_INIT, IB_QPS_RTR), 0x1a);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_RTR, IB_QPS_RTS), 0x1b);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_RTS, IB_QPS_RTS), 0x1c);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_SQE, IB_QPS_RTS), 0x1d);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_RTR, IB_QPS_ERR), 0x1e);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_RTS, IB_QPS_SQD), 0x1f);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_SQD, IB_QPS_RTS), 0x20);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_ERR, IB_QPS_RESET), 0x21);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_INIT, IB_QPS_INIT), 0x2d);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_SQD, IB_QPS_SQD), 0x38);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_RESET, IB_QPS_RTR), 0);
	KUNIT_EXPECT_EQ(test, arbel_qp_opcode(IB_QPS_RTR, IB_QPS_INIT), 0);
}

/* the static part of both QPs below, at its place in the mailbox */
static const struct dw qp_static[] = {
	{ 0x08 + 0x0c, 0x00000002 },	/* usr_page */
	{ 0x08 + 0x10, 0x00000048 },	/* local_qpn */
	{ 0x08 + 0x64, 0x00000015 },	/* pd */
	{ 0x08 + 0x6c, 0x00001600 },	/* wqe_lkey */
	/* ack_req_freq 10 at 31:28, flight_lim 9 at 27:24, swe 14 */
	{ 0x08 + 0x70, 0xa9004000 },
	{ 0x08 + 0x7c, 0x00000080 },	/* cqn_snd */
	{ 0x08 + 0x80, 0x00000200 },	/* snd_wqe_base_adr_l */
	{ 0x08 + 0x84, 0x00000003 },	/* snd_db_record_index */
	{ 0x08 + 0x98, 0x4001a400 },	/* ra_buff_indx */
	{ 0x08 + 0x9c, 0x00000081 },	/* cqn_rcv */
	{ 0x08 + 0xa4, 0x000001fc },	/* rcv_db_record_index */
};

/* a QP mailbox: the static part and the dwords of one transition */
static void qp_image(u8 *buf, const struct dw *d, size_t n)
{
	image(buf, ARBEL_QP_MBOX_SIZE, qp_static, ARRAY_SIZE(qp_static));
	put_dws(buf, d, n);
}

static struct arbel_qp_static qs(u8 st, u8 sq_shift)
{
	return (struct arbel_qp_static) {
		.st = st, .qpn = 0x48, .uar = 2, .pd = 0x15, .wqe_lkey = 0x1600,
		.sq_log_size = 4, .sq_wqe_shift = sq_shift, .rq_log_size = 3,
		.rq_wqe_shift = 6, .sq_base = 0x200, .sq_db = 3, .rq_db = 0x1fc,
		.cqn_snd = 0x80, .cqn_rcv = 0x81, .user = true,
		.ra_buff = 0x4001a400, .access = IB_ACCESS_REMOTE_WRITE,
	};
}

static void qp_rst2init_ud(struct kunit *test)
{
	struct arbel_qp_static s = qs(ARBEL_QP_ST_UD, 7);
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT, .pkey_index = 0, .port_num = 1,
		.qkey = 0x11111111,
	};
	const struct dw want[] = {
		/* optional: port 11, P_Key index 4, Q_Key 5 */
		{ 0x00, 0x00000830 },
		/* state INIT 1 at 31:28, st UD 3 at 18:16, pm 3 at 12:11, de 8 */
		{ 0x08 + 0x00, 0x10031900 },
		/*
		 * UD: mtu 2048 (4) at 31:29, msg_max 11 at 28:24; log_rq_size
		 * 3 at 22:19, log_rq_stride 2 at 18:16, log_sq_size 4 at
		 * 14:11, log_sq_stride 3 at 10:8: 0x8b1a2300
		 */
		{ 0x08 + 0x08, 0x8b1a2300 },
		{ 0x08 + 0x20, 0x01000000 },	/* port 1 at 25:24 */
		{ 0x08 + 0x90, 0x00000008 },	/* rsc */
		{ 0x08 + 0xa8, 0x11111111 },	/* q_key */
	};
	u8 got[ARBEL_QP_MBOX_SIZE], exp[ARBEL_QP_MBOX_SIZE];

	memset(got, 0xa5, sizeof(got));
	KUNIT_ASSERT_EQ(test, arbel_qp_encode(&s, &a, IB_QP_STATE |
					      IB_QP_PKEY_INDEX | IB_QP_PORT |
					      IB_QP_QKEY, IB_QPS_RESET,
					      IB_QPS_INIT, got), 0);
	qp_image(exp, want, ARRAY_SIZE(want));
	expect_bytes(test, got, exp, sizeof(exp));
}

static const int rtr_mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
	IB_QP_DEST_QPN | IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC |
	IB_QP_MIN_RNR_TIMER;

static void rtr_attr(struct ib_qp_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->qp_state = IB_QPS_RTR;
	a->path_mtu = IB_MTU_1024;
	a->dest_qp_num = 0x49;
	a->rq_psn = 0x123456;
	a->max_dest_rd_atomic = 4;
	a->min_rnr_timer = 12;
	a->ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&a->ah_attr, 1);
	rdma_ah_set_sl(&a->ah_attr, 3);
	rdma_ah_set_port_num(&a->ah_attr, 1);
}

static void qp_init2rtr_rc(struct kunit *test)
{
	struct arbel_qp_static s = qs(ARBEL_QP_ST_RC, 6);
	struct ib_qp_attr a;
	const struct dw want[] = {
		/*
		 * optional: primary path 7, RRA max 9, RWE/RRE/RAE 3:1,
		 * RNR timer 6, sched queue 16: 0x102ce
		 */
		{ 0x00, 0x000102ce },
		{ 0x08 + 0x00, 0x20001900 },	/* RTR, RC, pm 3, de */
		/*
		 * mtu 1024 (3) at 31:29, msg_max 31: 0x7f; the queues
		 * 0x1a2200; user RC: sched_queue 2
		 */
		{ 0x08 + 0x08, 0x7f1a2202 },
		{ 0x08 + 0x14, 0x00000049 },	/* remote_qpn */
		{ 0x08 + 0x24, 0x00000001 },	/* rlid 1 */
		{ 0x08 + 0x2c, 0x30000000 },	/* sl 3 at 31:28 */
		/* rra_max fls(3) = 2 at 23:21, rwe 14 (write kept), rsc 3 */
		{ 0x08 + 0x90, 0x00404008 },
		{ 0x08 + 0x94, 0x0c123456 },	/* min_rnr_nak 12, rcv PSN */
	};
	u8 got[ARBEL_QP_MBOX_SIZE], exp[ARBEL_QP_MBOX_SIZE];
	struct ib_qp_attr back = {};

	rtr_attr(&a);
	memset(got, 0xa5, sizeof(got));
	KUNIT_ASSERT_EQ(test, arbel_qp_encode(&s, &a, rtr_mask, IB_QPS_INIT,
					      IB_QPS_RTR, got), 0);
	qp_image(exp, want, ARRAY_SIZE(want));
	expect_bytes(test, got, exp, sizeof(exp));

	/* and the decoder reads the same context back */
	arbel_qp_decode(got + ARBEL_QP_MBOX_CTX, &back);
	KUNIT_EXPECT_EQ(test, back.qp_state, IB_QPS_RTR);
	KUNIT_EXPECT_EQ(test, back.path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, back.dest_qp_num, 0x49u);
	KUNIT_EXPECT_EQ(test, back.rq_psn, 0x123456u);
	KUNIT_EXPECT_EQ(test, back.max_dest_rd_atomic, 4);
	KUNIT_EXPECT_EQ(test, back.min_rnr_timer, 12);
	KUNIT_EXPECT_EQ(test, back.qp_access_flags, IB_ACCESS_REMOTE_WRITE);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&back.ah_attr), 1);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&back.ah_attr), 3);
	KUNIT_EXPECT_EQ(test, back.path_mig_state, IB_MIG_MIGRATED);
}

static void qp_refused(struct kunit *test)
{
	struct arbel_qp_static s = qs(ARBEL_QP_ST_RC, 6);
	struct ib_qp_attr a;
	u8 got[ARBEL_QP_MBOX_SIZE];

	/* 4096 is above the PRM's 2048 */
	rtr_attr(&a);
	a.path_mtu = IB_MTU_4096;
	KUNIT_EXPECT_EQ(test, arbel_qp_encode(&s, &a, rtr_mask, IB_QPS_INIT,
					      IB_QPS_RTR, got), -EINVAL);
	/* P_Key index 128: the field has 7 bits */
	rtr_attr(&a);
	a.pkey_index = 128;
	KUNIT_EXPECT_EQ(test, arbel_qp_encode(&s, &a, rtr_mask |
					      IB_QP_PKEY_INDEX, IB_QPS_INIT,
					      IB_QPS_RTR, got), -EINVAL);
}

static void qp_state_from_hw(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, arbel_qp_state_from_hw(7), IB_QPS_SQD);
	KUNIT_EXPECT_EQ(test, arbel_qp_state_from_hw(4), IB_QPS_SQE);
	KUNIT_EXPECT_EQ(test, arbel_qp_state_from_hw(9), IB_QPS_ERR);
}

static struct kunit_case qctx_cases[] = {
	KUNIT_CASE(cqc_golden),
	KUNIT_CASE(srqc_golden),
	KUNIT_CASE(wq_sizes_rc),
	KUNIT_CASE(wq_sizes_ud),
	KUNIT_CASE(wq_sizes_refused),
	KUNIT_CASE(qp_opcodes),
	KUNIT_CASE(qp_rst2init_ud),
	KUNIT_CASE(qp_init2rtr_rc),
	KUNIT_CASE(qp_refused),
	KUNIT_CASE(qp_state_from_hw),
	{}
};

static struct kunit_suite arbel_qctx_suite = {
	.name = "arbel_qctx",
	.test_cases = qctx_cases,
};

kunit_test_suites(&arbel_qctx_suite);

MODULE_DESCRIPTION("KUnit tests of arbel's queue contexts");
MODULE_LICENSE("GPL");
