#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The stub beside rdma_rxe: bench/traffic.sh's VM output as a table.

  traffic.py [--pair A,B] [--conditions conditions.txt]
             [--json results.json] out.txt

out.txt is the VM's output from bench/traffic_guest.sh: per server/client
pair a "TRAFFIC {json}" line (device, test, size, round, turn, exit
statuses, seconds), then the client's perftest output between
TRAFFIC-OUT-BEGIN and TRAFFIC-OUT-END; "TRAFFIC-NA reason" when a device
did not come up.  From perftest's result row this takes the bandwidth
tests' average bandwidth (MB/sec, "BW average") and the latency tests'
typical latency (usec, "t_typical": perftest's median); a pair of test
"reg_mr" is bench/cmp_bench's registration row instead (its "BENCH
{json}" line: the best repeat's usec per ibv_reg_mr + ibv_dereg_mr
cycle, and the stub's work per cycle, printed below the table).
Prints, per test and size, each device's median over the rounds (± half
the spread, min..max, in percent of the median) and the ratio stub/rxe
of the medians: for bandwidth higher is better, for latency lower is
better; the "faster" column names the faster one, "~" when the two
spreads overlap (the rounds' noise is as large as the difference).
--pair A,B compares devices A and B instead (default mthca,rxe;
arbel,mthca: our driver beside ib_mthca on the same stub), the ratio
A/B.
"""

import argparse
import json
import math
import re
import statistics
import sys

STUB, RXE = 'mthca', 'rxe'
LABEL = {STUB: 'stub (ib_mthca)', RXE: 'rxe', 'arbel': 'arbel'}
# the short names of the ratio's column and the "faster" column
SHORT = {STUB: 'stub', RXE: 'rxe', 'arbel': 'arbel'}
# the two devices compared, A/B (main()'s --pair)
PAIR = [STUB, RXE]

BW_KEYS = ('bytes', 'iters', 'bw_peak', 'bw_avg', 'msg_rate_mpps')
LAT_KEYS = ('bytes', 'iters', 't_min', 't_max', 't_typical', 't_avg',
            't_stdev', 'p99', 'p99_9')
NUM = r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)'
UNIT_RE = re.compile(r'BW average\[([^\]]+)\]')
CORR_RE = re.compile(r'Correlation coefficient[^\n]*')


def parse_perftest(text):
    """The result row of one perftest client's output: a dict with 'kind'
    ('bw' or 'lat') and the row's figures (BW_KEYS or LAT_KEYS; 'unit',
    the bandwidth's, for 'bw'), or None if the output has no result row.
    The header line (" #bytes ...") says which kind; the row is the first
    line of numbers after it."""
    kind = unit = None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith('#bytes'):
            if 'BW average' in s:
                kind = 'bw'
                m = UNIT_RE.search(s)
                unit = m.group(1) if m else '?'
            elif 't_typical' in s or 't_avg' in s:
                kind = 'lat'
            else:
                kind = None
            continue
        if kind is None:
            continue
        fields = s.split()
        if not fields or not all(re.fullmatch(NUM, f) for f in fields):
            continue
        keys = BW_KEYS if kind == 'bw' else LAT_KEYS
        if len(fields) < len(keys):
            # an older or newer perftest with fewer columns: take what
            # is there, but the figure used must be present
            need = 'bw_avg' if kind == 'bw' else 't_typical'
            if keys.index(need) >= len(fields):
                return None
        row = {'kind': kind}
        for k, v in zip(keys, fields):
            row[k] = int(v) if k in ('bytes', 'iters') else float(v)
        if kind == 'bw':
            row['unit'] = unit
        return row
    return None


# what the stub did per register + deregister cycle (bench/cmp_bench.c)
STUB_WORK = ('cmds_reg', 'cmds_dereg', 'accesses', 'dmas', 'irqs')


def parse_reg(text):
    """The registration row of cmp_bench -s (its "BENCH {json}" line of
    kind "row"): a dict with 'kind' 'reg', 'us' (microseconds per cycle
    of every repeat), 'best_us' (the least: the round's figure) and the
    stub's work per cycle (STUB_WORK, where cmp_bench gave it); None if
    there is no such row or it was skipped."""
    for line in text.splitlines():
        if not line.startswith('BENCH {'):
            continue
        try:
            row = json.loads(line[len('BENCH '):])
        except ValueError:
            continue
        if row.get('kind') != 'row' or 'skipped' in row or not row.get('us'):
            continue
        out = {'kind': 'reg', 'us': row['us'], 'best_us': min(row['us'])}
        out.update({k: row[k] for k in STUB_WORK if k in row})
        return out
    return None


def figure(row):
    """(value, unit, higher_is_better) of a parsed row."""
    if row['kind'] == 'bw':
        return row['bw_avg'], row['unit'], True
    if row['kind'] == 'reg':
        return row['best_us'], 'usec', False
    return row['t_typical'], 'usec', False


def parse_client(pair, text):
    """The client output of one TRAFFIC pair, parsed by its test."""
    if pair.get('test') == 'reg_mr':
        return parse_reg(text)
    return parse_perftest(text)


def parse_output(text):
    """(pairs, na) of a VM's output: pairs, a list of the TRAFFIC dicts
    each with 'row' (parse_perftest of its client output, or None) and
    'error' (None, or why it has no figure); na, {device: reason}."""
    pairs, na = [], {}
    cur, buf, inside = None, [], False
    for line in text.splitlines():
        s = line.rstrip('\r')
        if inside:
            if s.strip() == 'TRAFFIC-OUT-END':
                inside = False
                cur['row'] = parse_client(cur, '\n'.join(buf))
                if cur['row'] is None or not math.isfinite(
                        figure(cur['row'])[0]):
                    cur['client_out'] = '\n'.join(buf)
                buf = []
            else:
                buf.append(s)
            continue
        if s.startswith('TRAFFIC {'):
            try:
                cur = json.loads(s[len('TRAFFIC '):])
            except ValueError:
                cur = None
                continue
            cur['row'] = None
            pairs.append(cur)
        elif s.strip() == 'TRAFFIC-OUT-BEGIN' and cur is not None:
            inside, buf = True, []
        elif s.startswith('TRAFFIC-NA '):
            dev, _, reason = s[len('TRAFFIC-NA '):].partition(' ')
            na.setdefault(dev, reason)
    if inside and cur is not None:
        cur['row'] = parse_client(cur, '\n'.join(buf))
    for p in pairs:
        p['error'] = None
        if p.get('client_rc') != 0 or p.get('server_rc') != 0:
            p['error'] = (f'server exit {p.get("server_rc")}, '
                          f'client exit {p.get("client_rc")}')
        elif p['row'] is None:
            p['error'] = 'no result row in the client output'
        elif not math.isfinite(figure(p['row'])[0]):
            # perftest's clock estimate failed ("Correlation coefficient
            # r^2: 0.86 < 0.9": the guest was descheduled while it timed)
            p['error'] = 'perftest printed no finite figure'
            m = CORR_RE.search(p.get('client_out', ''))
            if m:
                p['error'] += f' ({m.group(0).strip()})'
    return pairs, na


def stats(samples):
    """(median, min, max) or None."""
    if not samples:
        return None
    return statistics.median(samples), min(samples), max(samples)


def compare(a, b, higher_is_better):
    """(ratio a/b of the medians, faster: the short name of PAIR's a or
    b, or '~') for a and b (PAIR's, by default the stub and rxe) from
    stats(); (None, '-') if either is
    missing.  '~' when the spreads overlap."""
    if not a or not b or not b[0]:
        return None, '-'
    r = a[0] / b[0]
    if a[1] <= b[2] and b[1] <= a[2]:
        return r, '~'
    a_better = r > 1 if higher_is_better else r < 1
    return r, SHORT.get(PAIR[a_better ^ 1], PAIR[a_better ^ 1])


def size_str(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f'{n >> 20} MiB'
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f'{n >> 10} KiB'
    return f'{n} B'


def cell(st, unit):
    if not st:
        return 'n/a'
    med, lo, hi = st
    spread = (hi - lo) / med * 100 if med else 0
    prec = 2 if med < 100 else 1 if med < 10000 else 0
    return f'{med:.{prec}f} {unit} ±{spread / 2:.0f}%'


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    lines = ['  '.join(str(c).ljust(w) if i < 2 else str(c).rjust(w)
                       for i, (c, w) in enumerate(zip(header, widths)))]
    lines.append('  '.join('-' * w for w in widths))
    lines += ['  '.join(str(c).ljust(w) if i < 2 else str(c).rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths)))
              for r in rows]
    return '\n'.join(lines)


def summarize(pairs):
    """Per (test, size), in the order they ran: a dict with each device's
    figures over the rounds, their stats, the unit, the ratio and the
    faster one."""
    order, groups = [], {}
    for p in pairs:
        key = (p['test'], p['size'])
        if key not in groups:
            order.append(key)
            groups[key] = {'test': p['test'], 'size': p['size'],
                           'values': {PAIR[0]: [], PAIR[1]: []},
                           'unit': None,
                           'higher_is_better': None, 'errors': []}
        g = groups[key]
        if p['error']:
            g['errors'].append(f'{p["dev"]} round {p.get("round")}: '
                               f'{p["error"]}')
            continue
        value, unit, hib = figure(p['row'])
        g['values'].setdefault(p['dev'], []).append(value)
        g['unit'] = g['unit'] or unit
        g['higher_is_better'] = hib
    out = []
    for key in order:
        g = groups[key]
        g['stats'] = {d: stats(v) for d, v in g['values'].items()}
        hib = g['higher_is_better']
        if hib is None:
            hib = not g['test'].endswith('_lat')
            g['higher_is_better'] = hib
        g['ratio'], g['faster'] = compare(g['stats'].get(PAIR[0]),
                                          g['stats'].get(PAIR[1]), hib)
        out.append(g)
    return out


def stub_work(pairs):
    """Lines: per registration size and device, what one cycle cost the
    stub (the same in every round: the first round's)."""
    seen, lines = set(), []
    for p in pairs:
        row = p.get('row')
        if p['error'] or not row or row['kind'] != 'reg':
            continue
        key = (p['size'], p['dev'])
        if key in seen or not any(k in row for k in STUB_WORK):
            continue
        seen.add(key)
        lines.append(f'reg_mr {size_str(p["size"])} on '
                     f'{LABEL.get(p["dev"], p["dev"])}, the stub\'s work a '
                     'cycle: ' + ', '.join(f'{k} {row[k]:g}'
                                           for k in STUB_WORK if k in row))
    return lines


def by_slot(pairs):
    """Lines: per test and size, each device's median on each PCI slot
    its pairs ran on ("slot" of traffic_guest.sh's lines: the arbel mode
    swaps the two stubs' drivers every round), when some device ran on
    more than one -- the slot changes the figures."""
    order, vals = [], {}
    for p in pairs:
        if p['error'] or not p.get('slot'):
            continue
        key = (p['test'], p['size'])
        if key not in vals:
            order.append(key)
            vals[key] = {}
        value = figure(p['row'])[0]
        vals[key].setdefault(p['dev'], {}).setdefault(p['slot'],
                                                      []).append(value)
    if not any(len(s) > 1 for v in vals.values() for s in v.values()):
        return []
    out = ['by PCI slot (median of the rounds on it):']
    for key in order:
        cells = [f'{LABEL.get(d, d)} ' + ', '.join(
                     f'{slot} {statistics.median(v):.4g}'
                     for slot, v in sorted(vals[key][d].items()))
                 for d in PAIR if d in vals[key]]
        out.append(f'  {key[0]} {size_str(key[1])}: ' + '; '.join(cells))
    return out


def report(pairs, na):
    """The printed table (a string)."""
    out = []
    for dev, reason in sorted(na.items()):
        out.append(f'{LABEL.get(dev, dev)}: n/a ({reason})')
    groups = summarize(pairs)
    body = []
    for g in groups:
        unit = g['unit'] or ('usec' if not g['higher_is_better'] else '')
        r = '-' if g['ratio'] is None else f'{g["ratio"]:.2f}'
        n = max(len(v) for v in g['values'].values())
        kind = ('bandwidth' if g['higher_is_better'] else
                'reg+dereg' if g['test'] == 'reg_mr' else 'latency')
        body.append([g['test'], size_str(g['size']), kind,
                     cell(g['stats'].get(PAIR[0]), unit),
                     cell(g['stats'].get(PAIR[1]), unit), r, g['faster'],
                     n])
    ab = '/'.join(SHORT.get(d, d) for d in PAIR)
    out.append('perftest, server and client in one guest: median of the '
               'rounds (± half the spread); bandwidth = "BW average", '
               f'latency = "t_typical" (perftest\'s median); reg+dereg = '
               f'cmp_bench\'s best repeat, usec a cycle; {ab} = '
               'ratio of the medians (bandwidth: higher is better, latency '
               'and reg+dereg: lower is better); "~": the spreads overlap')
    out.append(table(['test', 'size', 'figure', LABEL.get(PAIR[0], PAIR[0]),
                      LABEL.get(PAIR[1], PAIR[1]), ab, 'faster', 'rounds'],
                     body))
    out += stub_work(pairs)
    out += by_slot(pairs)
    errors = [e for g in groups for e in g['errors']]
    if errors:
        out.append(f'{len(errors)} pair(s) without a figure: ' +
                   '; '.join(errors))
    bw = [g['ratio'] for g in groups
          if g['ratio'] is not None and g['higher_is_better']]
    lat = [g['ratio'] for g in groups if g['ratio'] is not None and
           not g['higher_is_better'] and g['test'] != 'reg_mr']
    if bw:
        out.append(f'bandwidth {ab}: {min(bw):.2f} .. {max(bw):.2f} '
                   f'(geometric mean {statistics.geometric_mean(bw):.2f})')
    if lat:
        out.append(f'latency   {ab}: {min(lat):.2f} .. {max(lat):.2f} '
                   f'(geometric mean {statistics.geometric_mean(lat):.2f})')
    secs = {}
    for p in pairs:
        secs[p['dev']] = secs.get(p['dev'], 0.0) + float(p.get('secs') or 0)
    if secs:
        out.append('time in the pairs (setup included): ' + ', '.join(
            f'{LABEL.get(d, d)} {s:.0f} s' for d, s in sorted(secs.items())))
    return '\n'.join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--pair', default=','.join(PAIR),
                    help='the devices compared, A,B: the ratio A/B '
                    '(default mthca,rxe)')
    ap.add_argument('--conditions', help='text file printed first')
    ap.add_argument('--json', help='file for every raw figure')
    ap.add_argument('output', help="the VM's output (traffic_guest.sh)")
    args = ap.parse_args(argv)
    PAIR[:] = args.pair.split(',')[:2]
    with open(args.output, encoding='utf-8', errors='replace') as f:
        pairs, na = parse_output(f.read())
    cond = ''
    if args.conditions:
        with open(args.conditions, encoding='utf-8') as f:
            cond = f.read().rstrip()
        print(cond)
        print()
    print(report(pairs, na))
    if args.json:
        groups = summarize(pairs)
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump({'conditions': cond, 'na': na, 'pairs': pairs,
                       'summary': [{k: g[k] for k in (
                           'test', 'size', 'unit', 'higher_is_better',
                           'values', 'stats', 'ratio', 'faster', 'errors')}
                           for g in groups]}, f, indent=1)
    return 0 if pairs else 1


if __name__ == '__main__':
    sys.exit(main())
