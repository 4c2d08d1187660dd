// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel-verbs suites' shared part (kv.h): set-up and tear-down of a
 * case, QPs, connecting, polling, patterns.
 */

#include <linux/delay.h>
#include <linux/slab.h>

#include "kv.h"

static void kv_comp(struct ib_cq *cq, void *ctx)
{
	struct kv_ctx *c = ctx;

	c->events++;
	complete(&c->event);
}

/* the port ACTIVE with a LID: the stub's SM assigns it after INIT_IB */
static int kv_port(struct kunit *test, struct kv_ctx *c)
{
	struct ib_port_attr attr;
	int i;

	for (i = 0; i < 100; i++) {
		if (!ib_query_port(c->dev, 1, &attr) &&
		    attr.state == IB_PORT_ACTIVE && attr.lid) {
			c->lid = attr.lid;
			return 0;
		}
		msleep(100);
	}
	KUNIT_FAIL(test, "port 1 of %s not active with a LID",
		   dev_name(&c->dev->dev));
	return -ETIMEDOUT;
}

/**
 * kv_init() - a case's set-up: arbel0, its port active, a PD, a CQ, two
 * DMA-mapped buffers of %KV_BUF bytes
 * @test: the case; its priv becomes a struct kv_ctx
 *
 * Return: 0 (a failure fails the case).
 */
int kv_init(struct kunit *test)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 64 };
	struct kv_ctx *c;
	int i;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	test->priv = c;
	init_completion(&c->event);
	c->dev = ib_device_get_by_name("arbel0", RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL_MSG(test, c->dev, "no arbel0");
	KUNIT_ASSERT_EQ(test, kv_port(test, c), 0);
	c->pd = ib_alloc_pd(c->dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->pd));
	c->cq = ib_create_cq(c->dev, kv_comp, NULL, c, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->cq));
	for (i = 0; i < 2; i++) {
		c->buf[i] = kzalloc(KV_BUF, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c->buf[i]);
		c->dma[i] = ib_dma_map_single(c->dev, c->buf[i], KV_BUF,
					      DMA_BIDIRECTIONAL);
		KUNIT_ASSERT_FALSE(test, ib_dma_mapping_error(c->dev,
							      c->dma[i]));
	}
	return 0;
}

/**
 * kv_exit() - a case's tear-down: what kv_init() and the case made
 * @test: the case
 */
void kv_exit(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	int i;

	if (!c || !c->dev)
		return;
	if (c->a)
		ib_destroy_qp(c->a);
	if (c->b)
		ib_destroy_qp(c->b);
	for (i = 0; i < 2; i++) {
		if (!c->buf[i])
			continue;
		if (c->dma[i])
			ib_dma_unmap_single(c->dev, c->dma[i], KV_BUF,
					    DMA_BIDIRECTIONAL);
		kfree(c->buf[i]);
	}
	if (!IS_ERR_OR_NULL(c->cq))
		ib_destroy_cq(c->cq);
	if (!IS_ERR_OR_NULL(c->pd))
		ib_dealloc_pd(c->pd);
	ib_device_put(c->dev);
}

/**
 * kv_qp_srq() - a QP on the case's PD and CQ, 16 WQEs each way
 * @test: the case
 * @c: its context
 * @type: the QP type
 * @srq: its SRQ, or NULL
 *
 * Return: the QP (a failure fails the case).
 */
struct ib_qp *kv_qp_srq(struct kunit *test, struct kv_ctx *c,
			enum ib_qp_type type, struct ib_srq *srq)
{
	struct ib_qp_init_attr init = {
		.srq = srq,
		.send_cq = c->cq, .recv_cq = c->cq, .qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 2, .max_recv_sge = 2,
			 .max_inline_data = 64 },
	};
	struct ib_qp *qp;

	if (srq)
		init.cap.max_recv_wr = 0;
	qp = ib_create_qp(c->pd, &init);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(qp), "create_qp: %ld",
			       PTR_ERR(qp));
	return qp;
}

/**
 * kv_qp() - a QP without SRQ (see kv_qp_srq())
 * @test: the case
 * @c: its context
 * @type: the QP type
 *
 * Return: the QP.
 */
struct ib_qp *kv_qp(struct kunit *test, struct kv_ctx *c,
		    enum ib_qp_type type)
{
	return kv_qp_srq(test, c, type, NULL);
}

