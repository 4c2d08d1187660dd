// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for fast registration on arbel0 against arbel-stub (x86_64
 * in QEMU, with the kernel-verbs suite): ib_alloc_mr(), ib_map_mr_sg(),
 * IB_WR_REG_MR and IB_WR_LOCAL_INV as the kernel's storage and file
 * protocols use them, through the RDMA core's API only, and what the
 * stub's debug window counts (qemu/arbel-dbgwin.h).
 *
 * Expected values are the verbs' and the PRM's: the bytes a peer's RDMA
 * WRITE must leave through the region's two pages (patterns written
 * here), the work completion opcodes IBTA gives REG_MR and LOCAL_INV,
 * the remote access error (PRM syndrome 0x13) for a key no longer valid
 * with the target untouched -- also when the HCA's TPT cache held the
 * entry -- and the design's cost (Documentation/arbel.rst, "Fast
 * registration"): no command for a REG_MR, one SYNC_TPT for a LOCAL_INV.
 */

#include <kunit/test.h>
#include <linux/dma-mapping.h>
#include <linux/pci.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>

#include "arbel-dbgwin.h"
#include "kv.h"

#define KFR_PAGES	2
#define KFR_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ)

/* a region over two pages that are not next to each other */
struct kfr_ctx {
	struct page *pg[KFR_PAGES];
	struct page *gap;
	struct scatterlist sg[KFR_PAGES];
	bool mapped;
	struct ib_mr *mr;
	void __iomem *dbg;
};

static struct kfr_ctx *kfr(struct kv_ctx *c)
{
	return c->ext;
}

static u32 kfr_dbg(struct kv_ctx *c, u32 reg)
{
	return ioread32be(kfr(c)->dbg + reg);
}

static int kfr_init(struct kunit *test)
{
	struct kv_ctx *c;
	struct kfr_ctx *f;
	int i;

	kv_init(test);
	c = test->priv;
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	c->ext = f;
	f->dbg = pci_iomap_range(to_pci_dev(c->dev->dev.parent), 0,
				 ARBEL_DBG_BASE, ARBEL_DBG_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, f->dbg);
	KUNIT_ASSERT_EQ(test, ioread32be(f->dbg + ARBEL_DBG_ID),
			ARBEL_DBG_ID_VALUE);
	sg_init_table(f->sg, KFR_PAGES);
	for (i = 0; i < KFR_PAGES; i++) {
		f->pg[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, f->pg[i]);
		/* a page between, so that the two are not contiguous */
		if (!i) {
			f->gap = alloc_page(GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, f->gap);
		}
		sg_set_page(&f->sg[i], f->pg[i], PAGE_SIZE, 0);
	}
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(c->dev, f->sg, KFR_PAGES,
					    DMA_BIDIRECTIONAL), KFR_PAGES);
	f->mapped = true;
	f->mr = ib_alloc_mr(c->pd, IB_MR_TYPE_MEM_REG, KFR_PAGES);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f->mr), "ib_alloc_mr: %ld",
			       PTR_ERR(f->mr));
	return 0;
}

static void kfr_exit(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct kfr_ctx *f = c ? c->ext : NULL;
	int i;

	if (f) {
		/* the QPs go first: nothing may use the region after */
		if (c->a)
			ib_destroy_qp(c->a);
		if (c->b)
			ib_destroy_qp(c->b);
		c->a = NULL;
		c->b = NULL;
		if (!IS_ERR_OR_NULL(f->mr))
			ib_dereg_mr(f->mr);
		if (f->mapped)
			ib_dma_unmap_sg(c->dev, f->sg, KFR_PAGES,
					DMA_BIDIRECTIONAL);
		for (i = 0; i < KFR_PAGES; i++)
			if (f->pg[i])
				__free_page(f->pg[i]);
		if (f->gap)
			__free_page(f->gap);
		if (f->dbg)
			pci_iounmap(to_pci_dev(c->dev->dev.parent), f->dbg);
	}
	kv_exit(test);
}

