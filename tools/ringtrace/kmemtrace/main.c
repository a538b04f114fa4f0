// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace: record the kernel's allocator events and report them per
 * call site.  See Documentation/trace/kmemtrace.rst.
 *
 *   kmemtrace record [-o DIR] [-b KB] [-d DIR] [REPORT OPTIONS] [-- COMMAND...]
 *   kmemtrace report [-k KALLSYMS] [-L BYTES] [REPORT OPTIONS] PATH...
 *
 * Exit status: 0, the command's status when it failed, 2 for bad usage,
 * a file that cannot be read or a corrupt stream.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "account.h"
#include "ksyms.h"
#include "record.h"
#include "report.h"
#include "stream.h"

#define DEFAULT_DIR	"/sys/kernel/debug/kmemtrace"
#define CPU_DIR		"/sys/devices/system/cpu"
#define DEFAULT_MAX_LIVE	50

struct options {
	struct kt_report_opts	ro;
	const char		*kallsyms;
	int			have_L;		/* -L given: it wins */
	unsigned long long	L;
};

/* One stream to report, and how to read it. */
struct input {
	char			*path;
	int			cpu;
	int			named;		/* its name said cpu<n> */
	struct kt_read_opts	ropts;
};

struct inputs {
	struct input		*in;
	int			nr;
	int			have_lost_bytes;	/* the session's */
	unsigned long long	lost_bytes;
	char			kallsyms[4200];		/* saved with it */
};

enum {
	OPT_ALLOC = 256,
	OPT_PAGE,
	OPT_CALLER,
	OPT_RESYNC,
};

static const struct option long_opts[] = {
	{ "alloc", no_argument, NULL, OPT_ALLOC },
	{ "page", no_argument, NULL, OPT_PAGE },
	{ "caller", no_argument, NULL, OPT_CALLER },
	{ "resync", no_argument, NULL, OPT_RESYNC },
	{ "sort", required_argument, NULL, 's' },
	{ "lines", required_argument, NULL, 'l' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: kmemtrace record [-o DIR] [-b KB] [-d KMEMTRACE_DIR] [REPORT OPTIONS] [-- COMMAND [ARG...]]\n"
		"       kmemtrace report [-k KALLSYMS] [-L LOST_BYTES] [REPORT OPTIONS] DIR | FILE...\n"
		"\n"
		"record  collects /sys/kernel/debug/kmemtrace/cpu<n> while COMMAND runs\n"
		"        (or until ^C) into DIR as it goes, then reports; -o DIR keeps\n"
		"        the session (cpu<n>, abi_version, endianness, total_overruns,\n"
		"        kallsyms) for a later report, else a temporary directory is\n"
		"        used; -b sets the per-CPU buffer size in KiB first.\n"
		"report  reads a saved session: one DIR from record -o, or cpu<n> files\n"
		"        (a file with another name is read as a CPU after the named ones).\n"
		"        -k: kallsyms to name call sites; -L: lost bytes to report\n"
		"        instead of the session's total_overruns.\n"
		"\n"
		"REPORT OPTIONS\n"
		"-g              one line per function instead of per call site\n"
		"-n N            list at most N live objects (default %d)\n"
		"-s, --sort KEYS sort tables by KEYS, comma-separated, each highest\n"
		"                first: bytes, req, hit, frag, xcpu (or pingpong), live,\n"
		"                net, frees; callsite and ptr lowest first (default\n"
		"                bytes,callsite)\n"
		"-l, --lines N   at most N rows per table\n"
		"--caller        per call site: per-hit averages, net bytes, node asked\n"
		"--alloc         slab objects per pointer (as perf kmem --alloc)\n"
		"--page          page allocations by order, migrate type and GFP flags\n"
		"--resync        skip a corrupt record and count it, instead of failing\n",
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

/*
 * An option both commands take: 1 taken, 0 not one of them, -1 bad value
 * (printed).
 */
static int report_option(int c, const char *arg, struct options *o)
{
	unsigned long long n;

	switch (c) {
	case 'g':
		o->ro.by_function = 1;
		return 1;
	case 'n':
	case 'l':
		if (parse_size(arg, ~0ULL, &n)) {
			fprintf(stderr, "kmemtrace: -%c %s: not a number\n", c,
				arg);
			return -1;
		}
		if (c == 'n')
			o->ro.max_live = n;
		else
			o->ro.max_lines = n;
		return 1;
	case 's':
		if (kt_parse_sort(arg, &o->ro)) {
			fprintf(stderr,
				"kmemtrace: -s %s: keys are bytes, req, hit, frag, callsite, ptr, xcpu, pingpong, live, net, frees (at most %d)\n",
				arg, KT_MAX_SORT);
			return -1;
		}
		return 1;
	case OPT_ALLOC:
		o->ro.alloc = 1;
		return 1;
	case OPT_PAGE:
		o->ro.page = 1;
		return 1;
	case OPT_CALLER:
		o->ro.caller = 1;
		return 1;
	case OPT_RESYNC:
		o->ro.resync = 1;
		return 1;
	}
	return 0;
}

static int cpu_of_path(const char *path)
{
	const char *base = strrchr(path, '/');

	return kt_cpu_of(base ? base + 1 : path);
}

/*
 * How a session in @dir was recorded: its abi_version (1 if it has none:
 * saved before there was a second) and its endianness (ours if none).
 */
static int read_meta(const char *dir, struct kt_read_opts *ro)
{
	char path[4200], buf[32] = "";
	FILE *f;
	int abi = KT_ABI_MIN;

	snprintf(path, sizeof(path), "%s/abi_version", dir);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &abi) != 1)
			abi = -1;
		fclose(f);
	}
	if (abi < KT_ABI_MIN || abi > KT_ABI_VERSION) {
		fprintf(stderr,
			"kmemtrace: %s: ABI version %d: this kmemtrace reads versions %d to %d\n",
			path, abi, KT_ABI_MIN, KT_ABI_VERSION);
		return -1;
	}
	ro->abi = abi;
	ro->swap = 0;
	snprintf(path, sizeof(path), "%s/endianness", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	if (strcmp(buf, "little\n") && strcmp(buf, "big\n")) {
		fprintf(stderr, "kmemtrace: %s: not \"little\" or \"big\"\n",
			path);
		return -1;
	}
	ro->swap = !!strcmp(buf, kt_host_endianness());
	return 0;
}

