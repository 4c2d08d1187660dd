// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_bench: memory registration cost of one RDMA device, in a form that
 * bench/compare.py puts side by side with other devices' runs.
 *
 * Runs in the guest against one device (arbel0, mthca0, rxe0, ...) with
 * stock libibverbs and prints one line "BENCH {json}" per measurement:
 *
 *   row   ibv_reg_mr + ibv_dereg_mr of one buffer (LOCAL_WRITE |
 *         REMOTE_READ | REMOTE_WRITE) repeated for -t seconds, -r times:
 *         microseconds per cycle of every repeat; firmware commands per
 *         registration and per deregistration (the stub's command counter,
 *         debug window CMD_COUNT, over 3 counted cycles after a warm-up
 *         cycle; absent without the stub), and over the same cycles
 *         the stub's register accesses, DMA reads and writes and
 *         interrupts per cycle (LC_ACCESSES, LC_DMAS, LC_IRQS: the host
 *         work a cycle costs beyond the guest's instructions); MTT
 *         entries (arbel: the driver's drv_mtt_entries from
 *         `rdma -dd res show mr`).
 *         Sizes 4 KiB .. 1 GiB on 4 KiB pages and on 2 MiB hugetlb pages;
 *         a row on 4 KiB pages first compacts the guest's free memory.
 *   procs P processes (fork, each its own context, PD and buffer) doing
 *         the same cycle at once for -t seconds: registrations per second
 *         in all, -r times.
 *   live  the cost of one cycle (4 KiB) with N other regions registered,
 *         N = 10^2 .. 10^5, and the memory those N regions cost the guest
 *         kernel (MemAvailable before and after, over N).
 *
 * It judges nothing; exit status non-zero only when it cannot run.
 *
 *   cmp_bench -d DEV [-t SECS] [-r REPEATS] [-m MAX_SIZE_MIB] [-L MAX_LIVE]
 *             [-s SIZE_KIB]
 *
 * -s runs the one row of that size on 4 KiB pages and nothing else, and
 * reserves no huge pages (for a profile of one size: bench/profile.sh).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "dbgwin.h"
#include "mem.h"
#include "util.h"

#define KiB 1024UL
#define MiB (1024UL * KiB)
#define MAX_REPEATS 32

static const size_t sizes[] = {
	4 * KiB, 64 * KiB, MiB, 16 * MiB, 64 * MiB, 1024 * MiB
};

static const int access_flags = IBV_ACCESS_LOCAL_WRITE |
				IBV_ACCESS_REMOTE_READ |
				IBV_ACCESS_REMOTE_WRITE;

static const char *devname = "arbel0";
static double secs = 0.5;
static int repeats = 5;
static size_t max_size = 1024 * MiB;
static long max_live = 100000;
static struct arbel_dev stub;
static bool have_stub;

static double now(void)
{
	return arbel_now_ns() / 1e9;
}

static long cmd_count(void)
{
	return have_stub ? (long)arbel_dbg_read(&stub, ARBEL_DBG_CMD_COUNT) : -1;
}

/* What the stub did since its reset: register accesses, DMA, interrupts. */
static const uint32_t stub_counters[] = {
	ARBEL_DBG_LC_ACCESSES, ARBEL_DBG_LC_DMAS, ARBEL_DBG_LC_IRQS,
};

#define N_STUB_COUNTERS (sizeof(stub_counters) / sizeof(stub_counters[0]))

static void stub_counts(long *c)
{
	unsigned int i;

	for (i = 0; i < N_STUB_COUNTERS; i++)
		c[i] = have_stub ? (long)arbel_dbg_read(&stub, stub_counters[i]) : 0;
}

/*
 * The PCI address of RDMA device @name ("0000:01:00.0"), or NULL if it has
 * none (rxe): then the first stub's counters are read, which nothing of
 * rxe's reaches (bench/run.sh binds no driver to it; in bench/traffic.sh
 * ib_mthca's stub is idle during rxe's turn).  With two stubs (arbel
 * beside ib_mthca) each device's own is read.
 */
static const char *pci_bdf(const char *name, char *buf, size_t len)
{
	char path[256], link[256];
	const char *slash;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return NULL;
	link[n] = '\0';
	slash = strrchr(link, '/');
	slash = slash ? slash + 1 : link;
	if (strlen(slash) >= len || !strchr(slash, ':'))
		return NULL;
	memcpy(buf, slash, strlen(slash) + 1);
	return buf;
}

static struct ibv_context *open_dev(void)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n, i;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), devname))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

