/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arbel-conformance: what its suites share -- the firmware facts they
 * check against, the ICM layout the test sets up, the device, the page
 * pool and the firmware-command helpers (conformance.c).
 *
 * Expected values come from the PRM (Documentation/arbel-hw.rst: opcodes,
 * offsets, status codes) and from the stub's documented contract
 * (Documentation/arbel-stub.rst), never from the stub itself.  Device
 * lookup, BAR0, the debug window, fault injection, DMA pages and KTAP
 * output are tests/lib's.
 */
#ifndef ARBEL_CONFORMANCE_H
#define ARBEL_CONFORMANCE_H

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dbgwin.h"
#include "dev.h"
#include "ktap.h"
#include "mem.h"
#include "util.h"

/* ---- firmware commands (PRM) ---- */
#define OP_QUERY_DEV_LIM	0x003
#define OP_QUERY_FW		0x004
#define OP_QUERY_ADAPTER	0x006
#define OP_INIT_HCA		0x007
#define OP_CLOSE_HCA		0x008
#define OP_SW2HW_MPT		0x00d
#define OP_QUERY_MPT		0x00e
#define OP_HW2SW_MPT		0x00f
#define OP_READ_MTT		0x010
#define OP_WRITE_MTT		0x011
#define OP_MAD_IFC		0x024
#define OP_SW2HW_EQ		0x013
#define OP_SYNC_TPT		0x02f
#define OP_NOP			0x031
#define OP_RUN_FW		0xff6
#define OP_ENABLE_LAM		0xff8
#define OP_UNMAP_ICM		0xff9
#define OP_MAP_ICM		0xffa
#define OP_UNMAP_ICM_AUX	0xffb
#define OP_MAP_ICM_AUX		0xffc
#define OP_SET_ICM_SIZE		0xffd
#define OP_UNMAP_FA		0xffe
#define OP_MAP_FA		0xfff

#define ST_OK			0x00
#define ST_INTERNAL_ERR		0x01
#define ST_BAD_OP		0x02
#define ST_BAD_PARAM		0x03
#define ST_BAD_SYS_STATE	0x04
#define ST_BAD_RESOURCE		0x05
#define ST_RESOURCE_BUSY	0x06
#define ST_BAD_RES_STATE	0x09
#define ST_BAD_INDEX		0x0a
#define ST_REG_BOUND		0x21
#define ST_LAM_NOT_PRE		0x22
#define ST_TIMEOUT		0x100	/* not a firmware status: go stuck */

/* MPT dword 0 bits (arbelprm_mpt_st) */
#define MPT_RW			(1u << 8)
#define MPT_PA			(1u << 9)
#define MPT_LR			(1u << 10)
#define MPT_LW			(1u << 11)
#define MPT_RR			(1u << 12)
#define MPT_RWR			(1u << 13)
#define MPT_A			(1u << 14)
#define MPT_SW_OWNS		(0xfu << 28)
#define MPT_ZB			(1u << 26)	/* dword 3 */

/* translation directions (ARBEL_DBG_XL_DIR) */
#define XL_TO_BUF		0
#define XL_TO_REGION		1

/* ---- the ICM layout this test uses ---- */
#define LOG_MPT			8		/* 256 MPTs, 16 KiB */
#define NUM_MPT			(1u << LOG_MPT)
#define RSVD_MPT		16		/* 2^4, QUERY_DEV_LIM */
#define RSVD_MTT		16		/* 2^4 entries, QUERY_DEV_LIM */
#define MPT_BASE		0x0ULL		/* 4 pages; page 3 left unmapped */
#define MTT_BASE		0x8000ULL	/* not at 0: absolute addressing */
#define EQC_BASE		0x10000ULL	/* ends the MTT area */
/* every other INIT_HCA table in a page of its own (init_hca_mbox) */
#define QPC_BASE		0x11000ULL	/* 256-byte entries, log 0 */
#define EEC_BASE		0x12000ULL	/* 256 */
#define SRQC_BASE		0x13000ULL	/* 32 */
#define CQC_BASE		0x14000ULL	/* 64 */
#define EQPC_BASE		0x15000ULL	/* 32, as many as QPs */
#define EEEC_BASE		0x16000ULL	/* 32, as many as EECs */
#define RDB_BASE		0x17000ULL	/* size not in INIT_HCA */
#define MC_BASE			0x18000ULL	/* 2^8-byte entries, log 4 */
#define LOG_MC			4		/* 16 entries: one page */
#define MC_HASH			8		/* the first 8 hashed */
#define UAR_SCR_BASE		0x19000ULL	/* 32, 2^0 UARs */
#define UARC_BASE		0x1a000ULL	/* 4 KiB per UAR */
#define ICM_SIZE		0x20000ULL
#define MTT_MAPPED_PAGES	2		/* 0x8000, 0x9000; 0xa000 unmapped */

