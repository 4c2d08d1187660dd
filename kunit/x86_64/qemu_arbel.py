# SPDX-License-Identifier: GPL-2.0
#
# kunit.py --qemu_config for the x86_64 command-flow suites: q35 (the only
# machine the arbel QEMU has), TCG (KVM hangs on these hosts), and the
# emulated Arbel HCA.  kunit.py runs "qemu-system-x86_64" from PATH:
# scripts/kunit-x86.sh puts the QEMU built by scripts/build-qemu.sh first.
# ARBEL_STUB_TRACE, if set, is the stub's command trace file.
import os

from ..qemu_config import QemuArchParams

_stub = 'arbel-stub'
if os.environ.get('ARBEL_STUB_TRACE'):
	_stub += ',trace=' + os.environ['ARBEL_STUB_TRACE']

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-machine', 'q35',
					      '-accel', 'tcg',
					      '-L', '/usr/share/seabios',
					      '-L', '/usr/share/qemu',
					      '-device', _stub])
