/*
 * arbel-stub: command dispatch: one table of every opcode, the firmware
 * states it is allowed in and its handler in an object module.
 *
 * Every command goes through the same gate, in this order:
 *   unknown or unimplemented opcode        -> 0x02 bad opcode
 *   not allowed in the firmware state      -> 0x04 bad system state
 *   injected failure (fault injection)     -> the injected status
 *   the command's own checks
 *
 * How the status reaches the driver (HCR, or a completion EQE in event
 * mode) is the HCR's business (arbel-hcr.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-fault.h"
#include "arbel-eq.h"
#include "arbel-mad.h"
#include "arbel-mpt.h"
#include "arbel-ctx.h"
#include "arbel-objects.h"
#include "arbel-dp.h"
#include "arbel-fw.h"
#include "arbel-cmd.h"

/* the firmware states a command is allowed in */
#define ARBEL_S_R     (1u << ARBEL_FW_RESET)
#define ARBEL_S_U     (1u << ARBEL_FW_RUNNING)
#define ARBEL_S_H     (1u << ARBEL_FW_HCA_INIT)

typedef uint8_t (*ArbelCmdHandler)(ArbelState *s, ArbelCmd *cmd);

typedef struct ArbelCmdDesc {
    uint16_t opcode;
    const char *name;
    uint32_t states;
    ArbelCmdHandler handler;
} ArbelCmdDesc;