static int cycle(struct ibv_pd *pd, void *buf, size_t len)
{
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, len, access_flags);

	if (!mr)
		return -errno;
	return ibv_dereg_mr(mr) ? -errno : 0;
}

/* Cycles for about secs seconds (at least one); seconds per cycle. */
static double timed(struct ibv_pd *pd, void *buf, size_t len, long *n)
{
	double t0 = now(), t;
	long k = 0;

	do {
		if (cycle(pd, buf, len))
			return -1;
		k++;
		t = now() - t0;
	} while (t < secs);
	if (n)
		*n = k;
	return t / k;
}

/* drv_mtt_entries of the MR with this lkey (arbel only), or -1. */
static long mtt_entries(uint32_t lkey)
{
	char line[1024], key[32];
	FILE *p = popen("rdma -dd res show mr 2>/dev/null", "r");
	long ent = -1;
	char *s;

	if (!p)
		return -1;
	snprintf(key, sizeof(key), "lkey 0x%x ", lkey);
	while (fgets(line, sizeof(line), p))
		if (strstr(line, key) && (s = strstr(line, "drv_mtt_entries ")))
			ent = atol(s + strlen("drv_mtt_entries "));
	pclose(p);
	return ent;
}

static void print_samples(const double *us, int n)
{
	int i;

	printf("\"us\": [");
	for (i = 0; i < n; i++)
		printf("%s%.2f", i ? ", " : "", us[i]);
	printf("]");
}

/*
 * Before a row's buffer on 4 KiB pages is allocated: compact the guest's
 * free memory.  What the RDMA core's pinning and SG table cost depends on
 * how the pages lie (a physically contiguous run is one SG entry), and
 * the guest's free memory fragments as rows run: compacting narrows how
 * much a row's cost grows from one turn to the next within a boot.  It
 * does not make separate boots alike: there the large rows still move by
 * up to a quarter (Documentation/benchmarks.rst, "Guest instructions").
 * Best effort: it needs root and compaction in the kernel.
 */
static void compact_memory(void)
{
	FILE *f = fopen("/proc/sys/vm/compact_memory", "w");

	if (!f)
		return;
	fputs("1\n", f);
	fclose(f);
}

