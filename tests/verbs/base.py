# SPDX-License-Identifier: GPL-2.0
"""The verbs tests' base class and the resources every test shares.

Modelled on rdma-core's tests/base.py: a unittest.TestCase subclass owns
what a test registers and cleans up after it.  The expensive resources --
the device context, two PDs, the stub's debug window and translation
engine, and the buffers (64 MiB on 4 KiB pages, 4 MiB of THP, 66 MiB of
hugetlb pages) -- are opened once per process (Fixture, through fixture())
and closed by the last suite (test_cleanup).

Each registration is checked against three views the driver does not
produce itself: what was asked (and the page sizes the buffer's physical
layout allows, /proc/self/pagemap), the raw MPT the firmware returns
(`rdma -j -r res show mr`, decoded with arbeltest.prm from the PRM's struct
text), and what the stub's translation engine does with the key.
"""

import ctypes
import errno
import os
import shlex
import struct
import subprocess
import time
import unittest

import pyverbs.enums as e
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError

from arbeltest import dbgwin, mem, prm, restrack
import expect
import uverbs_raw

KiB = 1 << 10
MiB = 1 << 20

# run-time options, set by verbs_guest.py
CONFIG = {'device': 'arbel0', 'enomem': True, 'enomem_secs': 300.0,
          'nr_hugepages': 80, 'verbose': False, 'stress_cycles': 10000,
          'fuzz_count': 300}

LW = e.IBV_ACCESS_LOCAL_WRITE
RW = e.IBV_ACCESS_REMOTE_WRITE
RR = e.IBV_ACCESS_REMOTE_READ
ATOMIC = e.IBV_ACCESS_REMOTE_ATOMIC
BIND = e.IBV_ACCESS_MW_BIND
FLAGS = ((LW, 'LW'), (RW, 'RW'), (RR, 'RR'), (ATOMIC, 'A'), (BIND, 'BIND'))
ALL_RIGHTS = LW | RW | RR | ATOMIC

ACC = {n: dbgwin.access(n) for n in
       ('LOCAL_READ', 'LOCAL_WRITE', 'REMOTE_READ', 'REMOTE_WRITE', 'ATOMIC')}
XL = {n: dbgwin.result(n) for n in
      ('OK', 'ACCESS', 'RANGE', 'SW_OWNED', 'KEY_MISMATCH')}
TO_REGION = dbgwin.registers()['ARBEL_XL_DIR_TO_REGION']
TO_BUF = dbgwin.registers()['ARBEL_XL_DIR_TO_BUF']


KO = '/opt/arbel/arbel.ko'
# the module parameters of this run (tests/verbs/run.sh: MODULE_ARGS, e.g.
# polling=1); every reload keeps them, a test's own come after and win
RUN_PARAMS = shlex.split(os.environ.get('ARBEL_MODULE_ARGS', ''))


def wait_ibdev(name, secs=30):
    """Wait until libibverbs can open device name: its uverbs device
    exists, which the core adds after the ib_device's sysfs entry and the
    other clients (the MAD layer brings its QPs up first).  True if it
    does within secs."""
    t0 = time.monotonic()
    while True:
        try:
            uverbs_raw.uverbs_path(name)
            return True
        except FileNotFoundError:
            if time.monotonic() - t0 >= secs:
                return False
        time.sleep(0.2)


def insmod(*params):
    """insmod arbel.ko with the run's parameters, then params: the
    CompletedProcess (text output captured)."""
    return subprocess.run(['insmod', KO, *RUN_PARAMS, *params],
                          capture_output=True, text=True, check=False)


def write_mtt_knob():
    """The device's debugfs file write_mtt (arbel/<bdf>/write_mtt)."""
    import glob     # pylint: disable=import-outside-toplevel
    paths = glob.glob('/sys/kernel/debug/arbel/*/write_mtt')
    if len(paths) != 1:
        raise RuntimeError(f'want one arbel/<bdf>/write_mtt, found {paths}')
    return paths[0]


class WriteMttMode:
    """with WriteMttMode(True): registrations write their MTT entries with
    WRITE_MTT (debugfs arbel/<bdf>/write_mtt, read by the driver at each
    registration); the previous value comes back on exit."""

    def __init__(self, on):
        self.on = on
        self.saved = None
        self.path = None

    def __enter__(self):
        self.path = write_mtt_knob()
        with open(self.path, encoding='ascii') as f:
            self.saved = f.read().strip()
        with open(self.path, 'w', encoding='ascii') as f:
            f.write('Y' if self.on else 'N')
        return self

    def __exit__(self, *exc):
        with open(self.path, 'w', encoding='ascii') as f:
            f.write(self.saved)
        return False


