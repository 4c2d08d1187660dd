/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The queues: completion queues (cq.c), queue pairs (qp.c), shared
 * receive queues (srq.c), the user doorbell pages they share (db.c), and
 * the events the EQ hands them (event.c).  A user queue's buffers and
 * doorbell records live in the process, laid out by libmthca; the driver
 * gives it a number, a context and the firmware commands.  A kernel
 * queue's are the driver's (kq.h), and so are its post and poll verbs.
 */
#ifndef _ARBEL_QUEUE_H
#define _ARBEL_QUEUE_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

#include <arbel/eqe.h>
#include <arbel/qctx.h>
#include "compat.h"
#include "kq.h"

struct arbel_dev;

/* QPs kept after the firmware's reserved ones for the special QPs */
#define ARBEL_SPECIAL_QPS	8

/**
 * struct arbel_db_page - one user doorbell page mapped into the UAR context
 * @uaddr: its address in the process
 * @umem: the pinned page
 * @refcount: doorbell records in use on it
 */
struct arbel_db_page {
	u64 uaddr;
	struct ib_umem *umem;
	u32 refcount;
};

/**
 * struct arbel_db_table - a user context's doorbell pages
 * @lock: serialises map and unmap
 * @uar: the context's UAR: the pages sit in its UAR context
 * @npages: pages the UAR context holds
 * @page: one per page of the UAR context
 */
struct arbel_db_table {
	struct mutex lock;	/* @page */
	u32 uar;
	u32 npages;
	struct arbel_db_page page[];
};

/**
 * struct arbel_cq - a completion queue
 * @ibcq: core object
 * @cqn: its number
 * @set_ci_db: consumer-counter doorbell record
 * @arm_db: arm doorbell record
 * @db: the context's doorbell pages holding both (NULL: a kernel CQ)
 * @mutex: serialises resizes
 * @arm_sn: completion events seen (mod 4), which an arm must name
 * @buf: a kernel CQ's CQEs
 * @lock: serialises a kernel CQ's polling, arming and cleaning
 * @cons_index: CQEs a kernel CQ's consumer took
 * @set_ci_rec: its consumer-counter record
 * @arm_rec: its arm record
 * @sq_qps: kernel QPs whose send queue completes here (under @lock)
 * @rq_qps: kernel QPs whose receive queue (not an SRQ) completes here
 */
struct arbel_cq {
	struct ib_cq ibcq;
	u32 cqn;
	u32 set_ci_db;
	u32 arm_db;
	struct arbel_db_table *db;
	struct mutex mutex;	/* resize */
	u8 arm_sn;
	struct arbel_kbuf buf;
	spinlock_t lock;	/* kernel CQ: polling, @sq_qps, @rq_qps */
	u32 cons_index;
	__be32 *set_ci_rec;
	__be32 *arm_rec;
	struct list_head sq_qps;
	struct list_head rq_qps;
};

/**
 * struct arbel_srq - a shared receive queue
 * @ibsrq: core object
 * @srqn: its number
 * @max: WQEs (a power of two; one is kept empty)
 * @max_gs: scatter entries per WQE
 * @db_index: doorbell record
 * @db: the context's doorbell pages (NULL: a kernel SRQ)
 * @buf: a kernel SRQ's WQEs
 * @lock: serialises a kernel SRQ's posting and freeing
 * @shift: log2 of its stride
 * @first_free: its first free WQE (the free list runs through the WQEs)
 * @last_free: its last free WQE
 * @counter: WQEs posted
 * @rec: its doorbell record
 * @wrid: the work request ID of each WQE
 */
struct arbel_srq {
	struct ib_srq ibsrq;
	u32 srqn;
	u32 max;
	u32 max_gs;
	u32 db_index;
	struct arbel_db_table *db;
	struct arbel_kbuf buf;
	spinlock_t lock;	/* kernel SRQ: the free list */
	u8 shift;
	int first_free;
	int last_free;
	u32 counter;
	__be32 *rec;
	u64 *wrid;
};

/**
 * struct arbel_qp - a queue pair
 * @ibqp: core object
 * @hw: what every transition's context carries
 * @sz: its work queues
 * @state: the state the last transition left
 * @mutex: serialises transitions and queries
 * @db: the context's doorbell pages holding the two records (NULL: a
 *	kernel QP)
 * @buf: a kernel QP's WQEs (receive queue, send queue, MLX headers)
 * @sq: a kernel QP's send queue
 * @rq: a kernel QP's receive queue
 * @hdr_base: offset of the MLX headers in @buf (special QPs)
 * @sqp_psn: next PSN of a special QP's sends
 * @qkey: a special QP's Q_Key (for a work request's high Q_Key)
 * @pkey_index: QP0's P_Key index
 * @fr_work: runs a kernel QP's send queue from a LOCAL_INV that waits for
 *	     its SYNC_TPT (kqp_fr.c)
 * @scq_node: a kernel QP in its send CQ's @sq_qps
 * @rcq_node: a kernel QP in its receive CQ's @rq_qps
 */
