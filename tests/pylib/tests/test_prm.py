# SPDX-License-Identifier: GPL-2.0
"""arbeltest.prm and arbeltest.restrack against hand-made images.

Every expected value below was worked out by hand from the PRM's struct
text (tests/data/arbelprm_mpt_st.txt: fields least significant bit first
in each big-endian dword), never produced by the code under test:

image 1:
  dw0  f0005d00  status 0xf, reserved1 0; 0x5d = 0101_1101 in bits 15:8:
                 r_w 1, pa 0, lr 1, lw 1, rr 1, rw 0, a 1, eb 0; reserved0 0
  dw1  00000009  page_size 9, reserved2 0, type 0, qpn 0
  dw2  00012345  mem_key 0x12345
  dw3  00000007  pd 7, reserved3/ei/zb/fre/rae/reserved4 0
  dw4-5          start 0x00007f12_34567000
  dw6-7          length 0x200000
  dw11 00000001  mtt_adr_h 1 (address bits 37:32), reserved6 0
  dw12 00402008  reserved7 0, mtt_adr_l 0x80401 (address bits 31:3):
                 MTT address 0x1_00402008
  dw13 00000001  mtt_sz 1
image 2:
  dw0  0000ff00  every flag of bits 15:8 set, status 0, reserved 0
  dw1  abcdef93  qpn 0xabcdef; 0x93 = 1001_0011: type 1, reserved2 0,
                 page_size 0b10011 = 19
  dw2  01234567  mem_key
  dw3  06fedcba  pd 0xfedcba; 0x06 = 0000_0110: reserved3 0, ei 1, zb 1,
                 fre 0, rae 0, reserved4 0
  dw4-5          start 0xffffffff_fffff001
  dw6-7          length 0x1_00000001
  dw11 0000003f  mtt_adr_h 0x3f
  dw12 fffffffd  reserved7 5, mtt_adr_l 0x1fffffff: MTT address 0x3f_fffffff8
  dw13 00000200  mtt_sz 0x200
"""

import json
import subprocess
import unittest
from unittest import mock

from arbeltest import prm, restrack

IMG1 = bytes([
    0xf0, 0x00, 0x5d, 0x00, 0x00, 0x00, 0x00, 0x09,
    0x00, 0x01, 0x23, 0x45, 0x00, 0x00, 0x00, 0x07,
    0x00, 0x00, 0x7f, 0x12, 0x34, 0x56, 0x70, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x40, 0x20, 0x08,
    0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0])

IMG2 = bytes([
    0x00, 0x00, 0xff, 0x00, 0xab, 0xcd, 0xef, 0x93,
    0x01, 0x23, 0x45, 0x67, 0x06, 0xfe, 0xdc, 0xba,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0, 0x01,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x00, 0x00, 0x00, 0x3f, 0xff, 0xff, 0xff, 0xfd,
    0x00, 0x00, 0x02, 0x00, 0, 0, 0, 0, 0, 0, 0, 0])

# what `rdma -j -r res show mr` prints (image 1 as decimal bytes, and an
# entry of another device that must be ignored)
RAW_JSON = (
    '[{"ifindex":0,"ifname":"arbel0","data":[240,0,93,0,0,0,0,9,0,1,35,69,'
    '0,0,0,7,0,0,127,18,52,86,112,0,0,0,0,0,0,32,0,0,0,0,0,0,0,0,0,0,0,0,0,'
    '0,0,0,0,1,0,64,32,8,0,0,0,1,0,0,0,0,0,0,0,0]},'
    '{"ifindex":1,"ifname":"other0","data":[1]}]\n')
# what `rdma -dd -j res show mr` prints: keys as hex strings with and
# without 0x, nested objects, escapes, driver attributes
MR_JSON = (
    '[{"ifindex":0,"ifname":"arbel0","mrn":3,"rkey":"12345","lkey":"0x12345",'
    '"mrlen":4096,"pid":77,"comm":"t\\"q","pdn":1,"drv":{"x":true,"y":null},'
    '"neg":-1.5e3,"drv_mpt_index":291,"mtt_addr":"0x1000"}]')

