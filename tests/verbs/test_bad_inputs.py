# SPDX-License-Identifier: GPL-2.0
"""Registrations the kernel must refuse, leaving no MPT behind.

BadInputTable holds the table of bad (and borderline) inputs of issue #11:
every access-flag combination the core lets through, zero and huge
lengths, address and iova overflow, unaligned buffers, PROT_NONE /
unmapped / file-backed / device / kernel memory, foreign and stale
handles, double dereg, dealloc of a PD in use, wrong request and udata
sizes -- each with the errno the kernel's uverbs core (drivers/infiniband/
core/uverbs_main.c, uverbs_cmd.c, rdma_core.c, include/rdma/ib_verbs.h
ib_check_mr_access()) or the driver's documented rules
(Documentation/arbel.rst) give, and after each nothing left behind: the
stub's hardware-owned MPT count, the MRs in restrack and the process's
pinned pages (VmPin) are back where they were.  The test prints the table.
Fuzz runs reg/dereg with random arguments (fixed seed and count) under
the same checks.
"""

import errno
import mmap
import os
import random
import tempfile
import unittest

from pyverbs.pyverbs_error import PyverbsError

import base
from arbeltest import dbgwin, mem, restrack
import uverbs_raw

PG = mem.PAGE_SIZE


def kernel_at_least(major, minor):
    rel = os.uname().release.split('.')
    try:
        return (int(rel[0]), int(rel[1].split('-')[0])) >= (major, minor)
    except (IndexError, ValueError):
        return True


FLUSH_ERRNO = errno.EOPNOTSUPP if kernel_at_least(6, 2) else errno.EINVAL


class BadInputs(base.VerbsTestCase):
    """Bad flags and lengths: a clear errno, nothing registered."""

    def setUp(self):
        super().setUp()
        self.r = self.fx.region('4KiB')
        self.base = self.fx.hw_mpts()

    def refused(self, length, access, want):
        err, problem = self.reg_error(self.fx.pd1, self.r.va, length, access)
        self.assertRefused(err, problem, want, self.base)

    def test_on_demand(self):
        """IBV_ACCESS_ON_DEMAND: the core refuses it (no ODP here) with
        EINVAL up to Linux 6.1, EOPNOTSUPP from 6.2."""
        want = errno.EOPNOTSUPP if kernel_at_least(6, 2) else errno.EINVAL
        self.refused(4096, base.LW | base.e.IBV_ACCESS_ON_DEMAND, want)

    def test_length_0(self):
        """Length 0 -> EINVAL."""
        self.refused(0, base.LW, errno.EINVAL)

    def test_remote_write_without_local_write(self):
        """Remote write without local write -> EINVAL."""
        self.refused(4096, base.RW, errno.EINVAL)

    def test_remote_atomic_without_local_write(self):
        """Remote atomic without local write -> EINVAL."""
        self.refused(4096, base.ATOMIC | base.RR, errno.EINVAL)


