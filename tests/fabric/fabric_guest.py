#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Guest half of the fabric stages: IPoIB, rdma_cm and the subnet
administrator over arbel-stub's fabric, on Debian's ib_mthca
(mthca-fabric) or on arbel (arbel-fabric).

Runs as CMD in the test VM (tests/fabric/run.sh; two cabled stubs) with
the module, fabric_cases.py, sa_query.py and tcp_xfer.py in
/opt/arbel/bin:

  fabric_guest.py [--driver mthca|arbel] [--timeout S] [--only WORD,...]
  fabric_guest.py --rxe [--timeout S] [--only WORD,...]

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
     where a case needs another, at most --timeout seconds (default 60);
  6. the storage group (storage.py): NVMe over Fabrics and NFS over
     RDMA through A's device and address, each step at most --timeout
     seconds; on ib_mthca (Driver.frwr false) the connect and the mount
     must be refused;
  7. the driver's reload cycles (fabric_cases.py's Driver.cycles: arbel's
     10, ib_mthca's none): rmmod with IPoIB up and a ping running,
     insmod, IPoIB back and answering.

--only runs the cases whose name holds one of the words, or whose group
("ipoib", "rdma_cm", "perftest", "sa", "storage", "reload") is one.

--rxe: the storage group alone, on rdma_rxe over a dummy netdev (no
stub, no IPoIB): a device known to do fast registration, on which the
judges must pass (tests/fabric/run.sh rxe).  KTAP on stdout; exit 1 if
anything failed.
"""

import argparse
import glob
import os
import signal
import subprocess
import sys
import tempfile
import time

from arbeltest import ktap
import fabric_cases as fc
import storage

BIN = '/opt/arbel/bin'
IP = '/usr/bin/ip'
NFS_BIN = f'{BIN}/nfs'          # run.sh: nfs-kernel-server's tools
NVME_BIN = f'{BIN}/nvme'        # run.sh: nvme-cli and its libraries
RXE_ADDR = '10.9.1.1'


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
    present = wait_ifaces(drv)
    return k.check(ok and len(present) == drv.ifaces,
                   f'load: ib0 .. ib{drv.ifaces - 1} (every port of both '
                   'devices)', f'present: {present}')


def wait_ifaces(drv, limit=20.0):
    """The IPoIB interfaces ib0 .. of @drv's ports present in this
    namespace, waiting at most @limit seconds for all of them."""
    want = [f'ib{i}' for i in range(drv.ifaces)]
    deadline = time.monotonic() + limit
    while True:
        present = [n for n in want if os.path.exists(f'/sys/class/net/{n}')]
        if len(present) == len(want) or time.monotonic() > deadline:
            return present
        time.sleep(0.2)


def bring_up(hosts):
    """Each host's interface into its namespace, with its address, up
    (and lo up): (ok, notes)."""
    iface = {h: hosts.drv.hosts[h].iface for h in hosts.names}
    for h in hosts.names[1:]:
        rc, out = run(IP, 'link', 'set', iface[h], 'netns',
                      str(hosts.procs[h].pid))
        if rc:
            return False, f'{iface[h]} into {h}: {out}'
    notes = []
    for h in hosts.names:
        for argv in ([IP, 'addr', 'add', f'{fc.ADDR[h]}/{fc.PREFIX}', 'dev',
                      iface[h]],
                     [IP, 'link', 'set', iface[h], 'up'],
                     [IP, 'link', 'set', 'lo', 'up']):
            rc, out = hosts.run(h, argv)
            if rc:
                notes.append(f'{h}: {" ".join(argv)}: {out}')
    return not notes, '; '.join(notes)


def addresses(k, hosts):
    ok, notes = bring_up(hosts)
    return k.check(ok, 'hosts: ' + ', '.join(
        f'{h} {fc.ADDR[h]}' for h in hosts.names) + ' up', notes)


def all_up(hosts, limit=30.0):
    """Whether every host's interface turned its carrier on within
    @limit seconds (IPoIB does once its broadcast join succeeded): (ok,
    what `ip -br link` said)."""
    deadline = time.monotonic() + limit
    while True:
        state = {h: hosts.run(h, [IP, '-br', 'link', 'show', 'dev',
                                  hosts.drv.hosts[h].iface])[1]
                 for h in hosts.names}
        ok = all(fc.link_up(t) for t in state.values())
        if ok or time.monotonic() > deadline:
            return ok, '; '.join(state.values())
        time.sleep(0.5)


def wait_up(k, hosts):
    ok, state = all_up(hosts)
    return k.check(ok, 'ipoib: every interface UP: the broadcast group '
                   'joined through the SA', state)


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


def wait_listen(hosts, h, port, limit):
    """Until host @h lists an rdma_cm ID listening on @port, at most
    @limit seconds; whether it did."""
    deadline = time.monotonic() + limit
    while True:
        rc, out = hosts.run(h, ['rdma', 'resource', 'show', 'cm_id'],
                            timeout=10)
        if rc == 0 and fc.listening(out, port):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def run_case(hosts, case, timeout):
    """Servers first, then the client (after case.settle seconds, or once
    the first server listens on case.listen); everyone at most @timeout
    s.  [(rc, output)] for the servers, then the client; rc None: killed;
    a server never seen listening is noted after the client's output."""
    files = [tempfile.TemporaryFile('w+') for _ in range(len(case.servers)
                                                          + 1)]
    procs = []
    deadline = time.monotonic() + timeout
    for (h, argv), f in zip(case.servers, files):
        procs.append(spawn(hosts.prefix(h) + argv, f))
    listened = True
    if case.listen:
        listened = wait_listen(hosts, case.servers[0][0], case.listen,
                               case.settle + 10)
    else:
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
    if not listened:
        rc, text = out[-1]
        out[-1] = (rc, text + f'\n(the server was not seen listening on '
                   f'{case.listen} before the client started)')
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


