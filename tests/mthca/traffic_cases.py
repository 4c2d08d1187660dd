# SPDX-License-Identifier: GPL-2.0
"""The traffic stages' clients: what runs, how, and what passes.

Pure (no device, no process): traffic_guest.py runs these cases in the
VM, tests/pylib/tests/test_mthca_traffic.py tests them on the host.  The
same clients judge both drivers over the stub: the mthca-traffic stage
runs them on Debian's ib_mthca, the arbel-traffic stage on arbel, both
with two ports a device (DRIVERS; until 2026-12-07 arbel drove port 1
only, had no port 1 to port 2 and ran its perftest over loopback).

A Case is one pair of processes, a server and a client of the same
program in one guest, which meet over TCP on 127.0.0.1 (a port of their
own) to swap their QP numbers and LIDs, then move data through mthca0:
  - rdma-core's ibverbs-utils pingpongs (RC, UC, UD, SRQ), buffers
    validated (-c), over loopback (both on port 1) and from port 1 to
    port 2; a pass is both exiting 0 and the client printing its
    "N bytes in S seconds" and "N iters in S seconds" lines;
  - perftest (write, read, send and atomic bandwidth and latency),
    server on port 1, client on port 2; a pass is both exiting 0
    (perftest has no data check of its own);
  - over the cable: the RC and UD pingpongs and ib_write_bw from mthca0
    to mthca1, a second arbel-stub joined to the first by its "cable"
    property (LIDs 3 and 4).
"""

import re

DEV = 'mthca0'
CABLED_DEV = 'mthca1'


class Driver:
    """What a stage runs the clients on: the module (a file in the guest's
    bin directory), its two devices (the second cabled) and the ports a
    device has (the multicast client's receiver B is on port 2, or on
    port 1 of a device of one port)."""

    def __init__(self, ko, dev, cabled_dev, ports):
        self.ko = ko
        self.dev = dev
        self.cabled_dev = cabled_dev
        self.ports = ports


DRIVERS = {
    'mthca': Driver('ib_mthca.ko', DEV, CABLED_DEV, 2),
    'arbel': Driver('arbel.ko', 'arbel0', 'arbel1', 2),
}
# the multicast client (mcast_ud.c): its KTAP relayed; seconds it may take
MCAST = 'mcast_ud'
MCAST_SECS = 60
# an RC QP moved to port 2 in SQD (tests/verbs/test_port_move.py)
PORT_MOVE = 'test_port_move'
PORT_MOVE_SECS = 60
SERVER_HOST = '127.0.0.1'
FIRST_TCP_PORT = 18515

PINGPONGS = ('rc', 'uc', 'ud', 'srq')
# (name, server's IB port, client's IB port)
TOPOLOGIES = (('loopback on port 1', 1, 1), ('port 1 to port 2', 1, 2))
PERFTESTS = ('ib_write_bw', 'ib_read_bw', 'ib_send_bw', 'ib_atomic_bw',
             'ib_write_lat', 'ib_read_lat', 'ib_send_lat', 'ib_atomic_lat')

# what a pingpong prints at its end (rdma-core's pingpong.c)
BYTES_RE = re.compile(r'^\d+ bytes in [\d.]+ seconds = [\d.]+ Mbit/sec$',
                      re.M)
ITERS_RE = re.compile(r'^\d+ iters in [\d.]+ seconds = [\d.]+ usec/iter$',
                      re.M)


class Case:
    """One server/client pair."""

    def __init__(self, group, name, server, client, tcp_port):
        self.group = group          # 'pingpong' or 'perftest'
        self.name = name
        self.server = server        # argv
        self.client = client        # argv
        self.tcp_port = tcp_port

    def __repr__(self):
        return f'Case({self.name!r})'


def pingpong_args(kind, ib_port, tcp_port, iters, size, dev=DEV):
    return [f'ibv_{kind}_pingpong', '-d', dev, '-i', str(ib_port),
            '-p', str(tcp_port), '-n', str(iters), '-s', str(size), '-c']


def perftest_args(prog, ib_port, tcp_port, iters, size, dev=DEV):
    argv = [prog, '-d', dev, '-i', str(ib_port), '-p', str(tcp_port),
            '-n', str(iters), '-F', '--use_old_post_send']
    if not prog.startswith('ib_atomic'):    # atomics are 8 bytes
        argv += ['-s', str(size)]
    if prog.endswith('_bw'):
        argv.append('--report_gbits')
    return argv


