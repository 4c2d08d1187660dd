#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Guest half of the traffic stages: real RDMA clients, unmodified, on
Debian's ib_mthca (mthca-traffic) or on arbel (arbel-traffic), with
libmthca, over arbel-stub (ports=2).

Runs as CMD in the test VM (tests/mthca/run.sh traffic|arbel, LOAD=0,
VM_PYTHON=1) with the module, traffic_cases.py and rdma_core_tests.py
in /opt/arbel/bin:

  traffic_guest.py [--driver mthca|arbel] [--timeout S] [--only WORD,...]

  1. load: modprobe ib_uverbs, insmod the module (ib_mthca.ko or
     arbel.ko), its first device registered (mthca0, arbel0);
  2. the ports of both devices ACTIVE with a non-zero LID (sysfs, up to
     20 s), each its own LID, as a subnet manager assigns them (two
     ports a device, on both drivers);
  3. each case of traffic_cases.py, one result each: server and client
     in this guest, at most --timeout seconds (default 20) for the pair,
     then both killed: the pingpongs over loopback and port 1 to port 2,
     perftest from port 1 to port 2;
  4. rdma-core's own traffic tests (rdma_core_tests.py), one process per
     module bounded by its time; each test one result, skips as skips;
  5. UD multicast (mcast_ud, built from mcast_ud.c): its results relayed;
  6. ib_mthca only: an RC QP moved from port 1 to port 2 in SQD
     (test_port_move.py, the verbs suite, standalone; the verbs stages
     run it on arbel0): its results relayed;
  7. arbel only: `ibv_devinfo -v` of arbel0 and, the same stub bound to
     Debian's ib_mthca then, of mthca0, compared field by field
     (devinfo_compare.py).

--only runs the cases and rdma-core modules whose name contains one of
the words, or whose group ("pingpong", "perftest", "rdma-core",
"multicast", "port-move", "devinfo") is one.
Prints KTAP; exits 1 if anything failed.
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

from arbeltest import ktap
import devinfo_compare as dc
import traffic_cases as tc

BIN = '/opt/arbel/bin'


def run(*argv):
    p = subprocess.run(argv, capture_output=True, text=True, check=False)
    return p.returncode, (p.stdout + p.stderr).strip()


def load(k, drv):
    ibdev = f'/sys/class/infiniband/{drv.dev}'
    rc, out = run('modprobe', 'ib_uverbs')
    k.check(rc == 0, 'load: modprobe ib_uverbs', out)
    rc, out = run('insmod', f'{BIN}/{drv.ko}')
    for _ in range(100):
        if os.path.isdir(ibdev):
            break
        time.sleep(0.1)
    return k.check(rc == 0 and os.path.isdir(ibdev),
                   f'load: insmod {drv.ko}, {drv.dev} registered',
                   f'insmod exit {rc}: {out}')


def sysfs(path):
    try:
        with open(path, encoding='ascii') as f:
            return f.read().strip()
    except OSError:
        return ''


def wait_ports(k, drv, limit=20.0):
    """The ports of both devices active with a LID (the SM's work, the
    stub's here), every LID its own."""
    deadline = time.monotonic() + limit
    devs = (drv.dev, drv.cabled_dev)
    while True:
        seen = {(d, p): (sysfs(f'/sys/class/infiniband/{d}/ports/{p}/state'),
                         sysfs(f'/sys/class/infiniband/{d}/ports/{p}/lid'))
                for d in devs for p in range(1, drv.ports + 1)}
        ready = all(tc.port_ready(*v) for v in seen.values())
        if ready or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    text = ', '.join(f'{d} port {p}: {s or "?"} lid {lid or "?"}'
                     for (d, p), (s, lid) in seen.items())
    k.diag(text)
    k.check(ready, f'ports: {drv.ports} port(s) of {drv.dev} and of '
            f'{drv.cabled_dev} ACTIVE with a non-zero LID',
            f'after {limit:.0f} s: {text}')
    lids = [lid for _, lid in seen.values()]
    k.check(tc.distinct_lids(lids),
            'ports: each port its own LID (port to port goes by LID)', text)


