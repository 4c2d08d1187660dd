// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit command-flow suites: the HCR transport (cmd.c) and every firmware
 * command wrapper (fw.c) of the Arbel HCA the driver bound at boot, run
 * against the emulated HCA (arbel-stub in QEMU, x86_64; see
 * scripts/kunit-x86.sh), with faults injected through the stub's debug
 * window at BAR0 + 0xc0000.
 *
 * The driver is built in: its initcall probes the stub and brings the
 * firmware up to HCA_INIT before the built-in suites run.  The suites find
 * the HCA with pci_get_device() and its struct arbel_dev with
 * pci_get_drvdata().
 *
 * Expected values come from Documentation/arbel-hw.rst (HCR layout,
 * opcodes, the status -> errno table) and the stub's documentation
 * (Documentation/arbel-stub.rst: QUERY_FW and QUERY_DEV_LIM values, the
 * state gate, the debug window), never from the driver's own headers or
 * from values the driver computed.  Register offsets, opcodes
 * and statuses are therefore spelled out here rather than taken from prm.h.
 *
 * Every case leaves the HCA as it found it: the suite's exit disarms all
 * injected faults, and the cases that change the firmware state or the
 * transport's state restore it (see flow_exit()).
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/iopoll.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/debugfs.h>
#include <linux/pci.h>
#include <linux/string.h>

#include "arbel.h"
#include "arbel-dbgwin.h"

/* PCI identity (arbel-hw.rst, "PCI identity and BARs"). */
#define T_VENDOR		0x15b3
#define T_DEVICE		0x6282

/* HCR (arbel-hw.rst): BAR0 + 0x80680, dword 6 = control. */
#define T_HCR			0x80680
#define T_HCR_CTRL		(T_HCR + 6 * 4)
#define T_HCR_GO		BIT(23)
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
};

static u32 dbg_rd(struct flow_ctx *c, u32 off)
{
	return ioread32be(c->dbg + off);
}

static void dbg_wr(struct flow_ctx *c, u32 off, u32 val)
{
	iowrite32be(val, c->dbg + off);
}

static void arm_fail(struct flow_ctx *c, u16 opcode, u8 status, u32 every)
{
	dbg_wr(c, ARBEL_DBG_FI_FAIL_STATUS, status);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_EVERY, every);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_OPCODE, opcode);
}

static void arm_corrupt(struct flow_ctx *c, u16 opcode, u32 off, u32 len,
			u32 every)
{
	dbg_wr(c, ARBEL_DBG_FI_CORRUPT_OFFSET, off);
	dbg_wr(c, ARBEL_DBG_FI_CORRUPT_LEN, len);
	dbg_wr(c, ARBEL_DBG_FI_CORRUPT_EVERY, every);
	dbg_wr(c, ARBEL_DBG_FI_CORRUPT_OPCODE, opcode);
}

static int run_nop(struct flow_ctx *c)
{
	return arbel_cmd_exec(c->cmd, 0, NULL, 0, 0, OP_NOP);
}

static u64 stats_total_n(struct arbel_cmd_transport *cmd)
{
	u64 n = 0;
	int i;

	mutex_lock(&cmd->lock);
	for (i = 0; i < ARRAY_SIZE(cmd->stats); i++)
		n += cmd->stats[i].n;
	mutex_unlock(&cmd->lock);
	return n;
}

/*
 * The counters behind one opcode's statistics directory,
 * arbel/<bdf>/commands/<OPCODE>/, found through debugfs: the files'
 * i_private is the data pointer given to debugfs_create_*() (n and failed:
 * the u64, last_failed_status: the u8, last_failed_errno and average_ns:
 * the opcode's struct arbel_cmd_stats).  kernel_read() cannot read these
 * files (simple attributes have no read_iter), so the test checks that
 * each file points at the right counter and reads the counter.
 */
static struct dentry *dbgfs_get(struct kunit *test, const char *name,
				struct dentry *parent)
{
	struct dentry *d = debugfs_lookup(name, parent);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(d), "debugfs: no %s",
			       name);
	return d;
}

static struct arbel_cmd_stats *op_stats(struct kunit *test,
					const char *opname)
{
	static const char * const files[] = {
		"n", "failed", "average_ns", "last_failed_status",
		"last_failed_errno",
	};
	struct flow_ctx *c = test->priv;
	struct dentry *root, *dev, *cmds, *op, *f[ARRAY_SIZE(files)];
	struct arbel_cmd_stats *st;
	int i;

	root = dbgfs_get(test, "arbel", NULL);
	dev = debugfs_lookup(pci_name(c->pdev), root);
	dput(root);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(dev));
	cmds = debugfs_lookup("commands", dev);
	dput(dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(cmds));
	op = debugfs_lookup(opname, cmds);
	dput(cmds);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(op), "no commands/%s",
			       opname);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		f[i] = debugfs_lookup(files[i], op);
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR_OR_NULL(f[i]),
				       "no commands/%s/%s", opname, files[i]);
	}
	dput(op);
	st = IS_ERR_OR_NULL(f[4]) ? NULL : d_inode(f[4])->i_private;
	if (st) {
		KUNIT_EXPECT_PTR_EQ(test, d_inode(f[0])->i_private,
				    (void *)&st->n);
		KUNIT_EXPECT_PTR_EQ(test, d_inode(f[1])->i_private,
				    (void *)&st->failed);
		KUNIT_EXPECT_PTR_EQ(test, d_inode(f[2])->i_private,
				    (void *)st);
		KUNIT_EXPECT_PTR_EQ(test, d_inode(f[3])->i_private,
				    (void *)&st->last_failed_status);
	}
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (!IS_ERR_OR_NULL(f[i]))
			dput(f[i]);
	KUNIT_ASSERT_NOT_NULL(test, st);
	return st;
}

