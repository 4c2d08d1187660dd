/*
 * arbel-stub: DMA to guest memory and the command mailboxes.
 *
 * Every access the device makes to guest memory goes through here, is
 * counted (debug window LC_DMAS) and is refused while the guest has bus
 * mastering off or the card is pulled.  A mailbox address must be
 * non-zero; one not 4 KiB aligned is used and noted "unconfirmed:"; one
 * in a page the HCA owns is used and reported (arbel-life.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "sysemu/dma.h"
#include "arbel-state.h"
#include "arbel-fault.h"
#include "arbel-trace.h"
#include "arbel-life.h"
#include "arbel-dma.h"

/**
 * arbel_bus_master - whether the guest lets the device master the bus
 * @s: the device
 *
 * Return: true if Bus Master Enable is set in the command register.
 */
bool arbel_bus_master(ArbelState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    return pci_get_word(pdev->config + PCI_COMMAND) & PCI_COMMAND_MASTER;
}

/**
 * arbel_dma_read - read guest memory
 * @s: the device
 * @addr: guest-physical address
 * @buf: where to
 * @len: bytes
 *
 * Return: MEMTX_OK, or an error (also with bus mastering off or the card
 * pulled).
 */
MemTxResult arbel_dma_read(ArbelState *s, uint64_t addr, void *buf,
                           uint64_t len)
{
    if (!arbel_bus_master(s) || arbel_life_pulled(s)) {
        return MEMTX_ERROR;
    }
    arbel_life_count(s, ARBEL_LIFE_DMAS);
    return pci_dma_read(PCI_DEVICE(s), addr, buf, len);
}

/**
 * arbel_dma_write - write guest memory
 * @s: the device
 * @addr: guest-physical address
 * @buf: what
 * @len: bytes
 *
 * Return: MEMTX_OK, or an error (also with bus mastering off or the card
 * pulled).
 */
MemTxResult arbel_dma_write(ArbelState *s, uint64_t addr, const void *buf,
                            uint64_t len)
{
    if (!arbel_bus_master(s) || arbel_life_pulled(s)) {
        return MEMTX_ERROR;
    }
    arbel_life_count(s, ARBEL_LIFE_DMAS);
    return pci_dma_write(PCI_DEVICE(s), addr, buf, len);
}
/*
 * A mailbox at 0 is refused (0x03) -- no source states it, but taking it
 * would have the stub DMA at guest-physical 0.  4 KiB alignment is
 * unconfirmed: mthca (a 4 KiB-aligned DMA pool) and iPXE align their
 * mailboxes, no source says the firmware refuses others (mlx4 even masks
 * only bits 7:0), so a misaligned mailbox is used where it is.
 */
static uint8_t arbel_mbox_check(ArbelState *s, ArbelCmd *cmd, uint64_t addr)
{
    if (!addr) {
        return ARBEL_ST_BAD_PARAM;
    }
    if (addr & (ARBEL_MBOX_SIZE - 1)) {
        arbel_unconfirmed(s, "%s mailbox 0x%" PRIx64 " not 4 KiB aligned",
                          cmd->name ? cmd->name : "command", addr);
    }
    if (!arbel_bus_master(s)) {
        return ARBEL_ST_INTERNAL_ERR;
    }
    return ARBEL_ST_OK;
}

/* a mailbox in a page the HCA owns: reported, used (arbel-life.c) */
static void arbel_mbox_owned(ArbelState *s, ArbelCmd *cmd, uint64_t addr,
                             uint32_t len, const char *box)
{
    g_autofree char *what = g_strdup_printf("%s's %s",
                                            cmd->name ? cmd->name : "command",
                                            box);

    arbel_life_check(s, addr, len, what);
}

/**
 * arbel_inbox_read - the command's inbox (in_param) into @cmd->inbox
 * @s: the device
 * @cmd: the command; its inbox copy is kept for the trace
 * @len: bytes, at most ARBEL_MBOX_SIZE
 *
 * Return: a command status.
 */
uint8_t arbel_inbox_read(ArbelState *s, ArbelCmd *cmd, uint32_t len)
{
    uint8_t st = arbel_mbox_check(s, cmd, cmd->in_param);

    if (st) {
        return st;
    }
    assert(len <= ARBEL_MBOX_SIZE);
    arbel_mbox_owned(s, cmd, cmd->in_param, len, "inbox");
    g_free(cmd->inbox);
    cmd->inbox = g_malloc0(len);
    cmd->inbox_len = len;
    if (arbel_dma_read(s, cmd->in_param, cmd->inbox, len) != MEMTX_OK) {
        return ARBEL_ST_BAD_PARAM;
    }
    return ARBEL_ST_OK;
}

/**
 * arbel_outbox_write - @buf to the command's outbox (out_param)
 * @s: the device
 * @cmd: the command; the outbox copy (after fault injection) is kept
 * @buf: the answer
 * @len: bytes, at most ARBEL_MBOX_SIZE
 *
 * Return: a command status.
 */
uint8_t arbel_outbox_write(ArbelState *s, ArbelCmd *cmd, const void *buf,
                           uint32_t len)
{
    uint8_t st = arbel_mbox_check(s, cmd, cmd->out_param);

    if (st) {
        return st;
    }
    assert(len <= ARBEL_MBOX_SIZE);
    arbel_mbox_owned(s, cmd, cmd->out_param, len, "outbox");
    g_free(cmd->outbox);
    cmd->outbox = g_memdup2(buf, len);
    cmd->outbox_len = len;
    arbel_fault_corrupt(s, cmd, cmd->outbox, len);
    if (arbel_dma_write(s, cmd->out_param, cmd->outbox, len) != MEMTX_OK) {
        return ARBEL_ST_BAD_PARAM;
    }
    return ARBEL_ST_OK;
}