static int add_input(struct inputs *ins, const char *path, int cpu,
		     const struct kt_read_opts *ro)
{
	struct input *in = realloc(ins->in, (ins->nr + 1) * sizeof(*in));
	char *copy = strdup(path);

	if (in)
		ins->in = in;
	if (!in || !copy) {
		fprintf(stderr, "kmemtrace: out of memory\n");
		free(copy);
		return -1;
	}
	in = &ins->in[ins->nr++];
	in->path = copy;
	in->cpu = cpu;
	in->named = cpu >= 0;
	in->ropts = *ro;
	return 0;
}

static void inputs_free(struct inputs *ins)
{
	int i;

	for (i = 0; i < ins->nr; i++)
		free(ins->in[i].path);
	free(ins->in);
	memset(ins, 0, sizeof(*ins));
}

/* A session DIR: its cpu<n>, total_overruns, kallsyms and how to read. */
static int load_dir(const char *dir, struct inputs *ins)
{
	char path[4200];
	struct kt_read_opts ro = { 0 };
	struct dirent *d;
	DIR *dp;
	FILE *f;
	int found = 0;

	if (read_meta(dir, &ro))
		return -1;
	dp = opendir(dir);
	if (!dp) {
		fprintf(stderr, "kmemtrace: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((d = readdir(dp))) {
		int cpu = kt_cpu_of(d->d_name);

		if (cpu < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (add_input(ins, path, cpu, &ro)) {
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
		if (fscanf(f, "%llu", &ins->lost_bytes) == 1)
			ins->have_lost_bytes = 1;
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	if (!access(path, R_OK))
		snprintf(ins->kallsyms, sizeof(ins->kallsyms), "%s", path);
	return 0;
}

/*
 * FILEs: cpu<n> are CPU n (twice is an error), others are numbered after
 * the highest of those, so that no two streams share a CPU.
 */
static int load_files(char **paths, int nr, struct inputs *ins)
{
	int i, j, next = 0;

	for (i = 0; i < nr; i++) {
		struct kt_read_opts ro = { 0 };
		char *copy = strdup(paths[i]);
		struct stat st;
		int ret;

		if (stat(paths[i], &st)) {
			fprintf(stderr, "kmemtrace: %s: %s\n", paths[i],
				strerror(errno));
			free(copy);
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr,
				"kmemtrace: %s: a session directory must be the only PATH\n",
				paths[i]);
			free(copy);
			return -1;
		}
		/* Recorded as the directory it is in says, if it says. */
		ret = copy ? read_meta(dirname(copy), &ro) : -1;
		free(copy);
		if (ret || add_input(ins, paths[i], cpu_of_path(paths[i]), &ro))
			return -1;
	}
	for (i = 0; i < ins->nr; i++) {
		if (!ins->in[i].named)
			continue;
		if (ins->in[i].cpu >= next)
			next = ins->in[i].cpu + 1;
		for (j = 0; j < i; j++) {
			if (ins->in[j].named && ins->in[j].cpu == ins->in[i].cpu) {
				fprintf(stderr,
					"kmemtrace: %s and %s: both are cpu%d (several sessions? report them one at a time)\n",
					ins->in[j].path, ins->in[i].path,
					ins->in[i].cpu);
				return -1;
			}
		}
	}
	for (i = 0; i < ins->nr; i++)
		if (!ins->in[i].named)
			ins->in[i].cpu = next++;
	return 0;
}

static void load_ksyms(const char *path, struct ksyms *ks)
{
	FILE *f = fopen(path, "r");

	if (!f || ksyms_load(ks, f) < 0)
		fprintf(stderr, "kmemtrace: %s: %s; call sites stay addresses\n",
			path, f ? "out of memory" : strerror(errno));
	if (f)
		fclose(f);
	if (!ks->nr && f)
		fprintf(stderr, "kmemtrace: %s has no addresses (not root?)\n",
			path);
}

static void say_corrupt(const struct input *in, const struct kt_cursor *c)
{
	if (in->named)
		fprintf(stderr, "kmemtrace: %s: corrupt stream: %s\n",
			in->path, c->err);
	else
		fprintf(stderr, "kmemtrace: %s (read as cpu%d): corrupt stream: %s\n",
			in->path, in->cpu, c->err);
}

/* Stream every input through the merge into the accounting; report. */
static int report(const struct inputs *ins, struct options *o)
{
	struct kt_cursor *cur = calloc(ins->nr ? ins->nr : 1, sizeof(*cur));
	struct kt_skipped skipped = { 0 };
	struct kt_account acc = { 0 };
	struct kt_merge m = { 0 };
	struct ksyms ks = { 0 };
	struct kt_event e;
	int i, opened = 0, ret = 2, got;

	if (!cur)
		goto nomem;
	for (i = 0; i < ins->nr; i++, opened++) {
		struct kt_read_opts ro = ins->in[i].ropts;
		int fd = open(ins->in[i].path, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			fprintf(stderr, "kmemtrace: %s: %s\n",
				ins->in[i].path, strerror(errno));
			goto out;
		}
		ro.resync = o->ro.resync;
		if (kt_cursor_fd(&cur[i], fd, ins->in[i].cpu, &ro, &skipped)) {
			opened++;
			goto nomem;
		}
	}
	acc.want_ptrs = o->ro.alloc;
	acc.want_pages = o->ro.page;
	if (kt_merge_init(&m, cur, ins->nr))
		goto failed;
	while ((got = kt_merge_next(&m, &e)) > 0)
		if (kt_account_event(&acc, &e))
			goto nomem;
	if (got < 0)
		goto failed;
	load_ksyms(o->kallsyms, &ks);
	o->ro.ksyms = &ks;
	kt_print_report(stdout, &acc, &m, &skipped, &o->ro);
	ret = 0;
	goto out;
failed:
	if (!m.failed)
		goto nomem;
	say_corrupt(&ins->in[m.failed - cur], m.failed);
	goto out;
nomem:
	fprintf(stderr, "kmemtrace: out of memory\n");
out:
	for (i = 0; i < opened; i++)
		kt_cursor_free(&cur[i]);
	free(cur);
	kt_merge_free(&m);
	kt_account_free(&acc);
	ksyms_free(&ks);
	return ret;
}

/* The session's lost bytes, unless -L said otherwise (which it says). */
static void lost_bytes(struct options *o, const struct inputs *ins)
{
	if (o->have_L) {
		if (ins->have_lost_bytes && ins->lost_bytes != o->L)
			fprintf(stderr,
				"kmemtrace: -L %llu, not the session's total_overruns (%llu)\n",
				o->L, ins->lost_bytes);
		o->ro.have_lost_bytes = 1;
		o->ro.lost_bytes = o->L;
	} else {
		o->ro.have_lost_bytes = ins->have_lost_bytes;
		o->ro.lost_bytes = ins->lost_bytes;
	}
}

static int copy_kallsyms(const char *dir)
{
	char path[4200], buf[65536];
	FILE *in, *out;
	size_t n;
	int ret = 0;

	/* Module symbols go with their modules: keep them with the data. */
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	in = fopen("/proc/kallsyms", "r");
	out = fopen(path, "w");
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
		if (fwrite(buf, 1, n, out) != n)
			ret = -1;
	fclose(in);
	if (fclose(out) || ret) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Files of a session in @dir: the cpu<n> of an earlier one are stale. */
static const char *const session_files[] = {
	"abi_version", "endianness", "total_overruns", "kallsyms", NULL
};

static void remove_session(const char *dir, int rm_dir)
{
	char path[4200];
	struct dirent *d;
	DIR *dp = opendir(dir);
	int i;

	while (dp && (d = readdir(dp))) {
		if (kt_cpu_of(d->d_name) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		unlink(path);
	}
	if (dp)
		closedir(dp);
	for (i = 0; rm_dir && session_files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, session_files[i]);
		unlink(path);
	}
	if (rm_dir && rmdir(dir))
		fprintf(stderr, "kmemtrace: removing %s: %s\n", dir,
			strerror(errno));
}

static int cmd_record(int argc, char **argv, struct options *o)
{
	const char *dir = DEFAULT_DIR, *out_dir = NULL;
	char tmp[4096];
	unsigned long long kb = 0;
	struct kt_recording rec;
	struct inputs ins = { 0 };
	int c, status, ret;

	while ((c = getopt_long(argc, argv, "+o:b:d:gn:s:l:h", long_opts,
				NULL)) != -1) {
		int r = report_option(c, optarg, o);

		if (r < 0)
			return 2;
		if (r)
			continue;
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
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (out_dir) {
		if (mkdir(out_dir, 0755) && errno != EEXIST) {
			fprintf(stderr, "kmemtrace: %s: %s\n", out_dir,
				strerror(errno));
			return 2;
		}
		remove_session(out_dir, 0);
	} else {
		const char *t = getenv("TMPDIR");

		snprintf(tmp, sizeof(tmp), "%s/kmemtrace.XXXXXX",
			 t && *t ? t : "/tmp");
		if (!mkdtemp(tmp)) {
			fprintf(stderr, "kmemtrace: %s: %s\n", tmp,
				strerror(errno));
			return 2;
		}
	}
	status = kt_record(dir, CPU_DIR, (unsigned int)kb,
			   out_dir ? out_dir : tmp, argv + optind, &rec);
	kt_recording_free(&rec);
	if (status < 0) {
		ret = 2;
		goto out;
	}
	ret = 2;
	if (out_dir && copy_kallsyms(out_dir))
		goto out;
	if (load_dir(out_dir ? out_dir : tmp, &ins))
		goto out;
	lost_bytes(o, &ins);
	ret = report(&ins, o);
out:
	inputs_free(&ins);
	if (!out_dir)
		remove_session(tmp, 1);
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
	struct inputs ins = { 0 };
	struct stat st;
	int c, ret = 2;

	while ((c = getopt_long(argc, argv, "gn:k:L:s:l:h", long_opts,
				NULL)) != -1) {
		int r = report_option(c, optarg, o);

		if (r < 0)
			return 2;
		if (r)
			continue;
		switch (c) {
		case 'L':
			if (parse_size(optarg, ~0ULL, &n)) {
				fprintf(stderr, "kmemtrace: -L %s: not a number\n",
					optarg);
				return 2;
			}
			o->have_L = 1;
			o->L = n;
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
	if (!stat(argv[optind], &st) && S_ISDIR(st.st_mode)) {
		if (argc - optind > 1) {
			fprintf(stderr,
				"kmemtrace: %s and %s: a session directory must be the only PATH (report several sessions one at a time)\n",
				argv[optind], argv[optind + 1]);
			goto out;
		}
		if (load_dir(argv[optind], &ins))
			goto out;
	} else if (load_files(argv + optind, argc - optind, &ins)) {
		goto out;
	}
	lost_bytes(o, &ins);
	if (!o->kallsyms)
		o->kallsyms = ins.kallsyms[0] ? ins.kallsyms : "/proc/kallsyms";
	ret = report(&ins, o);
out:
	inputs_free(&ins);
	return ret;
}

int main(int argc, char **argv)
{
	struct options o = { .ro = { .max_live = DEFAULT_MAX_LIVE } };

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
