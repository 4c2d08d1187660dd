# SPDX-License-Identifier: GPL-2.0
"""Events: port state changes and a catastrophic error, seen from user
space (ibv_get_async_event, through async_events.c: a non-blocking async
fd and poll() with a deadline, so a missing event fails instead of hanging)
and from the kernel log.

The stub's debug window injects them (Documentation/arbel-stub.rst, "Port
and catastrophic-error events").  The fatal case resets and re-probes the
HCA, so this suite runs last.  Both need event mode (the default after a
passed interrupt test); in polling mode the port case is skipped.
"""

import glob
import os
import select
import subprocess
import time
import unittest

from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD

from arbeltest import dbgwin
import base

HERE = os.path.dirname(os.path.abspath(__file__))
HOLDER = os.path.join(HERE, 'async_events')
DBG = '/sys/kernel/debug/arbel'
# the catastrophic-error poll (5 s), the reset (about 1 s) and the probe
FATAL_SECS = 40


def port_counts():
    """(port_down, port_up): the port events debugfs eq/ counts."""
    return (int(base.eq_debugfs('port_down')),
            int(base.eq_debugfs('port_up')))


def dmesg():
    return subprocess.run(['dmesg'], capture_output=True, text=True,
                          check=False).stdout


class Holder:
    """async_events.c in a child process; lines read with a deadline."""

    def __init__(self, nmrs, secs, stop):
        self.proc = subprocess.Popen(
            [HOLDER, base.CONFIG['device'], str(nmrs), str(secs), stop],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.lines = []
        self.buf = b''

    def line(self, secs):
        """The next line, or None after secs or at the end.  Unbuffered
        reads (os.read): a buffered readline could hold lines select()
        no longer sees."""
        fd = self.proc.stdout.fileno()
        t0 = time.monotonic()
        while b'\n' not in self.buf:
            left = secs - (time.monotonic() - t0)
            r, _, _ = select.select([fd], [], [], max(left, 0))
            if not r:
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                return None
            self.buf += chunk
        raw, self.buf = self.buf.split(b'\n', 1)
        text = raw.decode(errors='replace').strip()
        self.lines.append(text)
        return text

    def send(self, text):
        """A line to the holder's stdin."""
        self.proc.stdin.write(text.encode() + b'\n')
        self.proc.stdin.flush()

    def until(self, word, secs):
        """Lines up to the one starting with word (True), or False."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < secs:
            text = self.line(secs - (time.monotonic() - t0))
            if text is None:
                return False
            if text.startswith(word):
                return True
        return False

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class Events(unittest.TestCase):

    def setUp(self):
        if not os.access(HOLDER, os.X_OK):
            self.fail(f'{HOLDER} missing (tests/verbs/run.sh builds it)')
        self.win = dbgwin.DebugWindow()
        self.addCleanup(lambda: self.win.close())

    def bounce(self, port):
        """@port goes down and up: user space gets PORT_ERR then
        PORT_ACTIVE on @port, the kernel log and debugfs count them."""
        if base.eq_mode() in (None, 'polling'):
            self.skipTest(f'EQ mode {base.eq_mode()}: no events')
        down0, up0 = port_counts()
        posted0 = self.win.read('PORT_EVENTS')
        h = Holder(0, 20, 'PORT_ACTIVE')
        self.addCleanup(h.close)
        self.assertTrue(h.until('ready', 10), f'holder: {h.lines}')
        self.win.write('PORT_EVENT', port)              # down
        self.win.write('PORT_EVENT', port | 0x100)      # active
        ok = h.until('done', 20)
        print(f'# holder: {h.lines}')
        self.assertTrue(ok, f'no PORT_ACTIVE: {h.lines}')
        events = [x for x in h.lines if x.startswith('event ')]
        self.assertEqual(events[-2:], [f'event PORT_ERR port {port}',
                                       f'event PORT_ACTIVE port {port}'])
        self.assertEqual(self.win.read('PORT_EVENTS'), posted0 + 2)
        self.assertEqual(port_counts(), (down0 + 1, up0 + 1))
        self.assertIn(f'port {port} down', dmesg())
        self.assertIn(f'port {port} active', dmesg())

    def test_1_port_down_up(self):
        """Port 1 going down and up reaches user space as PORT_ERR then
        PORT_ACTIVE on port 1, the kernel log and debugfs count them."""
        self.bounce(1)

    def test_1b_port2_down_up(self):
        """The same on port 2: arbel drives both ports (a port-2 event was
        dropped as a port the device lacked until 2026-12-07)."""
        self.bounce(2)

    def test_2_bad_port_ignored(self):
        """A port event for a port the stub does not have posts nothing."""
        posted0 = self.win.read('PORT_EVENTS')
        self.win.write('PORT_EVENT', 3 | 0x100)
        self.assertEqual(self.win.read('PORT_EVENTS'), posted0)

    def test_3_fatal_and_recovery(self):
        """A catastrophic error: the process holding regions gets
        DEVICE_FATAL and errors afterwards, its pages are unpinned, the HCA
        is reset (no HW-owned MPT of its) and probed again, and a new
        process registers memory that translates -- in the same slots, with
        keys none of which the holder had, its old keys refused."""
        own = base.driver_mpts()
        hw0 = self.win.read('HW_MPTS')
        h = Holder(2, FATAL_SECS, 'DEVICE_FATAL')
        self.addCleanup(h.close)
        self.assertTrue(h.until('ready', 10), f'holder: {h.lines}')
        old_keys = [int(x.split()[1], 16) for x in h.lines
                    if x.startswith('key ')]
        pinned = int(h.lines[-1].split('vmpin=')[1])
        self.assertEqual(self.win.read('HW_MPTS'), hw0 + 2, 'two regions')
        self.assertGreaterEqual(pinned, 128, 'VmPin of two 64 KiB regions')

        self.win.write('CATAS_INJECT', 3)               # uplink bus error
        self.assertEqual(self.win.read('CATAS_WORD0'), 3 << 24)
        ok = h.until('done', FATAL_SECS)
        print(f'# holder: {h.lines}')
        self.assertTrue(ok, f'no DEVICE_FATAL: {h.lines}')
        after = dict(x.split('=') for x in h.lines
                     if x.startswith(('reg-after-fatal', 'vmpin-after')))
        self.assertNotEqual(after.get('reg-after-fatal errno'), '0',
                            'registration after the fatal error worked')

        log = dmesg()
        self.assertIn('catastrophic error detected: uplink bus error', log)
        t0 = time.monotonic()
        while ('recovered from the fatal error' not in log and
               time.monotonic() - t0 < FATAL_SECS):
            time.sleep(0.5)
            log = dmesg()
        self.assertIn('recovered from the fatal error', log)
        # the recovery disassociated the old context: the holder, still
        # alive, has nothing pinned any more
        h.send('recovered')
        self.assertTrue(h.until('vmpin-later', 10), f'holder: {h.lines}')
        self.assertEqual(h.lines[-1], 'vmpin-later=0', 'pages left pinned')
        # the reset cleared the buffer: no second recovery
        self.assertEqual(self.win.read('CATAS_WORD0'), 0)
        self.assertEqual(self.win.read('HW_MPTS'), own,
                         "HW-owned MPTs after recovery: the driver's own only")

        ctx = Context(name=base.CONFIG['device'])
        pd = PD(ctx)
        # as many regions as the holder had: the same MPT slots again
        mrs = [MR(pd, 64 << 10, base.LW) for _ in old_keys]
        xl = dbgwin.Translator(self.win)
        try:
            o = xl.translate(mrs[0].lkey, base.ACC['LOCAL_READ'],
                             mrs[0].buf, 1)
            self.assertEqual(o.result, base.XL['OK'], o.name)
            self.assertEqual(self.win.read('HW_MPTS'), own + len(mrs))
            # issue 30: no key from before the recovery names a region
            new_keys = [m.lkey for m in mrs]
            print(f'# keys before the recovery {[hex(k) for k in old_keys]}'
                  f', after {[hex(k) for k in new_keys]}')
            self.assertFalse(set(old_keys) & set(new_keys),
                             'a key from before the recovery came back')
            for k in old_keys:
                o = xl.translate(k, base.ACC['LOCAL_READ'], mrs[0].buf, 1)
                self.assertNotEqual(o.result, base.XL['OK'],
                                    f'old key {k:#x} translates')
        finally:
            xl.close()
            for m in mrs:
                m.close()
            pd.close()
            ctx.close()
        self.assertEqual(self.win.read('HW_MPTS'), own)
        self.assertEqual(log.count('recovered from the fatal error'), 1)

    def test_4_polling_mode(self):
        """polling=1 (reloaded): no EQ, commands polled, and registration
        works the same; then the run's own load again (event mode unless
        the whole run polls)."""
        def load(*params):
            subprocess.run(['rmmod', 'arbel'], check=False,
                           capture_output=True)
            p = base.insmod(*params)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertTrue(base.wait_ibdev(base.CONFIG['device']))

        self.addCleanup(load)
        self.win.close()
        load('polling=1')
        self.win = dbgwin.DebugWindow()
        self.assertEqual(base.eq_mode(), 'polling')
        own = base.driver_mpts()
        self.assertEqual(self.win.read('HW_MPTS'), own,
                         "no EQ ring region: the kernel queues' only")
        ctx = Context(name=base.CONFIG['device'])
        pd = PD(ctx)
        mr = MR(pd, 64 << 10, base.LW)
        xl = dbgwin.Translator(self.win)
        try:
            o = xl.translate(mr.lkey, base.ACC['LOCAL_WRITE'], mr.buf, 1)
            self.assertEqual(o.result, base.XL['OK'], o.name)
        finally:
            xl.close()
            mr.close()
            pd.close()
            ctx.close()
        polled = glob.glob(f'{DBG}/*/commands/event_completed')
        with open(polled[0], encoding='ascii') as f:
            self.assertEqual(f.read().strip(), '0')
        self.assertEqual(self.win.read('HW_MPTS'), own)
        self.win.close()
        load()
        self.win = dbgwin.DebugWindow()
        want = ('polling',) if 'polling=1' in base.RUN_PARAMS else ('msix', 'intx')
        self.assertIn(base.eq_mode(), want)


if __name__ == '__main__':
    unittest.main()
