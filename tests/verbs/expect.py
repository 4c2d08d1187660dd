# SPDX-License-Identifier: GPL-2.0
"""What the verbs tests expect of a registration, computed without the driver.

Pure functions (no device, no pyverbs), checked on the host by
tests/verbs/test_expect.py:
- the page sizes a buffer's physical layout allows (pages_spanned,
  page_size_valid, acceptable_page_shifts);
- the key as the MPT stores it (mem_key_of) and the slot it names (slot_of);
- mpt_problems(): an MPT entry decoded with arbeltest.prm against what was
  asked, one message per wrong field.
"""

from arbeltest import prm

PAGE_SHIFT = 12
PAGE_SIZE = 1 << PAGE_SHIFT
# the MPT's page_size field: 2^page_size * 4 KiB, page_size below 20
PAGE_SIZE_FIELD_LIMIT = 20
# MTT entries are 8 bytes; the first 16 are reserved (the driver's
# reserved MTT segment, Documentation/arbel-hw.rst)
MTT_ENTRY_SIZE = 8
MTT_RESERVED_ENTRIES = 16


def pages_spanned(start, length, shift):
    """How many 2^shift pages [start, start + length) touches."""
    return ((start + length - 1) >> shift) - (start >> shift) + 1


def page_size_valid(start, length, pa, shift):
    """Can a 2^shift page size map [start, start + length)?

    pa[i] is the physical address of the 4 KiB page holding
    floor4k(start) + i * 4 KiB.  The HCA computes, for an access at va,
    MTT[(va - floor_P(start)) / P] + va % P, so every 4 KiB page of one
    P-chunk must have the same pa - va, and that difference must be
    P-aligned.
    """
    size = 1 << shift
    va0 = start & ~(PAGE_SIZE - 1)
    chunk = delta = None
    for i in range(pages_spanned(start, length, PAGE_SHIFT)):
        va = va0 + i * PAGE_SIZE
        if not pa[i]:
            return False
        d = (pa[i] - va) & 0xffffffffffffffff
        if d & (size - 1):
            return False
        if va >> shift != chunk:
            chunk, delta = va >> shift, d
        elif d != delta:
            return False
    return True


def acceptable_page_shifts(start, length, pa, cap):
    """The page sizes a driver that "chooses the largest page size that
    fits the buffer's layout" may write: every valid size (bit s of cap
    allows 2^s bytes, s 12..31) needing the fewest MTT entries
    (ib_umem_find_best_pgsz picks the smallest of them).

    Returns (mask of acceptable sizes, the smallest of them as a shift;
    12 if none).
    """
    valid = [s for s in range(PAGE_SHIFT, 32)
             if cap & (1 << s) and page_size_valid(start, length, pa, s)]
    if not valid:
        return 0, PAGE_SHIFT
    fewest = min(pages_spanned(start, length, s) for s in valid)
    best = [s for s in valid if pages_spanned(start, length, s) == fewest]
    return sum(1 << s for s in best), min(best)


def mem_key_of(key):
    """The MPT's mem_key for a verbs key: the PRM's {key[7:0], key[31:8]},
    read as the key rotated right by 8 bits (key[7:0] on top)."""
    return ((key >> 8) | (key << 24)) & 0xffffffff


def slot_of(key, num_mpts):
    """The MPT slot a key names: its bits above the 8-bit tag."""
    return (key >> 8) & (num_mpts - 1)


def mtt_span(fields):
    """[first, end) bytes of the MTT entries an MPT entry uses."""
    start = prm.mtt_address(fields)
    n = pages_spanned(prm.start_address(fields), prm.length(fields),
                      fields['page_size'] + PAGE_SHIFT)
    return start, start + MTT_ENTRY_SIZE * n


def mpt_problems(f, want):
    """Messages for every field of decoded MPT f that is not what want says.

    want: start, length, pd, key, lw, rr, rw, a, eb (bools), pa (4 KiB page
    addresses of the buffer), cap (allowed page sizes), mtt_base, mtt_end,
    kind (for messages).
    """
    out = []

    def bad(cond, msg):
        if not cond:
            out.append(msg)

    bad(f['r_w'] == 1, f"r_w {f['r_w']}, want 1 (region)")
    bad(f['pa'] == 0, f"pa {f['pa']}, want 0 (translated)")
    bad(f['lr'] == 1, f"lr {f['lr']}, want 1")
    for flag in ('lw', 'rr', 'rw', 'a', 'eb'):
        bad(f[flag] == int(want[flag]), f'{flag} {f[flag]}, want {int(want[flag])}')
    bad(f['status'] == 0, f"status {f['status']:#x}, want 0 (hardware-owned)")
    bad(f['type'] == 0 and f['qpn'] == 0,
        f"type {f['type']} qpn {f['qpn']:#x}, want 0 0")
    rsv = prm.reserved_nonzero(f)
    bad(not rsv, 'reserved fields set: ' +
        ', '.join(f'{n}={f[n]:#x}' for n in rsv))
    bad(f['mem_key'] == mem_key_of(want['key']),
        f"mem_key {f['mem_key']:#x}, key {want['key']:#x}")
    bad(f['pd'] == want['pd'], f"pd {f['pd']}, want {want['pd']}")
    bad(f['zb'] == 0, f"zb {f['zb']}, want 0 (VA-based)")
    bad(prm.start_address(f) == want['start'],
        f"start {prm.start_address(f):#x}, want {want['start']:#x}")
    bad(prm.length(f) == want['length'],
        f"length {prm.length(f):#x}, want {want['length']:#x}")
    bad(f['lkey'] == 0 and f['win_cnt'] == 0,
        f"lkey field {f['lkey']:#x} win_cnt {f['win_cnt']}, want 0 0")
    mask, best = acceptable_page_shifts(want['start'], want['length'],
                                        want['pa'], want['cap'])
    shift = f['page_size'] + PAGE_SHIFT
    bad(mask >> shift & 1,
        f"page_size {f['page_size']} ({4 << f['page_size']} KiB), want "
        f"{best - PAGE_SHIFT} ({1 << (best - 10)} KiB) for this "
        f"{want.get('kind', '?')} layout (acceptable mask {mask >> 12:#x})")
    lo, hi = mtt_span(f)
    floor = want['mtt_base'] + MTT_ENTRY_SIZE * MTT_RESERVED_ENTRIES
    bad(lo % MTT_ENTRY_SIZE == 0 and lo >= floor and hi <= want['mtt_end'],
        f'MTT [{lo:#x}, {hi:#x}) not inside the MTT area above the reserved '
        f"entries [{floor:#x}, {want['mtt_end']:#x})")
    return out
