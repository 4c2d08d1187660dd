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
  pages, every object in restrack and the process's pinned pages are back
  where they were.  Every cache fails but the xarray's node cache
  (radix_tree_node): the VM boots with slub_debug=A;-,radix_tree_node
  and the window sets cache-filter.  A failed node allocation in the
  core's own xa_alloc_cyclic() (restrack numbering a region) leaves an
  empty node in the tracker once region ids pass 4,096, and the core's
  rdma_restrack_clean() warns about it when the device goes
  (Documentation/vm-harness.rst, "The restrack warning").  The case runs
  with region ids past 4,096 on purpose and checks that they did not
  wrap, which is what that failure does.
- fail_page_alloc for every allocation of 64 KiB and more (order 4: the
  kernel's own stacks, order 3 with KASAN, and slabs stay possible): a
  registration that needs a new ICM chunk (256 KiB) still succeeds, the
  chunk being built from smaller blocks (debugfs icm_split_chunks grows),
  and nothing is left behind after deregistration but that MTT chunk,
  which stays mapped until the device goes, as every MTT chunk does.
"""

import errno
import glob
import os
import unittest

from pyverbs.pyverbs_error import PyverbsRDMAError

import base
from arbeltest import mem, restrack

DBG = '/sys/kernel/debug'
SLABS = '/sys/kernel/slab'
CYCLES = 300
# the xarray's node cache, which failslab must spare (see above)
SPARED_CACHE = 'radix_tree_node'
# from this id on, restrack's xarray is three levels deep: one store can
# need two new nodes, and a failure after the first leaves it empty
DEEP_MR_ID = 4096
# up to 64 x 4,096 MTT entries, a quarter of the stub's table.  MTT chunks
# stay mapped once used: after a suite that filled the table (test_fw_faults
# does) no new one can be needed, so the debug stage runs this suite first
MAX_REGIONS = 64
KiB = 1024
SCATTERED = 16 * 1024 * KiB
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


def failslab_marks():
    """{cache name: True if failslab may fail it under cache-filter} for
    every slab cache (the mark is slub_debug's A option)."""
    marks = {}
    for name in os.listdir(SLABS):
        path = os.path.join(SLABS, name)
        if os.path.islink(path):
            continue
        with open(os.path.join(path, 'failslab'), encoding='ascii') as f:
            marks[name] = f.read().strip() == '1'
    return marks


def spared_cache_problems():
    """What is wrong with the caches' failslab marks: the xarray's node
    cache must be spared, every kmalloc cache marked."""
    marks = failslab_marks()
    boot = 'boot with slub_debug=A;-,radix_tree_node (debug-check.sh does)'
    problems = []
    if marks.get(SPARED_CACHE, True):
        problems.append(f'{SPARED_CACHE} is not spared: {boot}')
    unmarked = sorted(n for n, m in marks.items()
                      if n.startswith('kmalloc-') and not m)
    if unmarked or not any(n.startswith('kmalloc-') for n in marks):
        problems.append(f'kmalloc caches not marked ({unmarked[:3]}): {boot}')
    return problems


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
            _write(os.path.join(self.dir, name), value)
        _write('/proc/self/make-it-fail', 1)
        return self

    def __exit__(self, *exc):
        # the injection off first: the task's own writes may need memory
        _write(os.path.join(self.dir, 'probability'), 0)
        _write('/proc/self/make-it-fail', 0)
        return False


@unittest.skipUnless(os.path.isdir(f'{DBG}/failslab') and
                     os.path.isdir(f'{DBG}/fail_page_alloc'),
                     'no failslab/fail_page_alloc in this kernel (the debug '
                     'kernel of tests/vm/debug-kernel.config has them)')
class AllocFaults(base.VerbsTestCase):
    """Registration under allocation failures: a clean errno or success,
    nothing left behind."""

    def counts(self):
        tracked = restrack.summary(self.fx.devname)
        return {'HW MPTs': self.fx.hw_mpts(),
                'ICM pages': self.fx.win.read('ICM_PAGES'),
                'restrack MRs': len(restrack.mrs(self.fx.devname)),
                **{f'restrack {k}': v for k, v in tracked.items()},
                'VmPin KiB': mem.vm_pinned_kib()}

    def left_behind(self, before):
        after = self.counts()
        return {k: after.get(k, 0) - v for k, v in before.items()
                if after.get(k, 0) != v}

    def next_mr_id(self):
        """The restrack id (mrn) the core gives a region registered now."""
        r = self.fx.region(SIZES[0])
        mr = self.reg_mr(self.fx.pd1, r.va, r.length, base.LW)
        lkey = mr.lkey
        try:
            ids = [restrack.number(e.get('mrn'))
                   for e in restrack.mrs(self.fx.devname)
                   if restrack.number(e.get('lkey'), True) == lkey]
        finally:
            self.close_mr(mr)
        self.assertEqual(len(ids), 1, f'region {lkey:#x} in restrack')
        return ids[0]

    def push_mr_ids(self, floor):
        """Register and deregister until restrack's region ids reach
        floor; the id of the last region."""
        r = self.fx.region(SIZES[0])
        for _ in range(floor - self.next_mr_id()):
            self.close_mr(self.reg_mr(self.fx.pd1, r.va, r.length, base.LW))
        return self.next_mr_id()

    def test_failslab(self):
        """10 % of slab allocations but the xarray's nodes fail: ENOMEM or
        success, never anything else; nothing left behind; restrack's
        region ids, past 4,096, do not wrap."""
        problems = spared_cache_problems()
        self.assertFalse(problems, '; '.join(problems))
        pd = self.fx.pd1
        regions = [self.fx.region(n) for n in SIZES]
        first_id = self.push_mr_ids(DEEP_MR_ID)
        before = self.counts()
        ok, refused, bad, stuck = 0, 0, [], []
        with Injection('failslab', probability=10, **{'cache-filter': 'Y'}):
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
        last_id = self.next_mr_id()
        print(f'# failslab: {ok} registered, {refused} refused with ENOMEM, '
              f'{len(stuck)} deregistrations retried; restrack region ids '
              f'{first_id} to {last_id}')
        problems = [f'not ENOMEM: {b}' for b in bad[:5]]
        if last_id <= first_id:
            problems.append(f'restrack region ids wrapped ({first_id} before '
                            f'the window, {last_id} after): an xarray node '
                            'allocation failed under the injection')
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
        """Allocations of 64 KiB and more fail: a registration that needs a
        new ICM chunk gets one of smaller blocks; nothing left behind."""
        buf, adjacent = mem.scattered(SCATTERED)
        print(f'# scattered buffer: {SCATTERED // mem.PAGE_SIZE} pages, {adjacent} '
              'physically adjacent to the one before')
        before = self.counts()
        split0 = split_chunks()
        icm0 = before['ICM pages']
        mrs, problems = [], []
        # min-order 4: user memory, slabs (order 3 at most) and kernel
        # stacks (order 3 with KASAN) are not touched; the 256 KiB chunk is
        with Injection('fail_page_alloc', **{'min-order': 4}):
            # 4 KiB pages that are never physically adjacent: 4,096 MTT
            # entries (32 KiB of MTT) per 16 MiB registration, so a new
            # 256 KiB MTT chunk is needed within a few registrations
            for _ in range(MAX_REGIONS):
                try:
                    mrs.append(self.reg_mr(self.fx.pd1, buf.addr, buf.length,
                                           base.LW))
                except PyverbsRDMAError as exc:
                    problems.append(f'registration refused: {exc}')
                    break
                if self.fx.win.read('ICM_PAGES') > icm0:
                    break
        grown = self.fx.win.read('ICM_PAGES') - icm0
        split = split_chunks() - split0
        print(f'# fail_page_alloc: {len(mrs)} regions of 16 MiB on scattered '
              f'4 KiB pages, {grown} more ICM pages mapped, {split} new '
              'chunks of smaller blocks')
        if grown <= 0:
            problems.append(f'no new ICM chunk was needed in {len(mrs)} '
                            'registrations: the case proves nothing')
        elif not split:
            problems.append('a new ICM chunk was not built from small blocks')
        for mr in mrs:
            self.close_mr(mr)
        buf.close()
        left = self.left_behind(before)
        # MTT chunks stay mapped until the device goes (mtt.c,
        # arbel_mtt_icm_hold()): the new one may stay, nothing more
        kept = left.pop('ICM pages', 0)
        if not 0 <= kept <= max(grown, 0):
            problems.append(f'ICM pages: {kept} more mapped after '
                            f'deregistration, {grown} were added')
        if left:
            problems.append(f'left behind: {left}')
        self.assertFalse(problems, '; '.join(problems))


if __name__ == '__main__':
    unittest.main()