static s64 stat_file(struct kunit *test, const char *opname,
		     const char *file)
{
	struct flow_ctx *c = test->priv;
	struct arbel_cmd_stats *st = op_stats(test, opname);
	s64 val = S64_MIN;

	mutex_lock(&c->cmd->lock);
	if (!strcmp(file, "n"))
		val = st->n;
	else if (!strcmp(file, "failed"))
		val = st->failed;
	else if (!strcmp(file, "average_ns"))
		val = st->n ? div64_u64(st->total_ns, st->n) : 0;
	else if (!strcmp(file, "last_failed_status"))
		val = st->last_failed_status;
	else if (!strcmp(file, "last_failed_errno"))
		val = st->last_failed_errno;
	mutex_unlock(&c->cmd->lock);
	KUNIT_ASSERT_NE_MSG(test, val, S64_MIN, "unknown file %s", file);
	return val;
}

static int flow_init(struct kunit *test)
{
	struct flow_ctx *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	test->priv = c;
	c->pdev = pci_get_device(T_VENDOR, T_DEVICE, NULL);
	if (!c->pdev) {
		kunit_err(test, "no 15b3:6282: run under QEMU with -device arbel-stub\n");
		return -ENODEV;
	}
	c->adev = pci_get_drvdata(c->pdev);
	if (!c->adev) {
		kunit_err(test, "the arbel driver did not bind %s\n",
			  pci_name(c->pdev));
		return -ENODEV;
	}
	c->cmd = &c->adev->cmd;
	c->dbg = c->adev->dcs + ARBEL_DBG_BASE;
	if (dbg_rd(c, ARBEL_DBG_ID) != ARBEL_DBG_ID_VALUE) {
		kunit_err(test, "no arbel-stub debug window (ID 0x%08x)\n",
			  dbg_rd(c, ARBEL_DBG_ID));
		return -ENODEV;
	}
	if (arbel_cmd_failed(c->cmd)) {
		kunit_err(test, "the transport is marked failed\n");
		return -EIO;
	}
	dbg_wr(c, ARBEL_DBG_FI_CLEAR, 1);
	return 0;
}

static void flow_exit(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 ctrl;
	int err;

	if (!c || !c->pdev)
		return;
	if (c->dbg) {
		dbg_wr(c, ARBEL_DBG_FI_CLEAR, 1);
		dbg_wr(c, ARBEL_DBG_FI_HOLD_MS, 0);
	}
	if (c->held) {
		/*
		 * TEST-ONLY recovery.  A timed-out command marks the device
		 * failed for good (the firmware may still own the HCR); the
		 * driver itself never clears cmd->failed.  Here the stub is
		 * known to finish the held command once the hold ends, so wait
		 * for go to clear and then un-fail the transport, so that the
		 * later cases find a working HCA.
		 */
		err = readx_poll_timeout(ioread32be, c->adev->dcs + T_HCR_CTRL,
					 ctrl, !(ctrl & T_HCR_GO), 1000,
					 10 * USEC_PER_SEC);
		KUNIT_EXPECT_EQ_MSG(test, err, 0, "held command never completed");
		mutex_lock(&c->cmd->lock);
		c->cmd->failed = false;
		c->cmd->timeout_ms = c->saved_timeout_ms;
		mutex_unlock(&c->cmd->lock);
		KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	}
	if (c->closed && dbg_rd(c, ARBEL_DBG_FW_STATE) == FW_STATE_RUNNING)
		KUNIT_EXPECT_EQ_MSG(test,
				    arbel_fw_init_hca(c->cmd, &c->adev->layout),
				    0, "could not restore HCA_INIT");
	pci_dev_put(c->pdev);
}

/* ---- arbel_cmd_flow: the transport ----------------------------------- */

