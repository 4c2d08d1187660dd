// SPDX-License-Identifier: GPL-2.0
/*
 * tests/lib/util.c - dying, clocks, sleeping, number parsing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util.h"

static void (*die_hook)(const char *msg);

void arbel_set_die_hook(void (*hook)(const char *msg))
{
	die_hook = hook;
}

void arbel_die(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fflush(stdout);
	if (die_hook) {
		void (*hook)(const char *msg) = die_hook;

		die_hook = NULL;	/* a hook that dies must not loop */
		hook(msg);
	}
	fprintf(stderr, "%s: %s\n", program_invocation_short_name, msg);
	exit(ARBEL_EXIT_ERROR);
}

uint64_t arbel_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t arbel_now_ms(void)
{
	return arbel_now_ns() / 1000000u;
}

void arbel_msleep(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

unsigned long arbel_parse_num(const char *str, const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(str, &end, 0);
	if (errno || !*str || *end || *str == '-')
		arbel_die("bad %s '%s'", what, str);
	return v;
}
