# SPDX-License-Identifier: GPL-2.0
"""arbeltest.trace: arbel-stub's trace events, read back from QEMU's log.

The lines below are written by hand as QEMU's log backend prints the
events of qemu/trace-events: "arbel_cmd #N NAME op=0x%03x op_mod=%u
in_mod=0x%08x in_param=0x%016x out_param=0x%016x token=0x%04x
status=0x%02x(NAME)", then events of the same N: "arbel_cmd_event #N e=1",
"arbel_cmd_out_imm #N out_imm=0x%016x" (status OK only), "arbel_cmd_fault
#N fault=NOTE", "arbel_cmd_inbox #N in[LEN]=HEX", "arbel_cmd_outbox #N
out[LEN]=HEX" (hex cut after the last non-zero dword); "arbel_xlate #N
XLATE key=0x%08x access=%u va=0x%016x len=0x%x dir=%u buf=0x%016x
index=0x%x pa=0x%016x result=%u"; "arbel_reset #N RESET" and other notes.
Every expected value is read off those lines by hand.
"""

import os
import tempfile
import unittest

from arbeltest import trace

RESET = [
    'arbel_reset #1 RESET',
]
QUERY_FW = [
    ('arbel_cmd #2 QUERY_FW op=0x004 op_mod=0 in_mod=0x00000000 '
     'in_param=0x0000000000000000 out_param=0x000000003f7fe000 '
     'token=0x0000 status=0x00(OK)'),
    'arbel_cmd_outbox #2 out[256]=000500010000000000000a2c',
]
ENABLE_LAM = [
    ('arbel_cmd #3 ENABLE_LAM op=0xff8 op_mod=0 in_mod=0x00000000 '
     'in_param=0x0000000000000000 out_param=0x000000003f7fe000 '
     'token=0x0000 status=0x22(LAM_NOT_PRE)'),
]
SET_ICM_SIZE = [
    ('arbel_cmd #4 SET_ICM_SIZE op=0xffd op_mod=0 in_mod=0x00000000 '
     'in_param=0x0000000001200000 out_param=0x0000000000000000 '
     'token=0x0000 status=0x00(OK)'),
    'arbel_cmd_out_imm #4 out_imm=0x0000000000000021',
]
SW2HW_MPT = [
    ('arbel_cmd #5 SW2HW_MPT op=0x00d op_mod=0 in_mod=0x00000004 '
     'in_param=0x000000003f7fd000 out_param=0x0000000000000000 '
     'token=0x0003 status=0x00(OK)'),
    ('arbel_cmd_inbox #5 '
     'in[64]=00131400000000040000000000004000000000000000100000000000000'
     '00004'),
]
HW2SW_FAIL = [
    ('arbel_cmd #6 HW2SW_MPT op=0x00e op_mod=1 in_mod=0x00000004 '
     'in_param=0x0000000000000000 out_param=0x000000003f7fe000 '
     'token=0x0004 status=0x09(BAD_RES_STATE)'),
    'arbel_cmd_fault #6 fault=injected-failure',
]
NOP_EVENT = [
    ('arbel_cmd #7 NOP op=0x031 op_mod=0 in_mod=0x00000000 '
     'in_param=0x0000000000000000 out_param=0x0000000000000000 '
     'token=0xbeef status=0x03(BAD_PARAM)'),
    'arbel_cmd_event #7 e=1',
]
QUERY_MPT_CORRUPT = [
    ('arbel_cmd #8 QUERY_MPT op=0x00f op_mod=0 in_mod=0x00000004 '
     'in_param=0x0000000000000000 out_param=0x000000003f7fe000 '
     'token=0x0005 status=0x00(OK)'),
    'arbel_cmd_fault #8 fault=corrupted-outbox',
    'arbel_cmd_outbox #8 out[64]=ffecebff',
]
MARK_2 = [
    ('arbel_xlate #9 XLATE key=0x4d4b0002 access=1 '
     'va=0x0000000000000000 len=0x0 dir=0 buf=0x0000000000000000 '
     'index=0x0 pa=0x0000000000000000 result=2'),
]
XLATE_OK = [
    ('arbel_xlate #10 XLATE key=0x00000456 access=2 '
     'va=0x00007f1234567000 len=0x1000 dir=1 buf=0x0000000012345000 '
     'index=0x4 pa=0x000000002a3b4000 result=0'),
]
UNKNOWN_OP = [
    ('arbel_cmd #11 UNKNOWN op=0x123 op_mod=7 in_mod=0xffffffff '
     'in_param=0xffffffffffffffff out_param=0x0000000000000001 '
     'token=0xffff status=0x02(BAD_OP)'),
]
UNNAMED_STATUS = [
    ('arbel_cmd #12 WRITE_MTT op=0x011 op_mod=0 in_mod=0x00000001 '
     'in_param=0x000000003f7fd000 out_param=0x0000000000000000 '
     'token=0x0006 status=0x07(?)'),
    'arbel_cmd_fault #12 fault=injected-failure',
    ('arbel_cmd_inbox #12 '
     'in[4096]=0000000000000000000000000000000000000000abcd0001'),
]
MARK_3 = [
    ('arbel_xlate #13 XLATE key=0x4d4b0003 access=1 '
     'va=0x0000000000000000 len=0x0 dir=0 buf=0x0000000000000000 '
     'index=0x0 pa=0x0000000000000000 result=2'),
]
CLOSE_HCA = [
    ('arbel_cmd #14 CLOSE_HCA op=0x008 op_mod=0 in_mod=0x00000000 '
     'in_param=0x0000000000000000 out_param=0x0000000000000000 '
     'token=0x0007 status=0x00(OK)'),
]

