# SPDX-License-Identifier: GPL-2.0
"""What the stub's trace says it did not do, as a report for a judge's
diagnostics: its "unconfirmed:" notes (a rule no source states: the stub
logs it and goes on, or drops what it cannot execute yet), the commands
it refused (a status other than OK), its other events by name (an event
named ...NOT-EXECUTED with its first line) and QEMU's -d reports (guest
errors, unimplemented registers).  A report, no verdict: these lines
tell the data path's engineer what the stub left undone while the
clients ran.
"""

import re

# numbers in a note, so that notes differing in a QP number, an address
# or a count group together
_NUM_RE = re.compile(r'0x[0-9a-fA-F]+|\b\d+\b')


def shape(msg):
    """A note with its numbers replaced by N."""
    return _NUM_RE.sub('N', msg)


def note_text(entry):
    """The text of an "unconfirmed:" event ("#N unconfirmed: TEXT")."""
    parts = entry.raw.split(' ', 2)
    return parts[2] if len(parts) > 2 else ''


def _grouped(items):
    """[(key, example)] -> [(key, count, first example)], first seen first."""
    out = {}
    for key, example in items:
        if key in out:
            out[key][0] += 1
        else:
            out[key] = [1, example]
    return [(key, n, ex) for key, (n, ex) in out.items()]


def unconfirmed(entries):
    """[(shape, count, first note)] of the "unconfirmed:" events."""
    return _grouped((shape(note_text(e)), note_text(e)) for e in entries
                    if e.name == 'unconfirmed:' and not e.is_command)


def refused(entries, allowed=('ENABLE_LAM',)):
    """[("NAME status=0xSS(STATUS)", count, first raw line)] of the
    commands answered with a status other than OK, but @allowed ones
    (ENABLE_LAM: mem-free firmware refuses it, and ib_mthca expects
    that)."""
    return _grouped(
        (f'{e.name} status=0x{e.status:02x}({e.status_name})', e.raw)
        for e in entries
        if e.is_command and e.status not in (None, 0) and
        e.name not in allowed)


def events(entries):
    """[(name, count, first raw line)] of the events that are neither a
    command, a translation nor an "unconfirmed:" note."""
    return _grouped((e.name, e.raw) for e in entries
                    if not e.is_command and not e.is_xlate and
                    e.name != 'unconfirmed:')


def report(entries, other=()):
    """The report's lines: each group with its count and first example,
    then QEMU's -d reports (@other: trace.other_lines()), at most 10."""
    lines = []
    groups = unconfirmed(entries)
    lines.append(f'stub trace: {sum(n for _, n, _ in groups)} unconfirmed '
                 f'notes in {len(groups)} kinds')
    lines += [f'  {n} x unconfirmed: {ex}' for _, n, ex in groups]
    groups = refused(entries)
    lines.append(f'stub trace: {sum(n for _, n, _ in groups)} commands '
                 'refused (ENABLE_LAM aside)')
    lines += [f'  {n} x {key}: {ex}' for key, n, ex in groups]
    groups = events(entries)
    lines.append('stub trace: other events: ' +
                 (', '.join(f'{n} x {key}' for key, n, _ in groups) or
                  'none'))
    lines += [f'  {ex}' for key, _, ex in groups if 'NOT-EXECUTED' in key]
    other = [x for x in other if x.strip()]
    lines.append(f'QEMU -d reports: {len(other)} lines')
    lines += [f'  {x}' for x in other[:10]]
    return lines
