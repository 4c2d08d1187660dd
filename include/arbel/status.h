/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Firmware status codes and opcodes by name, and the status -> errno table.
 * Pure code: runs under UML KUnit.
 */
#ifndef _ARBEL_STATUS_H
#define _ARBEL_STATUS_H

#include <linux/types.h>

int arbel_status_to_errno(u8 status);
bool arbel_status_known(u8 status);
const char *arbel_status_name(u8 status);
const char *arbel_opcode_name(u16 opcode);

#endif /* _ARBEL_STATUS_H */
