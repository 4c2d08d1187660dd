# SPDX-License-Identifier: GPL-2.0
"""The kernel's resource tracker as iproute2's `rdma` prints it, as JSON.

raw_mpts() asks for the raw MPT entries (`rdma -j -r res show mr`: the
driver answers with QUERY_MPT); mrs() for the tracked MRs with the driver's
attributes (`rdma -dd -j res show mr`).
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


def raw_mpts(ifname):
    """The raw 64-byte MPT entries of device ifname (a list of bytes)."""
    out = []
    for e in _rdma_json(['-r', 'res', 'show', 'mr']):
        if e.get('ifname') != ifname:
            continue
        data = e.get('data')
        if not isinstance(data, list) or len(data) != 64:
            raise RdmaError(f'an entry without 64 bytes of "data": {e}')
        out.append(bytes(data))
    return out


def mrs(ifname):
    """The tracked MRs of device ifname with driver attributes (dicts)."""
    return [e for e in _rdma_json(['-dd', 'res', 'show', 'mr'])
            if e.get('ifname') == ifname]
