# SPDX-License-Identifier: GPL-2.0
"""bringup_judge.py against hand-made traces and guest output: each check
passes what it should and fails what it should, without a VM.

bringup_judge.py runs these first, as part of the stage's KTAP.
"""

import argparse
import io
import unittest

from arbeltest import trace
import bringup_cases as cases
import bringup_judge as judge

# one port's MAD queues (ib_mad's PD, CQ, QP0 and QP1), after the first
# port's the CQ context's ICM page already mapped
PORT2_UP = ('SW2HW_MPT:00 SW2HW_MPT:00 SW2HW_CQ:00 SW2HW_MPT:00 SW2HW_MPT:00 '
            'RST2INIT_QPEE:00 INIT2RTR_QPEE:00 RTR2RTS_QPEE:00 '
            'RST2INIT_QPEE:00 INIT2RTR_QPEE:00 RTR2RTS_QPEE:00').split()
UP = ('RESET QUERY_FW:00 ENABLE_LAM:22 MAP_FA:00 RUN_FW:00 QUERY_DEV_LIM:00 '
      'SET_ICM_SIZE:00 MAP_ICM_AUX:00 MAP_ICM:00 MAP_ICM:00 INIT_HCA:00 '
      'QUERY_ADAPTER:00 SW2HW_MPT:00 SW2HW_EQ:00 MAP_EQ:00 NOP:00 '
      'INIT_IB:00 INIT_IB:00 MAD_IFC:00 MAD_IFC:00 CONF_SPECIAL_QP:00 '
      'CONF_SPECIAL_QP:00 MAD_IFC:00 SW2HW_MPT:00 SW2HW_MPT:00 MAP_ICM:00 '
      'SW2HW_CQ:00 SW2HW_MPT:00 SW2HW_MPT:00 MAD_IFC:00 RST2INIT_QPEE:00 '
      'INIT2RTR_QPEE:00 RTR2RTS_QPEE:00 RST2INIT_QPEE:00 INIT2RTR_QPEE:00 '
      'RTR2RTS_QPEE:00').split() + PORT2_UP + ['MAD_IFC:00']
# the event queue's part of UP
EQ_UP = slice(UP.index('QUERY_ADAPTER:00') + 1, UP.index('INIT_IB:00'))
EQ_DOWN = 'MAP_EQ:00 HW2SW_EQ:00 HW2SW_MPT:00'.split()
PORT_MAD_DOWN = ('ERR2RST_QPEE:00 HW2SW_MPT:00 ERR2RST_QPEE:00 HW2SW_MPT:00 '
                 'HW2SW_CQ:00 HW2SW_MPT:00 HW2SW_MPT:00').split()
MAD_DOWN = PORT_MAD_DOWN * 2 + ['CONF_SPECIAL_QP:00', 'CONF_SPECIAL_QP:00',
                                'UNMAP_ICM:00']
IB_DOWN = MAD_DOWN + ['CLOSE_IB:00', 'CLOSE_IB:00']
HCA_DOWN = ('CLOSE_HCA:00 UNMAP_ICM:00 UNMAP_ICM:00 UNMAP_ICM_AUX:00 '
            'UNMAP_FA:00').split()
DOWN = IB_DOWN + EQ_DOWN + HCA_DOWN
POLL_DOWN = IB_DOWN + HCA_DOWN   # polling=1: the link, no EQ


class FakePhase:
    """A boot whose trace steps are given as tokens."""

    def __init__(self, steps, guest=None):
        self.name = 'basic'
        self.steps = steps
        self.guest = guest or []
        self.trace_file = 'stub-trace.txt'

    def step(self, mark):
        return self.steps.get(mark)


def new_judge():
    args = argparse.Namespace(verbose=False, ncycles=2, timeout='900')
    return judge.Judge(args, io.StringIO())


def case(op):
    return next(c for c in cases.FAULT_CASES if c.op == op)


