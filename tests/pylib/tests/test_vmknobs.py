# SPDX-License-Identifier: GPL-2.0
"""scripts/vmknobs.py: the VM harness's variables table against its
scripts."""

import os
import sys
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))

import vmknobs  # noqa: E402

SCRIPT = '''
CMD=${CMD:-true}
OUT=${VM_OUT:-$REPO/build/vm}
[ -n "${STUB:-}" ]
prep=$(mktemp "${TMPDIR:-/tmp}/x")
'''


def doc(*rows):
    lines = ['Title', '=====', '', 'Variables', '=========', '',
             '.. list-table::', '', '   * - variable', '     - default',
             '     - what']
    for name, default in rows:
        lines += [f'   * - ``{name}``', f'     - {default}', '     - text']
    lines += ['', 'Exit status', '===========', '', '   * - ``NOTME``',
              '     - x']
    return '\n'.join(lines) + '\n'


class KnobsTest(unittest.TestCase):
    def test_script_variables_and_defaults(self):
        self.assertEqual(vmknobs.knobs_in_script(SCRIPT),
                         {'CMD': 'true', 'VM_OUT': 'build/vm', 'STUB': ''})

    def test_a_matching_table_passes(self):
        d = doc(('CMD', '``true``'), ('VM_OUT', '``build/vm``'),
                ('STUB', 'none'))
        self.assertEqual(vmknobs.problems({'s': SCRIPT}, d), [])

    def test_a_missing_row_fails(self):
        d = doc(('CMD', '``true``'), ('STUB', 'none'))
        self.assertTrue(any('VM_OUT' in p
                            for p in vmknobs.problems({'s': SCRIPT}, d)))

    def test_a_wrong_default_fails(self):
        d = doc(('CMD', '``false``'), ('VM_OUT', '``build/vm``'),
                ('STUB', 'none'))
        self.assertTrue(any('CMD' in p
                            for p in vmknobs.problems({'s': SCRIPT}, d)))

    def test_a_stale_row_fails(self):
        d = doc(('CMD', '``true``'), ('VM_OUT', '``build/vm``'),
                ('STUB', 'none'), ('VM_GONE', 'none'))
        self.assertTrue(any('VM_GONE' in p
                            for p in vmknobs.problems({'s': SCRIPT}, d)))

    def test_rows_of_other_sections_do_not_count(self):
        self.assertNotIn('NOTME', vmknobs.knobs_in_doc(doc()))

    def test_the_harness_and_its_documentation_agree(self):
        self.assertEqual(vmknobs.check(TOP), [])


if __name__ == '__main__':
    unittest.main()
