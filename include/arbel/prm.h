/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hardware interface of the Mellanox InfiniHost III Ex ("Arbel", MT25208)
 * in native mem-free mode: BAR layout, the HCA command register (HCR),
 * firmware opcodes and status codes, and the layouts of the MPT and MTT
 * entries.
 *
 * Every hardware structure is a sequence of big-endian 32-bit dwords.
 * Fields are given as a dword index plus a GENMASK() inside that dword, in
 * the host's view after be32_to_cpu(); use FIELD_PREP()/FIELD_GET().
 *
 * Where each fact comes from (the PRM struct, or the mthca or iPXE file
 * that shows it) is in Documentation/arbel-hw.rst; the MPT entry follows
 * the PRM's struct arbelprm_mpt_st, a copy of which is in
 * tests/data/arbelprm_mpt_st.txt.
 *
 * The rule for the two header directories:
 *   include/arbel/  this file (the hardware interface) and the headers of
 *                   the pure layers (MPT encoding, HCR packing, status and
 *                   opcode names, ICM profile, allocators, page size, EQ
 *                   entries, board ID).  They include only kernel headers
 *                   and each other, never a driver header, and touch no
 *                   device: the UML KUnit suites include nothing else.
 *   drivers/infiniband/hw/arbel/ (its .h files)  the driver's internal
 *                   headers, one per layer above those (transport, firmware commands,
 *                   ICM, MTT, MR, EQ, verbs; arbel.h the device); each may
 *                   include include/arbel/ and the layers below it.  Only
 *                   the command-flow suites against arbel-stub reach them.
 */
#ifndef _ARBEL_PRM_H
#define _ARBEL_PRM_H

#include <linux/bits.h>
#include <linux/sizes.h>

/* ---- PCI identity ---------------------------------------------------- */

#define ARBEL_PCI_VENDOR_MELLANOX	0x15b3
#define ARBEL_PCI_DEVICE_ARBEL		0x6282	/* MT25208, native mem-free */

/* ---- BARs ------------------------------------------------------------ */

/* All three BARs are 64-bit, so they sit at resource indices 0, 2, 4. */
#define ARBEL_DCS_BAR			0	/* device configuration space */
#define ARBEL_UAR_BAR			2	/* user access regions */
#define ARBEL_DDR_BAR			4	/* absent on a mem-free HCA */

#define ARBEL_DCS_SIZE			SZ_1M	/* BAR0 must be exactly this */
#define ARBEL_UAR_PAGE_SIZE		SZ_4K

/* ---- Reset ----------------------------------------------------------- */

#define ARBEL_RESET_OFFSET		0xf0010	/* in BAR0 */
#define ARBEL_RESET_VALUE		1	/* written as a big-endian dword */
#define ARBEL_RESET_SETTLE_MS		1000	/* "docs say wait one second" */
#define ARBEL_RESET_POLL_MS		100
#define ARBEL_RESET_POLL_TRIES		100
/*
 * The reset also clears the HCA's PCI config space.  Config dwords 22 and
 * 23 (offsets 0x58 and 0x5c) have a special meaning and must not be
 * written back; everything else that software set is restored.
 */

/* ---- HCA command register -------------------------------------------- */

#define ARBEL_HCR_OFFSET		0x80680	/* in BAR0 */
#define ARBEL_HCR_SIZE			0x1c	/* 7 dwords */

/* Dword indices inside the HCR. */
#define ARBEL_HCR_IN_PARAM_H		0
#define ARBEL_HCR_IN_PARAM_L		1
#define ARBEL_HCR_IN_MODIFIER		2
#define ARBEL_HCR_OUT_PARAM_H		3
#define ARBEL_HCR_OUT_PARAM_L		4
#define ARBEL_HCR_TOKEN			5
#define ARBEL_HCR_CTRL			6
#define ARBEL_HCR_DWORDS		7

/* Dword 5 */
#define ARBEL_HCR_TOKEN_MASK		GENMASK(31, 16)
/* Dword 6; bits 21:16 are reserved (Arbel has no toggle bit). */
#define ARBEL_HCR_OPCODE		GENMASK(11, 0)
#define ARBEL_HCR_OPMOD			GENMASK(15, 12)
#define ARBEL_HCR_E			BIT(22)
#define ARBEL_HCR_GO			BIT(23)
#define ARBEL_HCR_STATUS		GENMASK(31, 24)