static void cmd_flow_bound(struct kunit *test)
{
	struct flow_ctx *c = test->priv;

	KUNIT_EXPECT_PTR_EQ(test, c->adev->pdev, c->pdev);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_VERSION), 1);
	/* The probe brought the firmware all the way up. */
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_HCA_INIT);
	/* RUN_FW needs at least fw_pages (48) FA pages mapped. */
	KUNIT_EXPECT_GE(test, dbg_rd(c, ARBEL_DBG_FA_PAGES), 48);
	/* SET_ICM_SIZE asks for at least one aux page. */
	KUNIT_EXPECT_GE(test, dbg_rd(c, ARBEL_DBG_AUX_PAGES), 1);
	KUNIT_EXPECT_GT(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), 0);
	/* Default log_num_mpt 17, the stub's maximum 17. */
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_LOG_MPT_SZ), 17);
	KUNIT_EXPECT_STREQ(test, c->adev->board_id, STUB_BOARD_ID);
}

static void cmd_flow_nop(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 count = dbg_rd(c, ARBEL_DBG_CMD_COUNT);

	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_CMD_COUNT), count + 1);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_CMD_COUNT), count + 2);
	/* dword 6 keeps the opcode of the last command, go clear. */
	KUNIT_EXPECT_EQ(test, ioread32be(c->adev->dcs + T_HCR_CTRL),
			(u32)OP_NOP);
}

/* Opcodes the stub does not implement: status 0x02, -EPERM. */
static const u16 bad_opcodes[] = {
	OP_SYS_EN, OP_QUERY_DDR, OP_MAP_EQ, OP_SW2HW_EQ, 0x0ff, 0x7ab,
};

static void opcode_desc(const u16 *op, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "opcode 0x%03x", *op);
}

KUNIT_ARRAY_PARAM(bad_opcode, bad_opcodes, opcode_desc);

static void cmd_flow_bad_opcode(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	const u16 *op = test->param_value;

	KUNIT_EXPECT_EQ(test, arbel_cmd_exec(c->cmd, 0, NULL, 0, 0, *op),
			-EPERM);
	/* The HCA still works. */
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
}

static void cmd_flow_mailbox_helpers(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_mailbox *a, *b;
	u8 *p;

	a = arbel_mailbox_alloc(c->cmd);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(a));
	b = arbel_mailbox_alloc(c->cmd);
	if (IS_ERR_OR_NULL(b)) {
		arbel_mailbox_free(c->cmd, a);
		KUNIT_FAIL(test, "second mailbox: %ld", PTR_ERR(b));
		return;
	}
	/* 4 KiB, 4 KiB aligned (arbel-hw.rst, "Mailboxes"), zeroed. */
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(a->dma, SZ_4K));
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(b->dma, SZ_4K));
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED((unsigned long)a->buf, SZ_4K));
	KUNIT_EXPECT_NE(test, a->dma, b->dma);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(a->buf, 0, SZ_4K), NULL);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(b->buf, 0, SZ_4K), NULL);

	/* A real outbox: QUERY_FW's raw bytes (big-endian u16s). */
	memset(b->buf, 0xa5, SZ_4K);
	KUNIT_EXPECT_EQ(test, arbel_cmd_box(c->cmd, NULL, b, 0, 0, OP_QUERY_FW),
			0);
	p = b->buf;
	KUNIT_EXPECT_EQ(test, p[0x00] << 8 | p[0x01], 48);	/* fw_pages */
	KUNIT_EXPECT_EQ(test, p[0x02] << 8 | p[0x03], 5);	/* major */
	KUNIT_EXPECT_EQ(test, p[0x04] << 8 | p[0x05], 0);	/* subminor */
	KUNIT_EXPECT_EQ(test, p[0x06] << 8 | p[0x07], 3);	/* minor */
	KUNIT_EXPECT_EQ(test, p[0x0f], 4);		/* log max cmds */

	/* Dirty, free, allocate again: zeroed again. */
	arbel_mailbox_free(c->cmd, b);
	b = arbel_mailbox_alloc(c->cmd);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(b));
	if (!IS_ERR_OR_NULL(b))
		KUNIT_EXPECT_PTR_EQ(test, memchr_inv(b->buf, 0, SZ_4K), NULL);
	arbel_mailbox_free(c->cmd, b);
	arbel_mailbox_free(c->cmd, a);
	/* NULL and error pointers are ignored. */
	arbel_mailbox_free(c->cmd, NULL);
	arbel_mailbox_free(c->cmd, ERR_PTR(-ENOMEM));
}

static void cmd_flow_bad_mailbox(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_mailbox *mb, skew;

	/* A mailbox must be non-zero and 4 KiB aligned, else 0x03. */
	KUNIT_EXPECT_EQ(test,
			arbel_cmd_box(c->cmd, NULL, NULL, 0, 0, OP_QUERY_FW),
			-EINVAL);
	mb = arbel_mailbox_alloc(c->cmd);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mb));
	skew.buf = mb->buf + 0x40;
	skew.dma = mb->dma + 0x40;
	KUNIT_EXPECT_EQ(test,
			arbel_cmd_box(c->cmd, NULL, &skew, 0, 0, OP_QUERY_FW),
			-EINVAL);
	arbel_mailbox_free(c->cmd, mb);
}

