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
 *      then the raw MPT entries the firmware holds (`rdma -j -r res show mr`,
 *      which makes the driver run QUERY_MPT), decoded field by field by
 *      `python3 -m arbeltest.mpt_show` (tests/pylib), whose table is read
 *      from the PRM's own arbelprm_mpt_st text;
 *   4. on the emulated HCA (arbel-stub), let its translation engine use the
 *      keys like the HCA would: read through the lkey, write through the
 *      rkey, be refused a remote write on the local-only buffer;
 *   5. deregister, show the engine refusing the old keys, and check that
 *      nothing is left registered.
 *
 * Build, from the repository's top (tests/lib is the tests' C library:
 * device lookup, the stub's debug window, /proc/self/pagemap):
 *   gcc -O2 -Itests/lib -o reg_mr_demo examples/reg_mr_demo.c \
 *       tests/lib/dev.c tests/lib/dbgwin.c tests/lib/mem.c tests/lib/util.c \
 *       -libverbs
 * or `make -C examples`.  Run as root (raw restrack needs CAP_NET_ADMIN; the
 * debug window and /proc/self/pagemap need root), with tests/pylib on
 * PYTHONPATH for step 3.  Step 4 needs arbel-stub; on real hardware it is
 * skipped.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "dbgwin.h"
#include "mem.h"
#include "util.h"

#define MiB (1024 * 1024)

/* ------------------------------------------------------------------ */
/* arbel-stub's translation engine (its debug window in BAR0, see      */
/* Documentation/arbel-stub.rst).  Not part of real hardware.          */
/* ------------------------------------------------------------------ */

static struct arbel_dev dev;
static struct arbel_dma_page bounce;	/* the engine copies to or from it */

/* let the "HCA" access [va, va + len) with key; returns the result code */
static uint32_t hca_access(uint32_t key, uint32_t access, void *va,
			   uint32_t len, uint32_t dir)
{
	struct arbel_xlate_req req = {
		.key = key, .access = access, .va = (uintptr_t)va, .len = len,
		.dir = dir, .buf_pa = bounce.pa,
	};

	return arbel_xlate(&dev, &req, NULL);
}

static const char *result_name(uint32_t r)
{
	switch (r) {
	case ARBEL_XL_SW_OWNED:
		return "SW_OWNED (no such registration)";
	case ARBEL_XL_KEY_MISMATCH:
		return "KEY_MISMATCH (stale tag)";
	case ARBEL_XL_ACCESS:
		return "ACCESS (right not granted)";
	}
	return arbel_xlate_result_name(r);
}

/* MRs of device arbel0 the kernel's resource tracker lists, -1 on error */
static int tracked_mrs(void)
{
	FILE *p = popen("rdma res show mr", "r");
	char line[512];
	int n = 0;

	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, "dev arbel0 "))
			n++;
	return pclose(p) == 0 ? n : -1;
}

/* ------------------------------------------------------------------ */

struct demo_buf {
	const char *what;
	size_t len;
	int access;
	enum arbel_page_kind kind;
	void *addr;
	struct ibv_mr *mr;
};

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
	const int nbufs = ARRAY_SIZE(bufs);
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_device_attr attr;
	struct ibv_pd *pd;
	uint32_t num_mpts = 1u << 17, hw_mpts = 0, hw_mpts0 = 0;
	int i, n, have_window;
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
	have_window = arbel_dbg_probe(&dev, NULL);
	if (have_window) {
		num_mpts = 1u << arbel_dbg_read(&dev, ARBEL_DBG_LOG_MPT_SZ);
		/* the driver's own regions (its EQ ring in event mode) */
		hw_mpts0 = arbel_dbg_read(&dev, ARBEL_DBG_HW_MPTS);
		/* a locked page with a known physical address, for the engine */
		arbel_dma_pages(&bounce, 1);
	}
	printf("PD allocated; the MPT table has %u slots\n", num_mpts);

	heading("2. register three buffers");
	for (i = 0; i < nbufs; i++) {
		struct demo_buf *b = &bufs[i];

		if (i < 2) {
			b->kind = ARBEL_PAGES_4K;
		} else {
			/* hugetlbfs if vm.nr_hugepages allows, else THP */
			b->kind = ARBEL_PAGES_HUGETLB;
			how = "hugetlbfs page";
		}
		b->addr = arbel_alloc_buf(b->len, b->kind);
		if (!b->addr && b->kind == ARBEL_PAGES_HUGETLB) {
			b->kind = ARBEL_PAGES_THP;
			how = "transparent huge page";
			b->addr = arbel_alloc_buf(b->len, b->kind);
		}
		if (!b->addr) {
			perror("arbel_alloc_buf");
			return 1;
		}
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

	heading("3b. the MPT entries the firmware holds (python3 -m arbeltest.mpt_show)");
	fflush(stdout);
	if (system("python3 -m arbeltest.mpt_show arbel0") != 0)
		printf("python3 -m arbeltest.mpt_show failed (tests/pylib on PYTHONPATH?)\n");

	heading("4. the HCA uses the keys (arbel-stub's translation engine)");
	if (!have_window) {
		printf("no arbel-stub debug window here: skipped\n");
	} else {
		char *small = bufs[0].addr, *big = bufs[1].addr;
		char *seen = (char *)bounce.va;
		uint32_t r;

		strcpy(small, "written by the CPU, read by the HCA through the lkey");
		r = hca_access(bufs[0].mr->lkey, ARBEL_XL_ACC_LOCAL_READ, small, 64,
			       ARBEL_XL_DIR_TO_BUF);
		printf("local read  of the 4 KiB buffer via lkey 0x%08x: %s: \"%s\"\n",
		       bufs[0].mr->lkey, result_name(r), r == ARBEL_XL_OK ? seen : "");

		strcpy(seen, "written by a remote peer through the rkey");
		r = hca_access(bufs[1].mr->rkey, ARBEL_XL_ACC_REMOTE_WRITE,
			       big + 4096 - 10, 64, ARBEL_XL_DIR_TO_REGION);
		printf("remote write to the 1 MiB buffer via rkey 0x%08x: %s; the CPU sees \"%s\"\n",
		       bufs[1].mr->rkey, result_name(r), big + 4096 - 10);

		r = hca_access(bufs[0].mr->rkey, ARBEL_XL_ACC_REMOTE_WRITE, small, 8,
			       ARBEL_XL_DIR_TO_REGION);
		printf("remote write to the 4 KiB buffer (no remote write right): %s\n",
		       result_name(r));
		r = hca_access(bufs[0].mr->lkey, ARBEL_XL_ACC_LOCAL_READ, small + 4090,
			       16, ARBEL_XL_DIR_TO_BUF);
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
			       result_name(hca_access(key, ARBEL_XL_ACC_LOCAL_READ,
						      bufs[i].addr, 1,
						      ARBEL_XL_DIR_TO_BUF)));
		printf("\n");
		arbel_free_buf(bufs[i].addr, bufs[i].len, bufs[i].kind);
	}
	n = tracked_mrs();
	printf("MRs of arbel0 left in the resource tracker: %d\n", n);
	if (have_window) {
		hw_mpts = arbel_dbg_read(&dev, ARBEL_DBG_HW_MPTS);
		printf("hardware-owned MPT entries left in the stub: %u (%u before registering)\n",
		       hw_mpts, hw_mpts0);
	}
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return n == 0 && hw_mpts == hw_mpts0 ? 0 : 1;
}
