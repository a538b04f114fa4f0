// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing directory is ringtrace's: it lives on debugfs itself (not on
 * a tracefs automount, which is what ftrace would put there) and its README
 * introduces ringtrace.
 */
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <linux/magic.h>

#include "../kselftest.h"

#define TRACING	"/sys/kernel/debug/tracing"
#define README_INTRO	"ringtrace tracing directory"

int main(void)
{
	char line[256] = "";
	struct statfs fs;
	FILE *readme;

	ksft_print_header();
	ksft_set_plan(2);

	if (statfs(TRACING, &fs))
		ksft_exit_skip("statfs(%s): %m\n", TRACING);
	ksft_test_result(fs.f_type == DEBUGFS_MAGIC,
			 "%s is on debugfs (f_type %#lx)\n", TRACING,
			 (unsigned long)fs.f_type);

	readme = fopen(TRACING "/README", "r");
	if (readme) {
		if (!fgets(line, sizeof(line), readme))
			line[0] = '\0';
		fclose(readme);
	}
	ksft_test_result(!strncmp(line, README_INTRO, strlen(README_INTRO)),
			 "README starts with \"%s\"\n", README_INTRO);

	ksft_finished();
}
