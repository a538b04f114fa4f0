// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the trace.dat format module: a synthetic session of every
 * record encoding (small and large payloads, time extends, padding, lost
 * events with and without their count) on three CPUs, one empty, written
 * and read back section by section and event by event; bad files rejected
 * with the offset and what was expected; the same in version 7, stored
 * and compressed with zlib and zstd.  With --write FILE, writes the
 * session for the trace-cmd interoperability test (--write-v7 FILE CODEC:
 * as version 7); with --fake-tracing
 * DIR, the files of record-tests.sh's fake tracing directory; with
 * --fake-last-boot DIR modern|2008 DELTA|other, its last_boot/
 * (lastboot-tests.sh).  Prints
 * "PASS name" or "FAIL name" (the reason indented) per test.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datfile.h"
#include "pages.h"
#include "synth.h"

#define HOSTTEST_NAME "tracedat host"
#include "../hosttest.h"

#define SESSION_CPUS		3
#define BASE_TS		5422548402ULL

/* What the session holds, to compare with what is read back. */
struct expected {
	uint64_t	ts;
	int		cpu;
	uint32_t	len;
	char		text[64];
	int64_t		lost_before;
};

static struct synth_cpu cpus[SESSION_CPUS];
static struct expected want[512];
static int nr_want;
static struct td_blob cpu_blobs[SESSION_CPUS], formats[1];
static struct td_system systems[1];
static struct td_option options[1];
static const char kallsyms[] = "ffffffff81000000 T _stext\n";
static const char cmdlines[] = "51 bash\n54 cat\n";

static void add(int cpu, uint64_t ts, const char *text, int pid)
{
	uint8_t rec[256];
	uint32_t n = synth_print(rec, pid, text);

	synth_event(&cpus[cpu], ts, rec, n);
	want[nr_want].ts = ts;
	want[nr_want].cpu = cpu;
	want[nr_want].len = (n + 3) & ~3U;
	snprintf(want[nr_want].text, sizeof(want[nr_want].text), "%s", text);
	nr_want++;
}

/*
 * CPU 0: "hello 1".."hello 3" 151 ms apart (time extends), a long text
 * (a length word), an empty one (the short encoding).  CPU 1: 300 events over several
 * pages, the second page after lost events (count stored), the third
 * after lost events (count not stored).  CPU 2: nothing.
 */
static void build_session(struct td_file *tf, int modern)
{
	static char long_text[200];
	int i;

	memset(cpus, 0, sizeof(cpus));
	for (i = 0; i < SESSION_CPUS; i++)
		cpus[i].modern = modern;
	nr_want = 0;
	add(0, BASE_TS, "hello 1", 51);
	add(0, BASE_TS + 151493041, "hello 2", 51);
	add(0, BASE_TS + 151493041 + 66681522, "hello 3", 51);
	memset(long_text, 'x', sizeof(long_text) - 1);
	add(0, BASE_TS + 300000000, long_text, 51);
	/* An empty text: 25 bytes, the short encoding (len 7). */
	add(0, BASE_TS + 300000100, "", 51);
	synth_close_page(&cpus[0], 0);
	for (i = 0; i < 300; i++) {
		char text[32];

		snprintf(text, sizeof(text), "event %d", i);
		if (i == 100)
			synth_lose(&cpus[1], 7);
		if (i == 200)
			synth_lose(&cpus[1], -1);
		add(1, BASE_TS + 1000 + (uint64_t)i * 1000, text, 54);
		if (i == 100 || i == 200)
			want[nr_want - 1].lost_before = i == 100 ? 7 : -1;
	}
	synth_close_page(&cpus[1], 1);
	memset(tf, 0, sizeof(*tf));
	tf->long_size = 8;
	tf->page_size = SYNTH_PAGE;
	if (modern) {
		tf->header_page.data = (const uint8_t *)synth_header_page;
		tf->header_page.len = strlen(synth_header_page);
	}
	tf->header_event.data = (const uint8_t *)synth_header_event;
	tf->header_event.len = strlen(synth_header_event);
	formats[0].data = (const uint8_t *)synth_print_format;
	formats[0].len = strlen(synth_print_format);
	tf->ftrace_formats = formats;
	tf->nr_ftrace_formats = 1;
	systems[0].name = "kprobes";
	systems[0].formats = NULL;
	systems[0].nr_formats = 0;
	tf->systems = systems;
	tf->nr_systems = 1;
	tf->kallsyms.data = (const uint8_t *)kallsyms;
	tf->kallsyms.len = strlen(kallsyms);
	tf->cmdlines.data = (const uint8_t *)cmdlines;
	tf->cmdlines.len = strlen(cmdlines);
	tf->nr_cpus = SESSION_CPUS;
	for (i = 0; i < SESSION_CPUS; i++) {
		cpu_blobs[i].data = cpus[i].data;
		cpu_blobs[i].len = cpus[i].len;
	}
	tf->cpu_data = cpu_blobs;
}