FLAGS = ('r_w', 'pa', 'lr', 'lw', 'rr', 'rw', 'a', 'eb')


class Decode(unittest.TestCase):

    def test_image1_dword0_flags(self):
        f = prm.decode(IMG1)
        self.assertEqual([f[n] for n in FLAGS], [1, 0, 1, 1, 1, 0, 1, 0])
        self.assertEqual((f['status'], f['reserved0'], f['reserved1']),
                         (0xf, 0, 0))

    def test_image1_fields(self):
        f = prm.decode(IMG1)
        self.assertEqual(
            (f['page_size'], f['reserved2'], f['type'], f['qpn'],
             f['mem_key'], f['pd'], prm.start_address(f), prm.length(f),
             prm.mtt_address(f), f['mtt_sz'], f['lkey'], f['win_cnt']),
            (9, 0, 0, 0, 0x12345, 7, 0x7f1234567000, 0x200000,
             0x100402008, 1, 0, 0))
        self.assertEqual(prm.reserved_nonzero(f), [])

    def test_image2_every_dword0_flag(self):
        f = prm.decode(IMG2)
        self.assertEqual([f[n] for n in FLAGS], [1] * 8)
        self.assertEqual((f['status'], f['reserved0'], f['reserved1']),
                         (0, 0, 0))

    def test_image2_fields(self):
        f = prm.decode(IMG2)
        self.assertEqual(
            (f['page_size'], f['reserved2'], f['type'], f['qpn'],
             f['mem_key'], f['pd'], f['reserved3'], f['ei'], f['zb'],
             f['fre'], f['rae'], f['reserved4'], prm.start_address(f),
             prm.length(f), prm.mtt_address(f), f['reserved7'], f['mtt_sz']),
            (19, 0, 1, 0xabcdef, 0x01234567, 0xfedcba, 0, 1, 1, 0, 0, 0,
             0xfffffffffffff001, 0x100000001, 0x3ffffffff8, 5, 0x200))
        self.assertEqual(prm.reserved_nonzero(f), ['reserved7'])

    def test_field_positions(self):
        """Bit positions read off the struct text by hand."""
        want = {'r_w': (0, 8, 1), 'status': (0, 28, 4), 'page_size': (1, 0, 5),
                'qpn': (1, 8, 24), 'pd': (3, 0, 24), 'zb': (3, 26, 1),
                'mtt_adr_h': (11, 0, 6), 'reserved7': (12, 0, 3),
                'mtt_adr_l': (12, 3, 29), 'mtt_sz': (13, 0, 32)}
        got = {f.name: (f.dword, f.shift, f.width) for f in prm.layout()}
        self.assertEqual({n: got[n] for n in want}, want)

    def test_encode_hand_fields(self):
        """encode() of image 1's fields, written by hand, is image 1."""
        self.assertEqual(prm.encode({
            'status': 0xf, 'r_w': 1, 'lr': 1, 'lw': 1, 'rr': 1, 'a': 1,
            'page_size': 9, 'mem_key': 0x12345, 'pd': 7,
            'start_address_h': 0x7f12, 'start_address_l': 0x34567000,
            'reg_wnd_len_l': 0x200000, 'mtt_adr_h': 1, 'mtt_adr_l': 0x80401,
            'mtt_sz': 1}), IMG1)

    def test_wrong_size(self):
        with self.assertRaises(ValueError):
            prm.decode(IMG1[:63])


