# SPDX-License-Identifier: GPL-2.0
"""scripts/vm/lib.sh vm_stub_reports: which stub log lines fail a VM run
(scripts/vm/run.sh, exit status 123)."""

import os
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
LIB = os.path.join(TOP, 'scripts', 'vm', 'lib.sh')

# the stub's formats (qemu/arbel-life.c, arbel_life_report())
REPORT = ('arbel-stub: ownership: QUERY_FW\'s outbox [0x1000, +0x100) '
          'touches page 0x1000, the HCA\'s as ICM at va 0x0: freed while '
          'the HCA owned it?')
EXPECTED = REPORT.replace('ownership:', 'ownership (expected):')


def reports(text):
    """(status, stderr) of vm_stub_reports on a log holding @text."""
    with tempfile.NamedTemporaryFile('w', suffix='.txt') as f:
        f.write(text)
        f.flush()
        p = subprocess.run(['bash', '-c', f'set -eu; . "{LIB}"; '
                            f'vm_stub_reports "{f.name}"'],
                           capture_output=True, text=True, check=False)
    return p.returncode, p.stderr


class ReportsTest(unittest.TestCase):
    def test_a_report_fails_the_run(self):
        rc, err = reports(f'#12 arbel_cmd QUERY_FW\n{REPORT}\n')
        self.assertEqual(rc, 0)
        self.assertIn(REPORT, err)

    def test_expected_reports_do_not(self):
        rc, err = reports(f'{EXPECTED}\n{EXPECTED}\n')
        self.assertEqual(rc, 1)
        self.assertEqual(err, '')

    def test_no_log_no_report(self):
        p = subprocess.run(['bash', '-c', f'set -eu; . "{LIB}"; '
                            'vm_stub_reports /nonexistent/stub-trace.txt'],
                           capture_output=True, text=True, check=False)
        self.assertEqual(p.returncode, 1)

    def test_at_most_five_shown(self):
        rc, err = reports(f'{REPORT}\n' * 9)
        self.assertEqual(rc, 0)
        self.assertEqual(err.count('ownership:'), 5)