static const ArbelCmdDesc arbel_cmds[] = {
    { ARBEL_OP_SYS_EN, "SYS_EN", 0, NULL },
    { ARBEL_OP_SYS_DIS, "SYS_DIS", 0, NULL },
    { ARBEL_OP_QUERY_DEV_LIM, "QUERY_DEV_LIM", ARBEL_S_U | ARBEL_S_H,
      arbel_cmd_query_dev_lim },
    { ARBEL_OP_QUERY_FW, "QUERY_FW", ARBEL_S_R | ARBEL_S_U | ARBEL_S_H,
      arbel_cmd_query_fw },
    { ARBEL_OP_QUERY_DDR, "QUERY_DDR", 0, NULL },
    { ARBEL_OP_QUERY_ADAPTER, "QUERY_ADAPTER", ARBEL_S_U | ARBEL_S_H,
      arbel_cmd_query_adapter },
    { ARBEL_OP_INIT_HCA, "INIT_HCA", ARBEL_S_U, arbel_cmd_init_hca },
    { ARBEL_OP_CLOSE_HCA, "CLOSE_HCA", ARBEL_S_H, arbel_cmd_close_hca },
    { ARBEL_OP_INIT_IB, "INIT_IB", ARBEL_S_H, arbel_cmd_init_ib },
    { ARBEL_OP_CLOSE_IB, "CLOSE_IB", ARBEL_S_H, arbel_cmd_close_ib },
    { ARBEL_OP_SET_IB, "SET_IB", ARBEL_S_H, arbel_cmd_set_ib },
    { ARBEL_OP_SW2HW_MPT, "SW2HW_MPT", ARBEL_S_H, arbel_cmd_sw2hw_mpt },
    { ARBEL_OP_QUERY_MPT, "QUERY_MPT", ARBEL_S_H, arbel_cmd_query_mpt },
    { ARBEL_OP_HW2SW_MPT, "HW2SW_MPT", ARBEL_S_H, arbel_cmd_hw2sw_mpt },
    { ARBEL_OP_READ_MTT, "READ_MTT", ARBEL_S_H, arbel_cmd_read_mtt },
    { ARBEL_OP_WRITE_MTT, "WRITE_MTT", ARBEL_S_H, arbel_cmd_write_mtt },
    { ARBEL_OP_MAP_EQ, "MAP_EQ", ARBEL_S_H, arbel_cmd_map_eq },
    { ARBEL_OP_SW2HW_EQ, "SW2HW_EQ", ARBEL_S_H, arbel_cmd_sw2hw_eq },
    { ARBEL_OP_HW2SW_EQ, "HW2SW_EQ", ARBEL_S_H, arbel_cmd_hw2sw_eq },
    { ARBEL_OP_QUERY_EQ, "QUERY_EQ", ARBEL_S_H, arbel_cmd_query_eq },
    { ARBEL_OP_SW2HW_CQ, "SW2HW_CQ", ARBEL_S_H, arbel_cmd_ctx },
    { ARBEL_OP_HW2SW_CQ, "HW2SW_CQ", ARBEL_S_H, arbel_cmd_ctx },
    { ARBEL_OP_QUERY_CQ, "QUERY_CQ", ARBEL_S_H, arbel_cmd_ctx },
    { ARBEL_OP_RESIZE_CQ, "RESIZE_CQ", ARBEL_S_H, arbel_cmd_resize_cq },
    { ARBEL_OP_SW2HW_SRQ, "SW2HW_SRQ", ARBEL_S_H, arbel_cmd_srq_ctx },
    { ARBEL_OP_HW2SW_SRQ, "HW2SW_SRQ", ARBEL_S_H, arbel_cmd_srq_ctx },
    { ARBEL_OP_QUERY_SRQ, "QUERY_SRQ", ARBEL_S_H, arbel_cmd_srq_ctx },
    { ARBEL_OP_ARM_SRQ, "ARM_SRQ", ARBEL_S_H, arbel_cmd_arm_srq },
    { ARBEL_OP_RST2INIT_QPEE, "RST2INIT_QPEE", ARBEL_S_H, arbel_dp_cmd_modify_qp },
    { ARBEL_OP_INIT2INIT_QPEE, "INIT2INIT_QPEE", ARBEL_S_H,
      arbel_dp_cmd_modify_qp },
    { ARBEL_OP_INIT2RTR_QPEE, "INIT2RTR_QPEE", ARBEL_S_H, arbel_dp_cmd_modify_qp },
    { ARBEL_OP_RTR2RTS_QPEE, "RTR2RTS_QPEE", ARBEL_S_H, arbel_dp_cmd_modify_qp },
    { ARBEL_OP_RTS2RTS_QPEE, "RTS2RTS_QPEE", ARBEL_S_H, arbel_dp_cmd_modify_qp },
    { ARBEL_OP_SQERR2RTS_QPEE, "SQERR2RTS_QPEE", ARBEL_S_H,
      arbel_dp_cmd_modify_qp },
    { ARBEL_OP_2ERR_QPEE, "2ERR_QPEE", ARBEL_S_H, arbel_dp_cmd_modify_qp },
    { ARBEL_OP_RTS2SQD_QPEE, "RTS2SQD_QPEE", ARBEL_S_H, arbel_dp_cmd_modify_qp },
    { ARBEL_OP_SQD2SQD_QPEE, "SQD2SQD_QPEE", ARBEL_S_H, arbel_dp_cmd_modify_qp },
    { ARBEL_OP_SQD2RTS_QPEE, "SQD2RTS_QPEE", ARBEL_S_H, arbel_dp_cmd_modify_qp },
    { ARBEL_OP_ERR2RST_QPEE, "ERR2RST_QPEE", ARBEL_S_H, arbel_dp_cmd_modify_qp },
    { ARBEL_OP_QUERY_QPEE, "QUERY_QPEE", ARBEL_S_H, arbel_cmd_query_qp },
    { ARBEL_OP_CONF_SPECIAL_QP, "CONF_SPECIAL_QP", ARBEL_S_H,
      arbel_cmd_conf_special_qp },
    { ARBEL_OP_MAD_IFC, "MAD_IFC", ARBEL_S_H, arbel_cmd_mad_ifc },
    { ARBEL_OP_READ_MGM, "READ_MGM", ARBEL_S_H, arbel_cmd_read_mgm },
    { ARBEL_OP_WRITE_MGM, "WRITE_MGM", ARBEL_S_H, arbel_cmd_write_mgm },
    { ARBEL_OP_MGID_HASH, "MGID_HASH", ARBEL_S_H, arbel_cmd_mgid_hash },
    { ARBEL_OP_SYNC_TPT, "SYNC_TPT", ARBEL_S_H, arbel_cmd_sync_tpt },
    { ARBEL_OP_NOP, "NOP", ARBEL_S_U | ARBEL_S_H, arbel_cmd_nop },
    { ARBEL_OP_RUN_FW, "RUN_FW", ARBEL_S_R, arbel_cmd_run_fw },
    { ARBEL_OP_DISABLE_LAM, "DISABLE_LAM", ARBEL_S_R | ARBEL_S_U | ARBEL_S_H,
      arbel_cmd_disable_lam },
    { ARBEL_OP_ENABLE_LAM, "ENABLE_LAM", ARBEL_S_R | ARBEL_S_U | ARBEL_S_H,
      arbel_cmd_enable_lam },
    { ARBEL_OP_UNMAP_ICM, "UNMAP_ICM", ARBEL_S_U | ARBEL_S_H,
      arbel_cmd_unmap_icm },
    { ARBEL_OP_MAP_ICM, "MAP_ICM", ARBEL_S_U | ARBEL_S_H, arbel_cmd_map_icm },
    { ARBEL_OP_UNMAP_ICM_AUX, "UNMAP_ICM_AUX", ARBEL_S_U,
      arbel_cmd_unmap_icm_aux },
    { ARBEL_OP_MAP_ICM_AUX, "MAP_ICM_AUX", ARBEL_S_U, arbel_cmd_map_icm_aux },
    { ARBEL_OP_SET_ICM_SIZE, "SET_ICM_SIZE", ARBEL_S_U,
      arbel_cmd_set_icm_size },
    { ARBEL_OP_UNMAP_FA, "UNMAP_FA", ARBEL_S_R | ARBEL_S_U,
      arbel_cmd_unmap_fa },
    { ARBEL_OP_MAP_FA, "MAP_FA", ARBEL_S_R, arbel_cmd_map_fa },
};

