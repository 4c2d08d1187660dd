# SPDX-License-Identifier: GPL-2.0
"""`ibv_devinfo -v` of arbel0 beside mthca0 on the same stub, field by
field (issue 28): every field equal but the ones DIFFERENT lists, each
with why; each of those must differ as it says, so the list stays true.

Pure (no device): traffic_guest.py runs compare() in the arbel-traffic
stage's VM, tests/pylib/tests/test_devinfo_compare.py tests it on the
host.  Documentation/arbel.rst ("Queues") gives the same list.
"""

import re

# One field of ibv_devinfo -v: "<tabs>name:<tabs>value"; a capability
# line after device_cap_flags has no colon (its flag's name).
FIELD_RE = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_ ]*?|GID\[\s*\d+\]):\s*(.*)$')

IB_DEVICE_MEM_MGT_EXTENSIONS = 1 << 21  # ib_verbs.h (IB_UVERBS_DEVICE_...)
ARBEL_SPECIAL_QPS = 8                   # the block kept for QP0 and QP1
ARBEL_MCGS = 16                         # the profile's MCG table entries
ARBEL_MGM_QPS = 56                      # QPs one MGM entry holds (PRM)


def _cap_diff(a, m):
    a, m = int(a, 16), int(m, 16)
    return (a & ~m, m & ~a) == (IB_DEVICE_MEM_MGT_EXTENSIONS, 0)


def _int(v):
    return int(v, 0)


# field -> (why arbel0 differs, the test its values pass: (arbel, mthca))
DIFFERENT = {
    'hca_id': ('the device name', lambda a, m: (a, m) == ('arbel0', 'mthca0')),
    'max_mr_size': ("QUERY_DEV_LIM's 2^36 (ib_mthca claims 2^64 - 1)",
                    lambda a, m: _int(a) == 1 << 36 and _int(m) == 2**64 - 1),
    'max_qp': (f'the {ARBEL_SPECIAL_QPS} QPs kept for the special QPs are '
               'not counted', lambda a, m: _int(m) - _int(a) ==
               ARBEL_SPECIAL_QPS),
    'max_res_rd_atom': ('4 a QP, over max_qp (so 32 fewer)',
                        lambda a, m: _int(m) - _int(a) ==
                        4 * ARBEL_SPECIAL_QPS),
    'device_cap_flags': ('MEM_MGT_EXTENSIONS claimed: fast registration '
                         '(issue 29); every other flag as ib_mthca\'s',
                         _cap_diff),
    'device_cap_flags_ex': ('the same', _cap_diff),
    'capabilities': ('the same: MEM_MGT_EXTENSIONS only in arbel\'s list',
                     lambda a, m: (set(m.split(', ')) - set(a.split(', ')),
                                   set(a.split(', ')) - set(m.split(', ')))
                     == (set(), {'MEM_MGT_EXTENSIONS'})),
    'max_mr': ("the event queue's ring MPT (event mode) is not counted",
               lambda a, m: _int(m) - _int(a) == 1),
    'max_pd': ("QUERY_DEV_LIM's, less the reserved (ib_mthca's profile: "
               '2^15 - 1)', lambda a, m: _int(a) > _int(m)),
    'max_mcast_grp': (f'what arbel\'s MCG table holds ({ARBEL_MCGS} '
                      'entries: 8 hashed, 8 overflow; ib_mthca: 8192)',
                      lambda a, m: _int(a) == ARBEL_MCGS),
    'max_total_mcast_qp_attach': (f'{ARBEL_MCGS} entries x {ARBEL_MGM_QPS} '
                                  'QPs', lambda a, m: _int(a) == ARBEL_MCGS *
                                  ARBEL_MGM_QPS),
    'max_srq_wr': ('libmthca keeps one WQE empty: an SRQ of 2^16 would need '
                   '2^17', lambda a, m: _int(m) - _int(a) == 1),
}


def parse(text):
    """{field: value} of `ibv_devinfo -v` for one device; a port's fields
    as "port N name"; device_cap_flags' names joined in 'capabilities'."""
    out, port, caps, in_caps = {}, None, [], False
    for line in text.splitlines():
        if not line.strip():
            continue
        m = FIELD_RE.match(line)
        if not m:
            if in_caps:
                caps.append(line.strip())
            continue
        name, value = m.group(1).strip(), m.group(2).strip()
        in_caps = name == 'device_cap_flags'
        if name == 'port':
            port = value
            continue
        out[f'port {port} {name}' if port else name] = value
    if caps:
        out['capabilities'] = ', '.join(caps)
    return out


def compare(arbel_text, mthca_text):
    """(problems, notes): problems, the fields that differ without a
    reason, or that DIFFERENT says differ and do not as it says; notes,
    each listed difference with its values and reason."""
    a, m = parse(arbel_text), parse(mthca_text)
    problems, notes = [], []
    if not a or not m:
        return ['no fields parsed: ' + ('arbel' if not a else 'mthca')], []
    for key in sorted(set(a) | set(m)):
        va, vm = a.get(key), m.get(key)
        if key in DIFFERENT:
            why, test = DIFFERENT[key]
            if va is None or vm is None or not test(va, vm):
                problems.append(f'{key}: arbel {va!r}, mthca {vm!r}: not as '
                                f'listed ({why})')
            else:
                notes.append(f'{key}: arbel {va}, mthca {vm}: {why}')
        elif va != vm:
            problems.append(f'{key}: arbel {va!r}, mthca {vm!r}')
    return problems, notes


def rdma_caps(text):
    """The capability names `rdma -d dev show DEV` prints ("caps: <A, B>"),
    as a set; None when there is no such line."""
    m = re.search(r'caps: <([^>]*)>', text)
    return None if m is None else {c.strip() for c in m.group(1).split(',')
                                   if c.strip()}
