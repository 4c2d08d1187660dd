// SPDX-License-Identifier: GPL-2.0
/*
 * reg_bench: how fast does arbel register and deregister memory, and how
 * many firmware commands does each registration cost?
 *
 * For 4 KiB, 64 KiB, 1 MiB, 16 MiB and 64 MiB buffers, on normal 4 KiB
 * pages and on 2 MiB hugetlbfs pages, it registers and deregisters the same
 * buffer N times (N chosen so that a row takes about TARGET_S seconds),
 * timing the loop with clock_gettime(CLOCK_MONOTONIC) and reading the
 * driver's per-opcode command counters
 * (/sys/kernel/debug/arbel/<bdf>/commands/<OPCODE>/n) before and after.
 * It also asks the kernel's resource tracker (`rdma -dd res show mr`) for
 * the page size and MTT entry count the driver chose for that buffer, and
 * prints the expected count of commands, 1 + ceil(entries / 510).
 *
 * This is a benchmark: it prints figures, it does not judge them.  It exits
 * non-zero only if it cannot run (no device, a failed registration).
 *
 * Build (make -C bench does it), from the repository's top, with the C test
 * library's sources it uses (tests/lib: clocks, buffers, the hugetlb pool):
 *   gcc -O2 -Itests/lib -o reg_bench bench/reg_bench.c \
 *       tests/lib/dev.c tests/lib/mem.c tests/lib/util.c -libverbs
 * Run as root in the guest (debugfs, nr_hugepages):
 *   reg_bench [-t SECONDS] [-c "conditions text for the header"]
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "dev.h"
#include "mem.h"
#include "util.h"

#define KiB 1024UL
#define MiB (1024UL * 1024)
#define MTT_PER_CMD 510

static const size_t sizes[] = { 4 * KiB, 64 * KiB, 1 * MiB, 16 * MiB, 64 * MiB };
#define NSIZES ARRAY_SIZE(sizes)

enum { C_SW2HW, C_WRITE_MTT, C_HW2SW, NCOUNTERS };
static const char *const counter_names[NCOUNTERS] = {
	"SW2HW_MPT", "WRITE_MTT", "HW2SW_MPT"
};
static char counter_dir[512];	/* .../commands */

static double now(void)
{
	return arbel_now_ns() / 1e9;
}

