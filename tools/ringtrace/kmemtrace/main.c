// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace: record the kernel's allocator events and report them per
 * call site.  See Documentation/trace/kmemtrace.rst.
 *
 *   kmemtrace record [-o DIR] [-b KB] [-g] [-n N] [-d DIR] [-- COMMAND...]
 *   kmemtrace report [-g] [-n N] [-k KALLSYMS] [-L BYTES] PATH...
 *
 * Exit status: 0, the command's status when it failed, 2 for bad usage,
 * a file that cannot be read or a corrupt stream.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ksyms.h"
#include "record.h"
#include "report.h"
#include "stream.h"

#define DEFAULT_DIR	"/sys/kernel/debug/kmemtrace"
#define CPU_DIR		"/sys/devices/system/cpu"
#define DEFAULT_MAX_LIVE	50
#define MAX_STREAM_BYTES	0x100000000ULL

struct options {
	int		by_function;
	size_t		max_live;
	const char	*kallsyms;
	int		have_lost_bytes;
	unsigned long long lost_bytes;
};

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: kmemtrace record [-o DIR] [-b KB] [-g] [-n N] [-d KMEMTRACE_DIR] [-- COMMAND [ARG...]]\n"
		"       kmemtrace report [-g] [-n N] [-k KALLSYMS] [-L LOST_BYTES] PATH...\n"
		"\n"
		"record  collects /sys/kernel/debug/kmemtrace/cpu<n> while COMMAND runs\n"
		"        (or until ^C) and reports; -o saves the streams, total_overruns\n"
		"        and kallsyms to DIR for a later report; -b sets the per-CPU\n"
		"        buffer size in KiB first.\n"
		"report  reads saved streams: a DIR from record -o, or cpu<n> files.\n"
		"-g      one line per function instead of per call site\n"
		"-n N    list at most N live objects (default %d)\n",
		DEFAULT_MAX_LIVE);
}

static int parse_size(const char *s, unsigned long long max,
		      unsigned long long *val)
{
	char *end;

	errno = 0;
	*val = strtoull(s, &end, 0);
	return errno || end == s || *end || *val > max || s[0] == '-' ? -1 : 0;
}

static int cpu_of_path(const char *path)
{
	const char *base = strrchr(path, '/');

	return kt_cpu_of(base ? base + 1 : path);
}

static int load_file(const char *path, struct kt_stream *s)
{
	FILE *f = fopen(path, "rb");
	long size;

	if (!f) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	size = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
	if (size < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "kmemtrace: %s: not a regular file\n", path);
		fclose(f);
		return -1;
	}
	if ((unsigned long long)size > MAX_STREAM_BYTES) {
		fprintf(stderr, "kmemtrace: %s: %ld bytes, over 4 GiB\n", path,
			size);
		fclose(f);
		return -1;
	}
	s->data = malloc(size ? (size_t)size : 1);
	if (!s->data || fread(s->data, 1, (size_t)size, f) != (size_t)size) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path,
			s->data ? "short read" : "out of memory");
		fclose(f);
		return -1;
	}
	s->len = (size_t)size;
	s->cap = s->len;
	fclose(f);
	return 0;
}

static int add_stream(struct kt_recording *rec, const char *path, int cpu)
{
	struct kt_stream *s = realloc(rec->streams,
				      (rec->nr + 1) * sizeof(*s));

	if (!s) {
		fprintf(stderr, "kmemtrace: out of memory\n");
		return -1;
	}
	rec->streams = s;
	s = &rec->streams[rec->nr];
	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	rec->nr++;
	return load_file(path, s);
}

/* DIR from "record -o": cpu<n>, and total_overruns and kallsyms if there. */
static int load_dir(const char *dir, struct kt_recording *rec,
		    struct options *o, char *kallsyms, size_t len)
{
	char path[4096];
	struct dirent *d;
	DIR *dp = opendir(dir);
	FILE *f;
	int found = 0;

