# SPDX-License-Identifier: GPL-2.0
"""The device as libibverbs and the stub see it before any registration."""

import re
import subprocess
import unittest

import base


class DeviceAttrs(base.VerbsTestCase):
    """Attributes, PD numbers, the stub's firmware state and MPT table."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        fx = cls.fx
        a = fx.attr
        for note in fx.notes:
            print(f'# {note}')
        print(f'# {fx.devname}: fw {a.fw_version}, max_mr_size '
              f'{a.max_mr_size:#x}, page_size_cap {a.page_size_cap:#x}, '
              f'max_mr {a.max_mr}, max_pd {a.max_pd}')
        print(f'# pdn {fx.pdn_of(fx.pd1)} and {fx.pdn_of(fx.pd2)} (from '
              "libmthca's ALLOC_PD response)")
        print(f'# stub: log_mpt_sz {fx.log_mpt_sz}, MTT area '
              f'[{fx.mtt_base:#x}, {fx.mtt_end:#x}), '
              f'{fx.hw_mpts_at_start} HW-owned MPTs')

    def test_page_size_cap_has_4k(self):
        """page_size_cap has 4 KiB."""
        cap = self.fx.attr.page_size_cap
        self.assertTrue(cap & (1 << 12), f'page_size_cap {cap:#x}')

    def test_two_pds_two_numbers(self):
        """Two PDs, two PD numbers below 2^24."""
        a, b = self.fx.pdn_of(self.fx.pd1), self.fx.pdn_of(self.fx.pd2)
        self.assertTrue(a != b and a < 1 << 24 and b < 1 << 24,
                        f'pdn {a} and {b}')

    def test_multicast_limits(self):
        """Multicast limits from the table the driver lays out: 2^4
        entries of 256 bytes (include/arbel/profile.h), each a group of up
        to (256 - 32) / 4 = 56 QPs (the PRM's MGM entry: 32 bytes of link
        and GID, then a dword a member)."""
        a = self.fx.attr
        self.assertEqual((a.max_mcast_grp, a.max_mcast_qp_attach), (16, 56))
        # pyverbs lacks the total; ibv_devinfo -v prints it
        out = subprocess.run(['ibv_devinfo', '-v', '-d',
                              base.CONFIG['device']], capture_output=True,
                             text=True, check=False).stdout
        total = re.search(r'max_total_mcast_qp_attach:\s*(\d+)', out)
        self.assertIsNotNone(total, out)
        self.assertEqual(int(total.group(1)), 16 * 56)

    def test_max_mr_leaves_out_the_eq_region(self):
        """max_mr: the 2^17 MPTs of the default profile less the 2^4 the
        firmware reserves (QUERY_DEV_LIM) and, in event mode, the one of
        the EQ ring's region, which the driver holds as long as it runs
        (issue 30)."""
        self.assertEqual(self.fx.attr.max_mr,
                         (1 << 17) - (1 << 4) - base.eq_mpts())

    def test_stub_firmware_in_hca_init(self):
        """The stub's firmware is in HCA_INIT (state 2)."""
        self.assertEqual(self.fx.win.read('FW_STATE'), 2)

    def test_stub_default_mpt_table(self):
        """2^17 MPTs (the default profile)."""
        self.assertEqual(self.fx.log_mpt_sz, 17)

    def test_no_hw_mpt_before_first_registration(self):
        """No HW-owned MPT before the first registration but the driver's
        own (its EQ ring's region, in event mode)."""
        self.assertEqual(self.fx.hw_mpts_at_start, base.driver_mpts())

    def test_engine_refuses_reserved_key(self):
        """The translation engine runs and refuses key 0x100 (reserved slot
        1, which no registration can have)."""
        o = self.fx.xl.translate(0x100, base.ACC['LOCAL_READ'], 0x1000, 1)
        print(f'# translation with key 0x100: {o.name} (index {o.index:#x}), '
              f'bounce page at pa {self.fx.xl.bounce_pa:#x}')
        self.assertTrue(o.result not in (base.XL['OK'],
                                         base.dbgwin.result('IDLE')) and
                        (o.result == base.dbgwin.result('NOT_RUNNING') or
                         o.index == 1), f'result {o.name} index {o.index:#x}')

    def test_hugetlb_regions(self):
        """hugetlb-backed regions are available."""
        if self.fx.hugetlb_error:
            self.skipTest(self.fx.hugetlb_error)


if __name__ == '__main__':
    unittest.main()
