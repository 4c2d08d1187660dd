# SPDX-License-Identifier: GPL-2.0
"""Registrations the kernel must refuse, leaving no MPT behind."""

import errno
import mmap
import os
import unittest

import base
from arbeltest import mem

PG = mem.PAGE_SIZE


def kernel_at_least(major, minor):
    rel = os.uname().release.split('.')
    try:
        return (int(rel[0]), int(rel[1].split('-')[0])) >= (major, minor)
    except (IndexError, ValueError):
        return True


class BadInputs(base.VerbsTestCase):
    """Bad flags and lengths: a clear errno, nothing registered."""

    def setUp(self):
        super().setUp()
        self.r = self.fx.region('4KiB')
        self.base = self.fx.hw_mpts()

    def refused(self, length, access, want):
        err, problem = self.reg_error(self.fx.pd1, self.r.va, length, access)
        self.assertRefused(err, problem, want, self.base)

    def test_on_demand(self):
        """IBV_ACCESS_ON_DEMAND: the core refuses it (no ODP here) with
        EINVAL up to Linux 6.1, EOPNOTSUPP from 6.2."""
        want = errno.EOPNOTSUPP if kernel_at_least(6, 2) else errno.EINVAL
        self.refused(4096, base.LW | base.e.IBV_ACCESS_ON_DEMAND, want)

    def test_length_0(self):
        """Length 0 -> EINVAL."""
        self.refused(0, base.LW, errno.EINVAL)

    def test_remote_write_without_local_write(self):
        """Remote write without local write -> EINVAL."""
        self.refused(4096, base.RW, errno.EINVAL)

    def test_remote_atomic_without_local_write(self):
        """Remote atomic without local write -> EINVAL."""
        self.refused(4096, base.ATOMIC | base.RR, errno.EINVAL)


class Efault(base.VerbsTestCase):
    """Memory the process cannot give: EFAULT, nothing left behind."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # 4 pages PROT_NONE, the last two unmapped; later the first two
        # become read-only
        cls.p = mem.map_anonymous(4 * PG, mem.PROT_NONE)
        mem.munmap(cls.p + 2 * PG, 2 * PG)

    @classmethod
    def tearDownClass(cls):
        mem.munmap(cls.p, 2 * PG)

    def test_1_prot_none_and_hole(self):
        """A PROT_NONE / unmapped buffer -> EFAULT."""
        base_n = self.fx.hw_mpts()
        err, problem = self.reg_error(self.fx.pd1, self.p, 4 * PG, base.LW)
        self.assertRefused(err, problem, errno.EFAULT, base_n)

    def test_2_local_write_on_read_only(self):
        """Local write on a read-only mapping -> EFAULT."""
        mem.mprotect(self.p, 2 * PG, mmap.PROT_READ)
        base_n = self.fx.hw_mpts()
        err, problem = self.reg_error(self.fx.pd1, self.p, 2 * PG, base.LW)
        self.assertRefused(err, problem, errno.EFAULT, base_n)

    def test_3_read_only_for_remote_read(self):
        """A read-only mapping registers for remote read."""
        mem.mprotect(self.p, 2 * PG, mmap.PROT_READ)
        base_n = self.fx.hw_mpts()
        mr = self.reg_mr(self.fx.pd1, self.p, 2 * PG, base.RR)
        self.assertEqual(self.fx.hw_mpts(), base_n + 1,
                         'HW-owned MPT count wrong')
        self.close_mr(mr)


if __name__ == '__main__':
    unittest.main()
