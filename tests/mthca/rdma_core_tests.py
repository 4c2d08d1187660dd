#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rdma-core's own tests (/opt/rdma-core/tests), some modules, as KTAP.

Runs in the VM (VM_PYTHON=1), started by traffic_guest.py, one process
per module so that a test that hangs can be killed alone:

  rdma_core_tests.py [--dev mthca0] [--port 1] [--poll-timeout S]
                     [--seed N] MODULE...

Each test is one result named MODULE.Class.test; rdma-core's skips (an
unsupported feature: "... is not supported") are KTAP skips with their
reason, never passes.  --poll-timeout sets rdma-core's
utils.POLL_CQ_TIMEOUT (its default is 10 s).  The tests are rdma-core's,
run unmodified.

rdma-core's tests draw QP attributes, creation masks and MR lengths from
Python's `random` (tests/utils.py), so which of them skip -- a draw that
needs libmthca's missing create_qp_ex ends in EOPNOTSUPP -- used to vary
from run to run.  Each test now starts from a seed of its own name (and
--seed, default 0): a run is repeatable, and two devices given the same
attributes face the same draws, so their skips can be compared
(rdma_core_parity.py).
"""

import argparse
import os
import random
import sys
import traceback
import unittest

from arbeltest import ktap

RDMA_CORE = '/opt/rdma-core'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--dev', default='mthca0')
    ap.add_argument('--port', type=int, default=1)
    ap.add_argument('--poll-timeout', type=float, default=5)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('modules', nargs='+')
    args = ap.parse_args()
    k = ktap.Ktap()
    if not os.path.isdir(os.path.join(RDMA_CORE, 'tests')):
        for m in args.modules:
            k.skip(f'rdma-core {m}', f'{RDMA_CORE}/tests missing')
        return k.finish()
    # as verbs_guest.py: rdma-core's tests import args_parser from their
    # own directory, and read --dev/--port from sys.argv through it
    sys.path.insert(0, RDMA_CORE)
    sys.path.append(os.path.join(RDMA_CORE, 'tests'))
    sys.argv = [sys.argv[0], '--dev', args.dev, '--port', str(args.port)]
    try:
        from args_parser import parser  # pylint: disable=import-outside-toplevel
        parser.parse_args()
        import tests.utils  # pylint: disable=import-outside-toplevel
        tests.utils.POLL_CQ_TIMEOUT = args.poll_timeout
    except Exception:   # pylint: disable=broad-except
        k.fail('rdma-core: loading the tests', traceback.format_exc())
        return k.finish()
    for m in args.modules:
        k.diag(f'rdma-core tests.{m}')
        try:
            suite = unittest.defaultTestLoader.loadTestsFromName(f'tests.{m}')
        except Exception:   # pylint: disable=broad-except
            k.fail(f'rdma-core {m}: import', traceback.format_exc())
            continue
        ktap.run_unittest(suite, k, before=lambda t: random.seed(
            f'{args.seed}:{t.id()}'))
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