static uint8_t *write_mem(const struct td_file *tf, size_t *len)
{
	char *buf = NULL, err[256];
	FILE *f = open_memstream(&buf, len);

	if (!f || td_write(f, tf, err, sizeof(err))) {
		check(0, "td_write: %s", f ? err : "open_memstream");
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return (uint8_t *)buf;
}

static int blob_eq(const struct td_blob *a, const struct td_blob *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data, a->len));
}

struct walk {
	int	n;
	int	bad;
};

static int collect(const struct td_event *ev, void *ctx)
{
	struct walk *w = ctx;
	const struct expected *e;

	if (w->n >= nr_want) {
		check(0, "more events than written");
		return 1;
	}
	e = &want[w->n++];
	if (ev->ts != e->ts || ev->cpu != e->cpu || ev->len != e->len ||
	    ev->lost_before != e->lost_before ||
	    (e->text[0] && strncmp((const char *)ev->data + 24, e->text,
				   strlen(e->text)))) {
		check(0, "event %d: cpu %d ts %llu len %u lost %lld",
		      w->n - 1, ev->cpu, (unsigned long long)ev->ts, ev->len,
		      (long long)ev->lost_before);
		check(0, "want cpu %d ts %llu len %u lost %lld '%s'", e->cpu,
		      (unsigned long long)e->ts, e->len,
		      (long long)e->lost_before, e->text);
		w->bad = 1;
		return 1;
	}
	return 0;
}

static void expect_bad(const uint8_t *buf, size_t len, const char *what,
		       const char *want_msg)
{
	struct td_file tf;
	char err[256] = "";

	if (!td_read(buf, len, &tf, err, sizeof(err))) {
		check(0, "%s: accepted", what);
		td_release(&tf);
		return;
	}
	check(!!strstr(err, want_msg), "%s: \"%s\" lacks \"%s\"", what, err,
	      want_msg);
}

/* Every cut of @buf shorter than @n bytes: refused, naming an offset. */
static void expect_cuts_refused(const uint8_t *buf, size_t n)
{
	size_t cut;

	for (cut = 0; cut < n; cut++) {
		struct td_file t;
		char err[256];

		if (!td_read(buf, cut, &t, err, sizeof(err))) {
			td_release(&t);
			check(0, "a file cut at %zu bytes was accepted", cut);
			return;
		}
		if (!strstr(err, "offset")) {
			check(0, "cut at %zu: no offset in \"%s\"", cut, err);
			return;
		}
	}
}

/*
 * @flags: ROUND_BIG_ENDIAN writes the file's numbers big-endian (the
 * pages stay as synthesized: not walked then); ROUND_LATENCY a text
 * buffer instead of CPU data.
 */
#define ROUND_BIG_ENDIAN	1
#define ROUND_LATENCY		2