def is_listening(port):
    text = sysfs('/proc/net/tcp') + '\n' + sysfs('/proc/net/tcp6')
    return tc.listening(port, text)


def kill(proc):
    """SIGKILL the process group; its exit status, None if it lingers."""
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


def spawn(argv, out):
    return subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)


def relay_run(k, argv, limit):
    """argv, a KTAP program, at most @limit seconds, its results relayed:
    (the relayed results, its exit status, whether it was killed)."""
    with tempfile.TemporaryFile('w+') as out:
        p = spawn(argv, out)
        try:
            p.wait(timeout=limit)
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
        rc = kill(p)
        out.seek(0)
        lines = out.read().splitlines()
    return k.relay(lines), rc, timed_out


def run_pair(case, timeout):
    """Start the server, the client once the server listens, wait for both
    at most @timeout seconds; a tc.Result."""
    t0 = time.monotonic()
    deadline = t0 + timeout
    with tempfile.TemporaryFile('w+') as sout, \
            tempfile.TemporaryFile('w+') as cout:
        server = spawn(case.server, sout)
        client, note = None, ''
        while time.monotonic() < deadline and server.poll() is None:
            if is_listening(case.tcp_port):
                client = spawn(case.client, cout)
                break
            time.sleep(0.05)
        if client is None:
            note = 'the server never listened on TCP port ' \
                f'{case.tcp_port}' if server.poll() is None else ''
        timed_out = False
        for p in (server, client):
            if p is None:
                continue
            try:
                p.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                timed_out = True
        src = kill(server)
        crc = kill(client) if client else None
        if client is None and not note:
            note = 'the server ended before the client started'
        sout.seek(0)
        cout.seek(0)
        return tc.Result(src, sout.read(), crc,
                         cout.read() if client else None,
                         timed_out, time.monotonic() - t0, note)


def clients(k, args, drv):
    for case in tc.cases(dev=drv.dev, cabled_dev=drv.cabled_dev,
                         ports=drv.ports):
        if not tc.selected(case.name, case.group, args.only):
            continue
        res = run_pair(case, args.timeout)
        ok, detail = tc.verdict(case, res, args.timeout)
        if ok:
            k.diag(f'{case.name}: {res.secs:.1f} s')
            # the client's figures: pingpong's lines, perftest's rows
            for line in res.client_out.splitlines():
                if line.strip()[:1].isdigit():
                    k.diag(f'  {line.strip()}')
        k.check(ok, case.name, detail)


def rdma_core(k, args, drv):
    for module, limit in tc.RDMA_CORE_MODULES:
        if not tc.selected(module, 'rdma-core', args.only):
            continue
        argv = ['python3', f'{BIN}/rdma_core_tests.py', '--dev', drv.dev,
                '--port', '1', '--poll-timeout', str(tc.POLL_CQ_TIMEOUT),
                module]
        t0 = time.monotonic()
        relayed, rc, timed_out = relay_run(k, argv, limit)
        k.diag(f'rdma-core {module}: {time.monotonic() - t0:.1f} s, '
               f'exit {rc}')
        if timed_out:
            k.fail(f'rdma-core {module}: ran to the end',
                   f'killed after {limit} s, {relayed.count} results '
                   'before; last lines: ' + ' | '.join(relayed.notes[-5:]))
        else:
            k.ran_to_end(relayed, f'rdma-core {module}')


def multicast(k, args, drv):
    """mcast_ud on the device: groups attached through the driver, UD
    packets to their multicast LIDs, one result per check it makes."""
    if not tc.selected(tc.MCAST, 'multicast', args.only):
        return
    relayed, rc, timed_out = relay_run(
        k, [f'{BIN}/{tc.MCAST}', drv.dev, str(min(drv.ports, 2))],
        tc.MCAST_SECS)
    k.diag(f'{tc.MCAST}: exit {rc}')
    k.ran_to_end(relayed, tc.MCAST, not timed_out)


