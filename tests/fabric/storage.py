# SPDX-License-Identifier: GPL-2.0
"""The fabric stages' storage group (issue 29): the kernel's block and
file protocols over one RDMA device, in the VM, through loopback (the
target and the host, the server and the client, both in the guest's own
network namespace: nvme-rdma, nvmet-rdma, xprtrdma and svcrdma all make
their connections in init_net).

  nvme   nvmet + nvmet-rdma export a memory-backed null_blk (configfs,
         /sys/kernel/config/nvmet) on ADDR:4420; the host connects
         with Debian's nvme-cli ("nvme connect -t rdma -a ADDR -s 4420
         -n NQN", unpacked on the host with the libraries the VM lacks,
         never installed there); 64 MiB written to /dev/nvmeXnY with
         O_DIRECT in 1 MiB blocks, the target's null_blk read locally
         and the namespace read back (O_DIRECT), each byte compared;
         "nvme disconnect -n NQN"; the target torn down, its modules
         removed.
  nfs    Debian's rpc.mountd and exportfs (nfs-kernel-server, unpacked
         on the host, never installed there) export a tmpfs; nfsd set
         up through /proc/fs/nfsd as rpc.nfsd does, but NFSv4 only and
         "rdma 20049" its one listener (rpc.nfsd refuses NFSv4 without
         TCP), its grace period ended; "mount -t nfs -o
         vers=4.2,proto=rdma,port=20049 ADDR:/srv/arbel-nfs" (mount(2)
         with the options mount.nfs passes the kernel); 64 MiB written
         through the mount (and fsync), the server's file compared, the
         caches dropped, the file read back through the mount with
         O_DIRECT and compared; unmounted; nfsd stopped, its modules
         removed.

On a device without IB_DEVICE_MEM_MGT_EXTENSIONS (ib_mthca's) nvme-rdma's
host and the NFS client's xprtrdma refuse the device: there the connect
and the mount must fail, quickly, with the kernel's reason in dmesg
(REFUSALS), and that passes as "refused as expected"; the targets (which
need no fast registration on InfiniBand) must come up and go down all
the same.

Each step is one KTAP result of the Ktap writer fabric_guest.py passes
in, at most a step's seconds: whatever may block in the kernel (a
connect, a mount, I/O over the fabric, a write to a controller's or
nfsd's control files, an rmmod) runs in a child process (forked, or a
shell), killed after that time and then abandoned (a task stuck in the
kernel cannot be waited for).  The pattern, the option strings and the
verdicts are pure (tests/pylib/tests/test_storage.py).  Debian's tools
(nvme-cli, rpc.mountd, exportfs) run as they are, with LD_LIBRARY_PATH
their directory in the guest-bin.
"""

import ctypes
import glob
import mmap
import os
import random
import re
import select
import shlex
import signal
import struct
import subprocess
import tempfile
import time

SIZE = 64 << 20
BLOCK = 1 << 20
PAGE = 4096
SEED = 29
MAGIC = b'ARBEL-29'

NQN = 'nqn.2026-12.org.arbel:issue29'
# the host's: nvme-cli reads them from /etc/nvme, which the VM has not
HOSTID = '29a2be10-0000-4000-8000-000000000029'
HOSTNQN = f'nqn.2014-08.org.nvmexpress:uuid:{HOSTID}'
NVME_PORT = 4420
NFS_PORT = 20049
EXPORT = '/srv/arbel-nfs'
MNT = '/mnt/arbel-nfs'
NFS_FILE = 'pattern.bin'
NVMET = '/sys/kernel/config/nvmet'
NFSD = '/proc/fs/nfsd'
TIMED_OUT = 'timed out after'

# What the kernel says when it refuses a device without fast registration
# (6.1 and 6.12: nvme-rdma's nvme_rdma_find_get_device(), xprtrdma's
# frwr_query_device()); {dev}: the device.
REFUSALS = {
    'nvme': 'Memory registrations not supported',
    'nfs': "rpcrdma: 'frwr' mode is not supported by device {dev}",
}

# ---------------------------------------------------------------- pure


def base_block():
    """The pseudo-random 1 MiB every block of the pattern starts from."""
    return random.Random(SEED).randbytes(BLOCK)


