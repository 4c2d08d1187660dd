#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host half of tests/verbs/run.sh: the stage's one KTAP stream.

  judge.py --vm-dir DIR --vm-rc N [--setup-error MSG]...

Prints, as one KTAP stream (exit status 1 if anything failed):
- the host-side unit tests of the verbs tests' expectations
  (tests/verbs/test_expect.py) against hand-made goldens (the PRM decoder's
  and restrack's, tests/pylib/tests, run in the pylib stage);
- the VM run (scripts/vm/run.sh's exit status: boot, module, no splat);
- the guest's KTAP (DIR/output.txt, printed by verbs_guest.py) nested as
  the subtests of one "verbs-guest" result;
- the stub's view: its command trace (DIR/stub-trace.txt) and its
  guest-error log (DIR/qemu-debug.log).
"""

import argparse
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, 'tests', 'pylib'))

from arbeltest import dbgwin, ktap, trace, vmout  # noqa: E402  pylint: disable=wrong-import-position

MPT_COMMANDS = ('SW2HW_MPT', 'WRITE_MTT', 'HW2SW_MPT', 'QUERY_MPT')


def host_tests(k):
    """The host-side unit tests, one KTAP result each."""
    suite = unittest.TestSuite()
    suite.addTests(unittest.TestLoader().discover(HERE, pattern='test_expect.py',
                                                  top_level_dir=HERE))
    ktap.run_unittest(suite, k)


def vm_result(k, vm_dir, rc):
    """scripts/vm/run.sh's status (CMD itself always exits 0)."""
    if rc == 0:
        k.ok('VM: boots, loads arbel.ko, runs the guest steps, no kernel splat')
    elif rc == 122:
        k.fail('VM: no kernel splat', ' | '.join((vmout.splats(vm_dir) or [])[:3]))
    else:
        err = vmout.read_lines(os.path.join(os.path.dirname(vm_dir), 'run.err'))
        k.fail('VM: run', f'scripts/vm/run.sh exit {rc}: ' +
               ' | '.join((err or [])[-5:]))


def guest_ktap(k, vm_dir):
    """Nest the guest's KTAP (its results are our subtests) under one
    parent result, then a result of our own: the guest ran to its plan (a
    parent is not counted as a case, this one is)."""
    lines = vmout.read_lines(os.path.join(vm_dir, 'output.txt')) or []
    try:
        start = lines.index('KTAP version 1')
    except ValueError:
        k.fail('verbs_guest.py ran to the end',
               'no KTAP from verbs_guest.py in output.txt: ' +
               ' | '.join(lines[-5:]))
        return
    with k.subtests('verbs-guest') as sub:
        relayed = sub.relay(lines[start:])
    k.ran_to_end(relayed, 'verbs_guest.py')


def _reset_follows(entries, cmd):
    """Whether a RESET comes after cmd before any other command."""
    for e in entries:
        if e.seq <= cmd.seq:
            continue
        if e.name == 'RESET':
            return True
        if e.is_command:
            return False
    return False


def trace_checks(k, vm_dir):
    path = os.path.join(vm_dir, 'stub-trace.txt')
    if not os.path.exists(path) or not os.path.getsize(path):
        k.fail('stub trace', f'{path} missing or empty')
        return
    entries = trace.parse(path)
    cmds = [c for c in trace.commands(entries) if c.name in MPT_COMMANDS]
    for op in MPT_COMMANDS:
        these = [c for c in cmds if c.name == op]
        k.diag(f'trace: {op} {len(these)} commands, '
               f'{sum(c.status != 0 for c in these)} not OK')
    injected = [c for c in trace.commands(entries) if c.fault == 'injected-failure']
    bad = [c for c in cmds if c.status != 0 and c.fault != 'injected-failure']
    k.check(not bad, 'stub trace: every SW2HW_MPT, WRITE_MTT, HW2SW_MPT, '
            f'QUERY_MPT returned OK (but the {len(injected)} injected failures)',
            ' | '.join(c.raw[:200] for c in bad[:3]))
    # Every entry SW2HW_MPT hands over is taken back by a HW2SW_MPT or by
    # a reset (a refused HW2SW_MPT is not retried: the driver resets the
    # HCA, Documentation/arbel.rst "Failure policy"; a fatal error resets
    # it too).  At the end only the driver's own may be left: its EQ
    # ring's region, while the module stays loaded.
    live = set()
    for e in entries:
        if e.name == 'RESET':
            live.clear()
        elif e.name == 'SW2HW_MPT' and e.status == 0:
            live.add(e.in_mod)
        elif e.name == 'HW2SW_MPT' and e.status == 0:
            live.discard(e.in_mod)
    sw = sum(c.name == 'SW2HW_MPT' and c.status == 0 for c in cmds)
    refused_hw = [c for c in cmds if c.name == 'HW2SW_MPT' and c.status != 0]
    k.check(len(live) <= 1,
            f'stub trace: every SW2HW_MPT ({sw}) taken back by HW2SW_MPT or '
            'a reset, but at most one (the EQ ring\'s region) at the end',
            f'left: {sorted(hex(x) for x in live)}')
    k.check(all(_reset_follows(entries, c) for c in refused_hw),
            f'stub trace: the HCA is reset after each refused HW2SW_MPT '
            f'({len(refused_hw)}), before any other command',
            ' | '.join(c.raw[:120] for c in refused_hw
                       if not _reset_follows(entries, c)))
    q = sum(c.name == 'QUERY_MPT' for c in cmds)
    k.check(q > 0, f'stub trace: rdma -r res show mr reads the MPTs with '
            f'QUERY_MPT ({q})', 'none')
    refused = [e for e in entries if e.is_xlate and
               e.result == dbgwin.result('BAD_REQUEST')]
    k.check(not refused, 'stub trace: no translation refused as BAD_REQUEST '
            '(test plumbing)', f'{len(refused)}: ' +
            ' | '.join(e.raw[:200] for e in refused[:3]))


def debug_log_check(k, vm_dir):
    path = os.path.join(vm_dir, 'qemu-debug.log')
    lines = vmout.read_lines(path)
    if lines is None:
        k.diag(f'no {path}')
        return
    complaints = [ln for ln in lines if ln.strip()]
    k.check(not complaints, 'stub: no guest-error reports in qemu-debug.log',
            ' | '.join(c[:200] for c in complaints[:3]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--vm-dir', required=True)
    ap.add_argument('--vm-rc', type=int)
    ap.add_argument('--setup-error', action='append', default=[],
                    help='a setup step that failed (the VM did not run)')
    args = ap.parse_args()
    k = ktap.Ktap()
    host_tests(k)
    for err in args.setup_error:
        k.fail('setup', err)
    if args.vm_rc is not None:
        vm_result(k, args.vm_dir, args.vm_rc)
        guest_ktap(k, args.vm_dir)
        trace_checks(k, args.vm_dir)
        debug_log_check(k, args.vm_dir)
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
