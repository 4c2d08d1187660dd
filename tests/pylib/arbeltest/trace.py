# SPDX-License-Identifier: GPL-2.0
"""arbel-stub's command trace (the file its trace= property names).

Each line is one event, numbered "#N":
  #N NAME op=0x... op_mod=N in_mod=0x... in_param=0x... out_param=0x...
     token=0x... status=0xSS(NAME) [e=1] [out_imm=0x...] [fault=NOTE]
     [in[LEN]=HEX] [out[LEN]=HEX]            a firmware command
  #N XLATE key=0x... access=N va=0x... len=0x... dir=N buf=0x...
     index=0x... pa=0x... result=N           a translation-engine request
  #N NOTE                                    anything else (RESET, ...)
Mailbox hex is cut after its last non-zero dword; inbox()/outbox() pad it
back to its length.  The stub appends to the file: after a device_del and
device_add (scripts/vm/run.sh VM_HOTPLUG) the new device's events follow,
numbered from 1 again, so the file's order is the order of events.
"""

import re

_LINE_RE = re.compile(r'^#(?P<seq>\d+) (?P<name>\S+)(?P<rest>.*)$')
_KV_RE = re.compile(r'(\w+)(?:\[(\d+)\])?=(\S+)')
# status=0xSS(NAME); NAME is "?" for a status the stub has no name for
_STATUS_RE = re.compile(r'^0x([0-9a-fA-F]+)\(([^)]*)\)$')

# stubctl mark N puts an XLATE request with this key prefix in the trace
MARK_KEY_PREFIX = 0x4d4b0000


class Entry:
    """One trace line: seq, name and its key=value fields."""

    def __init__(self, seq, name, fields, raw):
        self.seq = seq
        self.name = name
        self.fields = fields
        self.raw = raw

    def __repr__(self):
        return f'Entry(#{self.seq} {self.name})'

    def _int(self, key, default=None):
        v = self.fields.get(key)
        return default if v is None else int(v, 0)

    @property
    def is_command(self):
        return 'op' in self.fields

    @property
    def is_xlate(self):
        return self.name == 'XLATE'

    @property
    def opcode(self):
        return self._int('op')

    @property
    def op_mod(self):
        return self._int('op_mod')

    @property
    def in_mod(self):
        return self._int('in_mod')

    @property
    def in_param(self):
        return self._int('in_param')

    @property
    def out_param(self):
        return self._int('out_param')

    @property
    def token(self):
        return self._int('token')

    @property
    def out_imm(self):
        return self._int('out_imm')

    @property
    def event_mode(self):
        return self.fields.get('e') == '1'

    @property
    def status(self):
        m = _STATUS_RE.match(self.fields.get('status', ''))
        return int(m.group(1), 16) if m else None

    @property
    def status_name(self):
        m = _STATUS_RE.match(self.fields.get('status', ''))
        return m.group(2) if m else None

    @property
    def fault(self):
        return self.fields.get('fault')

    def _box(self, tag):
        v = self.fields.get(tag)
        if v is None:
            return None
        length, hexdata = v
        data = bytes.fromhex(hexdata)
        return data + bytes(length - len(data))

    def inbox(self):
        """The inbox bytes (padded to their length), or None."""
        return self._box('in')

    def outbox(self):
        """The outbox bytes (padded to their length), or None."""
        return self._box('out')

    # XLATE lines
    @property
    def key(self):
        return self._int('key')

    @property
    def result(self):
        return self._int('result')

    @property
    def mark(self):
        """N for the XLATE line "stubctl mark N" leaves, else None."""
        k = self.key if self.is_xlate else None
        if k is not None and k & 0xffff0000 == MARK_KEY_PREFIX:
            return k & 0xffff
        return None


def parse_line(line):
    """Parse one trace line; None for a line that is not an event."""
    m = _LINE_RE.match(line.rstrip('\n'))
    if not m:
        return None
    fields = {}
    for k, n, v in _KV_RE.findall(m.group('rest')):
        fields[k] = (int(n), v) if n else v
    return Entry(int(m.group('seq')), m.group('name'), fields, line.rstrip('\n'))


def parse(path):
    """All events of a trace file, in order (a list of Entry)."""
    with open(path, encoding='utf-8', errors='replace') as f:
        return [e for e in map(parse_line, f) if e is not None]


def commands(entries):
    """Only the firmware commands."""
    return [e for e in entries if e.is_command]


def split_marks(entries):
    """Cut a trace at its marks: {mark N: entries after it, up to the next}.

    Entries before the first mark are under the key None.
    """
    out = {None: []}
    cur = None
    for e in entries:
        if e.mark is not None:
            cur = e.mark
            out[cur] = []
            continue
        out[cur].append(e)
    return out


def op_status_list(entries):
    """[(name, status)] of the commands, e.g. [('QUERY_FW', 0), ...]."""
    return [(e.name, e.status) for e in commands(entries)]
