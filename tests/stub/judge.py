#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host half of tests/stub/run.sh: the conformance stage's one KTAP stream.

  judge.py --out DIR [--mthca-skip WHY] [--setup-error MSG]...
  judge.py --stage mthca --out DIR [--mthca-skip WHY] [--setup-error MSG]...
  judge.py --stage mthca-traffic --out DIR [--mthca-skip WHY] ...
  judge.py --stage arbel-traffic --out DIR [--setup-error MSG]...
  judge.py --stage mthca-fabric|arbel-fabric --out DIR [--mthca-skip WHY] ...
  judge.py --stage rxe-fabric --out DIR [--setup-error MSG]...

run.sh leaves one directory per VM run in DIR, each with rc (the exit
status of scripts/vm/run.sh) and VM_OUT's files (output.txt,
stub-trace.txt, dmesg.txt):
  conformance/   arbel-conformance, every suite
  prop-faults/   arbel-conformance --prop-fault: faults set as device
                 properties
  mthca-intx/    Debian's ib_mthca loaded and removed with msix=off: INTx
                 and clear-interrupt
With --stage mthca (tests/mthca/run.sh) the one run is DIR/mthca:
mthca_guest.py's results (ib_mthca on the default stub, MSI-X) and the
same trace checks.  With --stage mthca-traffic (tests/mthca/run.sh
traffic) the one run is DIR/traffic: traffic_guest.py's results (the
real clients on ib_mthca), then trace_notes.py's report of what the stub
left undone (unconfirmed notes, refused commands, QEMU's -d reports) as
diagnostics, no result: no source makes them failures.  --stage
arbel-traffic (tests/mthca/run.sh arbel) judges the same clients run on
arbel.ko the same way, --stage mthca-fabric (tests/fabric/run.sh) the
run DIR/fabric: fabric_guest.py's results (IPoIB, rdma_cm, the SA and
the storage group on ib_mthca; --stage arbel-fabric on arbel, --stage
rxe-fabric the storage group alone on rdma_rxe).
First the judge's own tests (test_judge.py), then each run as one
top-level result whose subtests are: the VM run, the guest's KTAP results
renumbered into it, whether the guest ran to the end, and the checks of
the stub's trace (trace_checks.py): its record of the first run's
commands, and ib_mthca's command sequence.  Exits 1 if anything failed.
"""

import argparse
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'pylib'))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True     # no __pycache__ in the source tree

from arbeltest import ktap, trace, vmout  # noqa: E402
import trace_checks  # noqa: E402
import trace_notes  # noqa: E402

# scripts/vm/run.sh's exit status for a kernel splat after CMD succeeded
RC_SPLAT = 122


def read_rc(run_dir):
    """run.sh's exit status for this run, None if it did not run."""
    lines = vmout.read_lines(os.path.join(run_dir, 'rc'))
    try:
        return int(lines[0])
    except (TypeError, IndexError, ValueError):
        return None


def vm_check(sub, run_dir, rc, want):
    """The VM run itself: it finished with exit status @want (CMD's), not
    a timeout, harness failure or kernel splat."""
    detail = f'scripts/vm/run.sh exit {rc}, expected {want}'
    if rc == RC_SPLAT:
        detail += ': kernel splat: ' + ' | '.join(
            (vmout.splats(run_dir) or [])[:3])
    elif rc is None:
        detail = f'no exit status in {run_dir}/rc: the VM did not run'
    elif rc != want:
        err = vmout.read_lines(os.path.join(run_dir, 'run.log')) or []
        detail += ': ' + ' | '.join(err[-3:])
    sub.check(rc == want, 'VM run: finished, no kernel splat', detail)


def read_trace(sub, run_dir):
    """The run's stub trace, or None after a failed result."""
    path = os.path.join(run_dir, 'stub-trace.txt')
    if not os.path.exists(path) or not os.path.getsize(path):
        sub.fail('stub trace', f'{path} missing or empty')
        return None
    return trace.parse(path)


def judge_run(k, name, run_dir, program=None, checks=None):
    """One VM run as one result of @k with its checks as subtests.

    A guest @program exits 1 if one of its results failed, else 0; a run
    without one (its CMD ends in "; true") exits 0.
    """
    k.diag(f'{name}: {run_dir}')
    with k.subtests(name) as sub:
        lines = []
        if program:
            lines = vmout.read_lines(os.path.join(run_dir, 'output.txt')) or []
        vm_check(sub, run_dir, read_rc(run_dir),
                 1 if ktap.parse(lines).failed else 0)
        if program:
            sub.ran_to_end(sub.relay(lines, echo=True), program)
        if checks:
            entries = read_trace(sub, run_dir)
            if entries is not None:
                for check_name, ok, detail in checks(entries):
                    sub.check(ok, check_name, detail)


