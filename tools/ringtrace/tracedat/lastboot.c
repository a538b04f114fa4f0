// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat record --last-boot: the last boot's trace, kept in memory by
 * the persistent buffer (ringtrace.persist=SIZE@ADDR) and shown by the
 * next boot in the tracing directory's last_boot/, into a trace.dat file.
 * See Documentation/trace/trace-dat.rst.
 *
 * Read, never written (last_boot/keep is not touched):
 *   last_boot/stats			the kernel, whether it is this one,
 *					the text delta, the CPUs, each CPU's
 *					pages
 *   last_boot/per_cpu/cpuN/trace_pipe_raw	the CPU's pages in time
 *					order, read() up to EOF
 *   last_boot/events/SYSTEM/EVENT/format	the formats of the events the
 *					last boot had on, with its ids
 * and of this boot, the same kernel: events/header_page and header_event,
 * /proc/kallsyms and printk_formats with their addresses moved by the
 * text delta to the last boot's.  Nothing of this boot's that would be
 * wrong for the last one: no saved cmdlines (its tasks' names are not
 * known; records show "<...>-PID"), no CPU stats, no module symbols.
 *
 * Every page is walked before the file is written, each record checked
 * against its page and, with the last boot's formats, its event id
 * against theirs: in the record layout the header page says
 * (trace_pipe_raw's), or else in the buffer's 2008 layout, which an
 * empty header page then tells the file's readers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datfile.h"
#include "pages.h"
#include "record.h"

#define MAX_CPUS	4096

/* What last_boot/stats says. */
struct lb_stats {
	char		*sealed;	/* panic, reboot or no */
	char		*kernel;	/* release and version */
	int		same_kernel;	/* 1 yes, 0 no, -1 not said */
	uint64_t	text_delta;	/* last boot's text less this boot's */
	char		*clock;		/* "clock:", if the kernel says it */
	unsigned int	nr_cpus;
	unsigned int	*pages;		/* per CPU: "cpuN: P pages" */
	unsigned long long *records;	/* and "R records" */
};

/* One CPU's pages and what the walk found in them. */
struct lb_check {
	const uint32_t	*ids;		/* the formats' ids; NULL: any */
	uint32_t	nr_ids;
	int		big_endian;
	unsigned long long events;
	uint32_t	bad_id;		/* an id no format has, if found */
};

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The text after "KEY: " at the start of a line of @text, or NULL. */
static char *stats_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *line = text;

	while (line && *line) {
		if (!strncmp(line, key, n) && !strncmp(line + n, ": ", 2)) {
			const char *v = line + n + 2;

			return strndup(v, strcspn(v, "\n"));
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return NULL;
}

static void free_stats(struct lb_stats *st)
{
	free(st->sealed);
	free(st->kernel);
	free(st->clock);
	free(st->pages);
	free(st->records);
}

/*
 * last_boot/stats at @path into @st: 0, or -1 after printing why.  "cpus"
 * is needed; "cpuN: P pages, R records" is there for each CPU with pages.
 */
static int read_stats(const char *path, struct lb_stats *st)
{
	char *text, *v, *end, key[32];
	unsigned int cpu;
	size_t len;

	memset(st, 0, sizeof(*st));
	text = td_read_all(path, &len);
	if (!text) {
		fprintf(stderr, "tracedat: %s: %s\n", path, strerror(errno));
		return -1;
	}
	text[len] = '\0';
	st->sealed = stats_value(text, "sealed");
	st->kernel = stats_value(text, "kernel");
	st->clock = stats_value(text, "clock");
	v = stats_value(text, "same kernel");
	st->same_kernel = !v ? -1 : !strcmp(v, "yes");
	free(v);
	v = stats_value(text, "text delta");
	if (v) {
		errno = 0;
		st->text_delta = strtoull(v, &end, 16);
		if (errno || end == v || *end) {
			fprintf(stderr, "tracedat: %s: text delta \"%s\": not hexadecimal\n",
				path, v);
			goto bad;
		}
		free(v);
	}
	v = stats_value(text, "cpus");
	st->nr_cpus = v ? (unsigned int)strtoul(v, &end, 10) : 0;
	if (!v || end == v || *end || !st->nr_cpus || st->nr_cpus > MAX_CPUS) {
		fprintf(stderr, "tracedat: %s: no \"cpus: N\" line (1 to %d)\n",
			path, MAX_CPUS);
		goto bad;
	}
	free(v);
	v = NULL;
	st->pages = calloc(st->nr_cpus, sizeof(*st->pages));
	st->records = calloc(st->nr_cpus, sizeof(*st->records));
	if (!st->pages || !st->records) {
		fprintf(stderr, "tracedat: out of memory\n");
		goto bad;
	}
	for (cpu = 0; cpu < st->nr_cpus; cpu++) {
		snprintf(key, sizeof(key), "cpu%u", cpu);
		v = stats_value(text, key);
		if (!v)
			continue;
		if (sscanf(v, "%u pages, %llu records", &st->pages[cpu],
			   &st->records[cpu]) != 2) {
			fprintf(stderr, "tracedat: %s: %s: \"%s\": not \"P pages, R records\"\n",
				path, key, v);
			goto bad;
		}
		free(v);
		v = NULL;
	}
	free(text);
	return 0;
bad:
	free(v);
	free(text);
	free_stats(st);
	return -1;
}

/*
 * CPU @cpu's pages from @path, read() to EOF, into @b: 0, or -1 after
 * printing why.  A CPU without a directory has no pages.
 */
static int read_cpu(const char *path, unsigned int cpu, size_t page_size,
		    struct td_blob *b)
{
	size_t len = 0, cap = 0;
	uint8_t *buf = NULL;
	ssize_t n;
	int fd;

	b->data = NULL;
	b->len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "tracedat: CPU %u: %s: %s\n", cpu, path,
			strerror(errno));
		return -1;
	}
	for (;;) {
		if (cap - len < page_size) {
			uint8_t *p;

			cap = cap ? cap * 2 : 16 * page_size;
			p = realloc(buf, cap);
			if (!p) {
				n = -1;
				errno = ENOMEM;
				break;
			}
			buf = p;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (n < 0) {
		fprintf(stderr, "tracedat: CPU %u: reading %s: %s\n", cpu, path,
			strerror(errno));
		free(buf);
		return -1;
	}
	if (len % page_size) {
		fprintf(stderr, "tracedat: CPU %u: %s: %zu bytes, not whole pages of %zu\n",
			cpu, path, len, page_size);
		free(buf);
		return -1;
	}
	b->data = buf;
	b->len = len;
	return 0;
}

/*
 * @text (kallsyms or printk_formats lines, "[0x]ADDRESS ...") with every
 * address moved by @delta, as a new blob.  With @kallsyms, lines of
 * modules ("\t[MOD]" after the name) are left out: the last boot's modules
 * were elsewhere, if loaded at all.  Absolute symbols (type A) and null
 * addresses (hidden by kptr_restrict) stay as they are.
 */
static struct td_blob shift_addresses(const char *text, size_t len,
				      uint64_t delta, int kallsyms)
{
	struct td_blob b = { 0 };
	const char *line = text, *end = text + len;
	size_t n = 0, lines = 1;
	char *out;

	/* A line grows by 16 digits at most. */
	for (; line < end; line++)
		lines += *line == '\n';
	line = text;
	out = malloc(len + 16 * lines);
	if (!out)
		return b;
	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t l = nl ? (size_t)(nl - line) + 1 : (size_t)(end - line);
		const char *hex = line, *after;
		unsigned long long addr = 0;
		int digits;

		if (kallsyms && memmem(line, l, "\t[", 2)) {
			line += l;
			continue;
		}
		if (l > 2 && hex[0] == '0' && hex[1] == 'x')
			hex += 2;
		for (after = hex; after < line + l && *after &&
		     strchr("0123456789abcdefABCDEF", *after); after++)
			addr = addr << 4 | (uint64_t)(*after <= '9' ? *after - '0' :
						      (*after | 0x20) - 'a' + 10);
		digits = (int)(after - hex);
		if (digits && digits <= 16 && after < line + l && *after == ' ' &&
		    addr && !(after + 2 < line + l && (after[1] == 'A' ||
							after[1] == 'a') &&
			      after[2] == ' ')) {
			addr += delta;
			if (digits < 16 && addr >> (4 * digits))
				digits = 16;
			memcpy(out + n, line, (size_t)(hex - line));
			n += (size_t)(hex - line);
			n += (size_t)sprintf(out + n, "%0*llx", digits, addr);
			memcpy(out + n, after, (size_t)(line + l - after));
			n += (size_t)(line + l - after);
		} else {
			memcpy(out + n, line, l);
			n += l;
		}
		line += l;
	}
	b.data = (const uint8_t *)out;
	b.len = n;
	return b;
}

/* The "ID: N" of a format, or -1. */
static long format_id(const struct td_blob *f)
{
	const char *p = memmem(f->data, f->len, "\nID: ", 5);

	return p ? strtol(p + 5, NULL, 10) : -1;
}

/* Every format's id, into a new array: its length, or -1 without memory. */
static long collect_ids(const struct td_file *tf, uint32_t **ids)
{
	uint32_t i, j, n = 0, max = tf->nr_ftrace_formats;

	for (i = 0; i < tf->nr_systems; i++)
		max += tf->systems[i].nr_formats;
	*ids = calloc(max + 1, sizeof(**ids));
	if (!*ids)
		return -1;
	for (i = 0; i < tf->nr_ftrace_formats; i++)
		if (format_id(&tf->ftrace_formats[i]) >= 0)
			(*ids)[n++] = (uint32_t)format_id(&tf->ftrace_formats[i]);
	for (i = 0; i < tf->nr_systems; i++)
		for (j = 0; j < tf->systems[i].nr_formats; j++)
			if (format_id(&tf->systems[i].formats[j]) >= 0)
				(*ids)[n++] = (uint32_t)
					format_id(&tf->systems[i].formats[j]);
	return n;
}

static int check_event(const struct td_event *ev, void *ctx)
{
	struct lb_check *c = ctx;
	uint32_t i, id;

	c->events++;
	if (!c->ids)
		return 0;
	if (ev->len < 2) {
		c->bad_id = UINT32_MAX;
		return 1;
	}
	id = c->big_endian ? (uint32_t)ev->data[0] << 8 | ev->data[1] :
			     (uint32_t)ev->data[1] << 8 | ev->data[0];
	for (i = 0; i < c->nr_ids; i++)
		if (c->ids[i] == id)
			return 0;
	c->bad_id = id;
	return 1;
}

/*
 * Whether every page of every CPU of @tf walks in the record layout
 * @modern (and each record's id is a format's, given @ids): 0, or -1 with
 * the first problem in @err.  Counts each CPU's events into @events.
 */
static int walk_all(const struct td_file *tf, int modern, const uint32_t *ids,
		    uint32_t nr_ids, unsigned long long *events, char *err,
		    size_t errlen)
{
	struct td_page_format pf = {
		.page_size = tf->page_size,
		.long_size = tf->long_size,
		.big_endian = tf->big_endian,
		.modern = modern,
	};
	uint32_t cpu;

	for (cpu = 0; cpu < tf->nr_cpus; cpu++) {
		struct lb_check c = {
			.ids = ids, .nr_ids = nr_ids,
			.big_endian = tf->big_endian,
		};
		int ret = td_walk_pages(tf->cpu_data[cpu].data,
					tf->cpu_data[cpu].len, (int)cpu, &pf,
					check_event, &c, err, errlen);

		if (ret > 0)
			snprintf(err, errlen, "CPU %u: event %llu: %s", cpu,
				 c.events, c.bad_id == UINT32_MAX ?
				 "shorter than an event id" : "an event id no format has");
		if (ret > 0 && c.bad_id != UINT32_MAX)
			snprintf(err + strlen(err), errlen - strlen(err),
				 " (%u)", c.bad_id);
		if (ret)
			return -1;
		events[cpu] = c.events;
	}
	return 0;
}

/*
 * Whether each CPU's @events are the records @st counted: 0, or -1 with
 * the first that is not in @err.
 */
static int same_counts(const struct td_file *tf, const struct lb_stats *st,
		       const unsigned long long *events, char *err,
		       size_t errlen)
{
	uint32_t cpu;

	for (cpu = 0; cpu < tf->nr_cpus; cpu++)
		if (events[cpu] != st->records[cpu]) {
			snprintf(err, errlen, "CPU %u: %llu events, the stats say %llu records",
				 cpu, events[cpu], st->records[cpu]);
			return -1;
		}
	return 0;
}

/*
 * The formats: last_boot/events/ (the last boot's, with its ids), and
 * this boot's ftrace events if it has none of them (built-in events keep
 * their ids in the same kernel).  Without last_boot/events/ (a kernel
 * before it), this boot's, with a warning.  Returns whether the ids are
 * the last boot's.
 */
static int read_last_formats(const char *tracing, const char *last,
			     int same_kernel, struct td_file *tf)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/events", last);
	if (!is_dir(path)) {
		fprintf(stderr, "tracedat: warning: no %s: %s\n", path,
			"this boot's formats are used (events it has not show as unknown, events whose ids changed as others)");
		snprintf(path, sizeof(path), "%s/events", tracing);
		td_read_formats(path, tf);
		return 0;
	}
	td_read_formats(path, tf);
	if (!tf->nr_ftrace_formats && same_kernel) {
		struct td_file now = { 0 };

		snprintf(path, sizeof(path), "%s/events", tracing);
		td_read_formats(path, &now);
		tf->ftrace_formats = now.ftrace_formats;
		tf->nr_ftrace_formats = now.nr_ftrace_formats;
		now.ftrace_formats = NULL;
		now.nr_ftrace_formats = 0;
		td_release_sections(&now);
	}
	return 1;
}