/* the region's pages, all of them, from byte @off of the first */
static void kfr_map(struct kunit *test, struct kv_ctx *c, unsigned int off)
{
	struct kfr_ctx *f = kfr(c);
	unsigned int o = off;

	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(f->mr, f->sg, KFR_PAGES,
					   off ? &o : NULL, PAGE_SIZE),
			KFR_PAGES);
	KUNIT_ASSERT_EQ(test, f->mr->iova, sg_dma_address(&f->sg[0]) + off);
	KUNIT_ASSERT_EQ(test, f->mr->length, KFR_PAGES * PAGE_SIZE - off);
}

static void kfr_sync(struct kv_ctx *c, bool to_device)
{
	if (to_device)
		dma_sync_sg_for_device(c->dev->dma_device, kfr(c)->sg,
				       KFR_PAGES, DMA_BIDIRECTIONAL);
	else
		dma_sync_sg_for_cpu(c->dev->dma_device, kfr(c)->sg,
				    KFR_PAGES, DMA_BIDIRECTIONAL);
}

static void kfr_reg_wr(struct ib_reg_wr *wr, struct ib_mr *mr, u64 wr_id,
		       int access)
{
	*wr = (struct ib_reg_wr){
		.wr = { .wr_id = wr_id, .opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED },
		.mr = mr, .key = mr->rkey, .access = access,
	};
}

static void kfr_inv_wr(struct ib_send_wr *wr, u32 rkey, u64 wr_id)
{
	*wr = (struct ib_send_wr){ .wr_id = wr_id, .opcode = IB_WR_LOCAL_INV,
				   .send_flags = IB_SEND_SIGNALED,
				   .ex.invalidate_rkey = rkey };
}

/* a REG_MR of the region with key byte @key on QP a, completed */
static void kfr_reg(struct kunit *test, struct kv_ctx *c, u8 key)
{
	struct ib_reg_wr wr;
	struct ib_wc wc;

	ib_update_fast_reg_key(kfr(c)->mr, key);
	kfr_reg_wr(&wr, kfr(c)->mr, 100 + key, KFR_ACCESS);
	KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &wr.wr, NULL), 0);
	kv_poll(test, c, &wc, 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 100 + key);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_REG_MR);
}

/* a LOCAL_INV of @rkey on QP a, completed */
static void kfr_inv(struct kunit *test, struct kv_ctx *c, u32 rkey)
{
	struct ib_send_wr wr;
	struct ib_wc wc;

	kfr_inv_wr(&wr, rkey, 7);
	KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &wr, NULL), 0);
	kv_poll(test, c, &wc, 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 7);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_LOCAL_INV);
}

/*
 * The peer (QP b) writes @len bytes of c->buf[0] (pattern @seed) or reads
 * them into it, at @off in the region, with @rkey; the completion status.
 */
static enum ib_wc_status kfr_rdma(struct kunit *test, struct kv_ctx *c,
				  enum ib_wr_opcode op, u32 rkey, u64 off,
				  u32 len, u8 seed)
{
	struct ib_sge sge = { .addr = c->dma[0], .length = len,
			      .lkey = c->pd->local_dma_lkey };
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 9, .sg_list = &sge, .num_sge = 1,
			.opcode = op, .send_flags = IB_SEND_SIGNALED },
		.remote_addr = kfr(c)->mr->iova + off, .rkey = rkey,
	};
	struct ib_wc wc;

	kv_fill(c->buf[0], len, seed);
	kv_sync(c, 0, true);
	kfr_sync(c, true);
	KUNIT_EXPECT_EQ(test, ib_post_send(c->b, &wr.wr, NULL), 0);
	kv_poll(test, c, &wc, 1);
	kv_sync(c, 0, false);
	kfr_sync(c, false);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 9);
	return wc.status;
}

/* byte @off of the region (through the pages, not the HCA) */
static u8 *kfr_at(struct kv_ctx *c, u64 off)
{
	return page_address(kfr(c)->pg[off / PAGE_SIZE]) + off % PAGE_SIZE;
}

/* the region's pages from @off hold c->buf[0]'s first @len bytes */
static bool kfr_holds(struct kv_ctx *c, u64 off, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (*kfr_at(c, off + i) != ((u8 *)c->buf[0])[i])
			return false;
	return true;
}

