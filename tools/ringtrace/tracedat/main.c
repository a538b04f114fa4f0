// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat: record ringtrace sessions into trace.dat files (trace-cmd's
 * format, version 6 or 7) and report them.  See
 * Documentation/trace/trace-dat.rst.
 *
 *   tracedat record [-e SYSTEM[/EVENT] [-f FILTER]]... [-b KB] [-k] [-o FILE]
 *                   [-d TRACING_DIR] [--file-version 6|7]
 *                   [--compression none|zlib|zstd|any] [-C CLOCK]
 *                   [-P PID]... [-F] [-N HOST:PORT] [-- COMMAND...]
 *   tracedat record --last-boot [--force] [-o FILE] [-d TRACING_DIR]
 *                   [--file-version 6|7] [--compression none|zlib|zstd|any]
 *   tracedat report [--cpu LIST] [-e SYSTEM[/EVENT]]... [-v] [-F FILTER]...
 *                   [-s | --stat] [-i FILE | FILE]
 *
 * Exit status: 0; record: the command's status when it failed; 2 for bad
 * usage, a failed recording, or a file that cannot be read or is not a
 * trace.dat this reads (the message names the offset).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datfile.h"
#include "record.h"
#include "report.h"

/* Larger files are refused rather than read whole. */
#define MAX_FILE_BYTES	0x400000000ULL

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: tracedat record [-e SYSTEM[/EVENT] [-f FILTER]]... [-b KB] [-k]\n"
		"                       [-o FILE] [-d TRACING_DIR] [--file-version 6|7]\n"
		"                       [--compression none|zlib|zstd|any] [-C CLOCK]\n"
		"                       [-P PID]... [-F] [-N HOST:PORT] [-- COMMAND [ARG...]]\n"
		"       tracedat record --last-boot [--force] [-o FILE] [-d TRACING_DIR]\n"
		"                       [--file-version 6|7] [--compression none|zlib|zstd|any]\n"
		"       tracedat report [--cpu LIST] [-e SYSTEM[/EVENT]]... [-v] [-F FILTER]...\n"
		"                       [-s | --stat] [-i FILE | FILE]\n"
		"\n"
		"(SYSTEM:EVENT, trace-cmd's spelling, is taken for SYSTEM/EVENT)\n"
		"record  records the events (all without -e; -f filters the -e before\n"
		"        it) while COMMAND runs or until ^C into FILE (trace.dat);\n"
		"        -b sets buffer_size_kb, -C trace_clock; -P only PID's events,\n"
		"        -F only COMMAND's (not its children's); -N sends it to\n"
		"        trace-cmd listen on HOST:PORT instead.  At the end what it\n"
		"        changed (buffer size, clock, events, filters, tracing_on)\n"
		"        is put back as it was;\n"
		"        -k keeps it as the session left it, tracing off;\n"
		"        --file-version 7 writes trace-cmd 3's format (default 6),\n"
		"        --compression compresses it (version 7 implied);\n"
		"        --last-boot writes the last boot's trace instead (last_boot/,\n"
		"        ringtrace.persist=), --force even if it ran another kernel\n"
		"report  prints FILE's (trace.dat's) events like the tracing\n"
		"        directory's trace file, merged across CPUs by time stamp;\n"
		"        files of version 6 or 7, compressed or not; --cpu (-c)\n"
		"        those CPUs (0,2-3), -e those events or systems, -F as\n"
		"        trace-cmd's ('EVENT[: FILTER]', the -F after -v hide what\n"
		"        they match), -s counts per event and CPU instead, --stat\n"
		"        the CPUs' stats saved when the recording ended\n");
}