/* The token used for commands in polling mode. */
#define ARBEL_HCR_POLL_TOKEN		0xffff

/* Mailboxes: 4 KiB, 4 KiB aligned. */
#define ARBEL_MAILBOX_SIZE		SZ_4K
#define ARBEL_MAILBOX_ALIGN		SZ_4K

/*
 * ---- Firmware opcodes -----------------------------------------------
 * Plain constants, not an enum, here and for the status codes: a
 * tracepoint's format then carries their values, which trace-cmd and perf
 * decode offline without an eval map (trace.h).
 */

#define ARBEL_CMD_SYS_EN		0x001
#define ARBEL_CMD_SYS_DIS		0x002
#define ARBEL_CMD_QUERY_DEV_LIM		0x003
#define ARBEL_CMD_QUERY_FW		0x004
#define ARBEL_CMD_QUERY_DDR		0x005
#define ARBEL_CMD_QUERY_ADAPTER		0x006
#define ARBEL_CMD_INIT_HCA		0x007
#define ARBEL_CMD_CLOSE_HCA		0x008
#define ARBEL_CMD_INIT_IB		0x009
#define ARBEL_CMD_CLOSE_IB		0x00a
#define ARBEL_CMD_QUERY_HCA		0x00b
#define ARBEL_CMD_SET_IB		0x00c
#define ARBEL_CMD_SW2HW_MPT		0x00d
#define ARBEL_CMD_QUERY_MPT		0x00e
#define ARBEL_CMD_HW2SW_MPT		0x00f
#define ARBEL_CMD_READ_MTT		0x010
#define ARBEL_CMD_WRITE_MTT		0x011
#define ARBEL_CMD_MAP_EQ		0x012
#define ARBEL_CMD_SW2HW_EQ		0x013
#define ARBEL_CMD_HW2SW_EQ		0x014
#define ARBEL_CMD_QUERY_EQ		0x015
#define ARBEL_CMD_SW2HW_CQ		0x016
#define ARBEL_CMD_HW2SW_CQ		0x017
#define ARBEL_CMD_QUERY_CQ		0x018
#define ARBEL_CMD_RST2INIT_QPEE		0x019
#define ARBEL_CMD_INIT2RTR_QPEE		0x01a
#define ARBEL_CMD_RTR2RTS_QPEE		0x01b
#define ARBEL_CMD_RTS2RTS_QPEE		0x01c
#define ARBEL_CMD_SQERR2RTS_QPEE	0x01d
#define ARBEL_CMD_2ERR_QPEE		0x01e
#define ARBEL_CMD_RTS2SQD_QPEE		0x01f
#define ARBEL_CMD_SQD2RTS_QPEE		0x020
#define ARBEL_CMD_ERR2RST_QPEE		0x021
#define ARBEL_CMD_QUERY_QPEE		0x022
#define ARBEL_CMD_CONF_SPECIAL_QP	0x023
#define ARBEL_CMD_MAD_IFC		0x024
#define ARBEL_CMD_READ_MGM		0x025
#define ARBEL_CMD_WRITE_MGM		0x026
#define ARBEL_CMD_MGID_HASH		0x027
#define ARBEL_CMD_QUERY_DEBUG_MSG	0x02a
#define ARBEL_CMD_SET_DEBUG_MSG		0x02b
#define ARBEL_CMD_RESIZE_CQ		0x02c
#define ARBEL_CMD_INIT2INIT_QPEE	0x02d
#define ARBEL_CMD_ACCESS_DDR		0x02e
#define ARBEL_CMD_SYNC_TPT		0x02f
#define ARBEL_CMD_DIAG_RPRT		0x030
#define ARBEL_CMD_NOP			0x031
#define ARBEL_CMD_SUSPEND_QPEE		0x032
#define ARBEL_CMD_UNSUSPEND_QPEE	0x033
#define ARBEL_CMD_MOD_STAT_CFG		0x034
#define ARBEL_CMD_SW2HW_SRQ		0x035
#define ARBEL_CMD_HW2SW_SRQ		0x036
#define ARBEL_CMD_QUERY_SRQ		0x037
#define ARBEL_CMD_SQD2SQD_QPEE		0x038
#define ARBEL_CMD_ARM_SRQ		0x040
#define ARBEL_CMD_RUN_FW		0xff6
#define ARBEL_CMD_DISABLE_LAM		0xff7
#define ARBEL_CMD_ENABLE_LAM		0xff8
#define ARBEL_CMD_UNMAP_ICM		0xff9
#define ARBEL_CMD_MAP_ICM		0xffa
#define ARBEL_CMD_UNMAP_ICM_AUX		0xffb
#define ARBEL_CMD_MAP_ICM_AUX		0xffc
#define ARBEL_CMD_SET_ICM_SIZE		0xffd
#define ARBEL_CMD_UNMAP_FA		0xffe
#define ARBEL_CMD_MAP_FA		0xfff

