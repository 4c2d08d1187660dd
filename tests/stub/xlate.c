// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "xlate": the stub's translation engine reads and
 * writes through registered regions as the HCA would -- MPT, MTT, key,
 * access rights, range, zero-based and physical regions -- and refuses
 * what the HCA would refuse.
 */
#include "conformance.h"

#define XL_IDX		(RSVD_MPT + 2)
#define XL_TAG		0x33
#define XL_MTT		(MTT_BASE + 0x200)
#define XL_START	(0x10000000ULL + 0x100)
#define XL_LEN		(2 * PAGE)

static struct arbel_dma_page *data[3], *buf;

/* a virtually addressed region lr|lw|rr over data[0..2] */
static void xlate_region(void)
{
	uint32_t key = lkey_of(hw_key(XL_IDX, XL_TAG));
	struct arbel_xlate_res res;
	unsigned int r;

	memset(buf->va, 0, PAGE);
	data[0]->va[0x100] = 0xab;
	r = xlate(key, ARBEL_XL_ACC_LOCAL_READ, XL_START, 16, XL_TO_BUF,
		  buf->pa, &res);
	ktap_test_check(r == ARBEL_XL_OK && buf->va[0] == 0xab &&
			buf->va[1] == 0x10, "xlate local read at start",
			"result %u byte %02x", r, buf->va[0]);
	ktap_test_check(res.pa == data[0]->pa + 0x100 && res.index == XL_IDX,
			"xlate reports PA via MTT and slot", "pa 0x%x index %u",
			(uint32_t)res.pa, res.index);
	memset(buf->va, 0, PAGE);
	r = xlate(key, ARBEL_XL_ACC_REMOTE_READ, XL_START + PAGE - 0x100 - 2, 4,
		  XL_TO_BUF, buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_OK && buf->va[0] == 0x10 &&
			buf->va[1] == 0x10 && buf->va[2] == 0x11 &&
			buf->va[3] == 0x11,
			"xlate read across a page boundary follows the MTT",
			"result %u %02x%02x%02x%02x", r, buf->va[0], buf->va[1],
			buf->va[2], buf->va[3]);
	memset(buf->va, 0xcd, 8);
	r = xlate(key, ARBEL_XL_ACC_LOCAL_WRITE, XL_START + XL_LEN - 8, 8,
		  XL_TO_REGION, buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_OK && data[2]->va[0xf8] == 0xcd &&
			data[2]->va[0xff] == 0xcd && data[2]->va[0x100] == 0x12,
			"xlate local write at the end lands in the third page",
			"result %u", r);
	r = xlate(lkey_of(hw_key(XL_IDX, XL_TAG + 1)), ARBEL_XL_ACC_LOCAL_READ,
		  XL_START, 4, XL_TO_BUF, buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_KEY_MISMATCH,
			"xlate wrong key tag -> refused", "result %u", r);
	r = xlate(key, ARBEL_XL_ACC_REMOTE_WRITE, XL_START, 4, XL_TO_REGION,
		  buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_ACCESS,
			"xlate remote write without rw -> refused", "result %u",
			r);
	r = xlate(key, ARBEL_XL_ACC_ATOMIC, XL_START, 8, XL_TO_BUF, buf->pa,
		  NULL);
	ktap_test_check(r == ARBEL_XL_ACCESS, "xlate atomic without a -> refused",
			"result %u", r);
	r = xlate(key, ARBEL_XL_ACC_LOCAL_READ, XL_START - 1, 4, XL_TO_BUF,
		  buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_RANGE, "xlate below start -> out of range",
			"result %u", r);
	r = xlate(key, ARBEL_XL_ACC_LOCAL_READ, XL_START + XL_LEN - 2, 4,
		  XL_TO_BUF, buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_RANGE,
			"xlate past the end -> out of range", "result %u", r);
	r = xlate(lkey_of(hw_key(NUM_MPT - 2, 0)), ARBEL_XL_ACC_LOCAL_READ, 0,
		  4, XL_TO_BUF, buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_MPT_UNMAPPED,
			"xlate key in unmapped MPT ICM -> refused", "result %u",
			r);
	r = xlate(lkey_of(hw_key(RSVD_MPT + 9, 0)), ARBEL_XL_ACC_LOCAL_READ, 0,
		  4, XL_TO_BUF, buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_SW_OWNED,
			"xlate never-written slot -> SW-owned", "result %u", r);

	check_status(cmd(OP_HW2SW_MPT, 1, 0, XL_IDX, 0), ST_OK,
		     "HW2SW_MPT region");
	r = xlate(key, ARBEL_XL_ACC_LOCAL_READ, XL_START, 4, XL_TO_BUF, buf->pa,
		  NULL);
	ktap_test_check(r == ARBEL_XL_SW_OWNED,
			"xlate after HW2SW_MPT -> SW-owned", "result %u", r);
}

