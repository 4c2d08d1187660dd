#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host half of tests/vm/bringup.sh: judges its VM boots, prints KTAP.

For each phase (bringup_cases.PHASES) tests/vm/bringup.sh leaves in OUT:
  PHASE.out    the guest program's output (bringup_guest.py: KTAP)
  PHASE.rc     scripts/vm/run.sh's exit status; PHASE.err its stderr
  PHASE/       run.sh's VM_OUT: stub-trace.txt (QEMU's log), dmesg.txt
This prints one KTAP stream: the judge's own unit tests
(test_bringup_judge.py, hand-made traces); per boot, the guest's results
renumbered into it, the VM finished, the guest program ran to the end, no
kernel splat; then the stub's trace, cut at the guest's marks, step by
step (command sequence and statuses), the first load's debugfs counters
against the trace, and the stub's guest-error log.  Exits 1 if anything
failed.

  bringup_judge.py --out DIR [--ncycles N] [--timeout S] [--verbose] PHASE...
  bringup_judge.py --setup-failure NAME DETAIL     a failed build step
"""

import argparse
import collections
import json
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'pylib'))
sys.dont_write_bytecode = True     # no __pycache__ in the source tree

from arbeltest import ktap, trace, vmout  # noqa: E402
import bringup_cases as cases  # noqa: E402

# A step's commands are written as tokens "NAME:SS" (SS: the status in hex,
# "!" appended for an injected failure) and "RESET", each followed by a
# space, and matched against these patterns.
#
# The bring-up, from the reset to the dev_info line, then the event queue
# (its ring's region, SW2HW_EQ, MAP_EQ, the interrupt test), then the
# ports' links (INIT_IB each), then the ib_device's registration: NodeInfo,
# NodeDescription, PortInfo, P_Keys, GUIDs, and the MAD layer's queues.
# mthca's order: the EQ after INIT_HCA and QUERY_ADAPTER, its buffer's
# region before SW2HW_EQ, MAP_EQ before the NOP test.
HCA_UP = ('RESET (RESET )*QUERY_FW:00 ENABLE_LAM:22 (MAP_FA:00 )+RUN_FW:00 '
          'QUERY_DEV_LIM:00 SET_ICM_SIZE:00 MAP_ICM_AUX:00 (MAP_ICM:00 )+'
          'INIT_HCA:00 QUERY_ADAPTER:00 ')
EQ_UP = 'SW2HW_MPT:00 SW2HW_EQ:00 MAP_EQ:00 NOP:00 '
# the EQ torn down: MAP_EQ (unmap), HW2SW_EQ, the ring's region
EQ_DOWN = 'MAP_EQ:00 HW2SW_EQ:00 HW2SW_MPT:00 '
# The ports the driver brings up: the stub's default ports=2, the MT25208's
# two (arbel drives both, as ib_mthca).
PORTS = 2
# The kernel's MAD layer opening the ports once the ib_device is
# registered (ib_mad's QP0 and QP1 and what they need; arbel.rst, "Kernel
# queues"): the special QPs configured once (CONF_SPECIAL_QP for QP0's and
# QP1's numbers, both ports'), then for each port, in order: the PD's
# region, the CQ's buffer region, the CQ context's ICM page if it is the
# first CQ, the CQ, QP0's and QP1's buffer regions, then each QP through
# INIT and RTR to RTS.  The core's cache refresh runs from a work queue,
# so its MAD_IFC queries may come between any two.
MAD_PORT_UP_OPS = ('SW2HW_MPT:00 ', 'SW2HW_MPT:00 ', '(MAP_ICM:00 )?',
                   'SW2HW_CQ:00 ', 'SW2HW_MPT:00 ', 'SW2HW_MPT:00 ') + \
    ('RST2INIT_QPEE:00 ', 'INIT2RTR_QPEE:00 ', 'RTR2RTS_QPEE:00 ') * 2
MAD_UP_OPS = ('CONF_SPECIAL_QP:00 ', 'CONF_SPECIAL_QP:00 ') + \
    MAD_PORT_UP_OPS * PORTS


def among_mads(ops):
    """The pattern of ops in order, MAD_IFC commands allowed between."""
    return '(MAD_IFC:00 )*' + ''.join(f'{op}(MAD_IFC:00 )*' for op in ops)


# the links of both ports (INIT_IB each), then the registration's MADs
IB_UP = 'INIT_IB:00 ' * PORTS + '(MAD_IFC:00 )+' + among_mads(MAD_UP_OPS)
# On remove the MAD layer goes first, port by port, each in the reverse
# order of its bring-up (each QP to RESET and its buffer's region, the CQ,
# its region, the PD's), then the special QPs unconfigured and the CQ
# context's ICM page once no CQ is left, then the links.
MAD_DOWN = ('ERR2RST_QPEE:00 HW2SW_MPT:00 ERR2RST_QPEE:00 HW2SW_MPT:00 '
            'HW2SW_CQ:00 HW2SW_MPT:00 HW2SW_MPT:00 ' * PORTS +
            'CONF_SPECIAL_QP:00 CONF_SPECIAL_QP:00 (UNMAP_ICM:00 )?')
IB_DOWN = MAD_DOWN + 'CLOSE_IB:00 ' * PORTS
BRINGUP = HCA_UP + EQ_UP + IB_UP
# polling=1: no event queue at all
BRINGUP_POLLING = HCA_UP + IB_UP
# The teardown, on remove.
HCA_DOWN = 'CLOSE_HCA:00 (UNMAP_ICM:00 )+UNMAP_ICM_AUX:00 UNMAP_FA:00 '
TEARDOWN = IB_DOWN + EQ_DOWN + HCA_DOWN
TEARDOWN_POLLING = IB_DOWN + HCA_DOWN
# The MSI-X interrupt test's NOP fails once: the EQ again with INTx.
BRINGUP_MSIX_NOP = (HCA_UP + 'SW2HW_MPT:00 SW2HW_EQ:00 MAP_EQ:00 NOP:01! '
                    'MAP_EQ:00 HW2SW_EQ:00 SW2HW_EQ:00 MAP_EQ:00 NOP:00 ' +
                    IB_UP)
# (no MSI-X) the INTx interrupt test's NOP fails: polling, no EQ left.
BRINGUP_INTX_NOP = (HCA_UP + 'SW2HW_MPT:00 SW2HW_EQ:00 MAP_EQ:00 NOP:01! ' +
                    EQ_DOWN + IB_UP)
# Held QUERY_DEV_LIM: the bring-up up to it, then nothing (it never ends).
UP_TO_HELD_DEV_LIM = ('RESET (RESET )*QUERY_FW:00 ENABLE_LAM:22 (MAP_FA:00 )+'
                      'RUN_FW:00 (RESET )?')

# The undo of a bring-up step, in the order it runs (the reverse of the
# bring-up): (step, its undo, the undo's repeat -- EACH: once for every
# time the step succeeded --, whether the undo of a *failed* step is
# tolerated).  A step that succeeded must be undone; a step that did not
# run, must not.
EACH = 'each'
UNDO = (
    ('INIT_IB', 'CLOSE_IB', EACH, False),     # a port's link, each port's
    ('MAP_EQ', 'MAP_EQ', '', False),
    ('SW2HW_EQ', 'HW2SW_EQ', '', False),
    ('SW2HW_MPT', 'HW2SW_MPT', '', False),
    ('INIT_HCA', 'CLOSE_HCA', '', False),
    ('MAP_ICM', 'UNMAP_ICM', '+', False),
    ('MAP_ICM_AUX', 'UNMAP_ICM_AUX', '', True),
    ('MAP_FA', 'UNMAP_FA', '', True),
)

# what may come before the injected failure
BEFORE_OK = re.compile(r'RESET|[A-Z0-9_]+:00|ENABLE_LAM:22')


def tokens(entries):
    """A step's trace entries as tokens (see BRINGUP); notes other than
    RESET (EQEs, interrupts, unconfirmed: ...) are left out."""
    out = []
    for e in entries:
        if e.name == 'RESET':
            out.append('RESET')
            continue
        if not e.is_command:
            continue
        st = '??' if e.status is None else f'{e.status:02x}'
        bang = '!' if e.fault == 'injected-failure' else ''
        out.append(f'{e.name}:{st}{bang}')
    return out


def undo_pattern(before, failed_op):
    """What may follow the failure of failed_op after the tokens before it:
    the undo of exactly what succeeded, in reverse order, a RESET anywhere
    between the undo commands."""
    want = '(RESET )*'
    for step, undo, repeat, tolerated in UNDO:
        if f'{step}:00' in before:
            if repeat == EACH:
                repeat = f"{{{before.count(f'{step}:00')}}}"
            want += f'({undo}:00 ){repeat}(RESET )*'
        elif step == failed_op and tolerated:
            want += f'({undo}:00 )?(RESET )*'
    return want


class Phase:
    """One boot's files."""

    def __init__(self, out, name):
        self.name = name
        self.dir = os.path.join(out, name)
        self.out_file = os.path.join(out, f'{name}.out')
        rc = vmout.read_lines(os.path.join(out, f'{name}.rc'))
        self.rc = int(rc[0]) if rc else None
        err = vmout.read_lines(os.path.join(out, f'{name}.err')) or []
        self.err = ' '.join(err[-2:])
        self.guest = vmout.read_lines(self.out_file)
        self.trace_file = os.path.join(self.dir, 'stub-trace.txt')
        self.marks = None
        if os.path.exists(self.trace_file):
            self.marks = trace.split_marks(trace.parse(self.trace_file))

    def step(self, mark):
        """The tokens of the step after "stubctl mark N", or None."""
        if self.marks is None or mark not in self.marks:
            return None
        return tokens(self.marks[mark])


