# SPDX-License-Identifier: GPL-2.0
"""What the bringup stage's guest program and its host judge agree on.

The guest program (bringup_guest.py) puts "stubctl mark N" lines into
arbel-stub's command trace before each step; the judge (bringup_judge.py)
cuts the trace at them and checks each step's commands.  The mark numbers
and the fault matrix are therefore defined here, once, for both.
"""

import collections

PHASES = ('basic', 'faults')

# phase basic
MARK_LOAD = 1           # first insmod
MARK_UNBIND = 2         # unbind (tracepoints on)
MARK_BIND = 3           # bind again
MARK_RMMOD = 4          # rmmod
MARK_CYCLES = 5         # NCYCLES x (insmod, rmmod)
MARK_BASIC_END = 6
MARK_MSIX_NOP = 10      # insmod with the MSI-X interrupt test's NOP failing
MARK_POLLING = 11       # insmod polling=1, rmmod

# phase faults
MARK_BEFORE = 99        # a clean load before the matrix
MARK_FAULT0 = 100       # fault case i is under mark MARK_FAULT0 + i
MARK_AFTER = 150        # a clean load after the matrix
MARK_HOLD_DEVLIM = 160  # insmod with QUERY_DEV_LIM's go bit held
MARK_HOLD_DEVLIM_NEXT = 161
MARK_HOLD_CLOSE_LOAD = 170
MARK_HOLD_CLOSE = 171   # rmmod with CLOSE_HCA's go bit held
MARK_HOLD_CLOSE_NEXT = 172
MARK_FAULTS_END = 180
MARK_INTX_NOP = 151     # (stub msix=off) insmod with the NOP failing

# the module parameter the held-go-bit cases load with
HOLD_TIMEOUT_MS = 200

# The firmware commands of the bring-up, in the order the driver issues
# them (each has a debugfs directory after the first load): the firmware
# and the HCA, then the event queue (its ring's region, the EQ, MAP_EQ and
# the interrupt test), then the ports' links.
BRINGUP_OPS = ('QUERY_FW', 'ENABLE_LAM', 'MAP_FA', 'RUN_FW', 'QUERY_DEV_LIM',
               'SET_ICM_SIZE', 'MAP_ICM_AUX', 'MAP_ICM', 'INIT_HCA',
               'QUERY_ADAPTER', 'SW2HW_MPT', 'SW2HW_EQ', 'MAP_EQ', 'NOP',
               'INIT_IB')

# Command status names, as the PRM names them (the kernel messages may
# give the name instead of the number).
STATUS_NAMES = {
    0x00: 'OK', 0x01: 'INTERNAL_ERR', 0x02: 'BAD_OP', 0x03: 'BAD_PARAM',
    0x04: 'BAD_SYS_STATE', 0x05: 'BAD_RESOURCE', 0x06: 'RESOURCE_BUSY',
    0x08: 'EXCEED_LIM', 0x09: 'BAD_RES_STATE', 0x0a: 'BAD_INDEX',
    0x22: 'LAM_NOT_PRE',
}


class FaultCase(collections.namedtuple('FaultCase', 'op status every')):
    """One probe with one injected failure: OP answers STATUS.

    every 0: the next OP command; N: every Nth (2 = the second MAP_ICM).
    """

    @property
    def name(self):
        name = f'fault {self.op}=0x{self.status:02x}'
        if self.every:
            name += f' (command {self.every})'   # '#' would start a KTAP directive
        return name


# ENABLE_LAM normally answers 0x22 (LAM_NOT_PRE); 0x00 is the odd answer.
FAULT_CASES = (
    FaultCase('QUERY_FW', 0x01, 0),
    FaultCase('ENABLE_LAM', 0x01, 0),
    FaultCase('ENABLE_LAM', 0x00, 0),
    FaultCase('MAP_FA', 0x05, 0),
    FaultCase('RUN_FW', 0x06, 0),
    FaultCase('QUERY_DEV_LIM', 0x03, 0),
    FaultCase('SET_ICM_SIZE', 0x08, 0),
    FaultCase('MAP_ICM_AUX', 0x05, 0),
    FaultCase('MAP_ICM', 0x0a, 0),
    FaultCase('MAP_ICM', 0x03, 2),
    FaultCase('INIT_HCA', 0x03, 0),
    FaultCase('QUERY_ADAPTER', 0x01, 0),
    FaultCase('SW2HW_EQ', 0x01, 0),
    FaultCase('MAP_EQ', 0x03, 0),
    FaultCase('INIT_IB', 0x03, 0),      # port 1's link: nothing to close
    FaultCase('INIT_IB', 0x03, 2),      # port 2's: port 1's closed again
)


def fault_mark(index):
    """The trace mark of FAULT_CASES[index]."""
    mark = MARK_FAULT0 + index
    assert mark < MARK_AFTER
    return mark