static int find_counter_dir(void)
{
	const char *root = "/sys/kernel/debug/arbel";
	DIR *d = opendir(root);
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(counter_dir, sizeof(counter_dir), "%s/%s/commands",
			 root, e->d_name);
		if (access(counter_dir, R_OK) == 0) {
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return -1;
}

static int read_counters(uint64_t c[NCOUNTERS])
{
	char path[640];
	int i;

	for (i = 0; i < NCOUNTERS; i++) {
		unsigned long v;

		snprintf(path, sizeof(path), "%s/%s/n", counter_dir,
			 counter_names[i]);
		v = arbel_sysfs_ulong(path);
		if (v == ~0UL)
			return -1;
		c[i] = v;
	}
	return 0;
}

/* drv_page_shift and drv_mtt_entries of the MR with this lkey, or -1. */
static int query_mr(uint32_t lkey, int *page_shift, long *entries)
{
	char line[1024], key[32];
	FILE *p = popen("rdma -dd res show mr 2>/dev/null", "r");
	int found = -1;

	if (!p)
		return -1;
	snprintf(key, sizeof(key), "lkey 0x%x ", lkey);
	while (fgets(line, sizeof(line), p)) {
		char *s, *t;

		if (!strstr(line, key))
			continue;
		s = strstr(line, "drv_page_shift ");
		t = strstr(line, "drv_mtt_entries ");
		if (s && t) {
			*page_shift = atoi(s + strlen("drv_page_shift "));
			*entries = atol(t + strlen("drv_mtt_entries "));
			found = 0;
		}
	}
	pclose(p);
	return found;
}

static const int access_flags = IBV_ACCESS_LOCAL_WRITE |
				IBV_ACCESS_REMOTE_READ |
				IBV_ACCESS_REMOTE_WRITE;

/* n register + deregister cycles; returns elapsed seconds, < 0 on error. */
static double cycles(struct ibv_pd *pd, void *buf, size_t len, long n)
{
	double t0 = now();
	long i;

	for (i = 0; i < n; i++) {
		struct ibv_mr *mr = ibv_reg_mr(pd, buf, len, access_flags);

		if (!mr) {
			fprintf(stderr, "ibv_reg_mr(%zu): %s\n", len,
				strerror(errno));
			return -1;
		}
		if (ibv_dereg_mr(mr)) {
			fprintf(stderr, "ibv_dereg_mr: %s\n", strerror(errno));
			return -1;
		}
	}
	return now() - t0;
}

static void size_str(size_t len, char *out, size_t n)
{
	if (len >= MiB)
		snprintf(out, n, "%zu MiB", len / MiB);
	else
		snprintf(out, n, "%zu KiB", len / KiB);
}

int main(int argc, char **argv)
{
	const char *conditions = "";
	double target = 2.0;
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_pd *pd;
	struct utsname u;
	long hp;
	int n, i, opt, huge, rc = 0;

	while ((opt = getopt(argc, argv, "t:c:")) != -1) {
		switch (opt) {
		case 't':
			target = atof(optarg);
			break;
		case 'c':
			conditions = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-t seconds] [-c text]\n",
				argv[0]);
			return 2;
		}
	}

	if (find_counter_dir()) {
		fprintf(stderr, "no /sys/kernel/debug/arbel/*/commands\n");
		return 1;
	}
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !ctx; i++)
		if (!strncmp(ibv_get_device_name(list[i]), "arbel", 5))
			ctx = ibv_open_device(list[i]);
	if (!ctx) {
		fprintf(stderr, "no arbel device\n");
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		fprintf(stderr, "ibv_alloc_pd: %s\n", strerror(errno));
		return 1;
	}

	/* 64 MiB needs 32 huge pages; ask for a few more. */
	hp = arbel_hugetlb_reserve(40);

	uname(&u);
	printf("# reg_bench: ibv_reg_mr + ibv_dereg_mr of one buffer, repeated N times per row\n");
	printf("# guest kernel %s %s, device %s, debugfs %s\n", u.release,
	       u.machine, ibv_get_device_name(ctx->device),
	       counter_dir);
	printf("# %s; N per row chosen for about %.1f s (shown in column N); "
	       "nr_hugepages=%ld; access LOCAL_WRITE|REMOTE_READ|REMOTE_WRITE\n",
	       *conditions ? conditions : "conditions not given (-c)", target,
	       hp);
	printf("# cmds/reg: firmware commands per registration from the debugfs "
	       "counters; expect = 1 + ceil(mtt_entries / %d)\n", MTT_PER_CMD);
	printf("%-5s %7s %6s %7s %9s %9s %5s %7s %9s %9s %9s %6s\n",
	       "pages", "size", "N", "secs", "reg/s", "us/reg", "shift",
	       "mtt_ent", "SW2HW_MPT", "WRITE_MTT", "HW2SW_MPT", "expect");

	for (huge = 0; huge <= 1; huge++) {
		enum arbel_page_kind kind = huge ? ARBEL_PAGES_HUGETLB :
						   ARBEL_PAGES_4K;

		for (i = 0; i < (int)NSIZES; i++) {
			size_t len = sizes[i];
			char sz[32];
			void *buf;
			struct ibv_mr *mr;
			uint64_t c0[NCOUNTERS], c1[NCOUNTERS];
			int shift = -1;
			long ent = -1, k, nrep;
			double t, per;

			size_str(len, sz, sizeof(sz));
			buf = arbel_alloc_buf(len, kind);
			if (!buf) {
				printf("%-5s %7s   skipped: mmap%s failed: %s\n",
				       huge ? "2M" : "4K", sz,
				       huge ? " MAP_HUGETLB" : "",
				       strerror(errno));
				continue;
			}

			/* what the driver makes of this buffer */
			mr = ibv_reg_mr(pd, buf, len, access_flags);
			if (!mr) {
				fprintf(stderr, "ibv_reg_mr(%zu): %s\n", len,
					strerror(errno));
				rc = 1;
				arbel_free_buf(buf, len, kind);
				continue;
			}
			query_mr(mr->lkey, &shift, &ent);
			ibv_dereg_mr(mr);

			/* calibrate: double k until it takes >= 10% of target */
			for (k = 1;; k *= 2) {
				t = cycles(pd, buf, len, k);
				if (t < 0 || t >= target / 10 || k >= (1L << 24))
					break;
			}
			if (t < 0) {
				rc = 1;
				arbel_free_buf(buf, len, kind);
				continue;
			}
			per = t / k;
			nrep = (long)(target / per);
			if (nrep < 3)
				nrep = 3;

			if (read_counters(c0)) {
				fprintf(stderr, "cannot read counters\n");
				return 1;
			}
			t = cycles(pd, buf, len, nrep);
			if (read_counters(c1)) {
				fprintf(stderr, "cannot read counters\n");
				return 1;
			}
			if (t < 0) {
				rc = 1;
				arbel_free_buf(buf, len, kind);
				continue;
			}

			printf("%-5s %7s %6ld %7.2f %9.1f %9.1f %5d %7ld",
			       huge ? "2M" : "4K", sz, nrep, t, nrep / t,
			       t / nrep * 1e6, shift, ent);
			for (int c = 0; c < NCOUNTERS; c++)
				printf(" %9.3f",
				       (double)(c1[c] - c0[c]) / nrep);
			if (ent >= 0)
				printf(" %6ld", 1 + (ent + MTT_PER_CMD - 1) /
						    MTT_PER_CMD);
			else
				printf(" %6s", "?");
			printf("\n");
			fflush(stdout);
			arbel_free_buf(buf, len, kind);
		}
	}

	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return rc;
}
