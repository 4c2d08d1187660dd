# SPDX-License-Identifier: GPL-2.0
"""The fabric stages' storage group (tests/fabric/storage.py, issue 29):
its pattern, the option strings it hands the kernel, and its verdicts,
on hand-made input: a pattern that would let a misplaced page pass, a
connect or a mount that failed for another reason than the device's
missing fast registration, or one that hung, must not pass."""

import importlib.util
import os
import unittest

TESTS = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
STORAGE = os.path.join(TESTS, 'fabric', 'storage.py')


def load(path):
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@unittest.skipUnless(os.path.isfile(STORAGE),
                     'tests/fabric is not beside this copy (in the VM)')
class Storage(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.st = load(STORAGE)
        cls.base = cls.st.base_block()

    def test_size(self):
        """Issue 29 asks 64 MiB each way, in whole 1 MiB blocks."""
        self.assertEqual(self.st.SIZE, 64 << 20)
        self.assertEqual(self.st.SIZE % self.st.BLOCK, 0)

    def test_pattern_is_repeatable(self):
        self.assertEqual(self.st.block(5, self.base),
                         self.st.block(5, self.st.base_block()))
        self.assertEqual(len(self.st.block(0, self.base)), 1 << 20)

    def test_every_page_is_its_own(self):
        """A page of one block placed at the same offset of another, or
        at another offset of its own block, differs: each 4 KiB page
        starts with MAGIC and its byte offset (little-endian)."""
        b0, b1 = self.st.block(0, self.base), self.st.block(1, self.base)
        page = 4096
        self.assertNotEqual(b0[page:2 * page], b1[page:2 * page])
        pages = {bytes(b1[o:o + page]) for o in range(0, len(b1), page)}
        self.assertEqual(len(pages), len(b1) // page)
        off = 3 * page
        self.assertEqual(b1[off:off + 8], b'ARBEL-29')
        self.assertEqual(int.from_bytes(b1[off + 8:off + 16], 'little'),
                         (1 << 20) + off)
        # the rest of the page is the pseudo-random base, not zeros
        self.assertEqual(b1[off + 16:off + page],
                         self.base[off + 16:off + page])
        self.assertNotEqual(b1[off + 16:off + page], bytes(page - 16))

    def test_first_difference(self):
        want = self.st.block(2, self.base)
        self.assertIsNone(self.st.first_difference(bytes(want), want))
        for at in (0, 1, 4095, 4096, 700000, len(want) - 1):
            got = bytearray(want)
            got[at] ^= 0x01
            self.assertEqual(self.st.first_difference(got, want), at)
        self.assertEqual(self.st.first_difference(want[:1000], want), 1000)
        self.assertEqual(self.st.first_difference(b'', want), 0)

    def test_nvme_connect_args(self):
        """"nvme connect -t rdma -a ADDR -s 4420 -n NQN", the host's NQN
        and id given; a lost connection gives up."""
        args = self.st.nvme_connect_args('10.9.0.1')
        self.assertEqual(args[0], 'connect')
        opts = dict(zip(args[1::2], args[2::2]))
        self.assertEqual(len(args) % 2, 1)
        self.assertEqual(opts['-t'], 'rdma')
        self.assertEqual(opts['-a'], '10.9.0.1')
        self.assertEqual(opts['-s'], '4420')
        self.assertEqual(opts['-n'], self.st.NQN)
        self.assertTrue(opts['-q'].endswith(':uuid:' + opts['-I']))
        self.assertLessEqual(int(opts['-c']), int(opts['-l']))
        self.assertTrue(all(isinstance(a, str) and a for a in args))

    def test_nvme_controller(self):
        self.assertEqual(self.st.nvme_controller('device: nvme0\n'),
                         'nvme0')
        self.assertEqual(self.st.nvme_controller(
            '{\n  "device" : "nvme12"\n}'), 'nvme12')
        self.assertIsNone(self.st.nvme_controller(
            'could not add new controller: failed to write to '
            'nvme-fabrics device'))
        self.assertIsNone(self.st.nvme_controller('device: nvme0n1x'))
        self.assertIsNone(self.st.nvme_controller(''))
        self.assertIsNone(self.st.nvme_controller(None))

    def test_new_controllers(self):
        nqn = self.st.NQN
        before = {'nvme0': nqn}
        after = {'nvme0': nqn, 'nvme1': 'nqn.other', 'nvme2': nqn + '\n'}
        self.assertEqual(self.st.new_controllers(before, after), ['nvme2'])
        self.assertEqual(self.st.new_controllers(after, after), [])
        self.assertEqual(self.st.new_controllers({}, {}), [])

    def test_nfs_options(self):
        """The kernel takes no host name: addr= is always there."""
        opts = self.st.nfs_options('10.9.0.1').split(',')
        for want in ('vers=4.2', 'proto=rdma', 'port=20049',
                     'addr=10.9.0.1'):
            self.assertIn(want, opts)

    def test_mount_options(self):
        mounts = ('tmpfs /tmp tmpfs rw 0 0\n'
                  '10.9.0.1:/srv/arbel-nfs /mnt/arbel-nfs nfs4 rw,relatime,'
                  'vers=4.2,rsize=131072,proto=rdma,port=20049,sec=sys 0 0\n')
        opts = self.st.mount_options(mounts, '/mnt/arbel-nfs')
        self.assertEqual((opts['vers'], opts['proto'], opts['port']),
                         ('4.2', 'rdma', '20049'))
        self.assertIn('relatime', opts)
        self.assertIsNone(self.st.mount_options(mounts, '/mnt/other'))

    def test_new_lines(self):
        self.assertEqual(self.st.new_lines('a\nb', 'a\nb\nc\nd'), ['c', 'd'])
        # the ring buffer wrapped: everything is new
        self.assertEqual(self.st.new_lines('a\nb', 'x\ny'), ['x', 'y'])
        self.assertEqual(self.st.new_lines('', 'x'), ['x'])

    def test_refused_as_expected(self):
        nvme = ['[ 16.59] infiniband mthca0: Memory registrations not '
                'supported.', '[ 16.60] nvme nvme0: rdma connection '
                'establishment failed (-111)']
        ok, detail = self.st.refusal('nvme', 'mthca0', 1, 'Connection '
                                     'refused (errno 111)', nvme)
        self.assertTrue(ok)
        self.assertIn('Memory registrations not supported', detail)
        nfs = ["[ 21.04] rpcrdma: 'frwr' mode is not supported by device "
               "mthca0"]
        self.assertTrue(self.st.refusal('nfs', 'mthca0', 1, 'mount: '
                                        'Invalid argument', nfs)[0])

    def test_not_refused(self):
        """Success, a hang, a failure without the kernel's reason, the
        reason for another device: none is "refused as expected"."""
        nfs = ["rpcrdma: 'frwr' mode is not supported by device mthca0"]
        self.assertFalse(self.st.refusal('nfs', 'mthca0', 0, '', nfs)[0])
        self.assertFalse(self.st.refusal('nfs', 'mthca0', None,
                                         'timed out', nfs)[0])
        self.assertFalse(self.st.refusal('nfs', 'mthca0', 1, 'mount: '
                                         'No route to host', [])[0])
        self.assertFalse(self.st.refusal('nfs', 'mthca1', 1, 'mount: '
                                         'Invalid argument', nfs)[0])
        self.assertFalse(self.st.refusal(
            'nvme', 'mthca0', 1, 'Connection refused',
            ['nvme nvme0: rdma connection establishment failed'])[0])

    def test_blocked_stacks(self):
        """A step that timed out shows the kernel's blocked tasks: each
        task and its own frames, not the scheduler's every task has."""
        log = ['[ 1.0] nvme nvme0: Removing ctrl',
               '[ 2.0] sysrq: Show Blocked State',
               '[ 2.0] task:kworker/0:1     state:D stack:0     pid:17',
               '[ 2.0] Workqueue: nvme-delete-wq nvme_delete_ctrl_work',
               '[ 2.0] Call Trace:', '[ 2.0]  <TASK>',
               '[ 2.0]  __schedule+0x34d/0x9e0',
               '[ 2.0]  schedule+0x5a/0xd0',
               '[ 2.0]  schedule_timeout+0x118/0x150',
               '[ 2.0]  ? __ib_drain_sq+0x10/0x1c0 [ib_core]',
               '[ 2.0]  __ib_drain_sq+0x14d/0x1c0 [ib_core]',
               '[ 2.0]  ib_drain_qp+0x12/0x30 [ib_core]',
               '[ 2.0]  process_one_work+0x1c7/0x380',
               '[ 2.0]  ret_from_fork+0x22/0x30', '[ 2.0]  </TASK>',
               '[ 2.0] RIP: 0033:0x7fa933315350']
        got = self.st.blocked_stacks(log)
        self.assertEqual([x.split('] ', 1)[1].strip() for x in got],
                         ['task:kworker/0:1     state:D stack:0     pid:17',
                          'Workqueue: nvme-delete-wq nvme_delete_ctrl_work',
                          '__ib_drain_sq+0x14d/0x1c0 [ib_core]',
                          'ib_drain_qp+0x12/0x30 [ib_core]'])
        self.assertEqual(self.st.blocked_stacks(log[:1]), [])
        self.assertEqual(len(self.st.blocked_stacks(log, limit=2)), 2)

    def test_rate(self):
        self.assertEqual(self.st.rate(64 << 20, 2.0),
                         '64 MiB in 2.0 s (32.0 MiB/s)')


if __name__ == '__main__':
    unittest.main()