def block(index, base):
    """Block @index of the pattern: @base with every 4 KiB page's first
    16 bytes replaced by MAGIC and the page's byte offset in the pattern,
    so that a page written to or read from the wrong place differs."""
    b = bytearray(base)
    for off in range(0, BLOCK, PAGE):
        b[off:off + 16] = MAGIC + struct.pack('<Q', index * BLOCK + off)
    return b


def first_difference(got, want):
    """The first offset where @got and @want differ (a shorter @got
    differs where it ends), None if they are equal."""
    if got == want:
        return None
    n = min(len(got), len(want))
    lo, hi = 0, n
    while hi - lo > 64:                 # halve: comparisons stay in C
        mid = (lo + hi) // 2
        if got[lo:mid] != want[lo:mid]:
            hi = mid
        else:
            lo = mid
    for i in range(lo, hi):
        if got[i] != want[i]:
            return i
    return n


def nvme_connect_args(addr, nqn=NQN, port=NVME_PORT):
    """nvme-cli's arguments for "nvme connect -t rdma -a @addr -s @port
    -n @nqn": the host's NQN and id given (the VM has no /etc/nvme), one
    I/O queue, and a lost connection gives up at once (no 10 minutes of
    reconnecting); "device: nvmeN" printed."""
    return ['connect', '-t', 'rdma', '-a', addr, '-s', str(port),
            '-n', nqn, '-q', HOSTNQN, '-I', HOSTID, '-i', '1',
            '-l', '5', '-c', '1', '-o', 'normal']


def nvme_controller(text):
    """The new controller's name from "nvme connect"'s output ("device:
    nvme0"; "device" : "nvme0" with -o json), None if there is none."""
    m = re.search(r'^\s*"?device"?\s*:\s*"?(nvme\d+)\b', text or '',
                  re.M)
    return m.group(1) if m else None


def new_controllers(before, after, nqn=NQN):
    """The controllers (names) in @after, {name: subsysnqn} read from
    /sys/class/nvme-fabrics/ctl, that are not in @before and are
    connected to @nqn."""
    return sorted(c for c, n in after.items()
                  if c not in before and n.strip() == nqn)


def nfs_options(addr, port=NFS_PORT):
    """What mount.nfs hands the kernel for "mount -t nfs -o
    vers=4.2,proto=rdma,port=@port @addr:/...": the server's address is
    always passed (the kernel resolves no names)."""
    return f'vers=4.2,proto=rdma,port={port},addr={addr},clientaddr={addr}'


def mount_options(mounts, target):
    """The options /proc/mounts (@mounts, its text) shows for the file
    system mounted at @target, as a dict; None if nothing is."""
    for line in (mounts or '').splitlines():
        f = line.split()
        if len(f) >= 4 and f[1] == target:
            return dict(o.partition('=')[::2] for o in f[3].split(','))
    return None


def new_lines(before, after):
    """The lines of dmesg @after that dmesg @before did not have yet."""
    b, a = (before or '').splitlines(), (after or '').splitlines()
    return a[len(b):] if a[:len(b)] == b else a


def refusal(kind, dev, rc, output, dmesg):
    """(ok, detail): a connect (@kind 'nvme') or a mount ('nfs') on @dev,
    a device without fast registration, refused as expected: it failed
    (@rc not 0; None: it did not end) and the kernel logged its reason in
    @dmesg (the lines since it started)."""
    reason = REFUSALS[kind].format(dev=dev)
    seen = [x for x in dmesg if reason in x]
    if rc is None:
        return False, f'still running: a hang, not a refusal ({output})'
    if rc == 0:
        return False, f'it succeeded on {dev}: {output}'
    if not seen:
        return False, (f'failed ({output}) but dmesg has no "{reason}": '
                       'refused for another reason? ' +
                       ' | '.join(dmesg[-5:]))
    return True, f'{output}; dmesg: {seen[0].strip()}'


# the frames every blocked task's stack has
SCHED = re.compile(r'\s(<TASK>|</TASK>|Call Trace:|(__)?schedule\w*\+|'
                   r'R[A-Z0-9]{2}: |'
                   r'ret_from_fork|kthread\+|worker_thread\+|'
                   r'process_one_work\+|entry_SYSCALL|do_syscall_64\+|'
                   r'\? )')


