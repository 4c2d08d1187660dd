#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The stages of make check: one table, and the scheduler of its lanes.

Each stage has a name, a shell command (run by scripts/check.sh, where the
helper `on KERNEL NAME CMD...` is defined), where it runs -- 'first' (in
table order, before the lanes: the quick host checks and the module
builds the VM stages load) or 'lanes' with its cost in seconds (a warm
run's figure) -- the kernel it builds against or boots, what it needs and
a line saying what it checks.  A need is either another stage (it runs
first: its outputs are used, or the two must not run at once) or one of
RESOURCES (built on first use, under a lock, by whichever stage comes
first; listed so that a reader knows what a stage costs cold).

The lanes: N workers (2: a VM stage's guest runs on one core under TCG,
so two lanes fill a 2-core machine) take the ready stage (its needed
stages done) with the longest path ahead of it -- its cost plus the
longest chain of stages that need it -- whenever one of them is free;
lane 1 runs niced.  `check.sh` runs a stage as `check.sh --stage NAME`.

    stages.py list [--stages a,b]     what LIST=1 prints
    stages.py select [--stages a,b] [--phase first|lanes|last]
                                      the names to run, with what they need
    stages.py command NAME            the stage's shell command
    stages.py plan [--lanes N] ...    the lanes the costs predict
    stages.py run --lanes N NAME...   run the lanes (check.sh calls it)
    stages.py rst                     the generated stage list (RST)
    stages.py check-docs FILE...      FILE's generated list is the table's
"""

import argparse
import heapq
import os
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Stage:
    """One row of the table."""

    def __init__(self, name, cmd, what, phase='lanes', cost=0, kernel='-',
                 needs=()):
        self.name = name
        self.cmd = cmd
        self.what = what
        self.phase = phase
        self.cost = cost
        self.kernel = kernel
        self.needs = tuple(needs)

    def __repr__(self):
        return f'Stage({self.name!r})'


RESOURCES = {
    'qemu': "QEMU 7.2 with arbel-stub (scripts/build-qemu.sh, ~6 min cold)",
    'vm': "a VM: Debian's kernel image unpacked into the cache, the "
          "initramfs (scripts/vm/prepare.sh); its guest runs on one core",
    'headers': "the kernel's headers unpacked into the cache "
               "(scripts/kpkg.sh headers)",
    'ktree': "linux-source-6.1 extracted into the cache (scripts/ktree.sh)",
    'debug-kernel': "the x86_64 debug kernel (scripts/debug-kernel.sh, "
                    "~12 min cold)",
    'uml': "a UML kernel built by kunit.py in the tree (~9 min cold)",
}

# verbs (6.1) leaves to debug the failure paths and the life cycle, to
# verbs-6.12 the 10,000-cycle stress and the registration matrix
VERBS_SKIP = ('test_bad_inputs,test_fw_faults,test_stress,test_removal,'
              'test_fail_policy,test_life_cycle,test_reg_matrix')

# Costs: seconds of a warm run on the 2-core machine
# (Documentation/timings.rst).
STAGES = [
    Stage('pylib', 'python3 tests/pylib/tests', phase='first', cost=5,
          what="unittest tests of the tests' Python library "
               "(tests/pylib/tests), this scheduler's included"),
    Stage('testlib', 'make -s -C tests/lib check', phase='first', cost=5,
          what="the guest programs' C library's self-test (tests/lib)"),
    Stage('bench', 'bench/build-check.sh', phase='first', cost=5,
          what="the benchmarks' guest programs build, compare.py's "
               "and traffic.py's unit tests"),
    Stage('module-6.12', 'env -u ARBEL_KABI -u ARBEL_KVER -u ARBEL_KDIR '
          'ARBEL_KERNEL=6.12 scripts/build-module.sh --test',
          cost=55, kernel='6.12', needs=['headers'],
          what="arbel.ko with W=1 and sparse against Debian's 6.12 "
               "headers, no warning"),
    Stage('module', 'scripts/build-module.sh --test',
          cost=55, kernel='6.1', needs=['module-6.12', 'headers'],
          what="arbel.ko with W=1 and sparse against Debian's 6.1 "
               "headers (the module the VM stages load), no warning; "
               "after module-6.12 (both build in drivers/)"),
    Stage('lint', 'scripts/checkpatch.sh', cost=8, needs=['ktree'],
          what="checkpatch --strict --codespell and kernel-doc on every "
               "kernel file; docs parse; comment cites; stub layers; "
               "no include/call cycle; the generated lists match"),
    Stage('docs', 'scripts/htmldocs.sh', cost=11, needs=['ktree'],
          what="make htmldocs: Documentation/ by Sphinx with kernel-doc, "
               "no warning"),
    Stage('intree', 'env -u ARBEL_KABI -u ARBEL_KVER -u ARBEL_KDIR '
          'ARBEL_KERNEL=6.1 scripts/intree.sh', cost=52, kernel='uml 6.1',
          needs=['uml'],
          what="the patch series against linux-source-6.1: checkpatch, "
               "applies, KUnit (UML) in the tree"),
    Stage('intree-6.12', 'env -u ARBEL_KABI -u ARBEL_KVER -u ARBEL_KDIR '
          'ARBEL_KERNEL=6.12 scripts/intree.sh', cost=45,
          kernel='uml 6.12', needs=['uml'],
          what="the same against linux-source-6.12"),
    Stage('kunit-x86', 'scripts/kunit-x86.sh', cost=57,
          kernel='debug 6.1', needs=['debug-kernel', 'qemu', 'vm'],
          what="the KUnit suites and the command-flow suites as modules "
               "(built without a warning) on the debug kernel, against "
               "arbel-stub (the kernel verbs and fast registration among "
               "them)"),
    Stage('conformance', 'tests/stub/run.sh', cost=33, kernel='6.1',
          needs=['qemu', 'vm'],
          what="arbel-stub's conformance suites and Debian's ib_mthca "
               "(INTx) against it, no driver of ours"),
    Stage('conformance-6.12', 'on 6.12 conformance tests/stub/run.sh',
          cost=24, kernel='6.12', needs=['conformance', 'qemu', 'vm'],
          what="the same on Debian's 6.12 kernel (after conformance: "
               "they share build/guest-bin)"),
    Stage('mthca', 'env CYCLES=10 tests/mthca/run.sh', cost=37, kernel='6.1',
          needs=['qemu', 'vm'],
          what="Debian's unmodified ib_mthca on the stub: probe, "
               "ibv_devinfo, user memory, a port bounce, 10 reloads"),
    Stage('mthca-6.12', 'on 6.12 mthca env CYCLES=10 tests/mthca/run.sh',
          cost=33,
          kernel='6.12', needs=['qemu', 'vm'],
          what="the same with Debian's 6.12 ib_mthca (10 reloads)"),
    Stage('mthca-traffic', 'tests/mthca/run.sh traffic', cost=57,
          kernel='6.1', needs=['qemu', 'vm'],
          what="the real clients, unmodified, on Debian's ib_mthca over "
               "the stub's data path: ibverbs-utils' pingpongs (loopback, "
               "port 1 to port 2, device to device over a cable), "
               "perftest, rdma-core's traffic tests; an RC QP moved to "
               "port 2 in SQD (test_port_move)"),
    Stage('mthca-fabric', 'tests/fabric/run.sh', cost=65, kernel='6.1',
          needs=['qemu', 'vm'],
          what="the fabric's services on Debian's ib_mthca over two "
               "cabled stubs: the SA's answers, IPoIB (datagram and "
               "connected: ping, 16 MiB over TCP), rping, ucmatose, "
               "udaddy, mckey, perftest -R; NVMe over Fabrics and NFS "
               "over RDMA refused (no fast registration)"),
    Stage('arbel-fabric', 'tests/fabric/run.sh arbel', cost=126,
          kernel='6.1', needs=['module', 'qemu', 'vm'],
          what="the same fabric clients on arbel.ko (two ports a device, "
               "three hosts): IPoIB both modes, rping, ucmatose, udaddy, "
               "mckey, perftest -R, the SA's answers; NVMe over Fabrics "
               "and NFS over RDMA on fast registration, 64 MiB each way "
               "verified; 10 reloads with IPoIB up and a ping running"),
    Stage('arbel-fabric-6.12', 'on 6.12 arbel-fabric env RELOADS=0 '
          'tests/fabric/run.sh arbel', cost=77, kernel='6.12',
          needs=['module-6.12', 'qemu', 'vm'],
          what="the same on Debian's 6.12 kernel, without the reloads "
               "(6.1's)"),
    Stage('arbel-traffic', 'tests/mthca/run.sh arbel', cost=62,
          kernel='6.1', needs=['module', 'qemu', 'vm'],
          what="the same real clients on arbel.ko (two ports a device): "
               "ibverbs-utils' pingpongs (loopback, port 1 to port 2, "
               "device to device over a cable), perftest, rdma-core's "
               "traffic tests; ibv_devinfo -v against ib_mthca's on the "
               "same stub"),
    Stage('arbel-traffic-6.12', 'on 6.12 arbel-traffic tests/mthca/run.sh '
          'arbel', cost=59, kernel='6.12',
          needs=['module-6.12', 'qemu', 'vm'],
          what="the same on Debian's 6.12 kernel (ibv_devinfo -v against "
               "its ib_mthca)"),
    Stage('rdma-core-parity', 'tests/mthca/rdma_core_parity.py '
          'build/check-mthca-traffic.ktap build/check-arbel-traffic.ktap '
          'build/check-arbel-traffic-6.12.ktap', cost=1,
          needs=['mthca-traffic', 'arbel-traffic', 'arbel-traffic-6.12'],
          what="rdma-core's traffic tests: none that passes on ib_mthca "
               "is skipped, failed or missing on arbel.ko (6.1 and 6.12), "
               "from the three traffic stages' results"),
    Stage('bringup', 'env NCYCLES=5 tests/vm/bringup.sh', cost=72,
          kernel='6.1', needs=['module', 'qemu', 'vm'],
          what="the driver's firmware bring-up: command order, debugfs, "
               "tracepoints, MSI-X and INTx, injected failures, 5 "
               "reloads (arbel-fabric reloads with IPoIB up)"),
    Stage('bringup-6.12', 'on 6.12 bringup env NCYCLES=10 '
          'tests/vm/bringup.sh basic', cost=28,
          kernel='6.12', needs=['module-6.12', 'qemu', 'vm'],
          what="the same on Debian's 6.12 kernel, its first boot only "
               "(MSI-X, INTx, polling, 10 reloads; the injected "
               "failures: bringup's)"),
    Stage('verbs', 'env TEST_ARGS="--enomem-secs 240 --skip-suites '
          + VERBS_SKIP + '" tests/verbs/run.sh', cost=133, kernel='6.1',
          needs=['module', 'qemu', 'vm'],
          what="memory registration through stock rdma-core in event "
               "mode, exhaustion included (the failure paths: debug; the "
               "registration matrix: verbs-6.12)"),
    Stage('verbs-6.12', 'on 6.12 verbs env MODULE_ARGS=polling=1 '
          'TEST_ARGS="--no-enomem --skip-suites test_life_cycle,'
          'test_fail_policy" '
          'tests/verbs/run.sh', cost=137,
          kernel='6.12', needs=['module-6.12', 'qemu', 'vm'],
          what="every verbs suite but the exhaustion, the failure policy "
               "and the life cycle (debug's) on Debian's 6.12 kernel, "
               "polling=1"),
    Stage('deb', 'scripts/deb-check.sh', cost=73, kernel='6.1 6.12',
          needs=['headers', 'qemu', 'vm'],
          what="make deb, dpkg -i in an overlay chroot (DKMS for 6.1 and "
               "6.12, the module's PCI alias), the module in the VM, "
               "dpkg --purge"),
    Stage('debug', 'scripts/debug-check.sh', cost=675, kernel='debug 6.1',
          needs=['kunit-x86', 'debug-kernel', 'qemu', 'vm'],
          what="the failure-path and life-cycle verbs suites on the debug "
               "kernel (KASAN, "
               "UBSAN, lockdep, kmemleak, fault injection); after "
               "kunit-x86, whose kernel and modules it reuses"),
    Stage('host', 'scripts/host-check.sh compare build/check-host.before',
          phase='last', cost=1,
          what="the host is unchanged: /boot, the default boot entry, "
               "the kernel packages installed"),
]

BY_NAME = {s.name: s for s in STAGES}
PHASES = ('first', 'lanes', 'last')


def validate(stages=None):
    """Problems of the table, as strings (none: an empty list)."""
    stages = STAGES if stages is None else stages
    names = [s.name for s in stages]
    order = {n: i for i, n in enumerate(names)}
    byname = {s.name: s for s in stages}
    bad = []
    if len(set(names)) != len(names):
        bad.append('duplicate stage names')
    for s in stages:
        if s.phase not in PHASES:
            bad.append(f'{s.name}: phase {s.phase!r}')
        if s.phase == 'lanes' and s.cost <= 0:
            bad.append(f'{s.name}: a lane stage needs a cost')
        for n in s.needs:
            if n in byname:
                if PHASES.index(byname[n].phase) > PHASES.index(s.phase) or \
                        (byname[n].phase != 'lanes' and order[n] > order[s.name]):
                    bad.append(f'{s.name}: needs {n}, which runs later')
            elif n not in RESOURCES:
                bad.append(f'{s.name}: needs {n!r}, neither stage nor '
                           'resource')
    try:
        topo_order(stages)
    except ValueError as e:
        bad.append(str(e))
    return bad


def topo_order(stages):
    """The stages, each after the stages it needs; ValueError on a cycle."""
    byname = {s.name: s for s in stages}
    done, out, busy = set(), [], set()

    def visit(s):
        if s.name in done:
            return
        if s.name in busy:
            raise ValueError(f'a cycle of needs through {s.name}')
        busy.add(s.name)
        for n in s.needs:
            if n in byname:
                visit(byname[n])
        busy.discard(s.name)
        done.add(s.name)
        out.append(s)

    for s in stages:
        visit(s)
    return out


def select(spec, stages=None):
    """The stages to run for STAGES=spec (comma or blank separated; empty:
    all), with every stage they need, in table order.  ValueError on an
    unknown name.  'last' stages (the host check) always run."""
    stages = STAGES if stages is None else stages
    byname = {s.name: s for s in stages}
    names = [n for n in spec.replace(',', ' ').split() if n]
    if not names:
        return list(stages)
    unknown = [n for n in names if n not in byname]
    if unknown:
        raise ValueError('unknown stage ' + ', '.join(unknown) +
                         ' (make check LIST=1 lists them)')
    want = set()

    def add(n):
        if n in want:
            return
        want.add(n)
        for m in byname[n].needs:
            if m in byname:
                add(m)

    for n in names:
        add(n)
    for s in stages:
        if s.phase == 'last':
            add(s.name)
    return [s for s in stages if s.name in want]


def ranks(stages, cost=None):
    """Each stage's longest path ahead: its cost plus the largest rank of
    the stages (among these) that need it."""
    cost = cost or (lambda s: s.cost)
    names = {s.name for s in stages}
    users = {s.name: [] for s in stages}
    for s in stages:
        for n in s.needs:
            if n in names:
                users[n].append(s)
    rank = {}
    for s in reversed(topo_order(stages)):
        rank[s.name] = cost(s) + max((rank[u.name] for u in users[s.name]),
                                     default=0)
    return rank


class Scheduler:
    """Hands out lane stages: whenever a lane is free, the ready stage with
    the highest rank (table order breaks ties).  Needs on stages outside
    the set (already run, or not selected) count as met."""

    def __init__(self, stages, lanes, cost=None):
        self.stages = list(stages)
        self.lanes = lanes
        self.rank = ranks(self.stages, cost)
        self.order = {s.name: i for i, s in enumerate(self.stages)}
        names = {s.name for s in self.stages}
        self.waiting = {s.name: {n for n in s.needs if n in names}
                        for s in self.stages}
        self.pending = {s.name: s for s in self.stages}
        self.running = set()
        self.done = set()

    def ready(self):
        return sorted((s for s in self.pending.values()
                       if not self.waiting[s.name] - self.done),
                      key=lambda s: (-self.rank[s.name], self.order[s.name]))

    def take(self):
        """The next stage to start, or None (nothing ready)."""
        r = self.ready()
        if not r:
            return None
        s = r[0]
        del self.pending[s.name]
        self.running.add(s.name)
        return s

    def finish(self, name):
        self.running.discard(name)
        self.done.add(name)

    def finished(self):
        return not self.pending and not self.running


def simulate(stages, lanes, cost=None):
    """The lanes the costs predict: ([[stage names] per lane], makespan).
    At the start, lane 2 (not niced) takes the first stage."""
    cost = cost or (lambda s: s.cost)
    sched = Scheduler(stages, lanes, cost)
    plan = [[] for _ in range(lanes)]
    free = list(range(lanes - 1, -1, -1)) if lanes > 1 else [0]
    events = []          # (end time, lane, name)
    now = 0
    while not sched.finished():
        while free:
            s = sched.take()
            if s is None:
                break
            lane = free.pop(0)
            plan[lane].append(s.name)
            heapq.heappush(events, (now + cost(s), lane, s.name))
        if not events:
            raise ValueError('stages wait for each other')
        now, lane, name = heapq.heappop(events)
        sched.finish(name)
        free.append(lane)
        free.sort()
    return plan, now


def measured_cost(directory):
    """A cost function: the duration the last run measured
    (build/check-NAME.secs), else the table's."""
    def cost(s):
        try:
            with open(os.path.join(directory, f'check-{s.name}.secs'),
                      encoding='utf-8') as f:
                return max(1, int(f.read().strip()))
        except (OSError, ValueError):
            return s.cost
    return cost


def run(stages, lanes, outdir, check_sh, cost=None, log=sys.stdout,
        poll=1.0):
    """Run the lane stages, `check_sh --stage NAME` each, lane K's output
    appended to OUTDIR/check-lane-K.out; lane 1 niced by 2 when there are
    two lanes or more.  Returns the names in the order they started."""
    sched = Scheduler(stages, lanes, cost)
    outs = [os.path.join(outdir, f'check-lane-{k + 1}.out')
            for k in range(lanes)]
    for o in outs:
        open(o, 'w').close()
    free = list(range(lanes - 1, -1, -1)) if lanes > 1 else [0]
    procs = {}           # Popen -> (lane, name, start)
    started = []
    t0 = time.monotonic()

    def stamp():
        t = int(time.monotonic() - t0)
        return f'{t // 60}:{t % 60:02d}'

    while not sched.finished():
        while free:
            s = sched.take()
            if s is None:
                break
            lane = free.pop(0)
            argv = [check_sh, '--stage', s.name]
            if lane == 0 and lanes > 1:
                argv = ['nice', '-n', '2'] + argv
            with open(outs[lane], 'a') as out:
                p = subprocess.Popen(argv, stdout=out, stderr=out,
                                     stdin=subprocess.DEVNULL)
            procs[p] = (lane, s.name, time.monotonic())
            started.append(s.name)
            print(f'=== lane {lane + 1}: {s.name} starts at {stamp()}',
                  file=log, flush=True)
        if not procs:
            raise RuntimeError('stages wait for each other')
        ended = [p for p in procs if p.poll() is not None]
        if not ended:
            time.sleep(poll)
            continue
        for p in ended:
            lane, name, t = procs.pop(p)
            print(f'=== lane {lane + 1}: {name} done at {stamp()} '
                  f'({int(time.monotonic() - t)} s, exit {p.returncode})',
                  file=log, flush=True)
            sched.finish(name)
            free.append(lane)
        free.sort()
    return started


def rst(stages=None):
    """The generated stage list: an RST list table."""
    stages = STAGES if stages is None else stages
    lines = ['.. list-table::', '   :header-rows: 1',
             '   :widths: 16 10 10 22 42', '',
             '   * - stage', '     - runs', '     - kernel', '     - needs',
             '     - what it checks']
    for s in stages:
        where = s.phase if s.phase != 'lanes' else f'lanes, {s.cost} s'
        needs = ', '.join(s.needs) or '--'
        kernel = s.kernel if s.kernel != '-' else '--'
        lines += [f'   * - **{s.name}**', f'     - {where}',
                  f'     - {kernel}', f'     - {needs}',
                  f'     - {s.what}']
    return '\n'.join(lines) + '\n'


BEGIN = '.. BEGIN STAGES: generated by scripts/stages.py rst, do not edit'
END = '.. END STAGES'


def docs_block(text):
    """The generated block of a document (None: it has none)."""
    if BEGIN not in text or END not in text:
        return None
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip('\n') + '\n'


def check_docs(text, stages=None):
    """Problems of a document's generated stage list, as strings."""
    block = docs_block(text)
    if block is None:
        return [f'no "{BEGIN}" ... "{END}" block']
    if block != rst(stages):
        return ['the generated stage list differs from the table: '
                'scripts/stages.py rst']
    return []


def write_docs(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(path, 'w', encoding='utf-8') as f:
        f.write(head + BEGIN + '\n\n' + rst() + '\n' + END + tail)


def listing(stages):
    """What make check LIST=1 prints: a line per stage."""
    out = []
    for s in stages:
        where = s.phase if s.phase != 'lanes' else f'{s.cost} s'
        needs = ','.join(s.needs) or '-'
        out.append(f'{s.name:<17} {where:<6} {s.kernel:<10} {needs:<34} '
                   f'{s.what}')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('list')
    p.add_argument('--stages', default='')
    p = sub.add_parser('select')
    p.add_argument('--stages', default='')
    p.add_argument('--phase', choices=PHASES)
    p = sub.add_parser('command')
    p.add_argument('name')
    p = sub.add_parser('plan')
    p.add_argument('--stages', default='')
    p.add_argument('--lanes', type=int, default=2)
    p.add_argument('--measured', metavar='DIR')
    p = sub.add_parser('run')
    p.add_argument('--lanes', type=int, default=2)
    p.add_argument('--out', default=os.path.join(TOP, 'build'))
    p.add_argument('--measured', metavar='DIR')
    p.add_argument('names', nargs='*')
    sub.add_parser('rst')
    p = sub.add_parser('check-docs')
    p.add_argument('--write', action='store_true')
    p.add_argument('files', nargs='+')
    a = ap.parse_args()

    bad = validate()
    if bad:
        print('stages.py: the table is wrong: ' + '; '.join(bad),
              file=sys.stderr)
        return 2
    try:
        if a.cmd in ('list', 'select', 'plan'):
            chosen = select(a.stages)
    except ValueError as e:
        print(f'stages.py: {e}', file=sys.stderr)
        return 2
    if a.cmd == 'list':
        print('stage             runs   kernel     needs' + ' ' * 31 +
              'what it checks')
        sys.stdout.write(listing(chosen))
    elif a.cmd == 'select':
        for s in chosen:
            if a.phase in (None, s.phase):
                print(s.name)
    elif a.cmd == 'command':
        if a.name not in BY_NAME:
            print(f'stages.py: unknown stage {a.name}', file=sys.stderr)
            return 2
        print(BY_NAME[a.name].cmd)
    elif a.cmd == 'plan':
        cost = measured_cost(a.measured) if a.measured else None
        plan, end = simulate([s for s in chosen if s.phase == 'lanes'],
                             a.lanes, cost)
        for k, names in enumerate(plan):
            print(f'lane {k + 1}: ' + ' '.join(names))
        print(f'predicted: {end} s')
    elif a.cmd == 'run':
        unknown = [n for n in a.names if n not in BY_NAME]
        if unknown:
            print(f'stages.py: unknown stage {unknown}', file=sys.stderr)
            return 2
        cost = measured_cost(a.measured) if a.measured else None
        chosen = [BY_NAME[n] for n in a.names]
        plan, end = simulate(chosen, a.lanes, cost)
        for k, names in enumerate(plan):
            print(f'=== lanes: lane {k + 1} (build/check-lane-{k + 1}.out), '
                  f'predicted: {" ".join(names)}')
        print(f'=== lanes: predicted {end // 60} min {end % 60} s',
              flush=True)
        run(chosen, a.lanes, a.out, os.path.join(TOP, 'scripts', 'check.sh'),
            cost)
    elif a.cmd == 'rst':
        sys.stdout.write(rst())
    elif a.cmd == 'check-docs':
        bad = 0
        for path in a.files:
            if a.write:
                write_docs(path)
            with open(path, encoding='utf-8') as f:
                for problem in check_docs(f.read()):
                    print(f'{path}: {problem}', file=sys.stderr)
                    bad = 1
        return bad
    return 0


if __name__ == '__main__':
    sys.exit(main())
