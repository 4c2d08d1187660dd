#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The VM harness's variables: Documentation/vm-harness.rst's table
against scripts/vm/run.sh, prepare.sh and lib.sh, so that they cannot
drift.

A variable is every ``${NAME:-DEFAULT}`` (or ``${NAME:-}``) of the three
scripts, NAME in capitals, but for the few that are not knobs (IGNORED).
The table in the "Variables" section is an RST list-table whose rows
start with the variable in double back-quotes, then its default.  Every
variable must have a row, every row a variable, and a variable with a
default in the script must show that very default (``$REPO/`` dropped) in
double back-quotes.  Prints the problems; exits 1 if there are any.
"""

import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = ('scripts/vm/run.sh', 'scripts/vm/prepare.sh', 'scripts/vm/lib.sh')
DOC = 'Documentation/vm-harness.rst'
# set by scripts/env.sh or the system, or internal to the harness
IGNORED = {'TMPDIR', 'ARBEL_KABI', 'VM_DIE_RC'}

_USE = re.compile(r'\$\{([A-Z][A-Z0-9_]*):-([^}]*)\}')
_ROW = re.compile(r'^   \* - ``([A-Z][A-Z0-9_]*)(?:=1)?``\s*$')
_CELL = re.compile(r'^     - (.*)$')


def knobs_in_script(text, ignored=IGNORED):
    """{NAME: default} of a script (the first non-empty default wins)."""
    found = {}
    for name, default in _USE.findall(text):
        if name in ignored:
            continue
        default = default.replace('$REPO/', '')
        if not found.get(name):
            found[name] = default
    return found


def knobs_in_doc(text):
    """{NAME: default cell} of the list-table in the Variables section."""
    sec = text.split('\nVariables\n=========\n', 1)
    if len(sec) < 2:
        return {}
    body = re.split(r'\n[^\n]+\n=+\n', sec[1], maxsplit=1)[0]
    rows = {}
    lines = body.splitlines()
    for i, line in enumerate(lines):
        m = _ROW.match(line)
        if m and i + 1 < len(lines):
            c = _CELL.match(lines[i + 1])
            rows[m.group(1)] = c.group(1).strip() if c else ''
    return rows


def problems(scripts, doc):
    """What disagrees, as strings.  scripts: {path: text}; doc: text."""
    code = {}
    for text in scripts.values():
        for name, default in knobs_in_script(text).items():
            if not code.get(name):
                code[name] = default
    rows = knobs_in_doc(doc)
    bad = []
    if not rows:
        bad.append(f'{DOC}: no variables table in "Variables"')
    for name in sorted(code):
        if name not in rows:
            bad.append(f'{name}: used by the harness, not in {DOC}')
        elif code[name] and f'``{code[name]}``' not in rows[name]:
            bad.append(f'{name}: the default is ``{code[name]}``, '
                       f'{DOC} says {rows[name]!r}')
    for name in sorted(rows):
        if name not in code:
            bad.append(f'{name}: in {DOC}, not used by the harness')
    return bad


def check(top=TOP):
    scripts = {}
    for p in SCRIPTS:
        with open(os.path.join(top, p), encoding='utf-8') as f:
            scripts[p] = f.read()
    with open(os.path.join(top, DOC), encoding='utf-8') as f:
        doc = f.read()
    return problems(scripts, doc)


if __name__ == '__main__':
    bad = check()
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)
