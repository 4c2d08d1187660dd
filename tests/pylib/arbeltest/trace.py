# SPDX-License-Identifier: GPL-2.0
"""arbel-stub's command trace: its QEMU trace events, read back.

The stub's events (qemu/trace-events) go to QEMU's log with the log trace
backend: scripts/vm/run.sh passes -trace 'arbel_*' -D stub-trace.txt,
and the -d categories (guest_errors, ...) share that file.  Only lines of an
arbel_* event are read; each is "[PID@SEC.USEC:]arbel_EVENT #N TEXT" (the
prefix with -msg timestamp=on), N the device's event counter:
  arbel_cmd #N NAME op=0x... op_mod=N in_mod=0x... in_param=0x...
     out_param=0x... token=0x... status=0xSS(NAME)   a firmware command,
  then its details, each an event of the same N:
  arbel_cmd_event #N e=1, arbel_cmd_out_imm #N out_imm=0x...,
  arbel_cmd_fault #N fault=NOTE, arbel_cmd_inbox #N in[LEN]=HEX,
  arbel_cmd_outbox #N out[LEN]=HEX;
  arbel_xlate #N XLATE key=0x... access=N va=0x... len=0x... dir=N
     buf=0x... index=0x... pa=0x... result=N   a translation-engine request
  arbel_<other> #N NOTE ...                  anything else (RESET, CQE, ...)
A command and its details make one Entry, whose raw text is the command's
text followed by the details' (the stub's former one-line format).
Mailbox hex is cut after its last non-zero dword; inbox()/outbox() pad it
back to its length.  After a device_del and device_add (scripts/vm/run.sh
VM_HOTPLUG) the new device's events follow, numbered from 1 again, so the
file's order is the order of events.
"""

import re

# the log backend's line: [PID@SEC.USEC:]arbel_EVENT TEXT
_EVENT_RE = re.compile(r'^(?:\d+@\d+\.\d+:)?(?P<event>arbel_\w+) (?P<text>.*)$')
# an event's text: #N NAME REST
_LINE_RE = re.compile(r'^#(?P<seq>\d+) (?P<name>\S+)(?P<rest>.*)$')
# the events that add to the arbel_cmd event of the same number
DETAIL_EVENTS = ('arbel_cmd_event', 'arbel_cmd_out_imm', 'arbel_cmd_fault',
                 'arbel_cmd_inbox', 'arbel_cmd_outbox')
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
        # a WQE line has an op= too; only a command has a token
        return 'op' in self.fields and 'token' in self.fields

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


def _fields(text):
    fields = {}
    for k, n, v in _KV_RE.findall(text):
        fields[k] = (int(n), v) if n else v
    return fields


def parse_line(line):
    """Parse one event's text "#N NAME ..." (with or without the log
    backend's "[PID@SEC.USEC:]arbel_EVENT " before it); None for a line
    that is no event."""
    line = line.rstrip('\n')
    m = _EVENT_RE.match(line)
    if m:
        line = m.group('text')
    m = _LINE_RE.match(line)
    if not m:
        return None
    return Entry(int(m.group('seq')), m.group('name'),
                 _fields(m.group('rest')), line)


def parse_lines(lines):
    """The events among @lines (a QEMU log), in order (a list of Entry):
    only arbel_* events; a command's details are joined to it."""
    out = []
    for line in lines:
        m = _EVENT_RE.match(line.rstrip('\n'))
        if not m:
            continue
        e = parse_line(m.group('text'))
        if e is None:
            continue
        last = out[-1] if out else None
        if (m.group('event') in DETAIL_EVENTS and last is not None and
                last.is_command and last.seq == e.seq):
            # "#N e=1": the detail's name is its first field
            detail = m.group('text').split(' ', 1)[1]
            last.fields.update(_fields(detail))
            last.raw += ' ' + detail
            continue
        out.append(e)
    return out


def parse(path):
    """All events of a trace file (QEMU's -D log), in order (a list of
    Entry)."""
    with open(path, encoding='utf-8', errors='replace') as f:
        return parse_lines(f)


def other_lines(path):
    """The lines of QEMU's log that are no arbel_* event (the -d
    categories' reports: guest_errors, unimp, ...)."""
    with open(path, encoding='utf-8', errors='replace') as f:
        return [line.rstrip('\n') for line in f
                if not _EVENT_RE.match(line.rstrip('\n'))]


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