ALL = [RESET, QUERY_FW, ENABLE_LAM, SET_ICM_SIZE, SW2HW_MPT, HW2SW_FAIL,
       NOP_EVENT, QUERY_MPT_CORRUPT, MARK_2, XLATE_OK, UNKNOWN_OP,
       UNNAMED_STATUS, MARK_3, CLOSE_HCA]


def entry(lines):
    """The one event of @lines (log lines)."""
    got = trace.parse_lines(lines)
    assert len(got) == 1, (lines, got)
    return got[0]


def fields_of(e, names):
    """{name: e.name} for the properties named."""
    return {n: getattr(e, n) for n in names}


class CommandLineTest(unittest.TestCase):
    """The fields of one command line."""

    def test_query_fw(self):
        e = entry([line + '\n' for line in QUERY_FW])
        want = {'seq': 2, 'name': 'QUERY_FW', 'opcode': 0x004, 'op_mod': 0,
                'in_mod': 0, 'in_param': 0, 'out_param': 0x3f7fe000,
                'token': 0, 'status': 0, 'status_name': 'OK'}
        self.assertEqual(fields_of(e, want), want)
        self.assertIsNone(e.fault)
        self.assertIsNone(e.out_imm)
        self.assertIs(e.event_mode, False)
        self.assertIs(e.is_command, True)
        self.assertIs(e.is_xlate, False)
        self.assertIsNone(e.inbox())
        self.assertIsNone(e.mark)
        # the command's text, then its outbox's, without the newlines
        self.assertEqual(e.raw, '#2 QUERY_FW op=0x004 op_mod=0 '
                         'in_mod=0x00000000 in_param=0x0000000000000000 '
                         'out_param=0x000000003f7fe000 token=0x0000 '
                         'status=0x00(OK) out[256]=000500010000000000000a2c')

    def test_outbox_padded_to_its_length(self):
        out = entry(QUERY_FW).outbox()
        self.assertEqual(len(out), 256)
        self.assertEqual(out[:12], bytes([0x00, 0x05, 0x00, 0x01,
                                          0x00, 0x00, 0x00, 0x00,
                                          0x00, 0x00, 0x0a, 0x2c]))
        self.assertEqual(out[12:], bytes(244))

    def test_inbox_padded_to_its_length(self):
        box = entry(SW2HW_MPT).inbox()
        self.assertEqual(len(box), 64)
        self.assertEqual(box[0:4], b'\x00\x13\x14\x00')
        self.assertEqual(box[4:8], b'\x00\x00\x00\x04')
        self.assertEqual(box[12:16], b'\x00\x00\x40\x00')
        self.assertEqual(box[28:32], b'\x00\x00\x00\x04')
        self.assertEqual(box[32:], bytes(32))
        self.assertIsNone(entry(SW2HW_MPT).outbox())

    def test_big_inbox(self):
        box = entry(UNNAMED_STATUS).inbox()
        self.assertEqual(len(box), 4096)
        self.assertEqual(box[20:24], b'\xab\xcd\x00\x01')
        self.assertEqual(box[:20] + box[24:], bytes(4092))

    def test_error_status(self):
        e = entry(ENABLE_LAM)
        self.assertEqual((e.status, e.status_name), (0x22, 'LAM_NOT_PRE'))
        self.assertEqual(e.opcode, 0xff8)
        self.assertIsNone(e.outbox())

    def test_status_the_stub_does_not_name(self):
        # an injected status outside the table prints as "?"
        e = entry(UNNAMED_STATUS)
        self.assertEqual((e.status, e.status_name), (0x07, '?'))
        self.assertEqual(e.fault, 'injected-failure')

    def test_out_imm(self):
        e = entry(SET_ICM_SIZE)
        self.assertEqual(e.out_imm, 0x21)
        self.assertEqual(e.in_param, 0x1200000)
        self.assertEqual(e.opcode, 0xffd)

    def test_injected_failure(self):
        e = entry(HW2SW_FAIL)
        self.assertEqual(e.fault, 'injected-failure')
        self.assertEqual((e.status, e.status_name), (0x09, 'BAD_RES_STATE'))
        self.assertEqual((e.op_mod, e.in_mod, e.token), (1, 4, 4))
        self.assertIsNone(e.out_imm)

    def test_event_mode(self):
        e = entry(NOP_EVENT)
        self.assertIs(e.event_mode, True)
        self.assertEqual(e.token, 0xbeef)
        self.assertEqual((e.status, e.status_name), (3, 'BAD_PARAM'))

    def test_corrupted_outbox(self):
        e = entry(QUERY_MPT_CORRUPT)
        self.assertEqual(e.fault, 'corrupted-outbox')
        self.assertEqual(e.outbox(), b'\xff\xec\xeb\xff' + bytes(60))

    def test_unknown_opcode_all_ones(self):
        e = entry(UNKNOWN_OP)
        want = {'seq': 11, 'name': 'UNKNOWN', 'opcode': 0x123, 'op_mod': 7,
                'in_mod': 0xffffffff, 'in_param': 0xffffffffffffffff,
                'out_param': 1, 'token': 0xffff, 'status': 2,
                'status_name': 'BAD_OP', 'is_command': True}
        self.assertEqual(fields_of(e, want), want)


