/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One firmware command as the HCR holds it.  Pure code: UML-testable.
 */
#ifndef _ARBEL_HCR_H
#define _ARBEL_HCR_H

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <arbel/prm.h>

/**
 * struct arbel_hcr_cmd - the fields of one command
 * @in_param: immediate input or input mailbox bus address
 * @out_param: output mailbox bus address (0 for immediate output)
 * @in_mod: input modifier
 * @opcode: 12-bit opcode
 * @op_mod: 4-bit opcode modifier
 * @token: token echoed in event-mode completions
 * @event: complete through an event queue (the e bit)
 */
struct arbel_hcr_cmd {
	u64 in_param;
	u64 out_param;
	u32 in_mod;
	u16 opcode;
	u8 op_mod;
	u16 token;
	bool event;
};

/*
 * How long one command may wait: ARBEL_CMD_TIMEOUT_MS (prm.h) by default,
 * at most 10 minutes; 0 is refused, it would make a lost command wait
 * forever.
 */
#define ARBEL_CMD_TIMEOUT_MAX_MS	600000

/**
 * arbel_cmd_timeout_ok() - whether a command timeout may be used
 * @ms: the timeout in ms
 *
 * Context: any.
 * Return: true for 1 to %ARBEL_CMD_TIMEOUT_MAX_MS.
 */
static inline bool arbel_cmd_timeout_ok(unsigned int ms)
{
	return ms && ms <= ARBEL_CMD_TIMEOUT_MAX_MS;
}

/**
 * arbel_hcr_pack() - the seven HCR dwords that post @cmd
 * @cmd: the command
 * @hcr: filled in host order; dword 6 carries the go bit, so it must be
 *	 written last
 *
 * Context: any.
 */
static inline void arbel_hcr_pack(const struct arbel_hcr_cmd *cmd,
				  u32 hcr[ARBEL_HCR_DWORDS])
{
	hcr[ARBEL_HCR_IN_PARAM_H] = upper_32_bits(cmd->in_param);
	hcr[ARBEL_HCR_IN_PARAM_L] = lower_32_bits(cmd->in_param);
	hcr[ARBEL_HCR_IN_MODIFIER] = cmd->in_mod;
	hcr[ARBEL_HCR_OUT_PARAM_H] = upper_32_bits(cmd->out_param);
	hcr[ARBEL_HCR_OUT_PARAM_L] = lower_32_bits(cmd->out_param);
	hcr[ARBEL_HCR_TOKEN] = FIELD_PREP(ARBEL_HCR_TOKEN_MASK, cmd->token);
	hcr[ARBEL_HCR_CTRL] = FIELD_PREP(ARBEL_HCR_OPCODE, cmd->opcode) |
			      FIELD_PREP(ARBEL_HCR_OPMOD, cmd->op_mod) |
			      (cmd->event ? ARBEL_HCR_E : 0) | ARBEL_HCR_GO;
}

#endif /* _ARBEL_HCR_H */
