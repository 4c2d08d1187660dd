# SPDX-License-Identifier: GPL-2.0
"""tests/mthca/devinfo_compare.py, the arbel-traffic stage's field-by-field
comparison of `ibv_devinfo -v` on arbel0 and mthca0, on hand-written
output in ibv_devinfo's layout (rdma-core's devinfo.c: tab-indented
"name:<tabs>value", the capability names one a line after
device_cap_flags, a "port:" line before each port's fields)."""

import importlib.util
import os
import unittest

TESTS = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
PATH = os.path.join(TESTS, 'mthca', 'devinfo_compare.py')

here = unittest.skipUnless(os.path.isfile(PATH),
                           'tests/mthca is not beside this copy (in the VM)')

ARBEL = """hca_id:\tarbel0
\ttransport:\t\t\tInfiniBand (0)
\tfw_ver:\t\t\t\t5.3.0
\tboard_id:\t\t\tARBEL-STUB-0001
\tphys_port_cnt:\t\t\t2
\tmax_mr_size:\t\t\t0x1000000000
\tmax_qp:\t\t\t\t65464
\tdevice_cap_flags:\t\t0x00201c66
\t\t\t\t\tBAD_PKEY_CNTR
\t\t\t\t\tCHANGE_PHY_PORT
\t\t\t\t\tRC_RNR_NAK_GEN
\t\t\t\t\tMEM_MGT_EXTENSIONS
\tmax_mr:\t\t\t\t131055
\tmax_pd:\t\t\t\t16777214
\tmax_res_rd_atom:\t\t261856
\tmax_mcast_grp:\t\t\t16
\tmax_total_mcast_qp_attach:\t896
\tmax_srq_wr:\t\t\t65535
\tmax_pkeys:\t\t\t64
\tdevice_cap_flags_ex:\t\t0x201C66
\t\tport:\t1
\t\t\tstate:\t\t\tPORT_ACTIVE (4)
\t\t\tpkey_tbl_len:\t\t64
\t\t\tGID[  0]:\t\tfe80:0000:0000:0000:0002:c903:000b:2c01
\t\tport:\t2
\t\t\tstate:\t\t\tPORT_ACTIVE (4)
"""

MTHCA = """hca_id:\tmthca0
\ttransport:\t\t\tInfiniBand (0)
\tfw_ver:\t\t\t\t5.3.0
\tboard_id:\t\t\tARBEL-STUB-0001
\tphys_port_cnt:\t\t\t2
\tmax_mr_size:\t\t\t0xffffffffffffffff
\tmax_qp:\t\t\t\t65472
\tdevice_cap_flags:\t\t0x00001c66
\t\t\t\t\tBAD_PKEY_CNTR
\t\t\t\t\tCHANGE_PHY_PORT
\t\t\t\t\tRC_RNR_NAK_GEN
\tmax_mr:\t\t\t\t131056
\tmax_pd:\t\t\t\t32767
\tmax_res_rd_atom:\t\t261888
\tmax_mcast_grp:\t\t\t8192
\tmax_total_mcast_qp_attach:\t458752
\tmax_srq_wr:\t\t\t65536
\tmax_pkeys:\t\t\t64
\tdevice_cap_flags_ex:\t\t0x1C66
\t\tport:\t1
\t\t\tstate:\t\t\tPORT_ACTIVE (4)
\t\t\tpkey_tbl_len:\t\t64
\t\t\tGID[  0]:\t\tfe80:0000:0000:0000:0002:c903:000b:2c01
\t\tport:\t2
\t\t\tstate:\t\t\tPORT_ACTIVE (4)
"""


