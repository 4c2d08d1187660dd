# SPDX-License-Identifier: GPL-2.0
"""MTT entries written by the driver into ICM (the default) and through
WRITE_MTT (debugfs arbel/<bdf>/write_mtt set): the firmware commands a
registration and a deregistration cost, counted by the stub (debug window
CMD_COUNT), and what the registration means (the raw MPT, the translation
engine at pages all over the region) in both modes.

Golden counts (Documentation/arbel-hw.rst, "Opcodes" and "MTT entries";
the issue's goals): a registration is one SW2HW_MPT when the driver
writes the entries itself, and one SW2HW_MPT plus ceil(entries / 510)
WRITE_MTT otherwise (a WRITE_MTT mailbox is 4096 bytes: a 16-byte header,
then 8-byte entries); a deregistration is one HW2SW_MPT.  The entries
are counted from the MPT the firmware returns (start, length, page size).

Each region is registered once before counting: the first registration
that reaches a new 256 KiB chunk of the MTT table maps it (MAP_ICM), once
for the driver's life.

Besides the suites' regions (whose pages a fresh guest often gives
physically contiguous, i.e. few entries), an 8 MiB buffer whose pages
were touched last to first, so that no two are adjacent in the right
order: 2048 entries of 4 KiB, five WRITE_MTT commands with write_mtt set.
"""

import unittest

import base
import expect
from arbeltest import mem

WRITE_MTT_ENTRIES = (4096 - 16) // 8


SCATTERED = 8 * base.MiB


class MttModes(base.VerbsTestCase):
    """One test per mode; one subTest per region and check."""

    scattered = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        buf = mem.Buffer(SCATTERED, mem.PAGES_4K, fill=False)
        for off in range(SCATTERED - mem.PAGE_SIZE, -1, -mem.PAGE_SIZE):
            buf.view[off] = off // mem.PAGE_SIZE & 0xff
        cls.scattered = buf

    @classmethod
    def tearDownClass(cls):
        cls.scattered.close()
        super().tearDownClass()

    def regions(self):
        return self.fx.regions + [base.Region('scattered-8MiB',
                                              self.scattered, 0, SCATTERED)]

    def count(self):
        return self.fx.win.read('CMD_COUNT')

    def translation_problems(self, reg):
        """The engine finds pagemap's page at sampled offsets (every page of
        the first 2048, then one in 61, and the last)."""
        r, xl, out = reg.region, self.fx.xl, []
        first = r.va // mem.PAGE_SIZE
        npages = (r.va + r.length - 1) // mem.PAGE_SIZE - first + 1
        pages = sorted(set(list(range(min(npages, 2048))) +
                           list(range(0, npages, 61)) + [npages - 1]))
        for k in pages:
            va = max(r.va, (first + k) * mem.PAGE_SIZE)
            o = xl.translate(reg.key, base.ACC['LOCAL_READ'], va, 1)
            want = reg.pa[k] + va % mem.PAGE_SIZE
            if o.result != base.XL['OK'] or o.pa != want:
                out.append(f'page {k}: {o.name}, pa {o.pa:#x}, pagemap says '
                           f'{want:#x}')
                if len(out) > 8:
                    break
        return out

    def mode_case(self, by_command):
        fx = self.fx
        hw0 = fx.hw_mpts()
        rows = []
        with base.WriteMttMode(by_command):
            for r in self.regions():
                with self.subTest(f'{r.name}'):
                    self.close_mr(self.register(r, fx.pd1, base.LW).mr)
                    c0 = self.count()
                    reg = self.register(r, fx.pd1, base.LW)
                    reg_cmds = self.count() - c0
                    mpts = fx.mpts()
                    problems = self.mpt_problems(reg, mpts)
                    f = mpts.get(expect.mem_key_of(reg.key))
                    n = 0
                    if f is not None:
                        lo, hi = expect.mtt_span(f)
                        n = (hi - lo) // expect.MTT_ENTRY_SIZE
                        problems += self.translation_problems(reg)
                    want = 1
                    if by_command:
                        want += -(-n // WRITE_MTT_ENTRIES)
                    c1 = self.count()
                    self.dereg(reg)
                    dereg_cmds = self.count() - c1
                    rows.append(f'{r.name}: {n} entries, {reg_cmds} + '
                                f'{dereg_cmds} commands')
                    if r.buf is self.scattered and n <= WRITE_MTT_ENTRIES:
                        problems.append(f'the scattered buffer has {n} '
                                        f'entries, want more than '
                                        f'{WRITE_MTT_ENTRIES} (setup)')
                    if reg_cmds != want:
                        problems.append(f'registration of {n} entries: '
                                        f'{reg_cmds} commands, want {want}')
                    if dereg_cmds != 1:
                        problems.append(f'deregistration: {dereg_cmds} '
                                        'commands, want 1')
                    self.assertNoProblems(problems)
        print('# ' + '; '.join(rows))
        self.assertEqual(fx.hw_mpts(), hw0, 'HW-owned MPTs')

    def test_1_direct(self):
        """default mode: every region is 1 command to register (SW2HW_MPT)
        and 1 to deregister, its MPT and translations right"""
        self.mode_case(False)

    def test_2_write_mtt(self):
        """write_mtt set: 1 + ceil(entries / 510) commands to register, 1 to
        deregister, MPT and translations right"""
        self.mode_case(True)


if __name__ == '__main__':
    unittest.main()
