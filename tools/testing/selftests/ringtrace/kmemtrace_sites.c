// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace charges every allocation to the code that asked for it and
 * pairs every free with its allocation, through every entry point of the
 * allocators: kmalloc_node(), kmem_cache_alloc_node(), large kmalloc on a
 * node, krealloc(), kfree_rcu(), the bulk calls, vmalloc(), kvmalloc(),
 * alloc_pages_exact(), split_page(), folios and alloc_pages_node().
 *
 * kmemtrace_pattern.ko's run_paths calls one path_*() function per entry
 * point; its expect file says, from the module's own constants, how many
 * allocations and frees each function's records must show, the bytes
 * asked for and the node asked for.  This reads the raw records (not the
 * reporter), resolves call sites through /proc/kallsyms, pairs allocations
 * and frees by pointer in sequence order, and compares.  Run by
 * kmemtrace_sites.sh, which loads the module.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rt_slowdown.h"

#define KMEMTRACE	"/sys/kernel/debug/kmemtrace"
#define PATTERN		"/sys/kernel/debug/kmemtrace_pattern"
#define MAX_CPUS	64
#define CORE_SIZE	24
#define ALLOC_SIZE	48
#define MAX_ROWS	32
/*
 * kfree_rcu() frees after its batching delay (5 s) and a grace period;
 * this long at most, scaled to the machine (rt_scaled(RCU_WAIT_S)).
 */
#define RCU_WAIT_S	60

struct record {
	uint8_t		event_id, type_id;
	uint16_t	size;
	int32_t		seq;
	uint64_t	call_site, ptr;
	uint64_t	bytes_req, bytes_alloc;
	uint32_t	gfp;
	int32_t		node;
};

struct sym {
	uint64_t	addr;
	char		name[64];
	int		pattern;	/* in [kmemtrace_pattern] */
};

/* One line of expect, and what the records showed for it. */
struct row {
	char		fn[48], type[16];
	long		allocs, frees, bytes;
	int		node, any_node;
	long		got_allocs, got_frees, got_bytes;
	int		node_wrong, wrong_node;	/* a record's node, if wrong */
};

/* A live allocation: pages and slab objects can share an address. */
struct live {
	uint64_t	ptr;
	int		pages, row;	/* row -1: not a path_*() site */
};

static struct sym *syms;
static size_t nsyms;
static struct row rows[MAX_ROWS];
static int nrows;
static struct record *recs;
static size_t nrecs, caprecs;
static struct live *lives;
static size_t nlives, caplives;
/* Allocations from a path function that expect has no row for. */
static size_t unexpected;
/* Frees from a path function that free nothing recorded as live. */
static size_t unpaired;
static const char *const types[] = { "kmalloc", "cache", "pages" };

static long read_long(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY), n;

	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	return n > 0 ? atol(buf) : -1;
}

static int write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, value, strlen(value)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Every text symbol, sorted: a call site is in the nearest one below. */
static void load_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256], type, name[128], mod[64];
	unsigned long long addr;
	size_t cap = 0;

	if (!f)
		ksft_exit_fail_msg("/proc/kallsyms: %s\n", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		mod[0] = '\0';
		if (sscanf(line, "%llx %c %127s %63s", &addr, &type, name,
			   mod) < 3 || (type != 't' && type != 'T') || !addr)
			continue;
		if (nsyms == cap) {
			cap = cap ? 2 * cap : 65536;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				ksft_exit_fail_msg("out of memory\n");
		}
		/* A compiler's clone (.constprop.0, .isra.0) is the function. */
		name[strcspn(name, ".")] = '\0';
		syms[nsyms].addr = addr;
		snprintf(syms[nsyms].name, sizeof(syms[nsyms].name), "%.63s",
			 name);
		syms[nsyms].pattern = !strcmp(mod, "[kmemtrace_pattern]");
		nsyms++;
	}
	fclose(f);
	qsort(syms, nsyms, sizeof(*syms), cmp_sym);
}

static const struct sym *symbol_of(uint64_t addr)
{
	size_t lo = 0, hi = nsyms;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &syms[lo - 1] : NULL;
}

static void load_expect(void)
{
	FILE *f = fopen(PATTERN "/expect", "r");
	char node[16];
	struct row *r;

	if (!f)
		ksft_exit_fail_msg(PATTERN "/expect: %s\n", strerror(errno));
	while (nrows < MAX_ROWS) {
		r = &rows[nrows];
		if (fscanf(f, "%47s %15s %ld %ld %ld %15s", r->fn, r->type,
			   &r->allocs, &r->frees, &r->bytes, node) != 6)
			break;
		r->any_node = !strcmp(node, "*");
		r->node = atoi(node);
		nrows++;
	}
	fclose(f);
	if (!nrows)
		ksft_exit_fail_msg(PATTERN "/expect: no rows\n");
}

