/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HCR command transport: post a command, poll for completion, status to
 * errno, mailboxes, statistics.
 */
#ifndef _ARBEL_CMD_H
#define _ARBEL_CMD_H

#include <linux/debugfs.h>
#include <linux/dmapool.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

/**
 * struct arbel_mailbox - one 4 KiB command mailbox
 * @buf: CPU address
 * @dma: bus address handed to the firmware
 */
struct arbel_mailbox {
	void *buf;
	dma_addr_t dma;
};

/**
 * struct arbel_cmd_stats - what one opcode has done
 * @n: commands issued
 * @failed: commands that failed (status or transport)
 * @total_ns: summed duration, for the average
 * @last_status: firmware status of the latest command (0: OK or transport)
 * @last_failed_status: firmware status of the last failure (0: transport)
 * @last_failed_errno: errno of the last failure
 */
struct arbel_cmd_stats {
	u64 n;
	u64 failed;
	u64 total_ns;
	u8 last_status;
	u8 last_failed_status;
	int last_failed_errno;
};

/*
 * The longest cmd_timeout_ms accepted: 10 minutes (the default is one);
 * 0 is refused, it would make a lost command wait forever.
 */
#define ARBEL_CMD_TIMEOUT_MAX_MS	600000

/* Opcodes with statistics; see arbel_cmd_tracked[] in cmd.c. */
#define ARBEL_CMD_NR_TRACKED	22

/**
 * struct arbel_cmd_transport - how one HCA takes firmware commands: its
 *	HCR, mailboxes, timeout, failed state and statistics
 * @dev: the device, for DMA and messages
 * @hcr: the mapped HCR (BAR0 + 0x80680)
 * @lock: serialises commands: one in flight at a time (polling mode); also
 *	  protects @stats and @failed
 * @pool: 4 KiB mailboxes
 * @timeout_ms: how long one command may take
 * @failed: a command timed out; every later command fails with -EIO.
 *	    Read it with arbel_cmd_failed().
 * @stats: per tracked opcode
 * @debugfs: the "commands" directory
 * @fail_work: if set, scheduled when the device becomes failed (its owner
 *	       resets the HCA as soon as possible); see
 *	       arbel_cmd_set_fail_work()
 */
struct arbel_cmd_transport {
	struct device *dev;
	void __iomem *hcr;
	struct mutex lock;	/* one command at a time; @stats, @failed */
	struct dma_pool *pool;
	unsigned int timeout_ms;
	bool failed;
	struct arbel_cmd_stats stats[ARBEL_CMD_NR_TRACKED];
	struct dentry *debugfs;
	struct work_struct *fail_work;
};

int arbel_cmd_init(struct arbel_cmd_transport *cmd, struct device *dev,
		   void __iomem *hcr, unsigned int timeout_ms);
void arbel_cmd_cleanup(struct arbel_cmd_transport *cmd);
void arbel_cmd_debugfs_init(struct arbel_cmd_transport *cmd,
			    struct dentry *parent);

struct arbel_mailbox *arbel_mailbox_alloc(struct arbel_cmd_transport *cmd);
void arbel_mailbox_free(struct arbel_cmd_transport *cmd,
			struct arbel_mailbox *mbox);

int arbel_cmd_exec(struct arbel_cmd_transport *cmd, u64 in_param,
		   u64 *out_param, u32 in_mod, u8 op_mod, u16 opcode);
bool arbel_cmd_failed(struct arbel_cmd_transport *cmd);
bool arbel_cmd_mark_failed(struct arbel_cmd_transport *cmd);
void arbel_cmd_set_fail_work(struct arbel_cmd_transport *cmd,
			     struct work_struct *work);
u8 arbel_cmd_last_status(struct arbel_cmd_transport *cmd, u16 opcode);
int arbel_cmd_box(struct arbel_cmd_transport *cmd, struct arbel_mailbox *in,
		  struct arbel_mailbox *out, u32 in_mod, u8 op_mod, u16 opcode);

#endif /* _ARBEL_CMD_H */
