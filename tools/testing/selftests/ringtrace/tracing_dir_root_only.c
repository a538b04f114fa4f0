// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing in the tracing directory is open to unprivileged users: every
 * file is root's with no group or other access bits, and a process running
 * as "nobody" gets EACCES opening any of them, for reading or writing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest.h"

#define TRACING		"/sys/kernel/debug/tracing"
#define NOBODY_UID	65534

#define MAX_FILES	4096

static int exposed_files;
static char *files[MAX_FILES];
static int nr_files;

static int check_file(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_F && nr_files < MAX_FILES)
		files[nr_files++] = strdup(path);
	if (type == FTW_F && (st->st_uid != 0 || (st->st_mode & 077))) {
		ksft_print_msg("%s: uid %u mode %04o\n", path,
			       (unsigned int)st->st_uid, st->st_mode & 07777);
		exposed_files++;
	}
	return 0;
}

/* Exit status of a child that tries every file as "nobody": 0 if all fail. */
static int open_as_nobody(void)
{
	int status, fd, i, opened = 0;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (setresgid(NOBODY_UID, NOBODY_UID, NOBODY_UID) ||
		    setresuid(NOBODY_UID, NOBODY_UID, NOBODY_UID))
			_exit(2);
		for (i = 0; i < nr_files; i++) {
			fd = open(files[i], O_RDONLY);
			if (fd >= 0 || errno != EACCES)
				opened++;
			fd = open(files[i], O_WRONLY);
			if (fd >= 0 || errno != EACCES)
				opened++;
		}
		_exit(opened ? 1 : 0);
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

	ksft_test_result(nr_files > 0 && open_as_nobody() == 0,
			 "uid %d gets EACCES opening each of the %d files\n",
			 NOBODY_UID, nr_files);

	ksft_finished();
}
