# SPDX-License-Identifier: GPL-2.0
"""Firmware failures injected through the debug window: the registration
fails, and nothing is left behind (MPT slots and MTT ranges reusable).
WRITE_MTT faults run with debugfs arbel/<bdf>/write_mtt set (by default
the driver writes MTT entries itself and sends no WRITE_MTT)."""

import errno
import unittest

import base

WRITE_MTT = 0x011
FAULTS = (           # opcode, name, status
    (0x011, 'WRITE_MTT', 0x03),
    (0x00d, 'SW2HW_MPT', 0x03),
    (0x00d, 'SW2HW_MPT', 0x09),
    (0x011, 'WRITE_MTT', 0x01),
)


class FirmwareFaults(base.VerbsTestCase):
    """Each fault three times on a 64 MiB registration; the MTT capacity
    (64 MiB MRs that fit at once) is the same before and after."""

    capacity_before = None

    def mtt_capacity(self, r, limit=4096):
        """How many registrations of r fit at once (until ENOMEM, or limit
        when that many fit: the driver merges physically contiguous pages,
        so how many fit depends on the guest's memory), all freed again;
        -n-1 if they ended with another error after n."""
        mrs, err = [], None
        while len(mrs) < limit:
            try:
                mrs.append(self.reg_mr(self.fx.pd1, r.va, r.length, base.LW))
            except base.PyverbsRDMAError as exc:
                err = base.errno_of(exc)
                break
        n = len(mrs)
        for mr in mrs:
            self.close_mr(mr)
        return n if err in (errno.ENOMEM, None) else -n - 1

    def test_0_capacity_before(self):
        """64 MiB MRs fit until ENOMEM (the reference for afterwards)."""
        cap = self.mtt_capacity(self.fx.region('64MiB'))
        type(self).capacity_before = cap
        print(f'# {cap} registrations of 64MiB fit at once')
        self.assertGreater(cap, 0)

    def fault_case(self, op, status):
        with base.WriteMttMode(op == WRITE_MTT):
            self.fault_case_in_mode(op, status)

    def fault_case_in_mode(self, op, status):
        fx = self.fx
        big = fx.region('64MiB')
        hw0 = fx.hw_mpts()
        failed0 = fx.win.read('FI_FAILED')
        problems, errs = [], []
        try:
            for k in range(3):
                fx.win.fi_fail(op, status, 0)
                try:
                    mr = self.reg_mr(fx.pd1, big.va, big.length, base.LW)
                except base.PyverbsRDMAError as exc:
                    errs.append(base.errno_of(exc))
                    continue
                errs.append(0)
                problems.append(f'registration {k} succeeded')
                self.close_mr(mr)
        finally:
            fx.win.fi_clear()
        print(f'# errno of the 3 registrations: {errs}')
        injected = fx.win.read('FI_FAILED') - failed0
        if injected != 3:
            problems.append(f'{injected} failures injected, want 3')
        if fx.hw_mpts() != hw0:
            problems.append(f'HW-owned MPTs {hw0} -> {fx.hw_mpts()}')
        self.assertNoProblems(problems)

    def test_9_no_mtt_leak(self):
        """Firmware faults leak no MTT range: as many 64 MiB MRs fit before
        and after."""
        after = self.mtt_capacity(self.fx.region('64MiB'))
        before = self.capacity_before
        self.assertTrue(before is not None and before > 0 and after == before,
                        f'{before} before, {after} after')


def _fault_test(op, name, status):
    def test(self):
        self.fault_case(op, status)
    test.__doc__ = (f'firmware fault: {name} status {status:#04x} fails '
                    'ibv_reg_mr, nothing left')
    return test


for _i, (_op, _name, _status) in enumerate(FAULTS, 1):
    setattr(FirmwareFaults, f'test_{_i}_{_name}_status_{_status:#04x}',
            _fault_test(_op, _name, _status))

if __name__ == '__main__':
    unittest.main()