/* zero-based: va is an offset from 0 */
static void xlate_zero_based(void)
{
	uint32_t key = lkey_of(hw_key(XL_IDX, XL_TAG + 1));
	struct arbel_xlate_res res;
	unsigned int r;
	uint8_t e[64];

	mpt_build(e, MPT_LR, 0, hw_key(XL_IDX, XL_TAG + 1), 7, XL_START, XL_LEN,
		  XL_MTT);
	put32(e + 12, 7 | MPT_ZB);
	check_status(sw2hw(XL_IDX, e), ST_OK, "SW2HW_MPT zero-based region");
	r = xlate(key, ARBEL_XL_ACC_LOCAL_READ, PAGE + 0x10, 1, XL_TO_BUF,
		  buf->pa, &res);
	ktap_test_check(r == ARBEL_XL_OK && buf->va[0] == 0x11 &&
			(uint32_t)res.pa == (uint32_t)(data[1]->pa + 0x10),
			"xlate zero-based offset", "result %u pa 0x%x", r,
			(uint32_t)res.pa);
	r = xlate(key, ARBEL_XL_ACC_LOCAL_READ, XL_LEN, 1, XL_TO_BUF, buf->pa,
		  NULL);
	ktap_test_check(r == ARBEL_XL_RANGE,
			"xlate zero-based past length -> out of range",
			"result %u", r);
	r = xlate(lkey_of(hw_key(XL_IDX, XL_TAG)), ARBEL_XL_ACC_LOCAL_READ, 0,
		  1, XL_TO_BUF, buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_KEY_MISMATCH,
			"xlate old key after re-registration", "result %u", r);
	check_status(cmd(OP_HW2SW_MPT, 1, 0, XL_IDX, 0), ST_OK,
		     "HW2SW_MPT zb region");
}

/* physical region (no translation), then MTT entries never written */
static void xlate_physical_unwritten(void)
{
	unsigned int r;
	uint8_t e[64];

	mpt_build(e, MPT_LR | MPT_PA | MPT_A, 0, hw_key(XL_IDX + 1, 1), 7, 0,
		  ~0ULL, 0);
	check_status(sw2hw(XL_IDX + 1, e), ST_OK,
		     "SW2HW_MPT physical region (pa=1)");
	data[1]->va[0x20] = 0x5e;
	r = xlate(lkey_of(hw_key(XL_IDX + 1, 1)), ARBEL_XL_ACC_LOCAL_READ,
		  data[1]->pa + 0x20, 1, XL_TO_BUF, buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_OK && buf->va[0] == 0x5e,
			"xlate physical region reads the PA itself",
			"result %u %02x", r, buf->va[0]);
	check_status(cmd(OP_HW2SW_MPT, 1, 0, XL_IDX + 1, 0), ST_OK,
		     "HW2SW_MPT physical region");

	mpt_build(e, MPT_LR, 0, hw_key(XL_IDX + 2, 0), 7, 0, PAGE,
		  MTT_BASE + 0x800);
	check_status(sw2hw(XL_IDX + 2, e), ST_OK,
		     "SW2HW_MPT over unwritten MTTs");
	r = xlate(lkey_of(hw_key(XL_IDX + 2, 0)), ARBEL_XL_ACC_LOCAL_READ, 0, 4,
		  XL_TO_BUF, buf->pa, NULL);
	ktap_test_check(r == ARBEL_XL_MTT_NOT_PRESENT,
			"xlate MTT not present -> refused", "result %u", r);
	check_status(cmd(OP_HW2SW_MPT, 1, 0, XL_IDX + 2, 0), ST_OK,
		     "HW2SW_MPT last region");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS) == 0,
			"no HW-owned MPT left", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS));
}

void suite_xlate(void)
{
	uint64_t ents[4];
	uint8_t e[64];
	int i;

	ktap_print_msg("suite: xlate");
	buf = page_alloc();
	for (i = 0; i < 3; i++) {
		data[i] = page_alloc();
		memset(data[i]->va, 0x10 + i, PAGE);
		ents[i] = data[i]->pa | 1;
	}
	ents[3] = 0;
	check_status(write_mtt(XL_MTT, ents, 4), ST_OK,
		     "WRITE_MTT for the region");
	mpt_build(e, MPT_LR | MPT_LW | MPT_RR, 0, hw_key(XL_IDX, XL_TAG), 7,
		  XL_START, XL_LEN, XL_MTT);
	check_status(sw2hw(XL_IDX, e), ST_OK, "SW2HW_MPT region lr|lw|rr");
	xlate_region();
	xlate_zero_based();
	xlate_physical_unwritten();
}