def eq_debugfs(name):
    """The bound arbel device's debugfs file arbel/<bdf>/eq/NAME, stripped;
    None without a bound device."""
    import glob     # pylint: disable=import-outside-toplevel
    for path in glob.glob(f'/sys/kernel/debug/arbel/*/eq/{name}'):
        with open(path, encoding='ascii') as f:
            return f.read().strip()
    return None


def eq_mode():
    """The bound arbel device's EQ mode (eq/mode: 'polling', or the
    interrupt it takes), None without one."""
    return eq_debugfs('mode')


def eq_mpts():
    """MPTs the driver's EQ ring's region holds: 1 in event mode, 0 when it
    polls or no arbel device is bound."""
    mode = eq_mode()
    return 0 if mode in (None, 'polling') else 1


def driver_mpts():
    """HW-owned MPTs the driver holds besides the user's regions: its EQ
    ring's region (eq_mpts()) and one for each object of the kernel's own
    consumers (the MAD layer's PD, CQ and QP0/QP1 at least): a kernel PD's
    DMA region (no local DMA lkey), a kernel MR, the buffer region of a
    kernel CQ, QP or SRQ (Documentation/arbel.rst, "Kernel queues")."""
    return eq_mpts() + sum(restrack.kernel_owned(CONFIG['device']).values())


def access_str(access):
    """'LW|RR' for IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ."""
    return '|'.join(n for bit, n in FLAGS if access & bit) or 'none'


def errno_of(exc):
    """The errno a PyverbsRDMAError carries."""
    return exc.error_code if isinstance(exc, PyverbsRDMAError) else None


def errstr(err):
    return f'errno {err} ({os.strerror(err) if err and err > 0 else "?"})'


# ---- the hardware PD number ---------------------------------------------

def _read_mem(addr, length):
    """Bytes of this process at addr, or None where nothing is mapped."""
    with open('/proc/self/mem', 'rb', buffering=0) as f:
        try:
            return os.pread(f.fileno(), length, addr)
        except OSError:
            return None


def _pointers(obj):
    """The 8-byte aligned words of a Cython object's C struct."""
    raw = ctypes.string_at(id(obj), type(obj).__basicsize__)
    return struct.unpack_from(f'<{len(raw) // 8}Q', raw)


def ibv_pd_pointer(ctx, pd):
    """The struct ibv_pd * behind a pyverbs PD (pyverbs 44 does not expose
    it): the word of the PD object that points to {context, handle} with
    pd.handle and a context pointer the Context object holds."""
    ctx_words = set(_pointers(ctx))
    for p in _pointers(pd):
        if p < 0x10000 or p >= 1 << 47:
            continue
        data = _read_mem(p, 12)
        if data and len(data) == 12:
            context, handle = struct.unpack('<QI', data)
            if handle == pd.handle and context in ctx_words:
                return p
    raise LookupError('no struct ibv_pd pointer in the pyverbs PD object')


# libmthca's struct mthca_pd (rdma-core providers/mthca/mthca.h, the same
# layout since 2005): struct ibv_pd (16 bytes), ah_list (8),
# pthread_mutex_t ah_mutex (40), then the pdn the kernel returned in
# ALLOC_PD's response -- what the HCA sees as the PD number.
_MTHCA_PD_PDN = 64


def mthca_pdn(ctx, pd):
    """The hardware PD number of a pyverbs PD on libmthca."""
    data = _read_mem(ibv_pd_pointer(ctx, pd) + _MTHCA_PD_PDN, 4)
    return struct.unpack('<I', data)[0]


class _IbvMr(ctypes.Structure):
    _fields_ = [('context', ctypes.c_void_p), ('pd', ctypes.c_void_p),
                ('addr', ctypes.c_void_p), ('length', ctypes.c_size_t),
                ('handle', ctypes.c_uint32), ('lkey', ctypes.c_uint32),
                ('rkey', ctypes.c_uint32)]