def port_move(k, args, drv):
    """ib_mthca only: tests/verbs/test_port_move.py on mthca0, an RC QP
    drained and moved to port 2 in SQD, its messages then from port 2's
    LID (CHANGE_PHY_PORT) -- the stub's answer to ib_mthca's commands;
    the verbs stages run it on arbel0."""
    if drv.ko == 'arbel.ko' or not tc.selected(tc.PORT_MOVE, 'port-move',
                                               args.only):
        return
    t0 = time.monotonic()
    relayed, rc, timed_out = relay_run(
        k, ['python3', f'{BIN}/{tc.PORT_MOVE}.py', '--dev', drv.dev],
        tc.PORT_MOVE_SECS)
    k.diag(f'{tc.PORT_MOVE}: {time.monotonic() - t0:.1f} s, exit {rc}')
    k.ran_to_end(relayed, tc.PORT_MOVE, not timed_out)


def devinfo(k, args, drv):
    """arbel only, last: `ibv_devinfo -v` of arbel0, then the same stub
    unbound from arbel and bound to Debian's ib_mthca (driver_override),
    `ibv_devinfo -v` of mthca0; every field equal but the ones
    devinfo_compare.DIFFERENT lists, each differing as it says."""
    if drv.ko != 'arbel.ko' or not tc.selected('devinfo', 'devinfo',
                                               args.only):
        return
    name = 'ibv_devinfo -v: arbel0 beside mthca0 on the same stub, field ' \
        'by field'
    if not os.path.exists(f'{BIN}/ib_mthca.ko'):
        k.skip(name, 'no ib_mthca.ko for this kernel')
        return
    rc, arbel_out = run('ibv_devinfo', '-v', '-d', drv.dev)
    _, arbel_rdma = run('rdma', '-d', 'dev', 'show', drv.dev)
    bdf = os.path.basename(os.readlink(f'/sys/class/infiniband/{drv.dev}/'
                                       'device'))
    steps = [('/sys/bus/pci/drivers/arbel/unbind', bdf),
             (f'/sys/bus/pci/devices/{bdf}/driver_override', 'ib_mthca')]
    try:
        for path, value in steps:
            with open(path, 'w', encoding='ascii') as f:
                f.write(value)
    except OSError as e:
        k.fail(name, f'moving {bdf} from arbel to ib_mthca: {e}')
        return
    rc2, out = run('insmod', f'{BIN}/ib_mthca.ko')
    port = '/sys/class/infiniband/mthca0/ports/1'
    for _ in range(100):
        if tc.port_ready(sysfs(f'{port}/state'), sysfs(f'{port}/lid')):
            break
        time.sleep(0.1)
    rc3, mthca_out = run('ibv_devinfo', '-v', '-d', 'mthca0')
    _, mthca_rdma = run('rdma', '-d', 'dev', 'show', 'mthca0')
    if rc or rc2 or rc3:
        k.fail(name, f'ibv_devinfo arbel0 exit {rc}, insmod ib_mthca exit '
               f'{rc2} ({out}), ibv_devinfo mthca0 exit {rc3}')
        return
    problems, notes = dc.compare(arbel_out, mthca_out)
    for note in notes:
        k.diag('devinfo: ' + note)
    k.check(not problems, name, '; '.join(problems))
    # rdma(8) tells the fast-registration extension too: arbel's only
    caps = (dc.rdma_caps(arbel_rdma), dc.rdma_caps(mthca_rdma))
    k.check(caps[0] is not None and caps[1] is not None and
            'MEM_MGT_EXTENSIONS' in caps[0] - caps[1],
            'rdma -d dev show: MEM_MGT_EXTENSIONS on arbel0, not on mthca0',
            f'arbel0: {arbel_rdma!r}; mthca0: {mthca_rdma!r}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--driver', choices=sorted(tc.DRIVERS), default='mthca',
                    help='the module the clients run on (default mthca)')
    ap.add_argument('--timeout', type=float, default=20.0,
                    help='seconds for one server/client pair (default 20)')
    ap.add_argument('--only', default='',
                    help='comma-separated words: the cases to run')
    args = ap.parse_args()
    k = ktap.Ktap()
    drv = tc.DRIVERS[args.driver]
    if load(k, drv):
        wait_ports(k, drv)
        clients(k, args, drv)
        rdma_core(k, args, drv)
        multicast(k, args, drv)
        port_move(k, args, drv)
        devinfo(k, args, drv)
    else:
        k.fail('clients', f'no {drv.dev}: nothing to run')
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
