// SPDX-License-Identifier: GPL-2.0
/*
 * reg_mr_demo: register memory on an Arbel HCA with stock libibverbs, then
 * look at what the firmware holds for it.
 *
 *   1. open arbel0, allocate a protection domain (PD);
 *   2. register three buffers with different access rights:
 *        4 KiB   local write only
 *        1 MiB   local write, remote read, remote write
 *        2 MiB   on a huge page (hugetlbfs, else a transparent huge page):
 *                local write, remote read, remote atomic, memory-window bind
 *      and print each key and the MPT slot it names;
 *   3. show what the kernel's resource tracker knows (`rdma -dd res show mr`),
 *      then ask it for the raw MPT entries (`rdma -j -r res show mr`,
 *      which makes the driver run QUERY_MPT) and decode each one field by
 *      field, with the layout of the PRM's arbelprm_mpt_st;
 *   4. on the emulated HCA (arbel-stub), let its translation engine use the
 *      keys like the HCA would: read through the lkey, write through the
 *      rkey, be refused a remote write on the local-only buffer;
 *   5. deregister, and show the engine refusing the old key.
 *
 * Build: gcc -O2 -o reg_mr_demo reg_mr_demo.c -libverbs
 * Run as root (raw restrack needs CAP_NET_ADMIN; the debug window and
 * /proc/self/pagemap need root).  Step 4 needs arbel-stub; on real hardware
 * it is skipped.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#define MiB (1024 * 1024)

/* ------------------------------------------------------------------ */
/* The MPT entry, from the PRM's arbelprm_mpt_st: 16 big-endian dwords; */
/* each field is (dword, lowest bit, width).                            */
/* ------------------------------------------------------------------ */

struct mpt_field {
	const char *name;
	int dword, lo, width;
	const char *meaning;
};

static const struct mpt_field mpt_fields[] = {
	{ "r_w",       0,  8,  1, "1 = region, 0 = window" },
	{ "pa",        0,  9,  1, "physical addresses, no translation" },
	{ "lr",        0, 10,  1, "local read" },
	{ "lw",        0, 11,  1, "local write" },
	{ "rr",        0, 12,  1, "remote read" },
	{ "rw",        0, 13,  1, "remote write" },
	{ "a",         0, 14,  1, "remote atomic" },
	{ "eb",        0, 15,  1, "memory-window bind enabled" },
	{ "status",    0, 28,  4, "0 = owned by the hardware" },
	{ "page_size", 1,  0,  5, "log2(page size) - 12" },
	{ "type",      1,  7,  1, "windows only" },
	{ "qpn",       1,  8, 24, "windows only" },
	{ "mem_key",   2,  0, 32, "the key rotated right by 8 = MPT index" },
	{ "pd",        3,  0, 24, "protection domain" },
	{ "ei",        3, 25,  1, "invalidation enabled" },
	{ "zb",        3, 26,  1, "zero-based addresses" },
	{ "fre",       3, 27,  1, "fast registration enabled" },
	{ "rae",       3, 28,  1, "remote access may be enabled" },
	{ "start_h",   4,  0, 32, "start address 63:32" },
	{ "start_l",   5,  0, 32, "start address 31:0" },
	{ "len_h",     6,  0, 32, "length 63:32" },
	{ "len_l",     7,  0, 32, "length 31:0" },
	{ "lkey",      8,  0, 32, "0 when handed to the firmware" },
	{ "win_cnt",   9,  0, 32, "windows bound to this region" },
	{ "mtt_adr_h", 11, 0,  6, "MTT address 37:32" },
	{ "mtt_adr_l", 12, 3, 29, "MTT address 31:3 (8-byte entries)" },
	{ "mtt_sz",    13, 0, 32, "MTT entries allocated" },
};

#define N_FIELDS (sizeof(mpt_fields) / sizeof(mpt_fields[0]))

static uint32_t mpt_dword(const uint8_t *raw, int i)
{
	return (uint32_t)raw[4 * i] << 24 | (uint32_t)raw[4 * i + 1] << 16 |
	       (uint32_t)raw[4 * i + 2] << 8 | raw[4 * i + 3];
}