#define PAGE			ARBEL_PAGE_SIZE
#define POOL_PAGES		384
#define POOL_MTT_TARGETS	10		/* pool pages 10..12: suite_mtt */

/* ---- state shared by the suites (conformance.c) ---- */
extern struct arbel_dev *dev;
extern struct arbel_dma_page pool[POOL_PAGES];
extern struct arbel_dma_page *inbox, *outbox;
extern uint32_t fw_pages;
extern struct arbel_dma_page *icm_mpt[4], *icm_mtt[MTT_MAPPED_PAGES];

/* ---- big-endian fields of mailboxes and ICM ---- */
static inline void put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static inline void put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static inline uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return be16toh(v);
}

static inline uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

static inline uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

/* ---- conformance.c ---- */
void conformance_init(const char *bdf, bool verbose);
struct arbel_dma_page *page_alloc(void);
void reset_device(void);

void hcr_post(uint16_t op, uint8_t op_mod, uint64_t in_param, uint32_t in_mod,
	      uint64_t out_param, bool e);
bool hcr_wait(unsigned int timeout_ms);
unsigned int cmd_full(uint16_t op, uint8_t op_mod, uint64_t in_param,
		      uint32_t in_mod, uint64_t out_param, bool e,
		      uint64_t *imm);
unsigned int cmd(uint16_t op, uint8_t op_mod, uint64_t in_param,
		 uint32_t in_mod, uint64_t out_param);
bool check_status(unsigned int got, unsigned int want, const char *name);

unsigned int map_pages(uint16_t op, struct arbel_dma_page **pages, int n,
		       uint64_t icm_va);
unsigned int map_fa(void);
void init_hca_mbox(uint8_t *m, uint64_t mpt_base, unsigned int log_mpt,
		   uint64_t mtt_base);

void mpt_build(uint8_t *e, uint32_t flags, uint32_t page_size, uint32_t key,
	       uint32_t pd, uint64_t start, uint64_t len, uint64_t mtt);
unsigned int sw2hw(uint32_t index, const uint8_t *entry);
uint8_t *icm_mpt_slot(uint32_t index);
uint8_t *icm_mtt_entry(uint64_t icm_va);
unsigned int write_mtt(uint64_t target, const uint64_t *ents, int n);
uint32_t hw_key(uint32_t index, uint32_t tag);
uint32_t lkey_of(uint32_t hw);
unsigned int xlate(uint32_t key, unsigned int acc, uint64_t va, uint32_t len,
		   unsigned int dir, uint64_t buf, struct arbel_xlate_res *res);

void eq_create_unarmed(uint8_t *buf, uint64_t start, uint32_t lkey);

/* ---- the suites, in the order they run ---- */
void suite_identity(void);
void suite_doorbell(void);
void suite_pre_run(void);
void suite_bring_up(void);
void fw_query_fw(void);
void fw_query_dev_lim(void);
void fw_query_adapter(void);
void hca_layout_rules(void);
void suite_mpt(void);
void suite_mtt(void);
void suite_xlate(void);
void suite_ownership(void);
void suite_eq(void);
void suite_cq(void);
void suite_srq(void);
void suite_mcg(void);
void suite_qp(void);
void suite_ports(void);
void suite_send(void);
void suite_rdma(void);
void suite_mad(uint64_t want_node_guid, uint64_t want_port_guid);
unsigned int mad_get(uint8_t mclass, uint16_t attr, uint32_t mod,
		     uint32_t port);
void fw_dev_lim_vs_mad(void);
void suite_faults(void);
void suite_teardown(void);
void suite_reset(void);
/* run alone, in a VM whose stub has fault properties */
void suite_prop_faults(unsigned int every, unsigned int status);

#endif /* ARBEL_CONFORMANCE_H */
