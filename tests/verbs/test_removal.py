# SPDX-License-Identifier: GPL-2.0
"""Removal with users present (issue #11, findings 1 and 2).

A child process (removal_holder.py's main(), forked) holds the device: an
open uverbs file, a context with its UAR page mapped by libmthca, a PD and
64 KiB regions.
While it does, the test unbinds the PCI function through sysfs, removes
the module, or has QEMU hot-unplug the device (device_del through the
harness, hotplug.py); each must return promptly (the driver's
disassociate_ucontext lets the core tear the context down under the
process), the child's next verbs must fail cleanly (an errno, no crash),
the stub must report nothing mapped and no hardware-owned MPT (after
unbind and rmmod; after the unplug the device is gone), and the device
must bind (be plugged) again and register.  Finding 2: a region whose HW2SW_MPT
the firmware refuses (injected through the debug window) when its process
exits must not be leaked nor freed while the HCA may use it: the driver
resets the HCA, frees everything, and removal afterwards is clean.

Issue 28: the same unbind while ibv_rc_pingpong -e moves data (QPs, CQs,
doorbell pages, a completion channel): both processes get an error
("Failed to get cq_event"), nothing stays mapped, the device binds again.

Runs after test_cleanup: it removes the device under every open context.
"""

import os
import signal
import subprocess
import sys
import time
import unittest

from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD

import base
import hotplug
import removal_holder
from arbeltest import dbgwin, forked

DRV = '/sys/bus/pci/drivers/arbel'
HERE = os.path.dirname(os.path.abspath(__file__))
HOLDER = os.path.join(HERE, 'removal_holder.py')
HOTPLUG = os.path.join(HERE, 'hotplug.py')
PROMPT_S = 60           # removal with a user must end within this
HW2SW_MPT = 0x00f
STATUS_BUSY = 0x06      # "resource busy" (arbel-hw.rst, status table)


