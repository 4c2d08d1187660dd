# SPDX-License-Identifier: GPL-2.0
"""scripts/report.py, make check's reporter: its counting rules.

Stage files are written by hand as scripts/check.sh leaves them
(build/check-NAME.ktap and build/check-NAME.rc); the expected lines are
written out by hand.
"""

import io
import os
import shutil
import tempfile
import unittest

from . import scriptload


@scriptload.needs('report.py')
class ReportTest(unittest.TestCase):

    def setUp(self):
        self.report = scriptload.load('report.py')
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def stage(self, name, ktap=None, rc=None):
        base = os.path.join(self.dir, f'check-{name}')
        if ktap is not None:
            with open(base + '.ktap', 'w') as f:
                f.write(ktap)
        if rc is not None:
            with open(base + '.rc', 'w') as f:
                f.write(f'{rc}\n')

    def run_report(self, *names):
        out = io.StringIO()
        results = [self.report.read_stage(self.dir, n) for n in names]
        status = self.report.report(results, out)
        return status, out.getvalue().splitlines()

    def test_all_passed(self):
        self.stage('a', 'KTAP version 1\nok 1 x\nok 2 y\n1..2\n', 0)
        self.stage('b', 'KTAP version 1\nok 1 z\n1..1\n', 0)
        self.assertEqual(self.run_report('a', 'b'), (0, [
            'a: 2 passed, 0 failed',
            'b: 1 passed, 0 failed',
            'check: 3 passed, 0 failed',
        ]))

    def test_skips_shown_never_passed(self):
        self.stage('a', 'ok 1 x\nok 2 y # SKIP no hugepages\n', 0)
        self.stage('b', 'ok 1 z\n', 0)
        self.assertEqual(self.run_report('a', 'b'), (0, [
            'a: 1 passed, 0 failed, 1 skipped',
            'b: 1 passed, 0 failed',
            'check: 2 passed, 0 failed, 1 skipped',
        ]))

    def test_failures_named(self):
        self.stage('a', 'ok 1 x\n# y: detail\nnot ok 2 y\n', 1)
        self.assertEqual(self.run_report('a'), (1, [
            'a: not ok: y',
            'a: 1 passed, 1 failed',
            'check: 1 passed, 1 failed',
        ]))

    def test_exit_status_without_failed_case(self):
        self.stage('a', 'ok 1 x\n', 3)
        self.assertEqual(self.run_report('a'), (1, [
            'a: not ok: exit status 3',
            'a: 1 passed, 1 failed',
            'check: 1 passed, 1 failed',
        ]))

    def test_exit_status_with_failed_case_counts_once(self):
        self.stage('a', 'not ok 1 x\n', 1)
        self.assertEqual(self.run_report('a')[1][-1],
                         'check: 0 passed, 1 failed')

    def test_no_result(self):
        self.stage('a', 'some output\nbut no result line\n', 0)
        self.stage('b', rc=1)
        self.assertEqual(self.run_report('a', 'b', 'never-ran'), (1, [
            'a: not ok: no result',
            'a: 0 passed, 1 failed',
            'b: not ok: no result',
            'b: 0 passed, 1 failed',
            'never-ran: not ok: no result',
            'never-ran: 0 passed, 1 failed',
            'check: 0 passed, 3 failed',
        ]))

    def test_no_exit_status(self):
        self.stage('a', 'ok 1 x\n')
        self.assertEqual(self.run_report('a')[1][0],
                         'a: not ok: no exit status')

    def test_nested_leaves(self):
        self.stage('kunit', 'KTAP version 1\n'
                   '    KTAP version 1\n'
                   '    # Subtest: suite\n'
                   '    ok 1 c1\n'
                   '    ok 2 c2 # SKIP x\n'
                   'ok 1 KUnit cases\n'
                   'ok 2 kernel log\n'
                   '1..2\n', 0)
        self.assertEqual(self.run_report('kunit')[1],
                         ['kunit: 2 passed, 0 failed, 1 skipped',
                          'check: 2 passed, 0 failed, 1 skipped'])

    def test_stages_in_oldest_first(self):
        for i, name in enumerate(['late', 'early']):
            self.stage(name, 'ok 1 x\n', 0)
            path = os.path.join(self.dir, f'check-{name}.ktap')
            os.utime(path, (1000 - i, 1000 - i))
        self.assertEqual(self.report.stages_in(self.dir), ['early', 'late'])


if __name__ == '__main__':
    unittest.main()
