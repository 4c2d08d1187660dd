# SPDX-License-Identifier: GPL-2.0
"""Allocation failures injected by the kernel's fault injection (failslab
and fail_page_alloc, Documentation/fault-injection/fault-injection.rst),
which the debug kernel of the VM tests has (tests/vm/debug-kernel.config)
and Debian's does not (the cases skip there).

Only this process's allocations fail (task-filter, /proc/self/make-it-fail),
only while a case is inside its window, quietly (verbose=0: a stack dump
would read as a kernel splat).

- failslab, 10 % of slab allocations failing: every registration either
  succeeds or is refused with ENOMEM, every deregistration completes
  (retried once the window is closed if it was refused), and afterwards
  nothing is left behind: the stub's hardware-owned MPTs and mapped ICM
  pages, the MRs in restrack and the process's pinned pages are back
  where they were.
- fail_page_alloc for every allocation of 8 KiB and more: a registration
  that needs a new ICM chunk still succeeds, the chunk being built from
  4 KiB blocks (debugfs icm_split_chunks grows), and nothing is left
  behind after deregistration.
"""

import errno
import glob
import os
import unittest

from pyverbs.pyverbs_error import PyverbsRDMAError

import base
from arbeltest import mem, restrack

DBG = '/sys/kernel/debug'
CYCLES = 300
MAX_REGIONS = 24
SIZES = ('4KiB', '64KiB', '1MiB', '16MiB@+4KiB')


def _write(path, value, tries=50):
    """Write value to path, retrying a write the injection itself failed."""
    for _ in range(tries):
        try:
            with open(path, 'w', encoding='ascii') as f:
                f.write(str(value))
            return
        except OSError as exc:
            if exc.errno != errno.ENOMEM:
                raise
    raise OSError(errno.ENOMEM, f'could not write {path}')


def split_chunks():
    """The driver's debugfs count of ICM chunks built from several blocks."""
    total = 0
    for path in glob.glob(f'{DBG}/arbel/*/icm_split_chunks'):
        with open(path, encoding='ascii') as f:
            total += int(f.read())
    return total


class Injection:
    """A fault-injection window for this task: kind is 'failslab' or
    'fail_page_alloc', attrs its debugfs attributes."""

    def __init__(self, kind, **attrs):
        self.dir = os.path.join(DBG, kind)
        self.attrs = {'probability': 100, 'interval': 1, 'times': -1,
                      'verbose': 0, 'space': 0, 'task-filter': 'Y',
                      'ignore-gfp-wait': 'N', **attrs}

    def __enter__(self):
        for name, value in self.attrs.items():
            _write(os.path.join(self.dir, name.replace('_', '-')), value)
        _write('/proc/self/make-it-fail', 1)
        return self

    def __exit__(self, *exc):
        _write('/proc/self/make-it-fail', 0)
        _write(os.path.join(self.dir, 'probability'), 0)
        return False


@unittest.skipUnless(os.path.isdir(f'{DBG}/failslab') and
                     os.path.isdir(f'{DBG}/fail_page_alloc'),
                     'no failslab/fail_page_alloc in this kernel (the debug '
                     'kernel of tests/vm/debug-kernel.config has them)')
class AllocFaults(base.VerbsTestCase):
    """Registration under allocation failures: a clean errno or success,
    nothing left behind."""

    def counts(self):
        return {'HW MPTs': self.fx.hw_mpts(),
                'ICM pages': self.fx.win.read('ICM_PAGES'),
                'restrack MRs': len(restrack.mrs(self.fx.devname)),
                'VmPin KiB': mem.vm_pinned_kib()}

    def left_behind(self, before):
        after = self.counts()
        return {k: after[k] - v for k, v in before.items() if after[k] != v}

    def test_failslab(self):
        """10 % of slab allocations fail: ENOMEM or success, never
        anything else; nothing left behind."""
        pd = self.fx.pd1
        regions = [self.fx.region(n) for n in SIZES]
        before = self.counts()
        ok, refused, bad, stuck = 0, 0, [], []
        with Injection('failslab', probability=10):
            for i in range(CYCLES):
                r = regions[i % len(regions)]
                try:
                    mr = self.reg_mr(pd, r.va, r.length, base.LW | base.RR)
                except PyverbsRDMAError as exc:
                    if base.errno_of(exc) == errno.ENOMEM:
                        refused += 1
                    else:
                        bad.append(f'{r.name}: {exc}')
                    continue
                ok += 1
                try:
                    self.close_mr(mr)
                except PyverbsRDMAError:
                    stuck.append(mr)
        # a dereg the injection refused is retried without it
        for mr in stuck:
            self.close_mr(mr)
        print(f'# failslab: {ok} registered, {refused} refused with ENOMEM, '
              f'{len(stuck)} deregistrations retried')
        problems = [f'not ENOMEM: {b}' for b in bad[:5]]
        if not refused:
            problems.append('no registration failed: the injection did not '
                            'reach the registration path')
        if not ok:
            problems.append('no registration succeeded')
        left = self.left_behind(before)
        if left:
            problems.append(f'left behind: {left}')
        self.assertFalse(problems, '; '.join(problems))

    def test_icm_chunk_fallback(self):
        """Allocations of 8 KiB and more fail: a registration that needs a
        new ICM chunk gets one of 4 KiB blocks; nothing left behind."""
        r = self.fx.region('64MiB')
        before = self.counts()
        split0 = split_chunks()
        icm0 = before['ICM pages']
        mrs, problems = [], []
        # min-order 1: order-0 pages (user memory, slab) are not touched
        with Injection('fail_page_alloc', **{'min-order': 1}):
            # 64 MiB of 4 KiB pages takes up to 16384 MTT entries, half an
            # MTT chunk (fewer where the pages happen to be contiguous):
            # register it again until a new chunk was needed
            for _ in range(MAX_REGIONS):
                try:
                    mrs.append(self.reg_mr(self.fx.pd1, r.va, r.length,
                                           base.LW))
                except PyverbsRDMAError as exc:
                    problems.append(f'registration refused: {exc}')
                    break
                if self.fx.win.read('ICM_PAGES') > icm0:
                    break
        grown = self.fx.win.read('ICM_PAGES') - icm0
        split = split_chunks() - split0
        print(f'# fail_page_alloc: {len(mrs)} regions of 64 MiB, {grown} '
              f'more ICM pages mapped, {split} new chunks of 4 KiB blocks')
        if grown <= 0:
            problems.append(f'no new ICM chunk was needed in {len(mrs)} '
                            'registrations: the case proves nothing')
        elif not split:
            problems.append('a new ICM chunk was not built from small blocks')
        for mr in mrs:
            self.close_mr(mr)
        left = self.left_behind(before)
        if left:
            problems.append(f'left behind: {left}')
        self.assertFalse(problems, '; '.join(problems))


if __name__ == '__main__':
    unittest.main()