class RestrackJson(unittest.TestCase):

    def test_raw_json_of_rdma_r(self):
        """`rdma -j -r` JSON: arbel0's one entry, other devices ignored."""
        raw = restrack.parse_raw_mpts(json.loads(RAW_JSON), 'arbel0')
        self.assertEqual(raw, [IMG1])

    def test_summary_json(self):
        """`rdma -j res show`: the counts of one device, ifindex left out."""
        js = json.loads('[{"ifindex":1,"ifname":"rxe0","pd":9},'
                        '{"ifindex":3,"ifname":"arbel0","pd":3,"cq":0,'
                        '"qp":0,"cm_id":0,"mr":2,"ctx":1,"srq":0}]')
        self.assertEqual(restrack.parse_summary(js, 'arbel0'),
                         {'pd': 3, 'cq': 0, 'qp': 0, 'cm_id': 0, 'mr': 2,
                          'ctx': 1, 'srq': 0})
        self.assertEqual(restrack.parse_summary(js, 'other0'), {})

    def test_kernel_owned_json(self):
        """`rdma -j res show qp`: the MAD layer's QP0/QP1 (no "pid") count
        as kernel-owned, a process's QP and another device's do not."""
        js = json.loads(
            '[{"ifindex":3,"ifname":"arbel0","port":1,"lqpn":0,"type":"SMI",'
            '"state":"RTS","comm":"ib_core"},'
            '{"ifindex":3,"ifname":"arbel0","port":1,"lqpn":1,"type":"GSI",'
            '"state":"RTS","comm":"ib_core"},'
            '{"ifindex":3,"ifname":"arbel0","lqpn":1025,"type":"RC",'
            '"state":"RESET","pid":812,"comm":"rc_pingpong"},'
            '{"ifindex":1,"ifname":"rxe0","port":1,"lqpn":1,"type":"GSI",'
            '"state":"RTS","comm":"ib_core"}]')
        owned = restrack.parse_kernel_owned(js, 'arbel0')
        self.assertEqual([e['lqpn'] for e in owned], [0, 1])
        self.assertEqual(restrack.parse_kernel_owned(js, 'other0'), [])

    def test_raw_entry_without_64_bytes(self):
        with self.assertRaises(restrack.RdmaError):
            restrack.parse_raw_mpts(json.loads(RAW_JSON), 'other0')

    def test_mr_json_keys_and_escapes(self):
        """`rdma -dd -j` JSON: hex keys with and without 0x, escapes,
        nested objects, driver attributes with and without drv_."""
        e = json.loads(MR_JSON)[0]
        self.assertEqual(
            (restrack.number(e['lkey'], True), restrack.number(e['rkey'], True),
             restrack.number(e['mrlen']), e['comm'],
             restrack.number(restrack.driver_attr(e, 'mpt_index')),
             restrack.number(restrack.driver_attr(e, 'mtt_addr'), True),
             restrack.driver_attr(e, 'page_shift')),
            (0x12345, 0x12345, 4096, 't"q', 291, 0x1000, None))
        self.assertIsNone(restrack.number(e['drv']))
        self.assertIsNone(restrack.number('zz', True))

    def _rdma(self, stdout, rc=0):
        done = subprocess.CompletedProcess(['rdma'], rc, stdout, 'err')
        return mock.patch.object(restrack.subprocess, 'run', return_value=done)

    def test_json_syntax_errors_refused(self):
        for text in ('[{"a":1,}', '[1 2]'):
            with self.subTest(text=text), self._rdma(text), \
                    self.assertRaises(restrack.RdmaError):
                restrack.raw_mpts('arbel0')

    def test_rdma_failure_refused(self):
        with self._rdma('', rc=1), self.assertRaises(restrack.RdmaError):
            restrack.mrs('arbel0')

    def test_raw_mpts_through_rdma(self):
        with self._rdma(RAW_JSON) as run:
            self.assertEqual(restrack.raw_mpts('arbel0'), [IMG1])
        self.assertEqual(run.call_args[0][0], ['rdma', '-j', '-r', 'res',
                                               'show', 'mr'])


if __name__ == '__main__':
    unittest.main()