static int row(struct ibv_pd *pd, size_t len, bool huge)
{
	enum arbel_page_kind kind = huge ? ARBEL_PAGES_HUGETLB : ARBEL_PAGES_4K;
	double us[MAX_REPEATS];
	long c0, c1, c2, ent = -1, regs = 0, deregs = 0;
	long life0[N_STUB_COUNTERS], life1[N_STUB_COUNTERS];
	struct ibv_mr *mr;
	void *buf;
	int i;

	if (!huge)
		compact_memory();
	buf = arbel_alloc_buf(len, kind);
	if (!buf) {
		printf("BENCH {\"kind\": \"row\", \"pages\": \"%s\", \"size\": %zu, \"skipped\": \"mmap%s: %s\"}\n",
		       huge ? "2M" : "4K", len, huge ? " MAP_HUGETLB" : "",
		       strerror(errno));
		return 0;
	}
	mr = ibv_reg_mr(pd, buf, len, access_flags);	/* warm-up */
	if (!mr) {
		printf("BENCH {\"kind\": \"row\", \"pages\": \"%s\", \"size\": %zu, \"skipped\": \"ibv_reg_mr: %s\"}\n",
		       huge ? "2M" : "4K", len, strerror(errno));
		arbel_free_buf(buf, len, kind);
		return 0;
	}
	ent = mtt_entries(mr->lkey);
	ibv_dereg_mr(mr);
	stub_counts(life0);
	for (i = 0; i < 3; i++) {
		c0 = cmd_count();
		mr = ibv_reg_mr(pd, buf, len, access_flags);
		c1 = cmd_count();
		if (!mr || ibv_dereg_mr(mr))
			goto fail;
		c2 = cmd_count();
		regs += c1 - c0;
		deregs += c2 - c1;
	}
	stub_counts(life1);
	for (i = 0; i < repeats; i++) {
		double t = timed(pd, buf, len, NULL);

		if (t < 0)
			goto fail;
		us[i] = t * 1e6;
	}
	printf("BENCH {\"kind\": \"row\", \"pages\": \"%s\", \"size\": %zu, ",
	       huge ? "2M" : "4K", len);
	print_samples(us, repeats);
	if (have_stub)
		printf(", \"cmds_reg\": %.3f, \"cmds_dereg\": %.3f, \"accesses\": %.3f, \"dmas\": %.3f, \"irqs\": %.3f",
		       regs / 3.0, deregs / 3.0, (life1[0] - life0[0]) / 3.0,
		       (life1[1] - life0[1]) / 3.0, (life1[2] - life0[2]) / 3.0);
	if (ent >= 0)
		printf(", \"mtt_entries\": %ld", ent);
	printf("}\n");
	fflush(stdout);
	arbel_free_buf(buf, len, kind);
	return 0;
fail:
	fprintf(stderr, "cmp_bench: %zu bytes: %s\n", len, strerror(errno));
	arbel_free_buf(buf, len, kind);
	return -1;
}

/* One child of procs(): its own context; cycles counted after "go". */
static void child(size_t len, int go, int res)
{
	struct ibv_context *ctx = open_dev();
	struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	void *buf = arbel_alloc_buf(len, ARBEL_PAGES_4K);
	long n = -1;
	char c;

	if (pd && buf && !cycle(pd, buf, len) && read(go, &c, 1) == 1)
		timed(pd, buf, len, &n);
	if (write(res, &n, sizeof(n)) != sizeof(n))
		_exit(1);
	_exit(0);
}

static int procs(size_t len, int np)
{
	double rate[MAX_REPEATS];
	int i, r, go[2], res[2];

	for (r = 0; r < repeats; r++) {
		long total = 0, n;
		double t0;

		if (pipe(go) || pipe(res))
			return -1;
		for (i = 0; i < np; i++)
			if (!fork())
				child(len, go[0], res[1]);
		usleep(200000);
		t0 = now();
		for (i = 0; i < np; i++)
			if (write(go[1], "g", 1) != 1)
				return -1;
		for (i = 0; i < np; i++) {
			if (read(res[0], &n, sizeof(n)) != sizeof(n) || n < 0)
				total = -1;
			else if (total >= 0)
				total += n;
		}
		rate[r] = total / (now() - t0);
		while (wait(NULL) > 0)
			;
		close(go[0]);
		close(go[1]);
		close(res[0]);
		close(res[1]);
		if (total < 0)
			return -1;
	}
	printf("BENCH {\"kind\": \"procs\", \"pages\": \"4K\", \"size\": %zu, \"procs\": %d, \"regs_per_s\": [",
	       len, np);
	for (r = 0; r < repeats; r++)
		printf("%s%.1f", r ? ", " : "", rate[r]);
	printf("]}\n");
	fflush(stdout);
	return 0;
}