/* HW2SW_MPT opcode modifiers */
#define ARBEL_HW2SW_MPT_RETURN_ENTRY	0
#define ARBEL_HW2SW_MPT_NO_ENTRY	1

/* MAD_IFC: a 256-byte MAD in and out; opcode modifier bits */
#define ARBEL_MAD_SIZE			256
#define ARBEL_MAD_IFC_IGNORE_MKEY	BIT(0)
#define ARBEL_MAD_IFC_IGNORE_BKEY	BIT(1)

/* NOP's input modifier for the interrupt self-test */
#define ARBEL_NOP_IN_MOD		0x1f

/* ---- Firmware status codes (HCR dword 6 bits 31:24) ------------------ */

#define ARBEL_STAT_OK			0x00
#define ARBEL_STAT_INTERNAL_ERR		0x01
#define ARBEL_STAT_BAD_OP		0x02
#define ARBEL_STAT_BAD_PARAM		0x03
#define ARBEL_STAT_BAD_SYS_STATE	0x04
#define ARBEL_STAT_BAD_RESOURCE		0x05
#define ARBEL_STAT_RESOURCE_BUSY	0x06
#define ARBEL_STAT_DDR_MEM_ERR		0x07
#define ARBEL_STAT_EXCEED_LIM		0x08
#define ARBEL_STAT_BAD_RES_STATE	0x09
#define ARBEL_STAT_BAD_INDEX		0x0a
#define ARBEL_STAT_BAD_NVMEM		0x0b
#define ARBEL_STAT_BAD_QPEE_STATE	0x10
#define ARBEL_STAT_BAD_SEG_PARAM	0x20
#define ARBEL_STAT_REG_BOUND		0x21
#define ARBEL_STAT_LAM_NOT_PRE		0x22
#define ARBEL_STAT_BAD_PKT		0x30
#define ARBEL_STAT_BAD_SIZE		0x40

/* ---- Command timeouts ------------------------------------------------ */

/*
 * The PRM classes commands A (~1 ms) to D (60 s), but the firmware can be
 * starved and complete late, so every class waits 60 s (as mthca does).
 */
#define ARBEL_CMD_TIMEOUT_MS		60000

/* ---- Mailbox layouts of the bring-up commands (byte offsets) ---------- */

/*
 * The bytes of each mailbox that a command fills or reads (mthca's
 * *_IN_SIZE / *_OUT_SIZE); the rest of the 4 KiB mailbox is zero.
 */
#define ARBEL_QUERY_FW_OUT_SIZE		0x100
#define ARBEL_ENABLE_LAM_OUT_SIZE	0x100
#define ARBEL_QUERY_DEV_LIM_OUT_SIZE	0x100
#define ARBEL_QUERY_ADAPTER_OUT_SIZE	0x100
#define ARBEL_INIT_HCA_IN_SIZE		0x200

/* QUERY_FW outbox */
#define ARBEL_QUERY_FW_FW_PAGES		0x00	/* u16, 4 KiB pages */
#define ARBEL_QUERY_FW_MAJOR		0x02	/* u16 */
#define ARBEL_QUERY_FW_SUBMINOR		0x04	/* u16 */
#define ARBEL_QUERY_FW_MINOR		0x06	/* u16 */
#define ARBEL_QUERY_FW_LOG_MAX_CMDS	0x0f	/* u8 */
/*
 * Register addresses (u64) as the device reports them: bus addresses,
 * i.e. BAR0's start plus the register's offset; mthca masks them with
 * BAR0's length - 1, iPXE maps them as they are.
 */
#define ARBEL_QUERY_FW_CLR_INT_BASE	0x20
#define ARBEL_QUERY_FW_CATAS_BASE	0x30
#define ARBEL_QUERY_FW_CATAS_SIZE	0x38	/* u32, dwords */
#define ARBEL_QUERY_FW_EQ_ARM_BASE	0x40
#define ARBEL_QUERY_FW_EQ_SET_CI_BASE	0x48