/* what ib_alloc_mr() and ib_map_mr_sg() take, and what they refuse */
static void kfr_limits(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	const struct ib_device_attr *a = &c->dev->attrs;
	struct ib_mr *mr;

	KUNIT_EXPECT_TRUE(test, a->device_cap_flags &
				IB_DEVICE_MEM_MGT_EXTENSIONS);
	KUNIT_ASSERT_GT(test, a->max_fast_reg_page_list_len, 0);
	mr = ib_alloc_mr(c->pd, IB_MR_TYPE_MEM_REG,
			 a->max_fast_reg_page_list_len);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	mr = ib_alloc_mr(c->pd, IB_MR_TYPE_MEM_REG,
			 a->max_fast_reg_page_list_len + 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EINVAL);
	mr = ib_alloc_mr(c->pd, IB_MR_TYPE_MEM_REG, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EINVAL);
	mr = ib_alloc_mr(c->pd, IB_MR_TYPE_SG_GAPS, 2);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EINVAL);

	/* one page of room: the second is left over */
	mr = ib_alloc_mr(c->pd, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, kfr(c)->sg, KFR_PAGES, NULL,
					   PAGE_SIZE), 1);
	/* 2 KiB pages: the MPT's smallest is 4 KiB */
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, kfr(c)->sg, KFR_PAGES, NULL,
					   SZ_2K), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/*
 * A peer writes across the region's two pages and reads back; then the
 * owner invalidates the key while the HCA's TPT cache holds its entry,
 * and the peer's next write with it fails, the bytes untouched.
 */
static void kfr_write_inv(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	u32 hits, syncs;

	kv_rc_pair(test, c);
	kfr_map(test, c, 0);
	kfr_reg(test, c, 0x11);
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE,
				       kfr(c)->mr->rkey, PAGE_SIZE - 256, 512,
				       3), IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, kfr_holds(c, PAGE_SIZE - 256, 512));
	hits = kfr_dbg(c, ARBEL_DBG_TPT_HITS);
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_READ,
				       kfr(c)->mr->rkey, PAGE_SIZE - 256, 512,
				       99), IB_WC_SUCCESS);
	/* the read found the entry in the cache, and brought the bytes */
	KUNIT_EXPECT_GT(test, kfr_dbg(c, ARBEL_DBG_TPT_HITS), hits);
	KUNIT_EXPECT_TRUE(test, kfr_holds(c, PAGE_SIZE - 256, 512));

	syncs = kfr_dbg(c, ARBEL_DBG_TPT_SYNCS);
	kfr_inv(test, c, kfr(c)->mr->rkey);
	KUNIT_EXPECT_EQ(test, kfr_dbg(c, ARBEL_DBG_TPT_SYNCS), syncs + 1);
	memset(kfr_at(c, 0), 0x5a, 64);
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE,
				       kfr(c)->mr->rkey, 0, 64, 8),
			IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_NULL(test, memchr_inv(kfr_at(c, 0), 0x5a, 64));

	/*
	 * The refused write made the HCA read the invalid entry: registered
	 * again (no SYNC_TPT), the region works at once under its new key.
	 */
	ib_destroy_qp(c->a);
	ib_destroy_qp(c->b);
	c->a = NULL;
	c->b = NULL;
	kv_rc_pair(test, c);
	kfr_reg(test, c, 0x12);
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE,
				       kfr(c)->mr->rkey, 0, 64, 10),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, kfr_holds(c, 0, 64));
}

/* the region again under the next key byte: the old key is refused */
static void kfr_key_rotation(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	u32 old;

	kv_rc_pair(test, c);
	kfr_map(test, c, 0);
	kfr_reg(test, c, 0xfe);
	old = kfr(c)->mr->rkey;
	KUNIT_EXPECT_EQ(test, old & 0xff, 0xfe);
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE, old, 0, 32,
				       1), IB_WC_SUCCESS);
	kfr_inv(test, c, old);
	kfr_reg(test, c, 0xff);
	KUNIT_EXPECT_EQ(test, kfr(c)->mr->rkey, (old & ~0xffU) | 0xff);
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE,
				       kfr(c)->mr->rkey, 64, 32, 2),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, kfr_holds(c, 64, 32));
	memset(kfr_at(c, 128), 0x5a, 32);
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE, old, 128,
				       32, 3), IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_NULL(test, memchr_inv(kfr_at(c, 128), 0x5a, 32));
}

