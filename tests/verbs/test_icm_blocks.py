# SPDX-License-Identifier: GPL-2.0
"""ICM chunks made of smaller blocks (issue #11, finding 6).

When 256 KiB of physically contiguous memory is not to be had, an ICM
chunk is made of smaller naturally aligned blocks, all handed to the
firmware in one MAP_ICM.  The driver-wide debugfs knob
arbel/icm_max_block_kib, read at each probe, forces that fallback (the
KUnit suite arbel_icm_flow tests it block by block); here it is set to
16 KiB and the device unbound and bound again, so that every chunk the
driver maps -- the MPT and MTT chunks included -- is split, and a region
of 16 MiB on 4 KiB pages (4096 MTT entries over two 16 KiB blocks) is
written and read through the stub's translation engine, which walks MPT
-> MTT -> memory through the ICM mapping exactly as the HCA would.

Runs after test_removal: it binds the device again (and once more with
the knob back at 0).
"""

import os
import random

from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD

import base
from arbeltest import dbgwin, mem
from test_removal import DeviceCase

BLOCK_KIB = 16
KNOB = '/sys/kernel/debug/arbel/icm_max_block_kib'
LENGTH = 16 << 20
SEED = 6


def split_chunks(bdf):
    """The driver's debugfs count of chunks mapped in several blocks."""
    path = f'/sys/kernel/debug/arbel/{bdf}/icm_split_chunks'
    with open(path, encoding='ascii') as f:
        return int(f.read())


class IcmBlocks(DeviceCase):
    """Registration over ICM chunks of 16 KiB blocks."""

    def rebind(self, block_kib):
        """The knob set to block_kib, the device unbound and bound again:
        '' or the problem."""
        with open(KNOB, 'w', encoding='ascii') as f:
            f.write(str(block_kib))
        for action in ('unbind', 'bind'):
            rc, err, _ = self.driver_file(action)
            if rc != 0:
                return f'{action}: status {rc} ({err})'
        return '' if self.wait_ibdev() else f'{self.dev} did not appear'

    def test_small_blocks(self):
        """icm_max_block_kib=16: every chunk split, a 16 MiB region on
        4 KiB pages reads and writes through the engine at MTT entries of
        both blocks, nothing left after dereg"""
        err = self.rebind(BLOCK_KIB)
        self.assertFalse(err, err)
        problems = []
        try:
            split = split_chunks(self.bdf)
            print(f'# {split} ICM chunks split into {BLOCK_KIB} KiB blocks')
            if split < 2:
                problems.append(f'{split} split chunks, want the MPT and MTT '
                                'chunks at least')
            problems += self.region_problems()
        finally:
            err = self.rebind(0)
            if err:
                problems.append(err)
        problems += self.works_problems()
        self.assertFalse(problems, '; '.join(problems))

    def region_problems(self):
        out = []
        rng = random.Random(SEED)
        buf = mem.Buffer(LENGTH, mem.PAGES_4K)
        win = dbgwin.DebugWindow()
        xl = dbgwin.Translator(win)
        ctx = Context(name=self.dev)
        pd = PD(ctx)
        mr = MR(pd, LENGTH, base.LW | base.RW | base.RR, address=buf.addr)
        try:
            own = base.driver_mpts()
            if win.read('HW_MPTS') != 1 + own:
                out.append(f'{win.read("HW_MPTS")} HW-owned MPTs, '
                           f'want {1 + own}')
            # pages whose MTT entries lie in the first and the second
            # 16 KiB block (2048 entries each), and at the seams
            for page in (0, 1, 2047, 2048, 2049, 4095):
                va = buf.addr + page * mem.PAGE_SIZE
                data = os.urandom(mem.PAGE_SIZE)
                r = xl.write_region(mr.lkey, base.ACC['REMOTE_WRITE'], va,
                                    data)
                if r != base.XL['OK']:
                    out.append(f'write of page {page}: '
                               f'{dbgwin.result_name(r)}')
                    continue
                off = page * mem.PAGE_SIZE
                if bytes(buf.view[off:off + mem.PAGE_SIZE]) != data:
                    out.append(f'page {page}: the engine wrote elsewhere')
                n = rng.randrange(1, mem.PAGE_SIZE)
                r, got = xl.read_region(mr.lkey, base.ACC['REMOTE_READ'],
                                        va, n)
                if r != base.XL['OK'] or got != data[:n]:
                    out.append(f'read of page {page}: '
                               f'{dbgwin.result_name(r)}')
        finally:
            mr.close()
            pd.close()
            ctx.close()
            hw = win.read('HW_MPTS')
            xl.close()
            win.close()
        if hw != own:
            out.append(f'{hw} HW-owned MPTs after dereg, want {own}')
        return out