/* QUERY_DEV_LIM outbox; "log" fields are log2 */
#define ARBEL_DEV_LIM_MAX_SRQ_SZ	0x10	/* log2 */
#define ARBEL_DEV_LIM_MAX_QP_SZ		0x11	/* log2 */
#define ARBEL_DEV_LIM_RSVD_QP		0x12	/* bits 3:0 */
#define ARBEL_DEV_LIM_MAX_QP		0x13	/* bits 4:0 */
#define ARBEL_DEV_LIM_RSVD_SRQ		0x14	/* bits 7:4 */
#define ARBEL_DEV_LIM_MAX_SRQ		0x15
#define ARBEL_DEV_LIM_RSVD_EEC		0x16	/* bits 3:0 */
#define ARBEL_DEV_LIM_MAX_CQ_SZ		0x19	/* log2 */
#define ARBEL_DEV_LIM_RSVD_CQ		0x1a	/* bits 3:0 */
#define ARBEL_DEV_LIM_MAX_CQ		0x1b	/* bits 4:0 */
#define ARBEL_DEV_LIM_MAX_MPT		0x1d	/* bits 5:0 */
#define ARBEL_DEV_LIM_RSVD_EQ		0x1e	/* bits 3:0 */
#define ARBEL_DEV_LIM_MAX_EQ		0x1f	/* bits 2:0 */
#define ARBEL_DEV_LIM_RSVD_MTT		0x20	/* bits 7:4, MTT entries */
#define ARBEL_DEV_LIM_MAX_MR_SIZE	0x21
#define ARBEL_DEV_LIM_RSVD_MRW		0x22	/* bits 3:0 */
#define ARBEL_DEV_LIM_MAX_MTT_SEG	0x23
#define ARBEL_DEV_LIM_MAX_REQ_QP	0x29	/* bits 5:0, log2 */
#define ARBEL_DEV_LIM_MAX_RES_QP	0x2b	/* bits 5:0, log2 */
#define ARBEL_DEV_LIM_ACK_DELAY		0x35	/* bits 4:0 */
#define ARBEL_DEV_LIM_FLAGS		0x44	/* u32: */
#define ARBEL_DEV_LIM_FLAG_SRQ		BIT(6)
#define ARBEL_DEV_LIM_FLAG_BAD_PKEY_CNTR	BIT(8)
#define ARBEL_DEV_LIM_FLAG_BAD_QKEY_CNTR	BIT(9)
#define ARBEL_DEV_LIM_FLAG_UD_AV_PORT	BIT(20)
#define ARBEL_DEV_LIM_FLAG_ATOMIC	BIT(18)
#define ARBEL_DEV_LIM_MTU_WIDTH		0x36	/* MTU cap 7:4, width cap 3:0 */
#define ARBEL_DEV_LIM_VL_PORT		0x37	/* VL cap 7:4, ports 3:0 */
#define ARBEL_DEV_LIM_MAX_GID		0x3b	/* bits 3:0, log2 */
#define ARBEL_DEV_LIM_MAX_PKEY		0x3f	/* bits 3:0, log2 */
#define ARBEL_DEV_LIM_RSVD_UAR		0x48	/* bits 7:4, a count */
#define ARBEL_DEV_LIM_UAR_SIZE		0x49	/* log2(bytes) - 20 */
#define ARBEL_DEV_LIM_MIN_PAGE_SZ	0x4b
#define ARBEL_DEV_LIM_MAX_SG		0x51
#define ARBEL_DEV_LIM_MAX_DESC_SZ	0x52	/* u16 */
#define ARBEL_DEV_LIM_MAX_SG_RQ		0x55
#define ARBEL_DEV_LIM_MAX_DESC_SZ_RQ	0x56	/* u16 */
#define ARBEL_DEV_LIM_RSVD_PD		0x64	/* bits 7:4, a count */
#define ARBEL_DEV_LIM_MAX_PD		0x65	/* bits 5:0 */
#define ARBEL_DEV_LIM_EEC_ENTRY_SZ	0x80	/* u16 */
#define ARBEL_DEV_LIM_QPC_ENTRY_SZ	0x82	/* u16 */
#define ARBEL_DEV_LIM_EEEC_ENTRY_SZ	0x84	/* u16 */
#define ARBEL_DEV_LIM_EQPC_ENTRY_SZ	0x86	/* u16 */
#define ARBEL_DEV_LIM_EQC_ENTRY_SZ	0x88	/* u16 */
#define ARBEL_DEV_LIM_CQC_ENTRY_SZ	0x8a	/* u16 */
#define ARBEL_DEV_LIM_SRQ_ENTRY_SZ	0x8c	/* u16 */
#define ARBEL_DEV_LIM_UAR_SCR_ENTRY_SZ	0x8e	/* u16 */
#define ARBEL_DEV_LIM_MTT_ENTRY_SZ	0x90	/* u16 */
#define ARBEL_DEV_LIM_MPT_ENTRY_SZ	0x92	/* u16 */
#define ARBEL_DEV_LIM_MAX_ICM_SZ	0xa0	/* u64 */