static const ArbelCmdDesc *arbel_cmd_find(uint16_t opcode)
{
    size_t i;

    for (i = 0; i < ARRAY_SIZE(arbel_cmds); i++) {
        if (arbel_cmds[i].opcode == opcode) {
            return &arbel_cmds[i];
        }
    }
    return NULL;
}

/**
 * arbel_cmd_execute - run one command through the gate and its handler
 * @s: the device
 * @cmd: the command, as the HCR took it
 *
 * The command is traced; its mailbox copies are freed.  Reporting the
 * status (HCR or completion EQE) is the HCR's (arbel-hcr.c).
 *
 * Return: the command status.
 */
uint8_t arbel_cmd_execute(ArbelState *s, ArbelCmd *cmd)
{
    const ArbelCmdDesc *d = arbel_cmd_find(cmd->opcode);
    const char *note = NULL;
    uint8_t status;

    s->disp.cmd_count++;
    cmd->name = d ? d->name : "UNKNOWN";
    if (!d || !d->handler) {
        status = ARBEL_ST_BAD_OP;
    } else if (!(d->states & (1u << arbel_fw_state(s)))) {
        status = ARBEL_ST_BAD_SYS_STATE;
    } else if (arbel_fault_fail(s, cmd->opcode, &status)) {
        note = "injected-failure";
    } else {
        status = d->handler(s, cmd);
        note = cmd->note;
    }
    arbel_trace_cmd(s, cmd, status, note);
    g_free(cmd->inbox);
    g_free(cmd->outbox);
    cmd->inbox = NULL;
    cmd->outbox = NULL;
    return status;
}

/**
 * arbel_cmd_count - commands executed since the device was created
 * @s: the device
 *
 * Return: that count.
 */
uint32_t arbel_cmd_count(ArbelState *s)
{
    return s->disp.cmd_count;
}
