// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat report.  The pages are decoded by pages.c, which checks every
 * length; libtraceevent parses the file's format files and prints each
 * record by its event's print format, the way trace-cmd does.  A record
 * too short for its event's fields is shown as such and never handed to
 * libtraceevent, which would read past it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "pages.h"
#include "report.h"

static const int host_big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

struct rec {
	uint64_t	ts;
	const uint8_t	*data;
	uint32_t	len;
	int		cpu;
	int64_t		lost_before;
	size_t		seq;		/* order within its CPU */
};

struct recs {
	struct rec	*r;
	size_t		nr, cap;
};

static int rep_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int collect(const struct td_event *ev, void *ctx)
{
	struct recs *rs = ctx;
	struct rec *r;

	if (rs->nr == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 4096;

		r = realloc(rs->r, cap * sizeof(*r));
		if (!r)
			return -2;
		rs->r = r;
		rs->cap = cap;
	}
	r = &rs->r[rs->nr];
	r->ts = ev->ts;
	r->data = ev->data;
	r->len = ev->len;
	r->cpu = ev->cpu;
	r->lost_before = ev->lost_before;
	r->seq = rs->nr++;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A NUL-terminated copy of a blob, for libtraceevent's text parsers. */
static char *text_of(const struct td_blob *b)
{
	char *s = malloc(b->len + 1);

	if (s) {
		/* A version 7 file may lack a section: no bytes at all. */
		if (b->len)
			memcpy(s, b->data, b->len);
		s[b->len] = '\0';
	}
	return s;
}

/* Parse every format of @tf into @tep; the number of formats parsed. */
static uint32_t parse_formats(struct tep_handle *tep, const struct td_file *tf,
			      int progress_fd)
{
	uint32_t i, j, n = 0;

	for (i = 0; i < tf->nr_ftrace_formats; i++, n++) {
		if (progress_fd >= 0 && write(progress_fd, &n, sizeof(n)) < 0)
			return n;
		tep_parse_event(tep, (const char *)tf->ftrace_formats[i].data,
				tf->ftrace_formats[i].len, "ftrace");
	}
	for (i = 0; i < tf->nr_systems; i++) {
		for (j = 0; j < tf->systems[i].nr_formats; j++, n++) {
			if (progress_fd >= 0 &&
			    write(progress_fd, &n, sizeof(n)) < 0)
				return n;
			tep_parse_event(tep,
					(const char *)tf->systems[i].formats[j].data,
					tf->systems[i].formats[j].len,
					tf->systems[i].name);
		}
	}
	return n;
}

/* The @n-th format of @tf (ftrace's first). */
static const struct td_blob *nth_format(const struct td_file *tf, uint32_t n)
{
	uint32_t i;

	if (n < tf->nr_ftrace_formats)
		return &tf->ftrace_formats[n];
	n -= tf->nr_ftrace_formats;
	for (i = 0; i < tf->nr_systems; i++) {
		if (n < tf->systems[i].nr_formats)
			return &tf->systems[i].formats[n];
		n -= tf->systems[i].nr_formats;
	}
	return NULL;
}

/*
 * libtraceevent's format parser trusts its input, and some malformed
 * format files crash it.  So a child parses them first and says which it
 * is at; if it dies, the file is refused naming that format.
 */
/* FNV-1a over every format: formats that parsed safely once need no child. */
static uint64_t formats_hash(const struct td_file *tf)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const struct td_blob *b;
	uint32_t n;
	size_t i;

	for (n = 0; (b = nth_format(tf, n)); n++) {
		for (i = 0; i < b->len; i++)
			h = (h ^ b->data[i]) * 0x100000001b3ULL;
		h = (h ^ 0xff) * 0x100000001b3ULL;
	}
	return h;
}

/* The last few sets of formats that parsed safely (a session has one). */
#define VETTED_MAX 16

