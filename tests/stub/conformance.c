// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance: what only this test needs -- the device opened for
 * driving it from user space, a pool of DMA pages, firmware commands
 * posted on the HCR and polled, ICM mapping, MPT images and the ICM view
 * of MPT and MTT entries.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "conformance.h"

static struct arbel_dev the_dev;
struct arbel_dev *dev = &the_dev;
struct arbel_dma_page pool[POOL_PAGES];
struct arbel_dma_page *inbox, *outbox;
uint32_t fw_pages;
struct arbel_dma_page *icm_mpt[4], *icm_mtt[MTT_MAPPED_PAGES];
static unsigned int pool_next;

/* find the device, enable it with DMA on, map BAR0, lock the page pool */
void conformance_init(const char *bdf, bool verbose)
{
	int err;

	arbel_dev_find(dev, bdf);
	err = arbel_dev_enable(dev);
	if (err && verbose)
		ktap_print_msg("enable %s: %s", dev->bdf, strerror(-err));
	arbel_dev_set_bus_master(dev, true);
	arbel_dev_map_bar(dev, 0, NULL);
	arbel_dma_pages(pool, POOL_PAGES);
	inbox = page_alloc();
	outbox = page_alloc();
	/* pages POOL_MTT_TARGETS.. are MTT targets of suite_mtt */
	pool_next = 16;
}

struct arbel_dma_page *page_alloc(void)
{
	if (pool_next >= POOL_PAGES)
		arbel_die("out of DMA pages");
	memset(pool[pool_next].va, 0, PAGE);
	return &pool[pool_next++];
}

void reset_device(void)
{
	arbel_be32_write(dev, ARBEL_RESET_REG, ARBEL_RESET_VALUE);
	arbel_msleep(10);
}

/* ---- HCR ---- */
void hcr_post(uint16_t op, uint8_t op_mod, uint64_t in_param, uint32_t in_mod,
	      uint64_t out_param, bool e)
{
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x00, in_param >> 32);
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x04, (uint32_t)in_param);
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x08, in_mod);
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x0c, out_param >> 32);
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x10, (uint32_t)out_param);
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x14, 0xffffu << 16);
	arbel_be32_write(dev, ARBEL_HCR_CTRL, ARBEL_HCR_GO |
			 (e ? ARBEL_HCR_E : 0) | ((uint32_t)op_mod << 12) | op);
}

bool hcr_wait(unsigned int timeout_ms)
{
	uint64_t end = arbel_now_ms() + timeout_ms;

	while (arbel_be32_read(dev, ARBEL_HCR_CTRL) & ARBEL_HCR_GO) {
		if (arbel_now_ms() > end)
			return false;
		usleep(200);
	}
	return true;
}

/* post a command, poll it; the status, or ST_TIMEOUT; *imm: out_param */
unsigned int cmd_full(uint16_t op, uint8_t op_mod, uint64_t in_param,
		      uint32_t in_mod, uint64_t out_param, bool e,
		      uint64_t *imm)
{
	hcr_post(op, op_mod, in_param, in_mod, out_param, e);
	if (!hcr_wait(5000))
		return ST_TIMEOUT;
	if (imm)
		*imm = ((uint64_t)arbel_be32_read(dev, ARBEL_HCR_BASE + 0x0c) << 32) |
		       arbel_be32_read(dev, ARBEL_HCR_BASE + 0x10);
	return arbel_be32_read(dev, ARBEL_HCR_CTRL) >> 24;
}

unsigned int cmd(uint16_t op, uint8_t op_mod, uint64_t in_param,
		 uint32_t in_mod, uint64_t out_param)
{
	return cmd_full(op, op_mod, in_param, in_mod, out_param, false, NULL);
}

/* one test result: a command's status is the expected one */
bool check_status(unsigned int got, unsigned int want, const char *name)
{
	return ktap_test_check(got == want, name, "status 0x%02x, expected 0x%02x",
			       got, want);
}

/* ---- ICM ---- */

/* MAP_FA / MAP_ICM_AUX / MAP_ICM of single pages (log2 size 0) */
unsigned int map_pages(uint16_t op, struct arbel_dma_page **pages, int n,
		       uint64_t icm_va)
{
	int i;

	memset(inbox->va, 0, PAGE);
	for (i = 0; i < n; i++) {
		put64(inbox->va + 16 * i, op == OP_MAP_ICM ?
		      icm_va + (uint64_t)i * PAGE : 0);
		put64(inbox->va + 16 * i + 8, pages[i]->pa);
	}
	return cmd(op, 0, inbox->pa, n, 0);
}

/* fw_pages (from QUERY_FW) single pages for the firmware area */
unsigned int map_fa(void)
{
	struct arbel_dma_page *pg[256];
	uint32_t i;

	for (i = 0; i < fw_pages && i < 256; i++)
		pg[i] = page_alloc();
	return map_pages(OP_MAP_FA, pg, fw_pages, 0);
}

/*
 * INIT_HCA mailbox [mthca_INIT_HCA]: every table in a page of its own,
 * one object each (log 0), MPT and MTT as given.  The MTT area runs from
 * @mtt_base to the next base above it.
 */
