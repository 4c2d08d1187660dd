#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Side-by-side table of cmp_bench runs (one per driver), with ratios.

  compare.py --out results.json --conditions conditions.txt \
      arbel=arbel.txt arbel-wmtt=wmtt.txt mthca=mthca.txt rxe=rxe.txt

Each file is a VM's output; its "BENCH {json}" lines are cmp_bench's
measurements.  A driver whose file has none (it did not come up, or could
not register) is a column of "n/a" with the reason given as
NAME=FILE:reason text, or read from the file's "BENCH-NA reason" line.
Prints the tables and writes every raw number, with the conditions, to
--out.  Ratios are of medians; a ratio is marked "~" when the two
spreads (min..max of the repeats) overlap, i.e. noise is as large as the
difference.
"""

import argparse
import json
import statistics
import sys

BASE = 'arbel'
PEERS = ('mthca', 'rxe')


def parse(path):
    """(measurements, n/a reason or None) of one VM output file."""
    out, reason = [], None
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in f:
                line = line.strip()
                if line.startswith('BENCH {'):
                    try:
                        out.append(json.loads(line[6:]))
                    except ValueError:
                        pass
                elif line.startswith('BENCH-NA '):
                    reason = line[9:]
    except OSError as err:
        reason = f'no output ({err.strerror})'
    if not out and reason is None:
        reason = 'no measurement in the output'
    return out, reason


def stats(samples):
    """(median, min, max) or None."""
    if not samples:
        return None
    return statistics.median(samples), min(samples), max(samples)


def ratio(a, b):
    """'0.85' or '0.85~' (spreads overlap) or '-'; a, b from stats()."""
    if not a or not b or not b[0]:
        return '-'
    r = a[0] / b[0]
    overlap = a[1] <= b[2] and b[1] <= a[2]
    return f'{r:.2f}{"~" if overlap else ""}'


def index(meas, kind, key):
    return {key(m): m for m in meas if m.get('kind') == kind}


def size_str(n):
    if n >= 1 << 30:
        return f'{n >> 30} GiB'
    if n >= 1 << 20:
        return f'{n >> 20} MiB'
    return f'{n >> 10} KiB'


def cell(s):
    if not s:
        return 'n/a'
    med, lo, hi = s
    spread = (hi - lo) / med * 100 if med else 0
    return f'{med:.1f} ±{spread / 2:.0f}%'


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    lines = ['  '.join(str(c).rjust(w) for c, w in zip(header, widths))]
    lines.append('  '.join('-' * w for w in widths))
    lines += ['  '.join(str(c).rjust(w) for c, w in zip(r, widths))
              for r in rows]
    return '\n'.join(lines)


def build(drivers):
    """The printed report; drivers: [(name, measurements, reason)]."""
    names = [d[0] for d in drivers]
    rows = {n: index(m, 'row', lambda x: (x['pages'], x['size']))
            for n, m, _ in drivers}
    out = []
    for n, _, reason in drivers:
        if reason:
            out.append(f'{n}: n/a ({reason})')
    keys = sorted({k for r in rows.values() for k in r},
                  key=lambda k: (k[0] != '4K', k[1]))
    header = ['pages', 'size']
    for n in names:
        header += [f'{n} us', f'{n} cmd/reg']
    header += ['mtt_ent'] + [f'{BASE}/{p}' for p in PEERS if p in names]
    body = []
    for k in keys:
        line = [k[0], size_str(k[1])]
        st = {}
        for n in names:
            m = rows[n].get(k, {})
            st[n] = stats(m.get('us'))
            line.append(cell(st[n]) if 'skipped' not in m else 'skipped')
            c = m.get('cmds_reg')
            line.append('-' if c is None else
                        (f'{c:.0f}' if c == int(c) else f'{c:.2f}'))
        ent = rows.get(BASE, {}).get(k, {}).get('mtt_entries')
        line.append('-' if ent is None else ent)
        line += [ratio(st.get(BASE), st.get(p)) for p in PEERS if p in names]
        body.append(line)
    out.append('Register + deregister one buffer: median us per cycle '
               '(± half the spread of the repeats), firmware commands per '
               'registration (stub counter), MTT entries (arbel), ratios of '
               'medians ("~": spreads overlap)')
    out.append(table(header, body))
    skipped = [f'{n} {k[0]} {size_str(k[1])}: {m["skipped"]}'
               for n in names for k, m in rows[n].items() if 'skipped' in m]
    if skipped:
        out.append('skipped: ' + '; '.join(skipped))

    procs = {n: index(m, 'procs', lambda x: (x['size'], x['procs']))
             for n, m, _ in drivers}
    keys = sorted({k for r in procs.values() for k in r})
    body = []
    for k in keys:
        line = [size_str(k[0]), k[1]]
        st = {n: stats(procs[n].get(k, {}).get('regs_per_s')) for n in names}
        line += [cell(st[n]) for n in names]
        line += [ratio(st.get(p), st.get(BASE)) for p in PEERS if p in names]
        body.append(line)
    if body:
        out.append('\nRegistrations per second, all processes together '
                   '(4 KiB pages), ratios as time per registration '
                   f'({BASE}/peer)')
        out.append(table(['size', 'procs'] + [f'{n} reg/s' for n in names] +
                         [f'{BASE}/{p}' for p in PEERS if p in names], body))

    live = {n: index(m, 'live', lambda x: x['live']) for n, m, _ in drivers}
    keys = sorted({k for r in live.values() for k in r})
    body = []
    for k in keys:
        line = [k]
        for n in names:
            m = live[n].get(k, {})
            line.append('skipped' if 'skipped' in m else cell(stats(m.get('us'))))
            b = m.get('bytes_per_region')
            line.append('-' if b is None else f'{b:.0f}')
        body.append(line)
    if body:
        hdr = ['live']
        for n in names:
            hdr += [f'{n} us', f'{n} B/region']
        out.append('\nOne 4 KiB cycle with N regions live; guest memory per '
                   'live region (MemAvailable delta / N)')
        out.append(table(hdr, body))
        flat = []
        for n in names:
            meds = [stats(live[n][k].get('us'))[0] for k in keys
                    if live[n].get(k, {}).get('us')]
            if len(meds) > 1:
                flat.append(f'{n} {min(meds) / meds[0] - 1:+.0%}..'
                            f'{max(meds) / meds[0] - 1:+.0%}')
        if flat:
            out.append('cost against the fewest live: ' + ', '.join(flat))
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', help='JSON file for the raw numbers')
    ap.add_argument('--conditions', help='text file printed first')
    ap.add_argument('runs', nargs='+', help='NAME=FILE[:n/a reason]')
    args = ap.parse_args()
    drivers, raw = [], {}
    for spec in args.runs:
        name, _, path = spec.partition('=')
        path, _, given = path.partition(':')
        meas, reason = parse(path)
        if given:
            reason, meas = given, []
        drivers.append((name, meas, reason))
        raw[name] = {'measurements': meas, 'na': reason}
    cond = ''
    if args.conditions:
        with open(args.conditions, encoding='utf-8') as f:
            cond = f.read()
        print(cond.rstrip())
    print(build(drivers))
    if args.out:
        with open(args.out, 'w', encoding='utf-8') as f:
            json.dump({'conditions': cond, 'drivers': raw}, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
