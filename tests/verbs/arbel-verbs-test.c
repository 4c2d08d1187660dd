// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-verbs-test: memory registration through stock rdma-core
 * (libibverbs + libmthca) on arbel.ko, checked against what the emulated
 * HCA (arbel-stub) holds and does.
 *
 * For every registration it compares three views that are produced
 * independently of the driver's own encoder:
 *   - what was asked (buffer VA, length, PD, access flags) and what the
 *     buffer's physical layout allows (page size, from /proc/self/pagemap);
 *   - the raw 64-byte MPT the firmware returns (`rdma -j -r res show mr`,
 *     QUERY_MPT), decoded with mpt.h, written from the seed
 *     (shared/spec/arbelprm_mpt_st.txt);
 *   - what the stub's translation engine does with the key (debug window
 *     at BAR0 + 0xc0000, Documentation/arbel-stub.rst): the bytes it reads
 *     and writes, the physical address it resolves, the accesses it refuses.
 *
 * Usage (as root in the test VM, driver loaded):
 *   arbel-verbs-test [-v] [-d DEV] [--no-enomem] [--enomem-secs N]
 *   arbel-verbs-test --selftest     decoder/parser checks, no device needed
 *
 * Output: "ok N - name" / "not ok N - name: detail", "skip - name: why",
 * then "verbs-test: N passed, N failed, N skipped".  Exit 1 on any failure.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "json.h"
#include "mpt.h"

#define KiB		((uint64_t)1024)
#define MiB		((uint64_t)1024 * 1024)
#define PG		((uint64_t)4096)

/* ------------------------------------------------------------------ */
/* results                                                            */
/* ------------------------------------------------------------------ */

static int passed, failed, skipped, checkno, verbose;

