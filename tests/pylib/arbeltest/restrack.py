# SPDX-License-Identifier: GPL-2.0
"""The kernel's resource tracker as iproute2's `rdma` prints it, as JSON.

raw_mpts() asks for the raw MPT entries (`rdma -j -r res show mr`: the
driver answers with QUERY_MPT); mrs() for the tracked MRs with the driver's
attributes (`rdma -dd -j res show mr`); summary() for the count of each
type; kernel_owned() for the count of each type the kernel's own consumers
(the MAD layer, IPoIB, ...) hold; number() and driver_attr() read their
fields.
"""

import json
import subprocess


class RdmaError(Exception):
    """`rdma` failed or printed something that is not the expected JSON."""


def _rdma_json(args):
    p = subprocess.run(['rdma', '-j'] + args, capture_output=True, text=True,
                       check=False)
    if p.returncode != 0:
        raise RdmaError(f'rdma -j {" ".join(args)}: exit {p.returncode}: '
                        f'{(p.stderr or p.stdout).strip()[:300]}')
    try:
        return json.loads(p.stdout or '[]')
    except json.JSONDecodeError as e:
        raise RdmaError(f'rdma -j {" ".join(args)}: not JSON ({e}): '
                        f'{p.stdout[:300]}') from e


def parse_raw_mpts(entries, ifname):
    """The raw 64-byte MPT entries of ifname in `rdma -j -r res show mr`'s
    decoded JSON (a list of bytes)."""
    out = []
    for e in entries:
        if e.get('ifname') != ifname:
            continue
        data = e.get('data')
        if not isinstance(data, list) or len(data) != 64:
            raise RdmaError(f'an entry without 64 bytes of "data": {e}')
        out.append(bytes(data))
    return out


def raw_mpts(ifname):
    """The raw 64-byte MPT entries of device ifname (a list of bytes)."""
    return parse_raw_mpts(_rdma_json(['-r', 'res', 'show', 'mr']), ifname)


def mrs(ifname):
    """The tracked MRs of device ifname with driver attributes (dicts)."""
    return [e for e in _rdma_json(['-dd', 'res', 'show', 'mr'])
            if e.get('ifname') == ifname]


def parse_summary(entries, ifname):
    """The counts per type of ifname in `rdma -j res show`'s decoded JSON
    (pd, mr, ctx, cq, qp, ...), {} if it is not there."""
    for e in entries:
        if e.get('ifname') == ifname:
            return {k: v for k, v in e.items()
                    if k not in ('ifindex', 'ifname') and isinstance(v, int)}
    return {}


def summary(ifname):
    """The count of tracked objects per type of device ifname."""
    return parse_summary(_rdma_json(['res', 'show']), ifname)


KERNEL_TYPES = ('pd', 'mr', 'cq', 'qp', 'srq')


def parse_kernel_owned(entries, ifname):
    """The entries of ifname in `rdma -j res show <type>`'s decoded JSON
    that the kernel owns: iproute2 prints a "pid" only for an object a
    process created (a kernel object's "comm" is its owner's name)."""
    return [e for e in entries
            if e.get('ifname') == ifname and 'pid' not in e]


def kernel_owned(ifname):
    """The count of kernel-owned objects of device ifname per type (pd, mr,
    cq, qp, srq)."""
    return {t: len(parse_kernel_owned(_rdma_json(['res', 'show', t]),
                                      ifname))
            for t in KERNEL_TYPES}


def number(value, hex_string=False):
    """A JSON number, or a string holding one, as int; None if neither.

    `rdma -j` prints keys as hex strings (with or without "0x": hex_string
    selects base 16 for strings), counters as numbers.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value:
        try:
            return int(value, 16 if hex_string else 0)
        except ValueError:
            return None
    return None


def driver_attr(entry, name):
    """A driver attribute of an `rdma -dd -j` entry: name or drv_name."""
    if name in entry:
        return entry[name]
    return entry.get('drv_' + name)