/*
 * Choose the record layout the pages are in and say it in the header
 * page: the one it gives (trace_pipe_raw's) if every page walks in it,
 * else the 2008 one (an empty header page) if every page walks in that
 * and each CPU's events are the records the stats count (a walk of
 * pages in the other layout may find nothing wrong, and nothing).
 * 0, or -1 after printing why (not with @force: a warning).
 */
static int choose_layout(struct td_file *tf, const struct lb_stats *st,
			 int own_ids, unsigned long long *events, int force)
{
	char err[512], err2[512];
	uint32_t *ids = NULL;
	long nr_ids = 0;
	int ret = -1;

	if (own_ids) {
		nr_ids = collect_ids(tf, &ids);
		if (nr_ids < 0) {
			fprintf(stderr, "tracedat: out of memory\n");
			return -1;
		}
	}
	if (!walk_all(tf, tf->header_page.len != 0, ids, (uint32_t)nr_ids,
		      events, err, sizeof(err))) {
		if (same_counts(tf, st, events, err2, sizeof(err2)))
			fprintf(stderr, "tracedat: warning: %s\n", err2);
		ret = 0;
	} else if (tf->header_page.len &&
		   !walk_all(tf, 0, ids, (uint32_t)nr_ids, events, err2,
			     sizeof(err2)) &&
		   !same_counts(tf, st, events, err2, sizeof(err2))) {
		fprintf(stderr, "tracedat: %s\n",
			"the pages are in the buffer's 2008 record layout, not trace_pipe_raw's: the file says so (an empty header page)");
		free((void *)tf->header_page.data);
		tf->header_page.data = NULL;
		tf->header_page.len = 0;
		ret = 0;
	} else {
		fprintf(stderr, "tracedat: %s the last boot's pages: %s\n",
			force ? "warning: --force: writing" : "not writing",
			err);
		ret = force ? 0 : -1;
	}
	free(ids);
	return ret;
}

