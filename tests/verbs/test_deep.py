# SPDX-License-Identifier: GPL-2.0
"""Every region registered with all rights at once, checked in depth: the
raw MPTs, the resource tracker's view (`rdma -dd -j res show mr`, the
driver's attributes against the firmware's MPT), every page's physical
address through the engine and data moved both ways through the key."""

import random
import time
import unittest

import base
import expect
from arbeltest import mem, prm, restrack

MiB = base.MiB
PG = mem.PAGE_SIZE


class DeepChecks(base.VerbsTestCase):
    """One registration batch for the whole class (setUpClass)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        fx = cls.fx
        cls.case = base.VerbsTestCase()
        cls.case.fx = fx
        cls.case.setUp()
        cls.regs, cls.errors = [], {}
        for i, r in enumerate(fx.regions):
            try:
                reg = cls.case.register(r, fx.pd1 if i % 2 else fx.pd2,
                                        base.ALL_RIGHTS)
                cls.regs.append(reg)
                if base.CONFIG['verbose']:
                    print(f'# {r.name}: key {reg.key:#x} at va {reg.va:#x}')
            except base.PyverbsRDMAError as exc:
                cls.errors[r.name] = (f'ibv_reg_mr({r.kind}, {r.length} bytes,'
                                      f' {base.access_str(base.ALL_RIGHTS)}): '
                                      f'{base.errstr(base.errno_of(exc))}')
        try:
            cls.mpts, cls.mpt_error = fx.mpts(), None
        except restrack.RdmaError as exc:
            cls.mpts, cls.mpt_error = {}, str(exc)
        cls.rng = random.Random(1)

    @classmethod
    def tearDownClass(cls):
        cls.case.tearDown()

    def test_1_register(self):
        """Every region registers with all rights."""
        for r in self.fx.regions:
            with self.subTest(f'{r.name}: registered'):
                self.assertNotIn(r.name, self.errors, self.errors.get(r.name))

    def test_2_raw_mpts(self):
        """All-rights batch: raw MPTs hold what was asked."""
        self.assertIsNone(self.mpt_error)
        problems = []
        for reg in self.regs:
            problems += [f'{reg.name}: {p}' for p in self.mpt_problems(reg, self.mpts)]
        self.assertNoProblems(problems)

    def test_3_restrack(self):
        """restrack lists every MR with its lkey, rkey and length; the
        driver's attributes (rdma -dd) agree with the firmware's MPT."""
        entries = restrack.mrs(self.fx.devname)
        if entries:
            print(f'# rdma -dd -j res show mr, first entry: {entries[0]}')
        by_lkey = {}
        for ent in entries:
            by_lkey.setdefault(restrack.number(ent.get('lkey'), True), []).append(ent)
        listed, attrs = [], []
        for reg in self.regs:
            found = by_lkey.get(reg.key, [])
            if not found:
                listed.append(f'{reg.name}: lkey {reg.key:#x} not listed')
            for ent in found:
                listed += self._listed_problems(reg, ent)
                attrs += self._attr_problems(reg, ent)
        with self.subTest('restrack driver attributes (rdma -dd) agree with '
                          "the firmware's MPT"):
            self.assertNoProblems(attrs)
        with self.subTest('restrack lists every MR with its lkey, rkey and '
                          'length'):
            self.assertNoProblems(listed)

    @staticmethod
    def _listed_problems(reg, ent):
        out = []
        if restrack.number(ent.get('rkey'), True) != reg.mr.rkey:
            out.append(f'{reg.name}: rkey in restrack {ent.get("rkey")} != '
                       f'{reg.mr.rkey:#x}')
        if restrack.number(ent.get('mrlen')) != reg.region.length:
            out.append(f'{reg.name}: mrlen {ent.get("mrlen")}, want '
                       f'{reg.region.length}')
        return out

    def _attr_problems(self, reg, ent):
        f = self.mpts.get(expect.mem_key_of(reg.key))
        if f is None:
            return []
        pages = expect.pages_spanned(prm.start_address(f), prm.length(f),
                                     f['page_size'] + expect.PAGE_SHIFT)
        want = {'mpt_index': (expect.slot_of(reg.key, self.fx.num_mpts), False),
                'page_shift': (f['page_size'] + expect.PAGE_SHIFT, False),
                'mtt_entries': (pages, False),
                'mtt_addr': (prm.mtt_address(f), True)}
        out, seen = [], 0
        for name, (value, hexa) in want.items():
            got = restrack.number(restrack.driver_attr(ent, name), hexa)
            if got is None:
                continue
            seen += 1
            if got != value:
                out.append(f'{reg.name}: {name} {got:#x}, the MPT says {value:#x}')
        if not seen:
            out.append(f'{reg.name}: no driver attribute ({", ".join(want)})')
        return out

    def test_4_pages(self):
        """The engine resolves every page (a sample of 4096 at most) to the
        pagemap's address, and bytes written and read through the key match
        the buffer."""
        for reg in self.regs:
            n = len(reg.pa)
            step = n // 4096 if n > 4096 else 1
            what = f'a sample of {n // step}' if step > 1 else f'all {n}'
            with self.subTest(f'{reg.name}: engine resolves {what} pages to '
                              "the pagemap's addresses"):
                self.assertNoProblems(self._page_problems(reg, step))
            t0 = time.monotonic()
            with self.subTest(f'{reg.name}: bytes written and read through '
                              'the key match the buffer'):
                problems = self._data_problems(reg)
                print(f'# {reg.name}: data both ways in '
                      f'{time.monotonic() - t0:.1f} s')
                self.assertNoProblems(problems)

    def _page_problems(self, reg, step):
        out = []
        va = reg.va
        for i in range(0, len(reg.pa), step):
            a = (va & ~(PG - 1)) + i * PG if i else va
            o = self.fx.xl.translate(reg.key, base.ACC['REMOTE_READ'], a, 1)
            if o.result != base.XL['OK']:
                out.append(f'page {i} (va {a:#x}): {o.name}')
            elif o.pa != reg.pa[i] + a % PG:
                out.append(f'page {i} (va {a:#x}): pa {o.pa:#x}, pagemap '
                           f'{reg.pa[i] + a % PG:#x}')
        return out

    def _data_problems(self, reg):
        """Write a pattern through the key, compare with the buffer, and the
        other way: the whole region up to 1 MiB, else 3 windows of 64 KiB
        (start, middle across a 2 MiB boundary, end)."""
        r, xl, out = reg.region, self.fx.xl, []
        va, length = reg.va, r.length
        chunk = length if length <= MiB else 64 * base.KiB
        offs = [0] if chunk == length else \
            [0, (((va + length // 2) & ~(2 * MiB - 1)) - va) - chunk // 2,
             length - chunk]
        for off in offs:
            if off > length - chunk or off < 0:
                off = (length - chunk) // 2
            pat = self.rng.randbytes(chunk)
            res = xl.write_region(reg.key, base.ACC['LOCAL_WRITE'], va + off, pat)
            if res != base.XL['OK']:
                out.append(f'write [+{off:#x}, +{off + chunk:#x}) -> '
                           f'{base.dbgwin.result_name(res)}')
            elif r.view(off, chunk) != pat:
                out.append(f'write [+{off:#x}, +{off + chunk:#x}): buffer differs')
            r.view(off, chunk)[:] = self.rng.randbytes(chunk)
            res, got = xl.read_region(reg.key, base.ACC['REMOTE_READ'],
                                      va + off, chunk)
            if res != base.XL['OK']:
                out.append(f'read [+{off:#x}, +{off + chunk:#x}) -> '
                           f'{base.dbgwin.result_name(res)}')
            elif r.view(off, chunk) != got:
                out.append(f'read [+{off:#x}, +{off + chunk:#x}): bytes differ')
        return out


if __name__ == '__main__':
    unittest.main()