class IovaMR:
    """ibv_reg_mr_iova2() through ctypes (pyverbs 44's MR has no iova)."""

    _lib = None

    def __init__(self, ctx, pd, addr, length, iova, access):
        if IovaMR._lib is None:
            lib = ctypes.CDLL('libibverbs.so.1', use_errno=True)
            lib.ibv_reg_mr_iova2.restype = ctypes.POINTER(_IbvMr)
            lib.ibv_reg_mr_iova2.argtypes = [
                ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                ctypes.c_uint64, ctypes.c_uint]
            lib.ibv_dereg_mr.argtypes = [ctypes.POINTER(_IbvMr)]
            IovaMR._lib = lib
        self._mr = self._lib.ibv_reg_mr_iova2(ibv_pd_pointer(ctx, pd), addr,
                                              length, iova, access)
        if not self._mr:
            err = ctypes.get_errno()
            raise PyverbsRDMAError('ibv_reg_mr_iova2 failed', err)
        self.lkey = self._mr.contents.lkey
        self.rkey = self._mr.contents.rkey

    def close(self):
        if self._mr:
            rc = self._lib.ibv_dereg_mr(self._mr)
            self._mr = None
            if rc:
                raise PyverbsRDMAError('ibv_dereg_mr failed', rc)


# ---- buffers and regions -------------------------------------------------

class Region:
    """A byte range of a Buffer that tests register."""

    def __init__(self, name, buf, off, length):
        self.name = name
        self.buf = buf
        self.off = off
        self.length = length

    @property
    def va(self):
        return self.buf.addr + self.off

    @property
    def kind(self):
        return self.buf.kind

    def view(self, off=0, length=None):
        """A memoryview of [off, off + length) of the region."""
        end = self.length if length is None else off + length
        return self.buf.view[self.off + off:self.off + end]

    def __repr__(self):
        return self.name


# name, offset, length per buffer (the C test's regions, 1 B .. 64 MiB)
SMALL_REGIONS = (
    ('4KiB', 4 * KiB, 4 * KiB), ('1B@+7', 12 * KiB + 7, 1),
    ('100B@page-cross', 8 * KiB - 50, 100),
    ('8KiB+2@+4095', 4 * KiB - 1, 8 * KiB + 2), ('64KiB', 0, 64 * KiB),
    ('1MiB-3@+3', 3, MiB - 3), ('1MiB', 0, MiB),
    ('16MiB@+4KiB', 4 * KiB, 16 * MiB), ('64MiB', 0, 64 * MiB))
THP_REGIONS = (('thp-2MiB', 0, 2 * MiB), ('thp-4MiB-1@+1', 1, 4 * MiB - 1))
HUGE_REGIONS = (
    ('huge-2MiB', 0, 2 * MiB), ('huge-4MiB', 2 * MiB, 4 * MiB),
    ('huge-3MiB@+0x1234', 0x1234, 3 * MiB),
    ('huge-16B@2MiB-cross', 2 * MiB - 8, 16), ('huge-64MiB', 0, 64 * MiB))


