# SPDX-License-Identifier: GPL-2.0
"""User memory for tests: buffers on chosen page kinds, their physical pages.

- virt_to_phys(va) / phys_pages(va, length): physical addresses from
  /proc/self/pagemap (root sees the page frame numbers).
- Buffer(length, kind): an anonymous mapping on 4 KiB pages (PAGES_4K),
  transparent huge pages (PAGES_THP, 2 MiB-aligned, madvise(MADV_HUGEPAGE))
  or hugetlbfs pages (PAGES_HUGETLB, MAP_HUGETLB); .addr is its virtual
  address, .view a writable memoryview.
- scattered(length): a PAGES_4K Buffer none of whose pages is physically
  next to the one before, so that a region of it needs one MTT entry per
  4 KiB page whatever the page allocator's state.
- address_of(obj): the virtual address of a writable buffer (mmap, bytearray).
- map_anonymous(), mprotect(), munmap(), mlock(): the system calls, for
  ranges a test reshapes behind Python's back.
- locked_page(): one populated, mlock()ed 4 KiB page (a DMA bounce page).
- vm_pinned_kib(): VmPin of this process (pages pinned for RDMA).
- hugetlb_pages(), hugetlb_reserve(n), hugetlb_free(): the default-size
  huge page pool.
"""

import ctypes
import mmap
import os
import struct

PAGE_SIZE = 4096
PAGE_SHIFT = 12
HUGE_2M = 2 << 20

PAGES_4K = '4k'
PAGES_THP = 'thp'
PAGES_HUGETLB = 'hugetlb'
PAGE_KINDS = (PAGES_4K, PAGES_THP, PAGES_HUGETLB)

# <asm-generic/mman-common.h>; Python 3.11's mmap module lacks MAP_HUGETLB
MAP_HUGETLB = getattr(mmap, 'MAP_HUGETLB', 0x40000)
MADV_HUGEPAGE = getattr(mmap, 'MADV_HUGEPAGE', 14)
MADV_NOHUGEPAGE = getattr(mmap, 'MADV_NOHUGEPAGE', 15)
PROT_NONE = 0       # <asm-generic/mman-common.h>; not in the mmap module

# /proc/PID/pagemap (Documentation/admin-guide/mm/pagemap.rst)
_PM_PRESENT = 1 << 63
_PM_PFN_MASK = (1 << 55) - 1

_libc = ctypes.CDLL(None, use_errno=True)


def _pagemap_entries(first_page, count):
    with open('/proc/self/pagemap', 'rb', buffering=0) as f:
        data = os.pread(f.fileno(), 8 * count, 8 * first_page)
    if len(data) != 8 * count:
        raise OSError(f'pagemap: short read at page {first_page:#x}')
    return struct.unpack(f'<{count}Q', data)


def _entry_to_pa(ent):
    if not ent & _PM_PRESENT:
        return 0
    return (ent & _PM_PFN_MASK) * PAGE_SIZE