static uint8_t *load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f) {
		fprintf(stderr, "tracedat: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t n;

		if (cap - *len < 65536) {
			uint8_t *b;

			cap = cap ? cap * 2 : 1 << 20;
			b = cap > MAX_FILE_BYTES ? NULL : realloc(buf, cap);
			if (!b) {
				fprintf(stderr, "tracedat: %s: too big to read\n",
					path);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
		if (n < cap - *len - n && (feof(f) || ferror(f)))
			break;
		if (!n)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "tracedat: %s: read error\n", path);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/*
 * trace-cmd spells an event SYSTEM:EVENT; tracedat SYSTEM/EVENT (the
 * tracing directory's path).  Both are taken: no event or system name
 * holds either character.
 */
static char *event_spec(char *arg)
{
	char *colon = strchr(arg, ':');

	if (colon)
		*colon = '/';
	return arg;
}

/*
 * Whether the parentheses of filter @s balance (outside quotes): -P and
 * -F join it with their own filter as "(FILTER) && (PIDS)", which an
 * "a) || (b" would escape.
 */
static int balanced(const char *s)
{
	int depth = 0;
	char quote = 0;

	for (; *s; s++) {
		/* The kernel's filter strings have no escapes. */
		if (quote) {
			if (*s == quote)
				quote = 0;
		} else if (*s == '"' || *s == '\'') {
			quote = *s;
		} else if (*s == '(') {
			depth++;
		} else if (*s == ')' && --depth < 0) {
			return 0;
		}
	}
	return !depth && !quote;
}

/*
 * SYSTEM, EVENT, SYSTEM/EVENT or SYSTEM:EVENT: letters, digits, '_' and
 * '-' (xhci-hcd), not starting with '-' (an option).
 */
static int event_name(const char *s)
{
	static const char ok[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	size_t n = s[0] == '-' ? 0 : strspn(s, ok);

	if (!n)
		return 0;
	if (s[n] == '/' || s[n] == ':')
		return s[n + 1] && event_name(s + n + 1) &&
		       !strpbrk(s + n + 1, "/:");
	return !s[n];
}

/*
 * Whether the CPUs of @list all lie beyond @nr_cpus: a warning, as
 * nothing would be shown.
 */
static int cpus_beyond(const char *list, uint32_t nr_cpus)
{
	uint32_t cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++)
		if (td_cpu_in_list(list, &cpu) == 1)
			return 0;
	return 1;
}

static int cmd_report(int argc, char **argv)
{
	struct td_report_opts o = { 0 };
	struct td_file tf;
	char err[512];
	size_t len;
	uint8_t *buf = NULL;
	int c, ret = 2, negate = 0, *negated;

	/*
	 * trace-cmd report's spellings: -i FILE, --cpu LIST, -F FILTER, -v,
	 * --stat, trace.dat.  Its -e (show the file's endianness) is not
	 * taken: -e selects events here, as in record.
	 */
	static const struct option long_opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "stat", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *path = NULL;

	o.events = calloc((size_t)argc, sizeof(*o.events));
	o.filters = calloc((size_t)argc, sizeof(*o.filters));
	negated = calloc((size_t)argc, sizeof(*negated));
	o.negated = negated;
	if (!o.events || !o.filters || !negated) {
		fprintf(stderr, "tracedat: out of memory\n");
		goto out;
	}
	while ((c = getopt_long(argc, argv, "c:e:F:vi:sh", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 'c':
			if (td_cpu_in_list(optarg, NULL) < 0) {
				fprintf(stderr,
					"tracedat: --cpu %s: not a CPU list (N, N-M, comma-separated)\n",
					optarg);
				goto out;
			}
			o.cpus = optarg;
			break;
		case 'e':
			if (!event_name(optarg)) {
				/* trace-cmd report's -e (endianness) is not taken. */
				fprintf(stderr,
					"tracedat: -e %s: not an event or system name\n",
					optarg);
				goto out;
			}
			o.events[o.nr_events++] = event_spec(optarg);
			break;
		case 'F':
			negated[o.nr_filters] = negate;
			o.filters[o.nr_filters++] = optarg;
			break;
		case 'v':
			/* trace-cmd takes one: the -F after it hide. */
			if (negate) {
				fprintf(stderr,
					"tracedat: only one -v: every -F after it hides what it matches\n");
				goto out;
			}
			negate = 1;
			break;
		case 's':
			o.summary = 1;
			break;
		case 'S':
			o.stat = 1;
			break;
		case 'h':
			print_usage(stdout);
			ret = 0;
			goto out;
		default:
			print_usage(stderr);
			goto out;
		}
	}
	/* FILE, or -i FILE, not both; neither: trace.dat, as trace-cmd. */
	if (optind < argc && !path)
		path = argv[optind++];
	if (optind != argc) {
		print_usage(stderr);
		goto out;
	}
	if (!path)
		path = "trace.dat";
	buf = load(path, &len);
	if (!buf)
		goto out;
	if (td_read(buf, len, &tf, err, sizeof(err))) {
		fprintf(stderr, "tracedat: %s: %s\n", path, err);
		goto out;
	}
	if (o.cpus && cpus_beyond(o.cpus, tf.nr_cpus))
		fprintf(stderr, "tracedat: %s has %u CPUs; --cpu %s names none of them\n",
			path, tf.nr_cpus, o.cpus);
	ret = td_report(stdout, &tf, &o, err, sizeof(err)) ? 2 : 0;
	if (ret)
		fprintf(stderr, "tracedat: %s: %s\n", path, err);
	td_release(&tf);
out:
	free(buf);
	free(o.events);
	free(o.filters);
	free(negated);
	return ret;
}

#define MAX_EVENTS	64
#define MAX_PIDS	64

static int cmd_record(int argc, char **argv)
{
	static const char *events[MAX_EVENTS], *filters[MAX_EVENTS];
	struct td_record_opts o = {
		.tracing = "/sys/kernel/debug/tracing",
		.events = events,
		.filters = filters,
		.output = "trace.dat",
	};
	/* trace-cmd record's spellings of the file's version and compression. */
	static const struct option long_opts[] = {
		{ "file-version", required_argument, NULL, 'V' },
		{ "compression", required_argument, NULL, 'Z' },
		{ "last-boot", no_argument, NULL, 'L' },
		{ "force", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *compression = NULL, *live = NULL;
	unsigned long kb;
	static int pids[MAX_PIDS];
	int c, status, output_given = 0;
	char *end;
	long pid;

	o.pids = pids;
	while ((c = getopt_long(argc, argv, "+e:f:b:ko:d:C:P:FN:h", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'N':
			live = "-N";
			o.net = optarg;
			break;
		case 'C':
			live = "-C";
			o.clock = optarg;
			break;
		case 'P':
			live = "-P";
			pid = strtol(optarg, &end, 10);
			if (*end || end == optarg || pid <= 0 || pid > INT_MAX) {
				fprintf(stderr, "tracedat: -P %s: not a process id\n",
					optarg);
				return 2;
			}
			if (o.nr_pids == MAX_PIDS) {
				fprintf(stderr, "tracedat: more than %d -P\n",
					MAX_PIDS);
				return 2;
			}
			pids[o.nr_pids++] = (int)pid;
			break;
		case 'F':
			live = "-F";
			o.follow = 1;
			break;
		case 'L':
			o.last_boot = 1;
			break;
		case 'R':
			o.force = 1;
			break;
		case 'V':
			if (strcmp(optarg, "6") && strcmp(optarg, "7")) {
				fprintf(stderr, "tracedat: --file-version %s: 6 or 7\n",
					optarg);
				return 2;
			}
			o.file_version = (unsigned int)(optarg[0] - '0');
			break;
		case 'Z':
			/* "any": the best there is, as trace-cmd's. */
			compression = strcmp(optarg, "any") ? optarg : "zstd";
			if (td_codec_by_name(compression, &o.codec)) {
				fprintf(stderr,
					"tracedat: --compression %s: none, zlib, zstd or any\n",
					optarg);
				return 2;
			}
			break;
		case 'e':
			live = "-e";
			if (o.nr_events == MAX_EVENTS) {
				fprintf(stderr, "tracedat: more than %d -e\n",
					MAX_EVENTS);
				return 2;
			}
			events[o.nr_events++] = event_spec(optarg);
			break;
		case 'f':
			live = "-f";
			if (!balanced(optarg)) {
				fprintf(stderr, "tracedat: -f %s: unbalanced parentheses\n",
					optarg);
				return 2;
			}
			if (!o.nr_events) {
				fprintf(stderr, "tracedat: -f %s: no -e before it\n",
					optarg);
				return 2;
			}
			filters[o.nr_events - 1] = optarg;
			break;
		case 'b':
			live = "-b";
			kb = strtoul(optarg, &end, 10);
			if (*end || end == optarg || !kb || kb > 0x400000UL) {
				fprintf(stderr, "tracedat: -b %s: not a size in KiB\n",
					optarg);
				return 2;
			}
			o.buffer_kb = (unsigned int)kb;
			break;
		case 'k':
			live = "-k";
			o.keep = 1;
			break;
		case 'o':
			o.output = optarg;
			output_given = 1;
			break;
		case 'd':
			o.tracing = optarg;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (compression && o.file_version != 7) {
		/* trace-cmd's rule: compression comes with version 7. */
		if (o.file_version == 6) {
			fprintf(stderr,
				"tracedat: --compression needs --file-version 7 (6 has none)\n");
			return 2;
		}
		o.file_version = 7;
	}
	o.argv = argv + optind;
	if (o.force && !o.last_boot) {
		fprintf(stderr, "tracedat: --force goes with --last-boot\n");
		return 2;
	}
	if (o.last_boot && (live || o.argv[0])) {
		/* A session's options: last_boot/ is read, nothing else. */
		fprintf(stderr, "tracedat: --last-boot reads last_boot/: no %s with it\n",
			live ? live : "COMMAND");
		return 2;
	}
	if (o.last_boot)
		return td_record_last_boot(&o) ? 2 : 0;
	if (o.net && o.codec == TD_CODEC_ZLIB) {
		/* Debian's trace-cmd listen keeps only the header of those. */
		fprintf(stderr,
			"tracedat: -N with zlib: trace-cmd listen without zlib (Debian's) keeps only the header: use zstd or none\n");
		return 2;
	}
	if (o.net && output_given) {
		fprintf(stderr, "tracedat: -N sends the file to a collector: no -o with it\n");
		return 2;
	}
	if (o.follow && !o.argv[0]) {
		fprintf(stderr, "tracedat: -F follows a command: give one after --\n");
		return 2;
	}
	status = td_record(&o);
	return status < 0 ? 2 : status;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "record"))
		return cmd_record(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		print_usage(stdout);
		return 0;
	}
	if (argc >= 2)
		fprintf(stderr, "tracedat: unknown command '%s'\n", argv[1]);
	print_usage(stderr);
	return 2;
}
