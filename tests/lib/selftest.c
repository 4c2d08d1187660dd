// SPDX-License-Identifier: GPL-2.0
/*
 * tests/lib/selftest.c - the C test library checked on the host.
 *
 *   make -C tests/lib check
 *
 * KTAP on stdout.  Checks needing root (physical addresses, locked pages)
 * or a hugetlb pool are skipped without them; it never changes the
 * host's vm.nr_hugepages.  The KTAP writer is checked by running it in a
 * child process and comparing its output with the text it must print.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dbgwin.h"
#include "ktap.h"
#include "mem.h"
#include "util.h"

/* run @fn in a child with stdout to a pipe; its output in @out */
static int run_child(void (*fn)(void), char *out, size_t size)
{
	size_t len = 0;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (pipe(fds))
		arbel_die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		arbel_die("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		fn();
		exit(0);
	}
	close(fds[1]);
	while (len + 1 < size && (n = read(fds[0], out + len, size - len - 1)) > 0)
		len += n;
	out[len] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void child_ktap(void)
{
	ktap_print_header();
	ktap_test_pass("pass %d\n", 1);
	ktap_test_fail("fail  #2");
	ktap_test_skip("no\ndevice", "skipped");
	ktap_test_check(false, "checked", "got %u, want %u", 1, 2);
	ktap_test_result(true, "result");
	ktap_print_msg("two\nlines\n");
	ktap_finished();
}

static const char ktap_expected[] =
	"KTAP version 1\n"
	"ok 1 pass 1\n"
	"not ok 2 fail 2\n"
	"ok 3 skipped # SKIP no\n"
	"# checked: got 1, want 2\n"
	"not ok 4 checked\n"
	"ok 5 result\n"
	"# two\n"
	"# lines\n"
	"1..5\n"
	"# passed 2, failed 2, skipped 1\n";

static void child_die(void)
{
	ktap_print_header();
	arbel_die("gone %d", 7);
}

static void child_parse_bad(void)
{
	arbel_parse_num("12x", "number");
}

static void test_ktap(void)
{
	char out[2048];
	int rc;

	rc = run_child(child_ktap, out, sizeof(out));
	ktap_test_check(rc == 1 && !strcmp(out, ktap_expected),
			"ktap: writer output and exit status 1 after a failure",
			"exit %d, output:\n%s", rc, out);
	rc = run_child(child_die, out, sizeof(out));
	ktap_test_check(rc == ARBEL_EXIT_ERROR &&
			strstr(out, "Bail out! gone 7\n"),
			"ktap: arbel_die after the header bails out",
			"exit %d, output:\n%s", rc, out);
}

static void test_util(void)
{
	uint64_t t0;
	char out[512];
	int rc;

	ktap_test_result(arbel_parse_num("0x10", "n") == 16 &&
			 arbel_parse_num("10", "n") == 10 &&
			 arbel_parse_num("010", "n") == 8,
			 "util: arbel_parse_num hex, decimal, octal");
	rc = run_child(child_parse_bad, out, sizeof(out));
	ktap_test_check(rc == ARBEL_EXIT_ERROR &&
			strstr(out, "bad number '12x'"),
			"util: arbel_parse_num dies on trailing junk",
			"exit %d, output: %s", rc, out);
	t0 = arbel_now_ms();
	arbel_msleep(20);
	ktap_test_check(arbel_now_ms() - t0 >= 20, "util: arbel_msleep(20)",
			"%llu ms", (unsigned long long)(arbel_now_ms() - t0));
}

static void test_buf(enum arbel_page_kind kind, const char *name, bool root)
{
	size_t len = 3 * ARBEL_HUGE_PAGE_SIZE + 5, i;
	bool present = true;
	char what[64];
	uint8_t *p;

	p = arbel_alloc_buf(len, kind);
	if (!p && kind == ARBEL_PAGES_HUGETLB) {
		ktap_test_skip(strerror(errno), "mem: %s buffer", name);
		return;
	}
	snprintf(what, sizeof(what), "mem: %s buffer: 2 MiB aligned", name);
	if (!ktap_test_check(p && !((uintptr_t)p % ARBEL_HUGE_PAGE_SIZE),
			     what, "%p: %s", p, p ? "not 2 MiB aligned" :
			     strerror(errno)))
		return;
	for (i = 0; i < len; i += ARBEL_PAGE_SIZE)
		present &= p[i] == 0 && (!root || arbel_virt_to_phys(p + i));
	ktap_test_result(present, "mem: %s buffer: zeroed%s", name,
			 root ? ", every page present" : "");
	arbel_free_buf(p, len, kind);
}

static void test_mem(void)
{
	bool root = arbel_virt_to_phys(&root) != 0;
	struct arbel_dma_page pages[2];
	long hp = arbel_hugetlb_pages();

	test_buf(ARBEL_PAGES_4K, "4K", root);
	test_buf(ARBEL_PAGES_THP, "THP", root);
	if (hp > 0)
		test_buf(ARBEL_PAGES_HUGETLB, "hugetlb", root);
	else
		ktap_test_skip("vm.nr_hugepages is 0", "mem: hugetlb buffer");
	ktap_test_result(arbel_sysfs_ulong("/proc/sys/vm/nr_hugepages") ==
			 (unsigned long)hp &&
			 arbel_sysfs_ulong("/nonexistent") == ~0UL,
			 "dev: arbel_sysfs_ulong, and ~0 for a missing file");
	if (!root) {
		ktap_test_skip("not root", "mem: arbel_virt_to_phys offsets");
		ktap_test_skip("not root", "mem: arbel_dma_pages");
		return;
	}
	ktap_test_result(arbel_virt_to_phys((char *)&root + 1) ==
			 arbel_virt_to_phys(&root) + 1,
			 "mem: arbel_virt_to_phys keeps the offset");
	arbel_dma_pages(pages, 2);
	ktap_test_result(pages[0].pa && !(pages[0].pa % ARBEL_PAGE_SIZE) &&
			 pages[1].pa && pages[1].va == pages[0].va + ARBEL_PAGE_SIZE,
			 "mem: arbel_dma_pages: page-aligned addresses");
}

static void test_names(void)
{
	bool named = true;
	uint32_t r;

	for (r = ARBEL_XL_OK; r <= ARBEL_XL_DMA_ERROR; r++)
		named &= strcmp(arbel_xlate_result_name(r), "?") != 0;
	ktap_test_result(named && !strcmp(arbel_xlate_result_name(ARBEL_XL_IDLE), "IDLE") &&
			 !strcmp(arbel_xlate_result_name(ARBEL_XL_DMA_ERROR + 1), "?"),
			 "dbgwin: every translation result has a name");
	ktap_test_result(!strcmp(arbel_xlate_access_name(ARBEL_XL_ACC_LOCAL_READ), "local-read") &&
			 !strcmp(arbel_xlate_access_name(ARBEL_XL_ACC_ATOMIC), "atomic") &&
			 !strcmp(arbel_xlate_access_name(0), "?"),
			 "dbgwin: access type names");
}

static void test_dev(void)
{
	struct arbel_dev d;

	if (arbel_dev_lookup(&d, NULL) == 0) {
		ktap_test_skip("this machine has one", "dev: no 15b3:6282 -> -ENODEV");
		return;
	}
	ktap_test_result(arbel_dev_lookup(&d, "0000:ff:ff.9") == -ENODEV,
			 "dev: no 15b3:6282, no such BDF -> -ENODEV");
}

int main(void)
{
	/* first: its children must start with the writer's state untouched */
	test_ktap();
	test_util();
	test_mem();
	test_names();
	test_dev();
	ktap_finished();
}