class OtherLineTest(unittest.TestCase):
    """XLATE lines, marks and notes."""

    def test_xlate(self):
        e = entry(XLATE_OK)
        self.assertEqual(e.seq, 10)
        self.assertIs(e.is_xlate, True)
        self.assertIs(e.is_command, False)
        self.assertEqual(e.key, 0x456)
        self.assertEqual(e.result, 0)
        self.assertIsNone(e.mark)
        self.assertIsNone(e.opcode)
        self.assertIsNone(e.status)
        self.assertIsNone(e.status_name)
        self.assertEqual(e.fields['va'], '0x00007f1234567000')
        self.assertEqual(e.fields['pa'], '0x000000002a3b4000')
        self.assertEqual(e.fields['len'], '0x1000')
        self.assertEqual(e.fields['index'], '0x4')

    def test_mark(self):
        e = entry(MARK_2)
        self.assertIs(e.is_xlate, True)
        self.assertEqual(e.key, 0x4d4b0002)
        self.assertEqual(e.mark, 2)
        self.assertEqual(e.result, 2)

    def test_mark_limits(self):
        low = [MARK_2[0].replace('0x4d4b0002', '0x4d4b0000')]
        high = [MARK_2[0].replace('0x4d4b0002', '0x4d4bffff')]
        near = [MARK_2[0].replace('0x4d4b0002', '0x4d4c0002')]
        self.assertEqual(entry(low).mark, 0)
        self.assertEqual(entry(high).mark, 0xffff)
        self.assertIsNone(entry(near).mark)

    def test_mark_key_only_on_xlate_lines(self):
        # a command's fields never make it a mark
        self.assertIsNone(entry(QUERY_FW + ['arbel_cmd_fault #2 key=0x4d4b0001']).mark)

    def test_note(self):
        e = entry(RESET)
        self.assertEqual((e.seq, e.name), (1, 'RESET'))
        self.assertEqual(e.fields, {})
        self.assertIs(e.is_command, False)
        self.assertIs(e.is_xlate, False)
        for value in (e.opcode, e.op_mod, e.in_mod, e.in_param, e.out_param,
                      e.token, e.status, e.status_name, e.fault, e.out_imm,
                      e.key, e.result, e.mark, e.inbox(), e.outbox()):
            self.assertIsNone(value)
        self.assertIs(e.event_mode, False)

    def test_not_events(self):
        for line in ('', '\n', 'RESET', '# 3 RESET', '#x RESET', '#3',
                     ' #3 RESET', 'qemu-system-x86_64: warning: x',
                     'arbel_reset RESET', 'arbel_reset #3', 'arbel_reset'):
            with self.subTest(line=line):
                self.assertIsNone(trace.parse_line(line))
                self.assertEqual(trace.parse_lines([line]), [])

    def test_event_text_alone(self):
        # parse_line() takes an event's text with or without its prefix
        self.assertEqual(trace.parse_line('#1 RESET').raw, '#1 RESET')
        self.assertEqual(trace.parse_line(RESET[0]).raw, '#1 RESET')

    def test_timestamp_prefix(self):
        # -msg timestamp=on: "PID@SEC.USEC:" before the event's name
        e = entry(['4242@1733300000.000123:' + line for line in SW2HW_MPT])
        self.assertEqual((e.seq, e.name, e.opcode), (5, 'SW2HW_MPT', 0xd))
        self.assertEqual(len(e.inbox()), 64)

    def test_only_arbel_events(self):
        # the -d categories share QEMU's log; a line naming no arbel_
        # event, or another device's, is not the stub's
        lines = ['arbel-stub: BAR0 write of size 2 at 0x80680 ignored',
                 'pci_cfg_read #1 RESET', 'xarbel_reset #2 RESET',
                 '#3 RESET', 'arbel_reset #4 RESET']
        self.assertEqual([e.seq for e in trace.parse_lines(lines)], [4])

    def test_details_of_another_number(self):
        # a detail joins only the command just before it, of its number
        got = trace.parse_lines(CLOSE_HCA + ['arbel_cmd_event #15 e=1'])
        self.assertEqual(len(got), 2)
        self.assertIs(got[0].event_mode, False)
        self.assertIs(got[1].is_command, False)
        got = trace.parse_lines(RESET + ['arbel_cmd_event #1 e=1'])
        self.assertEqual(len(got), 2)

    def test_unconfirmed(self):
        e = entry(['arbel_unconfirmed #3 unconfirmed: arm of EQ 5 '
                   'not in hardware'])
        self.assertEqual((e.seq, e.name), (3, 'unconfirmed:'))
        self.assertIs(e.is_command, False)
        self.assertEqual(e.raw, '#3 unconfirmed: arm of EQ 5 not in hardware')

    def test_plugged_again(self):
        # device_add after device_del: numbers start at 1 again, the
        # file's order stays the order of events
        lines = QUERY_FW + RESET + ['arbel_reset #1 RESET'] + NOP_EVENT
        got = trace.parse_lines(lines)
        self.assertEqual([(e.seq, e.name) for e in got],
                         [(2, 'QUERY_FW'), (1, 'RESET'), (1, 'RESET'),
                          (7, 'NOP')])
        self.assertIs(got[3].event_mode, True)