/* The TRACECLOCK option and version 7's buffer clock: @clock in use. */
static int clock_option(struct td_file *tf, const char *clock)
{
	char *text;
	int n = asprintf(&text, "[%s]\n", clock);

	if (n < 0)
		return -1;
	tf->options = calloc(1, sizeof(*tf->options));
	if (!tf->options) {
		free(text);
		return -1;
	}
	tf->options[0].type = 4;
	tf->options[0].data.data = (const uint8_t *)text;
	tf->options[0].data.len = (size_t)n + 1;
	tf->nr_options = 1;
	tf->clock = clock;
	return 0;
}

/* kallsyms and printk_formats of this boot at the last boot's addresses. */
static void read_symbols(const char *tracing, uint64_t delta,
			 struct td_file *tf)
{
	char path[4096];
	struct td_blob b;

	b = td_blob_of("/proc/kallsyms");
	tf->kallsyms = shift_addresses((const char *)b.data, b.len, delta, 1);
	free((void *)b.data);
	snprintf(path, sizeof(path), "%s/printk_formats", tracing);
	b = td_blob_of(path);
	tf->printk_formats = shift_addresses((const char *)b.data, b.len,
					     delta, 0);
	free((void *)b.data);
}

/* Each CPU's pages, checked against the stats: 0, or -1 after printing. */
static int read_cpus(const char *last, const struct lb_stats *st,
		     struct td_file *tf)
{
	char path[4096], dir[3072];
	unsigned int cpu;