static void test_round_trip(int modern, uint32_t version, enum td_codec codec,
			    int flags)
{
	static const char text[] = "# tracer: nop\n  cat-54 [001] 5.4: hi\n";
	struct td_file tf, back;
	struct td_page_format pf = { SYNTH_PAGE, 8, 0, modern };
	struct walk w = { 0 };
	char err[256];
	size_t len;
	uint8_t *buf;
	uint32_t i;

	build_session(&tf, modern);
	tf.version = version;
	tf.codec = codec;
	tf.chunk_pages = 2;	/* CPU 1's 6 pages: 3 chunks */
	tf.big_endian = !!(flags & ROUND_BIG_ENDIAN);
	if (flags & ROUND_LATENCY) {
		tf.mode = TD_LATENCY;
		tf.latency.data = (const uint8_t *)text;
		tf.latency.len = strlen(text);
	}
	options[0].type = 99;
	options[0].data.data = (const uint8_t *)"opt";
	options[0].data.len = 3;
	tf.options = options;
	tf.nr_options = 1;
	buf = write_mem(&tf, &len);
	if (!buf) {
		result("round trip");
		return;
	}
	check(!td_read(buf, len, &back, err, sizeof(err)), "td_read: %s", err);
	check(back.long_size == 8 && back.page_size == SYNTH_PAGE &&
	      back.big_endian == tf.big_endian &&
	      (back.nr_cpus == SESSION_CPUS || (flags & ROUND_LATENCY)) &&
	      back.version == (version ? version : 6) &&
	      (version != 7 || back.codec == codec), "file header");
	check(blob_eq(&back.header_page, &tf.header_page), "header_page");
	check(blob_eq(&back.header_event, &tf.header_event), "header_event");
	check(back.nr_ftrace_formats == 1 &&
	      blob_eq(&back.ftrace_formats[0], &formats[0]), "ftrace formats");
	check(back.nr_systems == 1 && !strcmp(back.systems[0].name, "kprobes") &&
	      !back.systems[0].nr_formats, "event systems");
	check(blob_eq(&back.kallsyms, &tf.kallsyms) &&
	      blob_eq(&back.cmdlines, &tf.cmdlines) &&
	      !back.printk_formats.len, "kallsyms, printk formats, cmdlines");
	check(back.nr_options == 1 && back.options[0].type == 99 &&
	      blob_eq(&back.options[0].data, &options[0].data), "options");
	if (flags & ROUND_LATENCY) {
		check(back.mode == TD_LATENCY &&
		      blob_eq(&back.latency, &tf.latency), "latency text");
		goto done;
	}
	for (i = 0; i < back.nr_cpus && !why[0]; i++) {
		check(!back.cpu_data[i].len || !(back.cpu_offsets[i] % SYNTH_PAGE),
		      "CPU %u data not page aligned", i);
		check(blob_eq(&back.cpu_data[i], &cpu_blobs[i]), "CPU %u data", i);
		if (flags & ROUND_BIG_ENDIAN)
			continue;
		check(!td_walk_pages(back.cpu_data[i].data, back.cpu_data[i].len,
				     (int)i, &pf, collect, &w, err, sizeof(err)) ||
		      w.bad, "walk CPU %u: %s", i, err);
	}
	check(w.n == nr_want || (flags & ROUND_BIG_ENDIAN),
	      "read %d events, wrote %d", w.n, nr_want);
done:
	td_release(&back);
	free(buf);
	if (version == 7) {
		char name[160];

		snprintf(name, sizeof(name),
			 "version 7 round trip, compression %s, chunks of 2 pages%s",
			 td_codec_name(codec),
			 flags & ROUND_BIG_ENDIAN ? ", big-endian (sections and blobs)" :
			 flags & ROUND_LATENCY ? ", a text (latency) buffer" : "");
		result(name);
		return;
	}
	result(modern ? "round trip, current record layout (upstream kernels')" :
	       "round trip of every section and record encoding, 3 CPUs, one empty");
}

/* A copy of @len bytes at @buf with @n bytes at @at set to @v. */
static void expect_bad_at(const uint8_t *buf, size_t len, size_t at,
			  uint64_t v, int n, const char *what,
			  const char *want_msg)
{
	uint8_t *copy = malloc(len);

	memcpy(copy, buf, len);
	memcpy(copy + at, &v, (size_t)n);
	expect_bad(copy, len, what, want_msg);
	free(copy);
}

/* Where the first @n bytes of @s are in @buf, or 0. */
static size_t find(const uint8_t *buf, size_t len, const void *s, size_t n)
{
	const uint8_t *p = memmem(buf, len, s, n);

	return p ? (size_t)(p - buf) : 0;
}

/*
 * Version 7 files that lie: every cut before the data, a compressed
 * section that does not inflate to its size, an options chain that loops,
 * a CPU's data outside its buffer, an unknown compression, no headers.
 */
