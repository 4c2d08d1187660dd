// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the kernel verbs of arbel0 against arbel-stub (x86_64
 * in QEMU, see scripts/kunit-x86.sh): what a kernel consumer -- the MAD
 * agents, IPoIB, a storage protocol -- does, through the RDMA core's own
 * API only: a PD with the DMA lkey and global rkey, CQs polled and armed,
 * RC and UD QPs connected to the port's own LID (the stub's loopback),
 * every opcode the device has, and the MAD agents' special QPs.
 *
 * Expected values are the verbs' and the PRM's, never the driver's: the
 * bytes each transfer must leave (patterns written here), the work
 * completion each operation must give (IBTA's, the PRM's syndrome table
 * for the access error), the old values atomics return (big-endian in
 * memory, as on every Mellanox HCA and in the stub), UD's 40-byte GRH
 * area counted in the receive length.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_verbs.h>

#include "kv.h"

/* SEND, SEND_WITH_IMM and an inline SEND, received into posted buffers */
static void kv_send_recv(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct ib_sge sge = { .addr = c->dma[0], .length = 200,
			      .lkey = c->pd->local_dma_lkey };
	struct ib_sge isge = { .addr = (uintptr_t)c->buf[0] + 1024,
			       .length = 48 };
	struct ib_send_wr wr[3] = {
		{ .wr_id = 1, .sg_list = &sge, .num_sge = 1,
		  .opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED },
		{ .wr_id = 2, .sg_list = &sge, .num_sge = 1,
		  .opcode = IB_WR_SEND_WITH_IMM,
		  .send_flags = IB_SEND_SIGNALED,
		  .ex.imm_data = cpu_to_be32(0xc0ffee01) },
		{ .wr_id = 3, .sg_list = &isge, .num_sge = 1,
		  .opcode = IB_WR_SEND,
		  .send_flags = IB_SEND_SIGNALED | IB_SEND_INLINE },
	};
	struct ib_wc wc[6], *w;

	kv_rc_pair(test, c);
	kv_fill(c->buf[0], 200, 3);
	kv_fill(c->buf[0] + 1024, 48, 99);
	kv_sync(c, 0, true);
	kv_post_recv(test, c, c->b, 0, 256, 11);
	kv_post_recv(test, c, c->b, 256, 256, 12);
	kv_post_recv(test, c, c->b, 512, 256, 13);
	wr[0].next = &wr[1];
	wr[1].next = &wr[2];
	KUNIT_ASSERT_EQ(test, ib_post_send(c->a, wr, NULL), 0);
	kv_poll(test, c, wc, 6);
	kv_sync(c, 1, false);

	w = kv_find(test, wc, 6, 1);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_SEND);
	w = kv_find(test, wc, 6, 11);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, w->byte_len, 200);
	KUNIT_EXPECT_FALSE(test, w->wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, memcmp(c->buf[1], c->buf[0], 200), 0);
	w = kv_find(test, wc, 6, 12);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_TRUE(test, w->wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(w->ex.imm_data), 0xc0ffee01);
	KUNIT_EXPECT_EQ(test, memcmp(c->buf[1] + 256, c->buf[0], 200), 0);
	w = kv_find(test, wc, 6, 13);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->byte_len, 48);
	KUNIT_EXPECT_EQ(test, memcmp(c->buf[1] + 512, c->buf[0] + 1024, 48),
			0);
	w = kv_find(test, wc, 6, 3);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
}

