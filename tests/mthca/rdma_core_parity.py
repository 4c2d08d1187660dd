#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rdma-core's traffic tests: nothing skipped on arbel0 that runs on mthca0.

  rdma_core_parity.py REF.ktap OTHER.ktap...

REF is the KTAP of the stage that ran rdma-core's tests on Debian's
ib_mthca (build/check-mthca-traffic.ktap), each OTHER that of a stage that
ran them on arbel.ko over the same stub (arbel-traffic, arbel-traffic-6.12).
Issue 28 asks that arbel0 skip nothing of rdma-core's that runs on mthca0:
same libmthca, same stub, so a test that passes on mthca0 and is skipped,
failed or missing on arbel0 is the kernel driver's doing.

One result per OTHER and rdma-core module (traffic_cases.RDMA_CORE_MODULES):
it fails naming every test that passed in REF but not in OTHER, with
OTHER's status and reason.  A test skipped in REF that passed in OTHER is
a diagnostic (arbel0 doing more).  A module REF or OTHER has no result of
(the stage did not run, or not that module) is a skip.

rdma_core_tests.py seeds each test's random draws by its name, so both
drivers face the same QP attributes; that is what makes the skips
comparable at all.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'pylib'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arbeltest import ktap  # noqa: E402 pylint: disable=wrong-import-position
import traffic_cases as tc  # noqa: E402 pylint: disable=wrong-import-position

# a result of rdma_core_tests.py: MODULE.Class.test, relayed as it is
TEST_RE = re.compile(r'(?:^|\s)(?P<test>(?P<module>test_\w+)\.\w+\.test_\w+)$')


def by_module(path):
    """{module: {MODULE.Class.test: (status, reason)}} of rdma-core's
    results in the KTAP file at @path; None if it cannot be read."""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            results = ktap.parse(f).results
    except OSError:
        return None
    out = {}
    for name, res in results.items():
        m = TEST_RE.search(name)
        if m:
            out.setdefault(m.group('module'), {})[m.group('test')] = res
    return out


def compare(ref, other):
    """(what OTHER lacks of REF's passes, what OTHER passes that REF
    skipped): lists of strings, for one module's results."""
    lacks, more = [], []
    for test, (status, _) in sorted(ref.items()):
        got, why = other.get(test, ('missing', ''))
        if status == 'ok' and got != 'ok':
            lacks.append(f'{test}: {got}' + (f' ({why})' if why else ''))
        elif status == 'skip' and got == 'ok':
            more.append(test)
    return lacks, more


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    k = ktap.Ktap()
    ref_path, others = argv[0], argv[1:]
    ref = by_module(ref_path) or {}
    for path in others:
        stage = os.path.basename(path).removeprefix('check-')
        stage = stage.removesuffix('.ktap')
        other = by_module(path) or {}
        for module, _ in tc.RDMA_CORE_MODULES:
            name = f'{stage}: rdma-core {module} runs what mthca0 runs'
            if module not in ref or module not in other:
                where = ref_path if module not in ref else path
                k.skip(name, f'no result of {module} in {where}')
                continue
            lacks, more = compare(ref[module], other[module])
            for test in more:
                k.diag(f'{stage}: {test} passes, skipped on mthca0')
            k.check(not lacks, name,
                    f'{len(lacks)} tests that pass on mthca0 do not here: '
                    + '; '.join(lacks))
    return k.finish()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
