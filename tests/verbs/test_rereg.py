# SPDX-License-Identifier: GPL-2.0
"""Re-registration of one buffer: a new key each time, older keys refused."""

import unittest

import base


class Reregistration(base.VerbsTestCase):

    def test_new_key_each_time(self):
        """Re-registration: a new key each time, every older key refused."""
        fx = self.fx
        r = fx.regions[0]
        hw0 = fx.hw_mpts()
        keys, problems = [], []
        for i in range(8):
            try:
                reg = self.register(r, fx.pd1, base.LW)
            except base.PyverbsRDMAError as exc:
                problems.append(f'registration {i}: {exc}')
                continue
            if reg.key in keys:
                problems.append(f'registration {i} got key {reg.key:#x} again '
                                f'(as {keys.index(reg.key)})')
            o = fx.xl.translate(reg.key, base.ACC['LOCAL_READ'], r.va, 1)
            if o.result != base.XL['OK']:
                problems.append(f'registration {i}: new key {reg.key:#x} -> '
                                f'{o.name}')
            for old in keys:
                p = self.old_key_refused(old, r.va)
                if p:
                    problems.append(f'{p} while {reg.key:#x} is live')
            keys.append(reg.key)
            self.dereg(reg)
        print('# keys of 8 registrations of one buffer: ' +
              ' '.join(f'{k:x}' for k in keys))
        self.assertNoProblems(problems)
        self.assertEqual(fx.hw_mpts(), hw0, 'HW-owned MPTs')


if __name__ == '__main__':
    unittest.main()
