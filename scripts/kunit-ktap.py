#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The KTAP of one KUnit run, for scripts/kunit.sh, intree.sh, kunit-x86.sh.

Prints, as one KTAP stream on stdout:
  - the kernel's own KTAP, as kunit.py extracts it from the raw console
    log ("kunit.py parse --raw_output=kunit"), nested under one result:
    every KUnit case (every parameter of a parameterized case) is a leaf;
  - then the checks kunit.py does not make, one result each: kunit.py run
    exited 0 (no failed or crashed case, the kernel built and booted), at
    least one case ran, no case was skipped, and no kernel warning, BUG,
    panic, sanitizer or lockdep report in the raw log (6.1's KUnit does not
    fail a case for those).
Exits 1 if any of it failed.
"""

import argparse
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'tests', 'pylib'))

from arbeltest import ktap  # noqa: E402

KERNEL_REPORT_RE = re.compile(
    r'BUG: KASAN|UBSAN:|WARNING:|BUG:|Kernel panic|'
    r'possible recursive locking|circular locking')
INDENT = '    '


def kernel_ktap(tree, raw):
    """The KTAP lines kunit.py finds in the raw console log RAW, and
    kunit.py's exit status."""
    kunit_py = os.path.join(tree, 'tools', 'testing', 'kunit', 'kunit.py')
    run = subprocess.run(
        [sys.executable, kunit_py, 'parse', '--raw_output=kunit',
         os.path.abspath(raw)],
        cwd=tree, stdout=subprocess.PIPE, text=True, check=False)
    return run.stdout.splitlines(), run.returncode


TIMESTAMP_RE = re.compile(r'^\[\s*\d+\.\d+\] ?')
SUBTEST_RE = re.compile(r'^(\s*)# Subtest: ')


def module_raw(dmesg, path):
    """Write to PATH the KTAP of the suites a module ran when it was loaded,
    from the kernel log DMESG, and return PATH.  Suites run at insmod print
    no top-level header: this adds "KTAP version 1" and the plan (one test
    per suite: the least indented "# Subtest:" lines) before the first
    suite, and drops the timestamps."""
    with open(dmesg, encoding='utf-8', errors='replace') as f:
        lines = [TIMESTAMP_RE.sub('', ln.rstrip('\n')) for ln in f]
    heads = [(i, len(m.group(1))) for i, ln in enumerate(lines)
             if (m := SUBTEST_RE.match(ln))]
    with open(path, 'w', encoding='utf-8') as f:
        if heads:
            top = min(indent for _, indent in heads)
            n = sum(1 for _, indent in heads if indent == top)
            first = heads[0][0]
            if first and lines[first - 1].strip().startswith('KTAP version'):
                first -= 1
            f.write(f'KTAP version 1\n1..{n}\n')
            f.write('\n'.join(lines[first:]) + '\n')
    return path


def tail(path, n=30):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return ''.join(f.readlines()[-n:])
    except OSError as e:
        return str(e)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--tree', required=True, help='the kernel tree')
    ap.add_argument('--log', required=True, help="kunit.py run's output")
    ap.add_argument('--raw', required=True, help="the kernel's console log")
    ap.add_argument('--rc', required=True, type=int,
                    help="kunit.py run's exit status")
    ap.add_argument('--module', action='store_true',
                    help='the suites ran when a module was loaded in the '
                    'VM (scripts/kunit-x86.sh): --raw is the kernel log, '
                    '--log and --rc are the VM run\'s')
    args = ap.parse_args()

    out = ktap.Ktap()
    has_raw = os.path.isfile(args.raw)
    if has_raw and args.module:
        args.raw = module_raw(args.raw, os.path.join(
            os.path.dirname(os.path.abspath(args.raw)), 'kunit-raw.log'))
    lines, parse_rc = kernel_ktap(args.tree, args.raw) if has_raw else ([], 0)
    cases = ktap.parse(lines)
    for line in lines:
        print(INDENT + line if line else '')
    if not has_raw:
        out.fail('KUnit cases', f'no raw log at {args.raw}')
    elif parse_rc:
        out.fail('KUnit cases', f'kunit.py parse exited {parse_rc}')
    else:
        out.check(cases.total and not cases.failed, 'KUnit cases',
                  lambda: f'failed: {", ".join(cases.failures) or "none"}')

    out.check(args.rc == 0, 'the VM run exited 0 (booted, the module '
              'loaded and removed, no kernel report)' if args.module else
              'kunit.py run exited 0 (built, booted, no case '
              'failed or crashed)',
              lambda: f'exit status {args.rc}; the end of {args.log}:\n'
              + tail(args.log))
    out.check(cases.total > 0, 'KUnit ran at least one case',
              f'no KUnit result in {args.raw}')
    out.check(not cases.skipped, 'no KUnit case skipped',
              lambda: 'skipped: ' + ', '.join(cases.skips))
    if has_raw:
        with open(args.raw, encoding='utf-8', errors='replace') as f:
            reports = [ln.rstrip('\n') for ln in f
                       if KERNEL_REPORT_RE.search(ln)]
        out.check(not reports, 'kernel log: no warning, BUG, panic, '
                  'sanitizer or lockdep report',
                  lambda: '\n'.join(reports[:50]))
    else:
        out.fail('kernel log: no warning, BUG, panic, sanitizer or lockdep '
                 'report', f'no raw log at {args.raw}')
    return out.finish()


if __name__ == '__main__':
    sys.exit(main())
