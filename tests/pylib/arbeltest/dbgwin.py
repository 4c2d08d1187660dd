# SPDX-License-Identifier: GPL-2.0
"""arbel-stub's debug window, from inside the guest (root).

The window is a 4 KiB page of BAR0 (ARBEL_DBG_BASE) that the real HCA does
not have; the driver never touches it.  Its register map is the stub's
qemu/arbel-dbgwin.h, read here from its "#define ARBEL_... value" lines
(paths.data_file), so the numbers live in one place.  Registers are 32-bit
big-endian; every access here is one 4-byte MMIO load or store
(memoryview.cast('I')), never a byte copy.  The driver holds BAR0, so
mapping sysfs resource0 needs the kernel's iomem=relaxed (scripts/vm/run.sh
boots with it).

  regs = registers()                 {'ARBEL_DBG_ID': 0, ...}
  win = DebugWindow()                finds 15b3:6282, maps the window
  win.read('HW_MPTS'), win.read64('MTT_BASE'), win.write('FI_CLEAR', 1)
  xl = Translator(win)               the translation engine, with a bounce page
  xl.translate(key, LOCAL_READ, va, 1) -> Xlate(result, pa, index)
  xl.write_region(key, acc, va, data), xl.read_region(key, acc, va, n)
  win.fi_fail(opcode, status, every), fi_hold, fi_corrupt, fi_clear
"""

import mmap
import os
import re
import sys

from . import mem, paths

VENDOR_MELLANOX = 0x15b3
DEVICE_ARBEL = 0x6282   # InfiniHost III Ex, mem-free mode

_DEFINE_RE = re.compile(r'^#define\s+(ARBEL_\w+)\s+(0x[0-9a-fA-F]+|\d+)\b')

_REGS = None


def registers(path=None):
    """{name: value} of every "#define ARBEL_... number" of arbel-dbgwin.h."""
    global _REGS
    if path is None and _REGS is not None:
        return _REGS
    out = {}
    with open(path or paths.data_file('arbel-dbgwin.h'), encoding='utf-8') as f:
        for line in f:
            m = _DEFINE_RE.match(line)
            if m:
                out[m.group(1)] = int(m.group(2), 0)
    if path is None:
        _REGS = out
    return out


def _reg(name):
    return registers()[name if name.startswith('ARBEL_') else
                       'ARBEL_DBG_' + name]


def _names(prefix, exclude=()):
    return {v: k[len(prefix):] for k, v in registers().items()
            if k.startswith(prefix) and not any(k.startswith(e) for e in exclude)}


def result_name(code):
    """'OK', 'RANGE', ... for a translation result code."""
    return _names('ARBEL_XL_', ('ARBEL_XL_ACC_', 'ARBEL_XL_DIR_',
                                'ARBEL_XL_MAX_')).get(code, f'?{code}')


def access_name(acc):
    """'LOCAL_READ', ... for a translation access type."""
    return _names('ARBEL_XL_ACC_').get(acc, f'?{acc}')


def result(name):
    """The code of translation result name ('OK', 'SW_OWNED', ...)."""
    return registers()['ARBEL_XL_' + name]


def access(name):
    """The code of access type name ('LOCAL_READ', ..., 'ATOMIC')."""
    return registers()['ARBEL_XL_ACC_' + name]


def find_device(bdf=None):
    """The sysfs directory of the (first, or the given) 15b3:6282 function."""
    root = '/sys/bus/pci/devices'
    for name in sorted(os.listdir(root)) if bdf is None else [bdf]:
        d = os.path.join(root, name)
        try:
            with open(os.path.join(d, 'vendor'), encoding='ascii') as f:
                vendor = int(f.read(), 16)
            with open(os.path.join(d, 'device'), encoding='ascii') as f:
                device = int(f.read(), 16)
        except OSError:
            continue
        if (vendor, device) == (VENDOR_MELLANOX, DEVICE_ARBEL):
            return d
    raise FileNotFoundError(f'no {VENDOR_MELLANOX:04x}:{DEVICE_ARBEL:04x} '
                            'PCI function')


