# SPDX-License-Identifier: GPL-2.0
"""The mthca-traffic stage's host-side Python: its case table and verdicts
(tests/mthca/traffic_cases.py), the trace report (tests/stub/
trace_notes.py) and judge.py --stage mthca-traffic, on hand-made guest
output and trace lines."""

import argparse
import importlib.util
import io
import os
import sys
import tempfile
import unittest

TESTS = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
MTHCA = os.path.join(TESTS, 'mthca')
STUB = os.path.join(TESTS, 'stub')

from arbeltest import ktap, trace  # noqa: E402


def load(path):
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


here = unittest.skipUnless(
    os.path.isfile(os.path.join(MTHCA, 'traffic_cases.py')) and
    os.path.isfile(os.path.join(STUB, 'judge.py')),
    'tests/mthca and tests/stub are not beside this copy (in the VM)')

PP_OUT = ('  local address:  LID 0x0001, QPN 0x000045, PSN 0x3a1b2c\n'
          '  remote address: LID 0x0002, QPN 0x000044, PSN 0x1b2c3d\n'
          '6400 bytes in 0.01 seconds = 51.20 Mbit/sec\n'
          '50 iters in 0.01 seconds = 200.00 usec/iter\n')


@here
class Cases(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tc = load(os.path.join(MTHCA, 'traffic_cases.py'))

    def test_every_client_once(self):
        names = [c.name for c in self.tc.cases()]
        self.assertEqual(len(names), 4 * 2 + 8 + 3)
        self.assertEqual(len(set(names)), len(names))
        for kind in ('rc', 'uc', 'ud', 'srq'):
            self.assertIn(f'ibv_{kind}_pingpong loopback on port 1', names)
            self.assertIn(f'ibv_{kind}_pingpong port 1 to port 2', names)
        for prog in ('ib_write_bw', 'ib_read_bw', 'ib_send_bw',
                     'ib_atomic_bw', 'ib_write_lat', 'ib_read_lat',
                     'ib_send_lat', 'ib_atomic_lat'):
            self.assertIn(f'{prog} port 1 to port 2', names)
        for prog in ('ibv_rc_pingpong', 'ibv_ud_pingpong', 'ib_write_bw'):
            self.assertIn(f'{prog} device to device over the cable', names)

    def test_each_pair_on_its_own_tcp_port(self):
        cases = self.tc.cases()
        ports = [c.tcp_port for c in cases]
        self.assertEqual(len(set(ports)), len(ports))
        for c in cases:
            for argv in (c.server, c.client):
                self.assertEqual(argv[argv.index('-p') + 1], str(c.tcp_port))
                cable = 'cable' in c.name and argv is c.client
                self.assertEqual(argv[argv.index('-d') + 1],
                                 'mthca1' if cable else 'mthca0')
            self.assertEqual(c.client[-1], '127.0.0.1')
            self.assertNotIn('127.0.0.1', c.server)
            self.assertEqual(c.server[0], c.client[0])

    def test_ib_ports(self):
        for c in self.tc.cases():
            s = c.server[c.server.index('-i') + 1]
            cl = c.client[c.client.index('-i') + 1]
            self.assertEqual(s, '1', c)
            self.assertEqual(cl, '2' if 'port 2' in c.name else '1', c)

    def test_pingpongs_validate_small_runs(self):
        for c in self.tc.cases():
            if c.group != 'pingpong':
                continue
            for argv in (c.server, c.client):
                self.assertIn('-c', argv)
                self.assertEqual(argv[argv.index('-n') + 1], '50')
                self.assertEqual(argv[argv.index('-s') + 1], '64')

    def test_perftest_flags(self):
        for c in self.tc.cases():
            if c.group != 'perftest':
                continue
            self.assertEqual(c.client[c.client.index('-n') + 1], '100')
            self.assertIn('--use_old_post_send', c.client)
            self.assertEqual('--report_gbits' in c.client,
                             c.name.startswith(('ib_write_bw', 'ib_read_bw',
                                                'ib_send_bw', 'ib_atomic_bw')))
            self.assertEqual('-s' in c.client, 'atomic' not in c.name)

    def test_selected(self):
        sel = self.tc.selected
        self.assertTrue(sel('ibv_rc_pingpong loopback on port 1', 'pingpong',
                            ''))
        self.assertTrue(sel('ibv_rc_pingpong port 1 to port 2', 'pingpong',
                            'ibv_rc'))
        self.assertFalse(sel('ibv_uc_pingpong port 1 to port 2', 'pingpong',
                             'ibv_rc,perftest'))
        self.assertTrue(sel('ib_write_bw port 1 to port 2', 'perftest',
                            'ibv_rc,perftest'))
        self.assertTrue(sel('test_atomic', 'rdma-core', 'rdma-core'))
        self.assertFalse(sel('test_atomic', 'rdma-core', 'test_mr'))

    def pingpong(self):
        return next(c for c in self.tc.cases() if c.group == 'pingpong')

    def perftest(self):
        return next(c for c in self.tc.cases() if c.group == 'perftest')

    def test_pingpong_passes(self):
        r = self.tc.Result(0, PP_OUT, 0, PP_OUT, secs=1.5)
        self.assertEqual(self.tc.verdict(self.pingpong(), r, 20), (True, ''))

    def test_pingpong_needs_both_lines(self):
        for drop in ('bytes in', 'iters in'):
            out = ''.join(x for x in PP_OUT.splitlines(True) if drop not in x)
            ok, detail = self.tc.verdict(self.pingpong(),
                                         self.tc.Result(0, PP_OUT, 0, out), 20)
            self.assertFalse(ok)
            self.assertIn(f'no "N {drop.split()[0]} in S seconds" line',
                          detail)

    def test_exit_statuses(self):
        for s, c, want in ((1, 0, 'server exit 1'), (0, 2, 'client exit 2'),
                           (-9, -9, 'server exit -9 (killed)')):
            ok, detail = self.tc.verdict(
                self.perftest(), self.tc.Result(s, 'x', c, 'y'), 20)
            self.assertFalse(ok)
            self.assertIn(want, detail)

    def test_timeout(self):
        r = self.tc.Result(-9, '', -9, '', timed_out=True, secs=20.1)
        ok, detail = self.tc.verdict(self.pingpong(), r, 20)
        self.assertFalse(ok)
        self.assertIn('timed out after 20 s, killed', detail)
        self.assertIn('(20.1 s)', detail)
        self.assertIn('(no output)', detail)

    def test_client_never_started(self):
        r = self.tc.Result(1, "Couldn't create CQ\n", None, None,
                           note='the server ended before the client started')
        ok, detail = self.tc.verdict(self.pingpong(), r, 20)
        self.assertFalse(ok)
        self.assertNotIn('client did not exit', detail)
        self.assertIn('server exit 1', detail)
        self.assertIn('never started', detail)
        self.assertIn("Couldn't create CQ", detail)

    def test_process_that_lingers(self):
        ok, detail = self.tc.verdict(self.perftest(),
                                     self.tc.Result(0, '', None, ''), 20)
        self.assertFalse(ok)
        self.assertIn('client did not exit', detail)

    def test_perftest_exit_0_passes(self):
        r = self.tc.Result(0, '', 0, '')
        self.assertEqual(self.tc.verdict(self.perftest(), r, 20), (True, ''))

    def test_listening(self):
        head = ('  sl  local_address rem_address   st tx_queue rx_queue tr '
                'tm->when retrnsmt   uid  timeout inode\n')
        listen = ('   0: 00000000:4853 00000000:0000 0A 00000000:00000000 '
                  '00:00000000 00000000     0        0 1234 1\n')
        est = ('   1: 0100007F:4853 0100007F:9C40 01 00000000:00000000 '
               '00:00000000 00000000     0        0 1235 1\n')
        self.assertTrue(self.tc.listening(18515, head + listen))
        self.assertFalse(self.tc.listening(18516, head + listen))
        self.assertFalse(self.tc.listening(18515, head + est))
        six = ('   0: 00000000000000000000000000000000:4853 '
               '00000000000000000000000000000000:0000 0A 0 0 0 0 0\n')
        self.assertTrue(self.tc.listening(18515, head + six))
        self.assertFalse(self.tc.listening(18515, listen))    # no header

    def test_distinct_lids(self):
        self.assertTrue(self.tc.distinct_lids(['0x1', '0x2']))
        self.assertFalse(self.tc.distinct_lids(['0x1', '0x1']))
        self.assertFalse(self.tc.distinct_lids(['0x0', '0x2']))
        self.assertFalse(self.tc.distinct_lids(['0x1', '']))

    def test_port_ready(self):
        self.assertTrue(self.tc.port_ready('4: ACTIVE', '0x2'))
        self.assertFalse(self.tc.port_ready('4: ACTIVE', '0x0'))
        self.assertFalse(self.tc.port_ready('2: INIT', '0x1'))
        self.assertFalse(self.tc.port_ready('', ''))


CMD = ('in_param=0x0000000000000000 out_param=0x0000000000000000 '
       'token=0x0fe0')
TRACE = [
    '1@1.000001:arbel_reset #1 RESET',
    f'1@1.1:arbel_cmd #2 ENABLE_LAM op=0xff8 op_mod=0 in_mod=0x00000000 {CMD} '
    'status=0x02(BAD_OP)',
    f'1@1.2:arbel_cmd #553 SW2HW_CQ op=0x016 op_mod=0 in_mod=0x00020082 {CMD} '
    'status=0x0a(BAD_INDEX)',
    '1@1.21:arbel_cmd_event #553 e=1',
    f'1@1.3:arbel_cmd #573 SW2HW_CQ op=0x016 op_mod=0 in_mod=0x00030082 {CMD} '
    'status=0x0a(BAD_INDEX)',
    '1@1.4:arbel_doorbell #515 DOORBELL uar=4 offset=0x010 size=8 '
    'value=0x0100000a00004502',
    '1@1.5:arbel_send_not_executed #516 SEND-NOT-EXECUTED qp=0x45 st=0 '
    '(no peer)',
    '1@1.6:arbel_unconfirmed #517 unconfirmed: send doorbell for QP 0x45 '
    'in state 3: dropped',
    '1@1.7:arbel_unconfirmed #518 unconfirmed: send doorbell for QP 0x47 '
    'in state 3: dropped',
    '1@1.8:arbel_unconfirmed #519 unconfirmed: 32-bit doorbell store: not '
    'executed',
    '1@1.9:arbel_xlate #520 XLATE key=0x00331200 access=1 '
    'va=0x0000000010000100 len=0x10 dir=0 buf=0x000000003fb54000 '
    'index=0x12 pa=0x000000003fb53100 result=0',
]


@here
class Notes(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tn = load(os.path.join(STUB, 'trace_notes.py'))
        cls.entries = trace.parse_lines(TRACE)

    def test_shape(self):
        self.assertEqual(self.tn.shape('QP 0x45 in state 3: dropped'),
                         'QP N in state N: dropped')

    def test_unconfirmed_grouped_by_shape(self):
        got = self.tn.unconfirmed(self.entries)
        self.assertEqual(
            got, [('send doorbell for QP N in state N: dropped', 2,
                   'send doorbell for QP 0x45 in state 3: dropped'),
                  ('N-bit doorbell store: not executed', 1,
                   '32-bit doorbell store: not executed')])

    def test_refused_but_enable_lam(self):
        got = self.tn.refused(self.entries)
        self.assertEqual(len(got), 1)
        key, n, first = got[0]
        self.assertEqual((key, n), ('SW2HW_CQ status=0x0a(BAD_INDEX)', 2))
        self.assertIn('in_mod=0x00020082', first)
        self.assertIn('e=1', first)

    def test_events(self):
        got = [(k, n) for k, n, _ in self.tn.events(self.entries)]
        self.assertEqual(got, [('RESET', 1), ('DOORBELL', 1),
                               ('SEND-NOT-EXECUTED', 1)])

    def test_report(self):
        lines = self.tn.report(self.entries, ['guest error: x', ''])
        text = '\n'.join(lines)
        self.assertIn('stub trace: 3 unconfirmed notes in 2 kinds', text)
        self.assertIn('  2 x unconfirmed: send doorbell for QP 0x45', text)
        self.assertIn('stub trace: 2 commands refused', text)
        self.assertIn('1 x SEND-NOT-EXECUTED', text)
        self.assertIn('  #516 SEND-NOT-EXECUTED qp=0x45', text)
        self.assertIn('QEMU -d reports: 1 lines\n  guest error: x', text)

    def test_empty_trace(self):
        self.assertEqual(self.tn.report([]), [
            'stub trace: 0 unconfirmed notes in 0 kinds',
            'stub trace: 0 commands refused (ENABLE_LAM aside)',
            'stub trace: other events: none', 'QEMU -d reports: 0 lines'])


GUEST = '''KTAP version 1
ok 1 load: modprobe ib_uverbs
ok 2 load: insmod ib_mthca.ko, mthca0 registered
# port 1: 4: ACTIVE lid 0x1, port 2: 4: ACTIVE lid 0x2
ok 3 ports: 2 ports ACTIVE with a non-zero LID
# ibv_rc_pingpong loopback on port 1: timed out after 20 s, killed
not ok 4 ibv_rc_pingpong loopback on port 1
ok 5 test_atomic.AtomicTest.test_xrc_atomic_cmp_and_swap # SKIP XRC is not supported
1..5
# passed 3, failed 1, skipped 1
'''


@here
class Judge(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, STUB)
        cls.judge = load(os.path.join(STUB, 'judge.py'))

    def judged(self, rc='1', output=GUEST, trace_lines=TRACE, **kw):
        with tempfile.TemporaryDirectory() as d:
            run = os.path.join(d, 'traffic')
            os.makedirs(run)
            if rc is not None:
                with open(os.path.join(run, 'rc'), 'w') as f:
                    f.write(rc + '\n')
            if output is not None:
                with open(os.path.join(run, 'output.txt'), 'w') as f:
                    f.write(output)
            if trace_lines is not None:
                with open(os.path.join(run, 'stub-trace.txt'), 'w') as f:
                    f.write('\n'.join(trace_lines) + '\n')
            args = argparse.Namespace(out=d, setup_error=[], mthca_skip=None)
            for key, value in kw.items():
                setattr(args, key, value)
            out = io.StringIO()
            status = self.judge.judge_traffic(ktap.Ktap(out=out), args)
        text = out.getvalue()
        return status, text, ktap.parse(text.splitlines())

    def test_each_client_one_result(self):
        status, text, s = self.judged()
        self.assertEqual(status, 1)
        # VM run, 4 guest results (one a failure), one skip, ran to the end
        self.assertEqual((s.passed, s.failed, s.skipped), (5, 1, 1))
        self.assertEqual(s.failures, ['ibv_rc_pingpong loopback on port 1'])
        self.assertIn('XRC is not supported', text)
        self.assertIn('# stub trace: 3 unconfirmed notes in 2 kinds', text)
        self.assertIn('#   #516 SEND-NOT-EXECUTED', text)

    def test_all_passed(self):
        good = GUEST.replace('not ok 4', 'ok 4')
        status, _, s = self.judged(rc='0', output=good)
        self.assertEqual((status, s.failed), (0, 0))

    def test_status_must_match_the_guest(self):
        good = GUEST.replace('not ok 4', 'ok 4')
        _, _, s = self.judged(rc='1', output=good)
        self.assertEqual(s.failures, ['VM run: finished, no kernel splat'])

    def test_vm_timeout_and_a_cut_output(self):
        cut = '\n'.join(GUEST.splitlines()[:5]) + '\n'
        _, _, s = self.judged(rc='124', output=cut)
        self.assertEqual(s.failures, ['VM run: finished, no kernel splat',
                                      'traffic_guest.py ran to the end'])

    def test_no_run(self):
        status, _, s = self.judged(rc=None, output=None, trace_lines=None)
        self.assertEqual(status, 1)
        self.assertIn('VM run: finished, no kernel splat', s.failures)

    def test_setup_error(self):
        _, text, s = self.judged(setup_error=['make failed'])
        self.assertEqual((s.passed, s.failed), (0, 1))
        self.assertNotIn('stub trace', text)

    def test_no_ib_mthca(self):
        status, _, s = self.judged(mthca_skip='no ib_mthca.ko')
        self.assertEqual((status, s.skipped, s.failed), (0, 1, 0))


if __name__ == '__main__':
    unittest.main()


SERVER = '''
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', int(sys.argv[1])))
s.listen(1)
c, _ = s.accept()
c.recv(16)
print('6400 bytes in 0.01 seconds = 51.20 Mbit/sec')
'''
CLIENT = '''
import socket, sys
c = socket.create_connection(('127.0.0.1', int(sys.argv[1])))
c.send(b'hello')
print('6400 bytes in 0.01 seconds = 51.20 Mbit/sec')
print('50 iters in 0.01 seconds = 200.00 usec/iter')
'''


@here
class Pairs(unittest.TestCase):
    """traffic_guest.py's pair runner on stand-in programs that meet over
    TCP on 127.0.0.1 as the clients do."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, MTHCA)
        cls.tg = load(os.path.join(MTHCA, 'traffic_guest.py'))
        cls.tc = cls.tg.tc

    def case(self, server, client):
        import socket  # pylint: disable=import-outside-toplevel
        with socket.socket() as s:       # a free port
            s.bind(('127.0.0.1', 0))
            port = s.getsockname()[1]
        return self.tc.Case('pingpong', 'stand-in',
                            [sys.executable, '-c', server, str(port)],
                            [sys.executable, '-c', client, str(port)], port)

    def test_a_pair_that_meets(self):
        case = self.case(SERVER, CLIENT)
        res = self.tg.run_pair(case, 20)
        self.assertEqual((res.server_rc, res.client_rc, res.timed_out),
                         (0, 0, False), res.server_out + res.client_out)
        self.assertEqual(self.tc.verdict(case, res, 20), (True, ''))

    def test_a_pair_that_hangs_is_killed(self):
        hang = CLIENT + 'import time\ntime.sleep(60)\n'
        case = self.case(SERVER + 'import time\ntime.sleep(60)\n', hang)
        res = self.tg.run_pair(case, 2)
        self.assertTrue(res.timed_out)
        self.assertEqual((res.server_rc, res.client_rc), (-9, -9))
        self.assertLess(res.secs, 10)
        ok, detail = self.tc.verdict(case, res, 2)
        self.assertFalse(ok)
        self.assertIn('timed out after 2 s, killed', detail)

    def test_a_server_that_fails_at_once(self):
        case = self.case('import sys\nprint("Couldn\'t create CQ")\n'
                         'sys.exit(1)\n', CLIENT)
        res = self.tg.run_pair(case, 5)
        self.assertIsNone(res.client_out)
        ok, detail = self.tc.verdict(case, res, 5)
        self.assertFalse(ok)
        self.assertIn('the server ended before the client started; '
                      'server exit 1', detail)
        self.assertIn("Couldn't create CQ", detail)

    def test_a_server_that_never_listens(self):
        case = self.case('import time\ntime.sleep(60)\n', CLIENT)
        res = self.tg.run_pair(case, 1)
        ok, detail = self.tc.verdict(case, res, 1)
        self.assertFalse(ok)
        self.assertIn('the server never listened on TCP port', detail)
        self.assertIn('timed out after 1 s', detail)