def frwr_diag(k, dev):
    """Whether @dev advertises fast registration to user space (a hint
    for the storage group's failures, not a result)."""
    rc, out = run('ibv_devinfo', '-v', '-d', dev)
    if rc:
        k.diag(f'ibv_devinfo -v -d {dev}: exit {rc}')
    else:
        k.diag(f'{dev}: MEM_MGT_EXTENSIONS ' +
               ('advertised' if 'MEM_MGT_EXTENSIONS' in out else
                'not advertised') + ' (ibv_devinfo -v)')


def sync_tpts():
    """SYNC_TPT commands every arbel device issued so far (its debugfs
    counters: one per LOCAL_INV batch of fast registration), or None."""
    total, found = 0, False
    for path in glob.glob('/sys/kernel/debug/arbel/*/commands/SYNC_TPT/n'):
        try:
            with open(path, encoding='ascii') as f:
                total += int(f.read().strip())
            found = True
        except (OSError, ValueError):
            pass
    return total if found else None


def storage_group(k, args, dev, addr, works):
    """Issue 29: NVMe over Fabrics, then NFS over RDMA, through @dev at
    @addr; @works: whether @dev does fast registration (else both must
    be refused)."""
    nvme = fc.selected('nvme over fabrics', 'storage', args.only)
    nfs = fc.selected('nfs over rdma', 'storage', args.only)
    if not nvme and not nfs:
        return
    t0 = time.monotonic()
    if not args.rxe:                    # no rxe provider in the image
        frwr_diag(k, dev)
    before = sync_tpts()
    if nvme:
        storage.Nvme(dev, addr, works, args.timeout, NVME_BIN).run(k)
    if nfs:
        storage.Nfs(dev, addr, works, args.timeout, NFS_BIN,
                    NFS_BIN).run(k)
    if works and dev.startswith('arbel'):
        # the protocols' LOCAL_INVs went through arbel's fast registration
        after = sync_tpts()
        n = after - before if None not in (before, after) else 0
        k.check(n > 0, 'storage: arbel did their fast registration (SYNC_TPT '
                'commands of LOCAL_INV, debugfs)', f'{n} SYNC_TPT commands')
        k.diag(f'storage: {n} SYNC_TPT commands')
    k.diag(f'storage group: {time.monotonic() - t0:.1f} s')


def rxe(k, args):
    """--rxe: rdma_rxe's rxe0 on a dummy netdev with RXE_ADDR, then the
    storage group on it."""
    ok = True
    for argv in (['modprobe', 'crc32_generic'], ['modprobe', 'rdma_rxe'],
                 ['modprobe', 'dummy'],
                 [IP, 'link', 'add', 'st0', 'type', 'dummy'],
                 [IP, 'addr', 'add', f'{RXE_ADDR}/24', 'dev', 'st0'],
                 [IP, 'link', 'set', 'st0', 'up'],
                 ['rdma', 'link', 'add', 'rxe0', 'type', 'rxe', 'netdev',
                  'st0']):
        rc, out = run(*argv)
        ok = ok and k.check(rc == 0, 'rxe: ' + ' '.join(argv), out)
    if ok:
        storage_group(k, args, 'rxe0', RXE_ADDR, True)