/**
 * kv_rc_connect() - an RC QP to RTS, connected to @peer through the
 * port's own LID
 * @test: the case
 * @c: its context
 * @qp: the QP
 * @peer: the QP it talks to
 */
void kv_rc_connect(struct kunit *test, struct kv_ctx *c,
		   struct ib_qp *qp, struct ib_qp *peer)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT, .port_num = 1,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ |
				   IB_ACCESS_REMOTE_ATOMIC,
	};

	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE |
					   IB_QP_PKEY_INDEX | IB_QP_PORT |
					   IB_QP_ACCESS_FLAGS), 0);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = IB_MTU_1024;
	attr.dest_qp_num = peer->qp_num;
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 12;
	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&attr.ah_attr, c->lid);
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_AV |
					   IB_QP_PATH_MTU | IB_QP_DEST_QPN |
					   IB_QP_RQ_PSN |
					   IB_QP_MAX_DEST_RD_ATOMIC |
					   IB_QP_MIN_RNR_TIMER), 0);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.max_rd_atomic = 1;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE |
					   IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
					   IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
					   IB_QP_MAX_QP_RD_ATOMIC), 0);
}

/**
 * kv_rc_pair() - @c->a and @c->b, two RC QPs connected to each other
 * @test: the case
 * @c: its context
 */
void kv_rc_pair(struct kunit *test, struct kv_ctx *c)
{
	c->a = kv_qp(test, c, IB_QPT_RC);
	c->b = kv_qp(test, c, IB_QPT_RC);
	kv_rc_connect(test, c, c->a, c->b);
	kv_rc_connect(test, c, c->b, c->a);
}

/**
 * kv_poll() - the next @n completions of the case's CQ, in order
 * @test: the case; failed if they do not come within %KV_TIMEOUT_MS
 * @c: its context
 * @wc: receives them
 * @n: how many
 */
void kv_poll(struct kunit *test, struct kv_ctx *c, struct ib_wc *wc,
	     int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(KV_TIMEOUT_MS);
	int got = 0;

	while (got < n && time_before(jiffies, end)) {
		int r = ib_poll_cq(c->cq, n - got, wc + got);

		KUNIT_ASSERT_GE(test, r, 0);
		got += r;
		if (got < n)
			usleep_range(500, 1000);
	}
	KUNIT_ASSERT_EQ_MSG(test, got, n, "completions that came");
}

/**
 * kv_find() - the completion of a work request among some
 * @test: the case; failed if there is none
 * @wc: the completions
 * @n: their number
 * @wr_id: the request's ID
 *
 * Return: the completion, or NULL.
 */
struct ib_wc *kv_find(struct kunit *test, struct ib_wc *wc, int n,
		      u64 wr_id)
{
	int i;

	for (i = 0; i < n; i++)
		if (wc[i].wr_id == wr_id)
			return &wc[i];
	KUNIT_FAIL(test, "no completion of wr_id %llu", wr_id);
	return NULL;
}

/**
 * kv_post_recv() - post a receive into @c->buf[1]
 * @test: the case
 * @c: its context
 * @qp: the QP
 * @off: where in the buffer
 * @len: how many bytes
 * @wr_id: its ID
 */
void kv_post_recv(struct kunit *test, struct kv_ctx *c,
		  struct ib_qp *qp, u64 off, u32 len, u64 wr_id)
{
	struct ib_sge sge = { .addr = c->dma[1] + off, .length = len,
			      .lkey = c->pd->local_dma_lkey };
	struct ib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge,
				 .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, NULL), 0);
}

/**
 * kv_fill() - a pattern no two nearby bytes of which are equal
 * @buf: the bytes
 * @len: how many
 * @seed: the first byte
 */
void kv_fill(void *buf, u32 len, u8 seed)
{
	u8 *p = buf;
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = seed + i * 7;
}

/**
 * kv_sync() - hand @c->buf[@i] to the device or back to the CPU
 * @c: the context
 * @i: the buffer
 * @to_device: which way
 */
void kv_sync(struct kv_ctx *c, int i, bool to_device)
{
	if (to_device)
		ib_dma_sync_single_for_device(c->dev, c->dma[i], KV_BUF,
					      DMA_BIDIRECTIONAL);
	else
		ib_dma_sync_single_for_cpu(c->dev, c->dma[i], KV_BUF,
					   DMA_BIDIRECTIONAL);
}
