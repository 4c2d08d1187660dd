// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "property faults": run alone, in a VM whose stub
 * was started with fail-opcode=0x31 (NOP), fail-status=STATUS and
 * fail-every=EVERY as device properties.
 */
#include "conformance.h"

void suite_prop_faults(unsigned int every, unsigned int status)
{
	unsigned int i, st, bad = 0;

	ktap_print_msg("suite: property faults");
	reset_device();
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FI_FAIL_OPCODE) == OP_NOP &&
			arbel_dbg_read(dev, ARBEL_DBG_FI_FAIL_STATUS) == status &&
			arbel_dbg_read(dev, ARBEL_DBG_FI_FAIL_EVERY) == every,
			"fault properties visible in the debug window (kept by reset)",
			"opcode 0x%x status 0x%x every %u",
			arbel_dbg_read(dev, ARBEL_DBG_FI_FAIL_OPCODE),
			arbel_dbg_read(dev, ARBEL_DBG_FI_FAIL_STATUS),
			arbel_dbg_read(dev, ARBEL_DBG_FI_FAIL_EVERY));
	check_status(cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa), ST_OK, "QUERY_FW");
	fw_pages = get16(outbox->va);
	check_status(map_fa(), ST_OK, "MAP_FA");
	check_status(cmd(OP_RUN_FW, 0, 0, 0, 0), ST_OK, "RUN_FW");
	for (i = 1; i <= 3 * every; i++) {
		st = cmd(OP_NOP, 0, 0, 0, 0);
		if (st != ((i % every) ? ST_OK : status))
			bad = i;
	}
	ktap_test_check(!bad, "property fail-every: every Nth NOP fails",
			"NOP #%u wrong", bad);
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FI_FAILED) == 3,
			"property faults counted", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_FI_FAILED));
	reset_device();
}