class Judge:
    """The stage's KTAP stream."""

    def __init__(self, args, out=None):
        self.t = ktap.Ktap(out)
        self.args = args

    # --- the guest's results and the boot --------------------------------
    def boot(self, ph):
        t, name = self.t, ph.name
        relayed = t.relay(ph.guest or [], echo=self.args.verbose)
        ended = f'end {name}' in relayed.notes
        vm = f'{name} boot: VM finished'
        why = {
            None: f'no {name}.rc: the VM was not booted',
            0: None,
            122: None,      # reported by the splat check below
            124: f'timeout (TIMEOUT={self.args.timeout}); see {ph.dir}/console.log',
            125: f'harness or guest failure (125): {ph.err}',
        }.get(ph.rc, f'run.sh exit {ph.rc}: {ph.err}')
        if why:
            t.fail(vm, why)
        t.ran_to_end(relayed, f'{name} boot: guest program', ended)
        splats = vmout.splats(ph.dir)
        if splats is None:
            t.fail(f'{name} boot: no kernel splat', f'no {ph.dir}/dmesg.txt')
        else:
            t.check(not splats, f'{name} boot: no kernel splat',
                    ' '.join(splats[:2]))

    # --- the stub's trace ------------------------------------------------
    def sequence(self, ph, name, mark, pattern):
        """The commands of step mark match pattern (the whole of them)."""
        tk = ph.step(mark)
        if tk is None:
            self.t.fail(name, f'no mark {mark} in {ph.trace_file} '
                              '(the guest did not get there)')
            return
        text = ''.join(f'{x} ' for x in tk)
        self.t.check(re.fullmatch(pattern, text), name,
                     f'trace: {text[:400]}')

    def undo(self, ph, name, mark, case):
        """A probe with one injected failure: everything before it
        succeeded, it is case's command and status, and nothing is issued
        after it but the undo of what succeeded (UNDO)."""
        t = self.t
        tk = ph.step(mark)
        if tk is None:
            t.fail(name, f'no mark {mark} in the trace')
            return
        text = ' '.join(tk)
        hit = [i for i, x in enumerate(tk) if x.endswith('!')]
        if not hit:
            t.fail(name, f'no injected failure in the trace: {text}')
            return
        f = hit[0]
        before, failed, after = tk[:f], tk[f], tk[f + 1:]
        if not all(BEFORE_OK.fullmatch(x) for x in before):
            t.fail(name, f'a command failed before the injected one: {text}')
            return
        if failed != f'{case.op}:{case.status:02x}!':
            t.fail(name, f'the injected failure is {failed}, not '
                         f'{case.op}:{case.status:02x}: {text}')
            return
        want = undo_pattern(before, case.op)
        rest = ''.join(f'{x} ' for x in after)
        t.check(re.fullmatch(want, rest), name,
                f"after {failed}: '{rest.strip()}', expected /^{want}$/")

    def debugfs_vs_trace(self, ph, basic_guest):
        """The first load's debugfs counters ("# debugfs-json" from the
        guest) equal the number of each command in the stub's trace."""
        name = 'debugfs: n matches the stub\'s trace'
        tk = ph.step(cases.MARK_LOAD)
        if tk is None:
            self.t.fail(name, f'no mark {cases.MARK_LOAD}')
            return
        values = None
        for line in basic_guest or []:
            if line.startswith('# debugfs-json '):
                values = json.loads(line[len('# debugfs-json '):])
        if not values:
            self.t.fail(name, 'no debugfs values from the guest')
            return
        in_trace = collections.Counter(x.split(':')[0] for x in tk)
        bad = [f'{op}:debugfs={v["n"]},trace={in_trace[op]}'
               for op, v in sorted(values.items())
               if v['n'] != str(in_trace[op])]
        self.t.check(not bad, name, ' '.join(bad))

    def no_stub_complaints(self, ph, name):
        """The stub logged no guest error (a protocol error of the driver:
        HCR written while go is set, bad access width, ...)."""
        path = os.path.join(ph.dir, 'stub-trace.txt')
        if not os.path.exists(path):
            self.t.fail(name, f'no {path}')
            return
        lines = trace.other_lines(path)
        top = collections.Counter(x for x in lines if 'arbel-stub' in x)
        self.t.check(not top, name, ' '.join(
            f'{n} x {x}' for x, n in top.most_common(3)))

    def check_basic(self, ph):
        seq, n = self.sequence, self.args.ncycles
        seq(ph, 'trace load: the bring-up sequence in order, statuses as expected',
            cases.MARK_LOAD, BRINGUP)
        self.debugfs_vs_trace(ph, ph.guest)
        seq(ph, 'trace unbind: CLOSE_HCA, UNMAP_ICM..., UNMAP_ICM_AUX, UNMAP_FA',
            cases.MARK_UNBIND, TEARDOWN)
        seq(ph, 'trace bind: the bring-up sequence again', cases.MARK_BIND,
            BRINGUP)
        seq(ph, 'trace rmmod: CLOSE_HCA, UNMAP_ICM..., UNMAP_ICM_AUX, UNMAP_FA',
            cases.MARK_RMMOD, TEARDOWN)
        seq(ph, f'trace cycles: {n} x (bring-up, teardown)', cases.MARK_CYCLES,
            f'({BRINGUP}{TEARDOWN}){{{n}}}')
        seq(ph, 'trace MSI-X NOP failed: the EQ again with INTx, then teardown',
            cases.MARK_MSIX_NOP, BRINGUP_MSIX_NOP + TEARDOWN)
        seq(ph, 'trace polling=1: no EQ commands at all', cases.MARK_POLLING,
            BRINGUP_POLLING + TEARDOWN_POLLING)
        self.no_stub_complaints(ph, 'basic: the stub logged no protocol error')

    def check_faults(self, ph):
        seq = self.sequence
        seq(ph, 'trace faults: clean load before the matrix', cases.MARK_BEFORE,
            BRINGUP + TEARDOWN)
        for i, case in enumerate(cases.FAULT_CASES):
            self.undo(ph, f'trace {case.name}: stops there, undoes what '
                          'succeeded in reverse', cases.fault_mark(i), case)
        seq(ph, 'trace faults: clean load after the matrix', cases.MARK_AFTER,
            BRINGUP + TEARDOWN)
        seq(ph, 'trace INTx NOP failed: EQ undone, polling, teardown without it',
            cases.MARK_INTX_NOP, BRINGUP_INTX_NOP + TEARDOWN_POLLING)
        seq(ph, 'trace hold QUERY_DEV_LIM: nothing runs after the held command',
            cases.MARK_HOLD_DEVLIM, UP_TO_HELD_DEV_LIM)
        seq(ph, 'trace hold QUERY_DEV_LIM: the next load resets and brings up',
            cases.MARK_HOLD_DEVLIM_NEXT, BRINGUP + TEARDOWN)
        seq(ph, f'trace hold CLOSE_HCA: load with cmd_timeout_ms={cases.HOLD_TIMEOUT_MS}',
            cases.MARK_HOLD_CLOSE_LOAD, BRINGUP)
        seq(ph, 'trace hold CLOSE_HCA: the link and the EQ go first, nothing '
                'runs after the held command', cases.MARK_HOLD_CLOSE,
            IB_DOWN + EQ_DOWN + '(RESET )?')
        seq(ph, 'trace hold CLOSE_HCA: the next load resets and brings up',
            cases.MARK_HOLD_CLOSE_NEXT, BRINGUP + TEARDOWN)
        self.no_stub_complaints(ph, 'faults: the stub logged no protocol error '
                                    '(no HCR write while go was held)')

    def run(self):
        a = self.args
        if a.setup_failure:
            self.t.fail(*a.setup_failure)
        else:
            # this judge against hand-made traces first (loaded by name,
            # as unittest does: the tests import this module)
            ktap.run_unittest(unittest.defaultTestLoader.loadTestsFromName(
                'test_bringup_judge'), self.t)
        for name in a.phases:
            if name not in cases.PHASES:
                self.t.fail('setup: phase', f"unknown phase '{name}' "
                            f'({", ".join(cases.PHASES)})')
                continue
            ph = Phase(a.out, name)
            self.t.diag(f'boot: {name}')
            self.boot(ph)
            getattr(self, f'check_{name}')(ph)
        status = self.t.finish()
        self.t.diag(f'bringup: {self.t.passed} passed, {self.t.failed} failed')
        return status


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--out', default='build/vm-bringup')
    p.add_argument('--ncycles', type=int, default=20)
    p.add_argument('--timeout', default='900')
    p.add_argument('--verbose', action='store_true')
    p.add_argument('--setup-failure', nargs=2, metavar=('NAME', 'DETAIL'))
    p.add_argument('phases', nargs='*')
    return Judge(p.parse_args()).run()


if __name__ == '__main__':
    sys.exit(main())