static int vet_formats(const struct td_file *tf, char *err, size_t errlen)
{
	static uint64_t vetted[VETTED_MAX];
	static unsigned int next_vetted;
	uint64_t hash = formats_hash(tf);
	int fds[2], status;
	uint32_t at = 0, n;
	pid_t pid;

	for (n = 0; n < VETTED_MAX; n++)
		if (vetted[n] && hash == vetted[n])
			return 0;

	if (pipe(fds))
		return rep_fail(err, errlen, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return rep_fail(err, errlen, "fork: %s", strerror(errno));
	}
	if (!pid) {
		struct tep_handle *tep = tep_alloc();
		int devnull = open("/dev/null", O_WRONLY);

		close(fds[0]);
		/* A parser that hangs is one that cannot parse: SIGALRM. */
		alarm(10);
		/* libtraceevent warns on stderr; a crash report would too. */
		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		if (tep)
			parse_formats(tep, tf, fds[1]);
		_exit(tep ? 0 : 1);
	}
	close(fds[1]);
	while (read(fds[0], &n, sizeof(n)) == sizeof(n))
		at = n;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return rep_fail(err, errlen, "waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		vetted[next_vetted++ % VETTED_MAX] = hash;
		return 0;
	}
	{
		const struct td_blob *b = nth_format(tf, at);
		uintptr_t p = b ? (uintptr_t)b->data : 0;
		uintptr_t base = (uintptr_t)tf->base;
		char where[64] = "a compressed section";

		/* Version 7's compressed sections are not in the file as read. */
		if (p >= base && p - base < tf->base_len)
			snprintf(where, sizeof(where), "offset %zu",
				 (size_t)(p - base));
		return rep_fail(err, errlen,
				"%s: event format %u: libtraceevent cannot parse it (its parser %s)",
				where, at, WIFSIGNALED(status) ? "crashed" : "failed");
	}
}

/*
 * Keep only the lines of @text shaped as printk_formats writes them,
 * ADDRESS : "FORMAT": libtraceevent's parser reads past its own copy of
 * a line without the quoted part (found by the fuzz run).
 */
static void keep_printk_lines(char *text)
{
	char *in = text, *out = text;

	while (*in) {
		char *end = strchrnul(in, '\n'), *colon;
		size_t n = (size_t)(end - in);
		size_t hex = strspn(in + (in[0] == '0' && in[1] == 'x' ? 2 : 0),
				    "0123456789abcdefABCDEF");

		colon = memmem(in, n, " : \"", 4);
		if (hex && colon && colon - in <= 2 + (ptrdiff_t)hex &&
		    n >= (size_t)(colon - in) + 5 && end[-1] == '"') {
			memmove(out, in, n);
			out += n;
			*out++ = '\n';
		}
		in = *end ? end + 1 : end;
	}
	*out = '\0';
}

static int load_tep(struct tep_handle *tep, const struct td_file *tf,
		    char *err, size_t errlen)
{
	char *text;

	tep_set_long_size(tep, tf->long_size);
	tep_set_page_size(tep, (int)tf->page_size);
	tep_set_file_bigendian(tep, tf->big_endian ? TEP_BIG_ENDIAN :
			       TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big_endian ? TEP_BIG_ENDIAN :
				TEP_LITTLE_ENDIAN);
	/* Empty: the 2008 record layout (libtraceevent's old format). */
	text = text_of(&tf->header_page);
	if (!text)
		return rep_fail(err, errlen, "out of memory");
	tep_parse_header_page(tep, text, tf->header_page.len, tf->long_size);
	free(text);
	if (vet_formats(tf, err, errlen))
		return -1;
	parse_formats(tep, tf, -1);
	text = text_of(&tf->kallsyms);
	if (text && tf->kallsyms.len)
		tep_parse_kallsyms(tep, text);
	free(text);
	text = text_of(&tf->printk_formats);
	if (text && tf->printk_formats.len) {
		keep_printk_lines(text);
		tep_parse_printk_formats(tep, text);
	}
	free(text);
	text = text_of(&tf->cmdlines);
	if (text && tf->cmdlines.len)
		tep_parse_saved_cmdlines(tep, text);
	free(text);
	return 0;
}

/* The bytes @event's fields take: a record must have them all. */
static unsigned int fields_end(struct tep_event *event)
{
	struct tep_format_field **fields = tep_event_fields(event), **f;
	struct tep_format_field **common = tep_event_common_fields(event);
	unsigned int end = 0;

	for (f = common; f && *f; f++)
		if ((unsigned int)((*f)->offset + (*f)->size) > end)
			end = (unsigned int)((*f)->offset + (*f)->size);
	for (f = fields; f && *f; f++)
		if ((unsigned int)((*f)->offset + (*f)->size) > end)
			end = (unsigned int)((*f)->offset + (*f)->size);
	free(fields);
	free(common);
	return end;
}