def self_test(k):
    """The judge's own tests (test_judge.py) as one result with subtests."""
    k.diag('judge self-test: test_judge.py')
    with k.subtests('judge self-test') as sub:
        suite = unittest.TestLoader().loadTestsFromName('test_judge')
        ktap.run_unittest(suite, sub)


TEARDOWN_CHECKS = ('all undone', 'teardown ends', 'MAD sent')


def judge_mthca(k, args):
    """The mthca stage: its one VM run (DIR/mthca)."""
    for err in args.setup_error:
        k.fail('setup', err)
    if args.setup_error:
        return k.finish()
    if args.mthca_skip:
        k.skip('ib_mthca', args.mthca_skip)
        return k.finish()
    checks = trace_checks.mthca_msix
    if args.no_unload:
        # the teardown sequence needs the rmmod that did not run
        def checks(entries):
            return [c for c in trace_checks.mthca_msix(entries)
                    if not any(t in c[0] for t in TEARDOWN_CHECKS)]
    judge_run(k, 'ib_mthca', os.path.join(args.out, 'mthca'),
              program='mthca_guest.py', checks=checks)
    if args.no_unload:
        k.skip('ib_mthca: the teardown command sequence', args.no_unload)
    return k.finish()


def judge_traffic(k, args, name='ib_mthca traffic', run='traffic',
                  program='traffic_guest.py'):
    """The mthca-traffic stage (the arbel-traffic stage with @name 'arbel
    traffic'; the mthca-fabric stage with 'ib_mthca fabric', @run 'fabric'
    and its @program): its one VM run (DIR/@run), then the report of the
    stub's trace."""
    for err in args.setup_error:
        k.fail('setup', err)
    if args.setup_error:
        return k.finish()
    if args.mthca_skip:
        k.skip(name, args.mthca_skip)
        return k.finish()
    run_dir = os.path.join(args.out, run)
    judge_run(k, name, run_dir, program=program)
    path = os.path.join(run_dir, 'stub-trace.txt')
    if os.path.exists(path):
        for line in trace_notes.report(trace.parse(path),
                                       trace.other_lines(path)):
            k.diag(line)
    return k.finish()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True, help="run.sh's output directory")
    ap.add_argument('--stage', choices=('conformance', 'mthca', 'mthca-traffic',
                                        'arbel-traffic', 'mthca-fabric',
                                        'arbel-fabric', 'rxe-fabric'),
                    default='conformance', help='which stage to judge')
    ap.add_argument('--mthca-skip', help='why ib_mthca did not run')
    ap.add_argument('--no-unload', help='why ib_mthca was not removed')
    ap.add_argument('--setup-error', action='append', default=[],
                    help='a setup step that failed (nothing ran)')
    args = ap.parse_args()
    k = ktap.Ktap()
    if args.stage == 'mthca':
        return judge_mthca(k, args)
    if args.stage == 'mthca-traffic':
        return judge_traffic(k, args)
    if args.stage == 'arbel-traffic':
        return judge_traffic(k, args, 'arbel traffic')
    if args.stage in ('mthca-fabric', 'arbel-fabric', 'rxe-fabric'):
        name = {'mthca-fabric': 'ib_mthca', 'arbel-fabric': 'arbel',
                'rxe-fabric': 'rdma_rxe'}[args.stage]
        return judge_traffic(k, args, f'{name} fabric', 'fabric',
                             'fabric_guest.py')
    self_test(k)
    for err in args.setup_error:
        k.fail('setup', err)
    if args.setup_error:
        return k.finish()
    judge_run(k, 'conformance', os.path.join(args.out, 'conformance'),
              program='arbel-conformance',
              checks=trace_checks.conformance_trace)
    judge_run(k, 'property faults', os.path.join(args.out, 'prop-faults'),
              program='arbel-conformance --prop-fault')
    if args.mthca_skip:
        k.skip('ib_mthca', args.mthca_skip)
    else:
        judge_run(k, 'ib_mthca msix=off',
                  os.path.join(args.out, 'mthca-intx'),
                  checks=trace_checks.mthca_intx)
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