static uint32_t mpt_get(const uint8_t *raw, const char *name)
{
	unsigned int i;

	for (i = 0; i < N_FIELDS; i++) {
		const struct mpt_field *f = &mpt_fields[i];

		if (!strcmp(f->name, name)) {
			uint32_t v = mpt_dword(raw, f->dword) >> f->lo;

			return f->width == 32 ? v : v & ((1u << f->width) - 1);
		}
	}
	return 0;
}

static void mpt_print(const uint8_t *raw)
{
	uint64_t start = (uint64_t)mpt_get(raw, "start_h") << 32 | mpt_get(raw, "start_l");
	uint64_t len = (uint64_t)mpt_get(raw, "len_h") << 32 | mpt_get(raw, "len_l");
	uint64_t mtt = (uint64_t)mpt_get(raw, "mtt_adr_h") << 32 |
		       (uint64_t)mpt_get(raw, "mtt_adr_l") << 3;
	unsigned int i;

	printf("    raw:");
	for (i = 0; i < 16; i++)
		printf("%s%08x", i == 8 ? "\n         " : " ", mpt_dword(raw, i));
	printf("\n");
	for (i = 0; i < N_FIELDS; i++) {
		const struct mpt_field *f = &mpt_fields[i];

		printf("    %-10s dw%-2d %2d:%-2d = 0x%-8x  %s\n", f->name, f->dword,
		       f->lo + f->width - 1, f->lo, mpt_get(raw, f->name), f->meaning);
	}
	printf("    => region of %" PRIu64 " bytes at 0x%" PRIx64 ", %u KiB pages, "
	       "MTT at ICM 0x%" PRIx64 ", index 0x%x\n", len, start,
	       4u << mpt_get(raw, "page_size"), mtt, mpt_get(raw, "mem_key"));
}

/* ------------------------------------------------------------------ */
/* The raw MPTs: `rdma -j -r res show mr` prints, per MR,              */
/*   {"ifindex":N,"ifname":"arbel0","data":[b0,b1,...,b63]}             */
/* ------------------------------------------------------------------ */

static int read_raw_mpts(uint8_t mpts[][64], int max)
{
	FILE *p = popen("rdma -j -r res show mr", "r");
	static char text[1 << 20];
	size_t len;
	char *s;
	int n = 0;

	if (!p)
		return -1;
	len = fread(text, 1, sizeof(text) - 1, p);
	text[len] = 0;
	if (pclose(p) != 0) {
		printf("  rdma -j -r res show mr failed: %s\n", text);
		return -1;
	}
	for (s = text; n < max && (s = strstr(s, "\"data\":[")); n++) {
		int i;

		s += strlen("\"data\":[");
		for (i = 0; i < 64; i++) {
			mpts[n][i] = (uint8_t)strtoul(s, &s, 10);
			if (*s == ',')
				s++;
		}
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* arbel-stub's translation engine (debug window at BAR0 + 0xc0000,     */
/* see Documentation/arbel-stub.rst).  Not part of real hardware.       */
/* ------------------------------------------------------------------ */

#define WIN		0xc0000
#define WIN_LOG_MPT_SZ	0x028
#define XL_KEY		0x100
#define XL_ACCESS	0x104	/* 1 local read, 2 local write, 3 remote read, 4 remote write */
#define XL_VA_HI	0x108
#define XL_VA_LO	0x10c
#define XL_LEN		0x110
#define XL_DIR		0x114	/* 0: region -> buffer, 1: buffer -> region */
#define XL_BUF_HI	0x118
#define XL_BUF_LO	0x11c
#define XL_GO		0x120
#define XL_RESULT	0x124

static const char *const xl_results[] = {
	"OK", "NOT_RUNNING", "BAD_REQUEST", "MPT_UNMAPPED", "SW_OWNED (no such registration)",
	"KEY_MISMATCH (stale tag)", "NOT_REGION", "ACCESS (right not granted)", "RANGE",
	"MTT_RANGE", "MTT_UNMAPPED", "MTT_NOT_PRESENT", "DMA_ERROR",
};

static volatile uint8_t *bar0;
static uint8_t *bounce;		/* one page the engine copies to or from */
static uint64_t bounce_pa;

static void win_write(uint32_t off, uint32_t v)
{
	*(volatile uint32_t *)(bar0 + WIN + off) = htobe32(v);
}

static uint32_t win_read(uint32_t off)
{
	return be32toh(*(volatile uint32_t *)(bar0 + WIN + off));
}

static int open_debug_window(void)
{
	char path[512];
	struct dirent *e;
	uint64_t ent;
	DIR *d = opendir("/sys/bus/pci/devices");
	int fd = -1;

	while (d && (e = readdir(d))) {
		char id[16] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device", e->d_name);
		f = fopen(path, "r");
		if (f && fgets(id, sizeof(id), f) && !strncmp(id, "0x6282", 6)) {
			snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource0",
				 e->d_name);
			fd = open(path, O_RDWR | O_SYNC);
		}
		if (f)
			fclose(f);
		if (fd >= 0)
			break;
	}
	if (d)
		closedir(d);
	if (fd < 0)
		return -1;
	bar0 = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (bar0 == MAP_FAILED || win_read(0) != 0x41524244)	/* "ARBD" */
		return -1;

	/* a locked page and its physical address, for the engine's copies */
	bounce = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	mlock(bounce, 4096);
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0 || pread(fd, &ent, 8, (off_t)((uintptr_t)bounce / 4096 * 8)) != 8)
		return -1;
	close(fd);
	bounce_pa = (ent & ((1ull << 55) - 1)) * 4096;
	return bounce_pa ? 0 : -1;
}

