// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace's raw records, read as the ABI says (one reader per CPU with
 * its affinity set, poll() before read()), hold their invariants field by
 * field: known ids, the size of each kind, allocated >= requested > 0,
 * a NUMA node that exists or -1 (-1 never for pages), page sizes, kernel
 * call sites and pointers, sequence numbers increasing on each CPU and
 * unique across CPUs.  Allocations are
 * made on every CPU by children pinned there, so every buffer is checked.
 * Booted with kmemtrace.enable=1 (scripts/test does), the records since
 * boot are checked first, from sequence number 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest.h"

#define KMEMTRACE	"/sys/kernel/debug/kmemtrace"
#define MAX_CPUS	64
#define CORE_SIZE	24
#define ALLOC_SIZE	48
/* x86-64: kernel addresses are in the upper half (5-level paging: from here). */
#define KERNEL_BASE	0xff00000000000000ULL

struct record {
	uint8_t		event_id, type_id;
	uint16_t	size;
	int32_t		seq;
	uint64_t	call_site, ptr;
	uint64_t	bytes_req, bytes_alloc;
	uint32_t	gfp;
	int32_t		node;
};

/* Nodes online: node<n> directories, 1 without NUMA. */
static int count_nodes(void)
{
	char path[64];
	int n = 0;

	do
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", n);
	while (!access(path, F_OK) && ++n < 1024);
	return n ? n : 1;
}

static int write_file(const char *name, const char *value)
{
	char path[256];
	int fd, ret;

	snprintf(path, sizeof(path), KMEMTRACE "/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, value, strlen(value)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_exit_fail_msg("sched_setaffinity(%d): %s\n", cpu,
				   strerror(errno));
}

/* Everything cpu<n> holds, read on CPU n: poll() then read(). */
static uint8_t *read_cpu(int fd, int cpu, size_t *len)
{
	size_t cap = 1 << 20;
	uint8_t *buf = malloc(cap);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	pin(cpu);
	*len = 0;
	/* Recording is off, so the buffers are flushed: no waiting. */
	if (poll(&p, 1, 10000) < 0)
		ksft_exit_fail_msg("poll cpu%d: %s\n", cpu, strerror(errno));
	for (;;) {
		if (cap - *len < 65536) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
		if (!buf)
			ksft_exit_fail_msg("out of memory\n");
		n = read(fd, buf + *len, 65536);
		if (n < 0)
			ksft_exit_fail_msg("read cpu%d: %s\n", cpu,
					   strerror(errno));
		if (!n)
			return buf;
		*len += n;
	}
}

