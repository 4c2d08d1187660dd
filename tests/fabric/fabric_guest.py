#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Guest half of the fabric stages: IPoIB, rdma_cm and the subnet
administrator over arbel-stub's fabric, on Debian's ib_mthca
(mthca-fabric) or on arbel (arbel-fabric).

Runs as CMD in the test VM (tests/fabric/run.sh; two cabled stubs) with
the module, fabric_cases.py, sa_query.py and tcp_xfer.py in
/opt/arbel/bin:

  fabric_guest.py [--driver mthca|arbel] [--timeout S] [--only WORD,...]

  1. load: ib_uverbs, the module, ib_ipoib, rdma_ucm, ib_umad; its IPoIB
     interfaces (ib0 ..);
  2. hosts: A the guest's own namespace, B (and C) network namespaces of
     their own (unshare -n), each with its interface (fabric_cases.py's
     DRIVERS) up with its address;
  3. each interface joined to the broadcast group (IPoIB's carrier up:
     the SA answered its join);
  4. the SA's answers (sa_query.py on A's port, B's GID the peer; its
     results relayed);
  5. each case of fabric_cases.py, IPoIB's mode switched on every host
     where a case needs another, at most --timeout seconds (default 60).

--only runs the cases whose name holds one of the words, or whose group
("ipoib", "rdma_cm", "perftest", "sa") is one.  KTAP on stdout; exit 1 if
anything failed.
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

from arbeltest import ktap
import fabric_cases as fc

BIN = '/opt/arbel/bin'
IP = '/usr/bin/ip'


def run(*argv, timeout=30):
    try:
        p = subprocess.run(argv, capture_output=True, text=True,
                           check=False, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, 'timed out'
    return p.returncode, (p.stdout + p.stderr).strip()


class Hosts:
    """A (the guest's namespace), B and C (one sleeping process each,
    whose network namespace they are)."""

    def __init__(self, drv):
        self.drv = drv
        self.names = sorted(drv.hosts)
        self.procs = {}

    def start(self, k):
        for h in self.names[1:]:
            self.procs[h] = subprocess.Popen(['unshare', '-n', 'sleep',
                                              '100000'])
        time.sleep(0.5)
        ok = all(p.poll() is None for p in self.procs.values())
        return k.check(ok, 'hosts: network namespaces ' +
                       ', '.join(self.names[1:]), 'unshare -n failed')

    def prefix(self, h):
        """argv prefix that runs a command in host @h's namespace."""
        if h == 'A':
            return []
        return ['nsenter', '-t', str(self.procs[h].pid), '-n']

    def run(self, h, argv, timeout=30):
        return run(*(self.prefix(h) + argv), timeout=timeout)

    def stop(self):
        for p in self.procs.values():
            p.kill()
            p.wait()


def load(k, drv):
    ok = True
    for argv in (['modprobe', 'ib_uverbs'], ['insmod', f'{BIN}/{drv.ko}'],
                 ['modprobe', 'ib_ipoib'], ['modprobe', 'rdma_ucm'],
                 ['modprobe', 'ib_umad']):
        rc, out = run(*argv)
        ok &= k.check(rc == 0, 'load: ' + ' '.join(argv), out)
    want = [f'/sys/class/net/ib{i}' for i in range(drv.ifaces)]
    for _ in range(100):
        if all(os.path.exists(p) for p in want):
            break
        time.sleep(0.2)
    return k.check(ok and all(os.path.exists(p) for p in want),
                   f'load: ib0 .. ib{drv.ifaces - 1} (every port of both '
                   'devices)',
                   f'present: {[p for p in want if os.path.exists(p)]}')


def addresses(k, hosts):
    iface = {h: hosts.drv.hosts[h].iface for h in hosts.names}
    for h in hosts.names[1:]:
        rc, out = run(IP, 'link', 'set', iface[h], 'netns',
                      str(hosts.procs[h].pid))
        if not k.check(rc == 0, f'hosts: {iface[h]} into {h}', out):
            return False
    ok = True
    for h in hosts.names:
        for argv in ([IP, 'addr', 'add', f'{fc.ADDR[h]}/{fc.PREFIX}', 'dev',
                      iface[h]],
                     [IP, 'link', 'set', iface[h], 'up'],
                     [IP, 'link', 'set', 'lo', 'up']):
            rc, out = hosts.run(h, argv)
            ok &= rc == 0
            if rc:
                k.diag(f'{h}: {" ".join(argv)}: {out}')
    return k.check(ok, 'hosts: ' + ', '.join(
        f'{h} {fc.ADDR[h]}' for h in hosts.names) + ' up')


def wait_up(k, hosts, limit=30.0):
    """IPoIB turns its carrier on once its broadcast join succeeded."""
    deadline = time.monotonic() + limit
    state = {}
    while True:
        state = {h: hosts.run(h, [IP, '-br', 'link', 'show', 'dev',
                                  hosts.drv.hosts[h].iface])[1]
                 for h in hosts.names}
        if all(fc.link_up(t) for t in state.values()) or \
                time.monotonic() > deadline:
            break
        time.sleep(0.5)
    return k.check(all(fc.link_up(t) for t in state.values()),
                   'ipoib: every interface UP: the broadcast group joined '
                   'through the SA', '; '.join(state.values()))


def set_mode(k, hosts, mode):
    ok, notes = True, []
    for h in hosts.names:
        for argv in fc.mode_argv(hosts.drv.hosts[h].iface, mode):
            rc, out = hosts.run(h, [IP] + argv[1:])
            ok &= rc == 0
            if rc:
                notes.append(f'{h}: {out}')
    time.sleep(1)
    return k.check(ok, f'ipoib: {mode} mode on ' + ', '.join(hosts.names),
                   '; '.join(notes))


def spawn(argv, out):
    return subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)