class Fixture:
    """The device, two PDs, the debug window and the buffers of one run."""

    def __init__(self):
        self.notes = []
        self.win = dbgwin.DebugWindow()
        self.xl = dbgwin.Translator(self.win)
        self.devname = CONFIG['device']
        self.ctx = Context(name=self.devname)
        self.attr = self.ctx.query_device()
        self.pd1 = PD(self.ctx)
        self.pd2 = PD(self.ctx)
        self.pdn = {id(pd): mthca_pdn(self.ctx, pd)
                    for pd in (self.pd1, self.pd2)}
        self.log_mpt_sz = self.win.read('LOG_MPT_SZ')
        self.num_mpts = 1 << self.log_mpt_sz
        self.mtt_base = self.win.read64('MTT_BASE')
        self.mtt_end = self.win.read64('MTT_END')
        # page_size field below 20: 4 KiB .. 2 GiB
        self.pgsz_cap = self.attr.page_size_cap & 0xfffff000
        self.hw_mpts_at_start = self.hw_mpts()
        self.buffers = []
        self.regions = []
        self.hugetlb_error = None
        self._setup_buffers()

    def _add(self, buf, table):
        self.buffers.append(buf)
        self.regions += [Region(n, buf, o, ln) for n, o, ln in table]

    def _setup_buffers(self):
        self._add(mem.Buffer(64 * MiB + 16 * KiB, mem.PAGES_4K), SMALL_REGIONS)
        self._add(mem.Buffer(4 * MiB, mem.PAGES_THP), THP_REGIONS)
        total, _, _ = mem.hugetlb_pages()
        if total < CONFIG['nr_hugepages']:
            try:
                mem.hugetlb_reserve(CONFIG['nr_hugepages'])
            except OSError as err:
                self.notes.append(f'nr_hugepages: {err}')
        try:
            self._add(mem.Buffer(66 * MiB, mem.PAGES_HUGETLB), HUGE_REGIONS)
        except OSError as err:
            self.hugetlb_error = f'MAP_HUGETLB failed: {err} (nr_hugepages?)'
        total, free, size = mem.hugetlb_pages()
        self.notes.append(f'hugetlb pool: {total} pages of {size >> 10} KiB, '
                          f'{free} free after mapping')

    def hw_mpts(self):
        """The stub's count of hardware-owned MPT entries."""
        return self.win.read('HW_MPTS')

    def region(self, name):
        """The region called name, or None (hugetlb regions may be absent)."""
        for r in self.regions:
            if r.name == name:
                return r
        return None

    def pdn_of(self, pd):
        return self.pdn[id(pd)]

    def mpts(self):
        """{mem_key: decoded MPT} of the device's entries (QUERY_MPT)."""
        out = {}
        for raw in restrack.raw_mpts(self.devname):
            f = prm.decode(raw)
            out[f['mem_key']] = f
        return out

    def close(self):
        """Close PDs and context; buffers and the window stay usable."""
        for pd in (self.pd2, self.pd1):
            pd.close()
        self.ctx.close()


_FIXTURE = None


def fixture():
    """The run's Fixture, opened on first use."""
    global _FIXTURE
    if _FIXTURE is None:
        _FIXTURE = Fixture()
    return _FIXTURE


class Registration:
    """One MR of a region, with the buffer's physical pages at the time."""

    def __init__(self, region, pd, access, mr):
        self.region = region
        self.pd = pd
        self.access = access
        self.mr = mr
        self.key = mr.lkey
        self.pa = region.buf.phys_pages(region.off, region.length)

    @property
    def va(self):
        return self.region.va

    @property
    def name(self):
        return self.region.name


