# SPDX-License-Identifier: GPL-2.0
"""tests/mthca/rdma_core_parity.py: nothing of rdma-core's that passes on
mthca0 may be skipped, failed or missing on arbel0; on hand-written stage
KTAP in the layout the traffic stages write (rdma_core_tests.py's
MODULE.Class.test names relayed as they are, other results beside)."""

import contextlib
import importlib.util
import io
import os
import sys
import tempfile
import unittest

TESTS = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
PATH = os.path.join(TESTS, 'mthca', 'rdma_core_parity.py')

here = unittest.skipUnless(os.path.isfile(PATH),
                           'tests/mthca is not beside this copy (in the VM)')

MTHCA = """KTAP version 1
ok 1 ibv_rc_pingpong loopback
ok 2 test_qp.QPTest.test_create_rc_qp_no_attr
ok 3 test_qp.QPTest.test_create_xrc_qp # SKIP Create XRC QP is not supported
ok 4 test_qp.QPTest.test_query_rc_qp
ok 5 test_mr.MRTest.test_reg_mr
not ok 6 test_mr.MRTest.test_flaky_on_mthca
ok 7 rdma-core test_qp ran to the end
1..7
"""


@here
class Parity(unittest.TestCase):
    def setUp(self):
        sys.path.insert(0, os.path.dirname(PATH))
        spec = importlib.util.spec_from_file_location('rdma_core_parity',
                                                      PATH)
        self.p = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.p)
        sys.path.remove(os.path.dirname(PATH))
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path

    def run_main(self, *paths):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = self.p.main(list(paths))
        return status, out.getvalue().splitlines()

    def result(self, lines, module):
        return [ln for ln in lines if not ln.startswith('#')
                and f'rdma-core {module} runs what mthca0 runs' in ln]

    def test_same_results_pass(self):
        ref = self.write('check-mthca-traffic.ktap', MTHCA)
        other = self.write('check-arbel-traffic.ktap', MTHCA)
        status, lines = self.run_main(ref, other)
        self.assertEqual(status, 0, lines)
        self.assertEqual(len(self.result(lines, 'test_qp')), 1)
        self.assertTrue(self.result(lines, 'test_qp')[0].startswith('ok '))
        self.assertIn('arbel-traffic: rdma-core test_qp', '\n'.join(lines))

    def test_a_pass_skipped_on_arbel_fails(self):
        ref = self.write('check-mthca-traffic.ktap', MTHCA)
        other = self.write('check-arbel-traffic.ktap', MTHCA.replace(
            'ok 4 test_qp.QPTest.test_query_rc_qp',
            'ok 4 test_qp.QPTest.test_query_rc_qp # SKIP Query QP is not '
            'supported'))
        status, lines = self.run_main(ref, other)
        self.assertEqual(status, 1)
        qp = self.result(lines, 'test_qp')
        self.assertTrue(qp[0].startswith('not ok '), lines)
        self.assertIn('# arbel-traffic: rdma-core test_qp runs what mthca0 '
                      'runs: 1 tests that pass on mthca0 do not here: '
                      'test_qp.QPTest.test_query_rc_qp: skip (Query QP is '
                      'not supported)', lines)
        # the other module is unaffected
        self.assertTrue(self.result(lines, 'test_mr')[0].startswith('ok '))

    def test_a_missing_or_failed_test_fails(self):
        ref = self.write('check-mthca-traffic.ktap', MTHCA)
        for text in (MTHCA.replace('ok 5 test_mr.MRTest.test_reg_mr\n', ''),
                     MTHCA.replace('ok 5 test_mr.MRTest.test_reg_mr',
                                   'not ok 5 test_mr.MRTest.test_reg_mr')):
            other = self.write('check-arbel-traffic.ktap', text)
            status, lines = self.run_main(ref, other)
            self.assertEqual(status, 1)
            self.assertTrue(self.result(lines, 'test_mr')[0]
                            .startswith('not ok '), lines)

    def test_skipped_or_failed_on_mthca_is_no_demand(self):
        """mthca0's skips and failures ask nothing of arbel0; a skip of
        mthca0's that passes on arbel0 is a diagnostic"""
        ref = self.write('check-mthca-traffic.ktap', MTHCA)
        other = self.write('check-arbel-traffic.ktap', MTHCA.replace(
            'ok 3 test_qp.QPTest.test_create_xrc_qp # SKIP Create XRC QP is '
            'not supported', 'ok 3 test_qp.QPTest.test_create_xrc_qp')
            .replace('not ok 6 test_mr.MRTest.test_flaky_on_mthca\n', ''))
        status, lines = self.run_main(ref, other)
        self.assertEqual(status, 0, lines)
        self.assertIn('# arbel-traffic: test_qp.QPTest.test_create_xrc_qp '
                      'passes, skipped on mthca0', lines)

    def test_no_results_is_a_skip(self):
        """a stage that did not run, or ran no such module, is no pass"""
        ref = self.write('check-mthca-traffic.ktap', MTHCA)
        status, lines = self.run_main(
            ref, os.path.join(self.dir.name, 'check-arbel-traffic-6.12.ktap'))
        self.assertEqual(status, 0)
        qp = self.result(lines, 'test_qp')
        self.assertIn('# SKIP no result of test_qp in', qp[0])
        self.assertTrue(all('# SKIP' in ln for ln in lines
                            if ln.startswith('ok ')), lines)


if __name__ == '__main__':
    unittest.main()