def kill(proc):
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        return None
    return proc.returncode


def run_case(hosts, case, timeout):
    """Servers first, then the client; everyone at most @timeout s.
    [(rc, output)] for the servers, then the client; rc None: killed."""
    files = [tempfile.TemporaryFile('w+') for _ in range(len(case.servers)
                                                          + 1)]
    procs = []
    deadline = time.monotonic() + timeout
    for (h, argv), f in zip(case.servers, files):
        procs.append(spawn(hosts.prefix(h) + argv, f))
    time.sleep(case.settle)
    h, argv = case.client
    procs.append(spawn(hosts.prefix(h) + argv, files[-1]))
    for p in reversed(procs):
        try:
            p.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    out = []
    for p, f in zip(procs, files):
        timed_out = p.poll() is None
        rc = kill(p)
        f.seek(0)
        out.append((None if timed_out else rc, f.read()))
        f.close()
    return out


def sa(k, args, drv):
    if not fc.selected('sa_query', 'sa', args.only):
        return
    a, b = drv.hosts['A'], drv.hosts['B']
    with open(f'/sys/class/infiniband/{b.dev}/ports/{b.port}/gids/0') as f:
        peer = f.read().strip()
    rc, out = run('python3', f'{BIN}/sa_query.py', a.dev, str(a.port), peer,
                  timeout=60)
    relayed = k.relay(out.splitlines())
    k.ran_to_end(relayed, 'sa_query.py', rc is not None)


def clients(k, args, hosts):
    mode = 'datagram'
    for case in fc.cases(hosts.drv):
        if not fc.selected(case.name, case.group, args.only):
            continue
        if case.mode and case.mode != mode:
            mode = case.mode
            set_mode(k, hosts, mode)
        t0 = time.monotonic()
        outputs = run_case(hosts, case, args.timeout)
        ok, detail = case.verdict(outputs)
        k.diag(f'{case.name}: {time.monotonic() - t0:.1f} s')
        if not ok:
            detail += ''.join(
                f'\n#{i} exit {rc}: ' + ' | '.join(text.strip().splitlines()[-6:])
                for i, (rc, text) in enumerate(outputs))
        k.check(ok, case.name, detail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--driver', choices=sorted(fc.DRIVERS), default='mthca',
                    help='the module the clients run on (default mthca)')
    ap.add_argument('--timeout', type=float, default=60.0,
                    help='seconds for one case (default 60)')
    ap.add_argument('--only', default='',
                    help='comma-separated words: the cases to run')
    args = ap.parse_args()
    k = ktap.Ktap()
    drv = fc.DRIVERS[args.driver]
    hosts = Hosts(drv)
    if load(k, drv) and hosts.start(k) and addresses(k, hosts) and \
            wait_up(k, hosts):
        sa(k, args, drv)
        clients(k, args, hosts)
    else:
        k.fail('clients', 'the fabric did not come up: nothing to run')
    hosts.stop()
    rc, out = run('dmesg')
    lines = [x for x in out.splitlines()
             if any(w in x for w in ('ib0', 'ib1', 'ib2', 'mthca', 'arbel'))]
    for line in lines[-40:]:
        k.diag('dmesg: ' + line)
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
