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
- the stub's view: QEMU's log DIR/stub-trace.txt, its trace events
  (arbel_*) and the guest-error reports (the rest of the file).
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
# commands that give back what the HCA was given
TEARDOWN_COMMANDS = ('HW2SW_MPT', 'UNMAP_ICM', 'UNMAP_ICM_AUX', 'UNMAP_FA',
                     'CLOSE_HCA')


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
    """Whether a RESET of the same device comes after cmd, in the file's
    order, before any other command."""
    after = False
    for e in entries:
        if e is cmd:
            after = True
        elif after:
            if e.seq < cmd.seq:     # another device's trace (trace.py)
                return False
            if e.name == 'RESET':
                return True
            if e.is_command:
                return False
    return False


def live_mpts(entries):
    """Walk the trace: (problems, MPT entries hardware-owned at the end).
    A successful SW2HW_MPT makes its slot hardware-owned, a successful
    HW2SW_MPT gives it back, a RESET gives back every one; so does the
    start of another device's trace (a number lower than the one before,
    trace.py)."""
    live, problems, seq = set(), [], 0
    for e in entries:
        if e.seq < seq:
            live.clear()
        seq = e.seq
        if e.name == 'RESET':
            live.clear()
        elif e.is_command and e.status == 0 and e.name == 'SW2HW_MPT':
            if e.in_mod in live:
                problems.append(f'SW2HW_MPT of live slot {e.in_mod:#x}: '
                                f'{e.raw[:120]}')
            live.add(e.in_mod)
        elif e.is_command and e.status == 0 and e.name == 'HW2SW_MPT':
            if e.in_mod not in live:
                problems.append(f'HW2SW_MPT of slot {e.in_mod:#x} not live: '
                                f'{e.raw[:120]}')
            live.discard(e.in_mod)
    return problems, len(live)


def trace_checks(k, vm_dir, subset=False):
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
    problems, live = live_mpts(entries)
    # at the end only the driver's own entry may be live: its EQ ring's
    # region, while the module stays loaded in event mode
    k.check(not problems and live <= 1,
            'stub trace: every SW2HW_MPT is undone by one HW2SW_MPT or by a '
            'RESET (which takes every entry back); at most one (the EQ '
            'ring\'s region) left at the end',
            ' | '.join(problems[:3]) or f'{live} entries live at the end')
    # a refused teardown command is not retried: the driver resets the HCA
    # (Documentation/arbel.rst, "Failure policy")
    all_cmds = trace.commands(entries)
    refused = [c for c in all_cmds if c.name in TEARDOWN_COMMANDS and
               c.status != 0]
    k.check(all(_reset_follows(entries, c) for c in refused),
            f'stub trace: the HCA is reset after each refused teardown '
            f'command ({len(refused)}: '
            f'{", ".join(sorted({c.name for c in refused})) or "none"}), '
            'before any other command',
            ' | '.join(c.raw[:120] for c in refused
                       if not _reset_follows(entries, c)))
    q = sum(c.name == 'QUERY_MPT' for c in cmds)
    name = f'stub trace: rdma -r res show mr reads the MPTs with QUERY_MPT ({q})'
    if subset and not q:
        k.skip(name, 'only some suites ran (--suites), none of them reads '
               'the MPTs through rdma res')
    else:
        k.check(q > 0, name, 'none')
    refused = [e for e in entries if e.is_xlate and
               e.result == dbgwin.result('BAD_REQUEST')]
    k.check(not refused, 'stub trace: no translation refused as BAD_REQUEST '
            '(test plumbing)', f'{len(refused)}: ' +
            ' | '.join(e.raw[:200] for e in refused[:3]))


def debug_log_check(k, vm_dir):
    path = os.path.join(vm_dir, 'stub-trace.txt')
    if not os.path.exists(path):
        k.diag(f'no {path}')
        return
    complaints = [ln for ln in trace.other_lines(path) if ln.strip()]
    k.check(not complaints, 'stub: no guest-error reports in QEMU\'s log',
            ' | '.join(c[:200] for c in complaints[:3]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--vm-dir', required=True)
    ap.add_argument('--vm-rc', type=int)
    ap.add_argument('--subset', action='store_true',
                    help='the guest ran only some suites (--suites)')
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
        trace_checks(k, args.vm_dir, args.subset)
        debug_log_check(k, args.vm_dir)
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
