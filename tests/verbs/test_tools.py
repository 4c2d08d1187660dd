# SPDX-License-Identifier: GPL-2.0
"""rdma-core's tools on the device: ibv_devices and ibv_devinfo -v show
the stub's identity (its node-guid and port-guid properties, passed in
the environment as NODE_GUID and PORT_GUID)."""

import os
import re
import subprocess
import unittest


def _run(*cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return p.returncode, p.stdout + p.stderr


def colon_guid(guid):
    """0x0002c90300feed10 -> '0002:c903:00fe:ed10'."""
    h = f'{guid:016x}'
    return ':'.join(h[i:i + 4] for i in range(0, 16, 4))


class Tools(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.node_guid = int(os.environ.get('NODE_GUID', '0x0002c90300feed10'), 0)
        cls.port_guid = int(os.environ.get('PORT_GUID', '0x0002c90300feed11'), 0)
        cls.devices_rc, cls.devices = _run('ibv_devices')
        cls.info_rc, cls.info = _run('ibv_devinfo', '-v')
        for line in (cls.devices + cls.info).splitlines():
            print(f'# {line}')

    def field(self, name):
        """The value of "name:" in ibv_devinfo's output ('' if absent)."""
        for line in self.info.splitlines():
            words = line.split(None, 1)
            if words and words[0] == name + ':':
                return words[1].strip() if len(words) > 1 else ''
        return ''

    def test_ibv_devices(self):
        """ibv_devices lists arbel0 with the node GUID."""
        want = re.compile(rf'^\s*arbel0\s+{self.node_guid:016x}\s*$', re.M)
        self.assertRegex(self.devices, want)

    def test_devinfo_exit(self):
        """ibv_devinfo -v exits 0."""
        self.assertEqual(self.info_rc, 0)

    def test_devinfo_hca_id(self):
        """ibv_devinfo -v: hca_id arbel0."""
        self.assertEqual(self.field('hca_id'), 'arbel0')

    def test_devinfo_fw_ver(self):
        """ibv_devinfo -v: fw_ver 5.3.0."""
        self.assertEqual(self.field('fw_ver'), '5.3.0')

    def test_devinfo_node_guid(self):
        """ibv_devinfo -v: node_guid is the stub property node-guid."""
        self.assertEqual(self.field('node_guid'), colon_guid(self.node_guid))

    def test_devinfo_vendor(self):
        """ibv_devinfo -v: vendor 0x02c9, part 25218 (0x6282)."""
        self.assertEqual((self.field('vendor_id'), self.field('vendor_part_id')),
                         ('0x02c9', '25218'))

    def test_devinfo_ports(self):
        """ibv_devinfo -v: phys_port_cnt 2 (the stub's default ports=2, the
        MT25208's two), a section for port 1 and one for port 2."""
        ports = re.findall(r'^\s+port:\s+(\d+)', self.info, re.M)
        self.assertEqual((self.field('phys_port_cnt'), ports),
                         ('2', ['1', '2']))

    def test_devinfo_port2_gid0(self):
        """ibv_devinfo -v: port 2's GID[0] is fe80:: + port-guid + 1 (the
        stub numbers its ports' GUIDs from the property), not port 1's."""
        part = re.split(r'^\s+port:\s+2\s*$', self.info, flags=re.M)
        m = (re.search(r'^\s*GID\[\s*0\]:\s*([0-9a-f:]+)', part[1], re.M)
             if len(part) == 2 else None)
        want = 'fe80:0000:0000:0000:' + colon_guid(self.port_guid + 1)
        self.assertEqual(m.group(1) if m else None, want)

    def test_devinfo_gid0(self):
        """ibv_devinfo -v: GID[0] is fe80::port-guid (stub property
        port-guid)."""
        m = re.search(r'^\s*GID\[\s*0\]:\s*([0-9a-f:]+)', self.info, re.M)
        want = 'fe80:0000:0000:0000:' + colon_guid(self.port_guid)
        self.assertEqual(m.group(1) if m else None, want)


def _reported(name):
    def test(self):
        v = self.field(name)
        self.assertNotIn(v, ('', '0', '0x0'), f'{name}: empty or zero')
    test.__doc__ = f'ibv_devinfo -v: {name} reported'
    return test


for _f in ('max_mr_size', 'page_size_cap', 'max_mr', 'max_pd'):
    setattr(Tools, f'test_devinfo_{_f}', _reported(_f))

if __name__ == '__main__':
    unittest.main()
