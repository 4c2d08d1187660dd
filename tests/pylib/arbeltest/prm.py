# SPDX-License-Identifier: GPL-2.0
"""The MPT entry as the PRM defines it, read from the PRM's own struct text.

tests/data/arbelprm_mpt_st.txt is a copy of the PRM's arbelprm_mpt_st:
fields are listed least significant bit first inside each 32-bit dword,
each as "name[0xWIDTH]"; the 16 dwords of the 64-byte entry are big-endian.
Nothing here comes from the driver's headers, so a wrong prm.h cannot agree
with itself.
"""

import re
import struct

from . import paths

FIELD_RE = re.compile(r'^\s*(\w+)\[0x([0-9a-fA-F]+)\]\s+pseudo_bit_t')
MPT_ENTRY_SIZE = 64


class Field:
    """One field: its dword, first bit inside it and width in bits."""

    def __init__(self, name, dword, shift, width):
        self.name = name
        self.dword = dword
        self.shift = shift
        self.width = width

    def __repr__(self):
        return f'Field({self.name}, dword {self.dword}, bits ' \
               f'{self.shift + self.width - 1}:{self.shift})'


def load_layout(path=None):
    """Read the struct text; return the fields in order (a list of Field)."""
    fields = []
    bit = 0
    with open(path or paths.data_file('arbelprm_mpt_st.txt'),
              encoding='utf-8') as f:
        for line in f:
            m = FIELD_RE.match(line)
            if not m:
                continue
            width = int(m.group(2), 16)
            if bit // 32 != (bit + width - 1) // 32 and width % 32:
                raise ValueError(f'{m.group(1)} crosses a dword boundary')
            fields.append(Field(m.group(1), bit // 32, bit % 32, width))
            bit += width
    if bit != MPT_ENTRY_SIZE * 8:
        raise ValueError(f'the struct has {bit} bits, not {MPT_ENTRY_SIZE * 8}')
    return fields


_LAYOUT = None


def layout():
    """The fields of arbelprm_mpt_st, read once."""
    global _LAYOUT
    if _LAYOUT is None:
        _LAYOUT = load_layout()
    return _LAYOUT


def decode(image):
    """Decode a 64-byte MPT entry: {field name: value}, reserved included."""
    if len(image) != MPT_ENTRY_SIZE:
        raise ValueError(f'an MPT entry is {MPT_ENTRY_SIZE} bytes, '
                         f'not {len(image)}')
    dwords = struct.unpack('>16I', bytes(image))
    out = {}
    for fld in layout():
        if fld.width % 32 == 0:
            value = 0
            for i in range(fld.width // 32):
                value = (value << 32) | dwords[fld.dword + i]
            out[fld.name] = value
        else:
            out[fld.name] = (dwords[fld.dword] >> fld.shift) & \
                ((1 << fld.width) - 1)
    return out


def encode(values):
    """Build a 64-byte entry from {field name: value} (others zero)."""
    dwords = [0] * 16
    by_name = {f.name: f for f in layout()}
    for name, value in values.items():
        fld = by_name[name]
        if value >> fld.width:
            raise ValueError(f'{name}: {value:#x} does not fit {fld.width} bits')
        if fld.width % 32 == 0:
            for i in range(fld.width // 32):
                shift = fld.width - 32 * (i + 1)
                dwords[fld.dword + i] = (value >> shift) & 0xffffffff
        else:
            dwords[fld.dword] |= value << fld.shift
    return struct.pack('>16I', *dwords)


def start_address(fields):
    """The 64-bit start address."""
    return (fields['start_address_h'] << 32) | fields['start_address_l']


def length(fields):
    """The 64-bit region length."""
    return (fields['reg_wnd_len_h'] << 32) | fields['reg_wnd_len_l']


def mtt_address(fields):
    """The MTT address: mtt_adr_h is bits 37:32, mtt_adr_l bits 31:3."""
    return (fields['mtt_adr_h'] << 32) | (fields['mtt_adr_l'] << 3)


def reserved_nonzero(fields):
    """Names of reserved fields that are not zero."""
    return [n for n, v in fields.items() if n.startswith('reserved') and v]
