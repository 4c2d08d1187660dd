# SPDX-License-Identifier: GPL-2.0
"""compare.py's arithmetic on hand-made runs: medians, spreads, ratios,
the overlap mark, and a driver without measurements shown as n/a."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  pylint: disable=wrong-import-position


def run_file(lines):
    f = tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False)
    f.write('\n'.join(lines) + '\n')
    f.close()
    return f.name


class Compare(unittest.TestCase):

    def test_stats_and_ratio(self):
        self.assertEqual(compare.stats([3.0, 1.0, 2.0]), (2.0, 1.0, 3.0))
        self.assertEqual(compare.ratio((10.0, 9.0, 11.0), (20.0, 19.0, 21.0)),
                         '0.50')
        self.assertEqual(compare.ratio((10.0, 9.0, 15.0), (12.0, 11.0, 13.0)),
                         '0.83~')
        self.assertEqual(compare.ratio(None, (1.0, 1.0, 1.0)), '-')

    def test_table(self):
        a = run_file(['noise', 'BENCH {"kind": "row", "pages": "4K", '
                      '"size": 4096, "us": [10, 11, 12], "cmds_reg": 1, '
                      '"mtt_entries": 1}'])
        r = run_file(['BENCH {"kind": "row", "pages": "4K", "size": 4096, '
                      '"us": [20, 20, 20]}'])
        m = run_file(['BENCH-NA ib_mthca did not bind'])
        try:
            drivers = []
            for name, path in (('arbel', a), ('mthca', m), ('rxe', r)):
                meas, reason = compare.parse(path)
                drivers.append((name, meas, reason))
            text = compare.build(drivers)
        finally:
            for p in (a, r, m):
                os.unlink(p)
        self.assertIn('mthca: n/a (ib_mthca did not bind)', text)
        row = [ln for ln in text.splitlines() if ln.strip().startswith('4K')]
        self.assertEqual(len(row), 1, text)
        cells = row[0].split()
        # arbel 11.0 ±9%, cmd 1; mthca n/a -; rxe 20.0 ±0% -; mtt 1;
        # arbel/mthca -, arbel/rxe 0.55
        self.assertEqual(cells[-1], '0.55', text)
        self.assertEqual(cells[-2], '-', text)
        self.assertIn('11.0', cells)
        self.assertIn('n/a', cells)


if __name__ == '__main__':
    unittest.main()
