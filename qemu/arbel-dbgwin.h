/*
 * arbel-stub: the debug register window, as tests see it.
 *
 * This header is owned by the stub and is the one register map of the
 * window: the stub's C files, the C test library (tests/lib) and the
 * Python tests (tests/pylib/arbeltest/dbgwin.py, which reads the
 * "#define ARBEL_... value" lines of this file) all use it.  Keep it plain:
 * only "#define NAME value" lines with integer values, no includes.
 *
 * The window is a 4 KiB page at BAR0 + ARBEL_DBG_BASE, unused by the real
 * device.  The driver never touches it; tests reach it through sysfs
 * resource0.  Registers are big-endian 32-bit like the rest of BAR0.  The
 * layout is documented in Documentation/arbel-stub.rst.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef ARBEL_DBGWIN_H
#define ARBEL_DBGWIN_H

/* Where the window is */
#define ARBEL_DBG_BASE                  0xc0000 /* in BAR0 */
#define ARBEL_DBG_SIZE                  0x1000

/* Debug window registers (offsets inside the window) */
#define ARBEL_DBG_ID                    0x000 /* RO 'ARBD' */
#define ARBEL_DBG_VERSION               0x004 /* RO 1 */
#define ARBEL_DBG_FW_STATE              0x008 /* RO 0 reset, 1 running, 2 HCA */
#define ARBEL_DBG_CMD_COUNT             0x00c /* RO commands executed */
#define ARBEL_DBG_ICM_PAGES             0x010 /* RO mapped ICM 4K pages */
#define ARBEL_DBG_FA_PAGES              0x014 /* RO mapped FA 4K pages */
#define ARBEL_DBG_AUX_PAGES             0x018 /* RO mapped aux ICM 4K pages */
#define ARBEL_DBG_HW_MPTS               0x01c /* RO MPT entries HW owns */
#define ARBEL_DBG_ICM_SIZE_HI           0x020 /* RO SET_ICM_SIZE value */
#define ARBEL_DBG_ICM_SIZE_LO           0x024
#define ARBEL_DBG_LOG_MPT_SZ            0x028 /* RO from INIT_HCA */
#define ARBEL_DBG_MPT_BASE_HI           0x030 /* RO from INIT_HCA */
#define ARBEL_DBG_MPT_BASE_LO           0x034
#define ARBEL_DBG_MTT_BASE_HI           0x038 /* RO from INIT_HCA */
#define ARBEL_DBG_MTT_BASE_LO           0x03c
#define ARBEL_DBG_MTT_END_HI            0x040 /* RO end of the MTT area */
#define ARBEL_DBG_MTT_END_LO            0x044
#define ARBEL_DBG_TPT_HITS              0x048 /* RO TPT cache lookups answered */
#define ARBEL_DBG_TPT_MISSES            0x04c /* RO TPT cache lookups from ICM */
#define ARBEL_DBG_TPT_SYNCS             0x050 /* RO SYNC_TPT flushes */
#define ARBEL_DBG_DP_WQES               0x054 /* RO send WQEs executed */
#define ARBEL_DBG_DP_ERRORS             0x058 /* RO error CQEs written */
#define ARBEL_DBG_DP_RECVS              0x05c /* RO receive WQEs completed */
#define ARBEL_DBG_DP_BYTES              0x060 /* RO payload bytes (low 32) */

#define ARBEL_DBG_XL_KEY                0x100 /* RW key (lkey/rkey form) */
#define ARBEL_DBG_XL_ACCESS             0x104 /* RW ARBEL_XL_ACC_* */
#define ARBEL_DBG_XL_VA_HI              0x108 /* RW virtual address */
#define ARBEL_DBG_XL_VA_LO              0x10c
#define ARBEL_DBG_XL_LEN                0x110 /* RW length in bytes */
#define ARBEL_DBG_XL_DIR                0x114 /* RW 0 region->buf, 1 back */
#define ARBEL_DBG_XL_BUF_HI             0x118 /* RW guest-physical buffer */
#define ARBEL_DBG_XL_BUF_LO             0x11c
#define ARBEL_DBG_XL_GO                 0x120 /* WO write 1: run */
#define ARBEL_DBG_XL_RESULT             0x124 /* RO ARBEL_XL_* result code */
#define ARBEL_DBG_XL_PA_HI              0x128 /* RO PA of the first byte */
#define ARBEL_DBG_XL_PA_LO              0x12c
#define ARBEL_DBG_XL_INDEX              0x130 /* RO MPT slot used */
#define ARBEL_DBG_XL_COUNT              0x134 /* RO translations run */

#define ARBEL_DBG_FI_FAIL_OPCODE        0x200 /* RW 0 = off */
#define ARBEL_DBG_FI_FAIL_STATUS        0x204 /* RW */
#define ARBEL_DBG_FI_FAIL_EVERY         0x208 /* RW 0 = next matching only */
#define ARBEL_DBG_FI_FAILED             0x20c /* RO failures injected */
#define ARBEL_DBG_FI_HOLD_MS            0x210 /* RW 0 off, 0xffffffff forever */
#define ARBEL_DBG_FI_HOLD_OPCODE        0x214 /* RW 0 = any */
#define ARBEL_DBG_FI_CORRUPT_OPCODE     0x220 /* RW 0 = off */
#define ARBEL_DBG_FI_CORRUPT_OFFSET     0x224 /* RW */
#define ARBEL_DBG_FI_CORRUPT_LEN        0x228 /* RW bytes XORed with 0xff */
#define ARBEL_DBG_FI_CORRUPT_EVERY      0x22c /* RW 0 = next matching only */
#define ARBEL_DBG_FI_CORRUPTED          0x230 /* RO outboxes corrupted */
#define ARBEL_DBG_FI_CLEAR              0x23c /* WO write 1: all faults off */