class Tokens(unittest.TestCase):
    def test_notes_left_out(self):
        lines = ['#1 RESET',
                 '#2 EQE eq=1 type=0x0a irq=msix:0',
                 '#3 unconfirmed: arm of EQ 5 not in hardware',
                 '#4 NOP op=0x031 op_mod=0 in_mod=0x0000001f in_param=0x0 '
                 'out_param=0x0 token=0x0010 status=0x00(OK) e=1']
        entries = [trace.parse_line(x) for x in lines]
        self.assertEqual(judge.tokens(entries), ['RESET', 'NOP:00'])

    def test_trace_lines(self):
        lines = ['#1 RESET',
                 '#2 ENABLE_LAM op=0xff8 op_mod=0 in_mod=0x00000000 '
                 'in_param=0x0 out_param=0x0 token=0x0000 status=0x22(LAM_NOT_PRE)',
                 '#3 MAP_ICM op=0xffa op_mod=0 in_mod=0x00000001 in_param=0x0 '
                 'out_param=0x0 token=0x0000 status=0x0a(BAD_INDEX) '
                 'fault=injected-failure']
        entries = [trace.parse_line(x) for x in lines]
        self.assertEqual(judge.tokens(entries),
                         ['RESET', 'ENABLE_LAM:22', 'MAP_ICM:0a!'])


class Sequence(unittest.TestCase):
    def verdict(self, tokens, pattern):
        j = new_judge()
        j.sequence(FakePhase({1: tokens}), 'x', 1, pattern)
        return j.t.passed, j.t.failed

    def test_bringup_and_teardown(self):
        self.assertEqual(self.verdict(UP + DOWN, judge.BRINGUP + judge.TEARDOWN),
                         (1, 0))

    def test_wrong_status(self):
        bad = [x.replace('ENABLE_LAM:22', 'ENABLE_LAM:00') for x in UP]
        self.assertEqual(self.verdict(bad, judge.BRINGUP), (0, 1))

    def test_missing_command(self):
        self.assertEqual(self.verdict(DOWN[:-1], judge.TEARDOWN), (0, 1))

    def test_event_queue(self):
        # the EQ's commands are required, in mthca's order
        no_eq = UP[:EQ_UP.start] + UP[EQ_UP.stop:]
        self.assertEqual(self.verdict(no_eq, judge.BRINGUP), (0, 1))
        swapped = [{'MAP_EQ:00': 'SW2HW_EQ:00', 'SW2HW_EQ:00': 'MAP_EQ:00'}
                   .get(x, x) for x in UP]
        self.assertEqual(self.verdict(swapped, judge.BRINGUP), (0, 1))
        # the ring's region goes after the EQ, not before
        self.assertEqual(self.verdict(HCA_DOWN, judge.TEARDOWN), (0, 1))
        bad = ['HW2SW_MPT:00', 'MAP_EQ:00', 'HW2SW_EQ:00'] + HCA_DOWN
        self.assertEqual(self.verdict(bad, judge.TEARDOWN), (0, 1))
        # polling=1: none of them
        self.assertEqual(self.verdict(no_eq + POLL_DOWN, judge.BRINGUP_POLLING +
                                      judge.TEARDOWN_POLLING), (1, 0))
        self.assertEqual(self.verdict(UP + DOWN, judge.BRINGUP_POLLING +
                                      judge.TEARDOWN_POLLING), (0, 1))

    def test_interrupt_test_fallbacks(self):
        i = UP.index('NOP:00')
        msix = UP[:i] + ['NOP:01!'] + ['MAP_EQ:00', 'HW2SW_EQ:00', 'SW2HW_EQ:00',
                                       'MAP_EQ:00', 'NOP:00'] + UP[i + 1:]
        self.assertEqual(self.verdict(msix + DOWN, judge.BRINGUP_MSIX_NOP +
                                      judge.TEARDOWN), (1, 0))
        intx = UP[:i] + ['NOP:01!'] + EQ_DOWN + UP[i + 1:]
        self.assertEqual(self.verdict(intx + POLL_DOWN, judge.BRINGUP_INTX_NOP +
                                      judge.TEARDOWN_POLLING), (1, 0))
        # polling after a failed test: no EQ teardown on remove
        self.assertEqual(self.verdict(intx + DOWN, judge.BRINGUP_INTX_NOP +
                                      judge.TEARDOWN_POLLING), (0, 1))

    def test_mad_layer(self):
        # the MAD layer's queues are required, each QP through to RTS
        i = UP.index('INIT_IB:00') + 1
        only_ib = UP[:i] + ['MAD_IFC:00']
        self.assertEqual(self.verdict(only_ib, judge.BRINGUP), (0, 1))
        no_qp1 = UP[:-4] + ['MAD_IFC:00']
        self.assertEqual(self.verdict(no_qp1, judge.BRINGUP), (0, 1))
        # the cache's MAD_IFC queries may come anywhere in it
        mixed = UP[:i] + [y for x in UP[i:] for y in (x, 'MAD_IFC:00')]
        self.assertEqual(self.verdict(mixed, judge.BRINGUP), (1, 0))
        # a QP left to the firmware at remove, the link closed first
        self.assertEqual(self.verdict(MAD_DOWN[2:] + DOWN[len(MAD_DOWN):],
                                      judge.TEARDOWN), (0, 1))
        late = ['CLOSE_IB:00'] + MAD_DOWN + DOWN[len(IB_DOWN):]
        self.assertEqual(self.verdict(late, judge.TEARDOWN), (0, 1))

    def test_both_ports(self):
        # port 2's link and its MAD queues are required, and taken down
        one_link = UP[:UP.index('INIT_IB:00')] + UP[UP.index('INIT_IB:00') + 1:]
        self.assertEqual(self.verdict(one_link, judge.BRINGUP), (0, 1))
        port1_only = UP[:-len(PORT2_UP) - 1] + ['MAD_IFC:00']
        self.assertEqual(self.verdict(port1_only, judge.BRINGUP), (0, 1))
        one_close = MAD_DOWN + ['CLOSE_IB:00'] + DOWN[len(IB_DOWN):]
        self.assertEqual(self.verdict(one_close, judge.TEARDOWN), (0, 1))
        port1_down = PORT_MAD_DOWN + DOWN[len(PORT_MAD_DOWN) * 2:]
        self.assertEqual(self.verdict(port1_down, judge.TEARDOWN), (0, 1))

    def test_no_mark(self):
        j = new_judge()
        j.sequence(FakePhase({}), 'x', 1, judge.BRINGUP)
        self.assertEqual(j.t.failed, 1)


