/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/lib/util.h - small helpers every guest program of the tests needs:
 * dying with a message, clocks, sleeping and number parsing.
 *
 * This is the lowest layer of tests/lib: it includes nothing from the
 * library and calls nothing above it.
 */
#ifndef ARBEL_TESTS_UTIL_H
#define ARBEL_TESTS_UTIL_H

#include <stdint.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The kernel's attribute shorthands, as the kernel's kselftest helpers have them */
#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn	__attribute__((noreturn))
#endif

/* Exit status of a program that cannot run (usage or system error). */
#define ARBEL_EXIT_ERROR	2

/**
 * arbel_die() - print "PROGRAM: message" on stderr and exit
 * @fmt: printf format of the message (no trailing newline needed)
 *
 * Exits with ARBEL_EXIT_ERROR.  If a die hook is set (see
 * arbel_set_die_hook()), it is called with the message first.
 */
__noreturn __printf(1, 2) void arbel_die(const char *fmt, ...);

/**
 * arbel_set_die_hook() - have arbel_die() call @hook with its message
 * @hook: function called before exiting, or NULL for none
 *
 * The KTAP writer uses it to end its output with "Bail out!" when a
 * helper below it dies, without the helpers knowing about KTAP.
 */
void arbel_set_die_hook(void (*hook)(const char *msg));

/**
 * arbel_now_ns() - CLOCK_MONOTONIC in nanoseconds
 */
uint64_t arbel_now_ns(void);

/**
 * arbel_now_ms() - CLOCK_MONOTONIC in milliseconds
 */
uint64_t arbel_now_ms(void);

/**
 * arbel_msleep() - sleep for @ms milliseconds (restarted on signals)
 * @ms: milliseconds
 */
void arbel_msleep(unsigned int ms);

/**
 * arbel_parse_num() - parse a whole string as a number, or die
 * @str: decimal, 0x hexadecimal or 0 octal (strtoul base 0)
 * @what: what the number is, for the error message ("offset", ...)
 *
 * Return: the value; dies with "bad WHAT 'STR'" unless all of @str is a
 * number that fits an unsigned long.
 */
unsigned long arbel_parse_num(const char *str, const char *what);

#endif /* ARBEL_TESTS_UTIL_H */