/* 0x300..0x3ff: port and catastrophic-error events (arbel-catas.c) */
#define ARBEL_DBG_CATAS_FIRST           0x300
#define ARBEL_DBG_CATAS_LAST            0x3ff
#define ARBEL_DBG_PORT_EVENT            0x300 /* WO port | UP: post the EQE */
#define ARBEL_DBG_PORT_EVENTS           0x304 /* RO port events posted */
#define ARBEL_DBG_CATAS_INJECT          0x308 /* WO type: fill the buffer */
#define ARBEL_DBG_CATAS_CLEAR           0x30c /* WO write 1: clear it */
#define ARBEL_DBG_CATAS_WORD0           0x310 /* RO the buffer's dword 0 */
#define ARBEL_DBG_CATAS_COUNT           0x314 /* RO errors injected */

/*
 * 0x400..0x4ff: the card's life cycle (arbel-pci.c).  The counters start
 * from 0 at every reset (the reset register or a QEMU system reset).
 * While pulled the card is out of its slot: every read of BAR0, BAR2
 * (this window too) and config space returns all-ones, every write but
 * one to LC_PULLED is lost, no command runs, no DMA, no interrupt.
 * LC_STRAYS counts the mailboxes and data DMA that touched, and the
 * hand-overs of, pages the HCA owns (arbel-life.c); LC_OWN_EXPECT (kept
 * across resets) marks them expected in the log, for a test that
 * provokes them.
 */
#define ARBEL_DBG_LC_PULLED             0x400 /* RW ARBEL_LC_* below */
#define ARBEL_DBG_LC_ACCESSES           0x404 /* RO BAR0/BAR2 accesses */
#define ARBEL_DBG_LC_DMAS               0x408 /* RO DMA reads and writes */
#define ARBEL_DBG_LC_IRQS               0x40c /* RO interrupts raised */
#define ARBEL_DBG_LC_INTA_PIN           0x410 /* RW QUERY_ADAPTER inta_pin */
#define ARBEL_DBG_LC_STRAYS             0x414 /* RO ownership reports */
#define ARBEL_DBG_LC_OWN_EXPECT         0x418 /* RW 1: reports are expected */

/* ARBEL_DBG_LC_PULLED values (reads: 1 pulled, 0 in its slot) */
#define ARBEL_LC_BACK                   0 /* plugged back: powers up reset */
#define ARBEL_LC_PULLED                 1 /* pulled out of its slot */
#define ARBEL_LC_GLITCH_OVER            2 /* back as it was (link glitch) */

/* ARBEL_DBG_PORT_EVENT fields */
#define ARBEL_DBG_PORT_EVENT_PORT       0xff  /* bits 7:0: port, 1 or 2 */
#define ARBEL_DBG_PORT_EVENT_UP         0x100 /* bit 8: active, else down */

/* Value of ARBEL_DBG_ID: "ARBD" */
#define ARBEL_DBG_ID_VALUE              0x41524244

/* Translation engine result codes (ARBEL_DBG_XL_RESULT) */
#define ARBEL_XL_OK                     0
#define ARBEL_XL_NOT_RUNNING            1
#define ARBEL_XL_BAD_REQUEST            2
#define ARBEL_XL_MPT_UNMAPPED           3
#define ARBEL_XL_SW_OWNED               4
#define ARBEL_XL_KEY_MISMATCH           5
#define ARBEL_XL_NOT_REGION             6
#define ARBEL_XL_ACCESS                 7
#define ARBEL_XL_RANGE                  8
#define ARBEL_XL_MTT_RANGE              9
#define ARBEL_XL_MTT_UNMAPPED           10
#define ARBEL_XL_MTT_NOT_PRESENT        11
#define ARBEL_XL_DMA_ERROR              12
#define ARBEL_XL_PD                     13 /* the region's PD is not the QP's */
#define ARBEL_XL_IDLE                   0xff

/* Translation engine access types (ARBEL_DBG_XL_ACCESS) */
#define ARBEL_XL_ACC_LOCAL_READ         1
#define ARBEL_XL_ACC_LOCAL_WRITE        2
#define ARBEL_XL_ACC_REMOTE_READ        3
#define ARBEL_XL_ACC_REMOTE_WRITE       4
#define ARBEL_XL_ACC_ATOMIC             5

/* Translation engine directions (ARBEL_DBG_XL_DIR) */
#define ARBEL_XL_DIR_TO_BUF             0 /* region -> buffer (a read) */
#define ARBEL_XL_DIR_TO_REGION          1 /* buffer -> region (a write) */

/* Longest translation one request may move, in bytes (1 MiB) */
#define ARBEL_XL_MAX_LEN                0x100000

#endif /* ARBEL_DBGWIN_H */