class Undo(unittest.TestCase):
    def verdict(self, op, tokens):
        j = new_judge()
        j.undo(FakePhase({100: tokens}), 'x', 100, case(op))
        return j.t.passed, j.t.failed

    @staticmethod
    def up_to(op, status):
        i = next(i for i, x in enumerate(UP) if x.startswith(op + ':'))
        return UP[:i] + [f'{op}:{status:02x}!']

    def test_undo_of_what_succeeded(self):
        head = self.up_to('QUERY_DEV_LIM', 0x03)
        self.assertEqual(self.verdict('QUERY_DEV_LIM', head + ['UNMAP_FA:00']), (1, 0))
        self.assertEqual(self.verdict('QUERY_DEV_LIM', head + ['RESET', 'UNMAP_FA:00', 'RESET']),
                         (1, 0))
        self.assertEqual(self.verdict('QUERY_DEV_LIM', head), (0, 1))
        self.assertEqual(self.verdict('QUERY_DEV_LIM', head + ['UNMAP_FA:00', 'RUN_FW:00']),
                         (0, 1))

    def test_reverse_order(self):
        head = self.up_to('INIT_HCA', 0x03)
        good = ['UNMAP_ICM:00', 'UNMAP_ICM:00', 'UNMAP_ICM_AUX:00', 'UNMAP_FA:00']
        self.assertEqual(self.verdict('INIT_HCA', head + good), (1, 0))
        swapped = ['UNMAP_ICM_AUX:00', 'UNMAP_ICM:00', 'UNMAP_ICM:00', 'UNMAP_FA:00']
        self.assertEqual(self.verdict('INIT_HCA', head + swapped), (0, 1))
        # CLOSE_HCA undoes INIT_HCA, which did not succeed
        self.assertEqual(self.verdict('INIT_HCA', head + ['CLOSE_HCA:00'] + good), (0, 1))
        # an undo command that fails
        failing = good[:2] + ['UNMAP_ICM_AUX:01'] + good[3:]
        self.assertEqual(self.verdict('INIT_HCA', head + failing), (0, 1))

    def test_failed_step(self):
        head = self.up_to('MAP_ICM_AUX', 0x05)
        self.assertEqual(self.verdict('MAP_ICM_AUX', head + ['UNMAP_FA:00']), (1, 0))
        self.assertEqual(self.verdict('MAP_ICM_AUX', head + ['UNMAP_ICM_AUX:00', 'UNMAP_FA:00']),
                         (1, 0))
        head = self.up_to('MAP_ICM', 0x0a)
        self.assertEqual(self.verdict('MAP_ICM', head + ['UNMAP_ICM_AUX:00', 'UNMAP_FA:00']),
                         (1, 0))
        self.assertEqual(self.verdict('MAP_ICM', head + ['UNMAP_ICM:00', 'UNMAP_ICM_AUX:00',
                                                         'UNMAP_FA:00']), (0, 1))

    def test_port_links_undo(self):
        # port 2's INIT_IB fails: port 1's link closed, once, before the EQ
        i = UP.index('INIT_IB:00') + 1
        head = UP[:i] + ['INIT_IB:03!']
        good = ['CLOSE_IB:00'] + EQ_DOWN + HCA_DOWN
        self.assertEqual(self.verdict('INIT_IB', head + good), (1, 0))
        self.assertEqual(self.verdict('INIT_IB', head + good[1:]), (0, 1))
        self.assertEqual(self.verdict('INIT_IB', head + ['CLOSE_IB:00'] + good),
                         (0, 1))
        # port 1's fails: no link to close
        head = UP[:i - 1] + ['INIT_IB:03!']
        self.assertEqual(self.verdict('INIT_IB', head + good[1:]), (1, 0))
        self.assertEqual(self.verdict('INIT_IB', head + good), (0, 1))

    def test_event_queue_undo(self):
        head = self.up_to('SW2HW_EQ', 0x01)
        self.assertEqual(self.verdict('SW2HW_EQ', head + ['HW2SW_MPT:00'] + HCA_DOWN),
                         (1, 0))
        # HW2SW_EQ for the EQ the firmware refused
        self.assertEqual(self.verdict('SW2HW_EQ', head + ['HW2SW_EQ:00', 'HW2SW_MPT:00'] +
                                      HCA_DOWN), (0, 1))
        # the ring's region left behind
        self.assertEqual(self.verdict('SW2HW_EQ', head + HCA_DOWN), (0, 1))
        head = self.up_to('MAP_EQ', 0x03)
        self.assertEqual(self.verdict('MAP_EQ', head + ['HW2SW_EQ:00', 'HW2SW_MPT:00'] +
                                      HCA_DOWN), (1, 0))
        self.assertEqual(self.verdict('MAP_EQ', head + EQ_DOWN + HCA_DOWN), (0, 1))

    def test_injection(self):
        head = self.up_to('QUERY_DEV_LIM', 0x03)
        self.assertEqual(self.verdict('QUERY_DEV_LIM', UP), (0, 1))
        # the wrong status, the wrong command
        self.assertEqual(self.verdict('QUERY_DEV_LIM', head[:-1] + ['QUERY_DEV_LIM:01!',
                                                                   'UNMAP_FA:00']), (0, 1))
        self.assertEqual(self.verdict('MAP_FA', head + ['UNMAP_FA:00']), (0, 1))
        # a command failed before the injected one
        early = [x.replace('RUN_FW:00', 'RUN_FW:01') for x in head]
        self.assertEqual(self.verdict('QUERY_DEV_LIM', early + ['UNMAP_FA:00']), (0, 1))


