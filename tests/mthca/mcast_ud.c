// SPDX-License-Identifier: GPL-2.0
/*
 * mcast_ud: UD multicast through the device's multicast group table, with
 * stock libibverbs, for the traffic stages.
 *
 *   mcast_ud DEV [PORT_B]
 *
 * Four UD QPs on DEV: S sends from port 1; A (port 1), B (PORT_B, default
 * 2; 1 on a device of one port) and C (port 1) receive.  Groups (MGIDs, ff12::/16: link-local multicast):
 *   G1 ff12:401b:abcd:0:0:0:0:1    A and B
 *   G2 G1 with bytes 4..7 XOR 00:01:00:01    C
 *   G3 G1 with bytes 4..7 XOR 00:02:00:02    A
 * arbel-stub's MGID_HASH XORs the GID's four big-endian dwords and folds
 * the upper 16 bits onto the lower (Documentation/arbel-stub.rst
 * "Multicast"): XOR-ing 0x00010001 into one dword changes neither half
 * after the fold, so G1, G2 and G3 share one hash table entry and the
 * driver has to chain G2 and G3 behind G1 (the AMGM).
 *
 * S sends to each group's multicast LID with a GRH whose DGID is the
 * group; each member gets the payload (after the 40-byte GRH area, whose
 * DGID is checked) and no other QP gets anything.  Then: a multicast LID
 * without a GRH reaches nobody, a group with no member reaches nobody,
 * G1 emptied (its hash entry then holds G2, relinked by the driver)
 * reaches nobody while G2 and G3 still reach theirs, and the sender's own
 * QP attached to a group gets its own packet (the kernel's IPoIB receive
 * path drops the copies "the HCA has replicated").  KTAP on stdout; exit 1 if a test
 * failed, 2 if the set-up failed.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

#include "ktap.h"

#define QKEY		0x11111111
#define MCAST_QPN	0xffffff
#define GRH_LEN		40
#define GRH_DGID	24
#define MSG_LEN		64
#define SLOT		(GRH_LEN + MSG_LEN)
#define NRECV		4
#define GRACE_MS	300

enum { S, A, B, C, NQP };

static const char *const qp_name[NQP] = { "S", "A", "B", "C" };
static int qp_port[NQP] = { 1, 1, 2, 1 };

struct ep {
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;		/* NRECV receive slots, then the send slot */
	int got;		/* receives seen in the current round */
	int bad;		/* ... of them with a wrong payload or DGID */
};

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *scq, *rcq;
static struct ep ep[NQP];
static uint32_t seq;

static void gid_of(union ibv_gid *g, unsigned int n)
{
	static const uint8_t g1[16] = {
		0xff, 0x12, 0x40, 0x1b, 0xab, 0xcd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	};

	memcpy(g->raw, g1, 16);
	if (n == 2 || n == 3) {		/* 00:0n:00:0n into bytes 4..7 */
		g->raw[5] ^= n - 1;
		g->raw[7] ^= n - 1;
	} else if (n == 4) {		/* a group no QP joins */
		g->raw[15] = 4;
	}
}

static uint16_t mlid_of(unsigned int n)
{
	return 0xc000 + n;
}

static int post_recv(struct ep *e, unsigned int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(e->buf + slot * SLOT),
		.length = SLOT, .lkey = e->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge,
				  .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(e->qp, &wr, &bad);
}

static int to_rts(struct ibv_qp *qp, int port)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = port,
		.qkey = QKEY,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY))
		return -1;
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		return -1;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

static int setup(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 4, .max_recv_wr = NRECV,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	unsigned int i, j;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!ctx)
		return -1;
	pd = ibv_alloc_pd(ctx);
	scq = pd ? ibv_create_cq(ctx, 16, NULL, NULL, 0) : NULL;
	rcq = scq ? ibv_create_cq(ctx, 64, NULL, NULL, 0) : NULL;
	if (!rcq)
		return -1;
	ia.send_cq = scq;
	ia.recv_cq = rcq;
	for (i = 0; i < NQP; i++) {
		ep[i].buf = calloc(NRECV + 1, SLOT);
		ep[i].mr = ep[i].buf ? ibv_reg_mr(pd, ep[i].buf,
						  (NRECV + 1) * SLOT,
						  IBV_ACCESS_LOCAL_WRITE) : NULL;
		ep[i].qp = ep[i].mr ? ibv_create_qp(pd, &ia) : NULL;
		if (!ep[i].qp || to_rts(ep[i].qp, qp_port[i]))
			return -1;
		for (j = 0; j < NRECV; j++)
			if (post_recv(&ep[i], j))
				return -1;
	}
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static struct ep *ep_of_qpn(uint32_t qpn)
{
	unsigned int i;

	for (i = 0; i < NQP; i++)
		if (ep[i].qp->qp_num == qpn)
			return &ep[i];
	return NULL;
}

