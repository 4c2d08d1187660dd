#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Guest half of tests/verbs/run.sh: the verbs suites, as one KTAP stream.

Runs in the test VM as root with arbel.ko loaded (VM_PYTHON=1: python3 and
pyverbs; arbeltest on PYTHONPATH):

  verbs_guest.py [-v] [-d DEV] [--no-enomem] [--enomem-secs N]
                 [--suites NAME,...] [--skip-suites NAME,...]

The suites, in order: the tools (ibv_devices, ibv_devinfo -v), device
attributes, user queues (ibverbs-utils' four pingpongs with their buffers
checked, QP and SRQ geometry and attributes), an RC QP moved to the
other port in SQD (CHANGE_PHY_PORT), bad inputs (a table of 69 cases, a fuzzer) and EFAULT, the
registration matrix, the MTT modes (commands per registration,
write_mtt=0 and 1), the deep checks, re-registration, iova, zero-based
regions, injected firmware faults, concurrency stress (4 processes,
--stress-cycles each), exhaustion (ENOMEM), cleanup, removal with users
present (unbind, rmmod, a refused HW2SW_MPT; the device is bound again
after each), the failure policy (refused teardown commands and a lost
command reset the HCA; the device is bound or loaded again after each),
the life cycle (surprise removal with commands outstanding, .shutdown
leaving the HCA alone, INTx on QUERY_ADAPTER's INTA pin), ICM chunks of small blocks (debugfs arbel/icm_max_block_kib=16, the device
bound again),
allocation failures (test_alloc_faults: only with --suites, on the debug
kernel, whose fault injection it needs),
events (port down and up, a catastrophic error and the recovery, a
short run with polling=1); then
rdma-core's own pyverbs tests test_device and test_pd (from
/opt/rdma-core/tests).  On a kernel with kmemleak (the debug kernel) the
objects leaked while the suites ran fail the run.  --suites NAME,... runs
only those (and no rdma-core tests); --skip-suites NAME,... leaves those
out (make check's verbs stage: the ones the debug stage runs).  Exit
status 1 if anything failed.
"""

import argparse
import os
import subprocess
import sys
import time
import traceback
import unittest

from arbeltest import ktap, restrack

SUITES = ('test_tools', 'test_device_attrs', 'test_queues', 'test_port_move',
          'test_bad_inputs',
          'test_reg_matrix', 'test_mtt_mode', 'test_deep', 'test_rereg',
          'test_iova', 'test_zero_based', 'test_fw_faults', 'test_stress',
          'test_enomem', 'test_cleanup',
          'test_removal', 'test_fail_policy', 'test_life_cycle',
          'test_icm_blocks', 'test_events')

KMEMLEAK = '/sys/kernel/debug/kmemleak'

RDMA_CORE = '/opt/rdma-core'
RDMA_CORE_SUITES = ('tests.test_device', 'tests.test_pd')


def rdma_core_suite(k):
    """rdma-core's test_device and test_pd, or None (reported) if absent."""
    if not os.path.isdir(os.path.join(RDMA_CORE, 'tests')):
        k.skip('pyverbs: rdma-core tests', f'{RDMA_CORE}/tests missing '
               '(VM_PYTHON=0?)')
        return None
    # rdma-core's tests import args_parser from their own directory; put it
    # last so that its base.py and utils.py cannot shadow ours
    sys.path.insert(0, RDMA_CORE)
    sys.path.append(os.path.join(RDMA_CORE, 'tests'))
    argv, sys.argv = sys.argv, [sys.argv[0]]
    try:
        from args_parser import parser  # pylint: disable=import-outside-toplevel
        parser.parse_args()
        suite = unittest.defaultTestLoader.loadTestsFromNames(RDMA_CORE_SUITES)
    except Exception:   # pylint: disable=broad-except
        k.fail('pyverbs: loading rdma-core tests', traceback.format_exc())
        return None
    finally:
        sys.argv = argv
    return suite


def tracked(ifname):
    """restrack's count per type for ifname, as text (a diagnostic)."""
    try:
        return ' '.join(f'{k} {v}' for k, v in
                        sorted(restrack.summary(ifname).items())) or 'none'
    except restrack.RdmaError as e:
        return str(e)


def base_default(key):
    """A default of base.CONFIG (base imports pyverbs: only in the VM)."""
    import base  # pylint: disable=import-outside-toplevel
    return base.CONFIG[key]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-v', action='store_true', help='more diagnostics')
    ap.add_argument('-d', default='arbel0', help='device (default arbel0)')
    ap.add_argument('--no-enomem', action='store_true',
                    help='skip the exhaustion tests')
    ap.add_argument('--enomem-secs', type=float, default=300.0,
                    help='time limit of the MPT exhaustion (MTT: a third)')
    ap.add_argument('--stress-cycles', type=int,
                    default=base_default('stress_cycles'),
                    help='register/deregister cycles per stress process')
    ap.add_argument('--fuzz-count', type=int,
                    default=base_default('fuzz_count'),
                    help='random registrations of the fuzzer (its first N)')
    ap.add_argument('--suites', help='comma-separated suites to run '
                    '(default: all, then the rdma-core tests)')
    ap.add_argument('--skip-suites', default='',
                    help='comma-separated suites not to run (of all, '
                    'which the rdma-core tests still follow)')
    args = ap.parse_args()

    import base  # pylint: disable=import-outside-toplevel
    base.CONFIG.update(device=args.d, enomem=not args.no_enomem,
                       enomem_secs=args.enomem_secs, verbose=args.v,
                       stress_cycles=args.stress_cycles,
                       fuzz_count=args.fuzz_count)
    k = ktap.Ktap()
    leaks = os.path.exists(KMEMLEAK)
    if leaks:
        # what the boot leaked is not ours: forget it
        with open(KMEMLEAK, 'w', encoding='ascii') as f:
            f.write('clear')
    loader = unittest.defaultTestLoader
    skip = set(filter(None, args.skip_suites.split(',')))
    unknown = skip - set(SUITES)
    if unknown:
        ap.error(f'--skip-suites: no suite {", ".join(sorted(unknown))}')
    names = args.suites.split(',') if args.suites else SUITES
    if skip:
        k.diag(f'suites skipped here: {", ".join(sorted(skip))}')
    for name in (n for n in names if n not in skip):
        k.diag(f'suite {name}')
        try:
            suite = loader.loadTestsFromName(name)
        except Exception:   # pylint: disable=broad-except
            k.fail(f'{name}: import', traceback.format_exc())
            continue
        t0 = time.monotonic()
        ktap.run_unittest(suite, k)
        k.diag(f'suite {name}: {time.monotonic() - t0:.0f} s; tracked '
               f'after it: {tracked(args.d)}')
    suite = None if args.suites else rdma_core_suite(k)
    if suite is not None:
        k.diag('suite rdma-core tests/test_device, tests/test_pd')
        ktap.run_unittest(suite, k)
    p = subprocess.run(['rdma', 'res', 'show'], capture_output=True,
                       text=True, check=False)
    k.diag('rdma res show, after everything:\n' + p.stdout + p.stderr)
    if leaks:
        kmemleak_check(k)
    return k.finish()


def kmemleak_check(k):
    """The debug kernel's kmemleak (tests/vm/debug-kernel.config): scan
    (twice, as its documentation advises against transient false
    positives) and fail on any object leaked since the suites began."""
    for _ in range(2):
        with open(KMEMLEAK, 'w', encoding='ascii') as f:
            f.write('scan')
    with open(KMEMLEAK, encoding='ascii', errors='replace') as f:
        report = f.read()
    n = report.count('unreferenced object')
    k.check(n == 0, 'kmemleak: no object leaked during the suites',
            f'{n} unreferenced objects:\n' + report[:4000])


if __name__ == '__main__':
    sys.exit(main())
