/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the KUnit command-flow suites (cmdflow_test.c: the HCR
 * transport, fwflow_test.c: the firmware command wrappers, icmflow_test.c:
 * ICM chunks), which run against the emulated HCA (arbel-stub in QEMU,
 * x86_64; see scripts/kunit-x86.sh) with faults injected through the
 * stub's debug window.
 *
 * The driver probes the stub and brings the firmware up to HCA_INIT before
 * KUnit runs the suites: built in, at its initcall; as modules
 * (scripts/kunit-x86.sh), arbel.ko is loaded first, then arbel_flow_test.
 * The suites find the HCA with pci_get_device() and its struct arbel_dev
 * with pci_get_drvdata(), and call the driver through what it exports with
 * EXPORT_SYMBOL_IF_KUNIT().
 *
 * Expected values come from Documentation/arbel-hw.rst (HCR layout,
 * opcodes, the status -> errno table) and the stub's documentation
 * (Documentation/arbel-stub.rst: QUERY_FW and QUERY_DEV_LIM values, the
 * state gate, the debug window), never from the driver's own headers or
 * from values the driver computed.  Register offsets, opcodes and statuses
 * are therefore spelled out here rather than taken from prm.h.
 *
 * Every case leaves the HCA as it found it: the suites' exit disarms all
 * injected faults, and the cases that change the firmware state or the
 * transport's state restore it (see arbel_flow_exit()).
 */
#ifndef _ARBEL_KUNIT_FLOW_H
#define _ARBEL_KUNIT_FLOW_H

#include <kunit/test.h>
#include <linux/io.h>
#include <linux/pci.h>
#include <linux/workqueue.h>

#include "arbel.h"
#include "arbel-dbgwin.h"

/* PCI identity (arbel-hw.rst, "PCI identity and BARs"). */
#define T_VENDOR		0x15b3
#define T_DEVICE		0x6282

/* HCR (arbel-hw.rst): BAR0 + 0x80680, dword 6 = control. */
#define T_HCR			0x80680
#define T_HCR_CTRL		(T_HCR + 6 * 4)
#define T_HCR_GO		BIT(23)
#define T_HCR_E			BIT(22)
#define T_HCR_OPCODE		GENMASK(11, 0)

/* Opcodes (arbel-hw.rst, "Opcodes"). */
#define OP_SYS_EN		0x001
#define OP_QUERY_DEV_LIM	0x003
#define OP_QUERY_FW		0x004
#define OP_QUERY_DDR		0x005
#define OP_QUERY_ADAPTER	0x006
#define OP_CLOSE_HCA		0x008
#define OP_MAP_EQ		0x012
#define OP_SW2HW_EQ		0x013
#define OP_NOP			0x031
#define OP_UNMAP_ICM		0xff9
#define OP_MAP_ICM		0xffa
#define OP_MAP_ICM_AUX		0xffc
#define OP_MAP_FA		0xfff

/*
 * Debug window: the stub's own register map (qemu/arbel-dbgwin.h, found
 * through kunit/Makefile), the one the guest tests use too.
 */
#define FW_STATE_RUNNING	1
#define FW_STATE_HCA_INIT	2

/* The stub's board ID (QUERY_ADAPTER @0x20; qemu/arbel-fw.c). */
#define STUB_BOARD_ID		"ARBEL-STUB-0001"

struct flow_ctx {
	struct pci_dev *pdev;
	struct arbel_dev *adev;
	struct arbel_cmd_transport *cmd;
	void __iomem *dbg;
	/* hold-go case: wait for the held command, then un-fail the device */
	bool held;
	unsigned int saved_timeout_ms;
	/* close/init case: the firmware may have been left RUNNING */
	bool closed;
	/*
	 * The driver's reset-on-failure work, off during every case: a case
	 * that fails the transport on purpose must not reset the HCA under
	 * the later ones.
	 */
	struct work_struct *fail_work;
	/* the driver's EQ was torn down: bring it up again afterwards */
	bool eq_stopped;
	/* surprise removal: the card pulled by @pull, plugged back at exit */
	struct delayed_work pull;
	bool pulling;
};

static inline u32 dbg_rd(struct flow_ctx *c, u32 off)
{
	return ioread32be(c->dbg + off);
}

static inline void dbg_wr(struct flow_ctx *c, u32 off, u32 val)
{
	iowrite32be(val, c->dbg + off);
}

static inline int run_nop(struct flow_ctx *c)
{
	return arbel_cmd_exec(c->cmd, 0, NULL, 0, 0, OP_NOP);
}

int arbel_flow_init(struct kunit *test);
void arbel_flow_exit(struct kunit *test);
void arbel_flow_unfail(struct kunit *test, unsigned int timeout_ms);
void arbel_flow_hold(struct kunit *test, u16 opcode, unsigned int timeout_ms,
		     unsigned int hold_ms);
void arbel_flow_pull_after(struct kunit *test, unsigned int ms);
void arbel_flow_plug_back(struct kunit *test);

#endif /* _ARBEL_KUNIT_FLOW_H */