class FileTest(unittest.TestCase):
    """parse(path) and the helpers over a whole trace."""

    def setUp(self):
        fd, self.path = tempfile.mkstemp(suffix='.trace')
        with os.fdopen(fd, 'w') as f:
            f.write('qemu: not an event\n')
            for lines in ALL:
                for line in lines:
                    f.write(line + '\n')
                f.write('arbel-stub: a guest error between events\n')
            f.write('\n')
        self.entries = trace.parse(self.path)

    def tearDown(self):
        os.unlink(self.path)

    def test_parse(self):
        self.assertEqual([e.seq for e in self.entries], list(range(1, 15)))
        self.assertEqual([e.raw for e in self.entries],
                         [' '.join(line.split(' ', 1)[1] if i == 0 else
                                   line.split(' ', 2)[2]
                                   for i, line in enumerate(lines))
                          for lines in ALL])

    def test_other_lines(self):
        self.assertEqual(trace.other_lines(self.path),
                         ['qemu: not an event'] +
                         ['arbel-stub: a guest error between events'] * 14 +
                         [''])

    def test_commands(self):
        self.assertEqual([e.seq for e in trace.commands(self.entries)],
                         [2, 3, 4, 5, 6, 7, 8, 11, 12, 14])

    def test_op_status_list(self):
        self.assertEqual(trace.op_status_list(self.entries), [
            ('QUERY_FW', 0x00),
            ('ENABLE_LAM', 0x22),
            ('SET_ICM_SIZE', 0x00),
            ('SW2HW_MPT', 0x00),
            ('HW2SW_MPT', 0x09),
            ('NOP', 0x03),
            ('QUERY_MPT', 0x00),
            ('UNKNOWN', 0x02),
            ('WRITE_MTT', 0x07),
            ('CLOSE_HCA', 0x00),
        ])

    def test_split_marks(self):
        parts = trace.split_marks(self.entries)
        self.assertEqual(sorted(parts, key=str), [2, 3, None])
        self.assertEqual([e.seq for e in parts[None]], [1, 2, 3, 4, 5, 6, 7, 8])
        self.assertEqual([e.seq for e in parts[2]], [10, 11, 12])
        self.assertEqual([e.seq for e in parts[3]], [14])

    def test_split_without_marks(self):
        plain = [e for e in self.entries if e.mark is None]
        parts = trace.split_marks(plain)
        self.assertEqual(list(parts), [None])
        self.assertEqual(len(parts[None]), 12)

    def test_empty_file(self):
        with open(self.path, 'w'):
            pass
        self.assertEqual(trace.parse(self.path), [])
        self.assertEqual(trace.split_marks([]), {None: []})


if __name__ == '__main__':
    unittest.main()