/* INIT_IB inbox (mthca's INIT_IB_*) */
#define ARBEL_INIT_IB_IN_SIZE		56
#define ARBEL_INIT_IB_FLAGS		0x00	/* be32 */
#define ARBEL_INIT_IB_VL_CAP		GENMASK(7, 4)
#define ARBEL_INIT_IB_WIDTH_CAP		GENMASK(11, 8)
#define ARBEL_INIT_IB_MTU_CAP		GENMASK(15, 12)
#define ARBEL_INIT_IB_MAX_GID		0x06	/* be16 */
#define ARBEL_INIT_IB_MAX_PKEY		0x0a	/* be16 */

/* SET_IB inbox (mthca_SET_IB): flags, the port's capability mask */
#define ARBEL_SET_IB_IN_SIZE		0x40
#define ARBEL_SET_IB_FLAGS		0x00	/* be32 */
#define ARBEL_SET_IB_FLAG_RQK		BIT(0)	/* reset Q_Key violations */
#define ARBEL_SET_IB_CAP_MASK		0x04	/* be32 */

#define ARBEL_DEV_LIM_LOG4_MASK		GENMASK(3, 0)
#define ARBEL_DEV_LIM_HIGH4_MASK	GENMASK(7, 4)
#define ARBEL_DEV_LIM_LOG5_MASK		GENMASK(4, 0)
#define ARBEL_DEV_LIM_LOG6_MASK		GENMASK(5, 0)
#define ARBEL_DEV_LIM_LOG3_MASK		GENMASK(2, 0)
#define ARBEL_DEV_LIM_UAR_SIZE_SHIFT	20

/*
 * QUERY_ADAPTER outbox: the interrupt pin wired to INTA# at 0x10 (mthca's
 * QUERY_ADAPTER_INTA_PIN_OFFSET); the vendor-specific data (VSD) from 0x20.  A
 * Mellanox board keeps its ID at VSD + 0xd0, each dword byte-swapped; a
 * Topspin board (both be16 signatures 0x5ad) a plain string at VSD + 0x20.
 */
#define ARBEL_QUERY_ADAPTER_INTA_PIN	0x10
#define ARBEL_QUERY_ADAPTER_VSD		0x20
#define ARBEL_VSD_SIG1			0x00	/* be16 */
#define ARBEL_VSD_SIG2			0xde	/* be16 */
#define ARBEL_VSD_SIG_TOPSPIN		0x5ad
#define ARBEL_VSD_MLX_BOARD_ID		0xd0
#define ARBEL_VSD_TS_BOARD_ID		0x20
#define ARBEL_BOARD_ID_LEN		16