def blocked_stacks(dmesg_lines, limit=40):
    """From dmesg after a SysRq w: the blocked tasks and their stacks,
    without the frames every one of them has; at most @limit lines."""
    start = max((i for i, x in enumerate(dmesg_lines)
                 if 'Show Blocked State' in x), default=None)
    if start is None:
        return []
    return [x for x in dmesg_lines[start + 1:]
            if x.strip() and not SCHED.search(x)][:limit]


def rate(nbytes, secs):
    """"N MiB in S s (R MiB/s)"."""
    mib = nbytes / (1 << 20)
    return f'{mib:.0f} MiB in {secs:.1f} s ({mib / max(secs, 1e-3):.1f} MiB/s)'


# ------------------------------ what a child does (in_child() runs it)


def do_write(path, direct):
    """The pattern into @path (O_DIRECT if @direct, else through the page
    cache), then fsync: (rc, what it did)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT |
                 (os.O_DIRECT if direct else 0), 0o644)
    buf = mmap.mmap(-1, BLOCK)          # page-aligned, as O_DIRECT wants
    base = base_block()
    t0 = time.monotonic()
    i = 0
    try:
        for i in range(SIZE // BLOCK):
            buf[:] = block(i, base)
            n = os.pwrite(fd, buf, i * BLOCK)
            if n != BLOCK:
                return 1, f'short write at byte {i * BLOCK}: {n} bytes'
        os.fsync(fd)
    except OSError as e:
        return 1, f'write of block {i}: {e.strerror} (errno {e.errno})'
    finally:
        os.close(fd)
    return 0, rate(SIZE, time.monotonic() - t0)


def do_verify(path, direct):
    """Read SIZE bytes of @path (O_DIRECT if @direct) and compare them
    with the pattern: (rc, the first difference or the rate)."""
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECT if direct else 0))
    buf = mmap.mmap(-1, BLOCK)
    base = base_block()
    t0 = time.monotonic()
    i = 0
    try:
        for i in range(SIZE // BLOCK):
            n = os.preadv(fd, [buf], i * BLOCK)
            got, want = buf[:n], block(i, base)
            off = first_difference(got, want)
            if off is not None:
                return 1, (f'differs at byte {i * BLOCK + off} (block {i}, '
                           f'page {off // PAGE}): read '
                           f'{got[off:off + 16].hex()}, expected '
                           f'{want[off:off + 16].hex()}' +
                           (f' ({n} bytes read)' if n != BLOCK else ''))
    except OSError as e:
        return 1, f'read of block {i}: {e.strerror} (errno {e.errno})'
    finally:
        os.close(fd)
    return 0, rate(SIZE, time.monotonic() - t0) + ', every byte equal'


def do_mount(src, target, fstype, options):
    """mount(2), as mount.nfs calls it: (rc, the error)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mount(src.encode(), target.encode(), fstype.encode(), 0,
                  options.encode()):
        e = ctypes.get_errno()
        return 1, f'mount: {os.strerror(e)} (errno {e})'
    return 0, ''


# ----------------------------------------------------- the guest's steps


def run(argv, timeout=30, env=None):
    """(rc, output) of @argv (in @env, else ours), at most @timeout
    seconds; rc None when it did not end (killed then, and not waited for
    more than 5 s: a task stuck in the kernel cannot be)."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         text=True, env=env)
    try:
        out = p.communicate(timeout=timeout)[0]
        return p.returncode, out.strip()
    except subprocess.TimeoutExpired:
        p.kill()
        try:
            out = p.communicate(timeout=5)[0] or ''
        except subprocess.TimeoutExpired:
            out = '(stuck in the kernel)'
        return None, f'{TIMED_OUT} {timeout} s: {out.strip()}'


def in_child(timeout, fn, *args):
    """fn(*args) -> (rc, text) in a forked child, at most @timeout
    seconds: (rc, text); rc None when it did not end (killed then, and
    abandoned after 5 s more: a task stuck in the kernel cannot be).
    Forked, not a new interpreter: that costs a second under TCG."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                        # the child
        os.close(r)
        try:
            rc, text = fn(*args)
        except BaseException as e:      # pylint: disable=broad-except
            rc, text = 1, f'{type(e).__name__}: {e}'
        os.write(w, f'{rc}\n{text}'.encode())
        os._exit(0)
    os.close(w)
    data, ended = b'', False
    deadline = time.monotonic() + timeout
    with os.fdopen(r, 'rb', buffering=0) as f:
        while not ended:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([f], [], [], left)[0]:
                break
            chunk = f.read(65536)
            ended = not chunk
            data += chunk
    if not ended:
        os.kill(pid, signal.SIGKILL)
    limit = time.monotonic() + (timeout if ended else 5)
    while not os.waitpid(pid, os.WNOHANG)[0]:
        if time.monotonic() > limit:
            break
        time.sleep(0.05)
    if not ended:
        return None, f'{TIMED_OUT} {timeout} s'
    head, _, text = data.decode(errors='replace').partition('\n')
    return (int(head) if head.lstrip('-').isdigit() else 1), text


