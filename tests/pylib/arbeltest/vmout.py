# SPDX-License-Identifier: GPL-2.0
"""What scripts/vm/run.sh leaves in its output directory (VM_OUT), read on
the host by the stages' judges.

run.sh exits with CMD's status, or 124 (timeout), 125 (the harness or the
guest failed: no exit marker), 122 (CMD succeeded, the kernel log has a
splat).  VM_OUT holds output.txt, dmesg.txt, stub-trace.txt (QEMU's -D
log: the stub's trace events and QEMU's -d reports), console.log
(Documentation/vm-harness.rst, "Outputs").
"""

import os
import re

# a kernel splat: the same list as run.sh's splat_re
SPLAT_RE = re.compile(
    r'(^|[] ])(BUG:|WARNING:|Oops|general protection fault|kernel BUG|'
    r'UBSAN:|KASAN:|Call Trace:|INFO: task .* blocked|watchdog: BUG|'
    r'RCU stall|list_(add|del) corruption)')


def read_lines(path):
    """A text file's lines, or None if it cannot be read."""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read().splitlines()
    except OSError:
        return None


def splats(vm_out):
    """The lines of VM_OUT/dmesg.txt that show a kernel splat; None if
    there is no (or an empty) dmesg.txt."""
    lines = read_lines(os.path.join(vm_out, 'dmesg.txt'))
    if not lines:
        return None
    return [x for x in lines if SPLAT_RE.search(x)]
