#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Guest half of the mthca-traffic stage: real RDMA clients, unmodified,
on Debian's ib_mthca + libmthca over arbel-stub (ports=2).

Runs as CMD in the test VM (tests/mthca/run.sh traffic, LOAD=0,
VM_PYTHON=1) with ib_mthca.ko, traffic_cases.py and rdma_core_tests.py
in /opt/arbel/bin:

  traffic_guest.py [--timeout S] [--only WORD,...]

  1. load: modprobe ib_uverbs, insmod ib_mthca.ko, mthca0 registered;
  2. both ports of mthca0 ACTIVE with a non-zero LID (sysfs, up to 20 s),
     each its own LID, as a subnet manager assigns them;
  3. each case of traffic_cases.py, one result each: server and client
     in this guest, at most --timeout seconds (default 20) for the pair,
     then both killed: the pingpongs over loopback and port 1 to port 2,
     perftest from port 1 to port 2;
  4. rdma-core's own traffic tests (rdma_core_tests.py), one process per
     module bounded by its time; each test one result, skips as skips.

--only runs the cases and rdma-core modules whose name contains one of
the words, or whose group ("pingpong", "perftest", "rdma-core") is one.
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
import traffic_cases as tc

BIN = '/opt/arbel/bin'
KO = f'{BIN}/ib_mthca.ko'
IBDEV = f'/sys/class/infiniband/{tc.DEV}'
PORTS = 2


def run(*argv):
    p = subprocess.run(argv, capture_output=True, text=True, check=False)
    return p.returncode, (p.stdout + p.stderr).strip()


def load(k):
    rc, out = run('modprobe', 'ib_uverbs')
    k.check(rc == 0, 'load: modprobe ib_uverbs', out)
    rc, out = run('insmod', KO)
    for _ in range(100):
        if os.path.isdir(IBDEV):
            break
        time.sleep(0.1)
    return k.check(rc == 0 and os.path.isdir(IBDEV),
                   'load: insmod ib_mthca.ko, mthca0 registered',
                   f'insmod exit {rc}: {out}')


def sysfs(path):
    try:
        with open(path, encoding='ascii') as f:
            return f.read().strip()
    except OSError:
        return ''


def wait_ports(k, limit=20.0):
    """Both ports of both devices active with a LID (the SM's work, the
    stub's here), every LID its own."""
    deadline = time.monotonic() + limit
    devs = (tc.DEV, tc.CABLED_DEV)
    while True:
        seen = {(d, p): (sysfs(f'/sys/class/infiniband/{d}/ports/{p}/state'),
                         sysfs(f'/sys/class/infiniband/{d}/ports/{p}/lid'))
                for d in devs for p in range(1, PORTS + 1)}
        ready = all(tc.port_ready(*v) for v in seen.values())
        if ready or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    text = ', '.join(f'{d} port {p}: {s or "?"} lid {lid or "?"}'
                     for (d, p), (s, lid) in seen.items())
    k.diag(text)
    k.check(ready, f'ports: {PORTS} ports of {tc.DEV} and of {tc.CABLED_DEV} '
            'ACTIVE with a non-zero LID', f'after {limit:.0f} s: {text}')
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


def clients(k, args):
    for case in tc.cases():
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


def rdma_core(k, args):
    for module, limit in tc.RDMA_CORE_MODULES:
        if not tc.selected(module, 'rdma-core', args.only):
            continue
        argv = ['python3', f'{BIN}/rdma_core_tests.py', '--dev', tc.DEV,
                '--port', '1', '--poll-timeout', str(tc.POLL_CQ_TIMEOUT),
                module]
        t0 = time.monotonic()
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
        relayed = k.relay(lines)
        k.diag(f'rdma-core {module}: {time.monotonic() - t0:.1f} s, '
               f'exit {rc}')
        if timed_out:
            k.fail(f'rdma-core {module}: ran to the end',
                   f'killed after {limit} s, {relayed.count} results '
                   'before; last lines: ' + ' | '.join(relayed.notes[-5:]))
        else:
            k.ran_to_end(relayed, f'rdma-core {module}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--timeout', type=float, default=20.0,
                    help='seconds for one server/client pair (default 20)')
    ap.add_argument('--only', default='',
                    help='comma-separated words: the cases to run')
    args = ap.parse_args()
    k = ktap.Ktap()
    if load(k):
        wait_ports(k)
        clients(k, args)
        rdma_core(k, args)
    else:
        k.fail('clients', 'no mthca0: nothing to run')
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
