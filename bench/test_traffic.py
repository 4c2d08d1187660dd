# SPDX-License-Identifier: GPL-2.0
"""traffic.py on hand-made and real perftest output: the result rows of
the bandwidth and latency tests, the VM output's pairs, failed pairs,
medians, ratios and which device is faster."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import traffic  # noqa: E402  pylint: disable=wrong-import-position

# perftest 4.5's client output, as in a run (tabs included)
BW_OUT = '''\
---------------------------------------------------------------------------------------
                    RDMA_Write BW Test
 Dual-port       : OFF\t\tDevice         : mthca0
 CQ Moderation   : 100
 Mtu             : 2048[B]
---------------------------------------------------------------------------------------
 local address: LID 0x02 QPN 0x0045 PSN 0xfbd7ae RKey 0x001f00 VAddr 0x00563528bc1000
 remote address: LID 0x01 QPN 0x0044 PSN 0x308bce RKey 0x001e00 VAddr 0x0055e1574c3000
---------------------------------------------------------------------------------------
 #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
 65536      200              10865.26            3973.60\t\t   0.063578
---------------------------------------------------------------------------------------
'''

LAT_OUT = '''\
---------------------------------------------------------------------------------------
                    RDMA_Write Latency Test
 GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:01
---------------------------------------------------------------------------------------
 #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] 
 64      200          10.77          208.71       11.34    \t       12.50       \t5.20   \t\t59.46   \t\t208.71 
---------------------------------------------------------------------------------------
'''


def pair(dev, test, size, rnd, out, src=0, crc=0, slot=None):
    at = '' if slot is None else f'"slot": "{slot}", '
    return [f'TRAFFIC {{"dev": "{dev}", {at}"test": "{test}", "size": {size}, '
            f'"iters": 200, "round": {rnd}, "turn": 1, "server_rc": {src}, '
            f'"client_rc": {crc}, "secs": 1.50}}',
            'TRAFFIC-OUT-BEGIN', out.rstrip('\n'), 'TRAFFIC-OUT-END']


def bw(value, size=4096):
    return (f' #bytes     #iterations    BW peak[MB/sec]    '
            f'BW average[MB/sec]   MsgRate[Mpps]\n'
            f' {size}      100     {value * 2}     {value}     0.01\n')


def lat(value, size=64):
    return (' #bytes #iterations    t_min[usec]    t_max[usec]  '
            't_typical[usec]    t_avg[usec]    t_stdev[usec]   '
            '99% percentile[usec]   99.9% percentile[usec]\n'
            f' {size}      200    1.0   9.0   {value}   {value}   0.1   '
            '3.0   9.0\n')


class Parse(unittest.TestCase):

    def test_bw_row(self):
        row = traffic.parse_perftest(BW_OUT)
        self.assertEqual(row['kind'], 'bw')
        self.assertEqual(row['bytes'], 65536)
        self.assertEqual(row['iters'], 200)
        self.assertEqual(row['bw_peak'], 10865.26)
        self.assertEqual(row['bw_avg'], 3973.60)
        self.assertEqual(row['msg_rate_mpps'], 0.063578)
        self.assertEqual(row['unit'], 'MB/sec')
        self.assertEqual(traffic.figure(row), (3973.60, 'MB/sec', True))

    def test_lat_row(self):
        row = traffic.parse_perftest(LAT_OUT)
        self.assertEqual(row['kind'], 'lat')
        self.assertEqual(row['bytes'], 64)
        self.assertEqual(row['t_min'], 10.77)
        self.assertEqual(row['t_typical'], 11.34)
        self.assertEqual(row['t_avg'], 12.50)
        self.assertEqual(row['p99_9'], 208.71)
        self.assertEqual(traffic.figure(row), (11.34, 'usec', False))

    def test_gbits_unit(self):
        out = (' #bytes     #iterations    BW peak[Gb/sec]    '
               'BW average[Gb/sec]   MsgRate[Mpps]\n'
               ' 4096       100              2.44               1.18   '
               '\t\t   0.035877\n')
        row = traffic.parse_perftest(out)
        self.assertEqual((row['bw_avg'], row['unit']), (1.18, 'Gb/sec'))

    def test_no_row(self):
        self.assertIsNone(traffic.parse_perftest(''))
        # numbers before the header are not a result
        self.assertIsNone(traffic.parse_perftest(' 64 200 1.0 2.0 3.0\n'))
        self.assertIsNone(traffic.parse_perftest(
            ' #bytes     #iterations    BW peak[MB/sec]    '
            'BW average[MB/sec]   MsgRate[Mpps]\n'
            ' Couldn\'t connect to 127.0.0.1:18601\n'))
        # a row too short to hold the figure
        self.assertIsNone(traffic.parse_perftest(
            ' #bytes     #iterations    BW peak[MB/sec]    '
            'BW average[MB/sec]   MsgRate[Mpps]\n 64 100 3.3\n'))

    def test_inf(self):
        out = ('Correlation coefficient r^2: 0.864813 < 0.9\n' +
               LAT_OUT.replace('11.34', 'inf').replace('5.20', '-nan'))
        row = traffic.parse_perftest(out)
        self.assertEqual(row['t_typical'], float('inf'))
        pairs, _ = traffic.parse_output('\n'.join(
            pair('rxe', 'ib_send_lat', 64, 1, out)))
        self.assertEqual(pairs[0]['error'],
                         'perftest printed no finite figure (Correlation '
                         'coefficient r^2: 0.864813 < 0.9)')
        self.assertEqual(traffic.summarize(pairs)[0]['values']['rxe'], [])

    def test_output(self):
        text = '\n'.join(
            ['# mthca0 port 1: 4: ACTIVE', 'TRAFFIC-NA rxe no IPv4 GID'] +
            pair('mthca', 'ib_write_bw', 65536, 1, BW_OUT) +
            pair('rxe', 'ib_write_lat', 64, 1, LAT_OUT) +
            pair('rxe', 'ib_write_bw', 64, 1, 'Couldn\'t connect', crc=1) +
            pair('mthca', 'ib_send_bw', 64, 1, 'nothing here') +
            ['TRAFFIC {broken', 'TRAFFIC-DONE'])
        pairs, na = traffic.parse_output(text)
        self.assertEqual(na, {'rxe': 'no IPv4 GID'})
        self.assertEqual(len(pairs), 4)
        self.assertEqual(pairs[0]['row']['bw_avg'], 3973.60)
        self.assertIsNone(pairs[0]['error'])
        self.assertEqual(pairs[1]['row']['t_typical'], 11.34)
        self.assertEqual(pairs[2]['error'], 'server exit 0, client exit 1')
        self.assertEqual(pairs[3]['error'],
                         'no result row in the client output')


class Summary(unittest.TestCase):

    def run_of(self, figures):
        """figures: [(dev, test, size, round, value)]"""
        lines = []
        for dev, test, size, rnd, value in figures:
            out = lat(value, size) if test.endswith('_lat') else bw(value,
                                                                    size)
            lines += pair(dev, test, size, rnd, out)
        return traffic.parse_output('\n'.join(lines))[0]

    def test_ratios(self):
        pairs = self.run_of([
            ('mthca', 'ib_write_bw', 4096, 1, 200.0),
            ('rxe', 'ib_write_bw', 4096, 1, 50.0),
            ('rxe', 'ib_write_bw', 4096, 2, 40.0),
            ('mthca', 'ib_write_bw', 4096, 2, 100.0),
            ('mthca', 'ib_write_bw', 4096, 3, 150.0),
            ('rxe', 'ib_write_bw', 4096, 3, 60.0),
            ('mthca', 'ib_write_lat', 64, 1, 2.0),
            ('rxe', 'ib_write_lat', 64, 1, 10.0),
            ('mthca', 'ib_send_lat', 64, 1, 8.0),
            ('rxe', 'ib_send_lat', 64, 1, 4.0),
            ('mthca', 'ib_read_bw', 64, 1, 10.0),
            ('mthca', 'ib_read_bw', 64, 2, 30.0),
            ('rxe', 'ib_read_bw', 64, 1, 20.0),
            ('rxe', 'ib_read_bw', 64, 2, 20.0),
        ])
        g = {(x['test'], x['size']): x for x in traffic.summarize(pairs)}
        w = g[('ib_write_bw', 4096)]
        self.assertEqual(w['stats']['mthca'], (150.0, 100.0, 200.0))
        self.assertEqual(w['stats']['rxe'], (50.0, 40.0, 60.0))
        self.assertEqual(w['ratio'], 3.0)
        self.assertEqual(w['faster'], 'stub')     # bandwidth: higher wins
        self.assertEqual(g[('ib_write_lat', 64)]['ratio'], 0.2)
        self.assertEqual(g[('ib_write_lat', 64)]['faster'], 'stub')
        self.assertEqual(g[('ib_send_lat', 64)]['ratio'], 2.0)
        self.assertEqual(g[('ib_send_lat', 64)]['faster'], 'rxe')
        self.assertEqual(g[('ib_read_bw', 64)]['faster'], '~')
        # in the order they ran
        self.assertEqual([x['test'] for x in traffic.summarize(pairs)],
                         ['ib_write_bw', 'ib_write_lat', 'ib_send_lat',
                          'ib_read_bw'])
        text = traffic.report(pairs, {})
        self.assertIn('150.0 MB/sec ±33%', text)
        self.assertIn('3.00', text)
        self.assertIn('bandwidth stub/rxe: 1.00 .. 3.00', text)
        self.assertIn('latency   stub/rxe: 0.20 .. 2.00', text)

    def test_missing_device(self):
        pairs = self.run_of([('mthca', 'ib_write_bw', 64, 1, 5.0)])
        g = traffic.summarize(pairs)[0]
        self.assertEqual((g['ratio'], g['faster']), (None, '-'))
        text = traffic.report(pairs, {'rxe': 'rdma link add failed'})
        self.assertIn('rxe: n/a (rdma link add failed)', text)
        self.assertIn('n/a', text.splitlines()[-2])

    def test_failed_pair_reported(self):
        lines = pair('rxe', 'ib_read_bw', 64, 1, 'x', src=124, crc=124)
        pairs = traffic.parse_output('\n'.join(lines))[0]
        text = traffic.report(pairs, {})
        self.assertIn('1 pair(s) without a figure: rxe round 1: '
                      'server exit 124, client exit 124', text)

    def test_reg_rows(self):
        def row(us, acc):
            return ('BENCH {"kind": "info", "device": "x"}\n'
                    'BENCH {"kind": "row", "pages": "4K", "size": 4096, '
                    f'"us": {us}, "cmds_reg": 1.000, "cmds_dereg": 1.000, '
                    f'"accesses": {acc}.000, "dmas": 7.000, "irqs": 2.000, '
                    '"mtt_entries": 1}\n')
        lines = (pair('arbel', 'reg_mr', 4096, 1, row([120.0, 90.0], 20)) +
                 pair('mthca', 'reg_mr', 4096, 1, row([100.0], 22)) +
                 pair('arbel', 'reg_mr', 4096, 2, row([110.0], 20)) +
                 pair('mthca', 'reg_mr', 4096, 2, row([80.0, 95.0], 22)) +
                 pair('arbel', 'ib_write_lat', 64, 1, lat(3.0)) +
                 pair('mthca', 'ib_write_lat', 64, 1, lat(2.0)))
        pairs = traffic.parse_output('\n'.join(lines))[0]
        self.assertEqual(traffic.figure(pairs[0]['row']),
                         (90.0, 'usec', False))     # the best repeat
        traffic.PAIR[:] = ['arbel', 'mthca']
        try:
            g = traffic.summarize(pairs)[0]
            text = traffic.report(pairs, {})
        finally:
            traffic.PAIR[:] = ['mthca', 'rxe']
        # medians of the rounds' best: arbel (90, 110) 100, mthca (100,
        # 80) 90; lower is better
        self.assertEqual(g['stats']['arbel'], (100.0, 90.0, 110.0))
        self.assertEqual(g['stats']['mthca'], (90.0, 80.0, 100.0))
        self.assertAlmostEqual(g['ratio'], 100 / 90)
        self.assertEqual(g['faster'], '~')
        self.assertIn('reg+dereg', text)
        self.assertIn("reg_mr 4 KiB on arbel, the stub's work a cycle: "
                      'cmds_reg 1, cmds_dereg 1, accesses 20, dmas 7, '
                      'irqs 2', text)
        self.assertIn('accesses 22', text)
        # the latency summary is perftest's rows only
        self.assertIn('latency   arbel/stub: 1.50 .. 1.50', text)
        self.assertIn('arbel/stub = ratio', text)

    def test_by_slot(self):
        s1, s2 = '0000:00:01.0', '0000:00:02.0'
        lines = (pair('mthca', 'ib_write_lat', 64, 1, lat(2.0), slot=s1) +
                 pair('arbel', 'ib_write_lat', 64, 1, lat(12.0), slot=s2) +
                 pair('arbel', 'ib_write_lat', 64, 2, lat(3.0), slot=s1) +
                 pair('mthca', 'ib_write_lat', 64, 2, lat(11.0), slot=s2) +
                 pair('arbel', 'ib_write_lat', 64, 3, lat(14.0), slot=s2) +
                 pair('mthca', 'ib_write_lat', 64, 3, lat(4.0), slot=s1))
        pairs = traffic.parse_output('\n'.join(lines))[0]
        traffic.PAIR[:] = ['arbel', 'mthca']
        try:
            got = traffic.by_slot(pairs)
        finally:
            traffic.PAIR[:] = ['mthca', 'rxe']
        # arbel: slot 1 (3), slot 2 (12, 14) 13; mthca: slot 1 (2, 4) 3,
        # slot 2 (11)
        self.assertEqual(got, [
            'by PCI slot (median of the rounds on it):',
            f'  ib_write_lat 64 B: arbel {s1} 3, {s2} 13; '
            f'stub (ib_mthca) {s1} 3, {s2} 11'])
        # one slot a device (no swap), or no slot at all: no lines
        one = [p for p in pairs if (p['dev'], p['slot']) in
               (('arbel', s2), ('mthca', s1))]
        self.assertEqual(traffic.by_slot(one), [])
        self.assertEqual(traffic.by_slot(self.run_of(
            [('mthca', 'ib_write_lat', 64, 1, 2.0)])), [])

    def test_reg_row_skipped(self):
        out = ('BENCH {"kind": "row", "pages": "4K", "size": 4096, '
               '"skipped": "ibv_reg_mr: Bad address"}\n')
        pairs = traffic.parse_output('\n'.join(
            pair('arbel', 'reg_mr', 4096, 1, out)))[0]
        self.assertEqual(pairs[0]['error'],
                         'no result row in the client output')

    def test_size_str(self):
        self.assertEqual(traffic.size_str(64), '64 B')
        self.assertEqual(traffic.size_str(4096), '4 KiB')
        self.assertEqual(traffic.size_str(65536), '64 KiB')
        self.assertEqual(traffic.size_str(1 << 20), '1 MiB')
        self.assertEqual(traffic.size_str(1000), '1000 B')


if __name__ == '__main__':
    unittest.main()
