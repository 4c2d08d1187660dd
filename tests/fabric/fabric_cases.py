# SPDX-License-Identifier: GPL-2.0
"""The fabric stages' clients: what runs where, and what passes.

Pure (no device, no process): fabric_guest.py runs these in the VM,
tests/pylib/tests/test_fabric_cases.py tests them on the host.

The fabric: two arbel-stubs joined by their "cable" property, with IPoIB
on every port.  Hosts are network namespaces -- A the guest's own, B and C
of their own --, each holding one IPoIB interface, so that every packet
between them crosses the stub's fabric rather than the kernel's
loopback.  The mthca-fabric stage runs Debian's ib_mthca, the
arbel-fabric stage arbel.ko, both alike (two ports a device: A is port 1
of the first device, B its port 2, C port 1 of the cabled one; until
2026-12-07 arbel drove port 1 only, and had A and B).  Addresses come
from the subnet administrator only: IPoIB joins its broadcast group
there and asks it for the path to each neighbour, rdma_cm resolves the
route through it.

Cases, each one result:
  - ping A -> B, B -> A and A -> C, in datagram mode and in
    connected mode (RC QPs the IB CM connects: its MADs travel between the
    hosts' QP1s);
  - 16 MiB over TCP from A to B in each mode, the receiver's SHA-256 equal
    to the sender's;
  - rdmacm-utils: rping (-v -V -C 100, every ping printed), ucmatose and
    udaddy (both "return status 0"), mckey: a sender on A, receivers on B
    and C, each getting every message;
  - perftest over rdma_cm (-R): ib_write_bw and ib_send_lat, server on B;
  - the storage group (storage.py), on A's device and address through
    loopback: NVMe over Fabrics and NFS over RDMA, 64 MiB each way,
    every byte compared; on ib_mthca (no fast registration) the host's
    connect and the client's mount refused, with the kernel's reason;
  - arbel only, last (fabric_guest.py's reloads()): Driver.cycles times,
    rmmod with IPoIB up and a ping running, insmod, IPoIB back and a ping
    answered.
"""

import re

ADDR = {'A': '10.9.0.1', 'B': '10.9.0.2', 'C': '10.9.0.3'}


class Host:
    """A host of the fabric: its IPoIB interface, its device and port."""

    def __init__(self, iface, dev, port):
        self.iface = iface
        self.dev = dev
        self.port = port


class Driver:
    """What a stage runs on: the module (a file in the guest's bin
    directory), how many IPoIB interfaces it makes, its hosts, how many
    times the stage reloads it with IPoIB up (issue 28 asks 10 of arbel;
    ib_mthca's reloads are the mthca stages'), and whether its devices do
    fast registration (IB_DEVICE_MEM_MGT_EXTENSIONS: issue 29 asks it of
    arbel; ib_mthca's device lacks it, and the storage group expects
    NVMe over Fabrics' host and the NFS client to refuse it)."""

    def __init__(self, ko, ifaces, hosts, cycles=0, frwr=False):
        self.ko = ko
        self.ifaces = ifaces
        self.hosts = hosts
        self.cycles = cycles
        self.frwr = frwr


DRIVERS = {
    'mthca': Driver('ib_mthca.ko', 4, {'A': Host('ib0', 'mthca0', 1),
                                       'B': Host('ib1', 'mthca0', 2),
                                       'C': Host('ib2', 'mthca1', 1)}),
    'arbel': Driver('arbel.ko', 4, {'A': Host('ib0', 'arbel0', 1),
                                    'B': Host('ib1', 'arbel0', 2),
                                    'C': Host('ib2', 'arbel1', 1)},
                     cycles=10, frwr=True),
}
PREFIX = 24
PING_COUNT = 3
XFER_BYTES = 16 << 20
XFER_PORT = 5001
RPING_COUNT = 100
MCKEY_COUNT = 10
MCKEY_GROUP = '239.1.2.3'
CM_MTU = 65520          # IPoIB's connected-mode MTU
PERFTEST_PORT = 18515   # perftest's default port (its rdma_cm port with -R)
MODES = ('datagram', 'connected')

# busybox ping's summary line
PING_RE = re.compile(r'(\d+) packets transmitted, (\d+) packets received')
# rping -v: one line per ping the client got back
RPING_RE = re.compile(r'^ping data: rdma-ping-\d+: ', re.M)
# ucmatose, udaddy, mckey: their last line
CMATOSE_RE = re.compile(r'^return status 0$', re.M)


class Case:
    """A server (or receivers) and a client, each in a host's namespace.

    servers: [(host, argv)], started first, in order; client: (host,
    argv); verdict(outputs) -> (ok, detail) where outputs is
    [(rc, text)] for the servers, then the client."""

    def __init__(self, group, name, servers, client, verdict, settle=0.5,
                 mode=None, listen=None):
        self.group = group
        self.mode = mode          # IPoIB's mode it needs, None: any
        self.name = name
        self.servers = servers
        self.client = client
        self.verdict = verdict
        self.settle = settle      # seconds between servers and client
        # an rdma_cm port the first server listens on: the client starts
        # once the server's host lists it (`rdma resource show cm_id`),
        # not after a fixed settle (under load a server took longer)
        self.listen = listen

    def __repr__(self):
        return f'Case({self.name!r})'


def listening(text, port):
    """Whether `rdma resource show cm_id` output @text has an rdma_cm ID
    listening on @port ("state LISTEN ... src-addr ADDR:PORT")."""
    return any('state LISTEN' in line and
               re.search(rf'src-addr \S*:{port}\b', line)
               for line in (text or '').splitlines())