def child_ok(timeout, fn, *args):
    """in_child() as a step's (ok, detail)."""
    rc, text = in_child(timeout, fn, *args)
    return rc == 0, text


# a module just let go of may stay busy a moment (nfsd after its threads)
RMMOD = ('rmmod_wait() { for i in 1 2 3 4 5 6 7 8 9 10; do '
         'rmmod "$1" 2>/dev/null && return 0; sleep 0.5; done; '
         'rmmod "$1"; }')


def shell(lines, timeout, keep_going=False):
    """The shell commands @lines in one bash, at most @timeout seconds:
    (ok, output).  A command that fails prints "failed: COMMAND" and ends
    the script, or with @keep_going the others still run.  rmmod_wait
    MODULE retries rmmod for 5 s."""
    script = [RMMOD, 'bad=0']
    for line in lines:
        msg = shlex.quote(f'failed: {line}')
        script.append(f'{line} || {{ bad=1; echo {msg}; ' +
                      ('' if keep_going else 'exit 1; ') + '}')
    script.append('exit $bad')
    rc, out = run(['bash', '-c', '\n'.join(script)], timeout)
    return rc == 0, out


def q(path):
    """@path quoted for a shell()'s command line."""
    return shlex.quote(path)


def dmesg():
    """The kernel's log."""
    return run(['dmesg'])[1]


def blocked_tasks():
    """The stacks of the kernel's blocked tasks (SysRq w), for a step
    that failed: '' if there is none."""
    try:
        with open('/proc/sysrq-trigger', 'w') as f:
            f.write('w')
    except OSError as e:
        return f'(SysRq w: {e.strerror})'
    time.sleep(1)
    lines = blocked_stacks(dmesg().splitlines())
    return '\n'.join(['blocked tasks (SysRq w):'] + lines) if lines else ''


