# SPDX-License-Identifier: GPL-2.0
"""Zero-based regions (IBV_ACCESS_ZERO_BASED through ibv_reg_mr_iova2;
issue #11, finding 4).

The Arbel MPT has no first-byte offset: with zb set, address 0 is byte 0 of
the first MTT page.  So a zero-based region is exact only at a page size
at which the buffer starts on a page boundary; the driver chooses such a
size, or refuses with EINVAL when none exists (a buffer not 4 KiB
aligned).  Checked through the stub's translation engine: address 0 of the
region must read the buffer's first byte, the whole region must read
back, and its length must be the end.  The region's bytes are made unique
(random) first: the buffers' 256-byte pattern would hide a shift by a
multiple of 256 bytes.
"""

import errno
import os
import unittest

import base
import expect
from arbeltest import mem

KiB, MiB = base.KiB, base.MiB
ZERO_BASED = 1 << 5     # IBV_ACCESS_ZERO_BASED (rdma-core verbs.h)
ACCESS = base.LW | base.RR | ZERO_BASED

# name, buffer of region, offset, length, iova ('va' or 0), want errno
CASES = (
    ('4KiB, iova = va', '4KiB', 4 * KiB, 4 * KiB, 'va', 0),
    ('64KiB, iova 0', '64KiB', 0, 64 * KiB, 0, 0),
    ('16MiB@+4KiB, iova = va', '64MiB', 4 * KiB, 16 * MiB, 'va', 0),
    # 4 KiB into a 2 MiB huge page: 2 MiB pages would start the region
    # 4 KiB in front of the buffer
    ('huge 64KiB@2MiB+4KiB, iova = va', 'huge-4MiB', 2 * MiB + 4 * KiB,
     64 * KiB, 'va', 0),
    ('huge 2MiB@2MiB, iova = va', 'huge-4MiB', 2 * MiB, 2 * MiB, 'va', 0),
    ('1B@+7, iova = va', '4KiB', 12 * KiB + 7, 1, 'va', errno.EINVAL),
    ('100B@page-cross, iova = va', '4KiB', 8 * KiB - 50, 100, 'va',
     errno.EINVAL),
    ('huge 3MiB@+0x1234, iova = va', 'huge-4MiB', 0x1234, 3 * MiB, 'va',
     errno.EINVAL),
    ('1MiB-3@+3, iova 0', '64KiB', 3, MiB - 3, 0, errno.EINVAL),
)


class ZeroBased(base.VerbsTestCase):
    """Generated below: one test per case."""

    def zb_case(self, of, off, length, iova, want):
        fx = self.fx
        ref = fx.region(of)
        if ref is None:
            self.skipTest('region not available (no hugetlb?)')
        r = base.Region('case', ref.buf, off, length)
        saved = bytes(r.view())
        r.view()[:] = os.urandom(length)
        hw0 = fx.hw_mpts()
        try:
            try:
                mr = base.IovaMR(fx.ctx, fx.pd1, r.va, length,
                                 r.va if iova == 'va' else iova, ACCESS)
            except base.PyverbsRDMAError as exc:
                err = base.errno_of(exc)
                self.assertEqual(err, want, f'{base.errstr(err)}, want '
                                 f'{errno.errorcode.get(want, "success")}')
                self.assertEqual(fx.hw_mpts(), hw0, 'HW-owned MPT left')
                return
            try:
                problems = [] if not want else [
                    f'registered, want {errno.errorcode[want]}']
                problems += self._problems(r, mr)
            finally:
                mr.close()
        finally:
            r.view()[:] = saved
        self.assertNoProblems(problems)

    def _problems(self, r, mr):
        fx, out = self.fx, []
        f = fx.mpts().get(expect.mem_key_of(mr.lkey))
        if f is None:
            out.append(f'no MPT for key {mr.lkey:#x}')
        elif not f.get('zb'):
            out.append('MPT zb bit clear')
        acc = base.ACC['REMOTE_READ']
        res, got = fx.xl.read_region(mr.lkey, acc, 0, min(r.length, 64))
        if res != base.XL['OK']:
            out.append(f'read at 0: {base.dbgwin.result_name(res)}')
        elif got != r.view(0, len(got)):
            out.append(f'address 0 reads {got[:8].hex()}, the buffer starts '
                       f'{bytes(r.view(0, 8)).hex()}')
        for a in range(0, r.length, max(mem.PAGE_SIZE, r.length // 64)):
            n = min(64, r.length - a)
            res, got = fx.xl.read_region(mr.lkey, acc, a, n)
            if res != base.XL['OK'] or got != r.view(a, n):
                out.append(f'address {a:#x}: '
                           f'{base.dbgwin.result_name(res)}' +
                           (', bytes differ' if res == base.XL['OK'] else ''))
                break
        o = fx.xl.translate(mr.lkey, acc, r.length, 1)
        if o.result != base.XL['RANGE']:
            out.append(f'read at the length -> {o.name}, want RANGE')
        return out


def _case_test(of, off, length, iova, want):
    def test(self):
        self.zb_case(of, off, length, iova, want)
    return test


for _i, (_name, _of, _off, _len, _iova, _want) in enumerate(CASES):
    _t = _case_test(_of, _off, _len, _iova, _want)
    _t.__doc__ = f'zero-based: {_name}: ' + (
        f'refused with {errno.errorcode[_want]}' if _want else
        'address 0 is the first byte, all bytes read back')
    _slug = ''.join(c if c.isalnum() else '_' for c in _name.split(',')[0])
    setattr(ZeroBased, f'test_{_i}_{_slug}', _t)

if __name__ == '__main__':
    unittest.main()
