// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware commands of the event queue: SW2HW_EQ, HW2SW_EQ, MAP_EQ.
 */

#include <arbel/eqe.h>
#include <arbel/prm.h>
#include "fw.h"

/**
 * arbel_fw_sw2hw_eq() - SW2HW_EQ: hand an EQ to the HCA
 * @cmd: transport
 * @eqn: the EQ number
 * @eqc: its fields (see arbel_eqc_encode())
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_sw2hw_eq(struct arbel_cmd_transport *cmd, u32 eqn,
		      const struct arbel_eqc *eqc)
{
	u8 in[ARBEL_EQC_SIZE];

	arbel_eqc_encode(eqc, in);
	return arbel_fw_mbox(cmd, ARBEL_CMD_SW2HW_EQ, 0, eqn, in, sizeof(in),
			     NULL, 0);
}

/**
 * arbel_fw_hw2sw_eq() - HW2SW_EQ: take an EQ back from the HCA
 * @cmd: transport
 * @eqn: the EQ number
 *
 * op_mod 0 with an outbox for the context, as mthca issues it; the
 * context is not used.
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_hw2sw_eq(struct arbel_cmd_transport *cmd, u32 eqn)
{
	u8 out[ARBEL_EQC_SIZE];

	return arbel_fw_mbox(cmd, ARBEL_CMD_HW2SW_EQ, 0, eqn, NULL, 0, out,
			     sizeof(out));
}

/**
 * arbel_fw_map_eq() - MAP_EQ: route event types to an EQ, or undo it
 * @cmd: transport
 * @eqn: the EQ number
 * @mask: bit n routes event type n
 * @unmap: undo the routing of @mask instead
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_map_eq(struct arbel_cmd_transport *cmd, u32 eqn, u64 mask,
		    bool unmap)
{
	return arbel_cmd_exec(cmd, mask, NULL,
			      eqn | (unmap ? ARBEL_MAP_EQ_UNMAP : 0), 0,
			      ARBEL_CMD_MAP_EQ);
}
