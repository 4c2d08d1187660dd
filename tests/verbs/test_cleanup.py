# SPDX-License-Identifier: GPL-2.0
"""Last: nothing of ours is left in the firmware, even after closing."""

import unittest

import base


class Cleanup(base.VerbsTestCase):

    def test_1_no_mpt_left(self):
        """After everything: no MPT of ours left in `rdma -r res show mr`."""
        self.assertEqual(len(self.fx.mpts()), 0)

    def test_2_closed_device(self):
        """After closing the device: the stub's HW-owned MPT count is the
        driver's own (its EQ ring's region in event mode, else 0)."""
        self.fx.close()
        self.assertEqual(self.fx.hw_mpts(), base.driver_mpts(),
                         'HW-owned MPTs')


if __name__ == '__main__':
    unittest.main()
