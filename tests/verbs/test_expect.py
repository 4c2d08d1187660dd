# SPDX-License-Identifier: GPL-2.0
"""Host-side goldens of expect.py (run by judge.py): page-size choice on
hand-made physical layouts, page counts, the key as the MPT stores it, and
mpt_problems() on a hand-made entry.  Expected values are worked out by
hand."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'pylib'))

import expect  # noqa: E402  pylint: disable=wrong-import-position
from arbeltest import prm, trace  # noqa: E402  pylint: disable=wrong-import-position
import judge  # noqa: E402  pylint: disable=wrong-import-position

KiB, MiB, PG = 1 << 10, 1 << 20, 4096
VA = 0x7f0000000000
CAP_ALL = 0xfffff000            # 4 KiB .. 2 GiB


def contiguous(base, n):
    return [base + i * PG for i in range(n)]


class PageSize(unittest.TestCase):

    def test_4m_contiguous_aligned(self):
        """4 MiB contiguous, aligned -> 4 MiB pages (1 entry)."""
        mask, best = expect.acceptable_page_shifts(
            VA, 4 * MiB, contiguous(0x40000000, 1024), CAP_ALL)
        self.assertEqual(best, 22)
        self.assertFalse(mask & 1 << 21)
        self.assertTrue(mask & 1 << 22)

    def test_cap_4k_2m(self):
        """Same with a 4K|2M cap -> 2 MiB pages."""
        self.assertEqual(expect.acceptable_page_shifts(
            VA, 4 * MiB, contiguous(0x40000000, 1024), 0x201000),
            (0x200000, 21))

    def test_two_separate_huge_pages(self):
        """Two separate huge pages -> 2 MiB."""
        pa = contiguous(0x40000000, 512) + contiguous(0x80000000, 512)
        self.assertEqual(expect.acceptable_page_shifts(VA, 4 * MiB, pa,
                                                       CAP_ALL), (0x200000, 21))

    def test_scattered_4k(self):
        """Scattered 4 KiB pages -> 4 KiB."""
        self.assertEqual(expect.acceptable_page_shifts(
            VA, 8 * KiB, [0x40000000, 0x9000], CAP_ALL), (0x1000, 12))

    def test_misaligned_contiguous(self):
        """Contiguous pages at an odd page -> 4 KiB."""
        self.assertEqual(expect.acceptable_page_shifts(
            VA, 8 * KiB, [0x40001000, 0x40002000], CAP_ALL), (0x1000, 12))

    def test_one_byte(self):
        """1 byte -> 4 KiB (larger sizes also need one entry)."""
        mask, best = expect.acceptable_page_shifts(VA + 7, 1, [0x40000000],
                                                   CAP_ALL)
        self.assertEqual(best, 12)
        self.assertTrue(mask & 0x1000 and mask & 1 << 30)

    def test_absent_page(self):
        """A page without a physical address fits no size."""
        self.assertEqual(expect.acceptable_page_shifts(VA, PG, [0], CAP_ALL),
                         (0, 12))

    def test_page_counts(self):
        self.assertEqual((expect.pages_spanned(0x1fff, 2, 12),
                          expect.pages_spanned(0x1000, 0x1000, 12),
                          expect.pages_spanned(0x1234, 3 * MiB, 21)), (2, 1, 2))


class Keys(unittest.TestCase):

    def test_mem_key_is_key_rotated_right_by_8(self):
        """The key rotated right by 8 bits: {key[7:0], key[31:8]}."""
        self.assertEqual((expect.mem_key_of(0x23456701),
                          expect.mem_key_of(0x00001100)), (0x01234567, 0x11))

    def test_slot(self):
        # 0x23456701 >> 8 = 0x234567; its low 17 bits: 0x14567
        self.assertEqual(expect.slot_of(0x23456701, 1 << 17), 0x14567)


class MptProblems(unittest.TestCase):
    """mpt_problems() on image 1 of test_prm with status 0 (start
    0x7f12_34567000, 2 MiB, page_size 9 = 2 MiB pages, pd 7, lr lw rr a,
    MTT at 0x1_00402008)."""

    def setUp(self):
        self.f = prm.decode(bytes.fromhex(
            '00005d0000000009000123450000000700007f1234567000'
            '0000000000200000' + '00' * 12 + '0000000100402008'
            '00000001' + '00' * 8))
        self.want = {'start': 0x7f1234567000, 'length': 0x200000, 'pd': 7,
                     'key': 0x01234500, 'lw': 1, 'rr': 1, 'rw': 0, 'a': 1,
                     'eb': 0, 'pa': contiguous(0x40000000, 512),
                     'cap': CAP_ALL, 'mtt_base': 0x100000000,
                     'mtt_end': 0x200000000, 'kind': 'hugetlb'}

    def test_matches(self):
        """Moved to a 2 MiB-aligned start: the entry is what was asked."""
        self.want['start'] = 0x7f1234400000
        self.f['start_address_l'] = 0x34400000
        self.assertEqual(expect.mpt_problems(self.f, self.want), [])

    def test_page_size_wrong(self):
        """2 MiB pages for a region that is not 2 MiB-aligned: refused."""
        probs = expect.mpt_problems(self.f, self.want)
        self.assertEqual(len(probs), 1)
        self.assertIn('page_size 9', probs[0])

    def test_each_field(self):
        self.want['start'] = 0x7f1234400000
        self.f['start_address_l'] = 0x34400000
        for field, value, word in (('rw', 1, 'rw'), ('status', 0xf, 'status'),
                                   ('reserved7', 1, 'reserved'),
                                   ('mem_key', 1, 'mem_key'), ('pd', 8, 'pd'),
                                   ('zb', 1, 'zb'), ('lkey', 1, 'lkey'),
                                   ('mtt_adr_h', 0, 'MTT')):
            with self.subTest(field=field):
                f = dict(self.f, **{field: value})
                probs = expect.mpt_problems(f, self.want)
                self.assertEqual(len(probs), 1, probs)
                self.assertIn(word, probs[0])


def _cmd(seq, name, op, slot, status=0):
    return trace.parse_line(
        f'#{seq} {name} op={op:#x} op_mod=0 in_mod={slot:#x} in_param=0x0 '
        f'out_param=0x0 token=0x0 status={status:#04x}(X)')


class LiveMpts(unittest.TestCase):
    """judge.live_mpts() on hand-made traces: a slot is hardware-owned from
    its SW2HW_MPT to its HW2SW_MPT or the next RESET."""

    def test_balanced(self):
        """SW2HW 0x10, 0x11, HW2SW both: nothing live, no problem."""
        e = [_cmd(1, 'SW2HW_MPT', 0xd, 0x10), _cmd(2, 'SW2HW_MPT', 0xd, 0x11),
             _cmd(3, 'HW2SW_MPT', 0xf, 0x11), _cmd(4, 'HW2SW_MPT', 0xf, 0x10)]
        self.assertEqual(judge.live_mpts(e), ([], 0))

    def test_reset_takes_all_back(self):
        """A RESET ends every live entry; a refused HW2SW_MPT does not."""
        e = [_cmd(1, 'SW2HW_MPT', 0xd, 0x10),
             _cmd(2, 'HW2SW_MPT', 0xf, 0x10, status=6),
             trace.parse_line('#3 RESET'), _cmd(4, 'SW2HW_MPT', 0xd, 0x10),
             _cmd(5, 'HW2SW_MPT', 0xf, 0x10)]
        self.assertEqual(judge.live_mpts(e), ([], 0))

    def test_shared_slot(self):
        """SW2HW_MPT to a slot still live is a problem (two regions, one
        slot), as is one left live at the end."""
        e = [_cmd(1, 'SW2HW_MPT', 0xd, 0x10), _cmd(2, 'SW2HW_MPT', 0xd, 0x10)]
        problems, live = judge.live_mpts(e)
        self.assertEqual(len(problems), 1)
        self.assertEqual(live, 1)

    def test_hw2sw_of_free_slot(self):
        """HW2SW_MPT of a slot that is not live is a problem."""
        problems, live = judge.live_mpts([_cmd(1, 'HW2SW_MPT', 0xf, 0x12)])
        self.assertEqual((len(problems), live), (1, 0))

    def test_plugged_again(self):
        """A device plugged again appends its trace, numbered from 1: it
        owns nothing the one before owned."""
        e = [_cmd(7, 'SW2HW_MPT', 0xd, 0x10), _cmd(1, 'SW2HW_MPT', 0xd, 0x10)]
        self.assertEqual(judge.live_mpts(e), ([], 1))


class ResetFollows(unittest.TestCase):
    """judge._reset_follows(): the next event of the same device after a
    refused teardown command is a RESET."""

    def test_reset_next(self):
        e = [_cmd(8, 'CLOSE_HCA', 0x8, 0, status=6),
             trace.parse_line('#9 RESET'), _cmd(10, 'QUERY_FW', 0x4, 0)]
        self.assertTrue(judge._reset_follows(e, e[0]))

    def test_command_first(self):
        e = [_cmd(8, 'CLOSE_HCA', 0x8, 0, status=6),
             _cmd(9, 'UNMAP_FA', 0xffe, 0), trace.parse_line('#10 RESET')]
        self.assertFalse(judge._reset_follows(e, e[0]))

    def test_order_is_the_files(self):
        """Events of a device plugged in before, numbered higher, come
        earlier in the file and do not count."""
        e = [_cmd(500, 'QUERY_FW', 0x4, 0),
             _cmd(8, 'CLOSE_HCA', 0x8, 0, status=6),
             trace.parse_line('#9 RESET')]
        self.assertTrue(judge._reset_follows(e, e[1]))

    def test_another_devices_reset(self):
        """The RESET of a device plugged in after is not this one's."""
        e = [_cmd(300, 'CLOSE_HCA', 0x8, 0, status=6),
             trace.parse_line('#1 RESET')]
        self.assertFalse(judge._reset_follows(e, e[0]))

if __name__ == '__main__':
    unittest.main()
