# SPDX-License-Identifier: GPL-2.0
"""ibv_reg_mr_iova: the MPT starts at the iova, the engine maps it to the
buffer, and the buffer's own VA is out of range."""

import unittest

import base
import expect
from arbeltest import mem, prm

PG = mem.PAGE_SIZE

CASES = (
    ('64KiB', 0x100000000000),
    ('8KiB+2@+4095', 0x7f0000000000),
    ('huge-4MiB', 0x200000000000),      # 2 MiB-aligned: huge pages
    ('huge-2MiB', 0x200000001000),      # off by 4 KiB: 4 KiB pages
)


class Iova(base.VerbsTestCase):
    """Generated below: one test per (region, iova base)."""

    def iova_case(self, name, iova_base):
        fx = self.fx
        r = fx.region(name)
        if r is None:
            self.skipTest('region not available (no hugetlb?)')
        va = r.va
        iova = iova_base + va % PG
        mr = base.IovaMR(fx.ctx, fx.pd1, va, r.length, iova, base.LW | base.RR)
        try:
            problems = self._problems(r, mr, iova)
        finally:
            mr.close()
        self.assertNoProblems(problems)

    def _problems(self, r, mr, iova):
        fx, out = self.fx, []
        va = r.va
        pa = r.buf.phys_pages(r.off, r.length)
        f = fx.mpts().get(expect.mem_key_of(mr.lkey))
        if f is None:
            out.append(f'no MPT for key {mr.lkey:#x}')
        else:
            mask, best = expect.acceptable_page_shifts(iova, r.length, pa,
                                                       fx.pgsz_cap)
            if prm.start_address(f) != iova:
                out.append(f'start {prm.start_address(f):#x}, want the iova '
                           f'{iova:#x}')
            if prm.length(f) != r.length:
                out.append(f'length {prm.length(f):#x}, want {r.length:#x}')
            if not mask >> (f['page_size'] + 12) & 1:
                out.append(f"page_size {f['page_size']}, want {best - 12} "
                           '(iova/physical alignment)')
        n = len(pa)
        for i in range(0, n, n // 64 if n > 64 else 1):
            a = (iova & ~(PG - 1)) + i * PG if i else iova
            cpu = va + (a - iova)
            length = min(64, va + r.length - cpu)
            res, got = fx.xl.read_region(mr.lkey, base.ACC['REMOTE_READ'], a,
                                         length)
            if res != base.XL['OK'] or got != r.view(cpu - va, length):
                out.append(f'iova {a:#x}: {base.dbgwin.result_name(res)}' +
                           (', bytes differ' if res == base.XL['OK'] else ''))
        o = fx.xl.translate(mr.lkey, base.ACC['LOCAL_READ'], va, 1)
        if o.result != base.XL['RANGE'] and va != iova:
            out.append(f"the buffer's own VA translates ({o.name}), want RANGE")
        return out


def _case_test(name, iova_base):
    def test(self):
        self.iova_case(name, iova_base)
    test.__doc__ = (f'iova: {name} registered at iova {iova_base:#x} + page '
                    'offset: MPT start, page size; engine reads the buffer')
    return test


for _i, (_name, _base) in enumerate(CASES):
    setattr(Iova, f'test_{_i}_{_name.replace("+", "_").replace("@", "_at_")}',
            _case_test(_name, _base))

if __name__ == '__main__':
    unittest.main()
