// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_bench: firmware command latency and commands per second, with P
 * processes registering and deregistering a 4 KiB buffer in a loop.
 *
 * Each cycle costs three firmware commands (WRITE_MTT, SW2HW_MPT,
 * HW2SW_MPT).  The driver's debugfs counters
 * (/sys/kernel/debug/arbel/<bdf>/commands/<OP>/{n,average_ns}) before and
 * after give the commands issued and their mean latency over the run (the
 * driver times each command from post to completion); the transport's
 * mode is read from commands/mode.  Run it once per mode (the module
 * loaded with and without polling=1): bench/cmd_run.sh does.
 *
 * A benchmark: it prints figures and judges nothing; it exits non-zero
 * only if it cannot run.
 *
 *   cmd_bench [-p PROCS] [-t SECONDS] [-d DEV]
 */

#define _GNU_SOURCE
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

static const char *const ops[] = { "WRITE_MTT", "SW2HW_MPT", "HW2SW_MPT" };
#define NOPS 3

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char dir[512];

static int find_dir(void)
{
	glob_t g;

	if (glob("/sys/kernel/debug/arbel/*/commands", 0, NULL, &g) ||
	    !g.gl_pathc)
		return -1;
	snprintf(dir, sizeof(dir), "%s", g.gl_pathv[0]);
	globfree(&g);
	return 0;
}

static double read_num(const char *op, const char *file)
{
	char path[640], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s%s%s", dir, op, *op ? "/" : "",
		 file);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	return atof(buf);
}

static void read_mode(char *mode, size_t len)
{
	char path[640];
	FILE *f;

	snprintf(path, sizeof(path), "%s/mode", dir);
	f = fopen(path, "r");
	if (!f || !fgets(mode, (int)len, f))
		snprintf(mode, len, "?");
	if (f)
		fclose(f);
	mode[strcspn(mode, "\n")] = 0;
}

/* One process: reg/dereg cycles until the deadline; the count to @fd. */
static int child(const char *name, double secs, int fd)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	struct ibv_pd *pd;
	long cycles = 0;
	double end;
	void *buf;
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!pd || buf == MAP_FAILED)
		return 1;
	end = now() + secs;
	while (now() < end) {
		struct ibv_mr *mr = ibv_reg_mr(pd, buf, 4096,
					       IBV_ACCESS_LOCAL_WRITE);

		if (!mr || ibv_dereg_mr(mr))
			return 1;
		cycles++;
	}
	if (write(fd, &cycles, sizeof(cycles)) != sizeof(cycles))
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	double n0[NOPS], a0[NOPS], n1, a1, t0, dt, cmds = 0, ns = 0;
	const char *dev = "arbel0";
	int procs = 1, opt, i, p[2], bad = 0;
	double secs = 5;
	long total = 0, c;
	char mode[32];

	while ((opt = getopt(argc, argv, "p:t:d:")) != -1) {
		switch (opt) {
		case 'p': procs = atoi(optarg); break;
		case 't': secs = atof(optarg); break;
		case 'd': dev = optarg; break;
		default:
			fprintf(stderr, "usage: cmd_bench [-p PROCS] [-t SECONDS] [-d DEV]\n");
			return 2;
		}
	}
	if (find_dir() || pipe(p)) {
		fprintf(stderr, "cmd_bench: no arbel debugfs directory\n");
		return 1;
	}
	read_mode(mode, sizeof(mode));
	for (i = 0; i < NOPS; i++) {
		n0[i] = read_num(ops[i], "n");
		a0[i] = read_num(ops[i], "average_ns");
	}
	t0 = now();
	for (i = 0; i < procs; i++)
		if (fork() == 0)
			_exit(child(dev, secs, p[1]));
	for (i = 0; i < procs; i++) {
		int st;

		wait(&st);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	}
	dt = now() - t0;
	close(p[1]);
	while (read(p[0], &c, sizeof(c)) == sizeof(c))
		total += c;
	for (i = 0; i < NOPS; i++) {
		n1 = read_num(ops[i], "n");
		a1 = read_num(ops[i], "average_ns");
		cmds += n1 - n0[i];
		ns += a1 * n1 - a0[i] * n0[i];
	}
	printf("mode %-7s procs %d  %6.1f s  %7ld reg+dereg  %8.0f reg/s  %8.0f cmds/s  mean latency %6.1f us%s\n",
	       mode, procs, dt, total, total / dt, cmds / dt,
	       cmds ? ns / cmds / 1000 : 0, bad ? "  (a process failed)" : "");
	return bad ? 1 : 0;
}