static int matches(const struct tep_event *event, const char *want)
{
	const char *slash = strchr(want, '/');

	if (slash)
		return !strncmp(want, event->system, (size_t)(slash - want)) &&
		       !event->system[slash - want] &&
		       !strcmp(slash + 1, event->name);
	return !strcmp(want, event->system) || !strcmp(want, event->name);
}

/* Whether an -e names @event; no -e: every event. */
static int wanted(const struct tep_event *event,
		  const struct td_report_opts *opts)
{
	int i;

	if (!opts->nr_events)
		return 1;
	if (!event)
		return 0;
	for (i = 0; i < opts->nr_events; i++)
		if (matches(event, opts->events[i]))
			return 1;
	return 0;
}

int td_cpu_in_list(const char *list, const uint32_t *cpu)
{
	const char *p = list;
	int in = 0;

	do {
		unsigned long lo, hi;
		char *end;

		if (*p < '0' || *p > '9')
			return -1;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -1;
			hi = strtoul(p, &end, 10);
		}
		if (lo > hi || hi > UINT32_MAX)
			return -1;
		if (cpu && *cpu >= lo && *cpu <= hi)
			in = 1;
		p = end;
	} while (*p++ == ',');
	return p[-1] ? -1 : in;
}

/*
 * trace-cmd report's -F: filters in libtraceevent's language ("EVENT" or
 * "SYSTEM/EVENT", then ": FILTER"), one each, as trace-cmd keeps them: a
 * record is shown if one of them matches, unless one after -v matches it.
 * (One tep_event_filter for all would keep only the last filter of an
 * event: libtraceevent replaces an event's filter when one is added.)
 */
struct filters {
	struct tep_event_filter	**f;
	int			nr, nr_show;
};

static int add_filters(struct tep_handle *tep, struct filters *f,
		       const struct td_report_opts *opts, char *err,
		       size_t errlen)
{
	int i;

	f->f = calloc((size_t)opts->nr_filters + 1, sizeof(*f->f));
	if (!f->f)
		return rep_fail(err, errlen, "out of memory");
	for (i = 0; i < opts->nr_filters; i++) {
		enum tep_errno r;
		char why[256];

		f->f[i] = tep_filter_alloc(tep);
		f->nr = i + 1;
		if (!f->f[i])
			return rep_fail(err, errlen, "out of memory");
		r = tep_filter_add_filter_str(f->f[i], opts->filters[i]);
		if (r < 0) {
			tep_filter_strerror(f->f[i], r, why, sizeof(why));
			return rep_fail(err, errlen, "-F '%s': %s",
					opts->filters[i], why);
		}
		if (!opts->negated[i])
			f->nr_show++;
	}
	return 0;
}

/* Whether the whole record @rec (@event's) is filtered out. */
static int filtered_out(const struct filters *f,
			const struct td_report_opts *opts,
			struct tep_record *rec)
{
	int i, shown = !f->nr_show;

	for (i = 0; i < f->nr; i++) {
		int match = tep_filter_match(f->f[i], rec) ==
			    TEP_ERRNO__FILTER_MATCH;

		if (opts->negated[i] && match)
			return 1;
		if (!opts->negated[i] && match)
			shown = 1;
	}
	return !shown;
}

static void free_filters(struct filters *f)
{
	int i;

	for (i = 0; i < f->nr; i++)
		if (f->f[i])
			tep_filter_free(f->f[i]);
	free(f->f);
}

/*
 * --stat, as trace-cmd report's: the CPUSTAT options (option 2: each
 * CPU's stats file when the recording ended) one after the other, each
 * ending in a newline, then the size of each CPU's data in the file.
 */
