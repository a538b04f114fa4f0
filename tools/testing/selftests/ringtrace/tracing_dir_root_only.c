// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing in the tracing directory is open to unprivileged users: every
 * file is root's with no group or other access bits, and a process running
 * as "nobody" cannot open README.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest.h"

#define TRACING		"/sys/kernel/debug/tracing"
#define NOBODY_UID	65534

static int exposed_files;

static int check_file(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_F && (st->st_uid != 0 || (st->st_mode & 077))) {
		ksft_print_msg("%s: uid %u mode %04o\n", path,
			       (unsigned int)st->st_uid, st->st_mode & 07777);
		exposed_files++;
	}
	return 0;
}

/* Exit status of a child that tries to open README as "nobody". */
static int open_as_nobody(void)
{
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (setresgid(NOBODY_UID, NOBODY_UID, NOBODY_UID) ||
		    setresuid(NOBODY_UID, NOBODY_UID, NOBODY_UID))
			_exit(2);
		fd = open(TRACING "/README", O_RDONLY);
		_exit(fd < 0 && errno == EACCES ? 0 : 1);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must be root\n");
	ksft_set_plan(2);

	if (nftw(TRACING, check_file, 16, FTW_PHYS))
		ksft_exit_fail_msg("walking %s: %m\n", TRACING);
	ksft_test_result(!exposed_files,
			 "every file is root's with mode 0?00 (%d exposed)\n",
			 exposed_files);

	ksft_test_result(open_as_nobody() == 0,
			 "uid %d gets EACCES opening README\n", NOBODY_UID);

	ksft_finished();
}
