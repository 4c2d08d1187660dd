// SPDX-License-Identifier: GPL-2.0-only
/*
 * Handing a kernel QP's posted send WQEs to the HCA: the send record
 * publishes the count, the send doorbell names the first WQE's opcode and
 * size, at most 255 WQEs a doorbell (the counter field's width).  Used
 * by posting (kqp.c) and by the fast-registration work that holds a send
 * queue back (kqp_fr.c).
 */

#include "arbel.h"
#include "queue.h"

/* WQEs one send doorbell may count */
#define ARBEL_SEND_DB_MAX	255

/**
 * arbel_kqp_hand() - hand posted send WQEs to the HCA
 * @adev: the HCA
 * @qp: the QP
 * @end: the WQEs before this count go (@qp->sq.hw_head moves to it)
 *
 * Publishes the count in the send record and rings the send doorbell with
 * the first WQE's opcode and size, at most 255 WQEs a doorbell.
 *
 * Context: any (the send queue's lock held).
 */
void arbel_kqp_hand(struct arbel_dev *adev, struct arbel_qp *qp, u32 end)
{
	struct arbel_kwq *sq = &qp->sq;
	const struct arbel_ksend *first;
	__be32 db[2];
	u32 n;

	while (sq->hw_head != end) {
		n = min_t(u32, end - sq->hw_head, ARBEL_SEND_DB_MAX);
		first = &sq->send[sq->hw_head & (sq->max - 1)];
		/* the WQEs are written before the record counts them */
		wmb();
		sq->rec[0] = cpu_to_be32((sq->hw_head + n) & 0xffff);
		/* and the record before the doorbell */
		wmb();
		arbel_send_db(db, sq->hw_head & 0xffff, n, first->op,
			      first->fence, first->size16, qp->hw.qpn);
		arbel_uar_write64(adev, db, ARBEL_UAR_SEND_DB);
		sq->hw_head += n;
	}
}
