/*
 * arbel-stub: DMA and command mailboxes (arbel-dma.c), a shared service.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_DMA_H
#define HW_ARBEL_DMA_H

#include "exec/memattrs.h"
#include "arbel-state.h"

bool arbel_bus_master(ArbelState *s);
MemTxResult arbel_dma_read(ArbelState *s, uint64_t addr, void *buf,
                           uint64_t len);
MemTxResult arbel_dma_write(ArbelState *s, uint64_t addr, const void *buf,
                            uint64_t len);
/* the command's inbox (in_param) into cmd->inbox: a command status */
uint8_t arbel_inbox_read(ArbelState *s, ArbelCmd *cmd, uint32_t len);
/* @buf to the command's outbox (out_param), kept in cmd->outbox */
uint8_t arbel_outbox_write(ArbelState *s, ArbelCmd *cmd, const void *buf,
                           uint32_t len);

#endif