	tf->cpu_data = calloc(st->nr_cpus, sizeof(*tf->cpu_data));
	if (!tf->cpu_data) {
		fprintf(stderr, "tracedat: out of memory\n");
		return -1;
	}
	tf->nr_cpus = st->nr_cpus;
	for (cpu = 0; cpu < st->nr_cpus; cpu++) {
		size_t pages;

		snprintf(dir, sizeof(dir), "%s/per_cpu/cpu%u", last, cpu);
		snprintf(path, sizeof(path), "%s/trace_pipe_raw", dir);
		if ((is_dir(dir) || st->pages[cpu]) &&
		    read_cpu(path, cpu, tf->page_size, &tf->cpu_data[cpu]))
			return -1;
		pages = tf->cpu_data[cpu].len / tf->page_size;
		if (pages != st->pages[cpu]) {
			fprintf(stderr, "tracedat: CPU %u: %zu pages in %s, %u in %s/stats: %s\n",
				cpu, pages, path, st->pages[cpu], last,
				"not what the kernel checked; no file written");
			return -1;
		}
	}
	return 0;
}

static void release(struct td_file *tf)
{
	uint32_t i;

	for (i = 0; tf->cpu_data && i < tf->nr_cpus; i++)
		free((void *)tf->cpu_data[i].data);
	free(tf->cpu_data);
	for (i = 0; i < tf->nr_options; i++)
		free((void *)tf->options[i].data.data);
	free(tf->options);
	td_release_sections(tf);
}

