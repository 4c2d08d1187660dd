# SPDX-License-Identifier: GPL-2.0
"""ibv_devinfo -v on ib_mthca over arbel-stub: mthca0 shows the stub's
identity (its node-guid and port-guid properties, from the environment as
NODE_GUID and PORT_GUID, and PORTS), the limits its QUERY_DEV_LIM reports
(Documentation/arbel-stub.rst, "Firmware outputs": log max WQEs per QP 16,
log max CQEs 17, log P_Keys 6, log min page 12) and, per port, what its
MAD_IFC PortInfo answers (active, 4x, MTU 2048, VL0-7) and GUIDInfo (the
port GUID + port - 1)."""

import os
import re
import unittest

from test_tools import colon_guid, _run


class MthcaDevinfo(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.node_guid = int(os.environ.get('NODE_GUID', '0'), 0)
        cls.port_guid = int(os.environ.get('PORT_GUID', '0'), 0)
        cls.ports = int(os.environ.get('PORTS', '2'))
        cls.devices_rc, cls.devices = _run('ibv_devices')
        cls.info_rc, cls.info = _run('ibv_devinfo', '-v', '-d', 'mthca0')
        for line in (cls.devices + cls.info).splitlines():
            print(f'# {line}')
        # the device part and one part per port
        parts = re.split(r'^\s+port:\s+', cls.info, flags=re.M)
        cls.dev_part = parts[0]
        cls.port_parts = parts[1:]

    @staticmethod
    def field(text, name):
        """The value of "name:" in a part of ibv_devinfo's output."""
        m = re.search(rf'^\s*{re.escape(name)}:\s*(.*?)\s*$', text, re.M)
        return m.group(1) if m else ''

    def test_ibv_devices(self):
        """ibv_devices lists mthca0 with the node GUID."""
        self.assertRegex(self.devices,
                         rf'(?m)^\s*mthca0\s+{self.node_guid:016x}\s*$')

    def test_device(self):
        """mthca0: firmware 5.3.0, node GUID, vendor 0x02c9, part 25218,
        the stub's port count and limits."""
        want = {'hca_id': 'mthca0', 'fw_ver': '5.3.0',
                'node_guid': colon_guid(self.node_guid),
                'vendor_id': '0x02c9', 'vendor_part_id': '25218',
                'phys_port_cnt': str(self.ports),
                'max_qp_wr': str(1 << 16), 'max_cqe': str((1 << 17) - 1),
                'max_pkeys': str(1 << 6), 'page_size_cap': '0xfffff000'}
        self.assertEqual(self.info_rc, 0, self.info)
        got = {n: self.field(self.dev_part, n) for n in want}
        self.assertEqual(got, want)

    def test_ports(self):
        """Each port: active, link up, 4X, MTU 2048, VL0-7, LID n (the stub's
        subnet manager numbers port n from its lid property, 1), GID[0]
        fe80::port GUID (+ port - 1)."""
        self.assertEqual(len(self.port_parts), self.ports, self.info)
        for i, part in enumerate(self.port_parts, start=1):
            with self.subTest(port=i):
                want = {'state': 'PORT_ACTIVE (4)', 'max_mtu': '2048 (4)',
                        'active_mtu': '2048 (4)', 'port_lid': str(i),
                        'max_vl_num': '8 (4)', 'active_width': '4X (2)',
                        'phys_state': 'LINK_UP (5)'}
                got = {n: self.field(part, n) for n in want}
                self.assertEqual(got, want)
                m = re.search(r'GID\[\s*0\]:\s*([0-9a-f:]+)', part)
                gid = 'fe80:0000:0000:0000:' + colon_guid(self.port_guid +
                                                           i - 1)
                self.assertEqual(m.group(1) if m else None, gid)


if __name__ == '__main__':
    unittest.main()
