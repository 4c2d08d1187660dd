/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/lib/ktap.h - KTAP output for the tests' guest programs, in the
 * style of the kernel's kselftest helpers.
 *
 * The format is KTAP version 1 (the kernel's KTAP specification, in its
 * dev-tools documentation), the same as the Python writer in
 * tests/pylib/arbeltest/ktap.py prints:
 *
 *	KTAP version 1
 *	ok 1 name
 *	# name: why it failed
 *	not ok 2 name
 *	ok 3 name # SKIP why
 *	# any diagnostic
 *	1..3
 *	# passed 1, failed 1, skipped 1
 *
 * The plan comes last because a program rarely knows its number of tests
 * up front.  A skip is a skip: it is counted neither as passed nor as
 * failed.  Test names may be given with or without a trailing newline
 * (kselftest callers write "name\n"); a '#' in a name is dropped, since it
 * would start a directive.  Every line is flushed at once, so that a crash
 * loses nothing already decided.
 *
 * Counters are shared by all the files of one program.
 */
#ifndef ARBEL_TESTS_KTAP_H
#define ARBEL_TESTS_KTAP_H

#include <stdbool.h>

#include "util.h"

/**
 * ktap_print_header() - print "KTAP version 1" (once)
 *
 * Also makes arbel_die() end the output with "Bail out!".  The result
 * functions call it if the program did not.
 */
void ktap_print_header(void);

/**
 * ktap_test_pass() - report a passed test: "ok N name"
 * @fmt: printf format of the test's name
 */
void ktap_test_pass(const char *fmt, ...) __printf(1, 2);

/**
 * ktap_test_fail() - report a failed test: "not ok N name"
 * @fmt: printf format of the test's name
 */
void ktap_test_fail(const char *fmt, ...) __printf(1, 2);

/**
 * ktap_test_skip() - report a skipped test: "ok N name # SKIP reason"
 * @reason: why it did not run
 * @fmt: printf format of the test's name
 */
void ktap_test_skip(const char *reason, const char *fmt, ...)
	__printf(2, 3);

/**
 * ktap_test_result() - report a test passed if @ok, else failed
 * @ok: the outcome
 * @fmt: printf format of the test's name
 *
 * Return: @ok, so that a caller can go on only after a pass.
 */
bool ktap_test_result(bool ok, const char *fmt, ...)
	__printf(2, 3);

/**
 * ktap_test_check() - ktap_test_result() with a reason for a failure
 * @ok: the outcome
 * @name: the test's name
 * @detail_fmt: printf format of what went wrong, printed as
 *	"# name: detail" before "not ok N name" (only on failure)
 *
 * Return: @ok.
 */
bool ktap_test_check(bool ok, const char *name, const char *detail_fmt, ...)
	__printf(3, 4);

/**
 * ktap_print_msg() - print a diagnostic line: "# message"
 * @fmt: printf format; a trailing newline is optional
 */
void ktap_print_msg(const char *fmt, ...) __printf(1, 2);

/**
 * ktap_exit_fail_msg() - give up: "Bail out! message", exit status 1
 * @fmt: printf format of why
 */
void ktap_exit_fail_msg(const char *fmt, ...)
	__noreturn __printf(1, 2);

/**
 * ktap_finished() - print the plan "1..N" and the counts, then exit
 *
 * Exit status 0 if no test failed, 1 otherwise.
 */
void ktap_finished(void) __noreturn;

/* Tests reported so far, by outcome. */
unsigned int ktap_pass_count(void);
unsigned int ktap_fail_count(void);
unsigned int ktap_skip_count(void);

#endif /* ARBEL_TESTS_KTAP_H */