int td_record_last_boot(const struct td_record_opts *o)
{
	struct td_file tf = { 0 };
	struct lb_stats st;
	unsigned long long *events = NULL;
	char last[2048], path[4096];
	const char *clock;
	int own_ids, ret = -1;
	unsigned int cpu;

	if (strlen(o->tracing) > 1024) {
		fprintf(stderr, "tracedat: %s: too long a path\n", o->tracing);
		return -1;
	}
	snprintf(last, sizeof(last), "%s/last_boot", o->tracing);
	if (!is_dir(o->tracing)) {
		fprintf(stderr, "tracedat: %s: %s\n", o->tracing,
			strerror(errno ? errno : ENOTDIR));
		return -1;
	}
	if (!is_dir(last)) {
		fprintf(stderr, "tracedat: no last boot's trace: no %s (%s)\n", last,
			"boot with ringtrace.persist=SIZE@ADDR, e.g. ringtrace.persist=4M@0x30000000, and the boot after shows the trace of the one before there; see Documentation/trace/ringtrace-flight-recorder.rst");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/stats", last);
	if (read_stats(path, &st))
		return -1;
	if (st.same_kernel != 1 && !o->force) {
		fprintf(stderr, "tracedat: the last boot ran %s, another kernel (%s: %s): %s\n",
			st.kernel ? st.kernel : "(not said)", path,
			st.same_kernel ? "no \"same kernel\"" : "same kernel: no",
			"this one's symbols and record layout may not be its; --force writes the file anyway, without symbols");
		goto out;
	}
	tf.version = o->file_version;
	tf.codec = o->codec;
	tf.long_size = sizeof(long);
	tf.page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	snprintf(path, sizeof(path), "%s/events/header_page", o->tracing);
	tf.header_page = td_blob_of(path);
	snprintf(path, sizeof(path), "%s/events/header_event", o->tracing);
	tf.header_event = td_blob_of(path);
	if (!tf.header_page.data || !tf.header_event.data) {
		fprintf(stderr, "tracedat: %s/events/header_%s: %s\n",
			o->tracing, tf.header_page.data ? "event" : "page",
			strerror(errno));
		goto out;
	}
	own_ids = read_last_formats(o->tracing, last, st.same_kernel == 1, &tf);
	if (st.same_kernel == 1)
		read_symbols(o->tracing, st.text_delta, &tf);
	/* The last boot's tasks are not known: no cmdlines. */
	if (read_cpus(last, &st, &tf))
		goto out;
	events = calloc(tf.nr_cpus, sizeof(*events));
	if (!events) {
		fprintf(stderr, "tracedat: out of memory\n");
		goto out;
	}
	if (choose_layout(&tf, &st, own_ids, events, o->force))
		goto out;
	clock = st.clock ? st.clock : "local";
	if (clock_option(&tf, clock)) {
		fprintf(stderr, "tracedat: out of memory\n");
		goto out;
	}
	fprintf(stderr, "tracedat: the last boot's trace (sealed: %s; kernel %s)\n",
		st.sealed ? st.sealed : "(not said)",
		st.kernel ? st.kernel : "(not said)");
	for (cpu = 0; cpu < tf.nr_cpus; cpu++)
		if (tf.cpu_data[cpu].len)
			fprintf(stderr, "  CPU %u: %llu events, %zu bytes (stats: %llu records)\n",
				cpu, events[cpu], tf.cpu_data[cpu].len,
				st.records[cpu]);
	if (td_write_to(o->output, &tf))
		goto out;
	fprintf(stderr, "tracedat: wrote %s\n", o->output);
	ret = 0;
out:
	free(events);
	release(&tf);
	free_stats(&st);
	return ret;
}
