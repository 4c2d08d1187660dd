/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the kernel-verbs suites share (kv.c): arbel0 found by name, a PD
 * with the DMA lkey and global rkey, one CQ, two DMA buffers, RC and UD
 * QPs on the port's own LID (the stub's loopback), polling.
 */
#ifndef _ARBEL_KV_H
#define _ARBEL_KV_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <rdma/ib_verbs.h>

#define KV_BUF		4096
#define KV_GRH		40
#define KV_QKEY		0x11111111
#define KV_TIMEOUT_MS	5000

/*
 * A case's context: arbel0, its PD, CQ, the RC pair @a and @b, the port's
 * LID, two DMA buffers, completion events counted; @ext is a suite's own.
 */
struct kv_ctx {
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *a, *b;
	u16 lid;
	void *buf[2];
	u64 dma[2];
	struct completion event;
	int events;
	void *ext;
};

int kv_init(struct kunit *test);
void kv_exit(struct kunit *test);
struct ib_qp *kv_qp_srq(struct kunit *test, struct kv_ctx *c,
			enum ib_qp_type type, struct ib_srq *srq);
struct ib_qp *kv_qp(struct kunit *test, struct kv_ctx *c,
		    enum ib_qp_type type);
void kv_rc_connect(struct kunit *test, struct kv_ctx *c,
		   struct ib_qp *qp, struct ib_qp *peer);
void kv_rc_pair(struct kunit *test, struct kv_ctx *c);
void kv_poll(struct kunit *test, struct kv_ctx *c, struct ib_wc *wc,
	     int n);
struct ib_wc *kv_find(struct kunit *test, struct ib_wc *wc, int n,
		      u64 wr_id);
void kv_post_recv(struct kunit *test, struct kv_ctx *c,
		  struct ib_qp *qp, u64 off, u32 len, u64 wr_id);
void kv_fill(void *buf, u32 len, u8 seed);
void kv_sync(struct kv_ctx *c, int i, bool to_device);

#endif /* _ARBEL_KV_H */
