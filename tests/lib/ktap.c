// SPDX-License-Identifier: GPL-2.0
/*
 * tests/lib/ktap.c - KTAP version 1 output; see ktap.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"
#include "util.h"

#define KTAP_NAME_MAX	512

static struct {
	bool header;
	unsigned int num, pass, fail, skip;
} ktap;

static void ktap_bail_out(const char *msg)
{
	printf("Bail out! %s\n", msg);
	fflush(stdout);
}

void ktap_print_header(void)
{
	if (ktap.header)
		return;
	ktap.header = true;
	arbel_set_die_hook(ktap_bail_out);
	printf("KTAP version 1\n");
	fflush(stdout);
}

/* Format a name or message into @buf: no newlines, no '#' if @name. */
static void ktap_format(char *buf, size_t size, bool name, const char *fmt,
			va_list ap)
{
	char *s, *d;

	vsnprintf(buf, size, fmt, ap);
	for (s = d = buf; *s; s++) {
		char c = *s == '\n' ? ' ' : *s;

		if (name && (c == '#' || (c == ' ' && (d == buf || d[-1] == ' '))))
			continue;
		*d++ = c;
	}
	while (d > buf && d[-1] == ' ')
		d--;
	*d = '\0';
}

static void ktap_result(bool ok, const char *skip_reason, const char *fmt,
			va_list ap)
{
	char name[KTAP_NAME_MAX];

	ktap_print_header();
	ktap_format(name, sizeof(name), true, fmt, ap);
	ktap.num++;
	if (skip_reason) {
		ktap.skip++;
		printf("ok %u %s # SKIP %s\n", ktap.num, name, skip_reason);
	} else if (ok) {
		ktap.pass++;
		printf("ok %u %s\n", ktap.num, name);
	} else {
		ktap.fail++;
		printf("not ok %u %s\n", ktap.num, name);
	}
	fflush(stdout);
}

void ktap_test_pass(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_result(true, NULL, fmt, ap);
	va_end(ap);
}

void ktap_test_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_result(false, NULL, fmt, ap);
	va_end(ap);
}

void ktap_test_skip(const char *reason, const char *fmt, ...)
{
	char why[KTAP_NAME_MAX];
	va_list ap;

	snprintf(why, sizeof(why), "%s", reason && *reason ? reason : "skipped");
	why[strcspn(why, "\n")] = '\0';
	va_start(ap, fmt);
	ktap_result(true, why, fmt, ap);
	va_end(ap);
}

bool ktap_test_result(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_result(ok, NULL, fmt, ap);
	va_end(ap);
	return ok;
}

static void ktap_vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char msg[1024];
	char *line, *next;

	ktap_print_header();
	vsnprintf(msg, sizeof(msg), fmt, ap);
	line = msg;
	do {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		printf("# %s%s\n", prefix, line);
		line = next;
	} while (line && *line);
	fflush(stdout);
}

static void ktap_msg(const char *prefix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_vmsg(prefix, fmt, ap);
	va_end(ap);
}

bool ktap_test_check(bool ok, const char *name, const char *detail_fmt, ...)
{
	va_list ap;

	if (!ok) {
		char prefix[KTAP_NAME_MAX + 2];

		snprintf(prefix, sizeof(prefix), "%s: ", name);
		va_start(ap, detail_fmt);
		ktap_vmsg(prefix, detail_fmt, ap);
		va_end(ap);
	}
	return ktap_test_result(ok, "%s", name);
}

void ktap_print_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_vmsg("", fmt, ap);
	va_end(ap);
}

void ktap_exit_fail_msg(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	ktap_print_header();
	va_start(ap, fmt);
	ktap_format(msg, sizeof(msg), false, fmt, ap);
	va_end(ap);
	arbel_set_die_hook(NULL);
	ktap_bail_out(msg);
	exit(1);
}

void ktap_finished(void)
{
	ktap_print_header();
	printf("1..%u\n", ktap.num);
	ktap_msg("", "passed %u, failed %u, skipped %u", ktap.pass, ktap.fail,
		 ktap.skip);
	exit(ktap.fail ? 1 : 0);
}

unsigned int ktap_pass_count(void)
{
	return ktap.pass;
}

unsigned int ktap_fail_count(void)
{
	return ktap.fail;
}

unsigned int ktap_skip_count(void)
{
	return ktap.skip;
}