/* arbel-hw.rst's status table, with mthca's errno for each status. */
struct status_case {
	u8 status;
	int err;
	const char *name;
};

static const struct status_case status_cases[] = {
	{ 0x01, -EIO, "internal error" },
	{ 0x02, -EPERM, "bad opcode" },
	{ 0x03, -EINVAL, "bad parameter" },
	{ 0x04, -ENXIO, "bad system state" },
	{ 0x05, -EBADF, "bad resource" },
	{ 0x06, -EBUSY, "resource busy" },
	{ 0x07, -ENOMEM, "DDR memory error" },
	{ 0x08, -ENOMEM, "exceeds limits" },
	{ 0x09, -EBADF, "bad resource state" },
	{ 0x0a, -EBADF, "bad index" },
	{ 0x0b, -EFAULT, "FW image corrupt" },
	{ 0x10, -EINVAL, "bad QP/EE state" },
	{ 0x20, -EFAULT, "bad segment parameters" },
	{ 0x21, -EBUSY, "region has windows bound" },
	{ 0x22, -EAGAIN, "no local attached memory" },
	{ 0x30, -EBADMSG, "bad management packet" },
	{ 0x40, -ENOMEM, "bad CQ size" },
	/* "Any other non-zero status maps to -EINVAL." */
	{ 0x50, -EINVAL, "not in the table (mlx4 only)" },
	{ 0x7f, -EINVAL, "not in the table" },
};

static void status_desc(const struct status_case *s, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "status 0x%02x %s", s->status,
		 s->name);
}

KUNIT_ARRAY_PARAM(status, status_cases, status_desc);

static void cmd_flow_inject_status(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	const struct status_case *s = test->param_value;
	u32 injected = dbg_rd(c, ARBEL_DBG_FI_FAILED);
	s64 n = stat_file(test, "NOP", "n");
	s64 failed = stat_file(test, "NOP", "failed");

	arm_fail(c, OP_NOP, s->status, 0);
	KUNIT_EXPECT_EQ(test, run_nop(c), s->err);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_FAILED), injected + 1);
	/* Once only: the stub disarms itself, the next NOP succeeds. */
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_FAIL_OPCODE), 0);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);

	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "n"), n + 2);
	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "failed"), failed + 1);
	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "last_failed_status"),
			s->status);
	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "last_failed_errno"),
			s->err);
}

static void cmd_flow_inject_every_nth(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 injected = dbg_rd(c, ARBEL_DBG_FI_FAILED);
	int i;

	/* Every 3rd NOP fails with resource busy (0x06, -EBUSY). */
	arm_fail(c, OP_NOP, 0x06, 3);
	for (i = 1; i <= 9; i++)
		KUNIT_EXPECT_EQ_MSG(test, run_nop(c), i % 3 ? 0 : -EBUSY,
				    "NOP #%d", i);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_FAILED), injected + 3);
	/* Still armed. */
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_FAIL_OPCODE), OP_NOP);

	/* Writing FI_FAIL_EVERY restarts the count. */
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_EVERY, 3);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, run_nop(c), -EBUSY);

	/* Other opcodes are not touched. */
	KUNIT_EXPECT_EQ(test, arbel_fw_enable_lam(c->cmd), -EAGAIN);

	dbg_wr(c, ARBEL_DBG_FI_CLEAR, 1);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_FAILED), injected + 4);
}

static void cmd_flow_inject_wrapper(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_fw_info fw, poison;
	struct arbel_dev_lim *lim;
	char id[32] = "untouched";

	/* QUERY_FW fails with FW image corrupt (0x0b): -EFAULT. */
	arm_fail(c, OP_QUERY_FW, 0x0b, 0);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);	/* not the armed opcode */
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_FAIL_OPCODE), OP_QUERY_FW);
	memset(&fw, 0xa5, sizeof(fw));
	memset(&poison, 0xa5, sizeof(poison));
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), -EFAULT);
	/* A failed query leaves the caller's structure alone. */
	KUNIT_EXPECT_EQ(test, memcmp(&fw, &poison, sizeof(fw)), 0);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 5);

	/* QUERY_DEV_LIM: resource busy (0x06), -EBUSY. */
	lim = kunit_kzalloc(test, sizeof(*lim), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lim);
	arm_fail(c, OP_QUERY_DEV_LIM, 0x06, 0);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_dev_lim(c->cmd, lim), -EBUSY);
	KUNIT_EXPECT_EQ(test, lim->mpt_entry_sz, 0);

	/* QUERY_ADAPTER: internal error (0x01), -EIO. */
	arm_fail(c, OP_QUERY_ADAPTER, 0x01, 0);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_adapter(c->cmd, id, sizeof(id)),
			-EIO);
	KUNIT_EXPECT_STREQ(test, id, "untouched");
}