/* RDMA WRITE, WRITE_WITH_IMM and READ through the global rkey */
static void kv_rdma(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct ib_sge wsge = { .addr = c->dma[0], .length = 512,
			       .lkey = c->pd->local_dma_lkey };
	struct ib_sge rsge = { .addr = c->dma[0] + 2048, .length = 512,
			       .lkey = c->pd->local_dma_lkey };
	struct ib_rdma_wr wr[3] = {
		{ .wr = { .wr_id = 1, .sg_list = &wsge, .num_sge = 1,
			  .opcode = IB_WR_RDMA_WRITE,
			  .send_flags = IB_SEND_SIGNALED },
		  .remote_addr = c->dma[1] + 1024,
		  .rkey = c->pd->unsafe_global_rkey },
		{ .wr = { .wr_id = 2, .sg_list = &wsge, .num_sge = 1,
			  .opcode = IB_WR_RDMA_WRITE_WITH_IMM,
			  .send_flags = IB_SEND_SIGNALED,
			  .ex.imm_data = cpu_to_be32(77) },
		  .remote_addr = c->dma[1] + 3072,
		  .rkey = c->pd->unsafe_global_rkey },
		{ .wr = { .wr_id = 3, .sg_list = &rsge, .num_sge = 1,
			  .opcode = IB_WR_RDMA_READ,
			  .send_flags = IB_SEND_SIGNALED },
		  .remote_addr = c->dma[1],
		  .rkey = c->pd->unsafe_global_rkey },
	};
	struct ib_wc wc[4], *w;

	kv_rc_pair(test, c);
	kv_fill(c->buf[0], 512, 41);
	kv_fill(c->buf[1], 512, 200);
	kv_sync(c, 0, true);
	kv_sync(c, 1, true);
	kv_post_recv(test, c, c->b, 3584, 16, 21);
	wr[0].wr.next = &wr[1].wr;
	wr[1].wr.next = &wr[2].wr;
	KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &wr[0].wr, NULL), 0);
	kv_poll(test, c, wc, 4);
	kv_sync(c, 0, false);
	kv_sync(c, 1, false);

	w = kv_find(test, wc, 4, 1);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(c->buf[1] + 1024, c->buf[0], 512), 0);
	KUNIT_EXPECT_EQ(test, memcmp(c->buf[1] + 3072, c->buf[0], 512), 0);
	w = kv_find(test, wc, 4, 21);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(w->ex.imm_data), 77);
	w = kv_find(test, wc, 4, 3);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, memcmp(c->buf[0] + 2048, c->buf[1], 512), 0);
}

/*
 * A DMA region with remote atomic rights, made as the core makes a PD's
 * own (ib_alloc_pd()): kernel consumers have no other way to a DMA rkey
 * that allows atomics.
 */
static struct ib_mr *kv_atomic_mr(struct kunit *test, struct kv_ctx *c)
{
	struct ib_mr *mr = c->dev->ops.get_dma_mr(c->pd, IB_ACCESS_LOCAL_WRITE |
						  IB_ACCESS_REMOTE_ATOMIC);

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	mr->device = c->dev;
	mr->pd = c->pd;
	mr->type = IB_MR_TYPE_DMA;
	return mr;
}

static void kv_atomic_post(struct kunit *test, struct kv_ctx *c, u32 rkey,
			   struct ib_wc *wc)
{
	struct ib_sge sge[2] = {
		{ .addr = c->dma[0], .length = 8,
		  .lkey = c->pd->local_dma_lkey },
		{ .addr = c->dma[0] + 8, .length = 8,
		  .lkey = c->pd->local_dma_lkey },
	};
	struct ib_atomic_wr wr[2] = {
		{ .wr = { .wr_id = 1, .sg_list = &sge[0], .num_sge = 1,
			  .opcode = IB_WR_ATOMIC_CMP_AND_SWP,
			  .send_flags = IB_SEND_SIGNALED },
		  .remote_addr = c->dma[1], .compare_add = 5, .swap = 9,
		  .rkey = rkey },
		{ .wr = { .wr_id = 2, .sg_list = &sge[1], .num_sge = 1,
			  .opcode = IB_WR_ATOMIC_FETCH_AND_ADD,
			  .send_flags = IB_SEND_SIGNALED | IB_SEND_FENCE },
		  .remote_addr = c->dma[1], .compare_add = 3, .rkey = rkey },
	};

	kv_rc_pair(test, c);
	*(__be64 *)c->buf[1] = cpu_to_be64(5);
	memset(c->buf[0], 0, 16);
	kv_sync(c, 0, true);
	kv_sync(c, 1, true);
	wr[0].wr.next = &wr[1].wr;
	KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &wr[0].wr, NULL), 0);
	kv_poll(test, c, wc, 2);
	kv_sync(c, 0, false);
	kv_sync(c, 1, false);
}

/* compare-and-swap and fetch-and-add: old values back, new ones left */
static void kv_atomics(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	__be64 *remote = c->buf[1], *local = c->buf[0];
	struct ib_mr *mr = kv_atomic_mr(test, c);
	struct ib_wc wc[2], *w;

	kv_atomic_post(test, c, mr->rkey, wc);
	w = kv_find(test, wc, 2, 1);
	if (w) {
		KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_COMP_SWAP);
	}
	w = kv_find(test, wc, 2, 2);
	if (w) {
		KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_FETCH_ADD);
	}
	KUNIT_EXPECT_EQ(test, be64_to_cpu(local[0]), 5);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(local[1]), 9);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(*remote), 12);
	KUNIT_EXPECT_EQ(test, c->dev->ops.dereg_mr(mr, NULL), 0);
}

