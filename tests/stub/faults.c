// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "faults": the debug window's fault injection --
 * failed commands, a held go bit, corrupted outboxes.
 */
#include <inttypes.h>

#include "conformance.h"

static void fault_fail(void)
{
	unsigned int st[6], i;

	arbel_fi_clear(dev);
	arbel_fi_fail(dev, OP_NOP, ST_RESOURCE_BUSY, 0);
	st[0] = cmd(OP_NOP, 0, 0, 0, 0);
	st[1] = cmd(OP_NOP, 0, 0, 0, 0);
	ktap_test_check(st[0] == ST_RESOURCE_BUSY && st[1] == ST_OK,
			"fault: fail next NOP once with 0x06", "%02x %02x",
			st[0], st[1]);
	ktap_test_check(cmd(OP_SYNC_TPT, 0, 0, 0, 0) == ST_OK,
			"fault: other opcodes unaffected", "SYNC_TPT failed");

	arbel_fi_fail(dev, OP_NOP, ST_INTERNAL_ERR, 3);
	for (i = 0; i < 6; i++)
		st[i] = cmd(OP_NOP, 0, 0, 0, 0);
	ktap_test_check(st[0] == 0 && st[1] == 0 && st[2] == 1 && st[3] == 0 &&
			st[4] == 0 && st[5] == 1, "fault: fail every 3rd NOP",
			"%x %x %x %x %x %x", st[0], st[1], st[2], st[3], st[4],
			st[5]);
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FI_FAILED) == 3,
			"fault: failure counter", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_FI_FAILED));
	arbel_fi_clear(dev);
}

static void fault_hold(void)
{
	unsigned int go;
	uint64_t t0;

	arbel_fi_hold(dev, OP_NOP, ARBEL_FI_HOLD_FOREVER);
	hcr_post(OP_NOP, 0, 0, 0, 0, false);
	arbel_msleep(300);
	ktap_test_check(arbel_be32_read(dev, ARBEL_HCR_CTRL) & ARBEL_HCR_GO,
			"fault: hold go (go still set after 300 ms)",
			"go clear: 0x%08x", arbel_be32_read(dev, ARBEL_HCR_CTRL));
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x08, 0x1234);
	ktap_test_check(arbel_be32_read(dev, ARBEL_HCR_BASE + 0x08) != 0x1234,
			"HCR writes ignored while go is set", "in_mod 0x%x",
			arbel_be32_read(dev, ARBEL_HCR_BASE + 0x08));
	arbel_fi_release(dev);
	ktap_test_check(hcr_wait(100) &&
			(arbel_be32_read(dev, ARBEL_HCR_CTRL) >> 24) == ST_OK,
			"fault: releasing the hold completes the command",
			"0x%08x", arbel_be32_read(dev, ARBEL_HCR_CTRL));

	arbel_fi_hold(dev, OP_NOP, 1000);
	t0 = arbel_now_ms();
	hcr_post(OP_NOP, 0, 0, 0, 0, false);
	arbel_msleep(50);
	go = arbel_be32_read(dev, ARBEL_HCR_CTRL) & ARBEL_HCR_GO;
	ktap_test_check(go && hcr_wait(10000) && arbel_now_ms() - t0 >= 800,
			"fault: timed hold (1000 ms) then completion",
			"go %u after %" PRIu64 " ms", go, arbel_now_ms() - t0);
	arbel_fi_hold(dev, 0, 0);
}

static void fault_corrupt(void)
{
	unsigned int v[2];

	arbel_fi_corrupt(dev, OP_QUERY_FW, 2, 2, 0);
	cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa);
	v[0] = get16(outbox->va + 2);
	cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa);
	v[1] = get16(outbox->va + 2);
	ktap_test_check(v[0] == (5 ^ 0xffff) && v[1] == 5,
			"fault: corrupt outbox once (bytes 2..3 flipped)",
			"0x%04x then 0x%04x", v[0], v[1]);
	arbel_fi_clear(dev);
}

void suite_faults(void)
{
	ktap_print_msg("suite: faults");
	fault_fail();
	fault_hold();
	fault_corrupt();
}
