# SPDX-License-Identifier: GPL-2.0
"""scripts/kunit-ktap.py --module: the KTAP document it makes from the
kernel log of a module whose suites ran at insmod (no top-level header,
timestamps, other messages around and between the suites).  The log
below is written by hand in the shape 6.1's KUnit prints."""

import os
import tempfile
import unittest

from . import scriptload


DMESG = '''\
[    0.000000] Linux version 6.1.0
[   12.500000] arbel 0000:00:02.0: firmware 5.3.0
[   13.000001]     # Subtest: suite_a
[   13.000002]     1..2
[   13.000003]         # Subtest: case_p
[   13.000004]         ok 1 - p1
[   13.000005]     ok 1 - case_p
[   13.000006] arbel 0000:00:02.0: injected failure
[   13.000007]     ok 2 - case_q
[   13.000008] ok 1 - suite_a
[   13.100000]     # Subtest: suite_b
[   13.100001]     1..1
[   13.100002]     not ok 1 - case_r
[   13.100003] not ok 2 - suite_b
[   14.000000] arbel 0000:00:02.0: removed
'''


@scriptload.needs('kunit-ktap.py')
class ModuleRawTest(unittest.TestCase):
    def make(self, text):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, 'dmesg.txt')
            with open(src, 'w', encoding='utf-8') as f:
                f.write(text)
            path = scriptload.load('kunit-ktap.py').module_raw(src, os.path.join(d, 'raw.log'))
            with open(path, encoding='utf-8') as f:
                return f.read().splitlines()

    def test_header_and_plan_before_the_first_suite(self):
        lines = self.make(DMESG)
        # two suites (the case_p subtest is deeper): plan 1..2
        self.assertEqual(lines[:3], ['KTAP version 1', '1..2',
                                     '    # Subtest: suite_a'])

    def test_timestamps_dropped_indentation_kept(self):
        lines = self.make(DMESG)
        self.assertIn('        ok 1 - p1', lines)
        self.assertIn('not ok 2 - suite_b', lines)
        self.assertFalse([ln for ln in lines if ln.startswith('[')])

    def test_boot_lines_left_out(self):
        lines = self.make(DMESG)
        self.assertNotIn('Linux version 6.1.0', lines)
        self.assertNotIn('arbel 0000:00:02.0: firmware 5.3.0', lines)

    def test_a_suite_level_version_line_is_kept(self):
        text = DMESG.replace('[   13.000001]     # Subtest: suite_a',
                             '[   13.000000]     KTAP version 1\n'
                             '[   13.000001]     # Subtest: suite_a')
        self.assertEqual(self.make(text)[:3],
                         ['KTAP version 1', '1..2', '    KTAP version 1'])

    def test_no_suite_no_document(self):
        self.assertEqual(self.make('[    1.0] nothing\n'), [])


if __name__ == '__main__':
    unittest.main()
