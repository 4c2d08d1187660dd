// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "rdma": RDMA WRITE, RDMA READ and both atomics on
 * an RC QP connected to itself through port 1 (LID 1: the stub's subnet
 * manager numbers port n from 1), every key checked the way the HCA checks it
 * (Documentation/arbel-stub.rst "Data path"): each refused access completes
 * with its syndrome and leaves the target bytes as they were; a SEND takes a
 * receive WQE its doorbell record counts, or gets RNR, or too small a
 * buffer's errors; posted receives flush when the QP goes to ERR; a doorbell
 * of two 32-bit stores works as one of 64 bits; a DMA the bus refuses fails
 * the WRITE (0x14); a type 1 window binds to a region with bind enable and
 * gives access to its range only; a full CQ and an SRQ's limit raise their
 * events; the TPT cache keeps serving a translation the CPU rewrote in ICM
 * until SYNC_TPT.
 *
 * Layouts, all from mthca: the send doorbell (mthca_arbel_post_send), the WQE
 * segments (struct mthca_next_seg, mthca_raddr_seg, mthca_atomic_seg,
 * mthca_data_seg), the QP context (struct mthca_qp_context: service type
 * 23:16 of dword 0, RC 0; sq_size_stride 0x0a; local QPN 0x10; remote QPN
 * 0x14; primary path port 0x20 31:24, RLID 0x26; PD 0x64; wqe_lkey 0x6c;
 * params1 0x70 bit 3 SSC; cqn_snd 0x7c; snd_wqe_base_l 0x80; params2 0x90:
 * RRE 15, RWE 14, RAE 13; cqn_rcv 0x9c; rcv_db_index 0xa4), the receive WQE
 * (mthca_arbel_post_receive: the next segment, data segments) and its
 * doorbell record (mthca_alloc_db: UARC + UAR * 4 KiB + index * 8, the
 * counter in its first be32), the bind segment (struct mthca_bind_seg: rights
 * 31 atomic, 30 remote write, 29 remote read; new rkey 0x08; the region's
 * lkey 0x0c; address 0x10; length 0x18; opcode 0x18), the receive CQE's
 * opcode (the BTH opcode: 0x04 SEND_ONLY, 0x05 with immediate;
 * mthca_poll_one), the CQEs (struct mthca_cqe, mthca_err_cqe: byte count
 * 0x14, syndrome 0x10, opcode 0xff for a send in error), the syndromes
 * (mthca's cq code: 0x04 local protection, 0x13 remote access), the WQE
 * opcodes (iPXE's PRM header: 0x08 RDMA_WRITE, 0x10 RDMA_READ, 0x11
 * ATOMIC_CS, 0x12 ATOMIC_FA), the MPT rights (arbelprm_mpt_st).
 */
#include "rdma.h"

static void writes_and_reads(void)
{
	uint32_t wqes = arbel_dbg_read(dev, ARBEL_DBG_DP_WQES);
	uint32_t bytes = arbel_dbg_read(dev, ARBEL_DBG_DP_BYTES);
	unsigned int i;

	for (i = 0; i < PAGE; i++)
		rd.src->va[i] = (uint8_t)(i * 7 + 1);
	memset(rd.dst->va, 0xaa, PAGE);
	rd_post(OPC_WRITE, DST_VA + 0x100, rd_key(DST_IDX), SRC_VA,
		rd_key(SRC_IDX), 64, 0, 0);
	rd_check_cqe(OPC_WRITE, 0, 0, "RDMA WRITE 64 bytes: CQE opcode 0x08");
	ktap_test_check(!memcmp(rd.dst->va + 0x100, rd.src->va, 64) &&
			rd_all(rd.dst->va, 0xaa, 0x100) &&
			rd_all(rd.dst->va + 0x140, 0xaa, PAGE - 0x140),
			"RDMA WRITE: the 64 bytes, and only they, landed",
			"byte 0x100: 0x%02x", rd.dst->va[0x100]);
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_DP_WQES) == wqes + 1 &&
			arbel_dbg_read(dev, ARBEL_DBG_DP_BYTES) == bytes + 64,
			"debug window: one WQE more, 64 bytes more",
			"WQEs %u (before %u), bytes %u (before %u)",
			arbel_dbg_read(dev, ARBEL_DBG_DP_WQES), wqes,
			arbel_dbg_read(dev, ARBEL_DBG_DP_BYTES), bytes);

	rd_post(OPC_READ, DST_VA + 0x100, rd_key(DST_IDX), SRC_VA + 0x300,
		rd_key(SRC_IDX), 32, 0, 0);
	rd_check_cqe(OPC_READ, 0, 32,
		     "RDMA READ 32 bytes: CQE opcode 0x10, 32 bytes");
	ktap_test_check(!memcmp(rd.src->va + 0x300, rd.dst->va + 0x100, 32),
			"RDMA READ: the bytes in the local buffer",
			"byte 0x300: 0x%02x", rd.src->va[0x300]);

	rd_refused_write(DST_VA, rd_key(NORIGHT_IDX), SRC_VA, SYN_REMOTE_ACCESS,
			 "WRITE without the rkey's remote write right -> 0x13");
	rd_refused_write(DST_VA + PAGE - 32, rd_key(DST_IDX), SRC_VA,
			 SYN_REMOTE_ACCESS,
			 "WRITE past the region's end -> 0x13");
	rd_refused_write(DST_VA, rd_key(OTHERPD_IDX), SRC_VA, SYN_REMOTE_ACCESS,
			 "WRITE with another PD's rkey -> 0x13");
	rd_refused_write(DST_VA, rd_key(DEREG_IDX), SRC_VA, SYN_REMOTE_ACCESS,
			 "WRITE with a deregistered rkey -> 0x13");
	rd_refused_write(DST_VA, rd_key(DST_IDX) ^ 0x1, SRC_VA,
			 SYN_REMOTE_ACCESS,
			 "WRITE with a wrong key tag -> 0x13");
	rd_refused_write(DST_VA, rd_key(DST_IDX), SRC_VA + PAGE - 32,
			 SYN_LOCAL_PROT,
			 "WRITE whose local SGE runs past its lkey -> 0x04");

	memset(rd.src->va + 0x300, 0x55, 32);
	rd_post(OPC_READ, DST_VA, rd_key(NORIGHT_IDX), SRC_VA + 0x300,
		rd_key(SRC_IDX),
		32, 0, 0);
	rd_check_cqe(OPC_READ, SYN_REMOTE_ACCESS, 0,
		     "READ without the rkey's remote read right -> 0x13");
	ktap_test_check(rd_all(rd.src->va + 0x300, 0x55, 32),
			"refused READ: the local buffer untouched",
			"byte 0x%02x", rd.src->va[0x300]);
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
}

