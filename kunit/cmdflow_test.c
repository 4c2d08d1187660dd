// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite arbel_cmd_flow: the HCR transport (cmd.c) of the HCA the
 * driver bound at boot, against arbel-stub; see flow.h.
 */

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/iopoll.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "flow.h"

static void arm_fail(struct flow_ctx *c, u16 opcode, u8 status, u32 every)
{
	dbg_wr(c, ARBEL_DBG_FI_FAIL_STATUS, status);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_EVERY, every);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_OPCODE, opcode);
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

/* ---- arbel_cmd_flow: the transport ----------------------------------- */

/* A timeout of 0 or above 10 minutes is refused before @cmd is touched. */
static void cmd_flow_timeout_refused(struct kunit *test)
{
	struct arbel_cmd_transport *cmd;

	cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_EXPECT_EQ(test, arbel_cmd_init(cmd, NULL, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_cmd_init(cmd, NULL, NULL, 600001),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, arbel_cmd_init(cmd, NULL, NULL, UINT_MAX),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cmd->timeout_ms, 0u);
	KUNIT_EXPECT_NULL(test, cmd->pool);
}

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
	KUNIT_EXPECT_EQ(test, ioread32be(c->adev->dcs + T_HCR_CTRL) &
			      (T_HCR_GO | T_HCR_OPCODE), (u32)OP_NOP);
}

/* Opcodes the stub does not implement: status 0x02, -EPERM. */
static const u16 bad_opcodes[] = {
	OP_SYS_EN, OP_QUERY_DDR, 0x0fe, 0x500, 0x0ff, 0x7ab,
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
	u8 *p;

	/*
	 * A mailbox must be non-zero, else 0x03.  One not 4 KiB aligned is
	 * no refusal (no source states it): the stub notes "unconfirmed:"
	 * and writes the outbox where it is.
	 */
	KUNIT_EXPECT_EQ(test,
			arbel_cmd_box(c->cmd, NULL, NULL, 0, 0, OP_QUERY_FW),
			-EINVAL);
	mb = arbel_mailbox_alloc(c->cmd);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mb));
	memset(mb->buf, 0, 0x80);
	skew.buf = mb->buf + 0x40;
	skew.dma = mb->dma + 0x40;
	KUNIT_EXPECT_EQ(test,
			arbel_cmd_box(c->cmd, NULL, &skew, 0, 0, OP_QUERY_FW),
			0);
	p = mb->buf;
	KUNIT_EXPECT_EQ(test, p[0x42] << 8 | p[0x43], 5);	/* major */
	KUNIT_EXPECT_EQ(test, p[0x02] << 8 | p[0x03], 0);
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
	KUNIT_EXPECT_EQ(test, arbel_fw_query_adapter(c->cmd, id, sizeof(id),
						     NULL), -EIO);
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

	/* An opcode no firmware knows has no counter. */
	KUNIT_EXPECT_EQ(test, arbel_cmd_exec(c->cmd, 0, NULL, 0, 0, 0x7ab),
			-EPERM);
	KUNIT_EXPECT_EQ(test, stats_total_n(c->cmd), total + 2);
}