/* one receive completion: its QP's count, its bytes checked */
static void take(const struct ibv_wc *wc, const union ibv_gid *dgid)
{
	struct ep *e = ep_of_qpn(wc->qp_num);
	uint8_t *slot, want[MSG_LEN];

	if (!e)
		return;
	slot = e->buf + wc->wr_id * SLOT;
	memset(want, seq & 0xff, sizeof(want));
	e->got++;
	if (wc->status != IBV_WC_SUCCESS || wc->byte_len != SLOT ||
	    !(wc->wc_flags & IBV_WC_GRH) ||
	    memcmp(slot + GRH_DGID, dgid->raw, 16) ||
	    memcmp(slot + GRH_LEN, want, MSG_LEN))
		e->bad++;
	memset(slot, 0, SLOT);
	post_recv(e, wc->wr_id);
}

/*
 * S sends one packet to group @n (or, @grh false, to its LID only); the
 * receives it causes, counted per QP.  Returns the send's status, -1 if
 * the send did not complete.
 */
static int send_round(unsigned int n, bool grh)
{
	struct ibv_ah_attr aa = {
		.dlid = mlid_of(n), .port_num = 1, .is_global = grh,
		.grh = { .sgid_index = 0, .hop_limit = 1 },
	};
	struct ep *s = &ep[S];
	uint8_t *out = s->buf + NRECV * SLOT;
	struct ibv_sge sge = { .addr = (uintptr_t)out, .length = MSG_LEN,
			       .lkey = s->mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.ud = { .remote_qpn = MCAST_QPN, .remote_qkey = QKEY },
	}, *bad;
	union ibv_gid dgid;
	struct ibv_wc wc;
	int status = -1;
	unsigned int i;
	double end;

	gid_of(&dgid, n);
	aa.grh.dgid = dgid;
	for (i = 0; i < NQP; i++)
		ep[i].got = ep[i].bad = 0;
	seq++;
	memset(out, seq & 0xff, MSG_LEN);
	wr.wr.ud.ah = ibv_create_ah(pd, &aa);
	if (!wr.wr.ud.ah || ibv_post_send(s->qp, &wr, &bad))
		goto out;
	end = now_ms() + 5000;
	while (status < 0 && now_ms() < end)
		if (ibv_poll_cq(scq, 1, &wc) == 1)
			status = wc.status;
	end = now_ms() + GRACE_MS;
	while (now_ms() < end)
		if (ibv_poll_cq(rcq, 1, &wc) == 1)
			take(&wc, &dgid);
out:
	if (wr.wr.ud.ah)
		ibv_destroy_ah(wr.wr.ud.ah);
	return status;
}

/* @members: a bit per QP that must get the packet, once, intact */
static void expect(const char *what, unsigned int n, bool grh,
		   unsigned int members)
{
	char got[64] = "";
	int status = send_round(n, grh);
	bool ok = status == IBV_WC_SUCCESS;
	unsigned int i;

	for (i = 0; i < NQP; i++) {
		int want = !!(members & 1u << i);

		if (ep[i].got)
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 " %s:%d%s", qp_name[i], ep[i].got,
				 ep[i].bad ? "(bad)" : "");
		ok &= ep[i].got == want && !ep[i].bad;
	}
	ktap_test_check(ok, what, "send status %d, received by:%s", status,
			got[0] ? got : " none");
}

static int attach(unsigned int q, unsigned int n, bool on)
{
	union ibv_gid g;

	gid_of(&g, n);
	return on ? ibv_attach_mcast(ep[q].qp, &g, mlid_of(n)) :
		    ibv_detach_mcast(ep[q].qp, &g, mlid_of(n));
}

int main(int argc, char **argv)
{
	int err;

	ktap_print_header();
	if (argc == 3)
		qp_port[B] = atoi(argv[2]);
	if (argc < 2 || argc > 3 || setup(argv[1]))
		ktap_exit_fail_msg("set-up on %s failed: %s",
				   argc >= 2 ? argv[1] : "?", strerror(errno));
	err = attach(A, 1, true) ?: attach(B, 1, true) ?:
	      attach(C, 2, true) ?: attach(A, 3, true);
	ktap_test_check(!err, "attach: A, B to G1, C to G2, A to G3 (one hash "
			"entry, chained)", "ibv_attach_mcast: %s",
			strerror(err));
	expect("G1: A and B (on their ports), nobody else", 1, true,
	       1u << A | 1u << B);
	expect("G2, second in the chain: C only", 2, true, 1u << C);
	expect("G3, third in the chain: A only", 3, true, 1u << A);
	expect("G1's LID without a GRH: nobody", 1, false, 0);
	expect("G4, no member: nobody", 4, true, 0);
	err = attach(A, 1, false) ?: attach(B, 1, false);
	ktap_test_check(!err, "detach: A and B from G1", "ibv_detach_mcast: %s",
			strerror(err));
	expect("G1 emptied: nobody", 1, true, 0);
	expect("G3 after G1's removal: A only", 3, true, 1u << A);
	err = attach(S, 2, true);
	ktap_test_check(!err, "attach: the sender to G2", "ibv_attach_mcast: %s",
			strerror(err));
	expect("G2 with the sender attached: C and the sender's own QP", 2,
	       true, 1u << C | 1u << S);
	ktap_finished();
}
