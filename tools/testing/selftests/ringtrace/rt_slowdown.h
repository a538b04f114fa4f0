/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ringtrace's C selftests share about waiting for the other side:
 * limits measured on the development machines, scaled to this one, and
 * a task's scheduler state.
 */
#ifndef RT_SLOWDOWN_H
#define RT_SLOWDOWN_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * @limit (in any unit) scaled by RT_SLOWDOWN, how much slower than the
 * development machine this one is, in percent (scripts/machine-speed;
 * scripts/test exports it and run-vm passes it into the VMs).  Unset or
 * not a percentage of at least 100: the limit as it is.  A slow machine
 * waits longer rather than fails.
 */
static inline long rt_scaled(long limit)
{
	const char *s = getenv("RT_SLOWDOWN");
	char *end;
	long pct;

	if (!s)
		return limit;
	pct = strtol(s, &end, 10);
	if (end == s || *end || pct <= 100)
		return limit;
	return limit * pct / 100;
}

/* The state letter of /proc/@pid/stat ('S' asleep, 'R' running), or 0. */
static inline char rt_proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

#endif /* RT_SLOWDOWN_H */
