// SPDX-License-Identifier: GPL-2.0-only
/*
 * fr_bench: fast-registration cycles on one RDMA device, in the kernel,
 * as a storage protocol does them per I/O: ib_map_mr_sg() of @pages
 * pages, then IB_WR_REG_MR (unsignaled) and IB_WR_LOCAL_INV (signaled)
 * posted together on an RC QP connected to itself, the LOCAL_INV's
 * completion polled.  bench/fr.sh loads it in the VM for arbel0 and rxe0
 * in turn.  It prints one line, "fr_bench: DEV: ...", and does not stay
 * loaded (its init returns -EAGAIN once the run is over: nothing to
 * unload).
 */

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

static char *dev = "arbel0";
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "the RDMA device (default arbel0)");
static unsigned int cycles = 2000;
module_param(cycles, uint, 0444);
MODULE_PARM_DESC(cycles, "timed cycles (default 2000; 100 more warm up)");
static unsigned int pages = 16;
module_param(pages, uint, 0444);
MODULE_PARM_DESC(pages, "pages a registration maps (default 16)");

#define FRB_WARMUP	100
#define FRB_TIMEOUT_MS	5000

struct frb {
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_mr *mr;
	struct page **pg;
	struct scatterlist *sg;
	bool mapped;
};

/* the QP to RTS, connected to itself: by LID on IB, by GID 0 on RoCE */
static int frb_connect(struct frb *b)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT, .port_num = 1 };
	struct ib_port_attr port;
	union ib_gid gid;
	int err, i;

	for (i = 0; i < 100; i++) {
		err = ib_query_port(b->dev, 1, &port);
		if (err)
			return err;
		if (port.state == IB_PORT_ACTIVE)
			break;
		msleep(100);
	}
	err = ib_modify_qp(b->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (err)
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = IB_MTU_1024;
	attr.dest_qp_num = b->qp->qp_num;
	attr.min_rnr_timer = 12;
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	if (rdma_protocol_roce(b->dev, 1)) {
		err = rdma_query_gid(b->dev, 1, 0, &gid);
		if (err)
			return err;
		attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
		rdma_ah_set_grh(&attr.ah_attr, &gid, 0, 0, 1, 0);
	} else {
		attr.ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
		rdma_ah_set_dlid(&attr.ah_attr, port.lid);
	}
	err = ib_modify_qp(b->qp, &attr, IB_QP_STATE | IB_QP_AV |
			   IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (err)
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	return ib_modify_qp(b->qp, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

static int frb_setup(struct frb *b)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 16 };
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC, .sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 8, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	unsigned int i;

	b->dev = ib_device_get_by_name(dev, RDMA_DRIVER_UNKNOWN);
	if (!b->dev)
		return -ENODEV;
	b->pd = ib_alloc_pd(b->dev, 0);
	if (IS_ERR(b->pd))
		return PTR_ERR(b->pd);
	b->cq = ib_create_cq(b->dev, NULL, NULL, NULL, &cq_attr);
	if (IS_ERR(b->cq))
		return PTR_ERR(b->cq);
	init.send_cq = b->cq;
	init.recv_cq = b->cq;
	b->qp = ib_create_qp(b->pd, &init);
	if (IS_ERR(b->qp))
		return PTR_ERR(b->qp);
	b->pg = kcalloc(pages, sizeof(*b->pg), GFP_KERNEL);
	b->sg = kcalloc(pages, sizeof(*b->sg), GFP_KERNEL);
	if (!b->pg || !b->sg)
		return -ENOMEM;
	sg_init_table(b->sg, pages);
	for (i = 0; i < pages; i++) {
		b->pg[i] = alloc_page(GFP_KERNEL);
		if (!b->pg[i])
			return -ENOMEM;
		sg_set_page(&b->sg[i], b->pg[i], PAGE_SIZE, 0);
	}
	if (ib_dma_map_sg(b->dev, b->sg, pages, DMA_BIDIRECTIONAL) != pages)
		return -EIO;
	b->mapped = true;
	b->mr = ib_alloc_mr(b->pd, IB_MR_TYPE_MEM_REG, pages);
	if (IS_ERR(b->mr))
		return PTR_ERR(b->mr);
	return frb_connect(b);
}

static void frb_teardown(struct frb *b)
{
	unsigned int i;

	if (!IS_ERR_OR_NULL(b->qp))
		ib_destroy_qp(b->qp);
	if (!IS_ERR_OR_NULL(b->mr))
		ib_dereg_mr(b->mr);
	if (b->mapped)
		ib_dma_unmap_sg(b->dev, b->sg, pages, DMA_BIDIRECTIONAL);
	for (i = 0; b->pg && i < pages; i++)
		if (b->pg[i])
			__free_page(b->pg[i]);
	kfree(b->sg);
	kfree(b->pg);
	if (!IS_ERR_OR_NULL(b->cq))
		ib_destroy_cq(b->cq);
	if (!IS_ERR_OR_NULL(b->pd))
		ib_dealloc_pd(b->pd);
	if (b->dev)
		ib_device_put(b->dev);
}

/* one cycle: map, REG_MR + LOCAL_INV, the LOCAL_INV's completion */
static int frb_cycle(struct frb *b)
{
	struct ib_send_wr inv = { .opcode = IB_WR_LOCAL_INV,
				  .send_flags = IB_SEND_SIGNALED };
	struct ib_reg_wr reg = {
		.wr = { .opcode = IB_WR_REG_MR, .next = &inv },
		.mr = b->mr,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			  IB_ACCESS_REMOTE_READ,
	};
	unsigned long end;
	struct ib_wc wc;
	int n;

	n = ib_map_mr_sg(b->mr, b->sg, pages, NULL, PAGE_SIZE);
	if (n != pages)
		return n < 0 ? n : -EIO;
	ib_update_fast_reg_key(b->mr, ib_inc_rkey(b->mr->rkey));
	reg.key = b->mr->rkey;
	inv.ex.invalidate_rkey = b->mr->rkey;
	n = ib_post_send(b->qp, &reg.wr, NULL);
	if (n)
		return n;
	end = jiffies + msecs_to_jiffies(FRB_TIMEOUT_MS);
	/*
	 * Between polls the CPU goes to whoever has work: rxe's requester and
	 * arbel's SYNC_TPT (kqp_fr.c) both run in work items.
	 */
	while (!(n = ib_poll_cq(b->cq, 1, &wc))) {
		if (time_after(jiffies, end))
			return -ETIMEDOUT;
		cond_resched();
	}
	if (n < 0)
		return n;
	if (wc.status != IB_WC_SUCCESS || wc.opcode != IB_WC_LOCAL_INV) {
		pr_err("fr_bench: %s: completion status %d opcode %d\n", dev,
		       wc.status, wc.opcode);
		return -EIO;
	}
	return 0;
}

static int __init frb_init(void)
{
	struct frb b = {};
	unsigned int i;
	u64 t0, ns;
	int err;

	if (!pages || !cycles)
		return -EINVAL;
	err = frb_setup(&b);
	for (i = 0; !err && i < FRB_WARMUP; i++)
		err = frb_cycle(&b);
	t0 = ktime_get_ns();
	for (i = 0; !err && i < cycles; i++)
		err = frb_cycle(&b);
	ns = ktime_get_ns() - t0;
	if (err)
		pr_err("fr_bench: %s: failed: %d\n", dev, err);
	else
		pr_info("fr_bench: %s: %u cycles of %u pages in %llu ns: %llu ns a cycle, %llu cycles/s\n",
			dev, cycles, pages, ns, div_u64(ns, cycles),
			div64_u64((u64)cycles * NSEC_PER_SEC, ns ?: 1));
	frb_teardown(&b);
	return err ?: -EAGAIN;
}
module_init(frb_init);

MODULE_DESCRIPTION("Fast-registration cycles per second of an RDMA device");
MODULE_LICENSE("GPL");