void init_hca_mbox(uint8_t *m, uint64_t mpt_base, unsigned int log_mpt,
		   uint64_t mtt_base)
{
	memset(m, 0, 0x200);
	put64(m + 0x30, QPC_BASE);	/* log QPs in 0x37 bits 4:0 */
	put64(m + 0x40, EEC_BASE);	/* log EECs 0x47 */
	put64(m + 0x48, SRQC_BASE);	/* log SRQs 0x4f */
	put64(m + 0x50, CQC_BASE);	/* log CQs 0x57 */
	put64(m + 0x60, EQPC_BASE);
	put64(m + 0x70, EEEC_BASE);
	put64(m + 0x80, EQC_BASE);	/* log EQs 0x87 */
	put64(m + 0x90, RDB_BASE);
	put64(m + 0xc0, MC_BASE);
	m[0xd3] = 8;			/* be16 0xd2: log MC entry size */
	m[0xd7] = MC_HASH;		/* 0xd4 bits 16:0: hash table entries */
	m[0xdb] = LOG_MC;		/* bits 4:0: log MC entries */
	put64(m + 0xf0, mpt_base);
	m[0xfb] = log_mpt;
	put64(m + 0x100, mtt_base);
	put64(m + 0x130, UAR_SCR_BASE);	/* 0x129 UARC log size, 0x12a log UARs: 0 */
	put64(m + 0x138, UARC_BASE);
}

/* ---- MPT and MTT ---- */

/* a software-owned MPT entry of a region (arbelprm_mpt_st) */
void mpt_build(uint8_t *e, uint32_t flags, uint32_t page_size, uint32_t key,
	       uint32_t pd, uint64_t start, uint64_t len, uint64_t mtt)
{
	memset(e, 0, 64);
	put32(e + 0, MPT_SW_OWNS | MPT_RW | flags);
	put32(e + 4, page_size);
	put32(e + 8, key);
	put32(e + 12, pd);
	put64(e + 16, start);
	put64(e + 24, len);
	put32(e + 44, (uint32_t)(mtt >> 32) & 0x3f);
	put32(e + 48, (uint32_t)mtt);
}

unsigned int sw2hw(uint32_t index, const uint8_t *entry)
{
	memcpy(inbox->va, entry, 64);
	return cmd(OP_SW2HW_MPT, 0, inbox->pa, index, 0);
}

/* guest-memory view of ICM: the MPT slot @index */
uint8_t *icm_mpt_slot(uint32_t index)
{
	uint64_t va = MPT_BASE + (uint64_t)index * 64;

	return icm_mpt[va / PAGE]->va + va % PAGE;
}

/* guest-memory view of ICM: the MTT entry at ICM address @icm_va */
uint8_t *icm_mtt_entry(uint64_t icm_va)
{
	uint64_t off = icm_va - MTT_BASE;

	return icm_mtt[off / PAGE]->va + off % PAGE;
}

unsigned int write_mtt(uint64_t target, const uint64_t *ents, int n)
{
	int i;

	memset(inbox->va, 0, PAGE);
	put64(inbox->va, target);
	for (i = 0; i < n; i++)
		put64(inbox->va + 16 + 8 * i, ents[i]);
	return cmd(OP_WRITE_MTT, 0, inbox->pa, n, 0);
}

/* key for slot @index with tag @tag (hardware form: index | tag << LOG_MPT) */
uint32_t hw_key(uint32_t index, uint32_t tag)
{
	return index | (tag << LOG_MPT);
}

/* the lkey/rkey form of a hardware key */
uint32_t lkey_of(uint32_t hw)
{
	return (hw << 8) | (hw >> 24);
}

/* one translation-engine request; @res may be NULL */
unsigned int xlate(uint32_t key, unsigned int acc, uint64_t va, uint32_t len,
		   unsigned int dir, uint64_t buf, struct arbel_xlate_res *res)
{
	struct arbel_xlate_req req = {
		.key = key, .access = acc, .va = va, .len = len, .dir = dir,
		.buf_pa = buf,
	};

	return arbel_xlate(dev, &req, res);
}

/* ---- event queues ---- */

/*
 * EQ 0, not armed (no interrupt), 8 EQEs at @start in region @lkey, whose
 * bytes the test sees at @buf; its context page mapped (EQC_BASE).  The
 * context: mthca's struct mthca_eq_context (owner hardware in bits 31:24,
 * TR bit 18, the arm state bits 11:8 left 0).
 */
void eq_create_unarmed(uint8_t *buf, uint64_t start, uint32_t lkey)
{
	struct arbel_dma_page *pg = page_alloc();
	uint8_t *m = inbox->va;
	unsigned int i;

	check_status(map_pages(OP_MAP_ICM, &pg, 1, EQC_BASE), ST_OK,
		     "MAP_ICM the EQ context page");
	for (i = 0; i < 8; i++)
		buf[i * 32 + 0x1f] = 0x80;
	memset(m, 0, 0x40);
	put32(m + 0x00, (1u << 24) | (1u << 18));	/* owner HW, not armed */
	put64(m + 0x04, start);
	put32(m + 0x0c, 3u << 24);			/* 8 EQEs */
	put32(m + 0x18, 7);
	put32(m + 0x1c, lkey);
	check_status(cmd(OP_SW2HW_EQ, 0, inbox->pa, 0, 0), ST_OK, "SW2HW_EQ");
}
