#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One process of test_stress: register and deregister in a loop.

  stress_worker.py DEV SEED CYCLES [hold]

Opens DEV, allocates a PD and two buffers of 16 MiB (4 KiB pages, and
hugetlb 2 MiB pages when the pool has them), then CYCLES times registers a
random part of one of them (4 KiB .. 16 MiB, log-uniform, random page
offset) and deregisters it.  Prints one line at the end:

  done CYCLES=N ERRORS=N VMPIN=KiB HUGE=0|1 SECS=S

("hold": register 8 regions, print "holding", and wait to be killed.)
Exit status 1 if a registration failed.
"""

import math
import random
import sys
import time

import pyverbs.enums as e
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError

from arbeltest import mem

SIZE = 16 << 20
ACCESS = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_READ


def main():
    dev, seed, cycles = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    ctx = Context(name=dev)
    pd = PD(ctx)
    bufs = [mem.Buffer(SIZE, mem.PAGES_4K)]
    try:
        bufs.append(mem.Buffer(SIZE, mem.PAGES_HUGETLB))
    except OSError:
        pass
    if sys.argv[4:] == ['hold']:
        keep = [MR(pd, 1 << 20, ACCESS, address=bufs[0].addr + i * (1 << 20))
                for i in range(8)]
        print(f'holding {len(keep)}', flush=True)
        time.sleep(3600)
        return 0
    rng = random.Random(seed)
    errors, t0 = 0, time.monotonic()
    for _ in range(cycles):
        buf = rng.choice(bufs)
        length = int(math.exp(rng.uniform(math.log(4096), math.log(SIZE))))
        off = rng.randrange(0, SIZE - length + 1) & ~0xfff
        try:
            mr = MR(pd, length, ACCESS, address=buf.addr + off)
            mr.close()
        except PyverbsRDMAError as exc:
            errors += 1
            print(f'# reg of {length} at +{off:#x}: {exc}', flush=True)
    print(f'done CYCLES={cycles} ERRORS={errors} VMPIN={mem.vm_pinned_kib()} '
          f'HUGE={int(len(bufs) > 1)} SECS={time.monotonic() - t0:.1f}',
          flush=True)
    pd.close()
    ctx.close()
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