def reload_once(hosts, module):
    """One cycle of reloads(): (ok, detail)."""
    drv = hosts.drv
    pinger = spawn(['ping', '-i', '0.2', fc.ADDR['B']], subprocess.DEVNULL)
    time.sleep(0.5)
    t0 = time.monotonic()
    # not run(): a rmmod stuck in the kernel cannot be killed and waited for
    rm = subprocess.Popen(['rmmod', module], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    try:
        out = rm.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        kill(pinger)
        return False, f'rmmod {module} with IPoIB up: stuck for 60 s' + \
            blocked_tasks()
    secs = time.monotonic() - t0
    kill(pinger)
    if rm.returncode:
        return False, (f'rmmod {module} with IPoIB up: exit '
                       f'{rm.returncode}: {out}')
    left = [h for h in hosts.names
            if hosts.run(h, [IP, 'link', 'show', 'dev',
                             drv.hosts[h].iface])[0] == 0]
    if left:
        return False, f'after rmmod, still an interface on {left}'
    rc, out = run('insmod', f'{BIN}/{drv.ko}', timeout=60)
    if rc:
        return False, f'insmod: exit {rc}: {out}'
    # names come back the same: nothing of the last life holds one
    present = wait_ifaces(drv)
    if len(present) != drv.ifaces:
        return False, f'after insmod, interfaces {present}'
    ok, notes = bring_up(hosts)
    if not ok:
        return False, notes
    ok, state = all_up(hosts)
    if not ok:
        return False, 'not joined: ' + state
    rc, out = run('ping', '-c', '1', '-W', '3', fc.ADDR['B'])
    ok, detail = fc.ping_ok(out, 1)
    return ok, f'rmmod {secs:.1f} s; ping A -> B: {detail}'


def blocked_tasks():
    """The kernel's stacks of its blocked tasks (SysRq w), from dmesg."""
    with open('/proc/sysrq-trigger', 'w') as f:
        f.write('w')
    time.sleep(1)
    lines = run('dmesg')[1].splitlines()
    start = max((i for i, x in enumerate(lines)
                 if 'show-blocked-tasks' in x or 'Show Blocked State' in x),
                default=max(0, len(lines) - 60))
    return '\n' + '\n'.join(lines[start:start + 120])


def reloads(k, args, hosts):
    """Issue 28: drv.cycles (or --reloads) times, with IPoIB up on every
    host (in whatever mode the clients left it) and a ping running from A
    to B:
    rmmod the module (its devices, and with them IPoIB's interfaces, go),
    insmod it, the interfaces back under their names, into their hosts,
    up, joined through the SA, and a ping from A to B answered.  One
    result per cycle; the first failure ends them."""
    drv = hosts.drv
    cycles = drv.cycles if args.reloads is None else args.reloads
    if not cycles or not fc.selected('reload', 'reload', args.only):
        return
    module = drv.ko.removesuffix('.ko')
    for i in range(1, cycles + 1):
        t0 = time.monotonic()
        ok, detail = reload_once(hosts, module)
        detail += f' ({time.monotonic() - t0:.1f} s)'
        if ok:
            k.diag(f'reload {i}: {detail}')
        k.check(ok, f'reload {i} of {cycles}: rmmod with IPoIB up and '
                'a ping running, insmod, IPoIB back and answering', detail)
        if not ok:
            break


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--driver', choices=sorted(fc.DRIVERS), default='mthca',
                    help='the module the clients run on (default mthca)')
    ap.add_argument('--timeout', type=float, default=60.0,
                    help='seconds for one case (default 60)')
    ap.add_argument('--only', default='',
                    help='comma-separated words: the cases to run')
    ap.add_argument('--reloads', type=int, default=None,
                    help="reload cycles with IPoIB up (default: the "
                         "driver's, fabric_cases.Driver.cycles)")
    ap.add_argument('--rxe', action='store_true',
                    help='the storage group alone, on rdma_rxe')
    args = ap.parse_args()
    k = ktap.Ktap()
    if args.rxe:
        rxe(k, args)
        return k.finish()
    drv = fc.DRIVERS[args.driver]
    hosts = Hosts(drv)
    if load(k, drv) and hosts.start(k) and addresses(k, hosts) and \
            wait_up(k, hosts):
        sa(k, args, drv)
        clients(k, args, hosts)
        a = drv.hosts['A']
        storage_group(k, args, a.dev, fc.ADDR['A'], drv.frwr)
        reloads(k, args, hosts)
    else:
        k.fail('clients', 'the fabric did not come up: nothing to run')
    hosts.stop()
    rc, out = run('dmesg')
    lines = [x for x in out.splitlines()
             if any(w in x for w in ('ib0', 'ib1', 'ib2', 'mthca', 'arbel',
                                     'nvme', 'rpcrdma', 'svcrdma'))]
    for line in lines[-40:]:
        k.diag('dmesg: ' + line)
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