class Efault(base.VerbsTestCase):
    """Memory the process cannot give: EFAULT, nothing left behind."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # 4 pages PROT_NONE, the last two unmapped; later the first two
        # become read-only
        cls.p = mem.map_anonymous(4 * PG, mem.PROT_NONE)
        mem.munmap(cls.p + 2 * PG, 2 * PG)

    @classmethod
    def tearDownClass(cls):
        mem.munmap(cls.p, 2 * PG)

    def test_1_prot_none_and_hole(self):
        """A PROT_NONE / unmapped buffer -> EFAULT."""
        base_n = self.fx.hw_mpts()
        err, problem = self.reg_error(self.fx.pd1, self.p, 4 * PG, base.LW)
        self.assertRefused(err, problem, errno.EFAULT, base_n)

    def test_2_local_write_on_read_only(self):
        """Local write on a read-only mapping -> EFAULT."""
        mem.mprotect(self.p, 2 * PG, mmap.PROT_READ)
        base_n = self.fx.hw_mpts()
        err, problem = self.reg_error(self.fx.pd1, self.p, 2 * PG, base.LW)
        self.assertRefused(err, problem, errno.EFAULT, base_n)

    def test_3_read_only_for_remote_read(self):
        """A read-only mapping registers for remote read."""
        mem.mprotect(self.p, 2 * PG, mmap.PROT_READ)
        base_n = self.fx.hw_mpts()
        mr = self.reg_mr(self.fx.pd1, self.p, 2 * PG, base.RR)
        self.assertEqual(self.fx.hw_mpts(), base_n + 1,
                         'HW-owned MPT count wrong')
        self.close_mr(mr)


# ---- the table -----------------------------------------------------------

A = {'LW': base.LW, 'RW': base.RW, 'RR': base.RR, 'A': base.ATOMIC,
     'BIND': base.BIND}
ZERO_BASED = 1 << 5         # IB_UVERBS_ACCESS_ZERO_BASED
HUGETLB = 1 << 7            # IB_UVERBS_ACCESS_HUGETLB (a hint)
RELAXED = 1 << 20           # IB_UVERBS_ACCESS_RELAXED_ORDERING (optional)
MAX_MR_SIZE_LOG = 36        # QUERY_DEV_LIM log_max_mr_size (arbel-stub.rst)
KERNEL_VA = 0xffff888000000000


def access_cases():
    """All 32 combinations of LW, RW, RR, A, BIND: remote write or atomic
    without local write is refused by the core (EINVAL), the rest
    registers."""
    names = list(A)
    out = []
    for bits in range(32):
        acc = sum(A[n] for i, n in enumerate(names) if bits >> i & 1)
        label = '|'.join(n for i, n in enumerate(names) if bits >> i & 1)
        bad = acc & (base.RW | base.ATOMIC) and not acc & base.LW
        out.append((f'access {label or "none"}',
                    errno.EINVAL if bad else 0,
                    lambda t, acc=acc: t.pyverbs(t.page, 4096, acc)))
    return out


class BadInputTable(base.VerbsTestCase):
    """One result per row; test_zz_table prints the whole table."""

    rows = []
    last_counts = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.buf = mem.Buffer(4 << 20, mem.PAGES_4K)
        cls.page = cls.buf.addr + 4096
        cls.raw = uverbs_raw.Uverbs(base.CONFIG['device'])
        cls.raw.get_context()
        _, cls.raw_pd = cls.raw.alloc_pd()
        cls.other = uverbs_raw.Uverbs(base.CONFIG['device'])
        cls.other.get_context()
        # handles are per file and handed out lowest first: the other
        # file's 64th PD has a handle this file never reaches
        cls.other_pds = [cls.other.alloc_pd()[1] for _ in range(64)]

    @classmethod
    def tearDownClass(cls):
        cls.raw.close()
        cls.other.close()

    # -- how a case registers ------------------------------------------------

    def pyverbs(self, addr, length, access, pd=None):
        """(errno, closer) of ibv_reg_mr through pyverbs."""
        try:
            mr = base.MR(pd or self.fx.pd1, length, access, address=addr)
        except base.PyverbsRDMAError as exc:
            return base.errno_of(exc), None
        return 0, mr.close

    def iova(self, addr, length, iova, access=base.LW):
        """(errno, closer) of ibv_reg_mr_iova2."""
        try:
            mr = base.IovaMR(self.fx.ctx, self.fx.pd1, addr, length, iova,
                             access)
        except base.PyverbsRDMAError as exc:
            return base.errno_of(exc), None
        return 0, mr.close

    def rawreg(self, **kw):
        """(errno, closer) of a hand-made REG_MR on the raw file."""
        args = {'pd': self.raw_pd, 'start': self.page, 'length': 4096,
                'iova': self.page, 'access': base.LW}
        args.update(kw)
        err, h = self.raw.reg_mr(args.pop('pd'), args.pop('start'),
                                 args.pop('length'), args.pop('iova'),
                                 args.pop('access'), **args)
        return err, (None if err else lambda: self.raw.dereg_mr(h))

    # -- the checks around a case ----------------------------------------------

    def counts(self):
        return {'HW MPTs': self.fx.hw_mpts(),
                'restrack MRs': len(restrack.mrs(self.fx.devname)),
                'VmPin KiB': mem.vm_pinned_kib()}

    def run_case(self, name, want, fn):
        # the counts after one case are the counts before the next (nothing
        # runs between two cases): `rdma` costs 0.7 s a call on the debug
        # kernel, each case one call instead of two
        before = type(self).last_counts or self.counts()
        type(self).last_counts = None   # measured again if this one raises
        err, closer = fn(self)
        problems = []
        if err != want:
            problems.append(f'{uverbs_raw.errname(err)}, want '
                            f'{uverbs_raw.errname(want)}')
        if closer:
            hw = self.fx.hw_mpts()
            if hw != before['HW MPTs'] + 1:
                problems.append(f'registered, but {hw - before["HW MPTs"]} '
                                'new HW-owned MPTs')
            rc = closer()
            if rc:
                problems.append(f'dereg: {uverbs_raw.errname(rc)}')
        after = self.counts()
        type(self).last_counts = after
        left = {k: after[k] - v for k, v in before.items() if after[k] != v}
        if left:
            problems.append(f'left behind: {left}')
        self.rows.append((name, uverbs_raw.errname(want),
                          uverbs_raw.errname(err), 'nothing' if not left
                          else str(left)))
        self.assertFalse(problems, f'{name}: ' + '; '.join(problems))

    def test_zz_table(self):
        """the bad-input table: at least 40 distinct cases, all as expected"""
        w = max(len(r[0]) for r in self.rows) if self.rows else 4
        print(f'# {"case":{w}}  want        got         left behind')
        for name, want, got, left in self.rows:
            print(f'# {name:{w}}  {want:10}  {got:10}  {left}')
        print(f'# {len(self.rows)} cases')
        self.assertGreaterEqual(len(self.rows), 40)


def _file_backed(t, writable, access):
    """A MAP_SHARED mapping of a file in the temporary directory (the
    VM's root is an initramfs: pinnable on 6.1); made read-only with
    mprotect() (Python cannot take the address of a read-only mmap)."""
    with tempfile.TemporaryFile() as f:
        f.truncate(2 * 4096)
        m = mmap.mmap(f.fileno(), 2 * 4096, flags=mmap.MAP_SHARED,
                      prot=mmap.PROT_READ | mmap.PROT_WRITE)
        addr = mem.address_of(m)
        if not writable:
            mem.mprotect(addr, 2 * 4096, mmap.PROT_READ)
        try:
            err, closer = t.pyverbs(addr, 2 * 4096, access)
            if closer:
                closer()
            return err, None
        finally:
            m.close()


def _device_memory(t):
    """BAR0 mapped through sysfs resource0 (VM_IO | VM_PFNMAP)."""
    win = dbgwin.DebugWindow()
    try:
        return t.pyverbs(mem.address_of(win._map), 4096, base.LW)  # pylint: disable=protected-access
    finally:
        win.close()


def _unmapped(t):
    p = mem.map_anonymous(2 * 4096, mmap.PROT_READ | mmap.PROT_WRITE)
    mem.munmap(p, 2 * 4096)
    return t.rawreg(start=p, iova=p, length=2 * 4096)


def _after_dealloc_pd(t):
    _, pd = t.raw.alloc_pd()
    t.raw.dealloc_pd(pd)
    return t.rawreg(pd=pd)


def _double_dereg(t):
    err, h = t.raw.reg_mr(t.raw_pd, t.page, 4096, t.page, base.LW)
    if err:
        return err, None
    first = t.raw.dereg_mr(h)
    second = t.raw.dereg_mr(h)
    return (second if not first else -first), None


def _dealloc_pd_in_use(t):
    _, pd = t.raw.alloc_pd()
    err, h = t.raw.reg_mr(pd, t.page, 4096, t.page, base.LW)
    busy = t.raw.dealloc_pd(pd)
    t.raw.dereg_mr(h)
    t.raw.dealloc_pd(pd)
    return (busy if not err else -err), None


def _mr_handle_as_pd(t):
    err, h = t.raw.reg_mr(t.raw_pd, t.page, 4096, t.page, base.LW)
    got, h2 = t.raw.reg_mr(h, t.page, 4096, t.page, base.LW)
    if not got:
        t.raw.dereg_mr(h2)
    t.raw.dereg_mr(h)
    return (got if not err else -err), None


def _without_context(t):
    u = uverbs_raw.Uverbs(base.CONFIG['device'])
    try:
        return u.reg_mr(0, t.page, 4096, t.page, base.LW)[0], None
    finally:
        u.close()


def _context_twice(t):
    u = uverbs_raw.Uverbs(base.CONFIG['device'])
    try:
        first = u.get_context()
        return (u.get_context() if not first else -first), None
    finally:
        u.close()


OTHER_CASES = [
    ('ZERO_BASED', 0, lambda t: t.pyverbs(t.page, 4096, base.LW | ZERO_BASED)),
    # found by the fuzzer: refused after pinning, the pages were
    # unaccounted for iova 0 (fewer than pinned): VmPin leaked
    ('ZERO_BASED at page offset 4095', errno.EINVAL,
     lambda t: t.pyverbs(t.page + 4095, 2, base.LW | ZERO_BASED)),
    ('HUGETLB hint', 0, lambda t: t.pyverbs(t.page, 4096, base.LW | HUGETLB)),
    ('RELAXED_ORDERING (optional)', 0,
     lambda t: t.pyverbs(t.page, 4096, base.LW | RELAXED)),
    # bits 8 and 9: unknown up to 6.1; from 6.2 FLUSH_GLOBAL and
    # FLUSH_PERSISTENT, which ib_check_mr_access() refuses with EOPNOTSUPP
    # on a device without flush (this one)
    ('access bit 8 (FLUSH_GLOBAL from 6.2)', FLUSH_ERRNO,
     lambda t: t.pyverbs(t.page, 4096, base.LW | 1 << 8)),
    ('access bit 9 (FLUSH_PERSISTENT from 6.2)', FLUSH_ERRNO,
     lambda t: t.pyverbs(t.page, 4096, base.LW | 1 << 9)),
    ('unknown access bit 30', errno.EINVAL,
     lambda t: t.pyverbs(t.page, 4096, base.LW | 1 << 30)),
    ('length 2^36 + 4 KiB > max_mr_size', errno.EINVAL,
     lambda t: t.rawreg(length=(1 << MAX_MR_SIZE_LOG) + 4096)),
    ('length 2^64 - 1', errno.EINVAL, lambda t: t.rawreg(length=(1 << 64) - 1)),
    ('start + length overflows', errno.EINVAL,
     lambda t: t.rawreg(start=(1 << 64) - 4096, iova=(1 << 64) - 4096,
                        length=8192)),
    ('iova + length overflows', errno.EINVAL,
     lambda t: t.iova(t.page, 8192, (1 << 64) - 4096)),
    ('iova page offset != address page offset', errno.EINVAL,
     lambda t: t.iova(t.page, 4096, 0x10000 + 8)),
    ('1 byte at page offset 1', 0, lambda t: t.pyverbs(t.page + 1, 1, base.LW)),
    ('unaligned, crossing a page', 0,
     lambda t: t.pyverbs(t.page + 4093, 7, base.LW)),
    ('unaligned iova matching the address', 0,
     lambda t: t.iova(t.page + 100, 4000, 0x70000064)),
    ('unmapped range', errno.EFAULT, _unmapped),
    ('NULL page', errno.EFAULT, lambda t: t.rawreg(start=0, iova=0)),
    ('kernel address', errno.EFAULT,
     lambda t: t.rawreg(start=KERNEL_VA, iova=KERNEL_VA)),
    ('device memory (BAR0 mmap)', errno.EFAULT, _device_memory),
    ('file-backed MAP_SHARED, LW', 0,
     lambda t: _file_backed(t, True, base.LW)),
    ('file-backed read-only, LW', errno.EFAULT,
     lambda t: _file_backed(t, False, base.LW)),
    ('PD handle of another context', errno.ENOENT,
     lambda t: t.rawreg(pd=max(t.other_pds))),
    ('PD handle never allocated', errno.ENOENT, lambda t: t.rawreg(pd=4096)),
    ('MR handle used as PD handle', errno.EINVAL, _mr_handle_as_pd),
    ('reg_mr after dealloc_pd', errno.ENOENT, _after_dealloc_pd),
    ('double dereg', errno.ENOENT, _double_dereg),
    ('dereg of a handle never allocated', errno.ENOENT,
     lambda t: (t.raw.dereg_mr(4096), None)),
    ('dealloc_pd with a region on it', errno.EBUSY, _dealloc_pd_in_use),
    ('reg_mr before GET_CONTEXT', errno.EINVAL, _without_context),
    ('GET_CONTEXT twice', errno.EINVAL, _context_twice),
    ('REG_MR request 8 bytes short', errno.ENOSPC,
     lambda t: t.rawreg(driver=b'', cut=8)),
    ('REG_MR in_words != bytes written', errno.EINVAL,
     lambda t: t.rawreg(in_words=13)),
    ('REG_MR response too small', errno.ENOSPC,
     lambda t: t.rawreg(out_words=2)),
    ('REG_MR response pointer unwritable', errno.EFAULT,
     lambda t: t.rawreg(response=8)),
    ('REG_MR without driver udata', 0, lambda t: t.rawreg(driver=b'')),
    ('REG_MR driver udata 16 zero bytes', 0,
     lambda t: t.rawreg(driver=b'\0' * 16)),
    ('REG_MR driver udata, non-zero beyond mthca_reg_mr', errno.EOPNOTSUPP,
     lambda t: t.rawreg(driver=b'\0' * 8 + b'\1' + b'\0' * 7)),
]


def _table_test(name, want, fn):
    def test(self):
        self.run_case(name, want, fn)
    test.__doc__ = f'bad input: {name} -> {uverbs_raw.errname(want)}, ' \
        'nothing left behind'
    return test


for _i, (_name, _want, _fn) in enumerate(access_cases() + OTHER_CASES, 1):
    setattr(BadInputTable, f'test_{_i:02d}', _table_test(_name, _want, _fn))


class Fuzz(base.VerbsTestCase):
    """Random reg/dereg arguments, fixed seed and count (the first
    base.CONFIG['fuzz_count'] of one sequence: 300, the debug stage 150)."""

    SEED = 11

    def test_fuzz(self):
        """random registrations (seed 11): each refused with a known errno
        or registered and deregistered; nothing left behind"""
        rng = random.Random(self.SEED)
        buf = mem.Buffer(8 << 20, mem.PAGES_4K)
        before = (self.fx.hw_mpts(), mem.vm_pinned_kib())
        allowed = {0, errno.EINVAL, errno.EFAULT, errno.ENOMEM,
                   errno.EOPNOTSUPP}
        seen, problems = {}, []
        for _ in range(base.CONFIG['fuzz_count']):
            off = rng.choice((0, 1, 4095, 4096, rng.randrange(8 << 20)))
            length = rng.choice((0, 1, 4096, rng.randrange(1, 8 << 20),
                                 (8 << 20) - off, (8 << 20) - off + 4096,
                                 1 << rng.randrange(20, 64)))
            access = rng.randrange(1 << 8) & ~(1 << 6)  # ON_DEMAND: own test
            # (address 0 would make pyverbs allocate a buffer itself)
            addr = buf.addr + off if rng.random() < 0.9 else \
                rng.choice((4096, KERNEL_VA, (1 << 64) - 4096))
            try:
                mr = base.MR(self.fx.pd1, length, access, address=addr)
                err = 0
            except base.PyverbsRDMAError as exc:
                err = base.errno_of(exc)
                mr = None
            except (OverflowError, ValueError, PyverbsError):
                continue        # pyverbs refused the argument itself
            seen[err] = seen.get(err, 0) + 1
            if err not in allowed:
                problems.append(f'{uverbs_raw.errname(err)} for addr '
                                f'{addr:#x} length {length:#x} access '
                                f'{access:#x}')
            if mr:
                mr.close()
            if self.fx.hw_mpts() != before[0]:
                problems.append(f'HW-owned MPTs {before[0]} -> '
                                f'{self.fx.hw_mpts()} after addr {addr:#x} '
                                f'length {length:#x} access {access:#x}')
                break
        print('# fuzz outcomes: ' + ', '.join(
            f'{uverbs_raw.errname(k)} x{v}' for k, v in sorted(seen.items())))
        if mem.vm_pinned_kib() != before[1]:
            problems.append(f'VmPin {before[1]} -> {mem.vm_pinned_kib()} KiB')
        self.assertFalse(problems, '; '.join(problems[:5]))


if __name__ == '__main__':
    unittest.main()
