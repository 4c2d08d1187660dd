# SPDX-License-Identifier: GPL-2.0
"""The conformance judge's own tests, on hand-made guest output and trace
lines (the shapes arbel-stub and arbel-conformance print): every check
passes on its good line and fails on a line that is wrong in one field.
judge.py runs them first.
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'pylib'))
sys.path.insert(0, HERE)

from arbeltest import ktap, trace  # noqa: E402
import judge  # noqa: E402
import trace_checks as tc  # noqa: E402

P = 'in_param=0x0000000000000000 out_param=0x000000003fb9e000 token=0xffff'
FW_OUT = '0030000500000003000000000000000400000000'
# one good line per check of tc.CONFORMANCE, in its order
GOOD = (
    '#55 SW2HW_MPT op=0x00d op_mod=0 in_mod=0x00000011 '
    'in_param=0x000000003fb9f000 out_param=0x0000000000000000 token=0xffff '
    'status=0x00(OK) in[64]=f0000d000000000000005a1100000042',
    '#43 SW2HW_MPT op=0x00d op_mod=0 in_mod=0x00000100 '
    'in_param=0x000000003fb9f000 out_param=0x0000000000000000 token=0xffff '
    'status=0x0a(BAD_INDEX)',
    '#26 SET_ICM_SIZE op=0xffd op_mod=0 in_mod=0x00000000 '
    'in_param=0x0000000000020000 out_param=0x0000000000000000 token=0xffff '
    'status=0x00(OK) out_imm=0x0000000000000001',
    f'#5 QUERY_FW op=0x004 op_mod=0 in_mod=0x00000000 {P} status=0x00(OK) '
    f'out[256]={FW_OUT}',
    '#109 NOP op=0x031 op_mod=0 in_mod=0x00000000 in_param=0x0000000000000000 '
    'out_param=0x0000000000000000 token=0xffff status=0x06(RESOURCE_BUSY) '
    'fault=injected-failure',
    f'#120 QUERY_FW op=0x004 op_mod=0 in_mod=0x00000000 {P} status=0x00(OK) '
    'fault=corrupted-outbox out[256]=0030fffa00000003',
    '#101 MAD_IFC op=0x024 op_mod=0 in_mod=0x00000001 '
    'in_param=0x000000003fb9f000 out_param=0x000000003fb9e000 token=0xffff '
    'status=0x00(OK) in[256]=0101010100000000000012340000567800110000 '
    'out[256]=0101018100000000000012340000567800110000',
    '#1 RESET',
    '#78 XLATE key=0x00331200 access=1 va=0x0000000010000100 len=0x10 dir=0 '
    'buf=0x000000003fb54000 index=0x12 pa=0x000000003fb53100 result=0',
    '#115 NOP op=0x031 op_mod=0 in_mod=0x0000001f in_param=0x0000000000000000 '
    'out_param=0x0000000000000000 token=0x4a21 status=0x00(OK) e=1',
    '#116 EQE eq=0 type=0x0a irq=intx:0',
    '#31 unconfirmed: MAP_ICM [0x20000, +0x1000) beyond ICM size 0x20000',
    '#301 unconfirmed: UNMAP_ICM [0x10000, 4 pages) holds unmapped pages',
    '#302 unconfirmed: UNMAP_ICM_AUX with 2 ICM pages mapped',
    '#400 unconfirmed: QUERY_FW mailbox 0x000000003fb9e010 not 4 KiB aligned',
    '#401 unconfirmed: SW2HW_MPT 0x11: mem_key does not name the slot',
    '#402 unconfirmed: SW2HW_MPT 0x11: reserved bits set',
    '#403 unconfirmed: SW2HW_MPT 0x11: win_cnt not 0',
    '#404 unconfirmed: SW2HW_MPT 0x11: MTT range outside the MTT area',
    '#405 unconfirmed: SW2HW_MPT 0x11: MTT range in the reserved MTTs',
    '#406 unconfirmed: SW2HW_MPT op_mod 1 (sources give 0..0)',
    '#407 unconfirmed: HW2SW_MPT op_mod 2 (sources give 0..1)',
    '#408 unconfirmed: WRITE_MTT 0x8098: an entry without the present bit',
    '#409 unconfirmed: INIT_HCA CQC [0x20000, +0x40) outside ICM size 0x20000',
    '#410 unconfirmed: INIT_HCA QPC [0x11100, +0x200) not aligned to its size',
    '#411 unconfirmed: INIT_HCA EEC at 0x0 and MPT at 0x0 overlap',
    '#412 unconfirmed: INIT_HCA log_mpt_sz 4: reserved MPTs only',
    '#413 unconfirmed: CLOSE_HCA op_mod 2 (sources give 0..1)',
    '#414 unconfirmed: chunk 0x200000000 log2size 21 > 20',
    '#415 unconfirmed: MAD_IFC op_mod 0x8 (sources give bits 2:0)',
    '#416 unconfirmed: INIT_HCA MC hash size 6 (table 2^4): the PRM wants '
    'a power of 2 within the table',
    '#417 unconfirmed: WRITE_MGM 6: next_gid_index 2 outside the AMGM '
    '[8, 2^4)',
    '#2 DOORBELL uar=1 offset=0x010 size=8 value=0x0000000a00000101',
    '#420 unconfirmed: MPT 0x4e written by the CPU: reserved bits set',
)
# (check index, a line wrong in one field)
BAD = (
    (0, GOOD[0].replace('in_mod=0x00000011', 'in_mod=0x00000012')),
    (0, GOOD[0].replace('in[64]', 'in[128]')),
    (0, GOOD[0].replace('token=0xffff', 'token=0xfffe')),
    (0, GOOD[0].replace('status=0x00(OK)', 'status=0x00(OK) e=1')),
    (1, GOOD[1].replace('BAD_INDEX', 'BAD_PARAM')),
    (2, GOOD[2] + ' fault=injected-failure'),
    (2, GOOD[2].replace('out_imm=0x0000000000000001', 'out_imm=0x0000000000000002')),
    (3, GOOD[3].replace('out[256]=0030', 'out[256]=0031')),
    (3, GOOD[3].replace('status=0x00(OK)', 'status=0x00(OK) fault=corrupted-outbox')),
    (4, GOOD[4].replace('RESOURCE_BUSY', 'INTERNAL_ERR')),
    (4, GOOD[4] + ' out[256]=00'),
    (5, GOOD[5].replace('0030fffa', '00300005')),
    (6, GOOD[6].replace('out[256]=01010181', 'out[256]=01010101')),
    (6, GOOD[6].replace('op=0x024', 'op=0x025')),
    (7, '#1 RESET extra=1'),
    (8, GOOD[8].replace('access=1', 'access=2')),
    (8, GOOD[8].replace('result=0', 'result=5')),
    (8, GOOD[8].replace('key=0x00331200', 'key=0x331200')),
    (9, GOOD[9].replace(' e=1', '')),
    (9, GOOD[9].replace('token=0x4a21', 'token=0xffff')),
    (9, GOOD[9].replace('in_mod=0x0000001f', 'in_mod=0x00000000')),
    (10, GOOD[10].replace('intx:0', 'none')),
    (10, GOOD[10].replace('0x0a', '0x0b')),
    (10, GOOD[10].replace('eq=0', 'eq=1')),
    (11, GOOD[11].replace('MAP_ICM', 'UNMAP_ICM')),
    (11, GOOD[11].replace('#31 unconfirmed:', '#31 MAP_ICM op=0xffa')),
    (12, GOOD[12].replace('holds unmapped', 'beyond ICM size')),
    (13, GOOD[13].replace('with 2 ICM', 'with 3 ICM')),
    (14, GOOD[14].replace(' unconfirmed:', ' unconfirmed_:')),
    (15, GOOD[15].replace(' unconfirmed:', ' unconfirmed_:')),
    (16, GOOD[16].replace(' unconfirmed:', ' unconfirmed_:')),
    (17, GOOD[17].replace(' unconfirmed:', ' unconfirmed_:')),
    (18, GOOD[18].replace(' unconfirmed:', ' unconfirmed_:')),
    (19, GOOD[19].replace(' unconfirmed:', ' unconfirmed_:')),
    (20, GOOD[20].replace(' unconfirmed:', ' unconfirmed_:')),
    (21, GOOD[21].replace(' unconfirmed:', ' unconfirmed_:')),
    (22, GOOD[22].replace(' unconfirmed:', ' unconfirmed_:')),
    (23, GOOD[23].replace(' unconfirmed:', ' unconfirmed_:')),
    (24, GOOD[24].replace(' unconfirmed:', ' unconfirmed_:')),
    (25, GOOD[25].replace(' unconfirmed:', ' unconfirmed_:')),
    (26, GOOD[26].replace(' unconfirmed:', ' unconfirmed_:')),
    (27, GOOD[27].replace(' unconfirmed:', ' unconfirmed_:')),
    (28, GOOD[28].replace(' unconfirmed:', ' unconfirmed_:')),
    (14, GOOD[14].replace('not 4 KiB', 'not 8 KiB')),
    (15, GOOD[15].replace('0x11', '0x12')),
    (16, GOOD[16].replace('reserved', 'rsvd')),
    (17, GOOD[17].replace('win_cnt', 'win_cnt0')),
    (18, GOOD[18].replace('outside', 'inside')),
    (19, GOOD[19].replace('reserved MTTs', 'MTTs')),
    (20, GOOD[20].replace('op_mod 1', 'op_mod 0')),
    (21, GOOD[21].replace('HW2SW', 'SW2HW')),
    (22, GOOD[22].replace('without', 'with')),
    (23, GOOD[23].replace('CQC', 'QPC')),
    (24, GOOD[24].replace('QPC', 'CQC')),
    (25, GOOD[25].replace('EEC', 'EEEC ')),
    (26, GOOD[26].replace('log_mpt_sz 4', 'log_mpt_sz 5')),
    (27, GOOD[27].replace('CLOSE_HCA', 'INIT_HCA')),
    (28, GOOD[28].replace('log2size 21', 'log2size 20')),
    (29, GOOD[29].replace(' unconfirmed:', ' unconfirmed_:')),
    (29, GOOD[29].replace('0x8', '0x7')),
    (30, GOOD[30].replace(' unconfirmed:', ' unconfirmed_:')),
    (30, GOOD[30].replace('size 6', 'size 8')),
    (31, GOOD[31].replace('WRITE_MGM 6', 'WRITE_MGM 7')),
    (31, GOOD[31].replace('outside', 'inside')),
    (32, GOOD[32].replace('uar=1', 'uar=0')),
    (32, GOOD[32].replace('offset=0x010', 'offset=0x018')),
    (32, GOOD[32].replace('value=0x0000000a00000101', 'value=0x00000101')),
    (33, GOOD[33].replace(' unconfirmed:', ' unconfirmed_:')),
    (33, GOOD[33].replace('reserved bits', 'win_cnt')),
)

# ib_mthca's first probe and removal on the stub (Debian 6.1's module, the
# mthca stage's run), runs of one command cut to two, as tokens NAME:SS
MTHCA = ('QUERY_FW:00 ENABLE_LAM:22 MAP_FA:00 RUN_FW:00 QUERY_DEV_LIM:00 '
         'SET_ICM_SIZE:00 MAP_ICM_AUX:00 MAP_ICM:00 MAP_ICM:00 INIT_HCA:00 '
         'QUERY_ADAPTER:00 SW2HW_MPT:00 SW2HW_MPT:00 SW2HW_EQ:00 '
         'SW2HW_MPT:00 SW2HW_EQ:00 SW2HW_MPT:00 SW2HW_EQ:00 MAP_EQ:00 '
         'MAP_EQ:00 NOP:00 CONF_SPECIAL_QP:00 CONF_SPECIAL_QP:00 MAD_IFC:00 '
         'MAD_IFC:00 SW2HW_MPT:00 SW2HW_MPT:00 MAP_ICM:00 MAP_ICM:00 '
         'SW2HW_MPT:00 SW2HW_CQ:00 MAP_ICM:00 SW2HW_MPT:00 SW2HW_MPT:00 '
         'MAD_IFC:00 RST2INIT_QPEE:00 INIT2RTR_QPEE:00 INIT_IB:00 MAD_IFC:00 '
         'RTR2RTS_QPEE:00 RST2INIT_QPEE:00 INIT2RTR_QPEE:00 RTR2RTS_QPEE:00 '
         'SW2HW_MPT:00 SW2HW_MPT:00 SW2HW_CQ:00 SW2HW_MPT:00 SW2HW_MPT:00 '
         'MAD_IFC:00 RST2INIT_QPEE:00 INIT2RTR_QPEE:00 INIT_IB:00 MAD_IFC:00 '
         'RTR2RTS_QPEE:00 RST2INIT_QPEE:00 INIT2RTR_QPEE:00 RTR2RTS_QPEE:00 '
         'MAD_IFC:00 MAD_IFC:00 SW2HW_MPT:00 SW2HW_MPT:00 HW2SW_MPT:00 '
         'HW2SW_MPT:00 ERR2RST_QPEE:00 HW2SW_MPT:00 ERR2RST_QPEE:00 '
         'HW2SW_MPT:00 HW2SW_CQ:00 HW2SW_MPT:00 HW2SW_MPT:00 ERR2RST_QPEE:00 '
         'HW2SW_MPT:00 ERR2RST_QPEE:00 HW2SW_MPT:00 UNMAP_ICM:00 HW2SW_CQ:00 '
         'HW2SW_MPT:00 UNMAP_ICM:00 UNMAP_ICM:00 HW2SW_MPT:00 HW2SW_MPT:00 '
         'CLOSE_IB:00 CLOSE_IB:00 CONF_SPECIAL_QP:00 CONF_SPECIAL_QP:00 '
         'MAP_EQ:00 MAP_EQ:00 HW2SW_EQ:00 HW2SW_MPT:00 HW2SW_EQ:00 '
         'HW2SW_MPT:00 HW2SW_EQ:00 HW2SW_MPT:00 HW2SW_MPT:00 CLOSE_HCA:00 '
         'UNMAP_ICM:00 UNMAP_ICM:00 UNMAP_ICM_AUX:00 UNMAP_FA:00')

# ib_mthca's NOP interrupt test as the stub traces it
NOP_EV = ('#40 NOP op=0x031 op_mod=0 in_mod=0x0000001f '
          'in_param=0x0000000000000000 out_param=0x0000000000000000 '
          'token=0x0010 status=0x00(OK) e=1')
EQE_MSIX = '#41 EQE eq=3 type=0x0a irq=msix:2'
EQE_INTX = '#41 EQE eq=3 type=0x0a irq=intx:0'


def entries(lines):
    return [trace.parse_line(ln) for ln in lines]


def mthca_entries(tokens):
    """Trace entries of commands given as NAME:SS tokens."""
    out = []
    for i, tok in enumerate(tokens.split()):
        name, st = tok.split(':')
        out.append(trace.parse_line(
            f'#{i + 1} {name} op=0x001 op_mod=0 in_mod=0x00000000 {P} '
            f'status=0x{st}(X)'))
    return out


def failed(checks):
    return [name for name, ok, _ in checks if not ok]


class ConformanceTrace(unittest.TestCase):
    def test_good_lines_pass(self):
        self.assertEqual(failed(tc.conformance_trace(entries(GOOD))), [])

    def test_each_check_needs_its_line(self):
        for i, (name, _, _) in enumerate(tc.CONFORMANCE):
            with self.subTest(check=name):
                rest = GOOD[:i] + GOOD[i + 1:]
                self.assertEqual(failed(tc.conformance_trace(entries(rest))),
                                 [f'trace: {name}'])

    def test_a_wrong_field_fails(self):
        for n, (i, line) in enumerate(BAD):
            name = tc.CONFORMANCE[i][0]
            with self.subTest(check=name, case=n):
                self.assertFalse(tc.CONFORMANCE[i][2](trace.parse_line(line)),
                                 line)


class MthcaSequence(unittest.TestCase):
    def test_good_sequence_passes(self):
        self.assertEqual(failed(tc.mthca_sequence(mthca_entries(MTHCA))), [])

    def test_wrong_sequences_fail(self):
        cases = {
            'no ENABLE_LAM': (MTHCA.replace('ENABLE_LAM:22 ', ''),
                              'bring-up'),
            'CONF_SPECIAL_QP refused': (
                MTHCA.replace('CONF_SPECIAL_QP:00', 'CONF_SPECIAL_QP:02'),
                'every other'),
            'no INIT_IB': (MTHCA.replace('INIT_IB:00 ', ''), 'INIT_HCA'),
            'QPs never reset': (MTHCA.replace('ERR2RST_QPEE:00 ', ''),
                                'INIT_HCA'),
            'SW2HW_EQ refused': (MTHCA.replace('SW2HW_EQ:00', 'SW2HW_EQ:02'),
                                 'INIT_HCA'),
            'no NOP test': (MTHCA.replace('NOP:00 ', ''), 'INIT_HCA'),
            'two EQs only': (MTHCA.replace('SW2HW_EQ:00 ', '', 1),
                             'INIT_HCA'),
            'UNMAP_FA first': (MTHCA.replace('UNMAP_ICM_AUX:00 UNMAP_FA:00',
                                             'UNMAP_FA:00 UNMAP_ICM_AUX:00'),
                               'teardown'),
            'a refused MAP_ICM': (MTHCA.replace('MAP_ICM:00 INIT', 'MAP_ICM:05 INIT'),
                                  'every other'),
            'nothing after CLOSE_HCA': (MTHCA.split(' CLOSE_HCA:00')[0] +
                                        ' CLOSE_HCA:00', 'teardown'),
        }
        for what, (tokens, check) in cases.items():
            with self.subTest(what):
                bad = failed(tc.mthca_sequence(mthca_entries(tokens)))
                self.assertTrue(any(check in name for name in bad), bad)


class MthcaPortEvents(unittest.TestCase):
    INIT_IB = ('#51 INIT_IB op=0x009 op_mod=0 in_mod=0x00000001 '
               'in_param=0x0000000012345000 out_param=0x0000000000000000 '
               'status=0x00(OK)')
    EQE_PORT = '#50 EQE eq=1 type=0x09 irq=msix:1'

    def test_event_before_init_ib(self):
        self.assertEqual(failed(tc.mthca_port_events(
            entries([self.EQE_PORT, self.INIT_IB]))), [])

    def test_missing_or_wrong_event_fails(self):
        for lines in ([self.INIT_IB], [self.INIT_IB, self.EQE_PORT],
                      [self.EQE_PORT.replace('0x09', '0x0a'), self.INIT_IB],
                      [self.EQE_PORT]):
            with self.subTest(lines=lines):
                self.assertTrue(failed(tc.mthca_port_events(entries(lines))))


class MthcaSends(unittest.TestCase):
    SEND = '#60 SEND qp=0x42 wqes=1 cqes=1'
    CQE = '#59 CQE cq=0x80 index=0 qp=0x42 opcode=0x0a'
    EQE_COMP = '#61 EQE eq=1 type=0x00 irq=msix:1'

    def test_completed_sends_pass(self):
        self.assertEqual(failed(tc.mthca_sends(
            entries([self.CQE, self.SEND, self.EQE_COMP]))), [])

    def test_the_sa_answer_in_the_same_doorbell_passes(self):
        """The SA's answer arrives while the query's doorbell runs: its
        receive CQE is counted in the same SEND line."""
        self.assertEqual(failed(tc.mthca_sends(entries(
            [self.CQE, self.SEND.replace('cqes=1', 'cqes=2'),
             self.EQE_COMP]))), [])

    def test_wqe_lines_are_not_commands(self):
        """A WQE line has op= but no token: not a refused command."""
        wqe = ('#62 WQE qp=0x42 index=0 op=0x0a len=256 dlid=0x1 dqp=0x1 '
               'syndrome=0x00')
        self.assertFalse(entries([wqe])[0].is_command)

    def test_missing_completion_fails(self):
        for lines in ([self.CQE, self.EQE_COMP],
                      [self.SEND.replace('cqes=1', 'cqes=0'), self.EQE_COMP],
                      [self.CQE, self.SEND],
                      [self.SEND, self.EQE_COMP.replace('0x00', '0x0a')]):
            with self.subTest(lines=lines):
                self.assertTrue(failed(tc.mthca_sends(entries(lines))))


class MthcaInterrupt(unittest.TestCase):
    def test_delivery_matches(self):
        for how, eqe in (('msix', EQE_MSIX), ('intx', EQE_INTX)):
            with self.subTest(how):
                self.assertEqual(failed(tc.mthca_interrupt(
                    entries([NOP_EV, eqe]), how)), [])

    def test_wrong_or_missing_delivery_fails(self):
        cases = {
            'intx wanted, msix seen': ([NOP_EV, EQE_MSIX], 'intx'),
            'msix wanted, intx seen': ([NOP_EV, EQE_INTX], 'msix'),
            'no interrupt': ([NOP_EV, EQE_MSIX.replace('msix:2', 'none')],
                             'msix'),
            'no EQE': ([NOP_EV], 'msix'),
            'polled NOP': ([NOP_EV.replace(' e=1', ''), EQE_MSIX], 'msix'),
            'another event type': ([NOP_EV, EQE_MSIX.replace('0x0a', '0x09')],
                                   'msix'),
        }
        for what, (lines, how) in cases.items():
            with self.subTest(what):
                self.assertTrue(failed(tc.mthca_interrupt(entries(lines), how)))


if __name__ == '__main__':
    unittest.main()