static void cmd_flow_stats(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u64 total = stats_total_n(c->cmd);
	s64 n = stat_file(test, "NOP", "n");
	s64 failed = stat_file(test, "NOP", "failed");

	/* The probe's bring-up is in the counters. */
	KUNIT_EXPECT_GE(test, stat_file(test, "QUERY_FW", "n"), 1);
	KUNIT_EXPECT_GE(test, stat_file(test, "MAP_FA", "n"), 1);
	KUNIT_EXPECT_GE(test, stat_file(test, "RUN_FW", "n"), 1);
	KUNIT_EXPECT_GE(test, stat_file(test, "INIT_HCA", "n"), 1);
	/* ENABLE_LAM is refused by a mem-free HCA: 0x22, -EAGAIN. */
	KUNIT_EXPECT_GE(test, stat_file(test, "ENABLE_LAM", "failed"), 1);
	KUNIT_EXPECT_EQ(test, stat_file(test, "ENABLE_LAM",
					"last_failed_status"), 0x22);
	KUNIT_EXPECT_EQ(test, stat_file(test, "ENABLE_LAM",
					"last_failed_errno"), -EAGAIN);

	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "n"), n + 1);
	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "failed"), failed);
	KUNIT_EXPECT_GT(test, stat_file(test, "NOP", "average_ns"), 0);

	arm_fail(c, OP_NOP, 0x03, 0);
	KUNIT_EXPECT_EQ(test, run_nop(c), -EINVAL);
	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "n"), n + 2);
	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "failed"), failed + 1);
	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "last_failed_status"),
			0x03);
	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "last_failed_errno"),
			-EINVAL);

	/* An opcode the driver never issues has no counter. */
	KUNIT_EXPECT_EQ(test, arbel_cmd_exec(c->cmd, 0, NULL, 0, 0, OP_MAP_EQ),
			-EPERM);
	KUNIT_EXPECT_EQ(test, stats_total_n(c->cmd), total + 2);
}

static void cmd_flow_hold_timeout(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_fw_info fw;
	s64 failed = stat_file(test, "NOP", "failed");
	u64 t0, ms;

	mutex_lock(&c->cmd->lock);
	c->saved_timeout_ms = c->cmd->timeout_ms;
	c->cmd->timeout_ms = 50;
	mutex_unlock(&c->cmd->lock);
	dbg_wr(c, ARBEL_DBG_FI_HOLD_OPCODE, OP_NOP);
	dbg_wr(c, ARBEL_DBG_FI_HOLD_MS, 2000);
	c->held = true;

	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, run_nop(c), -ETIMEDOUT);
	ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
	KUNIT_EXPECT_GE(test, ms, 50);
	KUNIT_EXPECT_LT(test, ms, 2000);
	KUNIT_EXPECT_TRUE(test, arbel_cmd_failed(c->cmd));
	/* The stub still holds the NOP. */
	KUNIT_EXPECT_TRUE(test, ioread32be(c->adev->dcs + T_HCR_CTRL) &
				T_HCR_GO);

	/* Every later command fails at once, without touching the HCR. */
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), -EIO);
	KUNIT_EXPECT_EQ(test, run_nop(c), -EIO);
	ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
	KUNIT_EXPECT_LT(test, ms, 50);
	KUNIT_EXPECT_EQ(test, ioread32be(c->adev->dcs + T_HCR_CTRL) &
			      T_HCR_OPCODE, OP_NOP);

	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "failed"), failed + 2);
	KUNIT_EXPECT_EQ(test, stat_file(test, "NOP", "last_failed_errno"),
			-EIO);
	KUNIT_EXPECT_EQ(test, stat_file(test, "QUERY_FW",
					"last_failed_errno"), -EIO);
	/* flow_exit() waits for the hold to end and un-fails the device. */
}

static void cmd_flow_hold_completes(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u64 t0, ms;

	/* A 200 ms hold within the (default, long) timeout is just slow. */
	dbg_wr(c, ARBEL_DBG_FI_HOLD_OPCODE, OP_NOP);
	dbg_wr(c, ARBEL_DBG_FI_HOLD_MS, 200);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
	KUNIT_EXPECT_GE(test, ms, 150);
	KUNIT_EXPECT_FALSE(test, arbel_cmd_failed(c->cmd));
	/* Only NOPs are held. */
	dbg_wr(c, ARBEL_DBG_FI_HOLD_MS, 2000);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, arbel_fw_enable_lam(c->cmd), -EAGAIN);
	ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
	KUNIT_EXPECT_LT(test, ms, 150);
	dbg_wr(c, ARBEL_DBG_FI_HOLD_MS, 0);
}

struct nop_thread {
	struct flow_ctx *c;
	struct completion done;
	int errors;
};

#define NOP_THREADS	4
#define NOPS_PER_THREAD	25

static int nop_thread_fn(void *data)
{
	struct nop_thread *t = data;
	int i;

	for (i = 0; i < NOPS_PER_THREAD; i++)
		if (run_nop(t->c))
			t->errors++;
	complete(&t->done);
	return 0;
}

