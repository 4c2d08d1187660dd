#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""No circle in the include/call graph of the driver, the stub or the tests.

A lower layer never calls up (Documentation/contributing.rst).  This
checks the part of that rule a machine can check without knowing the
layers: the dependency graph of each group of files below has no cycle.

C files.  The nodes are the files.  A file depends on
  - every project header it includes ("x.h", or <arbel/x.h> found in the
    group's include directories);
  - every other .c file of the group whose non-static functions it names
    (a call, or a function pointer);
  - for a header: the .c files whose functions its inline bodies name
    (a prototype is not a use).
Python files.  The nodes are the modules; a module depends on every
module of the group it imports (``import x``, ``from x import y``,
``from .x import y``, ``from . import x``), resolved beside the importer
first, then in the group's package roots.

Parsing is by regular expressions on the text with comments, strings and
preprocessor lines blanked; function definitions are found at brace
depth 0.

Usage: graph_check.py [--top DIR] [GROUP...] - KTAP on stdout, one result
per group (the default: every group in GROUPS); exit status 1 if any has
a cycle, the cycle's files in the diagnostics.
"""
import argparse
import ast
import glob
import os
import re
import sys

DRIVER = 'drivers/infiniband/hw/arbel'

# name -> (kind, file globs, include directories (C) or package roots
# (Python), C only: the library directories whose functions any file may
# call; other functions resolve in the caller's own directory, since each
# test directory links programs of its own)
GROUPS = {
    'driver': ('c', [DRIVER + '/*.[ch]', 'include/arbel/*.h'], ['include'],
               []),
    'kunit': ('c', ['kunit/*.[ch]', DRIVER + '/*.[ch]', 'include/arbel/*.h'],
              ['include'], [DRIVER]),
    'stub': ('c', ['qemu/*.[ch]'], [], []),
    'tests-c': ('c', ['tests/lib/*.[ch]', 'tests/stub/*.[ch]',
                      'tests/vm/*.[ch]', 'tests/verbs/*.[ch]',
                      'bench/*.[ch]', 'examples/*.[ch]'], ['tests'],
                ['tests/lib']),
    'tests-py': ('py', ['tests/pylib/arbeltest/*.py',
                        'tests/pylib/tests/*.py', 'tests/*/*.py',
                        'scripts/*.py', 'scripts/vm/*.py', 'bench/*.py'],
                 ['tests/pylib'], []),
}

_TOKENS = re.compile(r'''
    (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<pre>^[ \t]*\#(?:[^\n]*\\\n)*[^\n]*)
''', re.S | re.M | re.X)

_DEF = re.compile(r'\b(\w+)\s*\(([^()]|\([^()]*\))*\)\s*$')
_INCLUDE = re.compile(r'^\s*#\s*include\s+(?:"([^"]+)"|<([^>]+)>)', re.M)
_WORD = re.compile(r'\b[A-Za-z_]\w*\b')


def strip(text):
    """The code only: comments, strings and preprocessor lines blanked
    (newlines kept)."""
    def blank(m):
        if m.group('string'):
            return '""'
        return re.sub(r'[^\n]', ' ', m.group(0))
    return _TOKENS.sub(blank, text)


def scan(code):
    """({function name: is_static} defined in @code, the code inside
    brace bodies at depth >= 1)."""
    found = {}
    bodies = []
    depth = 0
    start = 0
    for i, c in enumerate(code):
        if c == '{':
            if depth == 0:
                head = code[start:i]
                m = _DEF.search(head)
                if m and '=' not in head:
                    found[m.group(1)] = bool(re.search(r'\bstatic\b', head))
                body = i
            depth += 1
        elif c == '}':
            depth = max(depth - 1, 0)
            if depth == 0:
                start = i + 1
                bodies.append(code[body:i])
        elif c == ';' and depth == 0:
            start = i + 1
    return found, '\n'.join(bodies)


def c_graph(top, files, incdirs, libs=()):
    """{file: set of files it depends on} for C @files (relative to @top):
    a function name resolves in the caller's directory, then in @libs."""
    text = {}
    for f in files:
        with open(os.path.join(top, f), encoding='utf-8',
                  errors='replace') as fh:
            text[f] = fh.read()
    owner = {}          # (directory, function) -> defining file
    code = {}
    for f in files:
        defs, bodies = scan(strip(text[f]))
        code[f] = strip(text[f]) if f.endswith('.c') else bodies
        if f.endswith('.c'):
            for name, static in defs.items():
                if not static:
                    owner.setdefault((os.path.dirname(f), name), f)
    present = set(files)
    graph = {}
    for f in files:
        deps = set()
        for quoted, angled in _INCLUDE.findall(text[f]):
            cands = ([os.path.join(os.path.dirname(f), quoted)] if quoted
                     else [os.path.join(d, angled) for d in incdirs])
            for cand in cands:
                cand = os.path.normpath(cand)
                if cand in present:
                    deps.add(cand)
                    break
        dirs = [os.path.dirname(f)] + list(libs)
        for word in set(_WORD.findall(code[f])):
            g = next((owner[(d, word)] for d in dirs if (d, word) in owner),
                     None)
            if g and g != f:
                deps.add(g)
        graph[f] = deps
    return graph


def py_imports(source):
    """[(level, dotted name)] of the imports in @source."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(0, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            out.append((node.level, base))
            out += [(node.level, f'{base}.{a.name}' if base else a.name)
                    for a in node.names]
    return out


def py_graph(top, files, roots, _libs=()):
    """{file: set of files it imports} for Python @files."""
    present = set(files)
    graph = {}
    for f in files:
        with open(os.path.join(top, f), encoding='utf-8') as fh:
            imports = py_imports(fh.read())
        here = os.path.dirname(f)
        deps = set()
        for level, name in imports:
            if not name:
                continue
            path = name.replace('.', '/')
            if level:
                bases = [os.path.normpath(os.path.join(
                    here, *(['..'] * (level - 1))))]
            else:
                bases = [here] + list(roots)
            for base in bases:
                cands = [os.path.join(base, path + '.py'),
                         os.path.join(base, path, '__init__.py')]
                hit = [os.path.normpath(c) for c in cands
                       if os.path.normpath(c) in present]
                if hit:
                    if hit[0] != f:
                        deps.add(hit[0])
                    break
        graph[f] = deps
    return graph


def find_cycle(graph):
    """One cycle of @graph as a list of nodes (first == last), or None."""
    white, grey, black = 0, 1, 2
    colour = dict.fromkeys(graph, white)
    for root in sorted(graph):
        if colour[root] != white:
            continue
        stack = [(root, iter(sorted(graph[root])))]
        path = [root]
        colour[root] = grey
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = black
                stack.pop()
                path.pop()
                continue
            if nxt not in colour:
                continue
            if colour[nxt] == grey:
                return path[path.index(nxt):] + [nxt]
            if colour[nxt] == white:
                colour[nxt] = grey
                path.append(nxt)
                stack.append((nxt, iter(sorted(graph[nxt]))))
    return None


def group_files(top, globs):
    files = set()
    for g in globs:
        files.update(os.path.relpath(p, top)
                     for p in glob.glob(os.path.join(top, g)))
    return sorted(files)


def check(top, name):
    """(ok, message) for group @name."""
    kind, globs, dirs, libs = GROUPS[name]
    files = group_files(top, globs)
    if not files:
        return False, 'no files'
    graph = (c_graph if kind == 'c' else py_graph)(top, files, dirs, libs)
    cycle = find_cycle(graph)
    if cycle:
        return False, 'cycle: ' + ' -> '.join(cycle)
    edges = sum(len(d) for d in graph.values())
    return True, f'{len(files)} files, {edges} edges, no cycle'


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--top', default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), '..'))
    ap.add_argument('groups', nargs='*', default=list(GROUPS))
    args = ap.parse_args(argv)
    print('KTAP version 1')
    print(f'1..{len(args.groups)}')
    failed = 0
    for i, name in enumerate(args.groups, 1):
        ok, msg = check(args.top, name)
        print(f'# {name}: {msg}')
        print(f'{"ok" if ok else "not ok"} {i} {name}: no include/call cycle')
        failed += not ok
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