/*
 * LOCAL_INV and REG_MR of the same region in one post: they complete in
 * order, and the REG_MR behind the LOCAL_INV waits for its SYNC_TPT.
 */
static void kfr_chain(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct ib_send_wr inv;
	struct ib_reg_wr reg;
	struct ib_wc wc[2];
	u32 old;

	kv_rc_pair(test, c);
	kfr_map(test, c, 0);
	kfr_reg(test, c, 1);
	old = kfr(c)->mr->rkey;
	kfr_inv_wr(&inv, old, 1);
	ib_update_fast_reg_key(kfr(c)->mr, 2);
	kfr_reg_wr(&reg, kfr(c)->mr, 2, KFR_ACCESS);
	inv.next = &reg.wr;
	KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &inv, NULL), 0);
	kv_poll(test, c, wc, 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc[1].opcode, IB_WC_REG_MR);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE,
				       kfr(c)->mr->rkey, 0, 32, 4),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, kfr_holds(c, 0, 32));
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE, old, 0, 32,
				       5), IB_WC_REM_ACCESS_ERR);
}

/* the first byte at an offset in the first page: the MPT's start */
static void kfr_offset(struct kunit *test)
{
	struct kv_ctx *c = test->priv;

	kv_rc_pair(test, c);
	kfr_map(test, c, 100);
	kfr_reg(test, c, 3);
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE,
				       kfr(c)->mr->rkey, 0, 16, 6),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, kfr_holds(c, 100, 16));
	/* the region's last byte is the second page's last */
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE,
				       kfr(c)->mr->rkey,
				       KFR_PAGES * PAGE_SIZE - 100 - 8, 8, 7),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, kfr_holds(c, KFR_PAGES * PAGE_SIZE - 8, 8));
	/* and one byte further is outside it */
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE,
				       kfr(c)->mr->rkey,
				       KFR_PAGES * PAGE_SIZE - 100 - 8, 9, 8),
			IB_WC_REM_ACCESS_ERR);
}

