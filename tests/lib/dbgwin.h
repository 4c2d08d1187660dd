/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/lib/dbgwin.h - arbel-stub's debug window: its registers, the
 * translation engine and fault injection.
 *
 * The register map is the stub's own header, qemu/arbel-dbgwin.h, included
 * here: it is the one place the offsets are written (the layout is
 * described in Documentation/arbel-stub.rst).  The window exists only on
 * the emulated HCA; real hardware has nothing at BAR0 + ARBEL_DBG_BASE.
 */
#ifndef ARBEL_TESTS_DBGWIN_H
#define ARBEL_TESTS_DBGWIN_H

#include <stdbool.h>
#include <stdint.h>

#include "../../qemu/arbel-dbgwin.h"
#include "dev.h"

/* HOLD_MS value that holds the go bit until released */
#define ARBEL_FI_HOLD_FOREVER	0xffffffffu

/**
 * arbel_dbg_read() - read a debug-window register
 * @d: the device, BAR0 mapped
 * @off: ARBEL_DBG_* offset inside the window
 */
uint32_t arbel_dbg_read(struct arbel_dev *d, uint32_t off);

/**
 * arbel_dbg_write() - write a debug-window register
 * @d: the device, BAR0 mapped
 * @off: ARBEL_DBG_* offset inside the window
 * @val: the value
 */
void arbel_dbg_write(struct arbel_dev *d, uint32_t off, uint32_t val);

/**
 * arbel_dbg_read64() - read a _HI/_LO register pair as one value
 * @d: the device, BAR0 mapped
 * @hi_off: offset of the _HI register (the _LO one follows it)
 */
uint64_t arbel_dbg_read64(struct arbel_dev *d, uint32_t hi_off);

/**
 * arbel_dbg_present() - whether BAR0 has arbel-stub's debug window
 * @d: the device, BAR0 mapped
 *
 * Return: true if the ID register reads ARBEL_DBG_ID_VALUE ("ARBD").
 */
bool arbel_dbg_present(struct arbel_dev *d);

/**
 * arbel_dbg_probe() - find the device and map its window if there is one
 * @d: filled in
 * @bdf_or_NULL: as for arbel_dev_find()
 *
 * For programs that also run on real hardware: nothing dies, and memory
 * decoding is not touched (a bound driver keeps it on).
 *
 * Return: true if BAR0 is mapped and has the debug window.
 */
bool arbel_dbg_probe(struct arbel_dev *d, const char *bdf_or_NULL);

/**
 * arbel_dbg_open() - find the device, map BAR0, check the window, or die
 * @d: filled in
 * @bdf_or_NULL: as for arbel_dev_find()
 *
 * Turns memory decoding on if it is off (arbel_dev_enable_mem()): the
 * window cannot be read without it.
 */
void arbel_dbg_open(struct arbel_dev *d, const char *bdf_or_NULL);

/* One request to the translation engine. */
struct arbel_xlate_req {
	uint32_t key;		/* as used on the wire (lkey/rkey form) */
	uint32_t access;	/* ARBEL_XL_ACC_* */
	uint64_t va;		/* first byte of the access */
	uint32_t len;		/* 1 .. ARBEL_XL_MAX_LEN bytes */
	uint32_t dir;		/* ARBEL_XL_DIR_TO_BUF or _TO_REGION */
	uint64_t buf_pa;	/* guest-physical, contiguous buffer */
};

/* What the engine answered. */
struct arbel_xlate_res {
	uint32_t result;	/* ARBEL_XL_* */
	uint64_t pa;		/* guest-physical address of the first byte */
	uint32_t index;		/* MPT slot the key selected */
};

/**
 * arbel_xlate() - let the stub's HCA access memory with a key
 * @d: the device, BAR0 mapped
 * @req: the access
 * @res: filled in with the result, the resolved address and the slot;
 *	may be NULL
 *
 * Runs synchronously: the engine walks MPT -> MTT -> memory as the HCA
 * would and copies the bytes between the region and @req->buf_pa only if
 * every check passes.
 *
 * Return: the ARBEL_XL_* result code.
 */
uint32_t arbel_xlate(struct arbel_dev *d, const struct arbel_xlate_req *req,
		     struct arbel_xlate_res *res);

/**
 * arbel_xlate_result_name() - "OK", "SW_OWNED", ... for an ARBEL_XL_* code
 * @result: the code; unknown ones give "?"
 */
const char *arbel_xlate_result_name(uint32_t result);

/**
 * arbel_xlate_access_name() - "local-read", ... for an ARBEL_XL_ACC_* type
 * @access: the type; unknown ones give "?"
 */
const char *arbel_xlate_access_name(uint32_t access);

/**
 * arbel_fi_fail() - fail the next or every Nth command with a status
 * @d: the device, BAR0 mapped
 * @opcode: the opcode to fail (0 turns this fault off)
 * @status: the HCR status it gets
 * @every: 0 for the next matching command only, N for every Nth
 *
 * The opcode is written last: it arms the fault.
 */
void arbel_fi_fail(struct arbel_dev *d, uint32_t opcode, uint32_t status,
		   uint32_t every);

/**
 * arbel_fi_hold() - hold the go bit of a command for a while
 * @d: the device, BAR0 mapped
 * @opcode: the opcode to hold, 0 for any
 * @ms: virtual-clock milliseconds, 0 to release, ARBEL_FI_HOLD_FOREVER
 *	until released
 */
void arbel_fi_hold(struct arbel_dev *d, uint32_t opcode, uint32_t ms);

/**
 * arbel_fi_release() - end a hold (HOLD_MS = 0), keeping its opcode
 * @d: the device, BAR0 mapped
 *
 * A held command then runs.
 */
void arbel_fi_release(struct arbel_dev *d);

/**
 * arbel_fi_corrupt() - flip bytes of a command's outbox (XOR 0xff)
 * @d: the device, BAR0 mapped
 * @opcode: the opcode whose outbox to corrupt (0 turns this fault off)
 * @offset: first byte
 * @len: bytes to flip
 * @every: 0 for the next matching outbox only, N for every Nth
 */
void arbel_fi_corrupt(struct arbel_dev *d, uint32_t opcode, uint32_t offset,
		      uint32_t len, uint32_t every);

/**
 * arbel_fi_clear() - every fault off (the counters are kept)
 * @d: the device, BAR0 mapped
 */
void arbel_fi_clear(struct arbel_dev *d);

#endif /* ARBEL_TESTS_DBGWIN_H */