/*
 * The PD's global rkey allows remote reads and writes, not atomics: the
 * MPT's A bit is clear, so the responder refuses (remote access error)
 * and the target keeps its value.
 */
static void kv_atomic_refused(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct ib_wc wc[2];

	kv_atomic_post(test, c, c->pd->unsafe_global_rkey, wc);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(*(__be64 *)c->buf[1]), 5);
}

/*
 * A WRITE with a key the region has not: remote access error (PRM
 * syndrome 0x13), the target untouched, and the WQE after it flushed.
 */
static void kv_access_error(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct ib_sge sge = { .addr = c->dma[0], .length = 64,
			      .lkey = c->pd->local_dma_lkey };
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1,
			.opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED },
		.remote_addr = c->dma[1],
		.rkey = c->pd->unsafe_global_rkey ^ 0x100,
	};
	struct ib_send_wr more = { .wr_id = 2, .sg_list = &sge, .num_sge = 1,
				   .opcode = IB_WR_SEND,
				   .send_flags = IB_SEND_SIGNALED };
	struct ib_wc wc[2];

	kv_rc_pair(test, c);
	kv_fill(c->buf[0], 64, 1);
	memset(c->buf[1], 0x5a, 64);
	kv_sync(c, 0, true);
	kv_sync(c, 1, true);
	wr.wr.next = &more;
	KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &wr.wr, NULL), 0);
	kv_poll(test, c, wc, 2);
	kv_sync(c, 1, false);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(c->buf[1], 0x5a, 64), NULL);
}

/* UD QP to RTS with the Q_Key */
static void kv_ud_up(struct kunit *test, struct ib_qp *qp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT, .port_num = 1,
				   .qkey = KV_QKEY };

	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE |
					   IB_QP_PKEY_INDEX | IB_QP_PORT |
					   IB_QP_QKEY), 0);
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE |
					   IB_QP_SQ_PSN), 0);
}

/* a UD datagram through a kernel AH: bytes after the GRH area, source */
static void kv_ud(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct rdma_ah_attr ah_attr = { .type = RDMA_AH_ATTR_TYPE_IB };
	struct ib_sge sge = { .addr = c->dma[0], .length = 100,
			      .lkey = c->pd->local_dma_lkey };
	struct ib_ud_wr wr = {
		.wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1,
			.opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED },
		.remote_qkey = KV_QKEY,
	};
	struct ib_wc wc[2], *w;
	struct ib_ah *ah;

	c->a = kv_qp(test, c, IB_QPT_UD);
	c->b = kv_qp(test, c, IB_QPT_UD);
	kv_ud_up(test, c->a);
	kv_ud_up(test, c->b);
	rdma_ah_set_dlid(&ah_attr, c->lid);
	rdma_ah_set_port_num(&ah_attr, 1);
	ah = rdma_create_ah(c->pd, &ah_attr, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	wr.ah = ah;
	wr.remote_qpn = c->b->qp_num;
	kv_fill(c->buf[0], 100, 17);
	kv_sync(c, 0, true);
	kv_post_recv(test, c, c->b, 0, KV_GRH + 256, 7);
	KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &wr.wr, NULL), 0);
	kv_poll(test, c, wc, 2);
	kv_sync(c, 1, false);
	rdma_destroy_ah(ah, 0);
	w = kv_find(test, wc, 2, 7);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->byte_len, KV_GRH + 100);
	KUNIT_EXPECT_EQ(test, w->src_qp, c->a->qp_num);
	KUNIT_EXPECT_EQ(test, w->slid, c->lid);
	KUNIT_EXPECT_EQ(test, memcmp(c->buf[1] + KV_GRH, c->buf[0], 100), 0);
	w = kv_find(test, wc, 2, 1);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
}

/*
 * An SRQ feeding an RC QP: messages land in the WQEs posted, in any
 * order of completion, and completed WQEs can be posted again (the free
 * list), more times over than the SRQ holds.
 */