static bool check(bool cond, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool check(bool cond, const char *name, const char *fmt, ...)
{
	va_list ap;

	checkno++;
	if (cond) {
		passed++;
		printf("ok %d - %s\n", checkno, name);
	} else {
		failed++;
		printf("not ok %d - %s: ", checkno, name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	fflush(stdout);
	return cond;
}

static void skip(const char *name, const char *why)
{
	skipped++;
	printf("skip - %s: %s\n", name, why);
	fflush(stdout);
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void finish(void)
{
	printf("verbs-test: %d passed, %d failed, %d skipped\n",
	       passed, failed, skipped);
	exit(failed ? 1 : 0);
}

static void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fatal(const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	check(false, "setup", "%s", msg);
	finish();
}

/* A detail string that collects the first few problems of a check. */
struct detail {
	char text[1024];
	int n;
};

static void detail_add(struct detail *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void detail_add(struct detail *d, const char *fmt, ...)
{
	size_t len = strlen(d->text);
	va_list ap;

	if (d->n++ >= 4) {
		if (d->n == 5 && len + 6 < sizeof(d->text))
			strcat(d->text, "; ...");
		return;
	}
	if (len && len + 3 < sizeof(d->text)) {
		strcat(d->text, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(d->text + len, sizeof(d->text) - len, fmt, ap);
	va_end(ap);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ */
/* the stub's debug window                                            */
/* ------------------------------------------------------------------ */

#define DBG			0xc0000u
#define DBG_ID			0x000
#define DBG_FW_STATE		0x008
#define DBG_HW_MPTS		0x01c
#define DBG_LOG_MPT_SZ		0x028
#define DBG_MTT_BASE_HI		0x038
#define DBG_MTT_BASE_LO		0x03c
#define DBG_MTT_END_HI		0x040
#define DBG_MTT_END_LO		0x044
#define R_XL_KEY			0x100
#define R_XL_ACCESS		0x104
#define R_XL_VA_HI		0x108
#define R_XL_VA_LO		0x10c
#define R_XL_LEN			0x110
#define R_XL_DIR			0x114
#define R_XL_BUF_HI		0x118
#define R_XL_BUF_LO		0x11c
#define R_XL_GO			0x120
#define R_XL_RESULT		0x124
#define R_XL_PA_HI		0x128
#define R_XL_PA_LO		0x12c
#define FI_FAIL_OPCODE		0x200
#define FI_FAIL_STATUS		0x204
#define FI_FAIL_EVERY		0x208
#define FI_FAILED		0x20c
#define FI_CLEAR		0x23c
#define R_XL_INDEX		0x130

enum { ACC_LR = 1, ACC_LW, ACC_RR, ACC_RW, ACC_ATOMIC };
enum { DIR_TO_BUF = 0, DIR_TO_REGION = 1 };
enum {
	XL_OK, XL_NOT_RUNNING, XL_BAD_REQUEST, XL_MPT_UNMAPPED, XL_SW_OWNED,
	XL_KEY_MISMATCH, XL_NOT_REGION, XL_ACCESS, XL_RANGE, XL_MTT_RANGE,
	XL_MTT_UNMAPPED, XL_MTT_NOT_PRESENT, XL_DMA_ERROR,
};

static const char *const xl_names[] = {
	"OK", "NOT_RUNNING", "BAD_REQUEST", "MPT_UNMAPPED", "SW_OWNED",
	"KEY_MISMATCH", "NOT_REGION", "ACCESS", "RANGE", "MTT_RANGE",
	"MTT_UNMAPPED", "MTT_NOT_PRESENT", "DMA_ERROR",
};

static const char *const acc_names[] = {
	"?", "local-read", "local-write", "remote-read", "remote-write",
	"atomic",
};

static const char *xl_name(uint32_t r)
{
	return r < sizeof(xl_names) / sizeof(xl_names[0]) ? xl_names[r] : "?";
}

static volatile uint8_t *bar0;
static int pagemap_fd = -1;
static uint8_t *bounce;			/* one locked page for the engine */
static uint64_t bounce_pa;

static uint32_t dbg_rd(uint32_t off)
{
	return be32toh(*(volatile uint32_t *)(bar0 + DBG + off));
}

static void dbg_wr(uint32_t off, uint32_t val)
{
	*(volatile uint32_t *)(bar0 + DBG + off) = htobe32(val);
	__sync_synchronize();
}

static uint64_t dbg_rd64(uint32_t hi)
{
	return (uint64_t)dbg_rd(hi) << 32 | dbg_rd(hi + 4);
}

static unsigned long sysfs_ulong(const char *dir, const char *file)
{
	char path[600], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return ~0ul;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strtoul(buf, NULL, 0);
}

/* physical address of a virtual one (root: the PFN is visible); 0 if absent */
static uint64_t virt_to_phys(uint64_t va)
{
	uint64_t ent;

	if (pread(pagemap_fd, &ent, 8, (off_t)(va / PG * 8)) != 8)
		return 0;
	if (!(ent & (1ull << 63)))
		return 0;
	ent &= (1ull << 55) - 1;
	return ent ? ent * PG + va % PG : 0;
}

static void open_window(void)
{
	char dir[300] = "", path[400];
	struct dirent *e;
	DIR *d;
	int fd;

	d = opendir("/sys/bus/pci/devices");
	if (!d)
		fatal("opendir /sys/bus/pci/devices: %s", strerror(errno));
	while ((e = readdir(d))) {
		char cand[300];

		if (e->d_name[0] == '.')
			continue;
		snprintf(cand, sizeof(cand), "/sys/bus/pci/devices/%s",
			 e->d_name);
		if (sysfs_ulong(cand, "vendor") == 0x15b3 &&
		    sysfs_ulong(cand, "device") == 0x6282) {
			snprintf(dir, sizeof(dir), "%s", cand);
			break;
		}
	}
	closedir(d);
	if (!dir[0])
		fatal("no 15b3:6282 PCI function");
	snprintf(path, sizeof(path), "%s/resource0", dir);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0)
		fatal("open %s: %s (iomem=relaxed?)", path, strerror(errno));
	bar0 = mmap(NULL, 1u << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (bar0 == MAP_FAILED)
		fatal("mmap resource0: %s", strerror(errno));
	if (dbg_rd(DBG_ID) != 0x41524244)
		fatal("debug window ID 0x%08x, not \"ARBD\"", dbg_rd(DBG_ID));

	pagemap_fd = open("/proc/self/pagemap", O_RDONLY);
	if (pagemap_fd < 0)
		fatal("open /proc/self/pagemap: %s", strerror(errno));
	bounce = mmap(NULL, PG, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (bounce == MAP_FAILED || mlock(bounce, PG))
		fatal("bounce page: %s", strerror(errno));
	memset(bounce, 0, PG);
	bounce_pa = virt_to_phys((uintptr_t)bounce);
	if (!bounce_pa)
		fatal("no physical address for the bounce page (not root?)");
}

struct xl_out {
	uint32_t result, index;
	uint64_t pa;
};

/* one translation; the bytes move between [va, va + len) and the bounce page */
static uint32_t xl(uint32_t key, int acc, uint64_t va, uint32_t len, int dir,
		   struct xl_out *o)
{
	struct xl_out tmp;

	if (!o)
		o = &tmp;
	dbg_wr(R_XL_KEY, key);
	dbg_wr(R_XL_ACCESS, (uint32_t)acc);
	dbg_wr(R_XL_VA_HI, (uint32_t)(va >> 32));
	dbg_wr(R_XL_VA_LO, (uint32_t)va);
	dbg_wr(R_XL_LEN, len);
	dbg_wr(R_XL_DIR, (uint32_t)dir);
	dbg_wr(R_XL_BUF_HI, (uint32_t)(bounce_pa >> 32));
	dbg_wr(R_XL_BUF_LO, (uint32_t)bounce_pa);
	dbg_wr(R_XL_GO, 1);
	o->result = dbg_rd(R_XL_RESULT);
	o->pa = dbg_rd64(R_XL_PA_HI);
	o->index = dbg_rd(R_XL_INDEX);
	return o->result;
}

/* copy src into the region through the engine, in bounce-page chunks */
static uint32_t xl_write(uint32_t key, int acc, uint64_t va, const void *src,
			 size_t len)
{
	const uint8_t *s = src;

	while (len) {
		uint32_t n = len > PG ? PG : (uint32_t)len, r;

		memcpy(bounce, s, n);
		r = xl(key, acc, va, n, DIR_TO_REGION, NULL);
		if (r)
			return r;
		va += n;
		s += n;
		len -= n;
	}
	return XL_OK;
}

static uint32_t xl_read(uint32_t key, int acc, uint64_t va, void *dst,
			size_t len)
{
	uint8_t *d = dst;

	while (len) {
		uint32_t n = len > PG ? PG : (uint32_t)len, r;

		memset(bounce, 0x5a, n);
		r = xl(key, acc, va, n, DIR_TO_BUF, NULL);
		if (r)
			return r;
		memcpy(d, bounce, n);
		va += n;
		d += n;
		len -= n;
	}
	return XL_OK;
}

/* ------------------------------------------------------------------ */
/* the firmware's MPTs through rdma(8)                                */
/* ------------------------------------------------------------------ */

static const char *devname = "arbel0";

static char *run_capture(const char *cmd, int *status)
{
	size_t n = 0, cap = 1 << 16;
	char *out = malloc(cap);
	FILE *p = popen(cmd, "r");

	if (!out || !p) {
		free(out);
		if (p)
			pclose(p);
		*status = -1;
		return NULL;
	}
	for (;;) {
		size_t got;

		if (cap - n < 4096) {
			char *bigger = realloc(out, cap *= 2);

			if (!bigger)
				break;
			out = bigger;
		}
		got = fread(out + n, 1, cap - n - 1, p);
		if (!got)
			break;
		n += got;
	}
	out[n] = 0;
	*status = pclose(p);
	return out;
}

struct mpt_dump {
	int n;
	uint8_t (*raw)[MPT_BYTES];
	char err[256];
};

/* All MPTs of devname from `rdma -j -r res show mr`; false on error. */
static bool dump_mpts(struct mpt_dump *d)
{
	struct json *root, *e;
	int st;
	char *text = run_capture("rdma -j -r res show mr 2>&1", &st);

	memset(d, 0, sizeof(*d));
	if (!text) {
		snprintf(d->err, sizeof(d->err), "popen rdma failed");
		return false;
	}
	root = json_parse(text);
	if (st || !root || root->type != J_ARR) {
		snprintf(d->err, sizeof(d->err),
			 "`rdma -j -r res show mr` exit %d, output: %.160s",
			 st, text);
		json_free(root);
		free(text);
		return false;
	}
	d->raw = calloc((size_t)root->count + 1, MPT_BYTES);
	for (e = root->child; e; e = e->next) {
		struct json *name = json_get(e, "ifname");
		struct json *data = json_get(e, "data"), *b;
		int i = 0;

		if (!name || name->type != J_STR || strcmp(name->str, devname))
			continue;
		if (!data || data->type != J_ARR || data->count != MPT_BYTES) {
			snprintf(d->err, sizeof(d->err),
				 "an entry without 64 bytes of \"data\" (%d)",
				 data ? data->count : -1);
			free(d->raw);
			d->raw = NULL;
			json_free(root);
			free(text);
			return false;
		}
		for (b = data->child; b; b = b->next)
			d->raw[d->n][i++] = (uint8_t)b->u;
		d->n++;
	}
	json_free(root);
	free(text);
	return true;
}

/* the dumped MPT whose mem_key is the key's hardware index */
static const uint8_t *find_mpt(const struct mpt_dump *d, uint32_t key)
{
	int i;

	for (i = 0; i < d->n; i++) {
		struct mpt m;

		mpt_decode(d->raw[i], &m);
		if (m.mem_key == key_ror8(key))
			return d->raw[i];
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* expected page size from the buffer's physical layout               */
/* ------------------------------------------------------------------ */

static uint64_t npages_for(uint64_t start, uint64_t len, unsigned int shift)
{
	uint64_t first = start >> shift, last = (start + len - 1) >> shift;

	return last - first + 1;
}

/*
 * Can an MPT of page size 2^shift map [start, start + len) whose 4 KiB
 * pages are at pa[0..] (pa[i] = physical address of the page holding
 * floor4k(start) + i * 4 KiB)?  The HCA computes, for an access at va,
 * MTT[(va - floor_P(start)) / P] + va % P, so every page of one P-chunk
 * must have the same pa - va, and that difference must be P-aligned.
 */
static bool pgsz_valid(uint64_t start, uint64_t len, const uint64_t *pa,
		       unsigned int shift)
{
	uint64_t P = 1ull << shift, va0 = start & ~(PG - 1);
	uint64_t n = npages_for(start, len, 12), i, chunk = ~0ull, delta = 0;

	for (i = 0; i < n; i++) {
		uint64_t va = va0 + i * PG, d = pa[i] - va;

		if (!pa[i] || (d & (P - 1)))
			return false;
		if (va >> shift != chunk) {
			chunk = va >> shift;
			delta = d;
		} else if (d != delta) {
			return false;
		}
	}
	return true;
}

/*
 * The page sizes a driver that "chooses the largest page size that fits
 * the buffer's layout" may write: every valid size that needs the minimum
 * number of MTT entries (ib_umem_find_best_pgsz picks the smallest of them).
 * Returns a bit mask over shifts 12..31 (page_size field 0..19) within cap.
 */
static uint64_t pgsz_acceptable(uint64_t start, uint64_t len, const uint64_t *pa,
				uint64_t cap, unsigned int *best_shift)
{
	uint64_t ok = 0, min_pages = ~0ull;
	int s;

	for (s = 31; s >= 12; s--) {
		if (!(cap & (1ull << s)) || !pgsz_valid(start, len, pa, (unsigned int)s))
			continue;
		if (npages_for(start, len, (unsigned int)s) < min_pages)
			min_pages = npages_for(start, len, (unsigned int)s);
	}
	*best_shift = 12;
	for (s = 31; s >= 12; s--)
		if ((cap & (1ull << s)) && pgsz_valid(start, len, pa, (unsigned int)s) &&
		    npages_for(start, len, (unsigned int)s) == min_pages) {
			ok |= 1ull << s;
			*best_shift = (unsigned int)s;	/* ends at the smallest */
		}
	return ok;
}

/* ------------------------------------------------------------------ */
/* buffers and regions                                                */
/* ------------------------------------------------------------------ */

enum backing { SMALL, THP, HUGETLB };
static const char *const backing_names[] = { "4k", "thp", "hugetlb" };

struct buffer {
	uint8_t *p;
	size_t len;
	enum backing kind;
};

struct region {
	char name[48];
	struct buffer *b;
	size_t off, len;
	/* per registration */
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	int access;
	uint64_t *pa;			/* pagemap, one per 4 KiB page */
};

static struct buffer small_buf, thp_buf, huge_buf;
static struct region regions[24];
static int nregions;

static uint64_t region_va(const struct region *r)
{
	return (uintptr_t)r->b->p + r->off;
}

static void add_region(struct buffer *b, size_t off, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add_region(struct buffer *b, size_t off, size_t len, const char *fmt, ...)
{
	struct region *r = &regions[nregions++];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->name, sizeof(r->name), fmt, ap);
	va_end(ap);
	r->b = b;
	r->off = off;
	r->len = len;
}

static bool map_buffer(struct buffer *b, size_t len, enum backing kind)
{
	size_t align = 2 * MiB, i;
	uint8_t *p;

	b->kind = kind;
	b->len = len;
	if (kind == HUGETLB) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (p == MAP_FAILED)
			return false;
	} else {
		/* over-allocate to place the buffer on a 2 MiB boundary */
		p = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return false;
		p = (uint8_t *)(((uintptr_t)p + align - 1) & ~(align - 1));
		madvise(p, len, kind == THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	}
	/* fault everything in with data: a read-only registration of untouched
	 * anonymous memory would pin the shared zero page */
	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + 3);
	b->p = p;
	return true;
}

static bool hugetlb_ok;

static struct region *region_named(const char *name)
{
	int i;

	for (i = 0; i < nregions; i++)
		if (!strcmp(regions[i].name, name))
			return &regions[i];
	fatal("no region %s", name);
	return NULL;
}

static void setup_buffers(void)
{
	if (!map_buffer(&small_buf, 64 * MiB + 16 * KiB, SMALL))
		fatal("mmap 64 MiB: %s", strerror(errno));
	add_region(&small_buf, 4 * KiB, 4 * KiB, "4KiB");
	add_region(&small_buf, 12 * KiB + 7, 1, "1B@+7");
	add_region(&small_buf, 8 * KiB - 50, 100, "100B@page-cross");
	add_region(&small_buf, 4 * KiB - 1, 8 * KiB + 2, "8KiB+2@+4095");
	add_region(&small_buf, 0, 64 * KiB, "64KiB");
	add_region(&small_buf, 3, MiB - 3, "1MiB-3@+3");
	add_region(&small_buf, 0, MiB, "1MiB");
	add_region(&small_buf, 4 * KiB, 16 * MiB, "16MiB@+4KiB");
	add_region(&small_buf, 0, 64 * MiB, "64MiB");

	if (map_buffer(&thp_buf, 4 * MiB, THP)) {
		add_region(&thp_buf, 0, 2 * MiB, "thp-2MiB");
		add_region(&thp_buf, 1, 4 * MiB - 1, "thp-4MiB-1@+1");
	}
	hugetlb_ok = map_buffer(&huge_buf, 66 * MiB, HUGETLB);
	if (hugetlb_ok) {
		add_region(&huge_buf, 0, 2 * MiB, "huge-2MiB");
		add_region(&huge_buf, 2 * MiB, 4 * MiB, "huge-4MiB");
		add_region(&huge_buf, 0x1234, 3 * MiB, "huge-3MiB@+0x1234");
		add_region(&huge_buf, 2 * MiB - 8, 16, "huge-16B@2MiB-cross");
		add_region(&huge_buf, 0, 64 * MiB, "huge-64MiB");
	} else {
		note("no hugetlb buffer: %s (nr_hugepages?)", strerror(errno));
	}
}

/* ------------------------------------------------------------------ */
/* the device                                                         */
/* ------------------------------------------------------------------ */

static struct ibv_context *ctx;
static struct ibv_pd *pd1, *pd2;
static struct ibv_device_attr dattr;
static uint64_t pgsz_cap;
static uint32_t log_mpt_sz, num_mpts;
static uint64_t mtt_base, mtt_end;

/*
 * The hardware PD number.  libibverbs does not expose it; libmthca keeps
 * the pdn the kernel returned in ALLOC_PD's response right after its
 * ibv_pd (struct mthca_pd in rdma-core's providers/mthca/mthca.h, the same
 * layout since 2005): that is what its address vectors carry on the wire.
 */
struct mthca_pd_view {
	struct ibv_pd ibv_pd;
	void *ah_list;
	pthread_mutex_t ah_mutex;
	uint32_t pdn;
};

static uint32_t pdn_of(struct ibv_pd *pd)
{
	return ((struct mthca_pd_view *)pd)->pdn;
}

static uint32_t hw_mpts(void)
{
	return dbg_rd(DBG_HW_MPTS);
}

static const int flag_bits[] = {
	IBV_ACCESS_LOCAL_WRITE, IBV_ACCESS_REMOTE_WRITE,
	IBV_ACCESS_REMOTE_READ, IBV_ACCESS_REMOTE_ATOMIC, IBV_ACCESS_MW_BIND,
};
static const char *const flag_names[] = { "LW", "RW", "RR", "A", "BIND" };

static const char *access_str(int access)
{
	static char s[64];
	unsigned int i;

	s[0] = 0;
	for (i = 0; i < 5; i++)
		if (access & flag_bits[i]) {
			if (s[0])
				strcat(s, "|");
			strcat(s, flag_names[i]);
		}
	return s[0] ? s : "none";
}

static void open_device(void)
{
	struct ibv_device **list;
	int i, n;

	list = ibv_get_device_list(&n);
	if (!list)
		fatal("ibv_get_device_list: %s", strerror(errno));
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), devname))
			break;
	if (i == n)
		fatal("no %s among %d devices", devname, n);
	ctx = ibv_open_device(list[i]);
	if (!ctx)
		fatal("ibv_open_device(%s): %s", devname, strerror(errno));
	ibv_free_device_list(list);
	if (ibv_query_device(ctx, &dattr))
		fatal("ibv_query_device: %s", strerror(errno));
	pgsz_cap = dattr.page_size_cap;
	note("%s: fw %s, max_mr_size 0x%" PRIx64 ", page_size_cap 0x%" PRIx64
	     ", max_mr %d, max_pd %d", devname, dattr.fw_ver,
	     (uint64_t)dattr.max_mr_size, pgsz_cap, dattr.max_mr, dattr.max_pd);
	check(pgsz_cap & (1ull << 12), "device: page_size_cap has 4 KiB",
	      "page_size_cap 0x%" PRIx64, pgsz_cap);
	pgsz_cap &= 0xfffff000ull;	/* page_size field < 20: 4 KiB .. 2 GiB */

	pd1 = ibv_alloc_pd(ctx);
	pd2 = ibv_alloc_pd(ctx);
	if (!pd1 || !pd2)
		fatal("ibv_alloc_pd: %s", strerror(errno));
	note("pdn %u and %u (from libmthca's ALLOC_PD response)",
	     pdn_of(pd1), pdn_of(pd2));
	check(pdn_of(pd1) != pdn_of(pd2) && pdn_of(pd1) < (1u << 24) &&
	      pdn_of(pd2) < (1u << 24), "device: two PDs, two PD numbers",
	      "pdn %u and %u", pdn_of(pd1), pdn_of(pd2));

	log_mpt_sz = dbg_rd(DBG_LOG_MPT_SZ);
	num_mpts = 1u << log_mpt_sz;
	mtt_base = dbg_rd64(DBG_MTT_BASE_HI);
	mtt_end = dbg_rd64(DBG_MTT_END_HI);
	note("stub: log_mpt_sz %u, MTT area [0x%" PRIx64 ", 0x%" PRIx64
	     "), %u HW-owned MPTs", log_mpt_sz, mtt_base, mtt_end, hw_mpts());
	check(dbg_rd(DBG_FW_STATE) == 2, "stub: firmware in HCA_INIT",
	      "FW_STATE %u", dbg_rd(DBG_FW_STATE));
	check(log_mpt_sz == 17, "stub: 2^17 MPTs (the default profile)",
	      "log_mpt_sz %u", log_mpt_sz);
}

/* register r with access on pd; fills r->mr and r->pa */
static int reg_region(struct region *r, struct ibv_pd *pd, int access)
{
	uint64_t va = region_va(r), n = npages_for(va, r->len, 12), i;

	r->pd = pd;
	r->access = access;
	r->mr = ibv_reg_mr(pd, (void *)(uintptr_t)va, r->len, access);
	if (!r->mr)
		return errno;
	free(r->pa);
	r->pa = malloc(n * sizeof(*r->pa));
	for (i = 0; i < n; i++)
		r->pa[i] = virt_to_phys((va & ~(PG - 1)) + i * PG) & ~(PG - 1);
	return 0;
}

static int dereg_region(struct region *r)
{
	int ret = 0;

	if (r->mr)
		ret = ibv_dereg_mr(r->mr);
	r->mr = NULL;
	return ret;
}

/* ------------------------------------------------------------------ */
/* checks of one registration                                         */
/* ------------------------------------------------------------------ */

/* the MPT in the dump against what was asked */
static void check_mpt_fields(const struct region *r, const uint8_t *raw,
			     struct detail *d)
{
	uint64_t va = region_va(r), ok_mask, npages;
	uint32_t key = r->mr->lkey;
	unsigned int best;
	struct mpt m;
	int acc = r->access;

	if (!raw) {
		detail_add(d, "%s: no MPT with mem_key 0x%x in the dump",
			   r->name, key_ror8(key));
		return;
	}
	mpt_decode(raw, &m);
#define F(cond, fmt, ...) do { if (!(cond)) detail_add(d, "%s: " fmt, r->name, __VA_ARGS__); } while (0)
	F(r->mr->lkey == r->mr->rkey, "lkey 0x%x != rkey 0x%x", r->mr->lkey, r->mr->rkey);
	F(m.r_w == 1, "r_w %u, want 1", m.r_w);
	F(m.pa == 0, "pa %u, want 0", m.pa);
	F(m.lr == 1, "lr %u, want 1", m.lr);
	F(m.lw == !!(acc & IBV_ACCESS_LOCAL_WRITE), "lw %u for %s", m.lw, access_str(acc));
	F(m.rr == !!(acc & IBV_ACCESS_REMOTE_READ), "rr %u for %s", m.rr, access_str(acc));
	F(m.rw == !!(acc & IBV_ACCESS_REMOTE_WRITE), "rw %u for %s", m.rw, access_str(acc));
	F(m.a == !!(acc & IBV_ACCESS_REMOTE_ATOMIC), "a %u for %s", m.a, access_str(acc));
	F(m.eb == !!(acc & IBV_ACCESS_MW_BIND), "eb %u for %s", m.eb, access_str(acc));
	F(m.status == 0, "status 0x%x, want 0 (hardware-owned)", m.status);
	F(m.type == 0 && m.qpn == 0, "type %u qpn 0x%x, want 0 0", m.type, m.qpn);
	F(m.rsvd2 == 0 && m.rsvd3 == 0 && m.rsvd4 == 0 && m.rsvd6 == 0 && m.rsvd7 == 0 &&
	  m.dw[10] == 0 && m.dw[14] == 0 && m.dw[15] == 0,
	  "reserved bits set (dw1 %08x dw3 %08x dw10-12 %08x %08x %08x dw14-15 %08x %08x)",
	  m.dw[1], m.dw[3], m.dw[10], m.dw[11], m.dw[12], m.dw[14], m.dw[15]);
	F(m.mem_key == key_ror8(key), "mem_key 0x%x, key 0x%x", m.mem_key, key);
	F(m.pd == pdn_of(r->pd), "pd %u, want %u", m.pd, pdn_of(r->pd));
	F(m.zb == 0, "zb %u, want 0 (VA-based)", m.zb);
	F(m.start == va, "start 0x%" PRIx64 ", want 0x%" PRIx64, m.start, va);
	F(m.length == r->len, "length 0x%" PRIx64 ", want 0x%zx", m.length, r->len);
	F(m.lkey == 0 && m.win_cnt == 0, "lkey field 0x%x win_cnt %u, want 0 0", m.lkey, m.win_cnt);

	ok_mask = pgsz_acceptable(va, r->len, r->pa, pgsz_cap, &best);
	F(ok_mask & (1ull << (m.page_size + 12)),
	  "page_size %u (%llu KiB), want %u (%llu KiB) for this %s layout (acceptable mask 0x%" PRIx64 ")",
	  m.page_size, (1ull << m.page_size) * 4, best - 12,
	  (1ull << (best - 12)) * 4, backing_names[r->b->kind], ok_mask >> 12);
	npages = npages_for(va, r->len, m.page_size + 12);
	F(m.mtt_adr % 8 == 0 && m.mtt_adr >= mtt_base + 16 * 8 &&
	  m.mtt_adr + 8 * npages <= mtt_end,
	  "MTT [0x%" PRIx64 ", +%" PRIu64 " entries) not inside the MTT area above the reserved entries [0x%" PRIx64 ", 0x%" PRIx64 ")",
	  m.mtt_adr, npages, mtt_base + 128, mtt_end);
#undef F
}

/* rights and bounds through the engine, for the region's access flags */
static void check_rights(const struct region *r, struct detail *d)
{
	static const int need[] = {	/* the flag each engine access needs */
		[ACC_LR] = 0, [ACC_LW] = IBV_ACCESS_LOCAL_WRITE,
		[ACC_RR] = IBV_ACCESS_REMOTE_READ,
		[ACC_RW] = IBV_ACCESS_REMOTE_WRITE,
		[ACC_ATOMIC] = IBV_ACCESS_REMOTE_ATOMIC,
	};
	uint64_t va = region_va(r), end = va + r->len;
	uint32_t key = r->mr->lkey, want_index = (key >> 8) & (num_mpts - 1);
	struct xl_out o;
	uint8_t before;
	int acc;

	for (acc = ACC_LR; acc <= ACC_ATOMIC; acc++) {
		bool allowed = acc == ACC_LR || (r->access & need[acc]);
		uint64_t a = va;
		uint32_t len = 1, want;
		int dir = (acc == ACC_LW || acc == ACC_RW) ? DIR_TO_REGION : DIR_TO_BUF;

		if (acc == ACC_ATOMIC) {
			a = (va + 7) & ~7ull;
			len = 8;
			if (a + 8 > end)
				continue;	/* no aligned 8 bytes inside */
		}
		if (dir == DIR_TO_REGION)	/* write back what is there */
			memcpy(bounce, (void *)(uintptr_t)a, len);
		want = allowed ? XL_OK : XL_ACCESS;
		xl(key, acc, a, len, dir, &o);
		if (o.result != want)
			detail_add(d, "%s (%s): %s at va 0x%" PRIx64 " -> %s, want %s",
				   r->name, access_str(r->access), acc_names[acc],
				   a, xl_name(o.result), xl_name(want));
		if (acc == ACC_LR) {
			uint64_t pa = r->pa[0] + va % PG;

			if (o.index != want_index)
				detail_add(d, "%s: engine used slot 0x%x, key 0x%x says 0x%x",
					   r->name, o.index, key, want_index);
			if (o.result == XL_OK && o.pa != pa)
				detail_add(d, "%s: first byte at pa 0x%" PRIx64 ", pagemap says 0x%" PRIx64,
					   r->name, o.pa, pa);
		}
	}
	/* bounds: one byte before, the byte after, a read straddling the end */
	if (xl(key, ACC_LR, va - 1, 1, DIR_TO_BUF, NULL) != XL_RANGE)
		detail_add(d, "%s: read at start-1 -> %s, want RANGE", r->name,
			   xl_name(dbg_rd(R_XL_RESULT)));
	if (xl(key, ACC_LR, end, 1, DIR_TO_BUF, NULL) != XL_RANGE)
		detail_add(d, "%s: read at end -> %s, want RANGE", r->name,
			   xl_name(dbg_rd(R_XL_RESULT)));
	if (xl(key, ACC_LR, end - 1, 2, DIR_TO_BUF, NULL) != XL_RANGE)
		detail_add(d, "%s: 2-byte read at end-1 -> %s, want RANGE",
			   r->name, xl_name(dbg_rd(R_XL_RESULT)));
	/* a refused write copies nothing */
	before = *(volatile uint8_t *)(uintptr_t)(end - 1);
	memset(bounce, (uint8_t)~before, 2);
	xl(key, ACC_LW, end - 1, 2, DIR_TO_REGION, NULL);
	if (*(volatile uint8_t *)(uintptr_t)(end - 1) != before)
		detail_add(d, "%s: a write refused for RANGE changed the last byte",
			   r->name);
	/* a wrong tag on the right slot */
	if (xl(key ^ 0x01, ACC_LR, va, 1, DIR_TO_BUF, NULL) != XL_KEY_MISMATCH)
		detail_add(d, "%s: key with another tag -> %s, want KEY_MISMATCH",
			   r->name, xl_name(dbg_rd(R_XL_RESULT)));
}

/* ------------------------------------------------------------------ */
/* test groups                                                        */
/* ------------------------------------------------------------------ */

static void test_access_matrix(void)
{
	unsigned int combo;

	for (combo = 0; combo < 32; combo++) {
		int access = 0, i, nreg = 0;
		uint32_t base = hw_mpts();
		struct detail d = { "", 0 };
		struct mpt_dump dump;
		char name[160];
		bool invalid;

		for (i = 0; i < 5; i++)
			if (combo & (1u << i))
				access |= flag_bits[i];
		invalid = (access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
			  !(access & IBV_ACCESS_LOCAL_WRITE);
		if (invalid) {
			struct ibv_mr *mr = ibv_reg_mr(pd1, regions[0].b->p + regions[0].off,
						       regions[0].len, access);
			int err = mr ? 0 : errno;

			snprintf(name, sizeof(name),
				 "access %s: refused with EINVAL (remote write/atomic without local write)",
				 access_str(access));
			check(!mr && err == EINVAL && hw_mpts() == base, name,
			      "ibv_reg_mr(4 KiB, %s) -> %s (errno %d %s), HW-owned MPTs %u -> %u",
			      access_str(access), mr ? "an MR" : "NULL", err,
			      strerror(err), base, hw_mpts());
			if (mr)
				ibv_dereg_mr(mr);
			continue;
		}

		for (i = 0; i < nregions; i++) {
			int err = reg_region(&regions[i], i % 2 ? pd2 : pd1, access);

			if (err)
				detail_add(&d, "%s: ibv_reg_mr errno %d (%s)",
					   regions[i].name, err, strerror(err));
			else
				nreg++;
		}
		snprintf(name, sizeof(name), "access %s: register %d regions (4 B .. 64 MiB, %s)",
			 access_str(access), nregions,
			 hugetlb_ok ? "4k/THP/hugetlb" : "4k/THP");
		check(nreg == nregions && hw_mpts() == base + (uint32_t)nreg, name,
		      "%s (HW-owned MPTs %u -> %u for %d MRs)", d.text, base,
		      hw_mpts(), nreg);

		memset(&d, 0, sizeof(d));
		if (!dump_mpts(&dump)) {
			detail_add(&d, "%s", dump.err);
		} else {
			for (i = 0; i < nregions; i++)
				if (regions[i].mr)
					check_mpt_fields(&regions[i],
							 find_mpt(&dump, regions[i].mr->lkey), &d);
			if (dump.n != nreg)
				detail_add(&d, "the dump has %d MPTs for %s, %d MRs are registered",
					   dump.n, devname, nreg);
		}
		snprintf(name, sizeof(name),
			 "access %s: raw MPTs hold start, length, PD, rights, page size, MTT",
			 access_str(access));
		check(!d.n, name, "%s", d.text);

		/* MTT ranges of concurrent MRs must not overlap */
		memset(&d, 0, sizeof(d));
		for (i = 0; i < nregions && dump.raw; i++) {
			const uint8_t *ri = regions[i].mr ? find_mpt(&dump, regions[i].mr->lkey) : NULL;
			struct mpt mi, mj;
			int j;

			if (!ri)
				continue;
			mpt_decode(ri, &mi);
			for (j = i + 1; j < nregions; j++) {
				const uint8_t *rj = regions[j].mr ? find_mpt(&dump, regions[j].mr->lkey) : NULL;
				uint64_t ei, ej;

				if (!rj)
					continue;
				mpt_decode(rj, &mj);
				ei = mi.mtt_adr + 8 * npages_for(mi.start, mi.length, mi.page_size + 12);
				ej = mj.mtt_adr + 8 * npages_for(mj.start, mj.length, mj.page_size + 12);
				if (mi.mtt_adr < ej && mj.mtt_adr < ei)
					detail_add(&d, "%s [0x%" PRIx64 ", 0x%" PRIx64 ") and %s [0x%" PRIx64 ", 0x%" PRIx64 ")",
						   regions[i].name, mi.mtt_adr, ei,
						   regions[j].name, mj.mtt_adr, ej);
			}
		}
		free(dump.raw);
		snprintf(name, sizeof(name), "access %s: MTT ranges of the %d MRs are disjoint",
			 access_str(access), nreg);
		check(!d.n, name, "overlapping: %s", d.text);

		memset(&d, 0, sizeof(d));
		for (i = 0; i < nregions; i++)
			if (regions[i].mr)
				check_rights(&regions[i], &d);
		snprintf(name, sizeof(name),
			 "access %s: engine grants exactly these rights, refuses out of range and wrong tag",
			 access_str(access));
		check(!d.n, name, "%s", d.text);

		memset(&d, 0, sizeof(d));
		for (i = 0; i < nregions; i++) {
			uint32_t key = regions[i].mr ? regions[i].mr->lkey : 0;
			uint64_t va = region_va(&regions[i]);
			int ret;

			if (!regions[i].mr)
				continue;
			ret = dereg_region(&regions[i]);
			if (ret)
				detail_add(&d, "%s: ibv_dereg_mr %d", regions[i].name, ret);
			xl(key, ACC_LR, va, 1, DIR_TO_BUF, NULL);
			if (dbg_rd(R_XL_RESULT) != XL_SW_OWNED &&
			    dbg_rd(R_XL_RESULT) != XL_KEY_MISMATCH)
				detail_add(&d, "%s: old key 0x%x -> %s, want SW_OWNED or KEY_MISMATCH",
					   regions[i].name, key, xl_name(dbg_rd(R_XL_RESULT)));
		}
		snprintf(name, sizeof(name),
			 "access %s: dereg; old keys refused; HW-owned MPTs back to %u",
			 access_str(access), base);
		check(!d.n && hw_mpts() == base, name, "%s (HW-owned MPTs %u)",
		      d.text, hw_mpts());
	}
}

/* PA of every page (or a sample), data both ways, for one region */
static void test_deep(struct region *r)
{
	uint64_t va = region_va(r), n = npages_for(va, r->len, 12), i, step;
	uint32_t key = r->mr->lkey;
	struct detail d = { "", 0 };
	char name[160];
	uint8_t *pat, *got;
	size_t chunk, off;
	double t0 = now();

	/* every page's first byte (a sample of 4096 pages at most) */
	step = n > 4096 ? n / 4096 : 1;
	for (i = 0; i < n; i += step) {
		uint64_t a = i ? (va & ~(PG - 1)) + i * PG : va;
		struct xl_out o;

		xl(key, ACC_RR, a, 1, DIR_TO_BUF, &o);
		if (o.result != XL_OK)
			detail_add(&d, "page %" PRIu64 " (va 0x%" PRIx64 "): %s",
				   i, a, xl_name(o.result));
		else if (o.pa != r->pa[i] + a % PG)
			detail_add(&d, "page %" PRIu64 " (va 0x%" PRIx64 "): pa 0x%" PRIx64 ", pagemap 0x%" PRIx64,
				   i, a, o.pa, r->pa[i] + a % PG);
	}
	snprintf(name, sizeof(name), "%.47s: engine resolves %s%" PRIu64 " pages to the pagemap's addresses",
		 r->name, step > 1 ? "a sample of " : "all ", step > 1 ? n / step : n);
	check(!d.n, name, "%s", d.text);

	/* write a pattern through the key, compare with the buffer:
	 * whole region up to 1 MiB, else 3 windows of 64 KiB (start,
	 * middle across a 2 MiB boundary, end) */
	chunk = r->len <= MiB ? r->len : 64 * KiB;
	pat = malloc(chunk);
	got = malloc(chunk);
	memset(&d, 0, sizeof(d));
	for (i = 0; i < 3; i++) {
		size_t j;
		uint32_t res;

		if (chunk == r->len && i)
			break;
		off = i == 0 ? 0 : i == 2 ? r->len - chunk :
		      ((((va + r->len / 2) & ~(2 * MiB - 1)) - va) - chunk / 2);
		if (off > r->len - chunk)
			off = (r->len - chunk) / 2;
		for (j = 0; j < chunk; j++)
			pat[j] = (uint8_t)(rand() >> 7);
		res = xl_write(key, ACC_LW, va + off, pat, chunk);
		if (res != XL_OK)
			detail_add(&d, "write [+0x%zx, +0x%zx) -> %s", off, off + chunk, xl_name(res));
		else if (memcmp(r->b->p + r->off + off, pat, chunk))
			detail_add(&d, "write [+0x%zx, +0x%zx): buffer differs", off, off + chunk);
		/* and the other way: the CPU writes, the engine reads */
		for (j = 0; j < chunk; j++)
			r->b->p[r->off + off + j] = (uint8_t)(rand() >> 9);
		res = xl_read(key, ACC_RR, va + off, got, chunk);
		if (res != XL_OK)
			detail_add(&d, "read [+0x%zx, +0x%zx) -> %s", off, off + chunk, xl_name(res));
		else if (memcmp(r->b->p + r->off + off, got, chunk))
			detail_add(&d, "read [+0x%zx, +0x%zx): bytes differ", off, off + chunk);
	}
	free(pat);
	free(got);
	snprintf(name, sizeof(name), "%.47s: bytes written and read through the key match the buffer (%.1f s)",
		 r->name, now() - t0);
	check(!d.n, name, "%s", d.text);
}

static void test_deep_all(void)
{
	const int all = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
	struct json *root = NULL, *e;
	struct detail d = { "", 0 }, dd = { "", 0 };
	struct mpt_dump dump;
	bool have_dump;
	char *text;
	int i, st;

	for (i = 0; i < nregions; i++) {
		int err = reg_region(&regions[i], i % 2 ? pd1 : pd2, all);

		if (!check(!err, regions[i].name, "ibv_reg_mr(%s, %zu bytes, %s): %s",
			   backing_names[regions[i].b->kind], regions[i].len,
			   access_str(all), strerror(err)))
			continue;
		if (verbose)
			note("%s: key 0x%x at va 0x%" PRIx64, regions[i].name,
			     regions[i].mr->lkey, region_va(&regions[i]));
	}

	/* the non-raw restrack view: every key with its length, and the
	 * driver's own attributes (-d) against the firmware's MPT */
	have_dump = dump_mpts(&dump);
	if (!have_dump)
		detail_add(&dd, "%s", dump.err);
	for (i = 0; i < nregions && have_dump; i++)
		if (regions[i].mr)
			check_mpt_fields(&regions[i], find_mpt(&dump, regions[i].mr->lkey), &dd);
	check(!dd.n, "all-rights batch: raw MPTs hold what was asked", "%s", dd.text);
	memset(&dd, 0, sizeof(dd));

	text = run_capture("rdma -dd -j res show mr 2>&1", &st);
	if (text)
		root = json_parse(text);
	if (!root || root->type != J_ARR) {
		detail_add(&d, "`rdma -dd -j res show mr` exit %d: %.160s", st, text ? text : "");
	} else {
		for (i = 0; i < nregions; i++) {
			const uint8_t *raw;
			bool found = false;
			uint32_t key;

			if (!regions[i].mr)
				continue;
			key = regions[i].mr->lkey;
			raw = have_dump ? find_mpt(&dump, key) : NULL;
			for (e = root->child; e; e = e->next) {
				uint64_t lkey, rkey, len, v;
				int nattr = 0;
				struct mpt m;

				if (!json_u64(json_get(e, "lkey"), 1, &lkey) || lkey != key)
					continue;
				found = true;
				if (!json_u64(json_get(e, "rkey"), 1, &rkey) ||
				    rkey != regions[i].mr->rkey)
					detail_add(&d, "%s: rkey in restrack != 0x%x",
						   regions[i].name, regions[i].mr->rkey);
				if (!json_u64(json_get(e, "mrlen"), 0, &len) ||
				    len != regions[i].len)
					detail_add(&d, "%s: mrlen %" PRIu64 ", want %zu",
						   regions[i].name, len, regions[i].len);
				if (!raw)
					continue;
				mpt_decode(raw, &m);
				if (json_u64(json_get_drv(e, "mpt_index"), 0, &v) && ++nattr &&
				    v != ((key >> 8) & (num_mpts - 1)))
					detail_add(&dd, "%s: mpt_index %" PRIu64 ", key 0x%x names slot 0x%x",
						   regions[i].name, v, key, (key >> 8) & (num_mpts - 1));
				if (json_u64(json_get_drv(e, "page_shift"), 0, &v) && ++nattr &&
				    v != m.page_size + 12u)
					detail_add(&dd, "%s: page_shift %" PRIu64 ", MPT page_size %u",
						   regions[i].name, v, m.page_size);
				if (json_u64(json_get_drv(e, "mtt_entries"), 0, &v) && ++nattr &&
				    v != npages_for(m.start, m.length, m.page_size + 12))
					detail_add(&dd, "%s: mtt_entries %" PRIu64 ", the MPT covers %" PRIu64 " pages",
						   regions[i].name, v,
						   npages_for(m.start, m.length, m.page_size + 12));
				if (json_u64(json_get_drv(e, "mtt_addr"), 1, &v) && ++nattr &&
				    v != m.mtt_adr)
					detail_add(&dd, "%s: mtt_addr 0x%" PRIx64 ", MPT mtt_adr 0x%" PRIx64,
						   regions[i].name, v, m.mtt_adr);
				if (!nattr)
					detail_add(&dd, "%s: no driver attribute (mpt_index, page_shift, mtt_entries, mtt_addr)",
						   regions[i].name);
			}
			if (!found)
				detail_add(&d, "%s: lkey 0x%x not listed", regions[i].name, key);
		}
		if (root->child) {
			char *line = strstr(text, "}");

			note("rdma -dd -j res show mr, first entry: %.*s",
			     line ? (int)(line - text + 1) : 200, text);
		}
	}
	free(dump.raw);
	json_free(root);
	free(text);
	check(!dd.n, "restrack driver attributes (rdma -dd) agree with the firmware's MPT",
	      "%s", dd.text);
	check(!d.n, "restrack lists every MR with its lkey, rkey and length", "%s", d.text);

	for (i = 0; i < nregions; i++)
		if (regions[i].mr)
			test_deep(&regions[i]);
	for (i = 0; i < nregions; i++)
		dereg_region(&regions[i]);
}

static void test_rereg(void)
{
	struct region *r = &regions[0];
	uint32_t keys[8], base = hw_mpts();
	struct detail d = { "", 0 };
	int i, j;

	for (i = 0; i < 8; i++) {
		if (reg_region(r, pd1, IBV_ACCESS_LOCAL_WRITE)) {
			detail_add(&d, "registration %d: %s", i, strerror(errno));
			keys[i] = 0;
			continue;
		}
		keys[i] = r->mr->lkey;
		for (j = 0; j < i; j++)
			if (keys[j] == keys[i])
				detail_add(&d, "registration %d got key 0x%x again (as %d)",
					   i, keys[i], j);
		if (xl(keys[i], ACC_LR, region_va(r), 1, DIR_TO_BUF, NULL) != XL_OK)
			detail_add(&d, "registration %d: new key 0x%x -> %s", i,
				   keys[i], xl_name(dbg_rd(R_XL_RESULT)));
		for (j = 0; j < i; j++) {
			uint32_t res = xl(keys[j], ACC_LR, region_va(r), 1, DIR_TO_BUF, NULL);

			if (res != XL_SW_OWNED && res != XL_KEY_MISMATCH)
				detail_add(&d, "old key 0x%x still works (%s) while 0x%x is live",
					   keys[j], xl_name(res), keys[i]);
		}
		dereg_region(r);
	}
	note("keys of 8 registrations of one buffer: %x %x %x %x %x %x %x %x",
	     keys[0], keys[1], keys[2], keys[3], keys[4], keys[5], keys[6], keys[7]);
	check(!d.n && hw_mpts() == base,
	      "re-registration: a new key each time, every older key refused",
	      "%s (HW-owned MPTs %u -> %u)", d.text, base, hw_mpts());
}

static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return true;
	return ma > major || (ma == major && mi >= minor);
}

static void test_bad_inputs(void)
{
	uint8_t *p = regions[0].b->p + regions[0].off;
	uint32_t base = hw_mpts();
	struct ibv_mr *mr;
	char name[160];
	int err, want;

	/*
	 * ODP on a device without IBK_ON_DEMAND_PAGING: the core refuses it
	 * in ib_check_mr_access() before the driver is called, with -EINVAL
	 * up to Linux 6.1 (include/rdma/ib_verbs.h) and -EOPNOTSUPP from 6.2.
	 */
	want = kernel_at_least(6, 2) ? EOPNOTSUPP : EINVAL;
	errno = 0;
	mr = ibv_reg_mr(pd1, p, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	err = mr ? 0 : errno;
	snprintf(name, sizeof(name), "bad input: IBV_ACCESS_ON_DEMAND -> %s (the core's answer on this kernel)",
		 want == EINVAL ? "EINVAL" : "EOPNOTSUPP");
	check(!mr && err == want && hw_mpts() == base, name,
	      "got %s, errno %d (%s)", mr ? "an MR" : "NULL", err, strerror(err));
	if (mr)
		ibv_dereg_mr(mr);

	errno = 0;
	mr = ibv_reg_mr(pd1, p, 0, IBV_ACCESS_LOCAL_WRITE);
	err = mr ? 0 : errno;
	check(!mr && err == EINVAL && hw_mpts() == base,
	      "bad input: length 0 -> EINVAL",
	      "got %s, errno %d (%s)", mr ? "an MR" : "NULL", err, strerror(err));
	if (mr)
		ibv_dereg_mr(mr);

	errno = 0;
	mr = ibv_reg_mr(pd1, p, 4096, IBV_ACCESS_REMOTE_WRITE);
	err = mr ? 0 : errno;
	check(!mr && err == EINVAL && hw_mpts() == base,
	      "bad input: remote write without local write -> EINVAL",
	      "got %s, errno %d (%s)", mr ? "an MR" : "NULL", err, strerror(err));
	if (mr)
		ibv_dereg_mr(mr);

	errno = 0;
	mr = ibv_reg_mr(pd1, p, 4096, IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_REMOTE_READ);
	err = mr ? 0 : errno;
	check(!mr && err == EINVAL && hw_mpts() == base,
	      "bad input: remote atomic without local write -> EINVAL",
	      "got %s, errno %d (%s)", mr ? "an MR" : "NULL", err, strerror(err));
	if (mr)
		ibv_dereg_mr(mr);
}

/* ibv_reg_mr_iova: the MPT starts at the iova, the engine maps it to the buffer */
static void test_iova(void)
{
	static const struct { const char *region; uint64_t iova_base; } cases[] = {
		{ "64KiB", 0x100000000000ull },
		{ "8KiB+2@+4095", 0x7f0000000000ull },
		{ "huge-4MiB", 0x200000000000ull },		/* 2 MiB-aligned: huge pages */
		{ "huge-2MiB", 0x200000001000ull },		/* off by 4 KiB: 4 KiB pages */
	};
	unsigned int c;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct region *r = NULL, tmp;
		struct detail d = { "", 0 };
		struct mpt_dump dump;
		uint64_t va, iova, n, i, ok_mask;
		unsigned int best;
		uint8_t got[64];
		char name[160];
		struct mpt m;
		int j;

		for (j = 0; j < nregions; j++)
			if (!strcmp(regions[j].name, cases[c].region))
				r = &regions[j];
		if (!r) {
			skip(cases[c].region, "region not available (no hugetlb?)");
			continue;
		}
		va = region_va(r);
		iova = cases[c].iova_base + va % PG;
		tmp = *r;
		tmp.pa = NULL;
		tmp.mr = ibv_reg_mr_iova(pd1, (void *)(uintptr_t)va, r->len, iova,
					 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
		snprintf(name, sizeof(name), "iova: %s registered at iova 0x%" PRIx64 ": MPT start, page size; engine reads the buffer there",
			 r->name, iova);
		if (!tmp.mr) {
			check(false, name, "ibv_reg_mr_iova: %s", strerror(errno));
			continue;
		}
		n = npages_for(va, r->len, 12);
		tmp.pa = malloc(n * sizeof(*tmp.pa));
		for (i = 0; i < n; i++)
			tmp.pa[i] = virt_to_phys((va & ~(PG - 1)) + i * PG) & ~(PG - 1);
		if (!dump_mpts(&dump) || !find_mpt(&dump, tmp.mr->lkey)) {
			detail_add(&d, "no MPT for key 0x%x %s", tmp.mr->lkey, dump.err);
		} else {
			mpt_decode(find_mpt(&dump, tmp.mr->lkey), &m);
			ok_mask = pgsz_acceptable(iova, r->len, tmp.pa, pgsz_cap, &best);
			if (m.start != iova)
				detail_add(&d, "start 0x%" PRIx64 ", want the iova 0x%" PRIx64, m.start, iova);
			if (m.length != r->len)
				detail_add(&d, "length 0x%" PRIx64 ", want 0x%zx", m.length, r->len);
			if (!(ok_mask & (1ull << (m.page_size + 12))))
				detail_add(&d, "page_size %u, want %u (iova/physical alignment)",
					   m.page_size, best - 12);
		}
		free(dump.raw);
		for (i = 0; i < n; i += n > 64 ? n / 64 : 1) {
			uint64_t a = i ? (iova & ~(PG - 1)) + i * PG : iova;
			uint64_t cpu = va + (a - iova);
			uint32_t len = (uint32_t)(cpu + 64 <= va + r->len ? 64 : va + r->len - cpu);
			uint32_t res = xl_read(tmp.mr->lkey, ACC_RR, a, got, len);

			if (res != XL_OK || memcmp(got, (void *)(uintptr_t)cpu, len))
				detail_add(&d, "iova 0x%" PRIx64 ": %s%s", a, xl_name(res),
					   res == XL_OK ? ", bytes differ" : "");
		}
		if (xl(tmp.mr->lkey, ACC_LR, va, 1, DIR_TO_BUF, NULL) != XL_RANGE && va != iova)
			detail_add(&d, "the buffer's own VA translates (%s), want RANGE",
				   xl_name(dbg_rd(R_XL_RESULT)));
		ibv_dereg_mr(tmp.mr);
		free(tmp.pa);
		check(!d.n, name, "%s", d.text);
	}
}

/* memory the process cannot give: EFAULT, nothing left behind */
static void test_efault(void)
{
	uint32_t base = hw_mpts();
	struct ibv_mr *mr;
	uint8_t *p;
	int err;

	p = mmap(NULL, 4 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(p + 2 * PG, 2 * PG);
	errno = 0;
	mr = ibv_reg_mr(pd1, p, 4 * PG, IBV_ACCESS_LOCAL_WRITE);	/* PROT_NONE + a hole */
	err = mr ? 0 : errno;
	check(!mr && err == EFAULT && hw_mpts() == base,
	      "bad input: PROT_NONE / unmapped buffer -> EFAULT",
	      "got %s, errno %d (%s)", mr ? "an MR" : "NULL", err, strerror(err));
	if (mr)
		ibv_dereg_mr(mr);
	mprotect(p, 2 * PG, PROT_READ);
	errno = 0;
	mr = ibv_reg_mr(pd1, p, 2 * PG, IBV_ACCESS_LOCAL_WRITE);
	err = mr ? 0 : errno;
	check(!mr && err == EFAULT && hw_mpts() == base,
	      "bad input: local write on a read-only mapping -> EFAULT",
	      "got %s, errno %d (%s)", mr ? "an MR" : "NULL", err, strerror(err));
	if (mr)
		ibv_dereg_mr(mr);
	mr = ibv_reg_mr(pd1, p, 2 * PG, IBV_ACCESS_REMOTE_READ);
	check(mr && hw_mpts() == base + 1, "a read-only mapping registers for remote read",
	      "%s", mr ? "HW-owned MPT count wrong" : strerror(errno));
	if (mr)
		ibv_dereg_mr(mr);
	munmap(p, 2 * PG);
}

static int mtt_capacity(struct region *r);

/* firmware failures injected through the debug window: the registration
 * fails, nothing is left behind (slots and MTT ranges are reusable) */
static void test_fw_faults(void)
{
	static const struct { uint32_t op; const char *name; uint32_t status; } faults[] = {
		{ 0x011, "WRITE_MTT", 0x03 },
		{ 0x00d, "SW2HW_MPT", 0x03 },
		{ 0x00d, "SW2HW_MPT", 0x09 },
		{ 0x011, "WRITE_MTT", 0x01 },
	};
	struct region *big = region_named("64MiB");
	uint32_t base = hw_mpts();
	int before, after;
	unsigned int f;

	before = mtt_capacity(big);
	for (f = 0; f < sizeof(faults) / sizeof(faults[0]); f++) {
		struct detail d = { "", 0 };
		uint32_t failed0 = dbg_rd(FI_FAILED);
		char name[160];
		int k, errs[3] = { 0 };

		for (k = 0; k < 3; k++) {
			struct ibv_mr *mr;

			dbg_wr(FI_FAIL_STATUS, faults[f].status);
			dbg_wr(FI_FAIL_EVERY, 0);
			dbg_wr(FI_FAIL_OPCODE, faults[f].op);
			mr = ibv_reg_mr(pd1, big->b->p + big->off, big->len,
					IBV_ACCESS_LOCAL_WRITE);
			errs[k] = mr ? 0 : errno;
			if (mr) {
				detail_add(&d, "registration %d succeeded", k);
				ibv_dereg_mr(mr);
			}
		}
		dbg_wr(FI_CLEAR, 1);
		if (dbg_rd(FI_FAILED) - failed0 != 3)
			detail_add(&d, "%u failures injected, want 3", dbg_rd(FI_FAILED) - failed0);
		if (hw_mpts() != base)
			detail_add(&d, "HW-owned MPTs %u -> %u", base, hw_mpts());
		snprintf(name, sizeof(name),
			 "firmware fault: %s status 0x%02x fails ibv_reg_mr (errno %d %s), nothing left",
			 faults[f].name, faults[f].status, errs[0], strerror(errs[0]));
		check(!d.n, name, "%s", d.text);
	}
	after = mtt_capacity(big);
	check(before > 0 && after == before,
	      "firmware faults leak no MTT range: as many 64 MiB MRs fit before and after",
	      "%d before, %d after", before, after);
}

/* how many registrations of r fit at once (ENOMEM), all freed again */
static int mtt_capacity(struct region *r)
{
	struct ibv_mr *mrs[4096];
	int n = 0, i;

	while (n < 4096) {
		mrs[n] = ibv_reg_mr(pd1, r->b->p + r->off, r->len, IBV_ACCESS_LOCAL_WRITE);
		if (!mrs[n])
			break;
		n++;
	}
	if (n == 4096 || errno != ENOMEM)
		n = -n - 1;
	for (i = 0; i < (n < 0 ? -n - 1 : n); i++)
		ibv_dereg_mr(mrs[i]);
	return n;
}

/* register until the driver runs out, then free everything */
static void exhaust(const char *what, struct region *r, int access, int max,
		    double secs)
{
	struct ibv_mr **mrs = calloc((size_t)max, sizeof(*mrs));
	uint32_t base = hw_mpts(), peak;
	double t0 = now();
	int n = 0, err = 0, i, bad = 0;
	char name[160];

	while (n < max && now() - t0 < secs) {
		mrs[n] = ibv_reg_mr(pd1, r->b->p + r->off, r->len, access);
		if (!mrs[n]) {
			err = errno;
			break;
		}
		n++;
	}
	peak = hw_mpts();
	note("%s: %d registrations of %s in %.1f s (%.0f/s), then %s; %u HW-owned MPTs",
	     what, n, r->name, now() - t0, n / (now() - t0 + 1e-9),
	     err ? strerror(err) : "stopped", peak);
	snprintf(name, sizeof(name), "%s: registering %s until the driver refuses gives ENOMEM",
		 what, r->name);
	if (!err) {
		char why[160];

		snprintf(why, sizeof(why), "no refusal after %d registrations in %.0f s",
			 n, now() - t0);
		skip(name, why);
	} else {
		check(err == ENOMEM && peak == base + (uint32_t)n, name,
		      "after %d MRs: errno %d (%s), HW-owned MPTs %u (base %u)",
		      n, err, strerror(err), peak, base);
	}
	for (i = 0; i < n; i++)
		if (ibv_dereg_mr(mrs[i]))
			bad++;
	free(mrs);
	snprintf(name, sizeof(name), "%s: after freeing all %d, the stub's HW-owned MPT count is back to %u",
		 what, n, base);
	check(!bad && hw_mpts() == base, name, "%d dereg failures, HW-owned MPTs %u",
	      bad, hw_mpts());
}

/* ------------------------------------------------------------------ */
/* selftest: the decoder and parser against hand-made images          */
/* ------------------------------------------------------------------ */

static void selftest(void)
{
	/* image 1, built by hand from the seed's field list:
	 * dw0 f0005d00: status F, eb 0, a 1, rw 0, rr 1, lw 1, lr 1, pa 0, r_w 1
	 * dw1 00000009: page_size 9; dw2 mem_key 0x00012345; dw3 pd 7
	 * start 0x00007f12_34567000, length 0x200000
	 * dw11 00000001 + dw12 00402008: mtt_adr 0x1_00402008; dw13 mtt_sz 1 */
	static const uint8_t img1[64] = {
		0xf0, 0x00, 0x5d, 0x00, 0x00, 0x00, 0x00, 0x09,
		0x00, 0x01, 0x23, 0x45, 0x00, 0x00, 0x00, 0x07,
		0x00, 0x00, 0x7f, 0x12, 0x34, 0x56, 0x70, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x00, 0x00, 0x01, 0x00, 0x40, 0x20, 0x08,
		0x00, 0x00, 0x00, 0x01,
	};
	/* image 2: every flag of dword 0 (0000ff00), dw1 abcdef93 (qpn abcdef,
	 * type 1, reserved2 0, page_size 19), dw3 06fedcba (ei 1, zb 1,
	 * pd fedcba), dw11 0000003f, dw12 fffffffd (mtt_adr 0x3f_fffffff8,
	 * reserved7 5), length 0x1_00000001 */
	static const uint8_t img2[64] = {
		0x00, 0x00, 0xff, 0x00, 0xab, 0xcd, 0xef, 0x93,
		0x01, 0x23, 0x45, 0x67, 0x06, 0xfe, 0xdc, 0xba,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0, 0x01,
		0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x00, 0x00, 0x3f, 0xff, 0xff, 0xff, 0xfd,
		0x00, 0x00, 0x02, 0x00,
	};
	static const char raw_json[] =
		"[{\"ifindex\":0,\"ifname\":\"arbel0\",\"data\":[240,0,93,0,0,0,0,9,0,1,35,69,0,0,0,7,"
		"0,0,127,18,52,86,112,0,0,0,0,0,0,32,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,64,32,8,"
		"0,0,0,1,0,0,0,0,0,0,0,0]},{\"ifindex\":1,\"ifname\":\"other0\",\"data\":[1]}]\n";
	static const char mr_json[] =
		"[{\"ifindex\":0,\"ifname\":\"arbel0\",\"mrn\":3,\"rkey\":\"12345\",\"lkey\":\"0x12345\","
		"\"mrlen\":4096,\"pid\":77,\"comm\":\"t\\\"q\",\"pdn\":1,\"drv\":{\"x\":true,\"y\":null},\"neg\":-1.5e3}]";
	struct mpt m;
	struct json *j;
	uint64_t v, pa[1024], mask;
	unsigned int best, i;

	mpt_decode(img1, &m);
	check(m.r_w == 1 && m.pa == 0 && m.lr == 1 && m.lw == 1 && m.rr == 1 &&
	      m.rw == 0 && m.a == 1 && m.eb == 0 && m.status == 0xf,
	      "selftest: dword 0 flags of image 1",
	      "r_w %u pa %u lr %u lw %u rr %u rw %u a %u eb %u status %x",
	      m.r_w, m.pa, m.lr, m.lw, m.rr, m.rw, m.a, m.eb, m.status);
	check(m.page_size == 9 && m.type == 0 && m.qpn == 0 && m.mem_key == 0x12345 &&
	      m.pd == 7 && m.start == 0x7f1234567000ull && m.length == 0x200000 &&
	      m.mtt_adr == 0x100402008ull && m.mtt_sz == 1 && m.lkey == 0,
	      "selftest: fields of image 1",
	      "page_size %u mem_key %x pd %u start %" PRIx64 " length %" PRIx64 " mtt %" PRIx64,
	      m.page_size, m.mem_key, m.pd, m.start, m.length, m.mtt_adr);
	mpt_decode(img2, &m);
	check(m.r_w && m.pa && m.lr && m.lw && m.rr && m.rw && m.a && m.eb &&
	      m.status == 0 && m.rsvd0 == 0 && m.rsvd1 == 0,
	      "selftest: every dword 0 flag of image 2", "dw0 %08x", m.dw[0]);
	check(m.page_size == 19 && m.rsvd2 == 0 && m.type == 1 && m.qpn == 0xabcdef &&
	      m.mem_key == 0x01234567 && m.pd == 0xfedcba && m.ei == 1 && m.zb == 1 &&
	      m.fre == 0 && m.rae == 0 && m.rsvd3 == 0 && m.rsvd4 == 0 &&
	      m.start == 0xfffffffffffff001ull && m.length == 0x100000001ull &&
	      m.mtt_adr == 0x3ffffffff8ull && m.rsvd7 == 5 && m.mtt_sz == 0x200,
	      "selftest: fields of image 2",
	      "page_size %u type %u qpn %x pd %x ei %u zb %u start %" PRIx64 " mtt %" PRIx64 " rsvd7 %u",
	      m.page_size, m.type, m.qpn, m.pd, m.ei, m.zb, m.start, m.mtt_adr, m.rsvd7);
	check(key_ror8(0x23456701) == 0x01234567 && key_ror8(0x00001100) == 0x11,
	      "selftest: key rotated right by 8 is the index", "%x", key_ror8(0x23456701));

	j = json_parse(raw_json);
	check(j && j->type == J_ARR && j->count == 2 &&
	      json_get(j->child, "data")->count == 64 &&
	      !strcmp(json_get(j->child, "ifname")->str, "arbel0"),
	      "selftest: JSON of rdma -j -r", "parse failed");
	if (j) {
		uint8_t raw[64];
		struct json *b;

		i = 0;
		for (b = json_get(j->child, "data")->child; b && i < 64; b = b->next)
			raw[i++] = (uint8_t)b->u;
		check(!memcmp(raw, img1, 64), "selftest: raw JSON bytes decode to image 1",
		      "bytes differ");
		json_free(j);
	}
	j = json_parse(mr_json);
	check(j && json_u64(json_get(j->child, "lkey"), 1, &v) && v == 0x12345 &&
	      json_u64(json_get(j->child, "rkey"), 1, &v) && v == 0x12345 &&
	      json_u64(json_get(j->child, "mrlen"), 0, &v) && v == 4096 &&
	      !strcmp(json_get(j->child, "comm")->str, "t\"q"),
	      "selftest: JSON of rdma -j (hex keys, nested, escapes)", "parse failed");
	json_free(j);
	check(!json_parse("[{\"a\":1,}") && !json_parse("[1 2]"),
	      "selftest: JSON syntax errors are refused", "accepted");

	/* page-size expectations on synthetic layouts */
	for (i = 0; i < 1024; i++)	/* 4 MiB physically contiguous at 1 GiB */
		pa[i] = 0x40000000ull + i * PG;
	mask = pgsz_acceptable(0x7f0000000000ull, 4 * MiB, pa, 0xfffff000ull, &best);
	check(best == 22 && (mask & (1ull << 21)) == 0 && (mask & (1ull << 22)),
	      "selftest: 4 MiB contiguous, aligned -> 4 MiB pages (1 entry)",
	      "best %u mask %" PRIx64, best, mask);
	mask = pgsz_acceptable(0x7f0000000000ull, 4 * MiB, pa, 0x201000ull, &best);
	check(best == 21 && mask == 0x200000ull,
	      "selftest: same with a 4K|2M cap -> 2 MiB pages", "best %u mask %" PRIx64, best, mask);
	for (i = 512; i < 1024; i++)	/* the second 2 MiB is elsewhere */
		pa[i] = 0x80000000ull + (i - 512) * PG;
	mask = pgsz_acceptable(0x7f0000000000ull, 4 * MiB, pa, 0xfffff000ull, &best);
	check(best == 21 && mask == 0x200000ull, "selftest: two separate huge pages -> 2 MiB",
	      "best %u mask %" PRIx64, best, mask);
	pa[0] = 0x40000000ull;
	pa[1] = 0x9000ull;		/* 4 KiB pages scattered */
	mask = pgsz_acceptable(0x7f0000000000ull, 8 * KiB, pa, 0xfffff000ull, &best);
	check(best == 12 && mask == 0x1000ull, "selftest: scattered 4 KiB pages -> 4 KiB",
	      "best %u mask %" PRIx64, best, mask);
	pa[0] = 0x40001000ull;		/* contiguous but at an odd page: 2 pages of 4K */
	pa[1] = 0x40002000ull;
	mask = pgsz_acceptable(0x7f0000000000ull, 8 * KiB, pa, 0xfffff000ull, &best);
	check(best == 12 && mask == 0x1000ull, "selftest: misaligned contiguous pages -> 4 KiB",
	      "best %u mask %" PRIx64, best, mask);
	pa[0] = 0x40000000ull;		/* 1 byte: anything valid with 1 page */
	mask = pgsz_acceptable(0x7f0000000007ull, 1, pa, 0xfffff000ull, &best);
	check(best == 12 && (mask & 0x1000ull) && (mask & (1ull << 30)),
	      "selftest: 1 byte -> 4 KiB (larger sizes also one entry)",
	      "best %u mask %" PRIx64, best, mask);
	check(npages_for(0x1fff, 2, 12) == 2 && npages_for(0x1000, 0x1000, 12) == 1 &&
	      npages_for(0x1234, 3 * MiB, 21) == 2,
	      "selftest: page counts", "%" PRIu64, npages_for(0x1fff, 2, 12));
	finish();
}

/*
 * --probe: the debug-window plumbing alone, with or without a driver:
 * the window's identity and state, and one translation with a key no
 * registration can have (reserved slot 1): never OK.
 */
static void probe(void)
{
	struct xl_out o;

	open_window();
	note("window: FW_STATE %u, HW_MPTS %u, LOG_MPT_SZ %u, MTT [0x%" PRIx64 ", 0x%" PRIx64 ")",
	     dbg_rd(DBG_FW_STATE), hw_mpts(), dbg_rd(DBG_LOG_MPT_SZ),
	     dbg_rd64(DBG_MTT_BASE_HI), dbg_rd64(DBG_MTT_END_HI));
	xl(0x00000100, ACC_LR, 0x1000, 1, DIR_TO_BUF, &o);
	note("translation with key 0x100: %s (index 0x%x), bounce page at pa 0x%" PRIx64,
	     xl_name(o.result), o.index, bounce_pa);
	check(o.result != XL_OK && o.result != 0xff &&
	      (o.result == XL_NOT_RUNNING || o.index == 1),
	      "probe: the engine ran and refused key 0x100",
	      "result %u index 0x%x", o.result, o.index);
	finish();
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	bool enomem = true;
	double enomem_secs = 300;
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--selftest"))
			selftest();
		else if (!strcmp(argv[i], "--probe"))
			probe();
		else if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else if (!strcmp(argv[i], "-d") && i + 1 < argc)
			devname = argv[++i];
		else if (!strcmp(argv[i], "--no-enomem"))
			enomem = false;
		else if (!strcmp(argv[i], "--enomem-secs") && i + 1 < argc)
			enomem_secs = atof(argv[++i]);
		else {
			fprintf(stderr, "usage: %s [-v] [-d DEV] [--no-enomem] [--enomem-secs N] | --selftest\n",
				argv[0]);
			return 2;
		}
	}
	srand(1);
	open_window();
	open_device();
	setup_buffers();
	check(hw_mpts() == 0, "stub: no HW-owned MPT before the first registration",
	      "%u HW-owned MPTs", hw_mpts());
	if (!hugetlb_ok)
		skip("hugetlb-backed regions", "MAP_HUGETLB failed (set vm.nr_hugepages)");

	test_bad_inputs();
	test_access_matrix();
	test_deep_all();
	test_rereg();
	test_iova();
	test_efault();
	test_fw_faults();
	if (enomem) {
		/* the MTT first: 64 MiB of 4 KiB pages is 16384 entries each */
		exhaust("MTT exhaustion", region_named("64MiB"), IBV_ACCESS_LOCAL_WRITE, 4096,
			enomem_secs / 3);
		exhaust("MPT exhaustion", region_named("4KiB"), IBV_ACCESS_LOCAL_WRITE,
			(int)num_mpts + 16, enomem_secs);
	} else {
		skip("ENOMEM", "--no-enomem");
	}

	{
		struct mpt_dump dump;
		bool ok = dump_mpts(&dump);

		check(ok && dump.n == 0, "after everything: no MPT of ours left in `rdma -r res show mr`",
		      "%s%d entries", ok ? "" : dump.err, dump.n);
		free(dump.raw);
	}
	ibv_dealloc_pd(pd2);
	ibv_dealloc_pd(pd1);
	ibv_close_device(ctx);
	check(hw_mpts() == 0, "after closing the device: the stub's HW-owned MPT count is 0",
	      "%u HW-owned MPTs", hw_mpts());
	finish();
	return 0;
}