/* let the "HCA" access [va, va + len) with key; returns the result code */
static uint32_t hca_access(uint32_t key, int access, void *va, uint32_t len, int dir)
{
	win_write(XL_KEY, key);
	win_write(XL_ACCESS, (uint32_t)access);
	win_write(XL_VA_HI, (uint32_t)((uintptr_t)va >> 32));
	win_write(XL_VA_LO, (uint32_t)(uintptr_t)va);
	win_write(XL_LEN, len);
	win_write(XL_DIR, (uint32_t)dir);
	win_write(XL_BUF_HI, (uint32_t)(bounce_pa >> 32));
	win_write(XL_BUF_LO, (uint32_t)bounce_pa);
	win_write(XL_GO, 1);
	return win_read(XL_RESULT);
}

static const char *result_name(uint32_t r)
{
	return r < sizeof(xl_results) / sizeof(xl_results[0]) ? xl_results[r] : "?";
}

/* ------------------------------------------------------------------ */

struct demo_buf {
	const char *what;
	size_t len;
	int access;
	void *addr;
	struct ibv_mr *mr;
};

static void *alloc_huge(size_t len, const char **how)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	if (p != MAP_FAILED) {
		*how = "hugetlbfs page";
		return p;
	}
	/* no hugetlbfs pages: a 2 MiB-aligned anonymous buffer, THP */
	if (posix_memalign(&p, 2 * MiB, len))
		return NULL;
	madvise(p, len, MADV_HUGEPAGE);
	*how = "transparent huge page";
	return p;
}

static void *alloc_small(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, len))
		return NULL;
	madvise(p, len, MADV_NOHUGEPAGE);	/* keep it on 4 KiB pages */
	return p;
}

static void heading(const char *s)
{
	printf("\n== %s ==\n", s);
}

