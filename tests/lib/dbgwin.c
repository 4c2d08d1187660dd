// SPDX-License-Identifier: GPL-2.0
/*
 * tests/lib/dbgwin.c - arbel-stub's debug window; see dbgwin.h.
 */
#include "dbgwin.h"
#include "util.h"

uint32_t arbel_dbg_read(struct arbel_dev *d, uint32_t off)
{
	if (off >= ARBEL_DBG_SIZE)
		arbel_die("debug window offset 0x%x outside the window", off);
	return arbel_be32_read(d, ARBEL_DBG_BASE + off);
}

void arbel_dbg_write(struct arbel_dev *d, uint32_t off, uint32_t val)
{
	if (off >= ARBEL_DBG_SIZE)
		arbel_die("debug window offset 0x%x outside the window", off);
	arbel_be32_write(d, ARBEL_DBG_BASE + off, val);
}

uint64_t arbel_dbg_read64(struct arbel_dev *d, uint32_t hi_off)
{
	uint64_t hi = arbel_dbg_read(d, hi_off);

	return hi << 32 | arbel_dbg_read(d, hi_off + 4);
}

bool arbel_dbg_present(struct arbel_dev *d)
{
	return d->bar0_len >= ARBEL_DBG_BASE + ARBEL_DBG_SIZE &&
	       arbel_dbg_read(d, ARBEL_DBG_ID) == ARBEL_DBG_ID_VALUE;
}

bool arbel_dbg_probe(struct arbel_dev *d, const char *bdf_or_NULL)
{
	return arbel_dev_lookup(d, bdf_or_NULL) == 0 &&
	       arbel_dev_try_map_bar(d, 0, NULL) && arbel_dbg_present(d);
}

void arbel_dbg_open(struct arbel_dev *d, const char *bdf_or_NULL)
{
	uint32_t id;

	arbel_dev_find(d, bdf_or_NULL);
	arbel_dev_enable_mem(d);
	arbel_dev_map_bar(d, 0, NULL);
	if (!arbel_dbg_present(d)) {
		id = d->bar0_len >= ARBEL_DBG_BASE + ARBEL_DBG_SIZE ?
		     arbel_dbg_read(d, ARBEL_DBG_ID) : 0;
		arbel_die("debug window id is 0x%08x, not 0x%08x (not arbel-stub?)",
			  id, ARBEL_DBG_ID_VALUE);
	}
}

uint32_t arbel_xlate(struct arbel_dev *d, const struct arbel_xlate_req *req,
		     struct arbel_xlate_res *res)
{
	struct arbel_xlate_res tmp;

	if (!res)
		res = &tmp;
	arbel_dbg_write(d, ARBEL_DBG_XL_KEY, req->key);
	arbel_dbg_write(d, ARBEL_DBG_XL_ACCESS, req->access);
	arbel_dbg_write(d, ARBEL_DBG_XL_VA_HI, (uint32_t)(req->va >> 32));
	arbel_dbg_write(d, ARBEL_DBG_XL_VA_LO, (uint32_t)req->va);
	arbel_dbg_write(d, ARBEL_DBG_XL_LEN, req->len);
	arbel_dbg_write(d, ARBEL_DBG_XL_DIR, req->dir);
	arbel_dbg_write(d, ARBEL_DBG_XL_BUF_HI, (uint32_t)(req->buf_pa >> 32));
	arbel_dbg_write(d, ARBEL_DBG_XL_BUF_LO, (uint32_t)req->buf_pa);
	arbel_dbg_write(d, ARBEL_DBG_XL_GO, 1);
	res->result = arbel_dbg_read(d, ARBEL_DBG_XL_RESULT);
	res->pa = arbel_dbg_read64(d, ARBEL_DBG_XL_PA_HI);
	res->index = arbel_dbg_read(d, ARBEL_DBG_XL_INDEX);
	return res->result;
}

const char *arbel_xlate_result_name(uint32_t result)
{
	static const char *const names[] = {
		[ARBEL_XL_OK] = "OK",
		[ARBEL_XL_NOT_RUNNING] = "NOT_RUNNING",
		[ARBEL_XL_BAD_REQUEST] = "BAD_REQUEST",
		[ARBEL_XL_MPT_UNMAPPED] = "MPT_UNMAPPED",
		[ARBEL_XL_SW_OWNED] = "SW_OWNED",
		[ARBEL_XL_KEY_MISMATCH] = "KEY_MISMATCH",
		[ARBEL_XL_NOT_REGION] = "NOT_REGION",
		[ARBEL_XL_ACCESS] = "ACCESS",
		[ARBEL_XL_RANGE] = "RANGE",
		[ARBEL_XL_MTT_RANGE] = "MTT_RANGE",
		[ARBEL_XL_MTT_UNMAPPED] = "MTT_UNMAPPED",
		[ARBEL_XL_MTT_NOT_PRESENT] = "MTT_NOT_PRESENT",
		[ARBEL_XL_DMA_ERROR] = "DMA_ERROR",
	};

	if (result == ARBEL_XL_IDLE)
		return "IDLE";
	if (result < ARRAY_SIZE(names) && names[result])
		return names[result];
	return "?";
}

const char *arbel_xlate_access_name(uint32_t access)
{
	static const char *const names[] = {
		[ARBEL_XL_ACC_LOCAL_READ] = "local-read",
		[ARBEL_XL_ACC_LOCAL_WRITE] = "local-write",
		[ARBEL_XL_ACC_REMOTE_READ] = "remote-read",
		[ARBEL_XL_ACC_REMOTE_WRITE] = "remote-write",
		[ARBEL_XL_ACC_ATOMIC] = "atomic",
	};

	if (access < ARRAY_SIZE(names) && names[access])
		return names[access];
	return "?";
}

void arbel_fi_fail(struct arbel_dev *d, uint32_t opcode, uint32_t status,
		   uint32_t every)
{
	arbel_dbg_write(d, ARBEL_DBG_FI_FAIL_STATUS, status);
	arbel_dbg_write(d, ARBEL_DBG_FI_FAIL_EVERY, every);
	arbel_dbg_write(d, ARBEL_DBG_FI_FAIL_OPCODE, opcode);
}

void arbel_fi_hold(struct arbel_dev *d, uint32_t opcode, uint32_t ms)
{
	arbel_dbg_write(d, ARBEL_DBG_FI_HOLD_OPCODE, opcode);
	arbel_dbg_write(d, ARBEL_DBG_FI_HOLD_MS, ms);
}

void arbel_fi_release(struct arbel_dev *d)
{
	arbel_dbg_write(d, ARBEL_DBG_FI_HOLD_MS, 0);
}

void arbel_fi_corrupt(struct arbel_dev *d, uint32_t opcode, uint32_t offset,
		      uint32_t len, uint32_t every)
{
	arbel_dbg_write(d, ARBEL_DBG_FI_CORRUPT_OFFSET, offset);
	arbel_dbg_write(d, ARBEL_DBG_FI_CORRUPT_LEN, len);
	arbel_dbg_write(d, ARBEL_DBG_FI_CORRUPT_EVERY, every);
	arbel_dbg_write(d, ARBEL_DBG_FI_CORRUPT_OPCODE, opcode);
}

void arbel_fi_clear(struct arbel_dev *d)
{
	arbel_dbg_write(d, ARBEL_DBG_FI_CLEAR, 1);
}