static void cmd_flow_hold_timeout(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_fw_info fw;
	s64 failed = stat_file(test, "NOP", "failed");
	u64 t0, ms;

	arbel_flow_hold(test, OP_NOP, 50, 2000);

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

/*
 * A command that times out may still be running in the firmware, which
 * writes its output mailbox when it finishes: until the HCA is reset, a
 * freed mailbox is parked, not handed back to the pool.
 */
static void cmd_flow_timeout_parks_mailbox(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_mailbox *out, *later;
	u32 ctrl;
	int err;

	out = arbel_mailbox_alloc(c->cmd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(out));
	arbel_flow_hold(test, OP_QUERY_FW, 50, 300);

	KUNIT_EXPECT_EQ(test, arbel_cmd_box(c->cmd, NULL, out, 0, 0,
					    OP_QUERY_FW), -ETIMEDOUT);
	arbel_mailbox_free(c->cmd, out);
	KUNIT_EXPECT_EQ(test, READ_ONCE(c->cmd->n_parked), 1U);

	/*
	 * The firmware finishes QUERY_FW after the hold and writes the
	 * outbox, which is still the driver's: the firmware major version
	 * is the big-endian u16 at byte 2 (PRM QUERY_FW, FW_REV_MAJOR).
	 */
	err = readx_poll_timeout(ioread32be, c->adev->dcs + T_HCR_CTRL, ctrl,
				 !(ctrl & T_HCR_GO), 1000, 10 * USEC_PER_SEC);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpup(out->buf + 2), c->adev->fw.major);

	/* A mailbox freed before the reset is parked too ... */
	later = arbel_mailbox_alloc(c->cmd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(later));
	arbel_mailbox_free(c->cmd, later);
	KUNIT_EXPECT_EQ(test, READ_ONCE(c->cmd->n_parked), 2U);
	/* ... and the reset hands them all back; later frees are at once. */
	arbel_cmd_gone(c->cmd);
	KUNIT_EXPECT_EQ(test, READ_ONCE(c->cmd->n_parked), 0U);
	later = arbel_mailbox_alloc(c->cmd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(later));
	arbel_mailbox_free(c->cmd, later);
	KUNIT_EXPECT_EQ(test, READ_ONCE(c->cmd->n_parked), 0U);
	/* flow_exit() un-fails the device. */
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

/*
 * The bring-up ended in event mode (the stub has MSI-X and delivers the
 * interrupt test's completion): commands carry the e bit and complete
 * through the EQ; the transport goes back to polling and to events again.
 */
static void cmd_flow_event_mode(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_cmd_transport *cmd = c->cmd;
	u64 ev, polled, irqs, late;

	KUNIT_ASSERT_TRUE_MSG(test, cmd->use_events,
			      "bring-up did not end in event mode (EQ mode %s)",
			      arbel_eq_mode_name(c->adev->eq.mode));
	KUNIT_EXPECT_EQ(test, c->adev->eq.mode, ARBEL_EQ_MSIX);
	/* QUERY_FW's log_max_cmds (the stub: 2^4) */
	KUNIT_EXPECT_EQ(test, cmd->max_cmds, 1 << c->adev->fw.log_max_cmds);

	ev = cmd->n_event;
	irqs = c->adev->eq.n_interrupts;
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, cmd->n_event, ev + 1);
	KUNIT_EXPECT_GT(test, c->adev->eq.n_interrupts, irqs);
	/* posted with e (bit 22) */
	KUNIT_EXPECT_EQ(test, ioread32be(c->adev->dcs + T_HCR_CTRL) &
			      (T_HCR_E | T_HCR_GO | T_HCR_OPCODE),
			(u32)(T_HCR_E | OP_NOP));
	KUNIT_EXPECT_EQ(test, arbel_cmd_irq_test(cmd, 1000), 0);
	/* an immediate output arrives through the EQE too */
	KUNIT_EXPECT_EQ(test, arbel_fw_enable_lam(cmd), -EAGAIN);

	polled = cmd->n_polled;
	arbel_cmd_use_polling(cmd);
	KUNIT_EXPECT_FALSE(test, cmd->use_events);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, cmd->n_polled, polled + 1);
	KUNIT_EXPECT_EQ(test, ioread32be(c->adev->dcs + T_HCR_CTRL) & T_HCR_E,
			0);
	KUNIT_EXPECT_EQ(test, arbel_cmd_irq_test(cmd, 1000), -EINVAL);
	KUNIT_ASSERT_EQ(test, arbel_cmd_use_events(cmd,
						   c->adev->fw.log_max_cmds), 0);
	ev = cmd->n_event;
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, cmd->n_event, ev + 1);

	/* A completion nobody waits for is counted and dropped. */
	late = cmd->n_late;
	arbel_cmd_event(cmd, 0x0005, 0, 0);
	KUNIT_EXPECT_EQ(test, cmd->n_late, late + 1);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
}

/*
 * Surprise removal: the card is pulled (the stub reads all-ones) while a
 * command is outstanding.  Nothing will ever complete it: the caller gets
 * -ENODEV in well under a second, not after the timeout; the device is
 * failed and the next command gets -EIO at once.
 */
static void pulled_case(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u64 t0, ms;

	arbel_flow_hold(test, OP_NOP, 20000, U32_MAX);
	arbel_flow_pull_after(test, 100);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, run_nop(c), -ENODEV);
	ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
	KUNIT_EXPECT_GE(test, ms, 100);
	KUNIT_EXPECT_LT(test, ms, 100 + 1000);
	KUNIT_EXPECT_TRUE(test, arbel_cmd_failed(c->cmd));
	KUNIT_EXPECT_EQ(test, run_nop(c), -EIO);

	arbel_flow_plug_back(test);
	dbg_wr(c, ARBEL_DBG_FI_HOLD_MS, 0);
	arbel_flow_unfail(test, c->saved_timeout_ms);
}

/* ... in event mode: the waiter looks at the HCR between waits */
static void cmd_flow_pulled_event(struct kunit *test)
{
	struct flow_ctx *c = test->priv;

	KUNIT_ASSERT_TRUE(test, c->cmd->use_events);
	pulled_case(test);
}

/* ... in polling mode: the go-bit poll stops at all-ones */
static void cmd_flow_pulled_polling(struct kunit *test)
{
	struct flow_ctx *c = test->priv;

	arbel_cmd_use_polling(c->cmd);
	pulled_case(test);
	KUNIT_EXPECT_EQ(test, arbel_cmd_use_events(c->cmd,
						   c->adev->fw.log_max_cmds),
			0);
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
	KUNIT_CASE(cmd_flow_timeout_refused),
	KUNIT_CASE(cmd_flow_hold_timeout),
	KUNIT_CASE(cmd_flow_timeout_parks_mailbox),
	KUNIT_CASE(cmd_flow_hold_completes),
	KUNIT_CASE(cmd_flow_serialised),
	KUNIT_CASE(cmd_flow_event_mode),
	KUNIT_CASE(cmd_flow_pulled_event),
	KUNIT_CASE(cmd_flow_pulled_polling),
	{}
};

static struct kunit_suite arbel_cmd_flow_suite = {
	.name = "arbel_cmd_flow",
	.init = arbel_flow_init,
	.exit = arbel_flow_exit,
	.test_cases = cmd_flow_cases,
};

kunit_test_suites(&arbel_cmd_flow_suite);