static void test_bad_v7(enum td_codec codec)
{
	struct td_file tf;
	size_t len, opt, at, strings, h;
	uint8_t *buf;
	uint64_t first;
	char name[128];

	build_session(&tf, 1);
	tf.version = 7;
	tf.codec = codec;
	tf.chunk_pages = 2;
	buf = write_mem(&tf, &len);
	snprintf(name, sizeof(name),
		 "version 7 bad files rejected with the offset (compression %s)",
		 td_codec_name(codec));
	if (!buf) {
		result(name);
		return;
	}
	/* The strings section (descriptions, not read) ends the file. */
	strings = find(buf, len, "headers\0ftrace events", 22);
	if (strings <= 16) {
		check(0, "no strings section");
		free(buf);
		result(name);
		return;
	}
	strings -= 16;
	expect_cuts_refused(buf, strings);
	/* The header: magic, "7", endianness, long size, page size, name. */
	at = 10 + 2 + 2 + 4;
	expect_bad_at(buf, len, at, 'q', 1, "unknown compression",
		      "tracedat reads none, zlib and zstd");
	at += strlen(td_codec_name(codec)) + 1 +
	      strlen(td_codec_version(codec)) + 1;
	memcpy(&first, buf + at, 8);
	/* The first section, the headers', follows the header. */
	h = at + 8;
	expect_bad_at(buf, len, at, len + 5, 8, "options past the end",
		      "lies past the end");
	expect_bad_at(buf, len, at, h, 8, "options at a wrong place",
		      "section id 16 where the options put the options section");
	/* The options section's last option, DONE, back to itself. */
	opt = (size_t)first;
	expect_bad_at(buf, len, strings - 8, first, 8,
		      "a loop of options sections", "loop back");
	/* HEADER_INFO made an unknown option: no headers section. */
	expect_bad_at(buf, len, opt + 16, 77, 2, "no HEADER_INFO",
		      "no HEADER_INFO option");
	/* CPU 1's offset in the BUFFER option, moved past the section. */
	at = find(buf + opt, len - opt, "local", 6);
	check(at != 0, "no clock in the BUFFER option");
	if (at) {
		at += opt + 6 + 4 + 4 + 20 + 4;
		expect_bad_at(buf, len, at, len - 8, 8, "CPU data outside the buffer",
			      "lies outside its buffer section");
		/* CPU 1's data where CPU 0's is: decompressed twice. */
		expect_bad_at(buf, len, at, 4096, 8, "two CPUs' data at one place",
			      "the data of CPUs 0 and 1 overlap");
	}
	if (codec != TD_CODEC_NONE) {
		/* The headers section: its uncompressed size, one less. */
		uint32_t rsize;

		memcpy(&rsize, buf + h + 16 + 4, 4);
		/* zstd frames name their size: refused before inflating. */
		expect_bad_at(buf, len, h + 16 + 4, rsize - 1, 4,
			      "a section smaller than it says",
			      codec == TD_CODEC_ZSTD ? "cannot make" :
			      "does not decompress");
		expect_bad_at(buf, len, h + 16 + 4, 0xffffffff, 4,
			      "a section of 4 GiB", "would make");
		/* CPU 1's first chunk said to make 64 MiB: no memory taken. */
		expect_bad_at(buf, len, 2 * SYNTH_PAGE + 4 + 4, 64 << 20, 4,
			      "a chunk said to make 64 MiB", "cannot make");
		/* A byte of CPU 1's first chunk. */
		expect_bad_at(buf, len, 2 * SYNTH_PAGE + 4 + 8 + 20, 0x55, 1,
			      "a corrupt chunk", "does not decompress");
	}
	free(buf);
	result(name);
}

static void test_bad_files(void)
{
	struct td_file tf;
	size_t len;
	uint8_t *buf, *copy;

	build_session(&tf, 0);
	tf.nr_options = 0;
	buf = write_mem(&tf, &len);
	if (!buf) {
		result("bad files rejected with the offset and what was expected");
		return;
	}
	copy = malloc(len);
	/* Every cut before the first page of data is an error. */
	expect_cuts_refused(buf, len < SYNTH_PAGE ? len : SYNTH_PAGE);

	memcpy(copy, buf, len);
	copy[1] = 0x09;
	expect_bad(copy, len, "bad magic", "offset 0: expected the magic");
	memcpy(copy, buf, len);
	copy[10] = '8';
	expect_bad(copy, len, "version 8",
		   "offset 10: expected version \"6\\0\" or \"7\\0\"");
	memcpy(copy, buf, len);
	copy[14] = 0x03;	/* page size 0x1003 */
	expect_bad(copy, len, "page size", "offset 14: page size 4099");
	memcpy(copy, buf, len);
	memcpy(copy + 18, "header_evnt", 11);
	expect_bad(copy, len, "sections out of order", "offset 18: expected \"header_page\\0\"");
	memcpy(copy, buf, len);
	copy[30 + 7] = 0x7f;	/* header_page size, top byte */
	expect_bad(copy, len, "impossible size", "offset 30: header_page of");
	free(copy);
	free(buf);
	result("bad files rejected with the offset and what was expected");
}