static void print_stats(FILE *out, const struct td_file *tf)
{
	uint32_t i;
	int any = 0;

	fprintf(out, "Kernel buffer statistics, when the recording ended (\"entries\" were\n"
		     "left in the kernel's buffer, not recorded: all 0 when nothing was missed):\n\n");
	for (i = 0; i < tf->nr_options; i++) {
		const struct td_blob *b = &tf->options[i].data;
		size_t n = b->len;

		if (tf->options[i].type != 2 || !n)
			continue;
		any = 1;
		/* The NUL that ends each one prints as a newline. */
		if (b->data[n - 1] == '\0')
			n--;
		fwrite(b->data, 1, n, out);
		fputc('\n', out);
	}
	if (!any)
		fprintf(out, " No stats in this file\n");
	/* A latency (text) file has no CPU data. */
	for (i = 0; tf->cpu_data && tf->cpu_offsets && i < tf->nr_cpus; i++)
		fprintf(out, "CPU%u data recorded at offset=0x%llx\n    %zu bytes in size\n",
			i, (unsigned long long)tf->cpu_offsets[i],
			tf->cpu_data[i].len);
}

struct count {
	const char	*name;
	uint64_t	*per_cpu;	/* the file's CPUs */
	uint64_t	total;
};

static void print_summary(FILE *out, struct count *c, size_t nr, int nr_cpus,
			  const uint64_t *lost)
{
	size_t i;
	int cpu;

	fprintf(out, "%-32s %10s", "event", "total");
	for (cpu = 0; cpu < nr_cpus; cpu++)
		fprintf(out, "  cpu%-6d", cpu);
	fprintf(out, "\n");
	for (i = 0; i < nr; i++) {
		fprintf(out, "%-32s %10llu", c[i].name,
			(unsigned long long)c[i].total);
		for (cpu = 0; cpu < nr_cpus; cpu++)
			fprintf(out, "  %9llu", (unsigned long long)c[i].per_cpu[cpu]);
		fprintf(out, "\n");
	}
	fprintf(out, "%-32s %10s", "lost (pages flagged)", "");
	for (cpu = 0; cpu < nr_cpus; cpu++)
		fprintf(out, "  %9llu", (unsigned long long)lost[cpu]);
	fprintf(out, "\n");
}

/* One more @name event on @cpu; -1 without memory. */
static int count_event(struct count **c, size_t *nr, const char *name,
		       uint32_t cpu, uint32_t nr_cpus)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*c)[i].name, name))
			break;
	if (i == *nr) {
		struct count *n = realloc(*c, (*nr + 1) * sizeof(**c));

		if (!n)
			return -1;
		*c = n;
		memset(&n[i], 0, sizeof(n[i]));
		n[i].name = name;
		n[i].per_cpu = calloc(nr_cpus ? nr_cpus : 1, sizeof(uint64_t));
		if (!n[i].per_cpu)
			return -1;
		(*nr)++;
	}
	(*c)[i].total++;
	(*c)[i].per_cpu[cpu]++;
	return 0;
}

/*
 * The CPUs a summary counts: up to the last with data, not all a file
 * says it has (a CPU count in a file can be anything up to 65536).
 */
static uint32_t cpus_with_data(const struct td_file *tf)
{
	uint32_t n = tf->nr_cpus;

	while (n && (!tf->cpu_data || !tf->cpu_data[n - 1].len))
		n--;
	return n;
}