static void kv_srq(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct ib_srq_init_attr sinit = { .attr = { .max_wr = 4,
						    .max_sge = 1 } };
	struct ib_sge sge = { .addr = c->dma[0], .length = 32,
			      .lkey = c->pd->local_dma_lkey };
	struct ib_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				 .opcode = IB_WR_SEND,
				 .send_flags = IB_SEND_SIGNALED };
	struct ib_sge rsge;
	struct ib_recv_wr rwr = { .sg_list = &rsge, .num_sge = 1 };
	struct ib_srq *srq;
	struct ib_wc wc[2], *w;
	int round;

	srq = ib_create_srq(c->pd, &sinit);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(srq), "create_srq: %ld",
			       PTR_ERR(srq));
	c->a = kv_qp(test, c, IB_QPT_RC);
	c->b = kv_qp_srq(test, c, IB_QPT_RC, srq);
	kv_rc_connect(test, c, c->a, c->b);
	kv_rc_connect(test, c, c->b, c->a);
	for (round = 0; round < 12; round++) {
		rsge = (struct ib_sge){ .addr = c->dma[1] + 64 * (round % 8),
					.length = 64,
					.lkey = c->pd->local_dma_lkey };
		rwr.wr_id = 100 + round;
		KUNIT_ASSERT_EQ(test, ib_post_srq_recv(srq, &rwr, NULL), 0);
		kv_fill(c->buf[0], 32, round);
		kv_sync(c, 0, true);
		wr.wr_id = round;
		KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &wr, NULL), 0);
		kv_poll(test, c, wc, 2);
		kv_sync(c, 1, false);
		w = kv_find(test, wc, 2, 100 + round);
		KUNIT_ASSERT_NOT_NULL(test, w);
		KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, w->byte_len, 32);
		KUNIT_EXPECT_EQ(test, memcmp(c->buf[1] + 64 * (round % 8),
					     c->buf[0], 32), 0);
	}
	ib_destroy_qp(c->b);
	c->b = NULL;
	ib_destroy_srq(srq);
}

/* an armed CQ calls its handler once for the next completion */
static void kv_cq_event(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct ib_sge sge = { .addr = c->dma[0], .length = 8,
			      .lkey = c->pd->local_dma_lkey };
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1,
			.opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED },
		.remote_addr = c->dma[1], .rkey = c->pd->unsafe_global_rkey,
	};
	unsigned long left;
	struct ib_wc wc;
	int i;

	kv_rc_pair(test, c);
	for (i = 0; i < 2; i++) {
		reinit_completion(&c->event);
		KUNIT_ASSERT_EQ(test, ib_req_notify_cq(c->cq, IB_CQ_NEXT_COMP |
						IB_CQ_REPORT_MISSED_EVENTS), 0);
		KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &wr.wr, NULL), 0);
		left = wait_for_completion_timeout(&c->event,
						   msecs_to_jiffies(KV_TIMEOUT_MS));
		KUNIT_ASSERT_GT_MSG(test, left, 0,
				    "no completion event (arm %d)", i);
		kv_poll(test, c, &wc, 1);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	}
	/* unarmed: a completion calls nothing */
	KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &wr.wr, NULL), 0);
	kv_poll(test, c, &wc, 1);
	msleep(100);
	KUNIT_EXPECT_EQ(test, c->events, 2);
}

/* a LOCAL_INV of a key no region has, too many scatter entries: refused */
static void kv_refused(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct ib_send_wr inv = { .wr_id = 1, .opcode = IB_WR_LOCAL_INV,
				  .send_flags = IB_SEND_SIGNALED };
	struct ib_recv_wr rwr = { .wr_id = 2 };
	struct ib_qp_init_attr init;
	const struct ib_send_wr *bad;
	const struct ib_recv_wr *rbad;
	struct ib_qp_attr attr;
	struct ib_sge *sge;
	struct ib_wc wc;
	int i;

	kv_rc_pair(test, c);
	/* one scatter entry more than the QP said it holds */
	KUNIT_ASSERT_EQ(test, ib_query_qp(c->b, &attr, IB_QP_CAP, &init), 0);
	rwr.num_sge = init.cap.max_recv_sge + 1;
	sge = kunit_kcalloc(test, rwr.num_sge, sizeof(*sge), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sge);
	for (i = 0; i < rwr.num_sge; i++)
		sge[i] = (struct ib_sge){ .addr = c->dma[1], .length = 8,
					  .lkey = c->pd->local_dma_lkey };
	rwr.sg_list = sge;
	KUNIT_EXPECT_EQ(test, ib_post_send(c->a, &inv, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_send_wr *)&inv);
	KUNIT_EXPECT_EQ(test, ib_post_recv(c->b, &rwr, &rbad), -EINVAL);
	msleep(50);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(c->cq, 1, &wc), 0);
}