/* an atomic on the region's 8 bytes at 0x400, answer into @ret_off */
static void atomic(uint8_t op, uint64_t swap, uint64_t cmp, uint32_t ret_off,
		   uint64_t want_region, uint64_t want_ret, const char *name)
{
	char what[96];

	rd_post(op, DST_VA + 0x400, rd_key(DST_IDX), SRC_VA + ret_off,
		rd_key(SRC_IDX), 8, swap, cmp);
	snprintf(what, sizeof(what), "%s: CQE opcode 0x%02x", name, op);
	rd_check_cqe(op, 0, 0, what);
	snprintf(what, sizeof(what), "%s: %" PRIu64 " in the region, %" PRIu64
		 " returned", name, want_region, want_ret);
	ktap_test_check(get64(rd.dst->va + 0x400) == want_region &&
			get64(rd.src->va + ret_off) == want_ret, what,
			"region %" PRIu64 " returned %" PRIu64,
			get64(rd.dst->va + 0x400), get64(rd.src->va + ret_off));
}

static void atomics(void)
{
	put64(rd.dst->va + 0x400, 5);
	atomic(OPC_FA, 3, 0, 0x400, 8, 5, "ATOMIC_FA 5 + 3");
	atomic(OPC_CS, 42, 8, 0x408, 42, 8, "ATOMIC_CS 8 == 8, swap 42");
	atomic(OPC_CS, 7, 1, 0x410, 42, 42, "ATOMIC_CS 42 != 1, no swap");
	rd_post(OPC_FA, DST_VA + 0x404, rd_key(DST_IDX), SRC_VA + 0x400,
		rd_key(SRC_IDX), 8, 1, 0);
	rd_check_cqe(OPC_FA, SYN_REMOTE_ACCESS, 0,
		     "ATOMIC_FA not 8-byte aligned -> 0x13");
	ktap_test_check(get64(rd.dst->va + 0x400) == 42,
			"unaligned atomic: the region untouched",
			"%" PRIu64, get64(rd.dst->va + 0x400));
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
	rd_post(OPC_FA, DST_VA + 0x400, rd_key(NORIGHT_IDX), SRC_VA + 0x400,
		rd_key(SRC_IDX), 8, 1, 0);
	rd_check_cqe(OPC_FA, SYN_REMOTE_ACCESS, 0,
		     "ATOMIC_FA without the rkey's atomic right -> 0x13");
	rd_qp_up(QP_RRE | QP_RAE);
	rd_refused_write(DST_VA, rd_key(DST_IDX), SRC_VA, SYN_REMOTE_ACCESS,
			 "WRITE to a QP without RWE (the rkey allows it) -> 0x13");
}

