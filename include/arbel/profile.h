/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device limits (QUERY_DEV_LIM) and the ICM layout computed from them.
 * Pure code: UML-testable.
 */
#ifndef _ARBEL_PROFILE_H
#define _ARBEL_PROFILE_H

#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <arbel/prm.h>

/**
 * struct arbel_dev_lim - what QUERY_DEV_LIM reports (log fields are log2)
 * @log_rsvd_qps: firmware-reserved QPs
 * @log_max_qps: QPs supported
 * @log_rsvd_srqs: firmware-reserved SRQs
 * @log_max_srqs: SRQs supported
 * @log_rsvd_eecs: firmware-reserved EE contexts
 * @log_rsvd_cqs: firmware-reserved CQs
 * @log_max_cqs: CQs supported
 * @log_max_mpts: MPT entries supported
 * @log_rsvd_eqs: firmware-reserved EQs
 * @log_max_eqs: EQs supported
 * @log_rsvd_mtts: firmware-reserved MTT entries
 * @log_max_mr_size: largest region
 * @log_rsvd_mrws: firmware-reserved MPT entries
 * @log_max_mtt_segs: MTT segments supported
 * @num_rsvd_uars: firmware-reserved UARs, a count (UARs 0 .. n - 1)
 * @num_rsvd_pds: firmware-reserved PDs, a count (PDs 0 .. n - 1)
 * @num_ports: IB ports
 * @log_max_pds: PDs supported
 * @log_min_page_size: smallest page the HCA handles
 * @flags: capability flags
 * @uar_size: bytes of UAR space (BAR2) the firmware uses
 * @eec_entry_sz: EE context entry size, bytes
 * @eeec_entry_sz: extended EE context entry size
 * @qpc_entry_sz: QP context entry size, bytes
 * @eqpc_entry_sz: extended QP context entry size
 * @eqc_entry_sz: EQ context entry size
 * @cqc_entry_sz: CQ context entry size
 * @srq_entry_sz: SRQ context entry size
 * @uar_scratch_entry_sz: UAR scratch entry size
 * @mtt_entry_sz: MTT entry size (8)
 * @mpt_entry_sz: MPT entry size (64)
 * @max_icm_sz: most ICM the HCA can address, bytes
 * @log_max_srq_sz: log2 of the WQEs an SRQ may hold
 * @log_max_qp_sz: log2 of the WQEs a work queue may hold
 * @log_max_cq_sz: log2 of the CQEs a CQ may hold
 * @log_max_ra_req_qp: log2 of the RDMA reads/atomics a QP may have out
 * @log_max_ra_res_qp: log2 of the RDMA reads/atomics a QP may take in
 * @max_sg: gather entries a send WQE may have
 * @max_desc_sz: bytes a send WQE may have
 * @max_sg_rq: scatter entries a receive WQE may have
 * @max_desc_sz_rq: bytes a receive WQE may have
 * @local_ca_ack_delay: log2 of the ACK delay (4.096 us units)
 * @mtu_cap: largest MTU a port supports (IBTA encoding)
 * @port_width_cap: link widths a port supports
 * @vl_cap: VLs a port supports
 * @log_max_gids: log2 of a port's GID table
 * @log_max_pkeys: log2 of a port's P_Key table
 */
struct arbel_dev_lim {
	u8 log_rsvd_qps;
	u8 log_max_qps;
	u8 log_rsvd_srqs;
	u8 log_max_srqs;
	u8 log_rsvd_eecs;
	u8 log_rsvd_cqs;
	u8 log_max_cqs;
	u8 log_max_mpts;
	u8 log_rsvd_eqs;
	u8 log_max_eqs;
	u8 log_rsvd_mtts;
	u8 log_max_mr_size;
	u8 log_rsvd_mrws;
	u8 log_max_mtt_segs;
	u8 num_rsvd_uars;
	u8 num_rsvd_pds;
	u8 num_ports;
	u8 log_max_pds;
	u8 log_min_page_size;
	u32 flags;
	u64 uar_size;
	u16 eec_entry_sz;
	u16 eeec_entry_sz;
	u16 qpc_entry_sz;
	u16 eqpc_entry_sz;
	u16 eqc_entry_sz;
	u16 cqc_entry_sz;
	u16 srq_entry_sz;
	u16 uar_scratch_entry_sz;
	u16 mtt_entry_sz;
	u16 mpt_entry_sz;
	u64 max_icm_sz;
	u8 log_max_srq_sz;
	u8 log_max_qp_sz;
	u8 log_max_cq_sz;
	u8 log_max_ra_req_qp;
	u8 log_max_ra_res_qp;
	u8 max_sg;
	u16 max_desc_sz;
	u8 max_sg_rq;
	u16 max_desc_sz_rq;
	u8 local_ca_ack_delay;
	u8 mtu_cap;
	u8 port_width_cap;
	u8 vl_cap;
	u8 log_max_gids;
	u8 log_max_pkeys;
};