struct kv_mad {
	struct completion done;
	struct ib_smp smp;
	int got;
};

static void kv_mad_send(struct ib_mad_agent *agent,
			struct ib_mad_send_wc *wc)
{
	ib_free_send_mad(wc->send_buf);
}

static void kv_mad_recv(struct ib_mad_agent *agent,
			struct ib_mad_send_buf *send_buf,
			struct ib_mad_recv_wc *wc)
{
	struct kv_mad *m = agent->context;

	memcpy(&m->smp, wc->recv_buf.mad, sizeof(m->smp));
	m->got++;
	ib_free_recv_mad(wc);
	complete(&m->done);
}

/*
 * The MAD layer opened the port (QP0 and QP1 made and in RTS): an SMI
 * agent registers, and a directed-route NodeInfo Get of hop count 0 comes
 * back from the local SMA (process_mad, MAD_IFC) with the node's GUID.
 */
static void kv_mad_local_smp(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct ib_mad_agent *agent;
	struct ib_mad_send_buf *sb;
	struct ib_smp *smp;
	struct kv_mad *m;
	struct ib_ah *ah;
	struct rdma_ah_attr ah_attr = { .type = RDMA_AH_ATTR_TYPE_IB };

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	init_completion(&m->done);
	agent = ib_register_mad_agent(c->dev, 1, IB_QPT_SMI, NULL, 0,
				      kv_mad_send, kv_mad_recv, m, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(agent), "SMI agent: %ld",
			       PTR_ERR(agent));
	rdma_ah_set_dlid(&ah_attr, be16_to_cpu(IB_LID_PERMISSIVE));
	rdma_ah_set_port_num(&ah_attr, 1);
	ah = rdma_create_ah(agent->qp->pd, &ah_attr, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	sb = ib_create_send_mad(agent, 0, 0, 0, IB_MGMT_MAD_HDR,
				IB_MGMT_MAD_DATA, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	smp = sb->mad;
	smp->base_version = IB_MGMT_BASE_VERSION;
	smp->mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	smp->class_version = 1;
	smp->method = IB_MGMT_METHOD_GET;
	smp->tid = cpu_to_be64(0x4b56);
	smp->attr_id = IB_SMP_ATTR_NODE_INFO;
	smp->hop_cnt = 0;
	smp->dr_slid = IB_LID_PERMISSIVE;
	smp->dr_dlid = IB_LID_PERMISSIVE;
	sb->ah = ah;
	sb->timeout_ms = 1000;
	KUNIT_EXPECT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_EXPECT_GT(test,
			wait_for_completion_timeout(&m->done,
						    msecs_to_jiffies(KV_TIMEOUT_MS)),
			0);
	rdma_destroy_ah(ah, 0);
	ib_unregister_mad_agent(agent);
	KUNIT_ASSERT_EQ(test, m->got, 1);
	KUNIT_EXPECT_EQ(test, m->smp.method, IB_MGMT_METHOD_GET_RESP);
	/* NodeInfo: the node GUID at byte 12 of the data (IBTA 14.2.5.3) */
	KUNIT_EXPECT_EQ(test, memcmp(m->smp.data + 12, &c->dev->node_guid, 8),
			0);
}

static struct kunit_case kverbs_cases[] = {
	KUNIT_CASE(kv_send_recv),
	KUNIT_CASE(kv_rdma),
	KUNIT_CASE(kv_atomics),
	KUNIT_CASE(kv_atomic_refused),
	KUNIT_CASE(kv_access_error),
	KUNIT_CASE(kv_ud),
	KUNIT_CASE(kv_srq),
	KUNIT_CASE(kv_cq_event),
	KUNIT_CASE(kv_refused),
	KUNIT_CASE(kv_mad_local_smp),
	{}
};

static struct kunit_suite arbel_kverbs_suite = {
	.name = "arbel_kverbs",
	.init = kv_init,
	.exit = kv_exit,
	.test_cases = kverbs_cases,
};

kunit_test_suites(&arbel_kverbs_suite);

MODULE_DESCRIPTION("KUnit tests of arbel's kernel verbs and fast registration against arbel-stub");
MODULE_LICENSE("GPL");