static void test_cpu_table_checked(void)
{
	struct td_file tf;
	size_t len;
	uint8_t *buf;
	char *fly;

	build_session(&tf, 0);
	buf = write_mem(&tf, &len);
	if (!buf) {
		result("CPU data offsets and sizes checked against the file");
		return;
	}
	fly = memmem(buf, len, "flyrecord", 10);
	check(!!fly, "no flyrecord");
	if (fly) {
		size_t table = (size_t)(fly - (char *)buf) + 10;
		uint64_t huge = len;

		memcpy(buf + table + 8, &huge, 8);	/* CPU 0 size */
		expect_bad(buf, len, "CPU data past the end", "CPU 0's data");
		huge = 16;
		memcpy(buf + table + 8, &huge, 8);
		memcpy(buf + table, &huge, 8);		/* CPU 0 at 16 */
		expect_bad(buf, len, "CPU data over the header", "overlaps the header");
		memcpy(buf + table - 10, "flyrecorx", 9);
		expect_bad(buf, len, "unknown section", "expected \"flyrecord\\0\" or");
	}
	free(buf);
	result("CPU data offsets and sizes checked against the file");
}

static void test_bad_pages(void)
{
	struct td_page_format pf = { SYNTH_PAGE, 8, 0, 0 };
	struct walk w = { 0 };
	char err[256];
	uint8_t page[SYNTH_PAGE] = { 0 };
	uint64_t commit = SYNTH_PAGE;
	uint32_t hdr;

	memcpy(page + 8, &commit, 8);
	check(td_walk_pages(page, sizeof(page), 0, &pf, collect, &w, err,
			    sizeof(err)) == -1 && strstr(err, "exceeds the page"),
	      "commit past the page: %s", err);
	commit = 8;
	memcpy(page + 8, &commit, 8);
	hdr = TD_TYPE_DATA;	/* len 0: a length word */
	memcpy(page + 16, &hdr, 4);
	hdr = 400;
	memcpy(page + 20, &hdr, 4);
	check(td_walk_pages(page, sizeof(page), 0, &pf, collect, &w, err,
			    sizeof(err)) == -1 && strstr(err, "data length 400"),
	      "length past the commit: %s", err);
	hdr = TD_TYPE_TIME_STAMP;
	memcpy(page + 16, &hdr, 4);
	check(td_walk_pages(page, sizeof(page), 0, &pf, collect, &w, err,
			    sizeof(err)) == -1 && strstr(err, "reserved"),
	      "time stamp type: %s", err);
	check(td_walk_pages(page, 100, 0, &pf, collect, &w, err,
			    sizeof(err)) == -1 && strstr(err, "not whole"),
	      "partial page: %s", err);
	result("bad pages rejected with the page, the offset and the problem");
}

