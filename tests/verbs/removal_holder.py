#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A user of the device for test_removal: holds it while the test removes it.

  removal_holder.py DEV NMRS

Opens DEV (libmthca maps the context's UAR page), allocates a PD and
registers NMRS regions of 64 KiB, then prints one line
"ready KEY..." and obeys one command a line on stdin:

  probe   try query_device, alloc_pd and reg_mr again and print
          "probe query_device=E alloc_pd=E reg_mr=E", E the errno of the
          refusal, 0 for success, or exc:TYPE for an exception without one
  exit    leave at once (os._exit), closing nothing: the kernel cleans up
          when the file is released
"""

import os
import sys

import pyverbs.enums as e
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsError, PyverbsRDMAError


def _outcome(fn):
    try:
        fn()
    except PyverbsRDMAError as exc:
        return str(exc.error_code)
    except PyverbsError as exc:
        return f'exc:{type(exc).__name__}'
    return '0'


def main():
    dev, nmrs = sys.argv[1], int(sys.argv[2])
    ctx = Context(name=dev)
    pd = PD(ctx)
    mrs = [MR(pd, 64 << 10, e.IBV_ACCESS_LOCAL_WRITE) for _ in range(nmrs)]
    print('ready ' + ' '.join(f'{mr.lkey:#x}' for mr in mrs), flush=True)
    keep = []
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == 'probe':
            res = {'query_device': _outcome(ctx.query_device),
                   'alloc_pd': _outcome(lambda: keep.append(PD(ctx))),
                   'reg_mr': _outcome(lambda: keep.append(
                       MR(pd, 4096, e.IBV_ACCESS_LOCAL_WRITE)))}
            print('probe ' + ' '.join(f'{k}={v}' for k, v in res.items()),
                  flush=True)
        elif cmd == 'exit':
            break
    sys.stdout.flush()
    os._exit(0)


if __name__ == '__main__':
    main()