def read_file(path):
    """A sysfs or procfs file's text, stripped; '' if it cannot be read."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ''


def steps(k, prefix, todo):
    """Run (name, fn) pairs in order as results '@prefix: name'; fn()
    returns (ok, detail).  The first failure ends them; returns whether
    all passed."""
    for name, fn in todo:
        t0 = time.monotonic()
        try:
            ok, detail = fn()
        except (OSError, ValueError) as e:
            ok, detail = False, f'{type(e).__name__}: {e}'
        k.diag(f'{prefix}: {name}: {time.monotonic() - t0:.1f} s'
               + (f'; {detail}' if ok and detail else ''))
        if not ok:                      # a hang, or what a hang left
            detail = '\n'.join(x for x in (detail, blocked_tasks()) if x)
        if not k.check(ok, f'{prefix}: {name}', detail):
            return False
    return True


def fabrics_ctls():
    """The fabrics controllers: {name: subsysnqn} from
    /sys/class/nvme-fabrics/ctl."""
    return {os.path.basename(d): read_file(f'{d}/subsysnqn')
            for d in glob.glob('/sys/class/nvme-fabrics/ctl/nvme*')}


def wait_for(cond, limit=10.0):
    """Poll @cond() every 0.2 s for at most @limit seconds: its last
    value."""
    deadline = time.monotonic() + limit
    while True:
        v = cond()
        if v or time.monotonic() > deadline:
            return v
        time.sleep(0.2)


class Nvme:
    """NVMe over Fabrics over RDMA through @dev at @addr (see the top);
    @works: whether @dev has fast registration (else the connect must be
    refused); @timeout: a step's seconds; @bindir: where nvme-cli's nvme
    and the libraries it needs are."""

    def __init__(self, dev, addr, works, timeout, bindir):
        self.dev, self.addr = dev, addr
        self.works, self.timeout = works, timeout
        self.bindir = bindir
        self.subsys = f'{NVMET}/subsystems/{NQN}'
        self.ns = f'{self.subsys}/namespaces/1'
        self.port = f'{NVMET}/ports/1'
        self.ctrl = None                # nvmeN, once connected
        self.disk = None

    def nvme(self, args):
        """(rc, output) of nvme-cli's "nvme @args" (a child process, at
        most a step's seconds)."""
        env = dict(os.environ, LD_LIBRARY_PATH=self.bindir)
        return run([os.path.join(self.bindir, 'nvme')] + args,
                   self.timeout, env)

    def target(self):
        s, ns, p = q(self.subsys), q(self.ns), q(self.port)
        ok, out = shell([
            'modprobe null_blk nr_devices=1 gb=1 memory_backed=1',
            'modprobe nvmet_rdma', 'modprobe nvme_rdma',
            # a module in Debian's kernel: /init could not mount it
            f'[ -d {NVMET} ] || mount -t configfs configfs '
            '/sys/kernel/config',
            f'mkdir {s}', f'echo 1 > {s}/attr_allow_any_host',
            f'mkdir {ns}', f'echo /dev/nullb0 > {ns}/device_path',
            f'echo 1 > {ns}/enable',
            f'mkdir {p}', f'echo rdma > {p}/addr_trtype',
            f'echo ipv4 > {p}/addr_adrfam',
            f'echo {self.addr} > {p}/addr_traddr',
            f'echo {NVME_PORT} > {p}/addr_trsvcid',
            # the link enables the port: nvmet-rdma binds and listens
            f'ln -s {s} {p}/subsystems/{q(NQN)}'], self.timeout)
        return ok, out or (f'{NQN} (/dev/nullb0, 1 GiB memory-backed) on '
                           f'rdma {self.addr}:{NVME_PORT}')

    def connect(self):
        nvme = os.path.join(self.bindir, 'nvme')
        if not os.access(nvme, os.X_OK):
            return False, f'no {nvme}'
        before = set(glob.glob('/dev/nvme*n*'))
        ctls0 = fabrics_ctls()
        log0 = dmesg()
        rc, out = self.nvme(nvme_connect_args(self.addr))
        found = new_controllers(ctls0, fabrics_ctls())
        if rc == 0:
            self.ctrl = nvme_controller(out) or (found or [None])[0]
        elif found:                     # failed, yet it left one behind
            self.ctrl = found[0]
        if not self.works:
            return refusal('nvme', self.dev, rc, out,
                           new_lines(log0, dmesg()))
        if rc != 0 or self.ctrl is None:
            return False, (f'exit {rc}: {out}; dmesg: ' +
                           ' | '.join(new_lines(log0, dmesg())[-5:]))
        ctrl = f'/sys/class/nvme/{self.ctrl}'
        transport = read_file(f'{ctrl}/transport')
        address = read_file(f'{ctrl}/address')
        nqn = read_file(f'{ctrl}/subsysnqn')
        new = wait_for(lambda: [
            d for d in sorted(set(glob.glob('/dev/nvme*n*')) - before)
            if re.fullmatch(r'/dev/nvme\d+n\d+', d)])
        if (transport != 'rdma' or f'traddr={self.addr}' not in address
                or nqn != NQN):
            return False, (f'{ctrl}: transport {transport!r}, {address!r}, '
                           f'{nqn!r}')
        if len(new) != 1:
            return False, f'{out}: namespaces that appeared: {new}'
        self.disk = new[0]
        return True, f'{out}: {self.disk}, {address}'

    def write(self):
        return child_ok(self.timeout, do_write, self.disk, True)

    def verify_target(self):
        # local: null_blk keeps its pages in memory, nothing to wait for
        rc, out = do_verify('/dev/nullb0', True)
        return rc == 0, out

    def verify(self):
        return child_ok(self.timeout, do_verify, self.disk, True)

    def disconnect(self):
        ctrl = f'/sys/class/nvme/{self.ctrl}'
        rc, out = self.nvme(['disconnect', '-n', NQN])
        if rc != 0:
            return False, f'exit {rc}: {out}'
        if not wait_for(lambda: not os.path.exists(ctrl)):
            return False, f'{out}; {ctrl} still there 10 s later'
        return True, out

    def teardown(self):
        s, ns, p = q(self.subsys), q(self.ns), q(self.port)
        return shell([
            f'[ ! -L {p}/subsystems/{q(NQN)} ] || '
            f'rm {p}/subsystems/{q(NQN)}',
            f'[ ! -d {ns} ] || echo 0 > {ns}/enable',
            f'[ ! -d {ns} ] || rmdir {ns}',
            f'[ ! -d {p} ] || rmdir {p}', f'[ ! -d {s} ] || rmdir {s}',
            'rmmod_wait nvme_rdma', 'rmmod_wait nvmet_rdma',
            'rmmod_wait nvmet', 'rmmod_wait null_blk'], self.timeout,
            keep_going=True)

    def run(self, k):
        ok = steps(k, 'nvme', [
            (f'target: nvmet-rdma exports a null_blk on {self.addr}:'
             f'{NVME_PORT}', self.target)])
        if ok and self.works:
            steps(k, 'nvme', [
                (f'connect -t rdma -a {self.addr} -s {NVME_PORT} -n {NQN}',
                 self.connect),
                ('64 MiB written to the namespace (O_DIRECT, 1 MiB '
                 'blocks)', self.write),
                ("the target's null_blk holds every byte",
                 self.verify_target),
                ('64 MiB read back (O_DIRECT), every byte equal',
                 self.verify)])
        elif ok:
            steps(k, 'nvme', [
                (f'connect refused as expected: {self.dev} lacks '
                 'IB_DEVICE_MEM_MGT_EXTENSIONS', self.connect)])
        last = [('target torn down, modules removed', self.teardown)]
        if self.ctrl is not None:
            last.insert(0, (f'disconnect -n {NQN}', self.disconnect))
        steps(k, 'nvme', last)