def ping_ok(text, count=PING_COUNT):
    """(ok, detail): every ping answered."""
    m = PING_RE.search(text or '')
    if not m:
        return False, 'no ping summary: ' + (text or '')[-200:]
    sent, got = int(m.group(1)), int(m.group(2))
    return sent == count and got == count, f'{got}/{sent} answered'


def all_exit_zero(outputs):
    bad = [f'#{i} exit {rc}' for i, (rc, _) in enumerate(outputs) if rc != 0]
    return not bad, ', '.join(bad)


def rping_verdict(outputs):
    ok, detail = all_exit_zero(outputs)
    n = len(RPING_RE.findall(outputs[-1][1] or ''))
    return ok and n == RPING_COUNT, \
        f'{detail} client printed {n} of {RPING_COUNT} pings'.strip()


def cmatose_verdict(outputs):
    ok, detail = all_exit_zero(outputs)
    missing = [i for i, (_, t) in enumerate(outputs)
               if not CMATOSE_RE.search(t or '')]
    return ok and not missing, \
        f'{detail} no "return status 0" from #{missing}'.strip()


def exit_verdict(outputs):
    return all_exit_zero(outputs)


def ping_case(mode, src, dst):
    return Case('ipoib', f'{mode}: ping {src} -> {dst}', [],
                (src, ['ping', '-c', str(PING_COUNT), '-W', '3',
                       ADDR[dst]]),
                lambda o: ping_ok(o[-1][1]), mode=mode)


def xfer_verdict(outputs):
    """tcp_xfer.py prints "<bytes> <sha256>" on both ends."""
    ok, detail = all_exit_zero(outputs)
    ends = [(t or '').split() for _, t in outputs]
    if not ok or any(len(e) != 2 for e in ends):
        return False, f'{detail} outputs {ends}'
    same = ends[0] == ends[1] and int(ends[0][0]) == XFER_BYTES
    return same, f'server {ends[0]}, client {ends[1]}'


def perftest(prog, drv):
    a, b = drv.hosts['A'], drv.hosts['B']
    return Case('perftest', f'{prog} -R from A to B',
                [('B', [prog, '-R', '-d', b.dev, '-i', str(b.port), '-n',
                        '100', '-F'])],
                ('A', [prog, '-R', '-d', a.dev, '-i', str(a.port), '-n',
                       '100', '-F', ADDR['B']]),
                exit_verdict, settle=1.0, listen=PERFTEST_PORT)


def cases(drv=DRIVERS['mthca']):
    """Every case for @drv's hosts, in the order they run (each mode's
    cases after the switch to it)."""
    out = []
    pairs = [p for p in (('A', 'B'), ('B', 'A'), ('A', 'C'))
             if p[1] in drv.hosts]
    receivers = [h for h in ('B', 'C') if h in drv.hosts]
    for mode in MODES:
        for src, dst in pairs:
            out.append(ping_case(mode, src, dst))
        out.append(Case(
            'ipoib', f'{mode}: TCP, 16 MiB from A to B, checksums equal',
            [('B', ['python3', '/opt/arbel/bin/tcp_xfer.py', 'server',
                    str(XFER_PORT)])],
            ('A', ['python3', '/opt/arbel/bin/tcp_xfer.py', 'client',
                   ADDR['B'], str(XFER_PORT), str(XFER_BYTES)]),
            xfer_verdict, settle=1.0, mode=mode))
    out += [
        Case('rdma_cm', 'rping -v -V -C 100 from A to B',
             [('B', ['rping', '-s', '-V', '-a', ADDR['B'], '-C',
                     str(RPING_COUNT)])],
             ('A', ['rping', '-c', '-v', '-V', '-a', ADDR['B'], '-C',
                    str(RPING_COUNT)]),
             rping_verdict),
        Case('rdma_cm', 'ucmatose from A to B',
             [('B', ['ucmatose', '-b', ADDR['B']])],
             ('A', ['ucmatose', '-s', ADDR['B']]), cmatose_verdict),
        Case('rdma_cm', 'udaddy from A to B',
             [('B', ['udaddy', '-b', ADDR['B']])],
             ('A', ['udaddy', '-s', ADDR['B']]), cmatose_verdict),
        Case('rdma_cm', f'mckey: A sends {MCKEY_COUNT} messages to '
             f'{MCKEY_GROUP}, {" and ".join(receivers)} get each',
             [(h, ['mckey', '-m', MCKEY_GROUP, '-b', ADDR[h], '-C',
                   str(MCKEY_COUNT)]) for h in receivers],
             ('A', ['mckey', '-m', MCKEY_GROUP, '-b', ADDR['A'], '-s',
                    '-C', str(MCKEY_COUNT)]),
             cmatose_verdict, settle=3.0),
        perftest('ib_write_bw', drv),
        perftest('ib_send_lat', drv),
    ]
    return out


def mode_argv(iface, mode):
    """ip(8) commands that put an IPoIB interface in @mode, with that
    mode's MTU (connected: 65520; datagram: the largest the 2048-byte IB
    MTU leaves, which IPoIB clamps the 2044 it gets to)."""
    mtu = CM_MTU if mode == 'connected' else 2044
    return [['ip', 'link', 'set', 'dev', iface, 'type', 'ipoib', 'mode',
             mode],
            ['ip', 'link', 'set', 'dev', iface, 'mtu', str(mtu)]]


def link_up(text):
    """Whether `ip -br link show` says the interface is UP."""
    f = (text or '').split()
    return len(f) >= 2 and f[1] == 'UP'


def selected(name, group, only):
    """Whether a case runs for --only @only (comma-separated words; empty:
    all): a word that is its group, or a part of its name."""
    words = [w.strip() for w in (only or '').split(',') if w.strip()]
    return not words or any(w == group or w in name for w in words)