def cases(pp_iters=50, pp_size=64, pt_iters=100, pt_size=4096, dev=DEV,
          cabled_dev=CABLED_DEV, ports=2):
    """Every case, each on a TCP port of its own; a device of one port
    has no port 1 to port 2, and its perftest runs over loopback."""
    out = []
    port = FIRST_TCP_PORT
    topologies = [t for t in TOPOLOGIES if max(t[1:]) <= ports]
    pt_topo, pt_cport = (('port 1 to port 2', 2) if ports >= 2 else
                         ('loopback on port 1', 1))
    for kind in PINGPONGS:
        for topo, sport, cport in topologies:
            prog = f'ibv_{kind}_pingpong'
            out.append(Case(
                'pingpong', f'{prog} {topo}',
                pingpong_args(kind, sport, port, pp_iters, pp_size, dev),
                pingpong_args(kind, cport, port, pp_iters, pp_size, dev) +
                [SERVER_HOST], port))
            port += 1
    for prog in PERFTESTS:
        out.append(Case(
            'perftest', f'{prog} {pt_topo}',
            perftest_args(prog, 1, port, pt_iters, pt_size, dev),
            perftest_args(prog, pt_cport, port, pt_iters, pt_size, dev) +
            [SERVER_HOST], port))
        port += 1
    for kind in ('rc', 'ud'):
        prog = f'ibv_{kind}_pingpong'
        out.append(Case(
            'pingpong', f'{prog} device to device over the cable',
            pingpong_args(kind, 1, port, pp_iters, pp_size, dev),
            pingpong_args(kind, 1, port, pp_iters, pp_size, cabled_dev) +
            [SERVER_HOST], port))
        port += 1
    out.append(Case(
        'perftest', 'ib_write_bw device to device over the cable',
        perftest_args('ib_write_bw', 1, port, pt_iters, pt_size, dev),
        perftest_args('ib_write_bw', 1, port, pt_iters, pt_size,
                      cabled_dev) + [SERVER_HOST], port))
    return out


def selected(name, group, only):
    """Whether a case (or an rdma-core module: group 'rdma-core') runs for
    --only @only (comma-separated words; empty: everything): a word that
    is the group, or a part of the name."""
    words = [w.strip() for w in (only or '').split(',') if w.strip()]
    return not words or any(w == group or w in name for w in words)


class Result:
    """What a pair did: exit statuses (None: it did not exit, or with
    output None, never started), outputs, whether the timeout hit, the
    seconds it took, a note on what went wrong around them."""

    def __init__(self, server_rc, server_out, client_rc, client_out,
                 timed_out=False, secs=0.0, note=''):
        self.server_rc = server_rc
        self.server_out = server_out
        self.client_rc = client_rc
        self.client_out = client_out
        self.timed_out = timed_out
        self.secs = secs
        self.note = note


def _tail(text, n=6):
    lines = [x for x in (text or '').splitlines() if x.strip()]
    return ' | '.join(lines[-n:]) or '(no output)'


def verdict(case, res, timeout):
    """(passed, detail): a pingpong passes when both exit 0 and the client
    printed its bytes and iters lines; perftest when both exit 0."""
    problems = []
    if res.note:
        problems.append(res.note)
    if res.timed_out:
        problems.append(f'timed out after {timeout} s, killed')
    for who, rc, out in (('server', res.server_rc, res.server_out),
                         ('client', res.client_rc, res.client_out)):
        if rc is None:
            if out is not None:
                problems.append(f'{who} did not exit')
        elif rc != 0:
            problems.append(f'{who} exit {rc}' +
                            (' (killed)' if rc < 0 else ''))
    if case.group == 'pingpong' and not problems:
        if not BYTES_RE.search(res.client_out or ''):
            problems.append('client printed no "N bytes in S seconds" line')
        if not ITERS_RE.search(res.client_out or ''):
            problems.append('client printed no "N iters in S seconds" line')
    if not problems:
        return True, ''
    client = ('never started' if res.client_out is None
              else _tail(res.client_out))
    return False, ('; '.join(problems) + f' ({res.secs:.1f} s)' +
                   f'\nserver: {" ".join(case.server)}\n  {_tail(res.server_out)}'
                   f'\nclient: {" ".join(case.client)}\n  {client}')


def listening(port, proc_net_tcp):
    """Whether the text of /proc/net/tcp (or tcp6) has a socket listening
    on TCP @port (state 0A)."""
    want = f':{port:04X}'
    for line in proc_net_tcp.splitlines()[1:]:
        f = line.split()
        if len(f) > 3 and f[1].upper().endswith(want) and f[3] == '0A':
            return True
    return False


def port_ready(state, lid):
    """Whether a port's sysfs state ("4: ACTIVE") and lid ("0x1") say
    it is active with a LID assigned."""
    try:
        return state.split(':')[0].strip() == '4' and int(lid, 16) != 0
    except ValueError:
        return False


# rdma-core's own tests (/opt/rdma-core/tests) that move data or build
# what moves it, each module in a process of its own bounded by its time
# (seconds; a hung get_cq_event cannot stall the rest).  rdma-core 44 has
# no test_srq; test_cq_events waits for a completion event unbounded.
RDMA_CORE_MODULES = (('test_qp', 45), ('test_cq', 45), ('test_cqex', 45),
                     ('test_qpex', 90), ('test_mr', 90),
                     ('test_atomic', 90), ('test_cq_events', 30))
# rdma-core's utils.POLL_CQ_TIMEOUT (10 s) for a completion that never
# comes; a CQE of the stub's comes in milliseconds
POLL_CQ_TIMEOUT = 5


def distinct_lids(lids):
    """Whether the ports' sysfs LIDs ("0x1", ...) are non-zero and each
    its own: a subnet manager gives every port of a subnet a LID of its
    own, and a packet from port 1 reaches port 2 by port 2's LID."""
    try:
        values = [int(x, 16) for x in lids]
    except ValueError:
        return False
    return all(values) and len(set(values)) == len(values)
