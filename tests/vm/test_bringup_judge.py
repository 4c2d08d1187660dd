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

UP = ('RESET QUERY_FW:00 ENABLE_LAM:22 MAP_FA:00 RUN_FW:00 QUERY_DEV_LIM:00 '
      'SET_ICM_SIZE:00 MAP_ICM_AUX:00 MAP_ICM:00 MAP_ICM:00 INIT_HCA:00 '
      'QUERY_ADAPTER:00 MAD_IFC:00 MAD_IFC:00').split()
DOWN = 'CLOSE_HCA:00 UNMAP_ICM:00 UNMAP_ICM:00 UNMAP_ICM_AUX:00 UNMAP_FA:00'.split()


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