class Relay(unittest.TestCase):
    GUEST = ['KTAP version 1', '# device 0000:00:01.0', 'ok 1 a',
             '# b: why', 'not ok 2 b', 'ok 3 c # SKIP no reason', '1..3',
             '# passed 1, failed 1, skipped 1', '# end basic']

    def boot(self, guest, rc=0):
        j = new_judge()
        ph = FakePhase({}, guest)
        ph.rc, ph.err, ph.dir, ph.out_file = rc, '', '/nonexistent', 'basic.out'
        j.boot(ph)
        return j.t

    def test_renumbered(self):
        t = self.boot(self.GUEST)
        out = t.out.getvalue()
        self.assertIn('# b: why\nnot ok 2 b\n', out)
        self.assertIn('ok 3 c # SKIP no reason', out)
        self.assertIn('ok 4 basic boot: guest program ran to the end', out)
        # no dmesg.txt in /nonexistent: the splat check fails
        self.assertEqual((t.passed, t.failed, t.skipped), (2, 2, 1))

    def test_cut_short(self):
        t = self.boot(self.GUEST[:5], rc=124)
        self.assertIn('not ok 3 basic boot: VM finished', t.out.getvalue())
        self.assertIn('not ok 4 basic boot: guest program ran to the end',
                      t.out.getvalue())


def suite():
    return unittest.defaultTestLoader.loadTestsFromName(__name__)