/* Children on every CPU: forks and file opens allocate all three kinds. */
static void allocate_everywhere(int ncpus)
{
	int cpu, i;

	for (cpu = 0; cpu < ncpus; cpu++) {
		pid_t pid = fork();

		if (pid < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (!pid) {
			pin(cpu);
			for (i = 0; i < 20; i++) {
				int fd = open("/proc/self/status", O_RDONLY);
				pid_t c = fork();

				if (!c)
					_exit(0);
				if (c > 0)
					waitpid(c, NULL, 0);
				if (fd >= 0)
					close(fd);
			}
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
}

static int cmp_seq(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

#define FIRST_SITES	64

struct session {
	/* The call sites of CPU 0's first records. */
	uint64_t	first_sites[FIRST_SITES];
	size_t		nfirst;
	size_t		records;
	size_t		kinds[2][3];	/* event id, type id */
	int32_t		*seqs;
	size_t		nseqs;
	int32_t		lowest;
	int		bad_cpu;	/* -1: all good */
	char		why[200];
};

/* Check one CPU's records, adding them to @s; false at the first bad one. */
static int check_stream(const uint8_t *buf, size_t len, int cpu,
			struct session *s)
{
	size_t off = 0, n = 0;
	int32_t last = 0;
	int nodes = count_nodes();

	while (off < len) {
		struct record r = { 0 };
		char *why = s->why;

		if (len - off < CORE_SIZE) {
			snprintf(why, sizeof(s->why), "cpu%d offset %zu: %zu bytes left",
				 cpu, off, len - off);
			goto bad;
		}
		memcpy(&r, buf + off, CORE_SIZE);
		if (r.event_id == 0 && len - off >= ALLOC_SIZE)
			memcpy(&r, buf + off, ALLOC_SIZE);
		if (r.event_id > 1 || r.type_id > 2)
			snprintf(why, sizeof(s->why), "ids %u/%u", r.event_id,
				 r.type_id);
		else if (r.size != (r.event_id ? CORE_SIZE : ALLOC_SIZE))
			snprintf(why, sizeof(s->why), "size %u for event %u",
				 r.size, r.event_id);
		else if (n && (int32_t)((uint32_t)r.seq - (uint32_t)last) <= 0)
			snprintf(why, sizeof(s->why), "seq %d after %d", r.seq,
				 last);
		else if (r.call_site < KERNEL_BASE || r.ptr < KERNEL_BASE)
			snprintf(why, sizeof(s->why), "site %#llx ptr %#llx",
				 (unsigned long long)r.call_site,
				 (unsigned long long)r.ptr);
		else if (!r.event_id &&
			 (!r.bytes_req || r.bytes_alloc < r.bytes_req ||
			  r.node < (r.type_id == 2 ? 0 : -1) || r.node >= nodes))
			snprintf(why, sizeof(s->why), "req %llu alloc %llu node %d",
				 (unsigned long long)r.bytes_req,
				 (unsigned long long)r.bytes_alloc, r.node);
		else if (!r.event_id && r.type_id == 2 &&
			 (r.bytes_req != r.bytes_alloc || r.bytes_req % 4096 ||
			  (r.bytes_req & (r.bytes_req - 1))))
			snprintf(why, sizeof(s->why), "pages of %llu bytes",
				 (unsigned long long)r.bytes_req);
		if (why[0]) {
			char tmp[200];

			snprintf(tmp, sizeof(tmp), "cpu%d record %zu at %zu: %.150s",
				 cpu, n, off, why);
			strcpy(why, tmp);
			goto bad;
		}
		if (!cpu && s->nfirst < FIRST_SITES)
			s->first_sites[s->nfirst++] = r.call_site;
		s->kinds[r.event_id][r.type_id]++;
		s->seqs = realloc(s->seqs, (s->nseqs + 1) * sizeof(*s->seqs));
		if (!s->seqs)
			ksft_exit_fail_msg("out of memory\n");
		s->seqs[s->nseqs++] = r.seq;
		if (!s->records || r.seq < s->lowest)
			s->lowest = r.seq;
		s->records++;
		last = r.seq;
		off += r.size;
		n++;
	}
	ksft_print_msg("cpu%d: %zu records, %zu bytes\n", cpu, n, len);
	return 1;
bad:
	s->bad_cpu = cpu;
	return 0;
}

/* Read and check every CPU's records; recording must be off. */
static int read_session(int *fds, int ncpus, struct session *s)
{
	int cpu, ok = 1;

	memset(s, 0, sizeof(*s));
	s->bad_cpu = -1;
	for (cpu = 0; cpu < ncpus && ok; cpu++) {
		size_t len;
		uint8_t *buf = read_cpu(fds[cpu], cpu, &len);

		ok = check_stream(buf, len, cpu, s);
		free(buf);
	}
	return ok;
}

static int unique_seqs(struct session *s)
{
	size_t i;

	qsort(s->seqs, s->nseqs, sizeof(*s->seqs), cmp_seq);
	for (i = 1; i < s->nseqs; i++) {
		if (s->seqs[i] == s->seqs[i - 1]) {
			snprintf(s->why, sizeof(s->why), "%d twice", s->seqs[i]);
			return 0;
		}
	}
	return 1;
}

static int read_number(const char *name)
{
	char path[128], buf[32] = "";
	int fd, n;

	snprintf(path, sizeof(path), KMEMTRACE "/%s", name);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	return n > 0 ? atoi(buf) : -1;
}

/*
 * Whether one of @sites is in the slab allocator's start, the function
 * that calls kmemtrace_boot_init() next: kmem_cache_init() and the
 * __init functions it calls (/proc/kallsyms keeps init symbols).
 */
static int sites_in_slab_start(const uint64_t *sites, size_t n, char *why,
			       size_t whylen)
{
	static const char *const starts[] = {
		"kmem_cache_init", "bootstrap", "create_boot_cache",
		"create_kmalloc_cache", "create_kmalloc_caches",
		"new_kmalloc_cache",
	};
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long addr, best[FIRST_SITES] = { 0 };
	char line[256], type, name[128], names[FIRST_SITES][64];
	size_t i, j;
	int found = 0;

	if (!f) {
		snprintf(why, whylen, "/proc/kallsyms: %s", strerror(errno));
		return 0;
	}
	/* The nearest text symbol at or below each site. */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) != 3 ||
		    (type != 't' && type != 'T'))
			continue;
		for (i = 0; i < n; i++) {
			if (addr <= sites[i] && addr > best[i]) {
				best[i] = addr;
				snprintf(names[i], sizeof(names[i]), "%.63s", name);
			}
		}
	}
	fclose(f);
	for (i = 0; i < n && !found; i++)
		for (j = 0; j < ARRAY_SIZE(starts); j++)
			if (best[i] && !strcmp(names[i], starts[j]))
				found = 1;
	if (!found && n && best[0])
		snprintf(why, whylen, "first record from %s", names[0]);
	return found;
}

/*
 * scripts/test boots the test kernel with kmemtrace.enable=1 and
 * kmemtrace.buffer_size_kb=64: this runs first among the kselftests, so
 * the records since boot are still there, starting at sequence number 0.
 */
static void check_boot(int *fds, int ncpus)
{
	char cmdline[4096] = "";
	struct session s;
	int fd = open("/proc/cmdline", O_RDONLY), ok;

	if (fd >= 0) {
		if (read(fd, cmdline, sizeof(cmdline) - 1) < 0)
			cmdline[0] = '\0';
		close(fd);
	}
	if (!strstr(cmdline, "kmemtrace.enable=1") ||
	    !strstr(cmdline, "kmemtrace.buffer_size_kb=64")) {
		ksft_test_result_skip("recording from boot (%s)\n",
				      "not booted with kmemtrace.enable=1");
		ksft_test_result_skip("records since boot\n");
		ksft_test_result_skip("recording from the slab allocator's start\n");
		return;
	}
	ok = read_number("enabled") == 1 && read_number("buffer_size_kb") == 64;
	ksft_test_result(ok, "recording from boot: enabled 1, buffer_size_kb 64\n");
	write_file("enabled", "0");
	ok = read_session(fds, ncpus, &s) && s.records && !s.lowest &&
	     unique_seqs(&s);
	if (!ok && !s.why[0])
		snprintf(s.why, sizeof(s.why), "%zu records, lowest seq %d",
			 s.records, s.lowest);
	ksft_test_result(ok, "records since boot: invariants, from seq 0 (%zu%s%s)\n",
			 s.records, s.why[0] ? ": " : "", s.why);
	s.why[0] = '\0';
	ok = sites_in_slab_start(s.first_sites, s.nfirst, s.why, sizeof(s.why));
	ksft_test_result(ok,
			 "recording from the slab allocator's start: kmem_cache_init() among the first call sites %s\n",
			 s.why);
	free(s.seqs);
	if (write_file("buffer_size_kb", "1024"))
		ksft_exit_fail_msg("cannot set buffer_size_kb back to 1024\n");
}

int main(void)
{
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN), cpu, fds[MAX_CPUS], ok;
	struct session s;
	char path[128];

	ksft_print_header();
	if (getuid())
		ksft_exit_skip("must be root\n");
	if (access(KMEMTRACE "/abi_version", R_OK))
		ksft_exit_skip("no " KMEMTRACE " (CONFIG_KMEMTRACE)\n");
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	ksft_set_plan(8);

	/*
	 * Not booted with kmemtrace.enable=1 and never enabled since: the
	 * buffers, and their files, come with the first enable.
	 */
	if (access(KMEMTRACE "/cpu0", F_OK) &&
	    (write_file("enabled", "1") || write_file("enabled", "0")))
		ksft_exit_fail_msg("cannot enable kmemtrace for its buffers\n");

	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(path, sizeof(path), KMEMTRACE "/cpu%d", cpu);
		fds[cpu] = open(path, O_RDONLY);
		if (fds[cpu] < 0)
			ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	}
	check_boot(fds, ncpus);
	/* Reopen: a new buffer size made new files. */
	for (cpu = 0; cpu < ncpus; cpu++) {
		size_t len;

		close(fds[cpu]);
		snprintf(path, sizeof(path), KMEMTRACE "/cpu%d", cpu);
		fds[cpu] = open(path, O_RDONLY);
		if (fds[cpu] < 0)
			ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
		write_file("enabled", "0");
		free(read_cpu(fds[cpu], cpu, &len));	/* earlier sessions */
	}
	if (write_file("enabled", "1"))
		ksft_exit_fail_msg("cannot enable kmemtrace\n");
	allocate_everywhere(ncpus);
	write_file("enabled", "0");

	ok = read_session(fds, ncpus, &s);
	ksft_test_result(ok && s.records,
			 "every record of %d CPUs holds the invariants (%zu records%s%s)\n",
			 ncpus, s.records, ok ? "" : ": ", ok ? "" : s.why);
	ksft_test_result(s.kinds[0][0] && s.kinds[1][0],
			 "kmalloc allocations and frees (%zu, %zu)\n",
			 s.kinds[0][0], s.kinds[1][0]);
	ksft_test_result(s.kinds[0][1] && s.kinds[1][1],
			 "cache allocations and frees (%zu, %zu)\n",
			 s.kinds[0][1], s.kinds[1][1]);
	ksft_test_result(s.kinds[0][2] && s.kinds[1][2],
			 "page allocations and frees (%zu, %zu)\n",
			 s.kinds[0][2], s.kinds[1][2]);
	s.why[0] = '\0';
	ksft_test_result(unique_seqs(&s), "sequence numbers unique across CPUs %s\n",
			 s.why);
	free(s.seqs);
	for (cpu = 0; cpu < ncpus; cpu++)
		close(fds[cpu]);
	ksft_finished();
}
