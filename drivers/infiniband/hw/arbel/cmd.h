/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HCR command transport: post a command, poll for completion, status to
 * errno, mailboxes, statistics.
 */
#ifndef _ARBEL_CMD_H
#define _ARBEL_CMD_H

#include <linux/debugfs.h>
#include <linux/dmapool.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <arbel/hcr.h>

/**
 * enum arbel_state - whether the HCA may be used: the one failure model
 * @ARBEL_ALIVE: commands are posted
 * @ARBEL_FAILED: a command was lost, or a teardown command refused: no
 *	command is posted any more (-EIO), and the HCA may still own host
 *	memory -- freed mailboxes are parked, ICM chunks whose unmap failed
 *	are held -- until it is reset
 * @ARBEL_GONE: the HCA has been reset (or cut off the bus) since it
 *	failed: it owns nothing any more, everything may be freed; commands
 *	still fail with -EIO until the HCA is brought up again
 *
 * ALIVE -> FAILED: arbel_cmd_fail() (or a timeout); FAILED -> GONE:
 * arbel_cmd_gone(), by whoever reset the HCA (arbel_dev_fail()); GONE ->
 * ALIVE: arbel_cmd_revive(), when the HCA is brought up again.
 */
enum arbel_state {
	ARBEL_ALIVE,
	ARBEL_FAILED,
	ARBEL_GONE,
};

/**
 * struct arbel_mailbox - one 4 KiB command mailbox
 * @buf: CPU address
 * @dma: bus address handed to the firmware
 * @parked: on the transport's @parked list: freed while the device was
 *	    failed but not yet reset (the firmware may still write it)
 */
struct arbel_mailbox {
	void *buf;
	dma_addr_t dma;
	struct list_head parked;
};

/**
 * struct arbel_cmd_stats - what one opcode has done
 * @n: commands issued
 * @failed: commands that failed (status or transport)
 * @total_ns: summed duration, for the average
 * @last_failed_status: firmware status of the last failure (0: transport)
 * @last_failed_errno: errno of the last failure
 */
struct arbel_cmd_stats {
	u64 n;
	u64 failed;
	u64 total_ns;
	u8 last_failed_status;
	int last_failed_errno;
};

/**
 * struct arbel_cmd_context - one event-mode command slot
 * @done: completed by arbel_cmd_event()
 * @next: next free slot, -1 at the end (under the transport's @ctx_lock)
 * @token: the token of the command in this slot; the slot index is its
 *	   low bits, the rest changes with every use, so that a completion
 *	   that arrives after its caller gave up matches no later command
 * @waiting: a caller waits on @done (under @ctx_lock)
 * @aborted: the device failed while the caller waited: -EIO
 * @status: the completion's firmware status
 * @out_param: the completion's immediate output
 */
struct arbel_cmd_context {
	struct completion done;
	int next;
	u16 token;
	bool waiting;
	bool aborted;
	u8 status;
	u64 out_param;
};

/* Opcodes with statistics; see arbel_cmd_tracked[] in cmd.c. */
#define ARBEL_CMD_NR_TRACKED	47

/**
 * struct arbel_cmd_transport - how one HCA takes firmware commands: its
 *	HCR, mailboxes, timeout, failed state and statistics
 * @dev: the device, for DMA and messages
 * @hcr: the mapped HCR (BAR0 + 0x80680)
 * @lock: serialises commands: one in flight at a time (polling mode); also
 *	  protects @state
 * @pool: 4 KiB mailboxes
 * @timeout_ms: how long one command may take
 * @state: alive, failed or gone (written under @lock and @park_lock, read
 *	   under either); read it with arbel_cmd_failed()
 * @stats: per tracked opcode
 * @debugfs: the "commands" directory
 * @fail_work: if set, scheduled when the device becomes failed (its owner
 *	       resets the HCA as soon as possible: a work item, so that the
 *	       transport never calls up); see
 *	       arbel_cmd_set_fail_work()
 * @use_events: commands complete through an event queue (the e bit set)
 * @contexts: event-mode slots, @max_cmds of them
 * @max_cmds: commands outstanding at once in event mode (2^log_max_cmds)
 * @token_mask: the slot-index bits of a token
 * @free_head: first free slot, -1 if none
 * @ctx_lock: protects the slots' @next and @waiting, @free_head, @stats
 *	      and @n_event (a finished event-mode command frees its slot
 *	      and is counted under one hold)
 * @event_sem: counts free slots; event-mode callers sleep on it
 * @n_event: commands completed through an event queue
 * @n_polled: commands completed by polling the go bit
 * @n_late: completions that matched no waiting command (late or stray)
 * @park_lock: protects @parked and @n_parked, and @state for
 *	       arbel_mailbox_free(): while the device is failed a freed
 *	       mailbox may still be written by the firmware, so it is parked
 *	       instead of freed until arbel_cmd_gone()
 * @parked: mailboxes kept for that reason
 * @n_parked: how many (debugfs commands/parked_mailboxes)
 */
struct arbel_cmd_transport {
	struct device *dev;
	void __iomem *hcr;
	struct mutex lock;	/* one command on the HCR at a time; @state */
	struct dma_pool *pool;
	unsigned int timeout_ms;
	enum arbel_state state;
	struct arbel_cmd_stats stats[ARBEL_CMD_NR_TRACKED];
	struct dentry *debugfs;
	struct work_struct *fail_work;
	bool use_events;
	struct arbel_cmd_context *contexts;
	int max_cmds;
	u16 token_mask;
	int free_head;
	spinlock_t ctx_lock;	/* @contexts, @free_head, @stats, @n_event */
	struct semaphore event_sem;
	u64 n_event;
	u64 n_polled;
	u64 n_late;
	spinlock_t park_lock;	/* @state (with @lock), @parked, @n_parked */
	struct list_head parked;
	u32 n_parked;
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
int arbel_cmd_use_events(struct arbel_cmd_transport *cmd, u8 log_max_cmds);
void arbel_cmd_use_polling(struct arbel_cmd_transport *cmd);
void arbel_cmd_event(struct arbel_cmd_transport *cmd, u16 token, u8 status,
		     u64 out_param);
int arbel_cmd_irq_test(struct arbel_cmd_transport *cmd,
		       unsigned int timeout_ms);
bool arbel_cmd_failed(struct arbel_cmd_transport *cmd);
void arbel_cmd_gone(struct arbel_cmd_transport *cmd);
bool arbel_cmd_fail(struct arbel_cmd_transport *cmd);
void arbel_cmd_revive(struct arbel_cmd_transport *cmd);
void arbel_cmd_set_fail_work(struct arbel_cmd_transport *cmd,
			     struct work_struct *work);
int arbel_cmd_box(struct arbel_cmd_transport *cmd, struct arbel_mailbox *in,
		  struct arbel_mailbox *out, u32 in_mod, u8 op_mod, u16 opcode);

#endif /* _ARBEL_CMD_H */