static int row_of(const char *fn, int type)
{
	int i;

	for (i = 0; i < nrows; i++)
		if (!strcmp(rows[i].fn, fn) && !strcmp(rows[i].type, types[type]))
			return i;
	return -1;
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

/*
 * What cpu<n> holds now, read on CPU n (relay gives what lies below the
 * buffer's offset: whole records).  A record split across two reads is
 * kept in @carry for the next.
 */
static void drain_cpu(int fd, int cpu, uint8_t *carry, size_t *ncarry)
{
	static uint8_t buf[1 << 16];
	size_t len, off;
	ssize_t n;

	pin(cpu);
	for (;;) {
		memcpy(buf, carry, *ncarry);
		n = read(fd, buf + *ncarry, sizeof(buf) - *ncarry);
		if (n < 0)
			ksft_exit_fail_msg("read cpu%d: %s\n", cpu, strerror(errno));
		if (!n)
			return;
		len = *ncarry + n;
		for (off = 0; len - off >= CORE_SIZE;) {
			struct record r = { 0 };

			memcpy(&r, buf + off, CORE_SIZE);
			if (r.size != CORE_SIZE && r.size != ALLOC_SIZE)
				ksft_exit_fail_msg("cpu%d: record of %u bytes\n",
						   cpu, r.size);
			if (len - off < r.size)
				break;
			memcpy(&r, buf + off, r.size);
			if (nrecs == caprecs) {
				caprecs = caprecs ? 2 * caprecs : 65536;
				recs = realloc(recs, caprecs * sizeof(*recs));
				if (!recs)
					ksft_exit_fail_msg("out of memory\n");
			}
			recs[nrecs++] = r;
			off += r.size;
		}
		*ncarry = len - off;
		memcpy(carry, buf + off, *ncarry);
	}
}

static int32_t first_seq;

static int cmp_rec(const void *a, const void *b)
{
	int32_t x = (int32_t)((uint32_t)((const struct record *)a)->seq -
			      (uint32_t)first_seq);
	int32_t y = (int32_t)((uint32_t)((const struct record *)b)->seq -
			      (uint32_t)first_seq);

	return x < y ? -1 : x > y;
}

static struct live *find_live(uint64_t ptr, int pages)
{
	size_t i;

	for (i = nlives; i-- > 0;)
		if (lives[i].ptr == ptr && lives[i].pages == pages)
			return &lives[i];
	return NULL;
}

/* Replay the records in sequence order against a table of live memory. */
static void replay(void)
{
	size_t i;

	if (!nrecs)
		return;
	first_seq = recs[0].seq;
	for (i = 1; i < nrecs; i++)
		if ((int32_t)((uint32_t)recs[i].seq - (uint32_t)first_seq) < 0)
			first_seq = recs[i].seq;
	qsort(recs, nrecs, sizeof(*recs), cmp_rec);
	for (i = 0; i < nrecs; i++) {
		const struct record *r = &recs[i];
		int pages = r->type_id == 2, row = -1;
		const struct sym *s = symbol_of(r->call_site);
		int from_path = s && s->pattern && !strncmp(s->name, "path_", 5);
		struct live *l;

		if (r->type_id > 2)
			ksft_exit_fail_msg("record of type %u\n", r->type_id);
		if (r->event_id == 1) {
			l = find_live(r->ptr, pages);
			if (!l && from_path) {
				ksft_print_msg("%s frees %s %#llx, never allocated\n",
					       s->name, types[r->type_id],
					       (unsigned long long)r->ptr);
				unpaired++;
			}
			if (!l)
				continue;	/* allocated before the session */
			if (l->row >= 0)
				rows[l->row].got_frees++;
			*l = lives[--nlives];
			continue;
		}
		if (from_path)
			row = row_of(s->name, r->type_id);
		if (row >= 0) {
			rows[row].got_allocs++;
			rows[row].got_bytes += r->bytes_req;
			if (rows[row].any_node ? r->node < 0 :
			    r->node != rows[row].node) {
				rows[row].node_wrong = 1;
				rows[row].wrong_node = r->node;
			}
		} else if (from_path) {
			ksft_print_msg("unexpected %s allocation from %s\n",
				       types[r->type_id], s->name);
			unexpected++;
		}
		if (nlives == caplives) {
			caplives = caplives ? 2 * caplives : 65536;
			lives = realloc(lives, caplives * sizeof(*lives));
			if (!lives)
				ksft_exit_fail_msg("out of memory\n");
		}
		lives[nlives++] = (struct live){ r->ptr, pages, row };
	}
}

/*
 * Whether path_kfree_rcu()'s objects are all in, and all freed: a kmalloc
 * free of the same pointer with a later sequence number.
 */
static int rcu_done(void)
{
	size_t allocs = 0, frees = 0, i, j;

	for (i = 0; i < nrecs; i++) {
		const struct sym *s;

		if (recs[i].event_id || recs[i].type_id)
			continue;
		s = symbol_of(recs[i].call_site);
		if (!s || !s->pattern || strcmp(s->name, "path_kfree_rcu"))
			continue;
		allocs++;
		for (j = 0; j < nrecs; j++) {
			if (recs[j].event_id == 1 && !recs[j].type_id &&
			    recs[j].ptr == recs[i].ptr &&
			    (int32_t)((uint32_t)recs[j].seq -
				      (uint32_t)recs[i].seq) > 0) {
				frees++;
				break;
			}
		}
	}
	return allocs && frees == allocs;
}

int main(void)
{
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN), cpu, fds[MAX_CPUS], i;
	int rcu_wait = rt_scaled(RCU_WAIT_S);
	static uint8_t carry[MAX_CPUS][ALLOC_SIZE];
	size_t ncarry[MAX_CPUS] = { 0 };
	char path[128];
	long overruns;
	time_t start;

	ksft_print_header();
	if (getuid())
		ksft_exit_skip("must be root\n");
	if (access(PATTERN "/run_paths", W_OK))
		ksft_exit_skip("no " PATTERN "/run_paths (kmemtrace_pattern.ko)\n");
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	load_expect();
	load_kallsyms();
	ksft_set_plan(nrows + 4);

	write_file(KMEMTRACE "/enabled", "0");
	if (access(KMEMTRACE "/cpu0", F_OK) &&
	    (write_file(KMEMTRACE "/enabled", "1") ||
	     write_file(KMEMTRACE "/enabled", "0")))
		ksft_exit_fail_msg("cannot enable kmemtrace for its buffers\n");
	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(path, sizeof(path), KMEMTRACE "/cpu%d", cpu);
		fds[cpu] = open(path, O_RDONLY | O_NONBLOCK);
		if (fds[cpu] < 0)
			ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
		drain_cpu(fds[cpu], cpu, carry[cpu], &ncarry[cpu]);
		ncarry[cpu] = 0;
	}
	nrecs = 0;	/* earlier sessions */

	overruns = read_long(KMEMTRACE "/total_overruns");
	if (write_file(KMEMTRACE "/enabled", "1"))
		ksft_exit_fail_msg("cannot enable kmemtrace\n");
	if (write_file(PATTERN "/run_paths", "1"))
		ksft_exit_fail_msg("cannot write " PATTERN "/run_paths\n");
	/* Read while recording, until kfree_rcu()'s frees are in. */
	start = time(NULL);
	do {
		sleep(2);
		for (cpu = 0; cpu < ncpus; cpu++)
			drain_cpu(fds[cpu], cpu, carry[cpu], &ncarry[cpu]);
	} while (!rcu_done() && time(NULL) - start < rcu_wait);
	write_file(KMEMTRACE "/enabled", "0");
	for (cpu = 0; cpu < ncpus; cpu++) {
		drain_cpu(fds[cpu], cpu, carry[cpu], &ncarry[cpu]);
		close(fds[cpu]);
	}
	ksft_print_msg("%zu records in %lld s\n", nrecs,
		       (long long)(time(NULL) - start));

	replay();
	for (i = 0; i < nrows; i++) {
		struct row *r = &rows[i];
		int ok = r->got_allocs == r->allocs && r->got_frees == r->frees &&
			 r->got_bytes == r->bytes && !r->node_wrong;
		char want_node[16];

		if (r->any_node)
			snprintf(want_node, sizeof(want_node), ">= 0");
		else
			snprintf(want_node, sizeof(want_node), "%d", r->node);
		ksft_test_result(ok,
				 "%s %s: %ld allocs, %ld freed, %ld bytes, node %s; want %ld, %ld, %ld, node %s\n",
				 r->fn, r->type, r->got_allocs, r->got_frees,
				 r->got_bytes, r->node_wrong ? "wrong" : "right",
				 r->allocs, r->frees, r->bytes, want_node);
		if (r->node_wrong)
			ksft_print_msg("%s %s: a record asked for node %d\n",
				       r->fn, r->type, r->wrong_node);
	}
	ksft_test_result(rcu_done(), "kfree_rcu()'s frees arrived within %d s\n",
			 rcu_wait);
	ksft_test_result(!unexpected,
			 "no allocation from a path function that expect lacks (%zu)\n",
			 unexpected);
	ksft_test_result(!unpaired,
			 "every free from a path function frees a recorded allocation (%zu did not)\n",
			 unpaired);
	ksft_test_result(read_long(KMEMTRACE "/total_overruns") == overruns,
			 "no record refused by a full buffer (total_overruns %ld before)\n",
			 overruns);
	ksft_finished();
}