static void cmd_flow_serialised(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct nop_thread *t;
	u32 count = dbg_rd(c, ARBEL_DBG_CMD_COUNT);
	int i;

	t = kunit_kcalloc(test, NOP_THREADS, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < NOP_THREADS; i++) {
		struct task_struct *k;

		t[i].c = c;
		init_completion(&t[i].done);
		k = kthread_run(nop_thread_fn, &t[i], "arbel_nop%d", i);
		if (IS_ERR(k)) {
			KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(k));
			complete(&t[i].done);
		}
	}
	for (i = 0; i < NOP_THREADS; i++) {
		wait_for_completion(&t[i].done);
		KUNIT_EXPECT_EQ_MSG(test, t[i].errors, 0, "thread %d", i);
	}
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_CMD_COUNT),
			count + NOP_THREADS * NOPS_PER_THREAD);
}

static struct kunit_case cmd_flow_cases[] = {
	KUNIT_CASE(cmd_flow_bound),
	KUNIT_CASE(cmd_flow_nop),
	KUNIT_CASE_PARAM(cmd_flow_bad_opcode, bad_opcode_gen_params),
	KUNIT_CASE(cmd_flow_mailbox_helpers),
	KUNIT_CASE(cmd_flow_bad_mailbox),
	KUNIT_CASE_PARAM(cmd_flow_inject_status, status_gen_params),
	KUNIT_CASE(cmd_flow_inject_every_nth),
	KUNIT_CASE(cmd_flow_inject_wrapper),
	KUNIT_CASE(cmd_flow_stats),
	KUNIT_CASE(cmd_flow_hold_timeout),
	KUNIT_CASE(cmd_flow_hold_completes),
	KUNIT_CASE(cmd_flow_serialised),
	{}
};

static struct kunit_suite arbel_cmd_flow_suite = {
	.name = "arbel_cmd_flow",
	.init = flow_init,
	.exit = flow_exit,
	.test_cases = cmd_flow_cases,
};

/* ---- arbel_fw_flow: one case or more per wrapper ---------------------- */

static void fw_flow_query_fw(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_fw_info fw;

	memset(&fw, 0xa5, sizeof(fw));
	KUNIT_ASSERT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	/* arbel-stub.rst: fw_pages 48 (default), 5.3.0, log max cmds 4. */
	KUNIT_EXPECT_EQ(test, fw.fw_pages, 48);
	KUNIT_EXPECT_EQ(test, fw.major, 5);
	KUNIT_EXPECT_EQ(test, fw.minor, 3);
	KUNIT_EXPECT_EQ(test, fw.subminor, 0);
	KUNIT_EXPECT_EQ(test, fw.log_max_cmds, 4);
}

static void fw_flow_query_dev_lim(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_dev_lim *l;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	memset(l, 0xa5, sizeof(*l));
	KUNIT_ASSERT_EQ(test, arbel_fw_query_dev_lim(c->cmd, l), 0);
	/* arbel-stub.rst, "QUERY_DEV_LIM values". */
	KUNIT_EXPECT_EQ(test, l->log_rsvd_qps, 6);
	KUNIT_EXPECT_EQ(test, l->log_max_qps, 18);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_srqs, 4);
	KUNIT_EXPECT_EQ(test, l->log_max_srqs, 16);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_cqs, 7);
	KUNIT_EXPECT_EQ(test, l->log_max_cqs, 16);
	KUNIT_EXPECT_EQ(test, l->log_max_mpts, 17);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_eqs, 0);
	KUNIT_EXPECT_EQ(test, l->log_max_eqs, 6);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_mtts, 4);
	KUNIT_EXPECT_EQ(test, l->log_max_mr_size, 36);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_mrws, 4);
	KUNIT_EXPECT_EQ(test, l->log_max_mtt_segs, 20);
	KUNIT_EXPECT_EQ(test, l->flags, 0);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_uars, 0);
	KUNIT_EXPECT_EQ(test, l->uar_size, (u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, l->log_min_page_size, 12);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_pds, 0);
	KUNIT_EXPECT_EQ(test, l->log_max_pds, 24);
	KUNIT_EXPECT_EQ(test, l->qpc_entry_sz, 256);
	KUNIT_EXPECT_EQ(test, l->eqpc_entry_sz, 32);
	KUNIT_EXPECT_EQ(test, l->eqc_entry_sz, 64);
	KUNIT_EXPECT_EQ(test, l->cqc_entry_sz, 64);
	KUNIT_EXPECT_EQ(test, l->srq_entry_sz, 32);
	KUNIT_EXPECT_EQ(test, l->uar_scratch_entry_sz, 32);
	KUNIT_EXPECT_EQ(test, l->mtt_entry_sz, 8);
	KUNIT_EXPECT_EQ(test, l->mpt_entry_sz, 64);
	KUNIT_EXPECT_EQ(test, l->max_icm_sz, 1ULL << 36);
}