/* @len bytes at @dir/@name: 0, or -1. */
static int put_file(const char *dir, const char *name, const void *data,
		    size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	if (fwrite(data, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

/*
 * The files of the fake tracing directory of record-tests.sh (which makes
 * its directories): the current layout's header page, the print event,
 * saved cmdlines, and "page": CPU 0's page of the session (5 events) as
 * trace_pipe_raw would give it.
 */
static int write_fake_tracing(const char *dir)
{
	struct td_file tf;

	build_session(&tf, 1);
	return put_file(dir, "events/header_page", synth_header_page,
			strlen(synth_header_page)) ||
	       put_file(dir, "events/header_event", synth_header_event,
			strlen(synth_header_event)) ||
	       put_file(dir, "events/ftrace/print/format", synth_print_format,
			strlen(synth_print_format)) ||
	       put_file(dir, "saved_cmdlines", cmdlines, strlen(cmdlines)) ||
	       put_file(dir, "page", cpus[0].data, cpus[0].len);
}

/*
 * The last_boot/ of lastboot-tests.sh's fake tracing directory (which
 * makes its directories), from the session in the current record layout
 * (@modern) or the 2008 one: each CPU's pages as its trace_pipe_raw
 * (CPU 2: none), the print event's format, and stats saying @same kernel
 * and the text delta @delta.
 */
static int write_fake_last_boot(const char *dir, int modern, int same,
				const char *delta)
{
	char stats[512], name[64];
	struct td_file tf;
	size_t n;
	int i;

	build_session(&tf, modern);
	n = (size_t)snprintf(stats, sizeof(stats),
			     "sealed: panic\nkernel: 6.1.0 #1 fake\nsame kernel: %s\ntext offset: 0x0\ntext delta: %s\nset up: 1\ncpus: %d\npages per cpu: 16\nrecords: %d\n",
			     same ? "yes" : "no", delta, SESSION_CPUS, nr_want);
	for (i = 0; i < SESSION_CPUS; i++) {
		int j, records = 0;

		for (j = 0; j < nr_want; j++)
			records += want[j].cpu == i;
		if (cpus[i].len)
			n += (size_t)snprintf(stats + n, sizeof(stats) - n,
					      "cpu%d: %zu pages, %d records\n",
					      i, cpus[i].len / SYNTH_PAGE,
					      records);
		snprintf(name, sizeof(name),
			 "last_boot/per_cpu/cpu%d/trace_pipe_raw", i);
		if (put_file(dir, name, cpus[i].data, cpus[i].len))
			return -1;
	}
	return put_file(dir, "last_boot/stats", stats, n) ||
	       put_file(dir, "last_boot/keep", "1\n", 2) ||
	       put_file(dir, "last_boot/events/ftrace/print/format",
			synth_print_format, strlen(synth_print_format));
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--fake-last-boot")) {
		if (!write_fake_last_boot(argv[2], !strcmp(argv[3], "modern"),
					  strcmp(argv[4], "other"),
					  strcmp(argv[4], "other") ? argv[4] :
					  "0x0"))
			return 0;
		fprintf(stderr, "tests: cannot write %s's last_boot/\n",
			argv[2]);
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "--fake-tracing")) {
		if (!write_fake_tracing(argv[2]))
			return 0;
		fprintf(stderr, "tests: cannot write %s's files\n", argv[2]);
		return 1;
	}
	if (argc == 3 && (!strcmp(argv[1], "--write") ||
			  !strcmp(argv[1], "--write-modern"))) {
		struct td_file tf;
		char err[256];
		FILE *f = fopen(argv[2], "wb");

		build_session(&tf, !strcmp(argv[1], "--write-modern"));
		if (!f || td_write(f, &tf, err, sizeof(err)) || fclose(f)) {
			fprintf(stderr, "tests: cannot write %s\n", argv[2]);
			return 1;
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--write-v7")) {
		struct td_file tf;
		char err[256];
		FILE *f = fopen(argv[2], "wb");

		build_session(&tf, 1);
		tf.version = 7;
		tf.chunk_pages = 2;	/* several chunks per CPU */
		if (td_codec_by_name(argv[3], &tf.codec) || !f ||
		    td_write(f, &tf, err, sizeof(err)) || fclose(f)) {
			fprintf(stderr, "tests: cannot write %s\n", argv[2]);
			return 1;
		}
		return 0;
	}
	test_round_trip(0, 0, TD_CODEC_NONE, 0);
	test_round_trip(1, 0, TD_CODEC_NONE, 0);
	test_round_trip(1, 7, TD_CODEC_NONE, 0);
	test_round_trip(1, 7, TD_CODEC_ZLIB, 0);
	test_round_trip(1, 7, TD_CODEC_ZSTD, 0);
	test_round_trip(0, 7, TD_CODEC_ZSTD, 0);
	test_round_trip(1, 7, TD_CODEC_ZSTD, ROUND_BIG_ENDIAN);
	test_round_trip(1, 7, TD_CODEC_NONE, ROUND_BIG_ENDIAN);
	test_round_trip(1, 7, TD_CODEC_NONE, ROUND_LATENCY);
	test_bad_v7(TD_CODEC_NONE);
	test_bad_v7(TD_CODEC_ZLIB);
	test_bad_v7(TD_CODEC_ZSTD);
	test_bad_files();
	test_cpu_table_checked();
	test_bad_pages();
	return failures ? 1 : 0;
}