struct arbel_qp {
	struct ib_qp ibqp;
	struct list_head scq_node;
	struct list_head rcq_node;
	struct arbel_qp_static hw;
	struct arbel_wq_sizes sz;
	enum ib_qp_state state;
	struct mutex mutex;	/* transitions */
	struct arbel_db_table *db;
	struct arbel_kbuf buf;
	struct arbel_kwq sq;
	struct arbel_kwq rq;
	u32 hdr_base;
	u32 sqp_psn;
	u32 qkey;
	u16 pkey_index;
	struct work_struct fr_work;
};

static inline struct arbel_cq *to_acq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct arbel_cq, ibcq);
}

static inline struct arbel_qp *to_aqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct arbel_qp, ibqp);
}

static inline struct arbel_srq *to_asrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct arbel_srq, ibsrq);
}

/* db.c */
struct arbel_db_table *arbel_db_table_alloc(u32 uar, u32 uarc_size);
void arbel_db_table_free(struct arbel_dev *adev, struct arbel_db_table *t);
int arbel_db_map(struct arbel_dev *adev, struct ib_device *ibdev,
		 struct arbel_db_table *t, u32 index, u64 uaddr);
void arbel_db_unmap(struct arbel_dev *adev, struct arbel_db_table *t,
		    u32 index);

/* cq.c */
int arbel_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct arbel_cq_attrs *attrs);
int arbel_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int arbel_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata);

/* kcq.c */
int arbel_kcq_create(struct arbel_dev *adev, struct arbel_cq *cq, u32 nent);
int arbel_kcq_destroy(struct arbel_dev *adev, struct arbel_cq *cq);
int arbel_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int arbel_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
void arbel_kcq_clean(struct arbel_cq *cq, u32 qpn, struct arbel_srq *srq);
void arbel_kcq_track(struct arbel_qp *qp, bool add);
void arbel_kq_fatal(struct arbel_dev *adev);

/* kqp.c, mlx.c */
int arbel_kqp_create(struct arbel_dev *adev, struct arbel_qp *qp,
		     struct ib_qp_init_attr *init);
void arbel_kqp_free(struct arbel_dev *adev, struct arbel_qp *qp);
void arbel_kqp_reset(struct arbel_qp *qp);
void arbel_kqp_reset_wq(struct arbel_kwq *wq);
int arbel_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr);
int arbel_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr);
void arbel_drain_rq(struct ib_qp *ibqp);
int arbel_mlx_build(struct arbel_dev *adev, struct arbel_qp *qp, u32 ind,
		    const struct ib_ud_wr *wr, void *wqe, u32 *size);

/* ksend.c */
void arbel_kqp_hand(struct arbel_dev *adev, struct arbel_qp *qp, u32 end);

/* kqp_fr.c */
int arbel_kqp_fr_wqe(struct arbel_qp *qp, const struct ib_send_wr *wr,
		     struct arbel_ksend *s, void *wqe, bool stalled);
void arbel_kqp_fr_init(struct arbel_qp *qp);
int arbel_kqp_fr_wq_init(void);
void arbel_kqp_fr_wq_exit(void);
extern struct workqueue_struct *arbel_fr_wq;

/* ksrq.c */
int arbel_ksrq_create(struct arbel_dev *adev, struct arbel_srq *srq);
void arbel_ksrq_free(struct arbel_dev *adev, struct arbel_srq *srq);
void arbel_ksrq_free_wqe(struct arbel_srq *srq, u32 wqe_addr);
int arbel_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			const struct ib_recv_wr **bad_wr);

/* srq.c */
int arbel_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		     struct ib_udata *udata);
int arbel_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		     enum ib_srq_attr_mask mask, struct ib_udata *udata);
int arbel_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int arbel_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);

/* qp.c */
int arbel_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		    struct ib_udata *udata);
int arbel_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		    struct ib_udata *udata);
int arbel_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_qp_init_attr *init);
int arbel_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
u32 arbel_max_rd_atom(struct arbel_dev *adev);

/* mcg.c */
int arbel_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
int arbel_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
void arbel_mcg_init(struct arbel_dev *adev);
void arbel_mcg_cleanup(struct arbel_dev *adev);

/* event.c */
void arbel_queue_event(struct arbel_dev *adev,
		       const struct arbel_eqe_info *info);
void arbel_queue_forget(struct arbel_dev *adev, struct xarray *xa, u32 n);
void arbel_queues_init(struct arbel_dev *adev);
void arbel_queues_cleanup(struct arbel_dev *adev);

#endif /* _ARBEL_QUEUE_H */