/* requests the region or the QP cannot take are refused, nothing posted */
static void kfr_refused(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	const struct ib_send_wr *bad;
	struct ib_send_wr inv;
	struct ib_reg_wr reg;
	struct ib_mr *other;
	struct ib_pd *pd2;
	struct ib_wc wc;
	u32 key;

	kv_rc_pair(test, c);
	kfr_map(test, c, 0);
	key = kfr(c)->mr->rkey;
	/* remote write without local write (IBTA's rule) */
	kfr_reg_wr(&reg, kfr(c)->mr, 1, IB_ACCESS_REMOTE_WRITE);
	KUNIT_EXPECT_EQ(test, ib_post_send(c->a, &reg.wr, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_send_wr *)&reg.wr);
	/* a key that changes more than its low byte */
	kfr_reg_wr(&reg, kfr(c)->mr, 2, KFR_ACCESS);
	reg.key = key ^ 0x100;
	KUNIT_EXPECT_EQ(test, ib_post_send(c->a, &reg.wr, &bad), -EINVAL);
	/* a region of another PD */
	pd2 = ib_alloc_pd(c->dev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd2));
	other = ib_alloc_mr(pd2, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(other, kfr(c)->sg, 1, NULL,
					   PAGE_SIZE), 1);
	kfr_reg_wr(&reg, other, 3, KFR_ACCESS);
	KUNIT_EXPECT_EQ(test, ib_post_send(c->a, &reg.wr, &bad), -EINVAL);
	kfr_inv_wr(&inv, other->rkey, 4);
	KUNIT_EXPECT_EQ(test, ib_post_send(c->a, &inv, &bad), -EINVAL);
	/* a key no region has */
	kfr_inv_wr(&inv, key ^ 0x100, 5);
	KUNIT_EXPECT_EQ(test, ib_post_send(c->a, &inv, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(c->cq, 1, &wc), 0);

	/* none of it changed the region: it registers, once */
	kfr_reg(test, c, 9);
	kfr_reg_wr(&reg, kfr(c)->mr, 6, KFR_ACCESS);
	KUNIT_EXPECT_EQ(test, ib_post_send(c->a, &reg.wr, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(c->cq, 1, &wc), 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(other), 0);
	ib_dealloc_pd(pd2);
}

/*
 * The cost the stub counts: a REG_MR is no command, a LOCAL_INV one
 * SYNC_TPT; deregistering an invalid region is none.
 */
static void kfr_cost(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	u32 cmds, syncs, i;

	kv_rc_pair(test, c);
	kfr_map(test, c, 0);
	cmds = kfr_dbg(c, ARBEL_DBG_CMD_COUNT);
	syncs = kfr_dbg(c, ARBEL_DBG_TPT_SYNCS);
	for (i = 0; i < 16; i++) {
		kfr_reg(test, c, i);
		kfr_inv(test, c, kfr(c)->mr->rkey);
	}
	KUNIT_EXPECT_EQ(test, kfr_dbg(c, ARBEL_DBG_TPT_SYNCS), syncs + 16);
	KUNIT_EXPECT_EQ(test, kfr_dbg(c, ARBEL_DBG_CMD_COUNT), cmds + 16);
	cmds = kfr_dbg(c, ARBEL_DBG_CMD_COUNT);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(kfr(c)->mr), 0);
	kfr(c)->mr = NULL;
	KUNIT_EXPECT_EQ(test, kfr_dbg(c, ARBEL_DBG_CMD_COUNT), cmds);
}

/*
 * SEND_WITH_INV goes as a SEND (no sourced opcode): the receiver gets no
 * IB_WC_WITH_INVALIDATE, and its region stays valid until it invalidates
 * it itself.
 */
static void kfr_send_inv(struct kunit *test)
{
	struct kv_ctx *c = test->priv;
	struct ib_sge sge = { .addr = c->dma[0], .length = 32,
			      .lkey = c->pd->local_dma_lkey };
	struct ib_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1,
				 .opcode = IB_WR_SEND_WITH_INV,
				 .send_flags = IB_SEND_SIGNALED };
	struct ib_wc wc[2], *w;

	kv_rc_pair(test, c);
	kfr_map(test, c, 0);
	kfr_reg(test, c, 5);
	wr.ex.invalidate_rkey = kfr(c)->mr->rkey;
	kv_post_recv(test, c, c->b, 0, 64, 2);
	KUNIT_ASSERT_EQ(test, ib_post_send(c->a, &wr, NULL), 0);
	kv_poll(test, c, wc, 2);
	w = kv_find(test, wc, 2, 1);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_SEND);
	w = kv_find(test, wc, 2, 2);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_RECV);
	KUNIT_EXPECT_FALSE(test, w->wc_flags & IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, kfr_rdma(test, c, IB_WR_RDMA_WRITE,
				       kfr(c)->mr->rkey, 0, 16, 9),
			IB_WC_SUCCESS);
	kfr_inv(test, c, kfr(c)->mr->rkey);
}

static struct kunit_case kfr_cases[] = {
	KUNIT_CASE(kfr_limits),
	KUNIT_CASE(kfr_write_inv),
	KUNIT_CASE(kfr_key_rotation),
	KUNIT_CASE(kfr_chain),
	KUNIT_CASE(kfr_offset),
	KUNIT_CASE(kfr_refused),
	KUNIT_CASE(kfr_cost),
	KUNIT_CASE(kfr_send_inv),
	{}
};

static struct kunit_suite arbel_kfr_suite = {
	.name = "arbel_kfr",
	.init = kfr_init,
	.exit = kfr_exit,
	.test_cases = kfr_cases,
};

kunit_test_suites(&arbel_kfr_suite);
