#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Guest half of tests/mthca/run.sh: Debian's ib_mthca on arbel-stub.

Runs as CMD in the test VM (scripts/vm/run.sh, LOAD=0, VM_PYTHON=1) with
ib_mthca.ko, stubctl, the verbs stage's base.py, expect.py, uverbs_raw.py,
test_deep.py, tests/vm's bringup_guest.py and the suites here in
/opt/arbel/bin:

  mthca_guest.py [--cycles N] [--no-unload WHY]

  1. load: modprobe ib_uverbs, insmod ib_mthca.ko; the probe completes:
     mthca0 is registered, the stub has the HCA initialised, the kernel
     log has no mthca warning;
  2. the suites test_mthca_devinfo (ibv_devinfo against the stub's
     limits) and test_mthca_mr (user memory through libmthca, each key
     checked through the stub's translation engine), as the verbs stage
     runs its suites (verbs_guest.py's machinery, device mthca0);
  3. a port down/up (the stub's debug window posts the port events, as a
     cable pulled and put back): ib_sa then sends a ClassPortInfo MAD on
     the GSI QP, which must complete (the stub's send path) before rmmod
     can finish -- Debian's 6.12 kernel always does this after a port
     comes up, 6.1 only after a port event it sees;
  4. rmmod, bounded (a hang is a failure, not a VM timeout): nothing left
     mapped in the stub; N (default 20) load/unload cycles, each one
     registering mthca0 and leaving nothing mapped.

Prints KTAP; exits 1 if anything failed (the host's judge expects the
VM's status to say so).
"""

import argparse
import gc
import glob
import os
import re
import subprocess
import sys
import time
import unittest

from arbeltest import dbgwin, ktap
from bringup_guest import Klog, Stub, run

KO = '/opt/arbel/bin/ib_mthca.ko'
IBDEV = '/sys/class/infiniband/mthca0'
# mthca_warn/mthca_err lines: "ib_mthca 0000:00:03.0: ... failed/returned"
BAD_LOG = (r'ib_mthca.*(fail|returned|abort|error|timed? ?out|unknown|'
           r'unhandled)')


def loaded():
    return os.path.isdir('/sys/module/ib_mthca')


def insmod():
    """(status, output): insmod, then wait up to 10 s for mthca0 (the
    MAD layer brings the ports up after the probe returns)."""
    rc, out, _ = run('insmod', KO)
    for _ in range(100):
        if os.path.isdir(IBDEV):
            break
        time.sleep(0.1)
    return rc, out


def load(k, stub, klog):
    klog.mark()
    rc, out, _ = run('modprobe', 'ib_uverbs')
    k.check(rc == 0, 'load: modprobe ib_uverbs', out)
    k.check(stub.unmapped(), 'load: stub idle before the probe',
            lambda: stub.say('expect-unmapped'))
    rc, out = insmod()
    k.check(rc == 0, 'load: insmod ib_mthca.ko exits 0', f'{rc}: {out}')
    k.check(os.path.isdir(IBDEV), 'load: probe completes, mthca0 registered',
            lambda: f'no {IBDEV}; kernel: {klog.tail(5)}')
    k.check(stub.initialised(), 'load: the stub has the HCA initialised',
            lambda: stub.say('show'))
    time.sleep(1)       # the port events' cache updates
    bad = [x for x in klog.new() if re.search(BAD_LOG, x, re.I)]
    k.check(not bad, 'load: no ib_mthca warning in the kernel log',
            ' | '.join(bad[:3]))


def suites(k):
    import base  # pylint: disable=import-outside-toplevel
    base.CONFIG.update(device='mthca0', nr_hugepages=40)
    for name in ('test_mthca_devinfo', 'test_mthca_mr'):
        k.diag(f'suite {name}')
        suite = unittest.defaultTestLoader.loadTestsFromName(name)
        ktap.run_unittest(suite, k)
        if name == 'test_mthca_mr':
            base.fixture().close()


def uverbs_files():
    """This process's open /dev/infiniband files."""
    out = []
    for fd in glob.glob('/proc/self/fd/*'):
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith('/dev/infiniband/'):
            out.append(target)
    return out


RMMOD_LIMIT = 60        # seconds; the rmmod of a healthy device takes < 5


def port_bounce(k):
    """Port 1 down, then active, through the stub's debug window: the MAD
    layer's SA client queries the SA's ClassPortInfo on the GSI QP once
    the port is active again."""
    up = dbgwin.registers()['ARBEL_DBG_PORT_EVENT_UP']
    win = dbgwin.DebugWindow()
    try:
        before = win.read('PORT_EVENTS')
        win.write('PORT_EVENT', 1)
        win.write('PORT_EVENT', 1 | up)
        after = win.read('PORT_EVENTS')
    finally:
        win.close()
    k.check(after == before + 2,
            'port bounce: the stub posted port 1 down and active',
            f'port events posted: {before} before, {after} after')
    time.sleep(3)       # ib_sa's update_ib_cpi runs 1 s after the event


def rmmod_bounded():
    """(status, output) of rmmod ib_mthca, or (None, why) if it is still
    running after RMMOD_LIMIT seconds (it is left running)."""
    p = subprocess.Popen(['rmmod', 'ib_mthca'], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = p.communicate(timeout=RMMOD_LIMIT)
    except subprocess.TimeoutExpired:
        return None, f'still running after {RMMOD_LIMIT} s'
    return p.returncode, out.strip()


def unload_and_cycles(k, stub, n):
    # ib_mthca has no disassociate_ucontext: rmmod waits for every uverbs
    # file to close, forever.  pyverbs closes a context when its object
    # goes, which a reference cycle can delay until the next collection.
    gc.collect()
    held = uverbs_files()
    k.check(not held, 'rmmod: this process holds no uverbs file',
            ', '.join(held))
    if held:
        return
    port_bounce(k)
    rc, out = rmmod_bounded()
    k.check(rc == 0 and not loaded(),
            'rmmod after the port bounce: ib_mthca removed', f'{rc}: {out}')
    if rc is None:
        return
    k.check(stub.unmapped(), 'rmmod: stub reports nothing mapped',
            lambda: stub.say('expect-unmapped'))
    bad_load, bad_rm, mapped = [], [], []
    for i in range(1, n + 1):
        rc, out = insmod()
        if rc != 0 or not os.path.isdir(IBDEV) or not stub.mapped():
            bad_load.append(f'{i}(rc={rc})')
        rc, out, _ = run('rmmod', 'ib_mthca')
        if rc != 0 or loaded():
            bad_rm.append(f'{i}(rc={rc}:{out})')
        if not stub.unmapped():
            mapped.append(str(i))
    k.check(not bad_load, f'cycles: {n} loads, mthca0 registered every time',
            'failed at ' + ' '.join(bad_load))
    k.check(not bad_rm, f'cycles: {n} rmmods succeed',
            'failed at ' + ' '.join(bad_rm))
    k.check(not mapped, 'cycles: nothing mapped after every rmmod',
            'mapped after ' + ' '.join(mapped))
    k.diag('stub after cycles: ' + stub.show('fw_state', 'cmd_count'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--no-unload', metavar='WHY',
                    help='skip rmmod and the load/unload cycles (reported '
                    'as skipped, with WHY)')
    ap.add_argument('--cycles', type=int, default=20,
                    help='load/unload cycles (default 20)')
    args = ap.parse_args()
    k = ktap.Ktap()
    stub, klog = Stub(), Klog()
    load(k, stub, klog)
    if os.path.isdir(IBDEV):
        suites(k)
    else:
        k.fail('suites', 'no mthca0: nothing to test')
    if args.no_unload:
        k.skip('rmmod and load/unload cycles', args.no_unload)
    else:
        unload_and_cycles(k, stub, args.cycles)
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
