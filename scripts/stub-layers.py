#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""arbel-stub's layering rule, checked on the sources of qemu/.

LAYERS below is the one declared order, bottom first; each layer holds
modules, each module its files.  For every qemu/*.c and *.h this finds:

  - the project functions it calls or names (a function defined, not
    static, in another qemu/*.c): the callee's layer must be lower, or the
    same layer without a cycle (a same-layer edge on a cycle is reported);
  - the arbel headers it includes: a base header, or one of its own or a
    lower layer (arbel-stub.h, the umbrella, belongs to the glue);
  - the ArbelState members it touches ("s->member"; the device pointer is
    always named "s"): only the module that owns the member (OWNERS) may;
    "props" is read by anyone.

A file that is in no layer, or a member that has no owner, is an error
too, so a new file must be placed before it is merged.  Parsing is by
regular expressions on the text with comments, strings and preprocessor
lines removed; definitions are found at brace depth 0.

Usage: stub-layers.py [--qemu-dir DIR] — KTAP on stdout, one result per
file; exit status 1 if any failed.  Documentation/arbel-stub.rst, "Layers".
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graph_check import scan, strip  # noqa: E402  (the C text helpers)

# Bottom first: (layer, {module: [files]}).
LAYERS = [
    ('leaves', {
        'trace': ['arbel-trace.c', 'arbel-trace.h', 'trace.h'],
        'fault': ['arbel-fault.c', 'arbel-fault.h'],
        'life': ['arbel-life.c', 'arbel-life.h'],
    }),
    ('DMA and interrupts', {
        'dma': ['arbel-dma.c', 'arbel-dma.h'],
        'irq': ['arbel-irq.c', 'arbel-irq.h'],
    }),
    ('ICM translation', {
        'icm': ['arbel-icm.c', 'arbel-icm.h'],
    }),
    ('ICM object contexts', {
        'ctx': ['arbel-ctx.c', 'arbel-ctx.h'],
    }),
    ('TPT and translation engine', {
        'tpt': ['arbel-tpt.c', 'arbel-mptchk.c', 'arbel-xlate.c', 'arbel-mw.c',
                'arbel-tpt.h'],
    }),
    ('object modules', {
        'mpt': ['arbel-mpt.c', 'arbel-mpt.h'],
        'eq': ['arbel-eq.c', 'arbel-eq.h'],
        'catas': ['arbel-catas.c', 'arbel-catas.h'],
        'mad': ['arbel-mad.c', 'arbel-mad.h'],
        'cq': ['arbel-cq.c'],
        'qp': ['arbel-qp.c', 'arbel-qpc.c'],
        'srq': ['arbel-srq.c'],
        'ib': ['arbel-ib.c'],
        'mcg': ['arbel-mcg.c'],
        'objects': ['arbel-objects.h'],
    }),
    ('data path', {
        'dp': ['arbel-sq.c', 'arbel-sqwqe.c', 'arbel-sge.c', 'arbel-mlx.c',
               'arbel-rq.c', 'arbel-fabric.c', 'arbel-sa.c', 'arbel-cqe.c',
               'arbel-dp.h', 'arbel-sq.h'],
    }),
    ('firmware', {
        'fw': ['arbel-fw.c', 'arbel-fwmem.c', 'arbel-fw.h'],
    }),
    ('dispatch', {
        'cmd': ['arbel-cmd.c', 'arbel-cmd.h'],
    }),
    ('HCR and debug window', {
        'hcr': ['arbel-hcr.c', 'arbel-hcr.h'],
        'dbgwin': ['arbel-dbgwin.c', 'arbel-debug.h'],
    }),
    ('glue', {
        'pci': ['arbel-pci.c', 'arbel-stub.h'],
    }),
]

# Headers every layer may include: facts, the state layout, the register
# map of the debug window.  They include no other arbel header but these.
BASE = ['arbel-hw.h', 'arbel-state.h', 'arbel-dbgwin.h', 'arbel-wqe.h']

# ArbelState member -> the module that owns it (None: anyone may read)
OWNERS = {
    'parent_obj': 'pci', 'bar0': 'pci', 'bar2': 'pci', 'props': None,
    'trace': 'trace', 'faults': 'fault', 'irq': 'irq', 'icm': 'icm',
    'tpt': 'tpt', 'eqs': 'eq', 'catas': 'catas', 'fw': 'fw', 'disp': 'cmd',
    'hcr': 'hcr', 'dbg': 'dbgwin', 'ctxs': 'ctx', 'qps': 'qp',
    'ports': 'ib', 'srqs': 'srq', 'dp': 'dp', 'uar': 'pci', 'mcg': 'mcg',
    'sa': 'dp', 'life': 'life', 'cqs': 'cq',
}


def where(name):
    """(layer index, module) of a file name, or None."""
    for i, (_, modules) in enumerate(LAYERS):
        for module, files in modules.items():
            if name in files:
                return i, module
    return None


def definitions(code):
    """{name: is_static} of the functions defined in @code."""
    return scan(code)[0]


def includes(text):
    return re.findall(r'^\s*#\s*include\s+"(arbel-[\w-]+\.h)"', text, re.M)


def cycles(edges, nodes):
    """The edges of @edges (pairs) that lie on a cycle (Tarjan's SCCs)."""
    index, low, stack, on, comp = {}, {}, [], set(), {}
    counter = [0]
    succ = {n: sorted({b for a, b in edges if a == n}) for n in nodes}

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            while True:
                w = stack.pop()
                on.discard(w)
                comp[w] = v
                if w == v:
                    break

    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return {(a, b) for a, b in edges if comp[a] == comp[b]}


def check(qdir):
    """{file: [problems]} for every arbel file of @qdir."""
    paths = sorted(glob.glob(os.path.join(qdir, 'arbel-*.[ch]')))
    names = [os.path.basename(p) for p in paths]
    code, raw = {}, {}
    for p, n in zip(paths, names):
        with open(p, encoding='utf-8') as f:
            raw[n] = f.read()
        code[n] = strip(raw[n])
    problems = {n: [] for n in names}

    for n in names:
        if n not in BASE and where(n) is None:
            problems[n].append('not in any layer of scripts/stub-layers.py')

    # who defines each global function
    owner = {}
    local = {}
    for n in names:
        if not n.endswith('.c'):
            continue
        local[n] = set()
        for fn, static in definitions(code[n]).items():
            local[n].add(fn)
            if not static:
                owner.setdefault(fn, n)

    # calls (and references) between files
    edges = {}
    for n in local:
        for fn in sorted(set(re.findall(r'\b[A-Za-z_]\w*\b', code[n]))):
            dst = owner.get(fn)
            if dst and dst != n and fn not in local[n]:
                edges.setdefault((n, dst), []).append(fn)

    same = [(a, b) for a, b in edges
            if where(a) and where(b) and where(a)[0] == where(b)[0]]
    on_cycle = cycles(same, {x for e in same for x in e})
    for (a, b), fns in sorted(edges.items()):
        wa, wb = where(a), where(b)
        if not wa or not wb:
            continue
        what = ', '.join(fns)
        if wb[0] > wa[0]:
            problems[a].append(f'calls up: {what} ({b}, layer '
                               f'"{LAYERS[wb[0]][0]}" is above '
                               f'"{LAYERS[wa[0]][0]}")')
        elif (a, b) in on_cycle:
            problems[a].append(f'same-layer cycle: {what} ({b} calls '
                               f'back into {a}, directly or not)')

    # includes
    for n in names:
        wn = where(n)
        for h in includes(raw[n]):
            if h in BASE or h == n:
                continue
            wh = where(h)
            if wh is None:
                problems[n].append(f'includes {h}, which is in no layer')
            elif wn and wh[0] > wn[0]:
                problems[n].append(f'includes {h} of the layer above '
                                   f'"{LAYERS[wh[0]][0]}"')

    # state ownership
    for n in names:
        wn = where(n)
        for other in sorted(set(re.findall(r'\bArbelState\s*\*\s*(\w+)',
                                           code[n])) - {'s'}):
            problems[n].append(f'ArbelState *{other}: name the device '
                               'pointer "s", so that its state accesses '
                               'are checked')
        for member in sorted(set(re.findall(r'\bs->(\w+)', code[n]))):
            if member not in OWNERS:
                problems[n].append(f's->{member}: a member with no owner '
                                   'in OWNERS')
            elif OWNERS[member] and (not wn or wn[1] != OWNERS[member]):
                problems[n].append(f's->{member}: state of module '
                                   f'"{OWNERS[member]}", touched here')
    return problems


def main(argv=None):
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--qemu-dir', default=os.path.join(top, 'qemu'))
    args = ap.parse_args(argv)

    sys.path.insert(0, os.path.join(top, 'tests', 'pylib'))
    from arbeltest.ktap import Ktap

    ktap = Ktap()
    problems = check(args.qemu_dir)
    if not problems:
        ktap.fail('qemu/arbel-*.[ch]', 'no file found')
    for n, probs in sorted(problems.items()):
        ktap.check(not probs, f'qemu/{n}: calls, includes and state follow '
                   'the layers', '\n'.join(probs))
    return ktap.finish()


if __name__ == '__main__':
    sys.exit(main())
