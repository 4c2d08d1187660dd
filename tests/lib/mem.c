// SPDX-License-Identifier: GPL-2.0
/*
 * tests/lib/mem.c - pagemap, buffers by page kind, hugetlb pool, DMA pages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mem.h"
#include "util.h"

#define PAGEMAP_PRESENT		(1ull << 63)
#define PAGEMAP_PFN_MASK	((1ull << 55) - 1)
#define NR_HUGEPAGES		"/proc/sys/vm/nr_hugepages"

static size_t round_up(size_t len, size_t to)
{
	return (len + to - 1) & ~(to - 1);
}

uint64_t arbel_virt_to_phys(const void *p)
{
	static int fd = -1;
	uintptr_t va = (uintptr_t)p;
	uint64_t ent;

	if (fd < 0)
		fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (pread(fd, &ent, sizeof(ent),
		  (off_t)(va / ARBEL_PAGE_SIZE * sizeof(ent))) != sizeof(ent))
		return 0;
	if (!(ent & PAGEMAP_PRESENT) || !(ent & PAGEMAP_PFN_MASK))
		return 0;
	return (ent & PAGEMAP_PFN_MASK) * ARBEL_PAGE_SIZE + va % ARBEL_PAGE_SIZE;
}

static size_t buf_map_len(size_t len, enum arbel_page_kind kind)
{
	return round_up(len ? len : 1, kind == ARBEL_PAGES_HUGETLB ?
			ARBEL_HUGE_PAGE_SIZE : ARBEL_PAGE_SIZE);
}

void *arbel_alloc_buf(size_t len, enum arbel_page_kind kind)
{
	size_t maplen = buf_map_len(len, kind), head;
	uint8_t *raw, *p;

	if (kind == ARBEL_PAGES_HUGETLB) {
		p = mmap(NULL, maplen, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
	} else {
		/* over-allocate, keep the 2 MiB-aligned part, unmap the rest */
		raw = mmap(NULL, maplen + ARBEL_HUGE_PAGE_SIZE,
			   PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (raw == MAP_FAILED)
			return NULL;
		p = (uint8_t *)round_up((uintptr_t)raw, ARBEL_HUGE_PAGE_SIZE);
		head = p - raw;
		if (head)
			munmap(raw, head);
		if (ARBEL_HUGE_PAGE_SIZE - head)
			munmap(p + maplen, ARBEL_HUGE_PAGE_SIZE - head);
		if (madvise(p, maplen, kind == ARBEL_PAGES_THP ?
			    MADV_HUGEPAGE : MADV_NOHUGEPAGE)) {
			int err = errno;

			munmap(p, maplen);
			errno = err;
			return NULL;
		}
	}
	memset(p, 0, maplen);	/* every page present, none the zero page */
	return p;
}

void arbel_free_buf(void *p, size_t len, enum arbel_page_kind kind)
{
	if (p)
		munmap(p, buf_map_len(len, kind));
}

long arbel_hugetlb_pages(void)
{
	long n = -1;
	FILE *f;

	f = fopen(NR_HUGEPAGES, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

long arbel_hugetlb_reserve(long want)
{
	FILE *f;

	f = fopen(NR_HUGEPAGES, "w");
	if (f) {
		fprintf(f, "%ld\n", want);
		fclose(f);
	}
	return arbel_hugetlb_pages();
}

void arbel_dma_pages(struct arbel_dma_page *pages, size_t n)
{
	size_t len = n * ARBEL_PAGE_SIZE, i;
	uint8_t *mem;

	mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (mem == MAP_FAILED)
		arbel_die("mmap %zu DMA pages: %s", n, strerror(errno));
	if (mlock(mem, len))
		arbel_die("mlock %zu DMA pages: %s", n, strerror(errno));
	memset(mem, 0, len);
	for (i = 0; i < n; i++) {
		pages[i].va = mem + i * ARBEL_PAGE_SIZE;
		pages[i].pa = arbel_virt_to_phys(pages[i].va);
		if (!pages[i].pa)
			arbel_die("DMA page %zu: no physical address (not root?)",
				  i);
	}
}
