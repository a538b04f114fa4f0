/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reporting of ringtrace's host tests: check() gathers the reasons a
 * test fails, result() prints "PASS <HOSTTEST_NAME>: name" or "FAIL ..."
 * with the reasons indented below, the lines scripts/test collects.
 * Define HOSTTEST_NAME ("kmemtrace host") before including this.
 */
#ifndef RINGTRACE_HOSTTEST_H
#define RINGTRACE_HOSTTEST_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int failures;
static char why[2048];

static void check(int ok, const char *fmt, ...)
{
	va_list ap;
	size_t n = strlen(why);

	if (ok || n > sizeof(why) - 300)
		return;
	va_start(ap, fmt);
	vsnprintf(why + n, sizeof(why) - n, fmt, ap);
	va_end(ap);
	strcat(why, "\n");
}

static void result(const char *name)
{
	if (why[0]) {
		char *line = strtok(why, "\n");

		printf("FAIL " HOSTTEST_NAME ": %s\n", name);
		for (; line; line = strtok(NULL, "\n"))
			printf("    %s\n", line);
		failures++;
	} else {
		printf("PASS " HOSTTEST_NAME ": %s\n", name);
	}
	why[0] = '\0';
}

#endif