static long mem_available_kib(void)
{
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int live(struct ibv_pd *pd, long n)
{
	struct ibv_mr **mrs = calloc(n, sizeof(*mrs));
	void *held = arbel_alloc_buf(4 * KiB, ARBEL_PAGES_4K);
	void *buf = arbel_alloc_buf(4 * KiB, ARBEL_PAGES_4K);
	double us[MAX_REPEATS];
	long m0, m1, i;
	int r, rc = 0;

	if (!mrs || !held || !buf)
		return -1;
	m0 = mem_available_kib();
	for (i = 0; i < n; i++) {
		mrs[i] = ibv_reg_mr(pd, held, 4 * KiB, access_flags);
		if (!mrs[i]) {
			printf("BENCH {\"kind\": \"live\", \"live\": %ld, \"skipped\": \"registration %ld: %s\"}\n",
			       n, i, strerror(errno));
			rc = 1;
			break;
		}
	}
	m1 = mem_available_kib();
	for (r = 0; !rc && r < repeats; r++) {
		double t = timed(pd, buf, 4 * KiB, NULL);

		if (t < 0) {
			rc = -1;
			break;
		}
		us[r] = t * 1e6;
	}
	if (!rc) {
		printf("BENCH {\"kind\": \"live\", \"live\": %ld, ", n);
		print_samples(us, repeats);
		printf(", \"bytes_per_region\": %.0f}\n",
		       (m0 - m1) * 1024.0 / n);
	}
	fflush(stdout);
	while (i-- > 0)
		ibv_dereg_mr(mrs[i]);
	free(mrs);
	arbel_free_buf(held, 4 * KiB, ARBEL_PAGES_4K);
	arbel_free_buf(buf, 4 * KiB, ARBEL_PAGES_4K);
	return rc < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	int opt, i, huge, rc = 0;
	char bdf[32];
	size_t only = 0;
	long hp, n;

	while ((opt = getopt(argc, argv, "d:t:r:m:L:s:")) != -1) {
		switch (opt) {
		case 'd':
			devname = optarg;
			break;
		case 't':
			secs = atof(optarg);
			break;
		case 'r':
			repeats = atoi(optarg);
			break;
		case 'm':
			max_size = strtoul(optarg, NULL, 0) * MiB;
			break;
		case 'L':
			max_live = atol(optarg);
			break;
		case 's':
			only = strtoul(optarg, NULL, 0) * KiB;
			break;
		default:
			fprintf(stderr, "usage: %s -d DEV [-t SECS] [-r REPEATS] [-m MAX_SIZE_MIB] [-L MAX_LIVE] [-s SIZE_KIB]\n",
				argv[0]);
			return 2;
		}
	}
	if (repeats < 1 || repeats > MAX_REPEATS) {
		fprintf(stderr, "cmp_bench: -r 1..%d\n", MAX_REPEATS);
		return 2;
	}
	have_stub = arbel_dbg_probe(&stub, pci_bdf(devname, bdf, sizeof(bdf)));
	ctx = open_dev();
	pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	if (!pd) {
		fprintf(stderr, "cmp_bench: no device %s or no PD: %s\n",
			devname, strerror(errno));
		return 1;
	}
	/* 1 GiB of 2 MiB pages, and some room */
	hp = only ? 0 : arbel_hugetlb_reserve(max_size / (2 * MiB) + 8);
	printf("BENCH {\"kind\": \"info\", \"device\": \"%s\", \"stub_counter\": %s, \"nr_hugepages\": %ld, \"secs\": %.2f, \"repeats\": %d}\n",
	       devname, have_stub ? "true" : "false", hp, secs, repeats);

	if (only) {
		rc = row(pd, only, 0) ? 1 : 0;
		goto out;
	}
	for (huge = 0; huge <= 1; huge++)
		for (i = 0; i < (int)ARRAY_SIZE(sizes); i++)
			if (sizes[i] <= max_size && row(pd, sizes[i], huge))
				rc = 1;
	for (i = 1; i <= 4; i *= 2) {
		if (procs(4 * KiB, i) || procs(MiB, i))
			rc = 1;
	}
	for (n = 100; n <= max_live; n *= 10)
		if (live(pd, n) < 0)
			rc = 1;
out:
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return rc;
}