/* INIT_HCA inbox; table bases are u64, logs u8 */
#define ARBEL_INIT_HCA_QPC_BASE		0x30
#define ARBEL_INIT_HCA_LOG_QP		0x37
#define ARBEL_INIT_HCA_EEC_BASE		0x40
#define ARBEL_INIT_HCA_LOG_EEC		0x47
#define ARBEL_INIT_HCA_SRQC_BASE	0x48
#define ARBEL_INIT_HCA_LOG_SRQ		0x4f
#define ARBEL_INIT_HCA_CQC_BASE		0x50
#define ARBEL_INIT_HCA_LOG_CQ		0x57
#define ARBEL_INIT_HCA_EQPC_BASE	0x60
#define ARBEL_INIT_HCA_EEEC_BASE	0x70
#define ARBEL_INIT_HCA_EQC_BASE		0x80
#define ARBEL_INIT_HCA_LOG_EQ		0x87
#define ARBEL_INIT_HCA_RDB_BASE		0x90
#define ARBEL_INIT_HCA_MC_BASE		0xc0
#define ARBEL_INIT_HCA_MC_LOG_ENTRY_SZ	0xd2	/* u16 */
#define ARBEL_INIT_HCA_MC_HASH_SZ	0xd6	/* u16 */
#define ARBEL_INIT_HCA_MC_LOG_SIZE	0xdb	/* u8 */
#define ARBEL_INIT_HCA_MPT_BASE		0xf0
#define ARBEL_INIT_HCA_LOG_MPT_SZ	0xfb	/* bits 5:0 */
#define ARBEL_INIT_HCA_MTT_BASE		0x100
#define ARBEL_INIT_HCA_UARC_LOG_SZ	0x129	/* log2(UAR context / 4 KiB) */
#define ARBEL_INIT_HCA_LOG_UARS		0x12a
#define ARBEL_INIT_HCA_UAR_PAGE_SZ	0x12b	/* PAGE_SHIFT - 12 */
#define ARBEL_INIT_HCA_UAR_SCR_BASE	0x130
#define ARBEL_INIT_HCA_UARC_BASE	0x138

/* MAP_FA / MAP_ICM / MAP_ICM_AUX: 16-byte (va, pa | log2 size) entries */
#define ARBEL_MAP_ENTRY_SIZE		16
#define ARBEL_MAP_MAX_ENTRIES		(ARBEL_MAILBOX_SIZE / ARBEL_MAP_ENTRY_SIZE)
#define ARBEL_MAP_LOG_SIZE		GENMASK_ULL(5, 0)	/* of size/4K */
#define ARBEL_MAP_ADDR			GENMASK_ULL(63, 12)

/* ICM is mapped in 4 KiB units; tables are handled in 256 KiB chunks. */
#define ARBEL_ICM_PAGE_SHIFT		12
#define ARBEL_ICM_PAGE_SIZE		SZ_4K
#define ARBEL_ICM_CHUNK_SIZE		SZ_256K

/* ---- MPT entry (arbelprm_mpt_st): 64 bytes, 16 big-endian dwords ---- */

#define ARBEL_MPT_ENTRY_SIZE		64
#define ARBEL_MPT_DWORDS		16

/* Dword 0: flags and status */
#define ARBEL_MPT_DW_FLAGS		0
#define ARBEL_MPT_R_W			BIT(8)	/* 1 = region, 0 = window */
#define ARBEL_MPT_PA			BIT(9)	/* physical: no translation */
#define ARBEL_MPT_LR			BIT(10)	/* local read */
#define ARBEL_MPT_LW			BIT(11)	/* local write */
#define ARBEL_MPT_RR			BIT(12)	/* remote read */
#define ARBEL_MPT_RW			BIT(13)	/* remote write */
#define ARBEL_MPT_A			BIT(14)	/* remote atomic */
#define ARBEL_MPT_EB			BIT(15)	/* bind enable (regions) */
#define ARBEL_MPT_STATUS		GENMASK(31, 28)
#define ARBEL_MPT_DW0_RSVD		(GENMASK(7, 0) | GENMASK(27, 16))

/* Values of the status nibble */
#define ARBEL_MPT_STATUS_HW		0x0	/* hardware owned, valid */
#define ARBEL_MPT_STATUS_FREE		0x3	/* unbound type-2 window */
#define ARBEL_MPT_STATUS_SW		0xf	/* software owned, invalid */

/* Dword 1: page size, window type, QP number */
#define ARBEL_MPT_DW_PAGE		1
#define ARBEL_MPT_PAGE_SIZE		GENMASK(4, 0)	/* log2(size / 4 KiB) */
#define ARBEL_MPT_TYPE			BIT(7)		/* windows: 1 = type 2 */
#define ARBEL_MPT_QPN			GENMASK(31, 8)
#define ARBEL_MPT_DW1_RSVD		GENMASK(6, 5)
#define ARBEL_MPT_PAGE_SIZE_LIMIT	20	/* page_size must be below */
#define ARBEL_MPT_PAGE_SHIFT_BASE	12	/* page_size 0 = 4 KiB */

/* Dword 2: the key in hardware-index form */
#define ARBEL_MPT_DW_KEY		2

