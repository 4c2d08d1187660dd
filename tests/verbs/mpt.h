/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MPT entry, decoded straight from the seed
 * (shared/spec/arbelprm_mpt_st.txt): 16 big-endian dwords, fields listed
 * LSB-first within each dword.  Written for the tests from the seed only; it
 * shares nothing with the driver's include/arbel/ headers, so a packing bug
 * there cannot hide behind the same bug here.
 *
 *   dword 0   reserved0[8] r_w pa lr lw rr rw a eb reserved1[12] status[4]
 *   dword 1   page_size[5] reserved2[2] type qpn[24]
 *   dword 2   mem_key            ({key[7:0], key[31:8]}: the key rotated right by 8)
 *   dword 3   pd[24] reserved3 ei zb fre rae reserved4[3]
 *   dword 4,5 start_address_h, start_address_l
 *   dword 6,7 reg_wnd_len_h, reg_wnd_len_l
 *   dword 8   lkey               (0 in SW2HW_MPT)
 *   dword 9   win_cnt
 *   dword 10  reserved5
 *   dword 11  mtt_adr_h[6] (address bits 37:32) reserved6[26]
 *   dword 12  reserved7[3] mtt_adr_l[29] (address bits 31:3)
 *   dword 13  mtt_sz
 *   dword 14,15 reserved8
 */
#ifndef ARBEL_TEST_MPT_H
#define ARBEL_TEST_MPT_H

#include <stdint.h>

#define MPT_BYTES	64

struct mpt {
	uint32_t dw[16];		/* host order */
	/* dword 0 */
	unsigned int r_w, pa, lr, lw, rr, rw, a, eb, status;
	uint32_t rsvd0, rsvd1;		/* reserved0 (7:0), reserved1 (27:16) */
	/* dword 1 */
	unsigned int page_size, rsvd2, type;
	uint32_t qpn;
	/* dword 2 */
	uint32_t mem_key;
	/* dword 3 */
	uint32_t pd;
	unsigned int rsvd3, ei, zb, fre, rae, rsvd4;
	uint64_t start, length, mtt_adr;
	uint32_t lkey, win_cnt, mtt_sz, rsvd6, rsvd7;
};

static inline uint32_t mpt_bits(uint32_t v, unsigned int lo, unsigned int n)
{
	return n >= 32 ? v >> lo : (v >> lo) & ((1u << n) - 1);
}

static inline void mpt_decode(const uint8_t raw[MPT_BYTES], struct mpt *m)
{
	int i;

	for (i = 0; i < 16; i++)
		m->dw[i] = (uint32_t)raw[4 * i] << 24 |
			   (uint32_t)raw[4 * i + 1] << 16 |
			   (uint32_t)raw[4 * i + 2] << 8 | raw[4 * i + 3];
	m->rsvd0 = mpt_bits(m->dw[0], 0, 8);
	m->r_w = mpt_bits(m->dw[0], 8, 1);
	m->pa = mpt_bits(m->dw[0], 9, 1);
	m->lr = mpt_bits(m->dw[0], 10, 1);
	m->lw = mpt_bits(m->dw[0], 11, 1);
	m->rr = mpt_bits(m->dw[0], 12, 1);
	m->rw = mpt_bits(m->dw[0], 13, 1);
	m->a = mpt_bits(m->dw[0], 14, 1);
	m->eb = mpt_bits(m->dw[0], 15, 1);
	m->rsvd1 = mpt_bits(m->dw[0], 16, 12);
	m->status = mpt_bits(m->dw[0], 28, 4);
	m->page_size = mpt_bits(m->dw[1], 0, 5);
	m->rsvd2 = mpt_bits(m->dw[1], 5, 2);
	m->type = mpt_bits(m->dw[1], 7, 1);
	m->qpn = mpt_bits(m->dw[1], 8, 24);
	m->mem_key = m->dw[2];
	m->pd = mpt_bits(m->dw[3], 0, 24);
	m->rsvd3 = mpt_bits(m->dw[3], 24, 1);
	m->ei = mpt_bits(m->dw[3], 25, 1);
	m->zb = mpt_bits(m->dw[3], 26, 1);
	m->fre = mpt_bits(m->dw[3], 27, 1);
	m->rae = mpt_bits(m->dw[3], 28, 1);
	m->rsvd4 = mpt_bits(m->dw[3], 29, 3);
	m->start = (uint64_t)m->dw[4] << 32 | m->dw[5];
	m->length = (uint64_t)m->dw[6] << 32 | m->dw[7];
	m->lkey = m->dw[8];
	m->win_cnt = m->dw[9];
	m->rsvd6 = mpt_bits(m->dw[11], 6, 26);
	m->rsvd7 = mpt_bits(m->dw[12], 0, 3);
	m->mtt_adr = (uint64_t)mpt_bits(m->dw[11], 0, 6) << 32 |
		     (m->dw[12] & ~7u);
	m->mtt_sz = m->dw[13];
}

static inline uint32_t key_ror8(uint32_t key)
{
	return key >> 8 | key << 24;
}

#endif