@here
class Compare(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        spec = importlib.util.spec_from_file_location('devinfo_compare', PATH)
        cls.d = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cls.d)

    def test_parse(self):
        f = self.d.parse(MTHCA)
        self.assertEqual(f['hca_id'], 'mthca0')
        self.assertEqual(f['max_mr_size'], '0xffffffffffffffff')
        self.assertEqual(f['port 1 pkey_tbl_len'], '64')
        self.assertEqual(f['port 2 state'], 'PORT_ACTIVE (4)')
        self.assertEqual(f['port 1 GID[  0]'],
                         'fe80:0000:0000:0000:0002:c903:000b:2c01')
        self.assertEqual(f['capabilities'],
                         'BAD_PKEY_CNTR, CHANGE_PHY_PORT, RC_RNR_NAK_GEN')

    def test_the_listed_differences_pass(self):
        problems, notes = self.d.compare(ARBEL, MTHCA)
        self.assertEqual(problems, [])
        # every listed field, each once
        self.assertEqual(len(notes), len(self.d.DIFFERENT))

    def test_an_unlisted_difference_fails(self):
        problems, _ = self.d.compare(ARBEL.replace('5.3.0', '5.3.1'), MTHCA)
        self.assertEqual(problems, ["fw_ver: arbel '5.3.1', mthca '5.3.0'"])

    def test_a_missing_field_fails(self):
        text = ARBEL.replace('\tboard_id:\t\t\tARBEL-STUB-0001\n', '')
        problems, _ = self.d.compare(text, MTHCA)
        self.assertEqual(problems,
                         ["board_id: arbel None, mthca 'ARBEL-STUB-0001'"])

    def test_a_listed_field_must_differ_as_listed(self):
        # max_qp: exactly the 8 special QPs fewer
        problems, _ = self.d.compare(ARBEL.replace('65464', '65472'), MTHCA)
        self.assertEqual(len(problems), 1)
        self.assertTrue(problems[0].startswith('max_qp: '), problems)
        # a capability flag missing (BAD_PKEY_CNTR)
        text = ARBEL.replace('0x00201c66', '0x00201c64')
        problems, _ = self.d.compare(text, MTHCA)
        self.assertTrue(problems[0].startswith('device_cap_flags: '), problems)
        # CHANGE_PHY_PORT missing: arbel claims it as ib_mthca does since
        # 2026-12-07 (tests/verbs/test_port_move.py)
        text = ARBEL.replace('0x00201c66', '0x00201c46')
        problems, _ = self.d.compare(text, MTHCA)
        self.assertTrue(problems[0].startswith('device_cap_flags: '), problems)
        text = ARBEL.replace('\t\t\t\t\tCHANGE_PHY_PORT\n', '', 1)
        problems, _ = self.d.compare(text, MTHCA)
        self.assertTrue(problems[0].startswith('capabilities: '), problems)
        # MEM_MGT_EXTENSIONS not claimed
        text = ARBEL.replace('0x00201c66', '0x00001c66')
        problems, _ = self.d.compare(text, MTHCA)
        self.assertTrue(problems[0].startswith('device_cap_flags: '), problems)

    def test_the_pkey_table_must_be_equal(self):
        # arbel reports QUERY_DEV_LIM's 64, as ib_mthca: no longer a
        # listed difference (the first block of 32 was, before)
        text = ARBEL.replace('\tmax_pkeys:\t\t\t64', '\tmax_pkeys:\t\t\t32')
        problems, _ = self.d.compare(text, MTHCA)
        self.assertEqual(problems, ["max_pkeys: arbel '32', mthca '64'"])

    def test_both_ports_must_be_equal(self):
        # arbel drives both ports, as ib_mthca: no longer a listed
        # difference (port 1 only was, before)
        text = ARBEL.replace('\tphys_port_cnt:\t\t\t2',
                             '\tphys_port_cnt:\t\t\t1')
        text = text[:text.index('\t\tport:\t2')]
        problems, _ = self.d.compare(text, MTHCA)
        self.assertEqual(problems, ["phys_port_cnt: arbel '1', mthca '2'",
                                    "port 2 state: arbel None, mthca "
                                    "'PORT_ACTIVE (4)'"])

    def test_rdma_caps(self):
        text = ('0: arbel0: node_type ca fw 5.3.0 node_guid 0002:c903:000b:'
                '2c00 sys_image_guid 0002:c903:000b:2c00\n    caps: <'
                'BAD_PKEY_CNTR, RC_RNR_NAK_GEN, MEM_MGT_EXTENSIONS>\n')
        self.assertEqual(self.d.rdma_caps(text),
                         {'BAD_PKEY_CNTR', 'RC_RNR_NAK_GEN',
                          'MEM_MGT_EXTENSIONS'})
        self.assertIsNone(self.d.rdma_caps('0: arbel0: node_type ca\n'))

    def test_nothing_parsed_fails(self):
        problems, _ = self.d.compare('', MTHCA)
        self.assertEqual(problems, ['no fields parsed: arbel'])


if __name__ == '__main__':
    unittest.main()