static void fw_flow_query_adapter(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	char id[32], small[6];

	memset(id, 'x', sizeof(id));
	KUNIT_ASSERT_EQ(test, arbel_fw_query_adapter(c->cmd, id, sizeof(id)),
			0);
	KUNIT_EXPECT_STREQ(test, id, STUB_BOARD_ID);
	/* A short buffer gets a truncated, terminated ID. */
	memset(small, 'x', sizeof(small));
	KUNIT_ASSERT_EQ(test, arbel_fw_query_adapter(c->cmd, small,
						     sizeof(small)), 0);
	KUNIT_EXPECT_STREQ(test, small, "ARBEL");
}

static void fw_flow_enable_lam(struct kunit *test)
{
	struct flow_ctx *c = test->priv;

	/* Always 0x22, "local attached memory not present": -EAGAIN. */
	KUNIT_EXPECT_EQ(test, arbel_fw_enable_lam(c->cmd), -EAGAIN);
}

/*
 * In HCA_INIT the state gate refuses with 0x04 (-ENXIO), before any of the
 * command's own checks, every command that belongs to another state.
 */
static void fw_flow_wrong_state(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_map_chunk chunk = {};
	struct arbel_mailbox *mb;
	u32 fa = dbg_rd(c, ARBEL_DBG_FA_PAGES);
	u32 aux = dbg_rd(c, ARBEL_DBG_AUX_PAGES);
	u32 icm = dbg_rd(c, ARBEL_DBG_ICM_PAGES);
	u64 aux_pages = 0x5a5a;

	KUNIT_ASSERT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_HCA_INIT);
	mb = arbel_mailbox_alloc(c->cmd);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mb));
	chunk.dma = mb->dma;

	KUNIT_EXPECT_EQ(test, arbel_fw_set_icm_size(c->cmd, SZ_1M, &aux_pages),
			-ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_run_fw(c->cmd), -ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_fa(c->cmd), -ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_icm_aux(c->cmd), -ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_init_hca(c->cmd, &c->adev->layout),
			-ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_FA, &chunk, 1),
			-ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM_AUX, &chunk, 1),
			-ENXIO);
	arbel_mailbox_free(c->cmd, mb);

	/* Nothing changed. */
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_HCA_INIT);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FA_PAGES), fa);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_AUX_PAGES), aux);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
}

static void fw_flow_map_unmap_icm(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_icm_table *t = &c->adev->icm[ARBEL_ICM_MPT];
	struct arbel_map_chunk chunk[2] = {};
	struct arbel_mailbox *mb;
	u32 icm = dbg_rd(c, ARBEL_DBG_ICM_PAGES);
	u64 va;

	/*
	 * A free ICM page: the start of the MPT table's last chunk, which
	 * the driver maps only when MPTs that far up are in use (they are
	 * not: nothing has been registered).
	 */
	KUNIT_ASSERT_GT(test, t->nchunks, 1);
	KUNIT_ASSERT_NULL(test, t->mem[t->nchunks - 1].buf);
	va = t->place.base + (u64)(t->nchunks - 1) * t->chunk_size;

	mb = arbel_mailbox_alloc(c->cmd);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mb));
	chunk[0].va = va;
	chunk[0].dma = mb->dma;
	chunk[0].log_pages = 0;

	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM, chunk, 1), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm + 1);
	/* Mapped twice: 0x03, nothing more mapped. */
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM, chunk, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm + 1);
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_icm(c->cmd, va, 1), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	/* Not mapped any more, or 0 pages: 0x03. */
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_icm(c->cmd, va, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_icm(c->cmd, va, 0), -EINVAL);

	/* va bits 11:0 not zero: 0x03. */
	chunk[0].va = va + 0x800;
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM, chunk, 1),
			-EINVAL);
	/* log2 size > 20: 0x03. */
	chunk[0].va = va;
	chunk[0].log_pages = 21;
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM, chunk, 1),
			-EINVAL);
	/*
	 * A refused command maps nothing: a good entry followed by one
	 * with va bits 11:0 set.
	 */
	chunk[0].log_pages = 0;
	chunk[1] = chunk[0];
	chunk[1].va = va + SZ_4K + 0x800;
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM, chunk, 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	/* don't leave it mapped */
	if (dbg_rd(c, ARBEL_DBG_ICM_PAGES) != icm)
		arbel_fw_unmap_icm(c->cmd, va, 1);
	arbel_mailbox_free(c->cmd, mb);
}

