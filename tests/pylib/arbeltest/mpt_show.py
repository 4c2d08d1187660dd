# SPDX-License-Identifier: GPL-2.0
"""Show the MPT entries the firmware holds, decoded field by field.

    python3 -m arbeltest.mpt_show [IFNAME]      (default arbel0; as root)

Reads the raw 64-byte entries with `rdma -j -r res show mr` (the driver
answers with QUERY_MPT, so this is the firmware's copy, not the driver's)
and decodes each with the table read from the PRM's own struct text
(arbeltest.prm), never from the driver's headers.  Reserved fields are
listed only when they are not zero, flagged: the PRM wants them zero.

Exit status: 0; 1 if a reserved field is not zero; 2 if `rdma` failed.
"""

import argparse
import sys

from . import prm, restrack

# What the fields mean, in short (the PRM's struct text has the long form).
MEANING = {
    'r_w': '1 = region, 0 = window',
    'pa': 'physical addresses, no translation',
    'lr': 'local read',
    'lw': 'local write',
    'rr': 'remote read',
    'rw': 'remote write',
    'a': 'remote atomic',
    'eb': 'memory-window bind enabled',
    'status': '0 = owned by the hardware',
    'page_size': 'pages of 4 KiB << page_size',
    'type': 'windows only',
    'qpn': 'windows only',
    'mem_key': 'the key as {key[7:0], key[31:8]}',
    'pd': 'protection domain',
    'ei': 'invalidation enabled',
    'zb': 'zero-based addresses',
    'fre': 'fast registration enabled',
    'rae': 'remote access may be enabled',
    'start_address_h': 'start address 63:32',
    'start_address_l': 'start address 31:0',
    'reg_wnd_len_h': 'length 63:32',
    'reg_wnd_len_l': 'length 31:0',
    'lkey': '0 when handed to the firmware',
    'win_cnt': 'windows bound to this region',
    'mtt_adr_h': 'MTT address 37:32',
    'mtt_adr_l': 'MTT address 31:3 (8-byte entries)',
    'mtt_sz': 'MTT entries allocated',
}


def _bits(fld):
    if fld.width % 32 == 0 and fld.width > 32:
        return f'dw{fld.dword}-{fld.dword + fld.width // 32 - 1}'
    if fld.width == 1:
        return f'dw{fld.dword} {fld.shift}'
    return f'dw{fld.dword} {fld.shift + fld.width - 1}:{fld.shift}'


def show_entry(image, out):
    """Print one 64-byte entry; return the names of non-zero reserved fields."""
    f = prm.decode(image)
    words = [image[i:i + 4].hex() for i in range(0, len(image), 4)]
    print(f'    raw: {" ".join(words[:8])}', file=out)
    print(f'         {" ".join(words[8:])}', file=out)
    bad = prm.reserved_nonzero(f)
    for fld in prm.layout():
        reserved = fld.name.startswith('reserved')
        if reserved and fld.name not in bad:
            continue
        note = '<-- reserved, must be 0' if reserved else \
            MEANING.get(fld.name, '')
        print(f'    {fld.name:<16} {_bits(fld):<10} = {f[fld.name]:#010x}  '
              f'{note}'.rstrip(), file=out)
    if not bad:
        print('    (every reserved field is 0)', file=out)
    page_kib = 4 << f['page_size']
    page = f'{page_kib >> 10} MiB' if page_kib >= 1024 else f'{page_kib} KiB'
    print(f'    => region of {prm.length(f)} bytes at '
          f'{prm.start_address(f):#x}, {page} pages, '
          f'MTT at ICM {prm.mtt_address(f):#x}, mem_key {f["mem_key"]:#x}',
          file=out)
    return bad


def main(argv=None, out=sys.stdout):
    """Command line: show the entries of one device."""
    ap = argparse.ArgumentParser(prog='python3 -m arbeltest.mpt_show',
                                 description=__doc__.split('\n')[0])
    ap.add_argument('ifname', nargs='?', default='arbel0')
    args = ap.parse_args(argv)
    try:
        entries = restrack.raw_mpts(args.ifname)
    except restrack.RdmaError as e:
        print(f'mpt_show: {e}', file=sys.stderr)
        return 2
    n = len(entries)
    print(f'{args.ifname}: {n} MPT entr{"y" if n == 1 else "ies"} '
          '(rdma -j -r res show mr: QUERY_MPT)', file=out)
    bad = 0
    for i, image in enumerate(entries, 1):
        print(f'\n  entry {i} of {n}', file=out)
        if show_entry(image, out):
            bad += 1
    if bad:
        print(f'\n{bad} entr{"y has" if bad == 1 else "ies have"} '
              'non-zero reserved fields', file=out)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