def start(argv):
    return subprocess.Popen(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(proc, secs):
    """(exit status or None if still running after secs, stderr, seconds)."""
    t0 = time.monotonic()
    while proc.poll() is None and time.monotonic() - t0 < secs:
        time.sleep(0.1)
    if proc.returncode is None:
        return None, '', time.monotonic() - t0
    err = proc.stderr.read().strip() if proc.stderr else ''
    return proc.returncode, err, time.monotonic() - t0


def module_loaded():
    return os.path.isdir('/sys/module/arbel')


def mapped():
    """{counter: value} of the stub's mapped pages and HW-owned MPTs."""
    win = dbgwin.DebugWindow()
    try:
        return {n: win.read(n) for n in ('ICM_PAGES', 'FA_PAGES',
                                         'AUX_PAGES', 'HW_MPTS')}
    finally:
        win.close()


class Holder:
    """removal_holder.py's main() in a child process."""

    def __init__(self, nmrs):
        # forked, not a new interpreter: 6 s less on the debug kernel
        self.proc = forked.Child(removal_holder.main,
                                 [HOLDER, base.CONFIG['device'], str(nmrs)])
        self.ready = self.proc.stdout.readline().strip()

    def ask(self, cmd):
        self.proc.stdin.write(cmd + '\n')
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def exit(self):
        try:
            self.proc.stdin.write('exit\n')
            self.proc.stdin.flush()
        except OSError:
            pass
        return finish(self.proc, 30)[0]

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()


class DeviceCase(unittest.TestCase):
    """Helpers of the tests that remove, reset or reload the device; each
    test leaves the module loaded and the device bound."""

    @classmethod
    def setUpClass(cls):
        cls.bdf = os.path.basename(dbgwin.find_device())
        cls.dev = base.CONFIG['device']

    def tearDown(self):
        self.restore()

    # -- helpers ---------------------------------------------------------------

    def bound(self):
        return os.path.exists(os.path.join(DRV, self.bdf))

    def restore(self):
        """Load and bind again if a test left the device away."""
        if not module_loaded():
            base.insmod()
        elif not self.bound():
            self.driver_file('bind')
        self.wait_ibdev()

    def wait_ibdev(self, secs=30):
        return base.wait_ibdev(self.dev, secs)

    def remove_with_user(self, argv, what, problems):
        """Run argv (the removal) while a holder holds the device; returns
        the holder after the removal, or None."""
        holder = Holder(nmrs=2)
        if not holder.ready.startswith('ready 0x'):
            problems.append(f'holder did not start: {holder.ready!r}')
            holder.kill()
            return None
        hw = mapped()['HW_MPTS']
        for kind in ('ctx', 'pd', 'mr'):
            p = subprocess.run(['rdma', '-dd', 'res', 'show', kind],
                               capture_output=True, text=True, check=False)
            print(f'# before {what}, rdma res show {kind}:\n# ' +
                  '\n# '.join(p.stdout.strip().splitlines()))
        if hw < 2:
            problems.append(f'{hw} HW-owned MPTs with the holder, want >= 2')
        proc = start(argv)
        rc, err, secs = finish(proc, PROMPT_S)
        print(f'# {what} with a user: status {rc} after {secs:.1f} s')
        if rc is None:
            problems.append(f'{what} still running after {PROMPT_S} s with '
                            'a process holding the device')
            holder.kill()       # closing its file lets the removal end
            rc, _, secs = finish(proc, 120)
            print(f'# {what} ended {secs:.1f} s after the holder was '
                  f'killed: status {rc}')
            return None
        if rc != 0:
            problems.append(f'{what} failed with a user present: status '
                            f'{rc} ({err})')
        return holder

    def probe_problems(self, holder):
        """The holder's verbs after removal fail with an errno."""
        out = []
        line = holder.ask('probe')
        print(f'# holder after removal: {line}')
        fields = dict(f.split('=', 1) for f in line.split()[1:]) \
            if line.startswith('probe ') else {}
        for verb in ('query_device', 'alloc_pd', 'reg_mr'):
            v = fields.get(verb)
            if v is None or not v.lstrip('-').isdigit() or v == '0':
                out.append(f'{verb} after removal: {v!r}, want an errno')
        if holder.exit() != 0:
            out.append(f'holder exit status {holder.proc.returncode}')
        return out

    def driver_cmd(self, action):
        """The command that writes this device's address to the driver's
        sysfs file action ('bind' or 'unbind')."""
        return ['sh', '-c', f'echo {self.bdf} > {DRV}/{action}']

    def driver_file(self, action, timeout=60):
        """Write the device's address to the driver's action file:
        (status, stderr, seconds taken)."""
        return finish(start(self.driver_cmd(action)), timeout)

    def reload(self, *params):
        """rmmod, then insmod with params: '' or the problem."""
        if module_loaded():
            rc, err, _ = finish(start(['rmmod', 'arbel']), PROMPT_S)
            if rc != 0:
                return f'rmmod: status {rc} ({err})'
        p = base.insmod(*params)
        if p.returncode:
            return f'insmod {" ".join(params)}: {p.stderr.strip()}'
        return '' if self.wait_ibdev() else f'{self.dev} did not appear'

    def unmapped_problems(self, when):
        m = mapped()
        bad = {k: v for k, v in m.items() if v}
        return [f'{when}: still mapped {bad}'] if bad else []

    def rebound_problems(self):
        """Unbound: nothing mapped; then bound again, and it works."""
        out = self.unmapped_problems('after unbind')
        rc, err, _ = self.driver_file('bind')
        if rc != 0:
            out.append(f'bind again: status {rc} ({err})')
        return out + self.works_problems()

    def unbind_rebound_problems(self, when):
        """Unbind (promptly), then rebound_problems(): the problems."""
        rc, err, secs = self.driver_file('unbind', PROMPT_S)
        print(f'# unbind {when}: status {rc} after {secs:.1f} s')
        if rc != 0:
            return [f'unbind {when}: status {rc} ({err})']
        return self.rebound_problems()

    def works_problems(self):
        """Bound again: a context, a PD and a region that translates."""
        if not self.wait_ibdev():
            return [f'{self.dev} did not come back']
        win = dbgwin.DebugWindow()
        xl = dbgwin.Translator(win)
        try:
            ctx = Context(name=self.dev)
            pd = PD(ctx)
            mr = MR(pd, 64 << 10, base.LW)
            o = xl.translate(mr.lkey, base.ACC['LOCAL_READ'], mr.buf, 1)
            hw = win.read('HW_MPTS')
            mr.close()
            pd.close()
            ctx.close()
            out = []
            if o.result != base.XL['OK']:
                out.append(f'new region translates to {o.name}, want OK')
            own = base.driver_mpts()
            if hw != 1 + own:
                out.append(f'{hw} HW-owned MPTs with one region, want '
                           f'{1 + own}')
            if win.read('HW_MPTS') != own:
                out.append('HW-owned MPT left after dereg')
            return out
        except base.PyverbsRDMAError as exc:
            return [f'after rebind: {exc}']
        finally:
            xl.close()
            win.close()



class Removal(DeviceCase):
    """Removal with a user present."""

    def test_1_unbind_with_user(self):
        """unbind with a process holding context, UAR mmap and 2 MRs:
        prompt, its verbs then fail, nothing mapped, binds again"""
        problems = []
        holder = self.remove_with_user(
            self.driver_cmd('unbind'), 'unbind',
            problems)
        if holder:
            problems += self.unmapped_problems('after unbind')
            problems += self.probe_problems(holder)
        rc, err, _ = self.driver_file('bind')
        if rc != 0:
            problems.append(f'bind again: status {rc} ({err})')
        problems += self.works_problems()
        self.assertFalse(problems, '; '.join(problems))

    def test_2_rmmod_with_user(self):
        """rmmod with a process holding context, UAR mmap and 2 MRs:
        prompt, its verbs then fail, nothing mapped, loads again"""
        problems = []
        holder = self.remove_with_user(['rmmod', 'arbel'], 'rmmod', problems)
        if holder:
            if module_loaded():
                problems.append('module still loaded')
            problems += self.unmapped_problems('after rmmod')
            problems += self.probe_problems(holder)
        if module_loaded():
            finish(start(['rmmod', 'arbel']), 60)
        p = base.insmod()
        if p.returncode:
            problems.append(f'insmod again: {p.stderr.strip()}')
        problems += self.works_problems()
        self.assertFalse(problems, '; '.join(problems))

    def test_3_refused_hw2sw_mpt_at_exit(self):
        """a process exits while HW2SW_MPT is refused (status 0x06): the
        HCA is reset (nothing mapped, no HW-owned MPT), unbind is clean,
        binds again and works"""
        problems = []
        holder = Holder(nmrs=1)
        self.assertTrue(holder.ready.startswith('ready 0x'), holder.ready)
        win = dbgwin.DebugWindow()
        try:
            failed0 = win.read('FI_FAILED')
            # every HW2SW_MPT is refused while the process exits: the
            # core's second try (RDMA_REMOVE_DRIVER_FAILURE) too
            win.fi_fail(HW2SW_MPT, STATUS_BUSY, 1)
            rc = holder.exit()
            injected = win.read('FI_FAILED') - failed0
        finally:
            win.fi_clear()
            win.close()
        if rc != 0:
            problems.append(f'holder exit status {rc}')
        print(f'# {injected} HW2SW_MPT refused')
        if injected < 1:
            problems.append('no HW2SW_MPT refusal injected')
        # the driver's policy: the HCA is reset, so it holds nothing now
        problems += self.unmapped_problems('after the refused HW2SW_MPT')
        problems += self.unbind_rebound_problems('after the refusal')
        self.assertFalse(problems, '; '.join(problems))

    def test_5_unbind_with_pingpong(self):
        """unbind while ibv_rc_pingpong -e runs (QPs, CQs, doorbell pages,
        a completion channel): prompt, both processes end with an error
        within 30 s, nothing mapped, binds again and works"""
        problems = []
        argv = ['ibv_rc_pingpong', '-d', self.dev, '-g', '0', '-e',
                '-n', '100000000', '-p', '18599']
        server = start(argv)
        time.sleep(1)
        client = start(argv + ['127.0.0.1'])
        time.sleep(3)
        if server.poll() is not None or client.poll() is not None:
            problems.append('the pingpong ended before the unbind: '
                            f'server {server.poll()}, client '
                            f'{client.poll()}')
        rc, err, secs = self.driver_file('unbind', PROMPT_S)
        print(f'# unbind with a pingpong running: status {rc} after '
              f'{secs:.1f} s')
        if rc != 0:
            problems.append(f'unbind: status {rc} ({err})')
        for who, proc in (('server', server), ('client', client)):
            prc, perr, psecs = finish(proc, 30)
            print(f'# {who}: exit {prc} after {psecs:.1f} s: '
                  f'{perr.splitlines()[-1:] if perr else ""}')
            if prc is None:
                proc.kill()
                proc.wait()
                problems.append(f'{who} still running 30 s after the unbind')
            elif prc == 0:
                problems.append(f'{who} exited 0 after the unbind')
        problems += self.rebound_problems()
        self.assertFalse(problems, '; '.join(problems))

    def test_4_device_del_with_user(self):
        """hot-unplug (QEMU's device_del) with a process holding context,
        UAR mmap and 2 MRs: prompt, its verbs then fail, the function is
        gone; device_add plugs it again, bound, and it works"""
        if hotplug.slot_of(self.bdf) is None:
            self.skipTest(f'{self.bdf} is in no hot-plug slot (the harness '
                          'gives one with VM_HOTPLUG=1, on a kernel with '
                          'ACPI or PCIe hot-plug)')
        problems = []
        holder = self.remove_with_user(
            [sys.executable, HOTPLUG, 'del', self.bdf, str(PROMPT_S)],
            'device_del', problems)
        if holder:
            problems += self.probe_problems(holder)
        rc, err, secs = finish(start([sys.executable, HOTPLUG, 'add',
                                      self.bdf, str(PROMPT_S)]),
                               PROMPT_S + 10)
        print(f'# device_add: status {rc} after {secs:.1f} s')
        if rc != 0:
            problems.append(f'device_add: status {rc} ({err})')
        else:
            problems += self.works_problems()
        self.assertFalse(problems, '; '.join(problems))


if __name__ == '__main__':
    unittest.main()
