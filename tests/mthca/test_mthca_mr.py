# SPDX-License-Identifier: GPL-2.0
"""User memory registered through stock libmthca on ib_mthca over
arbel-stub, checked through the stub's translation engine only (ib_mthca
has no raw MPT dump): the verbs stage's deep checks (test_deep.DeepChecks:
every page's physical address, data both ways through the key) on regions
of several sizes on 4 KiB pages, transparent huge pages and 2 MiB hugetlb
pages, the bounds and rights of each key, and after deregistration the old
key refused and the stub's count of hardware-owned MPTs back where it was."""

import unittest

import base
import test_deep

# a few of base.py's regions: 1 B .. 16 MiB, 4 KiB, THP and hugetlb pages
REGIONS = ('4KiB', '1B@+7', '100B@page-cross', '8KiB+2@+4095', '1MiB-3@+3',
           '16MiB@+4KiB', 'thp-2MiB', 'huge-2MiB', 'huge-3MiB@+0x1234',
           'huge-16B@2MiB-cross')


class MthcaRegions(test_deep.DeepChecks):
    """DeepChecks without its raw-MPT and restrack checks (arbel.ko's)."""

    test_2_raw_mpts = None
    test_3_restrack = None

    @classmethod
    def setUpClass(cls):
        fx = base.fixture()
        fx.regions = [r for r in fx.regions if r.name in REGIONS]
        super().setUpClass()

    def test_0_regions(self):
        """Every region of the list exists (hugetlb pages reserved)."""
        names = [r.name for r in self.fx.regions]
        self.assertEqual(sorted(names), sorted(REGIONS),
                         self.fx.hugetlb_error or self.fx.notes)

    def test_5_bounds_and_rights(self):
        """Each key: every right granted, the first byte at the pagemap's
        address, a byte before and after the region refused (RANGE), a
        key with another tag refused."""
        for reg in self.regs:
            with self.subTest(reg.name):
                self.assertNoProblems(self.case.rights_problems(reg))

    def test_6_dereg(self):
        """Deregistered: the engine refuses each old key, and the stub owns
        as many MPTs as before the first registration."""
        for reg in list(self.regs):
            self.case.dereg(reg)
            self.regs.remove(reg)
            with self.subTest(reg.name):
                self.assertFalse(self.case.old_key_refused(reg.key, reg.va))
        self.assertEqual(self.fx.hw_mpts(), self.fx.hw_mpts_at_start)


if __name__ == '__main__':
    unittest.main()
