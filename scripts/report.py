#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The reporter of make check: one line per stage and the total.

scripts/check.sh keeps each stage's stdout, its KTAP, in
build/check-NAME.ktap and its exit status in build/check-NAME.rc.  For
every stage named on the command line (default: every build/check-*.ktap,
oldest first) this prints the names of its failed cases and then

    NAME: N passed, N failed[, N skipped]

counting the leaf results of its KTAP (arbeltest.ktap.parse), and last

    check: N passed, N failed[, N skipped]

over all of them.  A skip is never counted as passed.  A stage with no
result at all, or whose exit status is non-zero (or missing) while its
KTAP shows no failure, counts one failed case.  Exits 1 if any case
failed, else 0.
"""

import argparse
import glob
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'tests', 'pylib'))

from arbeltest import ktap  # noqa: E402


class StageResult:
    """The counts of one stage, with the stage-level failure folded in."""

    def __init__(self, name, summary, rc):
        self.name = name
        self.passed = summary.passed
        self.failed = summary.failed
        self.skipped = summary.skipped
        self.failures = list(summary.failures)
        if summary.total == 0:
            self.failed += 1
            self.failures.append('no result')
        elif rc is None and not summary.failed:
            self.failed += 1
            self.failures.append('no exit status')
        elif rc and not summary.failed:
            self.failed += 1
            self.failures.append(f'exit status {rc}')


def counts(passed, failed, skipped):
    """'N passed, N failed' and ', N skipped' when there are skips."""
    line = f'{passed} passed, {failed} failed'
    return line + (f', {skipped} skipped' if skipped else '')


def read_stage(directory, name):
    """StageResult of build/check-NAME.ktap and build/check-NAME.rc."""
    base = os.path.join(directory, f'check-{name}')
    try:
        with open(base + '.ktap', encoding='utf-8', errors='replace') as f:
            summary = ktap.parse(f)
    except FileNotFoundError:
        summary = ktap.Summary()
    try:
        with open(base + '.rc', encoding='utf-8') as f:
            rc = int(f.read().strip())
    except (FileNotFoundError, ValueError):
        rc = None
    return StageResult(name, summary, rc)


def stages_in(directory):
    """The stage names of the KTAP files in directory, oldest first."""
    paths = sorted(glob.glob(os.path.join(directory, 'check-*.ktap')),
                   key=os.path.getmtime)
    return [os.path.basename(p)[len('check-'):-len('.ktap')] for p in paths]


def report(results, out=sys.stdout):
    """Print the stages' lines and the total; return the exit status."""
    total = [0, 0, 0]
    for r in results:
        for name in r.failures:
            print(f'{r.name}: not ok: {name}', file=out)
        print(f'{r.name}: {counts(r.passed, r.failed, r.skipped)}', file=out)
        total = [total[0] + r.passed, total[1] + r.failed,
                 total[2] + r.skipped]
    print(f'check: {counts(*total)}', file=out)
    return 1 if total[1] else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--dir', default=os.path.join(TOP, 'build'),
                    help='where the check-NAME.ktap and .rc files are')
    ap.add_argument('stages', nargs='*', help='stage names, in order')
    args = ap.parse_args()
    names = args.stages or stages_in(args.dir)
    if not names:
        print(f'report: no stage results in {args.dir}', file=sys.stderr)
        print('check: 0 passed, 1 failed')
        return 1
    return report([read_stage(args.dir, n) for n in names])


if __name__ == '__main__':
    sys.exit(main())