class DebugWindow:
    """The mapped window: 32-bit big-endian register reads and writes."""

    def __init__(self, bdf=None):
        self.dir = find_device(bdf)
        path = os.path.join(self.dir, 'resource0')
        fd = os.open(path, os.O_RDWR | os.O_SYNC)
        try:
            self._map = mmap.mmap(fd, _reg('SIZE'), mmap.MAP_SHARED,
                                  mmap.PROT_READ | mmap.PROT_WRITE,
                                  offset=_reg('BASE'))
        except OSError as e:
            raise OSError(e.errno, f'mmap {path} at {_reg("BASE"):#x}: '
                          f'{e.strerror} (iomem=relaxed?)') from e
        finally:
            os.close(fd)
        self._words = memoryview(self._map).cast('I')
        ident = self.read('ID')
        if ident != _reg('ID_VALUE'):
            self.close()
            raise OSError(f'{path}: debug window ID {ident:#010x}, not '
                          f'{_reg("ARBEL_DBG_ID_VALUE"):#010x} ("ARBD")')

    @staticmethod
    def _swap(v):
        return v if sys.byteorder == 'big' else \
            int.from_bytes(v.to_bytes(4, 'little'), 'big')

    def read(self, reg):
        """One register: reg is a name ('HW_MPTS', 'ARBEL_DBG_HW_MPTS')
        or an offset in the window."""
        off = reg if isinstance(reg, int) else _reg(reg)
        return self._swap(self._words[off // 4])

    def write(self, reg, value):
        """Write one register (name or offset)."""
        off = reg if isinstance(reg, int) else _reg(reg)
        self._words[off // 4] = self._swap(value & 0xffffffff)

    def read64(self, reg):
        """A 64-bit value from its _HI and _LO registers ('MTT_BASE')."""
        return (self.read(reg + '_HI') << 32) | self.read(reg + '_LO')

    # -- fault injection: the stub's firmware misbehaves on request --------

    def fi_fail(self, opcode, status, every=0):
        """Fail the next command with opcode (every: each N-th, 0 = once)
        with status."""
        self.write('FI_FAIL_STATUS', status)
        self.write('FI_FAIL_EVERY', every)
        self.write('FI_FAIL_OPCODE', opcode)

    def fi_hold(self, opcode, ms):
        """Hold commands (opcode, 0 = any) busy for ms (0xffffffff: forever)."""
        self.write('FI_HOLD_OPCODE', opcode)
        self.write('FI_HOLD_MS', ms)

    def fi_corrupt(self, opcode, offset, length, every=0):
        """XOR length outbox bytes at offset with 0xff for opcode."""
        self.write('FI_CORRUPT_OFFSET', offset)
        self.write('FI_CORRUPT_LEN', length)
        self.write('FI_CORRUPT_EVERY', every)
        self.write('FI_CORRUPT_OPCODE', opcode)

    def fi_clear(self):
        """All faults off."""
        self.write('FI_CLEAR', 1)

    def close(self):
        """Unmap the window."""
        self._words.release()
        self._map.close()


class Xlate:
    """The outcome of one translation request."""

    def __init__(self, result_code, pa, index):
        self.result = result_code
        self.pa = pa
        self.index = index

    @property
    def name(self):
        return result_name(self.result)

    def __repr__(self):
        return f'Xlate({self.name}, pa {self.pa:#x}, index {self.index:#x})'


class Translator:
    """The stub's translation engine: key + access + VA -> bytes moved.

    Data moves between the region and one locked bounce page of this
    process (its physical address from /proc/self/pagemap), so a request
    moves at most a page.
    """

    def __init__(self, window):
        self.win = window
        self._page, self.bounce_addr, self.bounce_pa = mem.locked_page()
        self.bounce = memoryview(self._page)

    def translate(self, key, acc, va, length, direction=None):
        """Run one request; direction defaults to region -> bounce page."""
        w = self.win
        if direction is None:
            direction = _reg('ARBEL_XL_DIR_TO_BUF')
        w.write('XL_KEY', key)
        w.write('XL_ACCESS', acc)
        w.write('XL_VA_HI', va >> 32)
        w.write('XL_VA_LO', va)
        w.write('XL_LEN', length)
        w.write('XL_DIR', direction)
        w.write('XL_BUF_HI', self.bounce_pa >> 32)
        w.write('XL_BUF_LO', self.bounce_pa)
        w.write('XL_GO', 1)
        return Xlate(w.read('XL_RESULT'), w.read64('XL_PA'),
                     w.read('XL_INDEX'))

    def write_region(self, key, acc, va, data):
        """Copy data into the region through the key, a page at a time;
        the first result that is not OK, else OK."""
        ok = result('OK')
        data = memoryview(data)
        for pos in range(0, len(data), mem.PAGE_SIZE):
            n = min(mem.PAGE_SIZE, len(data) - pos)
            self.bounce[:n] = data[pos:pos + n]
            r = self.translate(key, acc, va + pos, n,
                               _reg('ARBEL_XL_DIR_TO_REGION')).result
            if r != ok:
                return r
        return ok

    def read_region(self, key, acc, va, length):
        """(result, bytes) of reading [va, va + length) through the key."""
        ok = result('OK')
        out = bytearray()
        for pos in range(0, length, mem.PAGE_SIZE):
            n = min(mem.PAGE_SIZE, length - pos)
            self.bounce[:n] = b'\x5a' * n
            r = self.translate(key, acc, va + pos, n).result
            if r != ok:
                return r, bytes(out)
            out += self.bounce[:n]
        return ok, bytes(out)

    def close(self):
        """Release the bounce page."""
        self.bounce.release()
        self._page.close()