	if (!dp) {
		fprintf(stderr, "kmemtrace: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((d = readdir(dp))) {
		int cpu = cpu_of_path(d->d_name);

		if (cpu < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (add_stream(rec, path, cpu)) {
			closedir(dp);
			return -1;
		}
		found++;
	}
	closedir(dp);
	if (!found) {
		fprintf(stderr, "kmemtrace: %s: no cpu<n> files\n", dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/total_overruns", dir);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &o->lost_bytes) == 1)
			o->have_lost_bytes = 1;
		fclose(f);
	}
	snprintf(kallsyms, len, "%s/kallsyms", dir);
	return 0;
}

static int report(struct kt_recording *rec, struct options *o)
{
	struct kt_events *cpus = calloc(rec->nr ? rec->nr : 1, sizeof(*cpus));
	struct kt_events merged = { 0 };
	struct kt_account acc = { 0 };
	struct kt_skipped skipped = { 0 };
	struct kt_report_opts ro = {
		.by_function = o->by_function,
		.have_lost_bytes = o->have_lost_bytes,
		.lost_bytes = o->lost_bytes,
		.max_live = o->max_live,
	};
	struct ksyms ks = { 0 };
	char err[256];
	int i, ret = 2;
	FILE *f;

	if (!cpus)
		goto nomem;
	for (i = 0; i < rec->nr; i++) {
		if (kt_parse_stream(rec->streams[i].data, rec->streams[i].len,
				    rec->streams[i].cpu, &cpus[i], &skipped,
				    err, sizeof(err))) {
			fprintf(stderr, "kmemtrace: cpu%d: corrupt stream: %s\n",
				rec->streams[i].cpu, err);
			goto out;
		}
	}
	if (kt_merge(cpus, rec->nr, &merged) || kt_account(&acc, &merged))
		goto nomem;
	f = fopen(o->kallsyms, "r");
	if (!f || ksyms_load(&ks, f) < 0)
		fprintf(stderr, "kmemtrace: %s: %s; call sites stay addresses\n",
			o->kallsyms, f ? "out of memory" : strerror(errno));
	if (f)
		fclose(f);
	if (!ks.nr && f)
		fprintf(stderr, "kmemtrace: %s has no addresses (not root?)\n",
			o->kallsyms);
	ro.ksyms = &ks;
	kt_print_report(stdout, &acc, &merged, &skipped, &ro);
	ret = 0;
	goto out;
nomem:
	fprintf(stderr, "kmemtrace: out of memory\n");
out:
	for (i = 0; cpus && i < rec->nr; i++)
		kt_events_free(&cpus[i]);
	free(cpus);
	kt_events_free(&merged);
	kt_account_free(&acc);
	ksyms_free(&ks);
	return ret;
}

static int write_file(const char *dir, const char *name, const void *data,
		      size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int save(const char *dir, const struct kt_recording *rec)
{
	char name[32], buf[65536];
	size_t n;
	FILE *in, *out;
	int i;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "kmemtrace: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < rec->nr; i++) {
		snprintf(name, sizeof(name), "cpu%d", rec->streams[i].cpu);
		if (write_file(dir, name, rec->streams[i].data ?
			       (void *)rec->streams[i].data : (void *)"",
			       rec->streams[i].len))
			return -1;
	}
	n = (size_t)snprintf(buf, sizeof(buf), "%llu\n",
			     (unsigned long long)rec->lost_bytes);
	if (write_file(dir, "total_overruns", buf, n))
		return -1;
	/* Module symbols go with their modules: keep them with the data. */
	snprintf(buf, sizeof(buf), "%s/kallsyms", dir);
	in = fopen("/proc/kallsyms", "r");
	out = fopen(buf, "w");
	if (!in || !out) {
		fprintf(stderr, "kmemtrace: saving kallsyms: %s\n",
			strerror(errno));
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)))
		fwrite(buf, 1, n, out);
	fclose(in);
	return fclose(out) ? -1 : 0;
}

static int cmd_record(int argc, char **argv, struct options *o)
{
	const char *dir = DEFAULT_DIR, *out_dir = NULL;
	unsigned long long kb = 0, n;
	struct kt_recording rec;
	int c, status, ret;

	while ((c = getopt(argc, argv, "+o:b:d:gn:h")) != -1) {
		switch (c) {
		case 'o':
			out_dir = optarg;
			break;
		case 'b':
			if (parse_size(optarg, 1 << 20, &kb) || !kb) {
				fprintf(stderr, "kmemtrace: -b %s: not a size in KiB\n",
					optarg);
				return 2;
			}
			break;
		case 'd':
			dir = optarg;
			break;
		case 'g':
			o->by_function = 1;
			break;
		case 'n':
			if (parse_size(optarg, 1ULL << 32, &n)) {
				fprintf(stderr, "kmemtrace: -n %s: not a count\n",
					optarg);
				return 2;
			}
			o->max_live = n;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	status = kt_record(dir, CPU_DIR, (unsigned int)kb, argv + optind,
			   &rec);
	if (status < 0) {
		kt_recording_free(&rec);
		return 2;
	}
	o->have_lost_bytes = 1;
	o->lost_bytes = rec.lost_bytes;
	ret = out_dir && save(out_dir, &rec) ? 2 : report(&rec, o);
	kt_recording_free(&rec);
	if (ret)
		return ret;
	if (status)
		fprintf(stderr, "kmemtrace: the command exited with %d\n",
			status);
	return status;
}

static int cmd_report(int argc, char **argv, struct options *o)
{
	unsigned long long n;
	struct kt_recording rec = { 0 };
	char kallsyms[4096] = "";
	struct stat st;
	int c, i, ret = 2;

	while ((c = getopt(argc, argv, "gn:k:L:h")) != -1) {
		switch (c) {
		case 'g':
			o->by_function = 1;
			break;
		case 'n':
		case 'L':
			if (parse_size(optarg, ~0ULL, &n)) {
				fprintf(stderr, "kmemtrace: -%c %s: not a number\n",
					c, optarg);
				return 2;
			}
			if (c == 'n') {
				o->max_live = n;
			} else {
				o->lost_bytes = n;
				o->have_lost_bytes = 1;
			}
			break;
		case 'k':
			o->kallsyms = optarg;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (optind == argc) {
		print_usage(stderr);
		return 2;
	}
	for (i = optind; i < argc; i++) {
		if (stat(argv[i], &st)) {
			fprintf(stderr, "kmemtrace: %s: %s\n", argv[i],
				strerror(errno));
			goto out;
		}
		if (S_ISDIR(st.st_mode)) {
			if (load_dir(argv[i], &rec, o, kallsyms,
				     sizeof(kallsyms)))
				goto out;
		} else {
			int cpu = cpu_of_path(argv[i]);

			if (add_stream(&rec, argv[i],
				       cpu >= 0 ? cpu : i - optind))
				goto out;
		}
	}
	if (!o->kallsyms)
		o->kallsyms = kallsyms[0] ? kallsyms : "/proc/kallsyms";
	ret = report(&rec, o);
out:
	kt_recording_free(&rec);
	return ret;
}

int main(int argc, char **argv)
{
	struct options o = {
		.max_live = DEFAULT_MAX_LIVE,
		.kallsyms = NULL,
	};

	if (argc < 2) {
		print_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "record")) {
		o.kallsyms = "/proc/kallsyms";
		return cmd_record(argc - 1, argv + 1, &o);
	}
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1, &o);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_usage(stdout);
		return 0;
	}
	fprintf(stderr, "kmemtrace: unknown command '%s'\n", argv[1]);
	print_usage(stderr);
	return 2;
}