int main(void)
{
	struct demo_buf bufs[] = {
		{ .what = "4 KiB, local write", .len = 4096,
		  .access = IBV_ACCESS_LOCAL_WRITE },
		{ .what = "1 MiB, local write + remote read/write", .len = MiB,
		  .access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
			    IBV_ACCESS_REMOTE_WRITE },
		{ .what = "2 MiB huge page, local write + remote read/atomic + MW bind",
		  .len = 2 * MiB,
		  .access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
			    IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_MW_BIND },
	};
	const int nbufs = sizeof(bufs) / sizeof(bufs[0]);
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_device_attr attr;
	struct ibv_pd *pd;
	uint8_t mpts[64][64];
	uint32_t num_mpts = 1u << 17;
	int i, j, n, have_window;
	const char *how = "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	heading("1. open the device");
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "arbel0"))
			ctx = ibv_open_device(list[i]);
	if (!ctx) {
		fprintf(stderr, "reg_mr_demo: cannot open arbel0: %s\n", strerror(errno));
		return 1;
	}
	ibv_free_device_list(list);
	if (ibv_query_device(ctx, &attr)) {
		perror("ibv_query_device");
		return 1;
	}
	printf("arbel0: firmware %s, max MR size 0x%" PRIx64 ", page sizes 0x%" PRIx64 "\n",
	       attr.fw_ver, (uint64_t)attr.max_mr_size, (uint64_t)attr.page_size_cap);
	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		perror("ibv_alloc_pd");
		return 1;
	}
	have_window = open_debug_window() == 0;
	if (have_window)
		num_mpts = 1u << win_read(WIN_LOG_MPT_SZ);
	printf("PD allocated; the MPT table has %u slots\n", num_mpts);

	heading("2. register three buffers");
	for (i = 0; i < nbufs; i++) {
		struct demo_buf *b = &bufs[i];

		b->addr = i == 2 ? alloc_huge(b->len, &how) : alloc_small(b->len);
		if (!b->addr) {
			perror("alloc");
			return 1;
		}
		memset(b->addr, 0, b->len);	/* fault the pages in */
		b->mr = ibv_reg_mr(pd, b->addr, b->len, b->access);
		if (!b->mr) {
			fprintf(stderr, "ibv_reg_mr(%s): %s\n", b->what, strerror(errno));
			return 1;
		}
		printf("%-62s addr %p  lkey 0x%08x  rkey 0x%08x  slot 0x%05x%s%s\n",
		       b->what, b->addr, b->mr->lkey, b->mr->rkey,
		       (b->mr->lkey >> 8) & (num_mpts - 1), i == 2 ? "  on a " : "",
		       i == 2 ? how : "");
	}

	heading("3. what the kernel tracks (rdma -dd res show mr: -dd adds the driver's attributes)");
	fflush(stdout);
	if (system("rdma -dd res show mr") != 0)
		printf("rdma -dd res show mr failed\n");

	heading("3b. the MPT entries the firmware holds (rdma -j -r res show mr)");
	n = read_raw_mpts(mpts, 64);
	if (n < 0)
		return 1;
	printf("%d entr%s\n", n, n == 1 ? "y" : "ies");
	for (j = 0; j < n; j++) {
		uint32_t index = mpt_get(mpts[j], "mem_key");
		const char *what = "(not registered here)";

		for (i = 0; i < nbufs; i++)
			if ((bufs[i].mr->lkey >> 8 | bufs[i].mr->lkey << 24) == index)
				what = bufs[i].what;
		printf("\n  MPT index 0x%x: %s\n", index, what);
		mpt_print(mpts[j]);
	}

	heading("4. the HCA uses the keys (arbel-stub's translation engine)");
	if (!have_window) {
		printf("no arbel-stub debug window here: skipped\n");
	} else {
		char *small = bufs[0].addr, *big = bufs[1].addr;
		uint32_t r;

		strcpy(small, "written by the CPU, read by the HCA through the lkey");
		r = hca_access(bufs[0].mr->lkey, 1, small, 64, 0);
		printf("local read  of the 4 KiB buffer via lkey 0x%08x: %s: \"%s\"\n",
		       bufs[0].mr->lkey, result_name(r), r == 0 ? (char *)bounce : "");

		strcpy((char *)bounce, "written by a remote peer through the rkey");
		r = hca_access(bufs[1].mr->rkey, 4, big + 4096 - 10, 64, 1);
		printf("remote write to the 1 MiB buffer via rkey 0x%08x: %s; the CPU sees \"%s\"\n",
		       bufs[1].mr->rkey, result_name(r), big + 4096 - 10);

		r = hca_access(bufs[0].mr->rkey, 4, small, 8, 1);
		printf("remote write to the 4 KiB buffer (no remote write right): %s\n",
		       result_name(r));
		r = hca_access(bufs[0].mr->lkey, 1, small + 4090, 16, 0);
		printf("local read past the end of the 4 KiB buffer: %s\n", result_name(r));
	}

	heading("5. deregister; the old keys stop working");
	for (i = 0; i < nbufs; i++) {
		uint32_t key = bufs[i].mr->lkey;

		if (ibv_dereg_mr(bufs[i].mr)) {
			perror("ibv_dereg_mr");
			return 1;
		}
		printf("deregistered %-62s", bufs[i].what);
		if (have_window)
			printf(" old key 0x%08x: %s", key,
			       result_name(hca_access(key, 1, bufs[i].addr, 1, 0)));
		printf("\n");
	}
	n = read_raw_mpts(mpts, 64);
	printf("MPT entries left: %d\n", n);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return n == 0 ? 0 : 1;
}