def virt_to_phys(va):
    """The physical address of virtual address va; 0 if not present."""
    pa = _entry_to_pa(_pagemap_entries(va // PAGE_SIZE, 1)[0])
    return pa + va % PAGE_SIZE if pa else 0


def phys_pages(va, length):
    """Physical addresses of the 4 KiB pages holding [va, va + length):
    [pa of the page of floor4k(va), of the next page, ...]; 0 where absent."""
    first = va // PAGE_SIZE
    count = (va + length - 1) // PAGE_SIZE - first + 1
    return [_entry_to_pa(e) for e in _pagemap_entries(first, count)]


def address_of(buf):
    """The virtual address of a writable buffer (mmap, bytearray, ...)."""
    c = ctypes.c_char.from_buffer(buf)
    try:
        return ctypes.addressof(c)
    finally:
        del c


def _check(ret, what):
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f'{what}: {os.strerror(err)}')


def mlock(addr, length):
    """mlock(2) a range (Python's mmap has no mlock)."""
    _check(_libc.mlock(ctypes.c_void_p(addr), ctypes.c_size_t(length)), 'mlock')


def mprotect(addr, length, prot):
    """mprotect(2) a range; prot is mmap.PROT_*."""
    _check(_libc.mprotect(ctypes.c_void_p(addr), ctypes.c_size_t(length),
                          ctypes.c_int(prot)), 'mprotect')


def map_anonymous(length, prot):
    """mmap(2) an anonymous private range with protection prot; its address.

    For ranges a test changes with mprotect()/munmap() behind Python's back
    (an mmap object cannot be PROT_NONE and writable-exported at once).
    """
    _libc.mmap.restype = ctypes.c_void_p
    addr = _libc.mmap(None, ctypes.c_size_t(length), ctypes.c_int(prot),
                      ctypes.c_int(mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS),
                      ctypes.c_int(-1), ctypes.c_long(0))
    if addr in (None, ctypes.c_void_p(-1).value):
        err = ctypes.get_errno()
        raise OSError(err, f'mmap: {os.strerror(err)}')
    return addr


def munmap(addr, length):
    """munmap(2) part of a mapping (the mmap object must not touch it again)."""
    _check(_libc.munmap(ctypes.c_void_p(addr), ctypes.c_size_t(length)),
           'munmap')


# the fill of Buffer: byte i is (i * 7 + 3) mod 256, period 256
_PATTERN = bytes((i * 7 + 3) & 0xff for i in range(256))


class Buffer:
    """An anonymous private mapping of length bytes on one page kind.

    PAGES_4K and PAGES_THP buffers start on a 2 MiB boundary (the mapping is
    over-allocated) with madvise(MADV_NOHUGEPAGE / MADV_HUGEPAGE); PAGES_HUGETLB
    buffers are MAP_HUGETLB (OSError if the pool is too small).  Every byte
    is written on creation, so every page is present and private (a read-only
    registration of untouched anonymous memory would pin the zero page).
    """

    def __init__(self, length, kind=PAGES_4K, fill=True):
        if kind not in PAGE_KINDS:
            raise ValueError(f'page kind {kind!r}, not one of {PAGE_KINDS}')
        self.kind = kind
        self.length = length
        prot = mmap.PROT_READ | mmap.PROT_WRITE
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
        if kind == PAGES_HUGETLB:
            self._map = mmap.mmap(-1, length, flags=flags | MAP_HUGETLB,
                                  prot=prot)
            self.offset = 0
        else:
            self._map = mmap.mmap(-1, length + HUGE_2M, flags=flags, prot=prot)
            base = address_of(self._map)
            self.offset = -base % HUGE_2M
            self._map.madvise(MADV_HUGEPAGE if kind == PAGES_THP
                              else MADV_NOHUGEPAGE, self.offset, length)
        self.view = memoryview(self._map)[self.offset:self.offset + length]
        self.addr = address_of(self._map) + self.offset
        if fill:
            whole = length // 256 * 256
            self.view[:whole] = _PATTERN * (length // 256)
            self.view[whole:] = _PATTERN[:length - whole]

    def phys_pages(self, off=0, length=None):
        """phys_pages() of [addr + off, addr + off + length)."""
        return phys_pages(self.addr + off,
                          self.length - off if length is None else length)

    def close(self):
        """Unmap the buffer."""
        self.view.release()
        self._map.close()


def scattered(length):
    """(Buffer, n): a PAGES_4K buffer of length bytes whose 4 KiB pages
    are not physically adjacent, n the number of its pages that still are
    next to the one before (expected 0).  Two buffers' pages are touched
    in turn, so the page allocator hands them out interleaved; the other
    buffer is unmapped."""
    bufs = [Buffer(length, PAGES_4K, fill=False) for _ in range(2)]
    for off in range(0, length, PAGE_SIZE):
        for b in bufs:
            b.view[off] = 0x5a
    bufs[1].close()
    pas = bufs[0].phys_pages()
    return bufs[0], sum(1 for a, b in zip(pas, pas[1:]) if b == a + PAGE_SIZE)


def vm_pinned_kib():
    """VmPin of this process: pages pinned by ib_umem_get, in KiB."""
    with open('/proc/self/status', encoding='ascii') as f:
        for line in f:
            if line.startswith('VmPin:'):
                return int(line.split()[1])
    return -1


def locked_page():
    """(mmap, address, physical address) of a populated, mlock()ed page."""
    m = mmap.mmap(-1, PAGE_SIZE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS |
                  mmap.MAP_POPULATE)
    addr = address_of(m)
    mlock(addr, PAGE_SIZE)
    m[:] = bytes(PAGE_SIZE)
    pa = virt_to_phys(addr)
    if not pa:
        raise OSError('no physical address in /proc/self/pagemap (not root?)')
    return m, addr, pa


_NR_HUGEPAGES = '/proc/sys/vm/nr_hugepages'


def hugetlb_pages():
    """(total, free, size in bytes) of the default huge page pool."""
    info = {}
    with open('/proc/meminfo', encoding='ascii') as f:
        for line in f:
            key, _, rest = line.partition(':')
            info[key] = rest.split()
    if 'HugePages_Total' not in info:
        return 0, 0, 0
    return (int(info['HugePages_Total'][0]), int(info['HugePages_Free'][0]),
            int(info['Hugepagesize'][0]) * 1024)


def hugetlb_reserve(count):
    """Ask for count default-size huge pages; return how many the pool has."""
    with open(_NR_HUGEPAGES, 'w', encoding='ascii') as f:
        f.write(f'{count}\n')
    return hugetlb_pages()[0]


def hugetlb_free():
    """Give the huge page pool back (nr_hugepages = 0)."""
    return hugetlb_reserve(0)