/*
 * ICM tables INIT_HCA needs; every one gets a place of its own in the
 * layout.  The first %ARBEL_ICM_NR_TABLES are mapped tables (their
 * reserved objects at once, the rest on demand); the UAR contexts are
 * only placed: a UAR's doorbell page is mapped when a user of that UAR
 * needs it, and the firmware's reserved UARs need no memory [iPXE].
 */
enum arbel_icm_table_id {
	ARBEL_ICM_MPT,
	ARBEL_ICM_MTT,
	ARBEL_ICM_QPC,
	ARBEL_ICM_EQPC,
	ARBEL_ICM_RDB,
	ARBEL_ICM_SRQC,
	ARBEL_ICM_CQC,
	ARBEL_ICM_EQC,
	ARBEL_ICM_MCG,
	ARBEL_ICM_UAR_SCR,
	ARBEL_ICM_EEC,
	ARBEL_ICM_EEEC,
	ARBEL_ICM_NR_TABLES,
	ARBEL_ICM_UARC = ARBEL_ICM_NR_TABLES,
	ARBEL_ICM_NR_PLACES,
};

/**
 * struct arbel_icm_place - one table in ICM virtual space
 * @base: ICM virtual address, aligned to @size
 * @size: bytes, a power of two, at least 4 KiB
 * @entry_size: bytes per object
 * @log_num: log2 of the number of objects
 * @log_rsvd: log2 of the firmware-reserved objects at its start
 */
struct arbel_icm_place {
	u64 base;
	u64 size;
	u32 entry_size;
	u8 log_num;
	u8 log_rsvd;
};

/**
 * struct arbel_icm_layout - the whole ICM layout
 * @t: one place per table, indexed by enum arbel_icm_table_id
 * @total: ICM bytes in all (what SET_ICM_SIZE is told)
 * @num_uars: UARs (UAR space / page size)
 */
struct arbel_icm_layout {
	struct arbel_icm_place t[ARBEL_ICM_NR_PLACES];
	u64 total;
	u32 num_uars;
};

/*
 * QPs, CQs and SRQs: mthca's default profile (2^16 each), at least one
 * above the firmware's reserved ones, at most what QUERY_DEV_LIM allows.
 * ICM is mapped per 256 KiB chunk as objects are taken, so a large table
 * costs address space only.
 */
#define ARBEL_PROFILE_LOG_QUEUES	16
/* Objects of the tables the driver does not use: the fewest that work. */
#define ARBEL_PROFILE_RDB_PER_QP	4
#define ARBEL_PROFILE_RDB_ENTRY_SZ	32
#define ARBEL_PROFILE_LOG_EQS		5
#define ARBEL_PROFILE_MGM_ENTRY_SZ	256
#define ARBEL_PROFILE_LOG_MGMS		4
/*
 * UAR context per UAR: 256 KiB (INIT_HCA 0x129 = 6), mthca's default, told
 * to libmthca as uarc_size: it needs two doorbell pages at least (one
 * for each of its two record groups) and takes its pages from both ends.
 */
#define ARBEL_PROFILE_UARC_ENTRY_SZ	SZ_256K

/*
 * Largest tables the driver lays out: MPT slots are 24-bit indices, MTT
 * entries are counted in 32 bits.
 */
#define ARBEL_PROFILE_MAX_LOG_MPTS	24
#define ARBEL_PROFILE_MAX_LOG_MTTS	31

/**
 * arbel_profile_max_log_mpts() - largest MPT table the driver lays out
 * @lim: the device limits
 *
 * Return: log2 of the MPT entries, the device's limit capped at
 * %ARBEL_PROFILE_MAX_LOG_MPTS.
 */
static inline u8 arbel_profile_max_log_mpts(const struct arbel_dev_lim *lim)
{
	return min_t(u8, lim->log_max_mpts, ARBEL_PROFILE_MAX_LOG_MPTS);
}

/**
 * arbel_profile_max_log_mtts() - largest MTT table the driver lays out
 * @lim: the device limits; they count MTT segments
 *
 * Return: log2 of the MTT entries, the device's limit capped at
 * %ARBEL_PROFILE_MAX_LOG_MTTS.
 */
static inline u8 arbel_profile_max_log_mtts(const struct arbel_dev_lim *lim)
{
	return min_t(u8, lim->log_max_mtt_segs + ilog2(ARBEL_MTT_SEG_ENTRIES),
		     ARBEL_PROFILE_MAX_LOG_MTTS);
}

int arbel_icm_profile(const struct arbel_dev_lim *lim, u8 log_num_mpts,
		      u8 log_num_mtts, u32 page_size,
		      struct arbel_icm_layout *layout);

u32 arbel_icm_chunk_index(const struct arbel_icm_place *place,
			  u32 chunk_size, u32 obj);

#endif /* _ARBEL_PROFILE_H */