void suite_rdma(void)
{
	struct arbel_dma_page *qpc = page_alloc(), *cqc = page_alloc();
	uint64_t ents[6];
	uint8_t *m = inbox->va;
	uint32_t idx;
	size_t len;

	ktap_print_msg("suite: rdma");
	rd.uar = arbel_dev_map_bar(dev, 2, &len);
	rd.wq = page_alloc();
	rd.cq = page_alloc();
	rd.src = page_alloc();
	rd.dst = page_alloc();
	rd.alt = page_alloc();
	ents[0] = rd.wq->pa | 1;
	ents[1] = rd.cq->pa | 1;
	ents[2] = rd.src->pa | 1;
	ents[3] = rd.dst->pa | 1;
	ents[4] = rd.dst->pa | 1;
	ents[5] = NOWHERE_PA | 1;
	check_status(write_mtt(RDMA_MTT, ents, 6), ST_OK,
		     "WRITE_MTT: queues (2 pages), source, target (twice), nowhere");
	rd_region(Q_IDX, MPT_LR | MPT_LW, PD, 0, 2 * PAGE, RDMA_MTT,
		  "SW2HW_MPT the queues' region at iova 0");
	rd_region(SRC_IDX, MPT_LR | MPT_LW, PD, SRC_VA, PAGE, RDMA_MTT + 16,
		  "SW2HW_MPT the local buffer");
	rd_region(DST_IDX, MPT_LR | MPT_LW | MPT_RR | MPT_RWR | MPT_A, PD,
		  DST_VA,
		  PAGE, RDMA_MTT + 24, "SW2HW_MPT the target, every right");
	rd_region(NORIGHT_IDX, MPT_LR | MPT_LW, PD, DST_VA, PAGE, RDMA_MTT + 32,
		  "SW2HW_MPT the target, local rights only");
	rd_region(OTHERPD_IDX, MPT_LR | MPT_LW | MPT_RR | MPT_RWR | MPT_A,
		  PD + 1,
		  DST_VA, PAGE, RDMA_MTT + 32, "SW2HW_MPT the target in PD 8");
	rd_region(DEREG_IDX, MPT_LR | MPT_LW | MPT_RR | MPT_RWR | MPT_A, PD,
		  DST_VA, PAGE, RDMA_MTT + 32, "SW2HW_MPT the target once more");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, DEREG_IDX, 0), ST_OK,
		     "HW2SW_MPT it: its key is gone");
	rd_region(BINDABLE_IDX, MPT_LR | MPT_LW | MPT_EB, PD, DST_VA, PAGE,
		  RDMA_MTT + 32, "SW2HW_MPT the target, local rights, bind enabled");
	rd_region(NOWHERE_IDX, MPT_LR | MPT_LW | MPT_RWR, PD, DST_VA, PAGE,
		  RDMA_MTT + 40, "SW2HW_MPT a region over a page with no RAM");

	check_status(map_pages(OP_MAP_ICM, &cqc, 1, CQC_BASE), ST_OK,
		     "MAP_ICM the CQ context page");
	memset(m, 0, 0x40);
	put64(m + 0x04, CQ_VA);
	put32(m + 0x0c, CQ_LOG << 24);		/* UAR 0 */
	put32(m + 0x1c, rd_key(Q_IDX));
	put32(m + 0x34, CQ_CI_DB);
	check_status(cmd(OP_SW2HW_CQ, 0, inbox->pa, 0, 0), ST_OK, "SW2HW_CQ");
	check_status(map_pages(OP_MAP_ICM, &qpc, 1, QPC_BASE), ST_OK,
		     "MAP_ICM the QP context page");
	rd.uarc = page_alloc();
	memset(rd.uarc->va, 0, PAGE);
	check_status(map_pages(OP_MAP_ICM, &rd.uarc, 1, UARC_BASE), ST_OK,
		     "MAP_ICM UAR 0's context page (doorbell records)");
	memset(m, 0, 56);
	put32(m, 4u << 12 | 3u << 8 | 4u << 4);	/* as suite "ports" */
	m[0x07] = 8;
	m[0x0b] = 64;
	check_status(cmd(OP_INIT_IB, 0, inbox->pa, 1, 0), ST_OK,
		     "INIT_IB port 1");
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);

	writes_and_reads();
	atomics();
	rd_receives();
	rd_recv_in_err();
	rd_more();
	rd_windows();
	eq_create_unarmed(rd.cq->va + 0x800, EQ_VA, rd_key(Q_IDX));
	rd_cq_overrun();
	rd_srq();
	rd_sq_drained();
	check_status(cmd(OP_HW2SW_EQ, 1, 0, 0, 0), ST_OK, "HW2SW_EQ");
	check_status(cmd(OP_UNMAP_ICM, 0, EQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the EQ context page");
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
	rd_tpt_cache();
	rd_fmr_cycle();

	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK, "2ERR");
	check_status(cmd(OP_ERR2RST, 3, 0, 0, 0), ST_OK, "ERR2RST");
	check_status(cmd(OP_CLOSE_IB, 0, 0, 1, 0), ST_OK, "CLOSE_IB port 1");
	check_status(cmd(OP_HW2SW_CQ, 0, 0, 0, outbox->pa), ST_OK, "HW2SW_CQ");
	check_status(cmd(OP_UNMAP_ICM, 0, QPC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the QP context page");
	check_status(cmd(OP_UNMAP_ICM, 0, CQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the CQ context page");
	check_status(cmd(OP_UNMAP_ICM, 0, UARC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the UAR context page");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, NOWHERE_IDX, 0), ST_OK,
		     "HW2SW_MPT the region with no RAM");
	for (idx = Q_IDX; idx <= OTHERPD_IDX; idx++)
		check_status(cmd(OP_HW2SW_MPT, 1, 0, idx, 0), ST_OK,
			     "HW2SW_MPT a region of the suite");
}
