#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Have the VM harness unplug or plug the stub, as QEMU's monitor would.

  hotplug.py del BDF [SECS]    device_del; wait until BDF is gone
  hotplug.py add BDF [SECS]    device_add; wait until BDF is bound

The request is a console line that scripts/vm/run.sh (VM_HOTPLUG=1) turns
into device_del or device_add through QEMU's QMP socket; the guest's
kernel then sees an ACPI (or PCIe native) hot-unplug or hot-plug of the
slot.  Exit status 0 once the guest saw it, 1 after SECS (default 60).
"""

import os
import sys
import time

MARK = '@@ARBEL-VM@@'
DEVICES = '/sys/bus/pci/devices'
SLOTS = '/sys/bus/pci/slots'


def slot_of(bdf):
    """The name of the hot-plug slot that holds function bdf, or None."""
    want = bdf.rsplit('.', 1)[0]        # domain:bus:device
    names = os.listdir(SLOTS) if os.path.isdir(SLOTS) else []
    for name in names:
        try:
            with open(os.path.join(SLOTS, name, 'address'),
                      encoding='ascii') as f:
                if f.read().strip() == want:
                    return name
        except OSError:
            continue
    return None


def request(what):
    """Ask the harness for 'del' or 'add' (a line on the console)."""
    with open('/dev/console', 'w', encoding='ascii') as con:
        con.write(f'\n{MARK} hotplug {what}\n')


def seen(what, bdf):
    """Whether the guest sees the request done."""
    path = os.path.join(DEVICES, bdf)
    if what == 'del':
        return not os.path.exists(path)
    return os.path.exists(os.path.join(path, 'driver'))


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in ('del', 'add'):
        sys.exit(__doc__)
    what, bdf = sys.argv[1], sys.argv[2]
    secs = float(sys.argv[3]) if len(sys.argv) == 4 else 60
    request(what)
    t0 = time.monotonic()
    while not seen(what, bdf):
        if time.monotonic() - t0 > secs:
            print(f'hotplug.py: {what} {bdf} not seen after {secs:.0f} s',
                  file=sys.stderr)
            return 1
        time.sleep(0.2)
    return 0


if __name__ == '__main__':
    sys.exit(main())
