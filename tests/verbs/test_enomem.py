# SPDX-License-Identifier: GPL-2.0
"""Exhaustion: register until the driver refuses with ENOMEM (the MTT
first: 64 MiB of 4 KiB pages no two of which are physically adjacent is
16384 entries each, whatever the page allocator's state -- the driver
would merge adjacent ones into larger MTT pages; then the MPT table),
then free everything and find the stub's count back where it was."""

import errno
import time
import unittest

import base
from arbeltest import mem

MiB = 1 << 20


class Exhaustion(base.VerbsTestCase):

    def setUp(self):
        super().setUp()
        if not base.CONFIG['enomem']:
            self.skipTest('--no-enomem')

    def exhaust(self, what, region, limit, secs):
        fx = self.fx
        hw0 = fx.hw_mpts()
        t0 = time.monotonic()
        mrs, err = [], None
        while len(mrs) < limit and time.monotonic() - t0 < secs:
            try:
                mrs.append(self.reg_mr(fx.pd1, region.va, region.length, base.LW))
            except base.PyverbsRDMAError as exc:
                err = base.errno_of(exc)
                break
        n, peak, dt = len(mrs), fx.hw_mpts(), time.monotonic() - t0
        print(f'# {what}: {n} registrations of {region.name} in {dt:.1f} s '
              f'({n / (dt + 1e-9):.0f}/s), then '
              f'{base.errstr(err) if err else "stopped"}; {peak} HW-owned MPTs')
        with self.subTest(f'{what}: registering {region.name} until the '
                          'driver refuses gives ENOMEM'):
            if err is None:
                self.skipTest(f'no refusal after {n} registrations in {dt:.0f} s')
            self.assertEqual(err, errno.ENOMEM, base.errstr(err))
            self.assertEqual(peak, hw0 + n, f'HW-owned MPTs {peak} (base {hw0})'
                             f' after {n} MRs')
        bad = 0
        for mr in mrs:
            try:
                self.close_mr(mr)
            except base.PyverbsRDMAError:
                bad += 1
        with self.subTest(f'{what}: after freeing all {n}, the stub\'s '
                          f'HW-owned MPT count is back to {hw0}'):
            self.assertEqual(bad, 0, f'{bad} dereg failures')
            self.assertEqual(fx.hw_mpts(), hw0, 'HW-owned MPTs')

    def test_1_mtt(self):
        """MTT exhaustion with 64 MiB registrations of scattered pages."""
        buf, adjacent = mem.scattered(64 * MiB)
        self.addCleanup(buf.close)
        print(f'# 64 MiB of scattered 4 KiB pages, {adjacent} physically '
              'adjacent to the one before')
        region = base.Region('64MiB-scattered', buf, 0, 64 * MiB)
        self.exhaust('MTT exhaustion', region, 4096,
                     base.CONFIG['enomem_secs'] / 3)

    def test_2_mpt(self):
        """MPT exhaustion with 4 KiB registrations."""
        self.exhaust('MPT exhaustion', self.fx.region('4KiB'),
                     self.fx.num_mpts + 16, base.CONFIG['enomem_secs'])


if __name__ == '__main__':
    unittest.main()