/* Dword 3: PD and region attributes */
#define ARBEL_MPT_DW_PD			3
#define ARBEL_MPT_PD			GENMASK(23, 0)
#define ARBEL_MPT_EI			BIT(25)	/* enable invalidation */
#define ARBEL_MPT_ZB			BIT(26)	/* zero based */
#define ARBEL_MPT_FRE			BIT(27)	/* fast register enable */
#define ARBEL_MPT_RAE			BIT(28)	/* remote access enable */
#define ARBEL_MPT_DW3_RSVD		(BIT(24) | GENMASK(31, 29))

/*
 * 64-bit fields span two dwords, the high half first; the index is that
 * of the high dword.
 */
#define ARBEL_MPT_DW_START		4	/* dwords 4-5 */
#define ARBEL_MPT_DW_LENGTH		6	/* dwords 6-7 */

/* Dwords 8..10 */
#define ARBEL_MPT_DW_LKEY		8	/* must be 0 for SW2HW_MPT */
#define ARBEL_MPT_DW_WIN_CNT		9
#define ARBEL_MPT_DW_RSVD5		10

/*
 * Dwords 11-12: the MTT address, a 64-bit field like the ones above.  It
 * holds address bits 37:3 in place (the PRM's mtt_adr_h is bits 37:32,
 * mtt_adr_l bits 31:3), so the address is 8-byte aligned and below 2^38;
 * every other bit is reserved.
 */
#define ARBEL_MPT_DW_MTT_ADDR		11	/* dwords 11-12 */
#define ARBEL_MPT_MTT_ADDR		GENMASK_ULL(37, 3)

#define ARBEL_MPT_DW_MTT_SZ		13
#define ARBEL_MPT_DW_RSVD8_0		14
#define ARBEL_MPT_DW_RSVD8_1		15

/* 24-bit fields */
#define ARBEL_PD_LIMIT			BIT(24)
#define ARBEL_QPN_LIMIT			BIT(24)

/*
 * Keys: the MPT holds the key in hardware-index form; the lkey/rkey that
 * software hands out is that value rotated left by 8 bits.  The table slot
 * is the hardware index masked with (number of MPTs - 1); the bits above
 * it are a tag that changes whenever a slot is reused.
 */
#define ARBEL_KEY_ROTATE		8

/* ---- MTT entry: 64 bits, big-endian ---------------------------------- */

#define ARBEL_MTT_ENTRY_SIZE		8
#define ARBEL_MTT_PRESENT		BIT_ULL(0)
#define ARBEL_MTT_ADDR			GENMASK_ULL(63, 12)
#define ARBEL_MTT_RSVD			GENMASK_ULL(11, 1)

/*
 * MTT entries are handed out in segments of this many entries (64 bytes);
 * QUERY_DEV_LIM counts the MTT table's capacity in such segments.
 */
#define ARBEL_MTT_SEG_ENTRIES		8

/* WRITE_MTT mailbox: target address, a reserved qword, then entries. */
#define ARBEL_WRITE_MTT_HDR_QWORDS	2
#define ARBEL_WRITE_MTT_MAX_ENTRIES	\
	(ARBEL_MAILBOX_SIZE / ARBEL_MTT_ENTRY_SIZE - ARBEL_WRITE_MTT_HDR_QWORDS)

/*
 * Multicast group table entry (arbelprm_mgm_entry_st; mthca's struct
 * mthca_mgm): the next entry of the same hash in bits 31:6 of dword 0 (0
 * ends the chain), the group's GID in dwords 4..7 (zero: a free entry),
 * one member QP a dword from dword 8 to the end (QPN 23:0, bit 31 valid).
 * The first half of the table is the hash table (MGHT), the rest the
 * overflow entries (AMGM) the driver links behind a hash entry.
 */
#define ARBEL_MGM_SIZE			256
#define ARBEL_MGM_DWORDS		(ARBEL_MGM_SIZE / 4)
#define ARBEL_GID_LEN			16
#define ARBEL_MGM_NEXT_DW		0
#define ARBEL_MGM_NEXT			GENMASK(31, 6)
#define ARBEL_MGM_GID_DW		4
#define ARBEL_MGM_QP_DW			8
#define ARBEL_MGM_QPS			(ARBEL_MGM_DWORDS - ARBEL_MGM_QP_DW)
#define ARBEL_MGM_QP_VALID		BIT(31)
#define ARBEL_MGM_QPN			GENMASK(23, 0)

#endif /* _ARBEL_PRM_H */
