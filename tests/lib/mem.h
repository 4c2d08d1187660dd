/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/lib/mem.h - user memory as a device sees it: physical addresses
 * from /proc/self/pagemap, buffers on 4 KiB, transparent huge or hugetlbfs
 * pages, the hugetlb pool, and locked pages for DMA.
 *
 * Physical addresses are only visible to root (CAP_SYS_ADMIN); for others
 * pagemap reports 0 and so do the functions here.
 */
#ifndef ARBEL_TESTS_MEM_H
#define ARBEL_TESTS_MEM_H

#include <stddef.h>
#include <stdint.h>

#define ARBEL_PAGE_SIZE		4096ul
#define ARBEL_HUGE_PAGE_SIZE	(2ul << 20)	/* x86_64 PMD size */

enum arbel_page_kind {
	ARBEL_PAGES_4K,		/* MADV_NOHUGEPAGE: 4 KiB pages only */
	ARBEL_PAGES_THP,	/* MADV_HUGEPAGE, 2 MiB aligned */
	ARBEL_PAGES_HUGETLB,	/* MAP_HUGETLB from the hugetlb pool */
};

/**
 * arbel_virt_to_phys() - physical address of a byte of this process
 * @p: the byte; its page must be present (touched, or locked)
 *
 * Return: the physical address, or 0 if the page is not present, the PFN
 * is hidden (not root) or pagemap cannot be read.
 */
uint64_t arbel_virt_to_phys(const void *p);

/**
 * arbel_alloc_buf() - a buffer on pages of one kind, every page touched
 * @len: bytes (rounded up to whole pages of @kind)
 * @kind: the backing
 *
 * The buffer starts on a 2 MiB boundary for every kind, so that a huge
 * page can back it and so that its layout does not depend on where mmap
 * put it.  Every page is written (zero-filled): pages are present and none
 * is the shared zero page.  A THP buffer gets huge pages only if the
 * kernel has them to give; check with arbel_virt_to_phys() if it matters.
 *
 * Return: the buffer, or NULL with errno set (ENOMEM for an empty hugetlb
 * pool).
 */
void *arbel_alloc_buf(size_t len, enum arbel_page_kind kind);

/**
 * arbel_free_buf() - free a buffer of arbel_alloc_buf()
 * @p: the buffer (NULL is ignored)
 * @len: the length it was allocated with
 * @kind: the kind it was allocated with
 */
void arbel_free_buf(void *p, size_t len, enum arbel_page_kind kind);

/**
 * arbel_hugetlb_pages() - vm.nr_hugepages now
 *
 * Return: the number of pages in the hugetlb pool, -1 if unreadable.
 */
long arbel_hugetlb_pages(void);

/**
 * arbel_hugetlb_reserve() - set vm.nr_hugepages (root)
 * @want: pages wanted in the pool
 *
 * The kernel may give fewer (fragmented memory).
 *
 * Return: the pool's size afterwards, -1 if unreadable.
 */
long arbel_hugetlb_reserve(long want);

/* A locked 4 KiB page and its physical address. */
struct arbel_dma_page {
	uint8_t *va;
	uint64_t pa;
};

/**
 * arbel_dma_pages() - @n locked, zeroed 4 KiB pages with their addresses
 * @pages: array of @n, filled in
 * @n: how many
 *
 * The pages are not physically contiguous: each is a DMA buffer of its own.
 * They stay mapped and locked until the program exits.  Dies if they
 * cannot be had or their physical addresses are hidden (not root).
 */
void arbel_dma_pages(struct arbel_dma_page *pages, size_t n);

#endif /* ARBEL_TESTS_MEM_H */