int td_report(FILE *out, const struct td_file *tf,
	      const struct td_report_opts *opts, char *err, size_t errlen)
{
	struct td_page_format pf = { tf->page_size, tf->long_size,
				     tf->big_endian, tf->header_page.len != 0 };
	struct tep_handle *tep = tep_alloc();
	struct tep_plugin_list *plugins = NULL;
	struct recs rs = { 0 };
	struct count *counts = NULL;
	struct filters filters = { NULL, 0, 0 };
	uint32_t nr_used = cpus_with_data(tf);
	uint64_t *lost = calloc(nr_used ? nr_used : 1, sizeof(*lost));
	size_t i, nr_counts = 0;
	struct trace_seq s;
	int ret = -1;
	uint32_t cpu;

	if (!tep || !lost) {
		if (tep)
			tep_free(tep);
		free(lost);
		return rep_fail(err, errlen, "out of memory");
	}
	if (opts->stat) {
		print_stats(out, tf);
		tep_free(tep);
		free(lost);
		return 0;
	}
	if (tf->mode == TD_LATENCY) {
		fwrite(tf->latency.data, 1, tf->latency.len, out);
		tep_free(tep);
		free(lost);
		return 0;
	}
	/* libtraceevent's plugins (kmem, sched ...) print as trace-cmd does. */
	if (!opts->no_plugins)
		plugins = tep_load_plugins(tep);
	if (load_tep(tep, tf, err, errlen) ||
	    add_filters(tep, &filters, opts, err, errlen))
		goto out;
	for (cpu = 0; cpu < tf->nr_cpus; cpu++) {
		int r;

		if (opts->cpus && td_cpu_in_list(opts->cpus, &cpu) != 1)
			continue;
		r = td_walk_pages(tf->cpu_data[cpu].data, tf->cpu_data[cpu].len,
				  (int)cpu, &pf, collect, &rs, err, errlen);
		if (r == -2) {
			rep_fail(err, errlen, "out of memory");
			goto out;
		}
		if (r) {
			char why[256];

			snprintf(why, sizeof(why), "%s", err);
			rep_fail(err, errlen, "CPU %u data at offset %llu: %s",
				 cpu, (unsigned long long)tf->cpu_offsets[cpu],
				 why);
			goto out;
		}
	}
	if (rs.nr)
		qsort(rs.r, rs.nr, sizeof(*rs.r), by_time);
	trace_seq_init(&s);
	for (i = 0; i < rs.nr; i++) {
		const struct rec *r = &rs.r[i];
		struct tep_record rec = {
			.ts = r->ts, .cpu = r->cpu, .size = (int)r->len,
			.record_size = (int)r->len, .data = (void *)r->data,
			.missed_events = r->lost_before,
		};
		struct tep_event *event = NULL;
		uint16_t id = 0;
		int readable;

		if (r->len >= 2) {
			memcpy(&id, r->data, 2);
			if (tf->big_endian != host_big_endian)
				id = (uint16_t)(id << 8 | id >> 8);
			event = tep_find_event(tep, id);
		}
		if (!wanted(event, opts))
			continue;
		/* fields_end() allocates: once a record. */
		readable = event && fields_end(event) <= r->len;
		/*
		 * libtraceevent's filters read the fields: whole records only.
		 * A record no filter can read is shown only if no -F must
		 * match, as trace-cmd shows it.
		 */
		if (filters.nr) {
			if (!readable) {
				if (filters.nr_show)
					continue;
			} else if (filtered_out(&filters, opts, &rec)) {
				continue;
			}
		}
		if (r->lost_before)
			lost[r->cpu]++;
		if (opts->summary) {
			if (count_event(&counts, &nr_counts,
					event ? event->name : "(unknown id)",
					(uint32_t)r->cpu, nr_used)) {
				rep_fail(err, errlen, "out of memory");
				break;
			}
			continue;
		}
		if (r->lost_before > 0)
			fprintf(out, "CPU:%d [%lld EVENTS DROPPED]\n", r->cpu,
				(long long)r->lost_before);
		else if (r->lost_before < 0)
			fprintf(out, "CPU:%d [EVENTS DROPPED]\n", r->cpu);
		if (!readable) {
			fprintf(out, "%16s-%-5d [%03d] %llu.%06llu: [%s id %u, %u bytes]\n",
				"<...>", 0, r->cpu,
				(unsigned long long)(r->ts / 1000000000),
				(unsigned long long)(r->ts % 1000000000 / 1000),
				event ? "record too short for event" : "unknown event",
				id, r->len);
			continue;
		}
		trace_seq_reset(&s);
		/* Time: seconds, and 1000-ns units (precision 1000). */
		tep_print_event(tep, &s, &rec, "%16s-%-5d [%03d] %6.1000d: ",
				TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU,
				TEP_PRINT_TIME);
		trace_seq_printf(&s, "%s:%*s", event->name,
				 (int)(21 - strlen(event->name)), "");
		tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&s);
		/* A marker's own newline ends the line, as in trace-cmd. */
		while (s.len && s.buffer[s.len - 1] == '\n')
			s.buffer[--s.len] = '\0';
		fprintf(out, "%s\n", s.buffer);
	}
	trace_seq_destroy(&s);
	if (i < rs.nr)
		goto out;
	if (opts->summary)
		print_summary(out, counts, nr_counts, (int)nr_used, lost);
	ret = 0;
out:
	free_filters(&filters);
	for (i = 0; i < nr_counts; i++)
		free(counts[i].per_cpu);
	free(counts);
	free(lost);
	free(rs.r);
	if (plugins)
		tep_unload_plugins(plugins, tep);
	tep_free(tep);
	return ret;
}
