// SPDX-License-Identifier: GPL-2.0
/*
 * A user that waits for asynchronous events, for test_events.py.
 *
 *   async_events DEV NMRS SECS STOP
 *
 * Opens DEV, allocates a PD and registers NMRS regions of 64 KiB (a line
 * "key 0xK" for each, its lkey), then prints "ready vmpin=N" (the
 * process' pinned KiB, /proc/self/status VmPin) and reads the context's async events without ever blocking: the
 * async fd is O_NONBLOCK and waited on with poll() and a deadline, so a
 * missing event ends in "timeout" and exit status 1 rather than a hung
 * test.  Each event is printed as "event NAME port N" and acknowledged.
 * On the event named STOP (e.g. PORT_ACTIVE, DEVICE_FATAL) it stops; after
 * DEVICE_FATAL it tries one more registration and prints
 * "reg-after-fatal errno=E" (0: it worked) and "vmpin-after=N", then
 * "done"; it then waits for a line on stdin (the test sends one once the
 * driver has recovered) and prints "vmpin-later=N", still holding its
 * context, whose regions the recovery must have released.
 * Exit status 0 once STOP was seen, 1 on timeout, 2 on a set-up error.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

#define MR_LEN (64 * 1024)

static long vmpin_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *name_of(enum ibv_event_type t)
{
	switch (t) {
	case IBV_EVENT_PORT_ACTIVE: return "PORT_ACTIVE";
	case IBV_EVENT_PORT_ERR: return "PORT_ERR";
	case IBV_EVENT_DEVICE_FATAL: return "DEVICE_FATAL";
	case IBV_EVENT_LID_CHANGE: return "LID_CHANGE";
	case IBV_EVENT_PKEY_CHANGE: return "PKEY_CHANGE";
	case IBV_EVENT_GID_CHANGE: return "GID_CHANGE";
	case IBV_EVENT_SM_CHANGE: return "SM_CHANGE";
	case IBV_EVENT_CLIENT_REREGISTER: return "CLIENT_REREGISTER";
	default: return "OTHER";
	}
}

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

int main(int argc, char **argv)
{
	struct ibv_async_event ev;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	double deadline;
	char line[16];
	int i, nmrs;
	char *buf;

	if (argc != 5) {
		fprintf(stderr, "usage: async_events DEV NMRS SECS STOP\n");
		return 2;
	}
	nmrs = atoi(argv[2]);
	ctx = open_dev(argv[1]);
	if (!ctx) {
		printf("error open %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	pd = ibv_alloc_pd(ctx);
	buf = aligned_alloc(4096, (size_t)(nmrs + 1) * MR_LEN);
	if (!pd || !buf) {
		printf("error alloc_pd: %s\n", strerror(errno));
		return 2;
	}
	memset(buf, 0x5a, (size_t)(nmrs + 1) * MR_LEN);
	for (i = 0; i < nmrs; i++) {
		struct ibv_mr *mr = ibv_reg_mr(pd, buf + (size_t)i * MR_LEN,
					       MR_LEN, IBV_ACCESS_LOCAL_WRITE);

		if (!mr) {
			printf("error reg_mr %d: %s\n", i, strerror(errno));
			return 2;
		}
		printf("key 0x%08x\n", mr->lkey);
	}
	if (fcntl(ctx->async_fd, F_SETFL,
		  fcntl(ctx->async_fd, F_GETFL) | O_NONBLOCK) < 0) {
		printf("error O_NONBLOCK: %s\n", strerror(errno));
		return 2;
	}
	printf("ready vmpin=%ld\n", vmpin_kib());
	fflush(stdout);

	deadline = now() + atof(argv[3]);
	for (;;) {
		struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
		int ms = (int)((deadline - now()) * 1000);

		if (ms <= 0 || poll(&p, 1, ms) <= 0) {
			printf("timeout\n");
			return 1;
		}
		if (ibv_get_async_event(ctx, &ev))
			continue;	/* EAGAIN: woken for nothing */
		printf("event %s port %d\n", name_of(ev.event_type),
		       ev.event_type == IBV_EVENT_DEVICE_FATAL ? 0 :
		       ev.element.port_num);
		fflush(stdout);
		ibv_ack_async_event(&ev);
		if (!strcmp(name_of(ev.event_type), argv[4]))
			break;
	}
	if (!strcmp(argv[4], "DEVICE_FATAL")) {
		struct ibv_mr *mr = ibv_reg_mr(pd, buf + (size_t)nmrs * MR_LEN,
					       MR_LEN, IBV_ACCESS_LOCAL_WRITE);

		printf("reg-after-fatal errno=%d\n", mr ? 0 : errno);
		printf("vmpin-after=%ld\n", vmpin_kib());
		printf("done\n");
		fflush(stdout);
		if (fgets(line, sizeof(line), stdin))
			printf("vmpin-later=%ld\n", vmpin_kib());
		return 0;
	}
	printf("done\n");
	return 0;
}
