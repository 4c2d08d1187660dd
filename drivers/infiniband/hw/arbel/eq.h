/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event queue: one EQ for command completions and asynchronous
 * events, its interrupt (MSI-X or INTx), and the catastrophic-error poll.
 */
#ifndef _ARBEL_EQ_H
#define _ARBEL_EQ_H

#include <linux/interrupt.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <arbel/eqe.h>
#include "mr.h"

struct arbel_dev;

/* the queues' handler of their events (event.c), set by the verbs layer */
typedef void (*arbel_queue_event_fn)(struct arbel_dev *adev,
				     const struct arbel_eqe_info *info);

/* EQEs: 0x80 for commands, 0x80 async, 0x80 spare (mthca's sizes) */
#define ARBEL_EQ_NENT		512
/* The interrupt test's wait: mthca's 100 ms, stretched for emulators */
#define ARBEL_EQ_IRQ_TEST_MS	1000
/* How often the catastrophic-error buffer is read (mthca: 5 s) */
#define ARBEL_CATAS_POLL_MS	5000

/**
 * enum arbel_eq_mode - how commands complete and events arrive
 * @ARBEL_EQ_POLLING: no EQ; commands poll the go bit
 * @ARBEL_EQ_MSIX: the EQ interrupts through MSI-X vector 0
 * @ARBEL_EQ_INTX: the EQ interrupts through the INTx pin
 */
enum arbel_eq_mode {
	ARBEL_EQ_POLLING,
	ARBEL_EQ_MSIX,
	ARBEL_EQ_INTX,
};

/**
 * struct arbel_eq - the driver's event queue
 * @eqn: its number
 * @buf: the EQE ring, %ARBEL_EQ_NENT entries
 * @dma: its bus address (the region's iova: a physical region)
 * @mr: the buffer's region (MPT, no MTT)
 * @region: @mr is registered
 * @cons: consumer index
 * @mode: polling, MSI-X or INTx
 * @hw: SW2HW_EQ done and not undone
 * @mapped: MAP_EQ done and not undone
 * @icm: the EQ context's ICM chunk is held
 * @irq: the Linux interrupt number, 0 if none is requested
 * @arm: the arm doorbell word that holds @eqn
 * @set_ci: this EQ's set-CI doorbell
 * @clr_int: the clear-interrupt register's half holding the INTA pin,
 *	     INTx only
 * @clr_mask: what @clr_int is written with
 * @lock: one EQ poll at a time (interrupt, catastrophic poll)
 * @n_interrupts: interrupts taken
 * @n_events: EQEs by type
 * @n_port_up: port-active events dispatched
 * @n_port_down: port-error events dispatched
 * @catas: the catastrophic-error buffer, mapped in BAR0
 * @catas_size: its size in dwords
 * @catas_timer: reads @catas every %ARBEL_CATAS_POLL_MS
 * @catas_seen: a catastrophic error was reported (once)
 * @debugfs: the "eq" directory
 * @queue_event: where completion, CQ, QP and SRQ events go while the
 *		 ib_device is registered
 */
struct arbel_eq {
	u32 eqn;
	u8 *buf;
	dma_addr_t dma;
	struct arbel_mr_hw mr;
	bool region;
	u32 cons;
	enum arbel_eq_mode mode;
	bool hw;
	bool mapped;
	bool icm;
	int irq;
	void __iomem *arm;
	void __iomem *set_ci;
	void __iomem *clr_int;
	u32 clr_mask;
	spinlock_t lock;	/* EQE processing */
	u64 n_interrupts;
	u64 n_events[ARBEL_EV_NR];
	u64 n_port_up;
	u64 n_port_down;
	void __iomem *catas;
	u32 catas_size;
	struct timer_list catas_timer;
	bool catas_seen;
	struct dentry *debugfs;
	arbel_queue_event_fn queue_event;
};

int arbel_eq_init(struct arbel_dev *adev, bool polling, bool msix);
void arbel_eq_cleanup(struct arbel_dev *adev);
void arbel_eq_debugfs_init(struct arbel_dev *adev, struct dentry *parent);
const char *arbel_eq_mode_name(enum arbel_eq_mode mode);
void arbel_catas_start(struct arbel_dev *adev);
void arbel_eq_irq_free(struct arbel_dev *adev);
void arbel_catas_stop(struct arbel_dev *adev);

#endif /* _ARBEL_EQ_H */
