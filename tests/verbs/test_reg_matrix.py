# SPDX-License-Identifier: GPL-2.0
"""Every access combination x every region (1 B .. 64 MiB on 4 KiB, THP and
hugetlb pages): registration, the raw MPT, disjoint MTT ranges, the rights
the translation engine grants, deregistration and the old keys.

One test method per combination of LW, RW, RR, A and BIND (32); inside
it, one subTest per check and region.
"""

import errno
import unittest

import base
import expect


class RegistrationMatrix(base.VerbsTestCase):
    """Generated below: test_access_NN_<flags>."""

    def refused_combination(self, access):
        r = self.fx.regions[0]
        hw = self.fx.hw_mpts()
        with self.subTest('refused with EINVAL (remote write/atomic '
                          'without local write)'):
            err, problem = self.reg_error(self.fx.pd1, r.va, r.length, access)
            self.assertRefused(err, problem, errno.EINVAL, hw)

    def combination(self, access):
        fx = self.fx
        hw0 = fx.hw_mpts()
        regs, errors = [], []
        for i, r in enumerate(fx.regions):
            try:
                regs.append(self.register(r, fx.pd2 if i % 2 else fx.pd1,
                                          access))
            except base.PyverbsRDMAError as exc:
                errors.append(f'{r.name}: ibv_reg_mr {base.errstr(base.errno_of(exc))}')
        with self.subTest(f'register {len(fx.regions)} regions'):
            hw = fx.hw_mpts()
            self.assertNoProblems(errors)
            self.assertEqual(hw, hw0 + len(regs),
                             f'HW-owned MPTs {hw0} -> {hw} for {len(regs)} MRs')
        mpts = {}
        with self.subTest('raw MPT dump'):
            mpts = fx.mpts()
            self.assertEqual(len(mpts), len(regs),
                             f'the dump has {len(mpts)} MPTs for '
                             f'{fx.devname}, {len(regs)} MRs are registered')
        for reg in regs:
            with self.subTest(f'{reg.name}: raw MPT holds start, length, PD, '
                              'rights, page size, MTT'):
                self.assertNoProblems(self.mpt_problems(reg, mpts))
        with self.subTest(f'MTT ranges of the {len(regs)} MRs are disjoint'):
            spans = []
            for reg in regs:
                f = mpts.get(expect.mem_key_of(reg.key))
                if f is not None:
                    spans.append((reg.name,) + expect.mtt_span(f))
            overlaps = [f'{a} [{alo:#x}, {ahi:#x}) and {b} [{blo:#x}, {bhi:#x})'
                        for i, (a, alo, ahi) in enumerate(spans)
                        for b, blo, bhi in spans[i + 1:]
                        if alo < bhi and blo < ahi]
            self.assertNoProblems(overlaps, 'overlapping: ')
        for reg in regs:
            with self.subTest(f'{reg.name}: engine grants exactly these '
                              'rights, refuses out of range and wrong tag'):
                self.assertNoProblems(self.rights_problems(reg))
        with self.subTest('dereg; old keys refused; HW-owned MPTs back'):
            problems = []
            for reg in regs:
                try:
                    self.dereg(reg)
                except base.PyverbsRDMAError as exc:
                    problems.append(f'{reg.name}: ibv_dereg_mr {exc}')
                p = self.old_key_refused(reg.key, reg.va)
                if p:
                    problems.append(f'{reg.name}: {p}')
            self.assertNoProblems(problems)
            self.assertEqual(fx.hw_mpts(), hw0, 'HW-owned MPTs')


def _combination_test(access):
    invalid = access & (base.RW | base.ATOMIC) and not access & base.LW

    def test(self):
        if invalid:
            self.refused_combination(access)
        else:
            self.combination(access)
    test.__doc__ = f'access {base.access_str(access)}'
    return test


def _generate():
    for combo in range(32):
        access = 0
        for i, (bit, _) in enumerate(base.FLAGS):
            if combo & 1 << i:
                access |= bit
        name = f'test_access_{combo:02d}_{base.access_str(access).replace("|", "_")}'
        setattr(RegistrationMatrix, name, _combination_test(access))


_generate()

if __name__ == '__main__':
    unittest.main()
