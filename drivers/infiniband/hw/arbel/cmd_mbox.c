// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command mailboxes: 4 KiB, 4 KiB-aligned blocks from a dma_pool.
 *
 * While the device is failed (ARBEL_FAILED: after a command was lost and
 * before the HCA's reset), the firmware may still write the output
 * mailbox of a command it is working on, so a mailbox freed meanwhile is
 * parked, not returned to the pool, until arbel_cmd_gone().
 */

#include <linux/dmapool.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include <arbel/prm.h>
#include "cmd_priv.h"

/**
 * arbel_mailbox_pool_init() - the transport's pool of mailboxes
 * @cmd: transport state, its device set
 *
 * Context: process.
 * Return: 0 or -ENOMEM.
 */
int arbel_mailbox_pool_init(struct arbel_cmd_transport *cmd)
{
	spin_lock_init(&cmd->park_lock);
	INIT_LIST_HEAD(&cmd->parked);
	cmd->pool = dma_pool_create("arbel_cmd", cmd->dev, ARBEL_MAILBOX_SIZE,
				    ARBEL_MAILBOX_ALIGN, 0);
	return cmd->pool ? 0 : -ENOMEM;
}

/**
 * arbel_mailbox_pool_destroy() - undo arbel_mailbox_pool_init()
 * @cmd: transport state; every mailbox freed
 *
 * Parked mailboxes are freed if the HCA was reset since the device failed
 * (arbel_cmd_gone()); otherwise the firmware may still write them,
 * and they and the pool are leaked, with a warning, rather than freed.
 *
 * Context: process.
 */
void arbel_mailbox_pool_destroy(struct arbel_cmd_transport *cmd)
{
	if (WARN(cmd->state == ARBEL_FAILED && cmd->n_parked,
		 "arbel: leaking %u mailboxes the unreset HCA may still write\n",
		 cmd->n_parked))
		return;
	dma_pool_destroy(cmd->pool);
	cmd->pool = NULL;
}

/* Give a mailbox back to the pool. */
static void arbel_mailbox_release(struct arbel_cmd_transport *cmd,
				  struct arbel_mailbox *mbox)
{
	dma_pool_free(cmd->pool, mbox->buf, mbox->dma);
	kfree(mbox);
}

/**
 * arbel_cmd_set_state() - the device's new state
 * @cmd: transport state, @cmd->lock held unless @state is %ARBEL_GONE
 *	 (which no command path tells from %ARBEL_FAILED)
 * @state: the new state
 *
 * From %ARBEL_FAILED on, freed mailboxes are parked.
 *
 * Context: any.
 */
void arbel_cmd_set_state(struct arbel_cmd_transport *cmd,
			 enum arbel_state state)
{
	spin_lock(&cmd->park_lock);
	cmd->state = state;
	spin_unlock(&cmd->park_lock);
}

/**
 * arbel_cmd_gone() - the HCA was reset: free the parked mailboxes
 * @cmd: transport state
 *
 * Called by whoever reset the HCA (arbel_dev_fail()) once the reset, or
 * turning bus mastering off, guarantees that the firmware writes no
 * mailbox any more: the device is %ARBEL_GONE.  Later frees go back to
 * the pool at once; commands still fail.
 *
 * Context: process.
 */
void arbel_cmd_gone(struct arbel_cmd_transport *cmd)
{
	struct arbel_mailbox *mbox, *next;
	LIST_HEAD(list);

	spin_lock(&cmd->park_lock);
	cmd->state = ARBEL_GONE;
	list_splice_init(&cmd->parked, &list);
	cmd->n_parked = 0;
	spin_unlock(&cmd->park_lock);
	list_for_each_entry_safe(mbox, next, &list, parked)
		arbel_mailbox_release(cmd, mbox);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_gone);

/**
 * arbel_mailbox_alloc() - a zeroed 4 KiB, 4 KiB-aligned mailbox
 * @cmd: transport state
 *
 * Context: process.
 * Return: the mailbox or ERR_PTR(-ENOMEM).
 */
struct arbel_mailbox *arbel_mailbox_alloc(struct arbel_cmd_transport *cmd)
{
	struct arbel_mailbox *mbox;

	mbox = kmalloc(sizeof(*mbox), GFP_KERNEL);
	if (!mbox)
		return ERR_PTR(-ENOMEM);
	mbox->buf = dma_pool_zalloc(cmd->pool, GFP_KERNEL, &mbox->dma);
	if (!mbox->buf) {
		kfree(mbox);
		return ERR_PTR(-ENOMEM);
	}
	return mbox;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mailbox_alloc);

/**
 * arbel_mailbox_free() - return a mailbox
 * @cmd: transport state
 * @mbox: from arbel_mailbox_alloc(); NULL and error pointers are ignored
 *
 * While the device is failed and the HCA not yet reset, the mailbox is
 * parked instead (see arbel_cmd_gone()).
 *
 * Context: process.
 */
void arbel_mailbox_free(struct arbel_cmd_transport *cmd,
			struct arbel_mailbox *mbox)
{
	if (IS_ERR_OR_NULL(mbox))
		return;
	spin_lock(&cmd->park_lock);
	if (cmd->state == ARBEL_FAILED) {
		list_add_tail(&mbox->parked, &cmd->parked);
		cmd->n_parked++;
		mbox = NULL;
	}
	spin_unlock(&cmd->park_lock);
	if (mbox)
		arbel_mailbox_release(cmd, mbox);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mailbox_free);