class VerbsTestCase(unittest.TestCase):
    """Owns the MRs a test registers (closed in tearDown); checks helpers."""

    @classmethod
    def setUpClass(cls):
        cls.fx = fixture()

    def setUp(self):
        self._mrs = {}          # id -> MR, in registration order

    def tearDown(self):
        for mr in reversed(list(self._mrs.values())):
            mr.close()
        self._mrs = {}

    # -- registering ---------------------------------------------------------

    def reg_mr(self, pd, addr, length, access):
        """A pyverbs MR (closed at tearDown unless closed before)."""
        mr = MR(pd, length, access, address=addr)
        self._mrs[id(mr)] = mr
        return mr

    def reg_error(self, pd, addr, length, access):
        """Register expecting a refusal: (errno or None, problem text)."""
        try:
            mr = self.reg_mr(pd, addr, length, access)
        except PyverbsRDMAError as exc:
            return errno_of(exc), ''
        self.close_mr(mr)
        return None, 'got an MR'

    def close_mr(self, mr):
        self._mrs.pop(id(mr), None)
        mr.close()

    def register(self, region, pd, access):
        """Register region; a Registration (PyverbsRDMAError on refusal)."""
        return Registration(region, pd, access,
                            self.reg_mr(pd, region.va, region.length, access))

    def dereg(self, reg):
        self.close_mr(reg.mr)

    # -- what a registration must look like -----------------------------------

    def mpt_want(self, reg, start=None):
        """expect.mpt_problems()'s want for a registration."""
        acc = reg.access
        return {'start': reg.va if start is None else start,
                'length': reg.region.length, 'pd': self.fx.pdn_of(reg.pd),
                'key': reg.key, 'lw': bool(acc & LW), 'rr': bool(acc & RR),
                'rw': bool(acc & RW), 'a': bool(acc & ATOMIC),
                'eb': bool(acc & BIND),
                'pa': reg.pa, 'cap': self.fx.pgsz_cap,
                'mtt_base': self.fx.mtt_base, 'mtt_end': self.fx.mtt_end,
                'kind': reg.region.kind}

    def mpt_problems(self, reg, mpts):
        """Problems of reg's entry in mpts (Fixture.mpts())."""
        out = []
        if reg.mr.lkey != reg.mr.rkey:
            out.append(f'lkey {reg.mr.lkey:#x} != rkey {reg.mr.rkey:#x}')
        f = mpts.get(expect.mem_key_of(reg.key))
        if f is None:
            return out + [f'no MPT with mem_key {expect.mem_key_of(reg.key):#x}'
                          ' in the dump']
        return out + expect.mpt_problems(f, self.mpt_want(reg))

    def rights_problems(self, reg):
        """Rights and bounds through the engine, for reg's access flags."""
        xl, out = self.fx.xl, []
        r = reg.region
        va, end, key = reg.va, reg.va + r.length, reg.key
        need = {'LOCAL_READ': 0, 'LOCAL_WRITE': LW, 'REMOTE_READ': RR,
                'REMOTE_WRITE': RW, 'ATOMIC': ATOMIC}
        for name, flag in need.items():
            allowed = flag == 0 or reg.access & flag
            a, length = va, 1
            if name == 'ATOMIC':
                a, length = (va + 7) & ~7, 8
                if a + 8 > end:
                    continue     # no aligned 8 bytes inside
            write = name in ('LOCAL_WRITE', 'REMOTE_WRITE')
            if write:            # write back what is there
                xl.bounce[:length] = r.view(a - va, length)
            want = XL['OK'] if allowed else XL['ACCESS']
            o = xl.translate(key, ACC[name], a, length,
                             TO_REGION if write else TO_BUF)
            if o.result != want:
                out.append(f'{name} at va {a:#x} -> {o.name}, want '
                           f'{dbgwin.result_name(want)}')
            if name == 'LOCAL_READ':
                slot = expect.slot_of(key, self.fx.num_mpts)
                if o.index != slot:
                    out.append(f'engine used slot {o.index:#x}, key {key:#x} '
                               f'says {slot:#x}')
                pa = reg.pa[0] + va % mem.PAGE_SIZE
                if o.result == XL['OK'] and o.pa != pa:
                    out.append(f'first byte at pa {o.pa:#x}, pagemap says '
                               f'{pa:#x}')
        for what, a, length in (('read at start-1', va - 1, 1),
                                ('read at end', end, 1),
                                ('2-byte read at end-1', end - 1, 2)):
            o = xl.translate(key, ACC['LOCAL_READ'], a, length)
            if o.result != XL['RANGE']:
                out.append(f'{what} -> {o.name}, want RANGE')
        # a refused write copies nothing
        last = r.view(r.length - 1, 1)
        before = last[0]
        xl.bounce[:2] = bytes([before ^ 0xff] * 2)
        xl.translate(key, ACC['LOCAL_WRITE'], end - 1, 2, TO_REGION)
        if last[0] != before:
            out.append('a write refused for RANGE changed the last byte')
        # a wrong tag on the right slot
        o = xl.translate(key ^ 1, ACC['LOCAL_READ'], va, 1)
        if o.result != XL['KEY_MISMATCH']:
            out.append(f'key with another tag -> {o.name}, want KEY_MISMATCH')
        return out

    def old_key_refused(self, key, va):
        """'' if the engine refuses a deregistered key, else the problem."""
        o = self.fx.xl.translate(key, ACC['LOCAL_READ'], va, 1)
        if o.result in (XL['SW_OWNED'], XL['KEY_MISMATCH']):
            return ''
        return f'old key {key:#x} -> {o.name}, want SW_OWNED or KEY_MISMATCH'

    def assertNoProblems(self, problems, prefix=''):
        """Fail with the first problems (at most 8) if there are any."""
        if problems:
            more = f'; ... ({len(problems)} in all)' if len(problems) > 8 else ''
            self.fail(prefix + '; '.join(problems[:8]) + more)

    def assertRefused(self, err, problem, want, base):
        """A registration refused with errno want, no MPT left behind."""
        hw = self.fx.hw_mpts()
        self.assertFalse(problem, f'{problem}, want {errno.errorcode[want]}')
        self.assertEqual(err, want, f'{errstr(err)}, want '
                         f'{errno.errorcode[want]}')
        self.assertEqual(hw, base, f'HW-owned MPTs {base} -> {hw}')