class Nfs:
    """NFSv4.2 over RDMA through @dev at @addr (see the top); @works and
    @timeout as Nvme's; @sbin: where rpc.mountd and exportfs are, @libs
    their libraries the VM lacks."""

    def __init__(self, dev, addr, works, timeout, sbin, libs):
        self.dev, self.addr = dev, addr
        self.works, self.timeout = works, timeout
        self.sbin, self.libs = sbin, libs
        self.mountd = None
        self.log = None
        self.mounted = False

    def tool(self, name):
        """The path of nfs-kernel-server's @name in the VM."""
        return os.path.join(self.sbin, name)

    def server(self):
        missing = [t for t in ('rpc.mountd', 'exportfs')
                   if not os.access(self.tool(t), os.X_OK)]
        if missing:
            return False, f'not in {self.sbin}: {missing}'
        ok, out = shell([
            'modprobe nfsd', 'modprobe rpcrdma', 'modprobe nfsv4',
            # v4recovery: the client tracking nfsd falls back to without
            # nfsdcld (without any, v4_end_grace refuses: EBUSY)
            f'mkdir -p {EXPORT} {MNT} /var/lib/nfs/v4recovery',
            f'mount -t tmpfs -o size=80m tmpfs {EXPORT}',
            f'mount -t nfsd nfsd {NFSD}',
            f"echo '{EXPORT} *(rw,fsid=1,no_root_squash,insecure,"
            "no_subtree_check,sync)' > /etc/exports",
            f'{self.tool("exportfs")} -r'], self.timeout)
        if not ok:
            return ok, out
        env = dict(os.environ, LD_LIBRARY_PATH=self.libs)
        # NFSv4 only: no MOUNT protocol, no rpcbind to register with
        self.log = tempfile.TemporaryFile('w+')
        self.mountd = subprocess.Popen(
            [self.tool('rpc.mountd'), '-F', '-N', '2', '-N', '3', '-u',
             '-n'], env=env, stdin=subprocess.DEVNULL, stdout=self.log,
            stderr=subprocess.STDOUT)
        # What rpc.nfsd does, but NFSv4 only and RDMA on 20049 its one
        # listener (rpc.nfsd wants TCP for NFSv4), 2 threads; no client
        # to wait for: the 90 s of NFSv4 grace ended at once
        ok, out = shell([
            f"echo '-2 -3 +4 +4.1 +4.2' > {NFSD}/versions",
            f"echo 'rdma {NFS_PORT}' > {NFSD}/portlist",
            f'echo 2 > {NFSD}/threads', f'echo Y > {NFSD}/v4_end_grace'],
            self.timeout)
        if not ok:
            return ok, out
        if self.mountd.poll() is not None:
            self.log.seek(0)
            return False, (f'rpc.mountd exited ({self.mountd.returncode}): '
                           + self.log.read())
        # the laundromat ends the grace period soon after
        if not wait_for(lambda: read_file(f'{NFSD}/v4_end_grace') == 'Y'):
            return False, f'{NFSD}/v4_end_grace: still N after 10 s'
        ports = read_file(f'{NFSD}/portlist')
        # svcrdma listens on IPv4 and on IPv6: one line each
        if set(ports.split('\n')) != {f'rdma {NFS_PORT}'}:
            return False, f'{NFSD}/portlist: {ports!r}'
        return True, (f'{EXPORT} (tmpfs) exported; versions '
                      f'{read_file(NFSD + "/versions")}; portlist '
                      f'{ports!r}')

    def mount(self):
        log0 = dmesg()
        rc, out = in_child(self.timeout, do_mount, f'{self.addr}:{EXPORT}',
                           MNT, 'nfs', nfs_options(self.addr))
        self.mounted = rc == 0
        if not self.works:
            return refusal('nfs', self.dev, rc, out,
                           new_lines(log0, dmesg()))
        if rc != 0:
            return False, (f'{out}; dmesg: ' +
                           ' | '.join(new_lines(log0, dmesg())[-5:]))
        opts = mount_options(read_file('/proc/mounts'), MNT) or {}
        if opts.get('proto') != 'rdma' or opts.get('vers') != '4.2':
            return False, f'mounted, but with {opts}'
        return True, ','.join(f'{o}={opts[o]}' for o in
                              ('vers', 'proto', 'port', 'rsize', 'wsize')
                              if o in opts)

    def write(self):
        return child_ok(self.timeout, do_write, f'{MNT}/{NFS_FILE}', False)

    def verify_server(self):
        # local: the exported tmpfs
        rc, out = do_verify(f'{EXPORT}/{NFS_FILE}', False)
        return rc == 0, out

    def verify(self):
        ok, out = shell(['echo 3 > /proc/sys/vm/drop_caches'],
                        self.timeout)
        if not ok:
            return ok, out
        return child_ok(self.timeout, do_verify, f'{MNT}/{NFS_FILE}', True)

    def umount(self):
        ok, out = shell([f'umount {MNT}'], self.timeout)
        self.mounted = not ok
        return ok, out

    def stop(self):
        # threads 0: nfsd ends, its listeners closed
        ok, out = shell([f'[ ! -e {NFSD}/threads ] || '
                         f'echo 0 > {NFSD}/threads'], self.timeout)
        if self.mountd:
            self.mountd.kill()
            try:
                self.mountd.wait(timeout=5)
            except subprocess.TimeoutExpired:
                ok, out = False, out + '\nrpc.mountd did not end'
            self.log.close()
        more, text = shell([
            f'{self.tool("exportfs")} -ua', f'umount {NFSD}',
            f'umount {EXPORT}', 'rmmod_wait nfsv4', 'rmmod_wait nfs',
            'rmmod_wait nfsd', 'rmmod_wait rpcrdma'], self.timeout,
            keep_going=True)
        return ok and more, '\n'.join(x for x in (out, text) if x)

    def run(self, k):
        ok = steps(k, 'nfs', [
            (f'server: nfsd (NFSv4 only) on rdma {NFS_PORT}, {EXPORT} '
             'exported', self.server)])
        mnt = (f'mount -t nfs -o vers=4.2,proto=rdma,port={NFS_PORT} '
               f'{self.addr}:{EXPORT}')
        if ok and self.works:
            steps(k, 'nfs', [
                (mnt, self.mount),
                ('64 MiB written through the mount (and fsync)',
                 self.write),
                ("the server's file holds every byte", self.verify_server),
                ('caches dropped, 64 MiB read back through the mount '
                 '(O_DIRECT), every byte equal', self.verify)])
        elif ok:
            steps(k, 'nfs', [
                (f'{mnt} refused as expected: {self.dev} lacks '
                 'IB_DEVICE_MEM_MGT_EXTENSIONS', self.mount)])
        last = [('nfsd stopped, modules removed', self.stop)]
        if self.mounted:
            last.insert(0, ('umount', self.umount))
        steps(k, 'nfs', last)

