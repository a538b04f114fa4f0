// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz kprobe_events: write mutations of valid definition lines and check
 * that each is either accepted or refused with one of the documented
 * errnos, and that whatever was accepted lists in a canonical form that
 * reads back to the same definitions.  Nothing is ever enabled.  Oopses
 * and leaks show up on the console and in kmemleak, which the test run
 * checks after the selftests.
 *
 * Usage: kprobe_fuzz [LINES [SEED]]   (default 10000 lines, seed 1)
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"

#define TRACING		"/sys/kernel/debug/tracing"
#define EVENTS		TRACING "/kprobe_events"
#define PROFILE		TRACING "/kprobe_profile"
#define LINE_MAX_LEN	8192
#define LISTING_MAX	(1024 * 1024)
/* Lines between checks of the listing (and clears). */
#define ROUND		100

static const char *const seeds[] = {
	"p:myprobe do_sys_open a0 a1 a2 a3",
	"r:myretprobe do_sys_open rv ra",
	"p vfs_read %di %si +0(%di) -8(+16(%si)) s0 s1 sa",
	"p:grp/ev vfs_write+0 buf=a1:x64 count=a2:u32 $comm",
	"r4:rgrp/rev vfs_read $retval ra",
	"p:fetch ksys_read @jiffies_64 @jiffies+8 +0(+8(+16(%ax))):string",
	"p 0xffffffff81000000 a0",
	"-:myprobe",
	"p:t vfs_read $arg1 $arg2 $stack0 $stack name=+4($stack):s16",
	"r:kprobes/x vfs_write rv:s32 ra:x8",
	"p:a do_sys_open+4 a0:u8 a1:u16 a2:u64 a3:s64",
	"p:u do_sys_openat2 path=+0(%si):string p2=+u0(%si):ustring",
	"p:b vfs_read +0(%di):b4@4/8 +0(%di):u8[4] %di:symbol %di:symstr \\0x10 \\\"txt\"",
	"p:m ringtrace_kprobe_target:ringtrace_kprobe_target a0",
	"r 0xffffffff81000000",
};

static const char *const tokens[] = {
	" ", "\t", "\n", ":", "/", "+", "-", "(", ")", "=", "@", "%", "$",
	"a0", "a127", "a128", "s0", "sa", "rv", "ra", "%di", "%zz", "%ip",
	"$comm", "$retval", "$stack", "$arg0", "$arg9999", ":string", ":u8",
	":s64", ":x32", ":u7", "+0(", "-8(", "+4096(", "0x", "0xffffffffffffffff",
	"18446744073709551616", "do_sys_open", "vfs_read", "kprobe_int3_handler",
	"jiffies", "p:", "r:", "r9999:", "-:", "kprobes/", "#", "name=",
	"  a0 a1 a2 a3 a4 a5 a6 a7", "@0", "@-1", "+1(+1(+1(+1(+1(%ax)))))",
	":ustring", ":symstr", ":symbol", ":b4@4/8", ":b9@0/8", "[4]", "[65]",
	"+u0(", "\\", "\\\"", "\\-1", "ext4:", "ringtrace_kprobe_target:",
};

static unsigned long long rng_state;

static unsigned int rnd(unsigned int n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(rng_state >> 33) % n;
}

static void mutate(char *line)
{
	size_t len = strlen(line), at, n;
	const char *tok;
	char tmp[LINE_MAX_LEN];

	at = len ? rnd(len + 1) : 0;
	switch (rnd(6)) {
	case 0:		/* replace a byte */
		if (len)
			line[rnd(len)] = (char)(1 + rnd(255));
		break;
	case 1:		/* delete a span */
		n = rnd(8) + 1;
		if (at + n > len)
			n = len - at;
		memmove(line + at, line + at + n, len - at - n + 1);
		break;
	case 2:		/* insert a token */
	case 3:
		tok = tokens[rnd(ARRAY_SIZE(tokens))];
		if (len + strlen(tok) + 1 >= LINE_MAX_LEN)
			break;
		snprintf(tmp, sizeof(tmp), "%.*s%s%s", (int)at, line, tok,
			 line + at);
		strcpy(line, tmp);
		break;
	case 4:		/* duplicate the tail */
		if (2 * len - at + 1 >= LINE_MAX_LEN)
			break;
		snprintf(tmp, sizeof(tmp), "%s%s", line, line + at);
		strcpy(line, tmp);
		break;
	case 5:		/* truncate */
		line[at] = '\0';
		break;
	}
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n, total = 0;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + total, size - 1 - total)) > 0)
		total += n;
	close(fd);
	buf[total] = '\0';
	return n < 0 ? -1 : 0;
}

static int write_events(const char *text, int flags)
{
	int fd = open(EVENTS, O_WRONLY | flags);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = errno;
	close(fd);
	return err;
}

static int expected_errno(int err)
{
	return err == EINVAL || err == ENOENT || err == EEXIST ||
	       err == E2BIG || err == EILSEQ;
}

int main(int argc, char **argv)
{
	unsigned long lines = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000;
	unsigned long i, accepted = 0, refused = 0, bad_errno = 0;
	unsigned long bad_listing = 0, rounds = 0;
	static char line[LINE_MAX_LEN], listing[LISTING_MAX];
	static char again[LISTING_MAX];
	int err, m;

	rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	printf("TAP version 13\n1..2\n");
	if (access(EVENTS, W_OK)) {
		printf("# SKIP no writable %s\n", EVENTS);
		return 4;
	}
	if (write_events("", O_TRUNC)) {
		printf("Bail out! cannot clear kprobe_events (enabled probes?)\n");
		return 1;
	}
	for (i = 0; i < lines; i++) {
		strcpy(line, seeds[rnd(ARRAY_SIZE(seeds))]);
		for (m = rnd(4) + 1; m > 0; m--)
			mutate(line);
		err = write_events(line, O_APPEND);
		if (!err) {
			accepted++;
		} else if (expected_errno(err)) {
			refused++;
		} else {
			bad_errno++;
			printf("# unexpected %s for \"%s\"\n", strerror(err), line);
		}
		if ((i + 1) % ROUND && i + 1 != lines)
			continue;
		/* What is defined must list as lines that define it again. */
		rounds++;
		if (read_file(EVENTS, listing, sizeof(listing)) ||
		    read_file(PROFILE, again, sizeof(again)) ||
		    write_events("", O_TRUNC) ||
		    write_events(listing, O_APPEND) ||
		    read_file(EVENTS, again, sizeof(again)) ||
		    strcmp(listing, again)) {
			bad_listing++;
			printf("# round %lu: the listing does not read back:\n%s",
			       rounds, listing);
		}
		write_events("", O_TRUNC);
	}
	printf("# %lu lines: %lu accepted, %lu refused, %lu unexpected errnos\n",
	       lines, accepted, refused, bad_errno);
	printf("%sok 1 every mutated line is accepted or refused with a documented errno\n",
	       bad_errno ? "not " : "");
	printf("%sok 2 in %lu rounds, the accepted probes list in a form that reads back\n",
	       bad_listing ? "not " : "", rounds);
	return bad_errno || bad_listing;
}