static void fw_flow_close_init_hca(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u64 aux_pages;

	/* CLOSE_HCA op_mod > 1: 0x02, and the HCA stays up. */
	KUNIT_EXPECT_EQ(test, arbel_cmd_exec(c->cmd, 0, NULL, 0, 2,
					     OP_CLOSE_HCA), -EPERM);
	KUNIT_ASSERT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_HCA_INIT);

	c->closed = true;
	KUNIT_ASSERT_EQ(test, arbel_fw_close_hca(c->cmd), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_RUNNING);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, arbel_fw_close_hca(c->cmd), -ENXIO);
	/* RUNNING, but aux and ICM pages are mapped: 0x04. */
	KUNIT_EXPECT_EQ(test, arbel_fw_set_icm_size(c->cmd, SZ_1M, &aux_pages),
			-ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_icm_aux(c->cmd), -ENXIO);
	/* UNMAP_FA is allowed in RUNNING, but not with aux/ICM mapped. */
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_fa(c->cmd), -ENXIO);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_RUNNING);

	/* INIT_HCA with the driver's layout brings it back. */
	KUNIT_EXPECT_EQ(test, arbel_fw_init_hca(c->cmd, &c->adev->layout), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_HCA_INIT);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_LOG_MPT_SZ), 17);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
}

static void fw_flow_corrupt_outbox(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 corrupted = dbg_rd(c, ARBEL_DBG_FI_CORRUPTED);
	struct arbel_fw_info fw;
	char id[32];

	/* Flip QUERY_FW's major (u16 @0x02): 5 ^ 0xffff. */
	arm_corrupt(c, OP_QUERY_FW, 0x02, 2, 0);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 0xfffa);
	KUNIT_EXPECT_EQ(test, fw.minor, 3);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_CORRUPTED), corrupted + 1);
	/* Once only. */
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 5);

	/* Every 2nd. */
	arm_corrupt(c, OP_QUERY_FW, 0x02, 2, 2);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 5);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 0xfffa);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 5);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 0xfffa);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_CORRUPTED), corrupted + 3);
	dbg_wr(c, ARBEL_DBG_FI_CLEAR, 1);

	/*
	 * The board ID with its terminator flipped: 16 non-zero bytes; the
	 * copy stops at 16 and terminates.
	 */
	arm_corrupt(c, OP_QUERY_ADAPTER, 0x20, 16, 0);
	memset(id, 'x', sizeof(id));
	KUNIT_EXPECT_EQ(test, arbel_fw_query_adapter(c->cmd, id, sizeof(id)),
			0);
	KUNIT_EXPECT_EQ(test, strnlen(id, sizeof(id)), 16);
	KUNIT_EXPECT_EQ(test, (u8)id[0], (u8)('A' ^ 0xff));
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_CORRUPTED), corrupted + 4);

	/* Clean again. */
	KUNIT_EXPECT_EQ(test, arbel_fw_query_adapter(c->cmd, id, sizeof(id)),
			0);
	KUNIT_EXPECT_STREQ(test, id, STUB_BOARD_ID);
}

/*
 * The whole QUERY_DEV_LIM outbox flipped: the wrapper parses garbage (or
 * refuses it) but must not crash or hit undefined behaviour (UBSAN).
 */
static void fw_flow_corrupt_dev_lim(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 corrupted = dbg_rd(c, ARBEL_DBG_FI_CORRUPTED);
	struct arbel_dev_lim *l;
	int err;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	arm_corrupt(c, OP_QUERY_DEV_LIM, 0, 0x100, 0);
	err = arbel_fw_query_dev_lim(c->cmd, l);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_CORRUPTED), corrupted + 1);
	KUNIT_EXPECT_TRUE_MSG(test, err == 0 || err == -EIO, "err %d", err);
	if (!err) {
		KUNIT_EXPECT_EQ(test, l->log_max_mpts, (17 ^ 0xff) & 0x3f);
		KUNIT_EXPECT_EQ(test, l->mpt_entry_sz, 64 ^ 0xffff);
		KUNIT_EXPECT_EQ(test, l->max_icm_sz, ~(1ULL << 36));
	}
	/* Clean again. */
	KUNIT_EXPECT_EQ(test, arbel_fw_query_dev_lim(c->cmd, l), 0);
	KUNIT_EXPECT_EQ(test, l->mpt_entry_sz, 64);
}

static struct kunit_case fw_flow_cases[] = {
	KUNIT_CASE(fw_flow_query_fw),
	KUNIT_CASE(fw_flow_query_dev_lim),
	KUNIT_CASE(fw_flow_query_adapter),
	KUNIT_CASE(fw_flow_enable_lam),
	KUNIT_CASE(fw_flow_wrong_state),
	KUNIT_CASE(fw_flow_map_unmap_icm),
	KUNIT_CASE(fw_flow_close_init_hca),
	KUNIT_CASE(fw_flow_corrupt_outbox),
	KUNIT_CASE(fw_flow_corrupt_dev_lim),
	{}
};

static struct kunit_suite arbel_fw_flow_suite = {
	.name = "arbel_fw_flow",
	.init = flow_init,
	.exit = flow_exit,
	.test_cases = fw_flow_cases,
};

kunit_test_suites(&arbel_cmd_flow_suite, &arbel_fw_flow_suite);

MODULE_DESCRIPTION("KUnit command-flow tests for the Arbel driver against arbel-stub");
MODULE_LICENSE("GPL");
