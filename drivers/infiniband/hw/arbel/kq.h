/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel queues: their buffers and doorbell records (kbuf.c), the
 * kernel's UAR, and what kernel CQs (kcq.c), QPs (kqp.c, with the special
 * QPs' MLX sends in mlx.c), SRQs (ksrq.c) and address handles (ah.c) keep
 * beside what every queue has (queue.h).
 */
#ifndef _ARBEL_KQ_H
#define _ARBEL_KQ_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <rdma/ib_umem.h>

#include <arbel/wqe.h>
#include "mr.h"

struct arbel_dev;

/* doorbell pages the kernel's UAR context may hold */
#define ARBEL_KDB_PAGES		8
/* MLX headers a special QP's send WQE points at (LRH, GRH, BTH, DETH) */
#define ARBEL_MLX_HDR_SIZE	128

/**
 * struct arbel_kbuf - a kernel queue's buffer
 * @page: CPU address of each page
 * @npages: pages
 * @umem: the pages' DMA addresses as the MR layer reads a region (pins
 *	  nothing)
 * @mr: its region: lkey, zero-based
 */
struct arbel_kbuf {
	void **page;
	u32 npages;
	struct ib_umem umem;
	struct arbel_mr_hw mr;
};

/* the CPU address of byte @off of @buf (an entry never crosses a page) */
static inline void *arbel_kbuf_at(const struct arbel_kbuf *buf, u32 off)
{
	return buf->page[off >> PAGE_SHIFT] + (off & ~PAGE_MASK);
}

/**
 * struct arbel_kdb_page - a page of kernel doorbell records
 * @buf: the records (two big-endian dwords each), NULL while not mapped
 * @dma: its bus address
 * @used: records taken
 */
struct arbel_kdb_page {
	__be32 *buf;
	dma_addr_t dma;
	DECLARE_BITMAP(used, ARBEL_ICM_PAGE_SIZE / ARBEL_DBREC_SIZE);
};

/**
 * struct arbel_kq - what kernel queues share
 * @uar: the kernel's UAR page
 * @uar_map: it, mapped: the send and CQ doorbells
 * @sqp_base: the first special QP (QP0 of port 1; QP1 of port 1 is +2)
 * @db_lock: serialises taking doorbell records
 * @db_npages: doorbell pages the UAR context has room for
 * @db: the doorbell pages
 */
struct arbel_kq {
	u32 uar;
	void __iomem *uar_map;
	u32 sqp_base;
	struct mutex db_lock;	/* @db */
	u32 db_npages;
	struct arbel_kdb_page db[ARBEL_KDB_PAGES];
};

/**
 * struct arbel_kwq - one work queue of a kernel QP (or an SRQ's)
 * @lock: serialises posting (and, for the send queue, polling's tail)
 * @head: WQEs posted
 * @tail: WQEs completed
 * @last_comp: index of the last WQE a CQE reported
 * @max: WQEs (a power of two)
 * @max_gs: gather or scatter entries per WQE
 * @shift: log2 of the stride
 * @base: offset of the queue in the buffer
 * @rec: the doorbell record
 * @rec_index: its index in the kernel's UAR context
 * @prev: the last WQE posted (send: its next segment links the new one)
 * @wrid: the work request ID of each WQE
 * @hw_head: send queue: WQEs handed to the HCA (its doorbell rung); behind
 *	     @head while a LOCAL_INV waits for its SYNC_TPT (kqp_fr.c)
 * @send: send queue: what each WQE was posted as
 * @gen: resets of the queue (a LOCAL_INV's work, back from SYNC_TPT,
 *	 finds the queue started again)
 */
struct arbel_kwq {
	spinlock_t lock;	/* posting */
	u32 head;
	u32 tail;
	u32 last_comp;
	u32 max;
	u32 max_gs;
	u8 shift;
	u32 base;
	__be32 *rec;
	int rec_index;
	void *prev;
	u64 *wrid;
	u32 hw_head;
	struct arbel_ksend *send;
	u32 gen;
};

/* what a send WQE stands for beside its opcode (struct arbel_ksend) */
enum arbel_kfr {
	ARBEL_KFR_NONE,
	ARBEL_KFR_REG,		/* a NOP: the driver executes an IB_WR_REG_MR */
	ARBEL_KFR_INV,		/* a NOP: the driver executes an IB_WR_LOCAL_INV */
};

/**
 * struct arbel_ksend - what a kernel QP's send WQE was posted as
 * @op: its opcode (a doorbell that starts at it carries it)
 * @size16: its size in 16-byte units
 * @fence: its fence bit
 * @fr: enum arbel_kfr
 * @key: %ARBEL_KFR_REG: the region's new key
 * @access: %ARBEL_KFR_REG: its access flags
 * @mr: %ARBEL_KFR_REG, %ARBEL_KFR_INV: the region
 */
struct arbel_ksend {
	u8 op;
	u8 size16;
	u8 fence;
	u8 fr;
	u32 key;
	int access;
	struct arbel_mr *mr;
};

/**
 * struct arbel_ah - an address handle
 * @ibah: core object
 * @av: the address vector a UD or MLX WQE copies
 * @sgid_index: the source GID's index (for an MLX GRH)
 */
struct arbel_ah {
	struct ib_ah ibah;
	struct arbel_av av;
	u8 sgid_index;
};

static inline struct arbel_ah *to_aah(struct ib_ah *ibah)
{
	return container_of(ibah, struct arbel_ah, ibah);
}

/* kbuf.c */
int arbel_kbuf_alloc(struct arbel_dev *adev, struct arbel_kbuf *buf,
		     size_t size, u32 pdn);
void arbel_kbuf_free_pages(struct arbel_dev *adev, struct arbel_kbuf *buf);
void arbel_kbuf_free(struct arbel_dev *adev, struct arbel_kbuf *buf);
int arbel_kdb_alloc(struct arbel_dev *adev, enum arbel_dbrec_type type,
		    u32 num, __be32 **rec);
void arbel_kdb_free(struct arbel_dev *adev, u32 index);
int arbel_kq_init(struct arbel_dev *adev);
void arbel_kq_cleanup(struct arbel_dev *adev);
void arbel_uar_write64(struct arbel_dev *adev, const __be32 db[2], u32 off);

/* ah.c */
int arbel_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		    struct ib_udata *udata);
int arbel_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int arbel_destroy_ah(struct ib_ah *ibah, u32 flags);

#endif /* _ARBEL_KQ_H */
