// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the kmemtrace reporter on synthetic streams: every record
 * kind, unknown ids and feature blocks skipped by size, sequence
 * wraparound, lost records, corrupt streams rejected with their offset,
 * and the report's per-call-site figures; and live collection from a fake
 * kmemtrace and sysfs directory: which CPUs are online, which refuse us,
 * and a cpu<n> file made while recording.  Prints "PASS name" or
 * "FAIL name" (with the reason indented) per test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ksyms.h"
#include "record.h"
#include "report.h"
#include "stream.h"
#include "synth.h"

#define HOSTTEST_NAME "kmemtrace host"
#include "../hosttest.h"

#define SITE_A	0xffffffff81000010ULL	/* func_a+0x10 */
#define SITE_B	0xffffffff81000120ULL	/* func_b+0x20 */
#define SITE_B2	0xffffffff81000130ULL	/* func_b+0x30 */
#define SITE_M	0xffffffffc0001008ULL	/* mod_fn+0x8 [mymod] */

static const char kallsyms[] =
	"ffffffff81000000 T func_a\n"
	"ffffffff81000100 t func_b\n"
	"ffffffff81000200 D some_data\n"
	"ffffffffc0001000 t mod_fn\t[mymod]\n";

struct parsed {
	struct kt_events	cpus[4];
	struct kt_events	merged;
	struct kt_skipped	skipped;
	struct kt_account	acc;
	char			err[256];
	int			rc;
};

static void parse_all(struct parsed *p, struct synth *s, int nr)
{
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < nr; i++) {
		p->rc = kt_parse_stream(s[i].buf, s[i].len, i, &p->cpus[i],
					&p->skipped, p->err, sizeof(p->err));
		if (p->rc)
			return;
	}
	if (kt_merge(p->cpus, nr, &p->merged) ||
	    kt_account(&p->acc, &p->merged))
		p->rc = -2;
}

static void parsed_free(struct parsed *p)
{
	int i;

	for (i = 0; i < 4; i++)
		kt_events_free(&p->cpus[i]);
	kt_events_free(&p->merged);
	kt_account_free(&p->acc);
}

/* The line of @out ending in "  @tail", its spaces squeezed, is @want. */
static int has_row(const char *out, const char *tail, const char *want)
{
	char line[512], squeezed[512];
	const char *p = out;

	while (*p) {
		size_t n = strcspn(p, "\n"), tl = strlen(tail), i, j = 0;

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
		if (n < tl + 2 || strcmp(line + n - tl, tail) ||
		    strncmp(line + n - tl - 2, "  ", 2))
			continue;
		for (i = 0; line[i] && j < sizeof(squeezed) - 1; i++)
			if (line[i] != ' ' || (j && squeezed[j - 1] != ' '))
				squeezed[j++] = line[i];
		squeezed[j] = '\0';
		if (!strcmp(squeezed, want))
			return 1;
	}
	return 0;
}

static const struct kt_site *find_site(const struct kt_account *acc,
				       uint64_t site, uint8_t type)
{
	size_t i;

	for (i = 0; i < acc->nr_sites; i++)
		if (acc->sites[i].call_site == site &&
		    acc->sites[i].type_id == type)
			return &acc->sites[i];
	return NULL;
}

static void test_every_kind(void)
{
	struct synth s[2] = { 0 };
	struct parsed p;
	const struct kt_site *a, *c, *pg;

	synth_alloc(&s[0], KT_TYPE_KMALLOC, 1, SITE_A, 0x1000, 100, 128);
	synth_alloc(&s[0], KT_TYPE_CACHE, 2, SITE_B, 0x2000, 200, 200);
	synth_alloc(&s[1], KT_TYPE_PAGES, 3, SITE_M, 0x10000, 8192, 8192);
	/* The same address as kmalloc memory and as pages: kept apart. */
	synth_alloc(&s[1], KT_TYPE_PAGES, 4, SITE_M, 0x1000, 4096, 4096);
	synth_free(&s[1], KT_TYPE_KMALLOC, 5, SITE_B, 0x1000);	/* cross */
	synth_free(&s[0], KT_TYPE_CACHE, 6, SITE_A, 0x2000);
	synth_free(&s[1], KT_TYPE_PAGES, 7, SITE_A, 0x10000);
	synth_free(&s[0], KT_TYPE_KMALLOC, 8, SITE_A, 0x9999);	/* untracked */
	parse_all(&p, s, 2);
	check(!p.rc, "parse failed: %s", p.err);
	check(p.merged.nr == 8, "merged %zu events, want 8", p.merged.nr);
	for (size_t i = 0; i < p.merged.nr; i++)
		check(p.merged.ev[i].seq == (int32_t)i + 1,
		      "merged[%zu] has seq %d", i, p.merged.ev[i].seq);
	a = find_site(&p.acc, SITE_A, KT_TYPE_KMALLOC);
	c = find_site(&p.acc, SITE_B, KT_TYPE_CACHE);
	pg = find_site(&p.acc, SITE_M, KT_TYPE_PAGES);
	check(a && a->allocs == 1 && a->frees == 1 && a->bytes_req == 100 &&
	      a->bytes_alloc == 128 && a->cross_cpu_frees == 1 && !a->live,
	      "kmalloc site sums wrong");
	check(c && c->frees == 1 && !c->cross_cpu_frees && !c->live,
	      "cache site sums wrong");
	check(pg && pg->allocs == 2 && pg->frees == 1 && pg->live == 1 &&
	      pg->live_bytes == 4096, "pages site sums wrong");
	check(p.acc.untracked_frees == 1, "untracked frees %llu, want 1",
	      (unsigned long long)p.acc.untracked_frees);
	check(p.acc.nr_live == 1, "live %zu, want 1", p.acc.nr_live);
	check(kt_seq_gaps(&p.merged) == 0, "gaps where there are none");
	parsed_free(&p);
	result("every event and type, merged across CPUs by sequence");
}

static void test_unknown_ids_and_features(void)
{
	uint8_t feat[] = { 5, 0, 9, 0xaa, 0xbb, 3, 0, 200 };
	uint8_t junk[40] = { 0 };
	struct synth s = { 0 };
	struct parsed p;

	synth_alloc(&s, KT_TYPE_KMALLOC, 1, SITE_A, 0x1000, 8, 8);
	/* Event id 7, 40 bytes of whatever: skipped by its size. */
	junk[0] = 7;
	junk[2] = sizeof(junk);
	synth_put(&s, junk, sizeof(junk));
	/* Type id 9 on a known event. */
	synth_alloc(&s, 9, 2, SITE_A, 0x3000, 8, 8);
	/* Two feature blocks (5 and 3 bytes) after an allocation. */
	synth_event(&s, KT_EVENT_ALLOC, KT_TYPE_CACHE, 3, SITE_B, 0x4000, 16,
		    16, feat, sizeof(feat));
	synth_event(&s, KT_EVENT_FREE, KT_TYPE_CACHE, 4, SITE_B, 0x4000, 0, 0,
		    feat, 5);
	parse_all(&p, &s, 1);
	check(!p.rc, "parse failed: %s", p.err);
	check(p.skipped.unknown_events == 1, "unknown events %llu, want 1",
	      (unsigned long long)p.skipped.unknown_events);
	check(p.skipped.unknown_types == 1, "unknown types %llu, want 1",
	      (unsigned long long)p.skipped.unknown_types);
	check(p.skipped.feature_blocks == 3, "feature blocks %llu, want 3",
	      (unsigned long long)p.skipped.feature_blocks);
	check(p.merged.nr == 3, "kept %zu events, want 3", p.merged.nr);
	check(p.acc.nr_live == 1, "live %zu, want 1", p.acc.nr_live);
	parsed_free(&p);
	result("unknown event ids, type ids and feature blocks skipped by size");
}

static void test_wraparound(void)
{
	struct synth s[2] = { 0 };
	const int32_t seqs[] = { 0x7ffffffd, 0x7ffffffe, 0x7fffffff,
				 (int32_t)0x80000000, (int32_t)0x80000001,
				 (int32_t)0x80000002 };
	struct parsed p;
	size_t i;

	/* Alternate CPUs so the merge has to order across the wrap. */
	for (i = 0; i < 6; i++)
		synth_alloc(&s[i & 1], KT_TYPE_KMALLOC, seqs[i], SITE_A,
			    0x1000 + i * 64, 8, 8);
	parse_all(&p, s, 2);
	check(!p.rc, "parse failed: %s", p.err);
	for (i = 0; i < p.merged.nr; i++)
		check(p.merged.ev[i].seq == seqs[i], "merged[%zu] is %d, want %d",
		      i, p.merged.ev[i].seq, seqs[i]);
	check(kt_seq_gaps(&p.merged) == 0, "wrap counted as a gap");
	parsed_free(&p);
	result("sequence numbers wrap around");
}

static void test_gaps(void)
{
	struct synth s[2] = { 0 };
	struct parsed p;

	synth_alloc(&s[0], KT_TYPE_KMALLOC, 10, SITE_A, 0x1000, 8, 8);
	synth_alloc(&s[1], KT_TYPE_KMALLOC, 11, SITE_A, 0x2000, 8, 8);
	synth_alloc(&s[0], KT_TYPE_KMALLOC, 15, SITE_A, 0x3000, 8, 8);
	synth_alloc(&s[1], KT_TYPE_KMALLOC, 0x7fffffff, SITE_A, 0x4000, 8, 8);
	synth_alloc(&s[1], KT_TYPE_KMALLOC, (int32_t)0x80000002, SITE_A,
		    0x5000, 8, 8);
	parse_all(&p, s, 2);
	check(!p.rc, "parse failed: %s", p.err);
	/* 12..14, then 16..0x7ffffffe, then two across the wrap. */
	check(kt_seq_gaps(&p.merged) == 3 + (0x7ffffffeULL - 16 + 1) + 2,
	      "gaps %llu", (unsigned long long)kt_seq_gaps(&p.merged));
	parsed_free(&p);
	result("lost records counted from sequence gaps");
}

static void expect_corrupt(struct synth *s, const char *what,
			   const char *want)
{
	struct parsed p;

	parse_all(&p, s, 1);
	check(p.rc == -1, "%s: accepted", what);
	check(p.rc != -1 || strstr(p.err, want),
	      "%s: message \"%s\" lacks \"%s\"", what, p.err, want);
	parsed_free(&p);
}

static void test_corrupt(void)
{
	struct synth s = { 0 };
	uint8_t feat_bad[] = { 2, 0, 1 }, feat_long[] = { 9, 0, 1 };

	synth_alloc(&s, KT_TYPE_KMALLOC, 1, SITE_A, 0x1000, 8, 8);
	s.len -= 5;
	expect_corrupt(&s, "truncated record", "offset 0: truncated record");

	memset(&s, 0, sizeof(s));
	synth_free(&s, KT_TYPE_KMALLOC, 1, SITE_A, 0x1000);
	synth_free(&s, KT_TYPE_KMALLOC, 2, SITE_A, 0x1000);
	s.buf[24 + 2] = 12;
	expect_corrupt(&s, "size below the core",
		       "offset 24: event size 12 is below the 24-byte core");

	memset(&s, 0, sizeof(s));
	synth_free(&s, KT_TYPE_KMALLOC, 1, SITE_A, 0x1000);
	s.buf[0] = KT_EVENT_ALLOC;
	expect_corrupt(&s, "allocation too short",
		       "allocation event of 24 bytes, below the 48");

	memset(&s, 0, sizeof(s));
	synth_alloc(&s, KT_TYPE_KMALLOC, 1, SITE_A, 0x1000, 100, 64);
	expect_corrupt(&s, "allocated below requested",
		       "allocated bytes 64 below requested 100");

	memset(&s, 0, sizeof(s));
	synth_alloc(&s, KT_TYPE_KMALLOC, 1, SITE_A, 0x1000, 0, 64);
	expect_corrupt(&s, "zero requested", "allocation of 0 requested bytes");

	memset(&s, 0, sizeof(s));
	synth_event(&s, KT_EVENT_FREE, 0, 1, SITE_A, 0x1000, 0, 0, feat_bad,
		    sizeof(feat_bad));
	expect_corrupt(&s, "feature block below its header",
		       "offset 24: feature block size 2");

	memset(&s, 0, sizeof(s));
	synth_event(&s, KT_EVENT_FREE, 0, 1, SITE_A, 0x1000, 0, 0, feat_long,
		    sizeof(feat_long));
	expect_corrupt(&s, "feature block past the record",
		       "runs past its record's end");

	memset(&s, 0, sizeof(s));
	s.buf[0] = 1;
	s.len = 3;
	expect_corrupt(&s, "3 bytes", "a record header needs 4");
	result("corrupt streams rejected with the offset and the reason");
}

static void test_report(void)
{
	struct synth s[2] = { 0 };
	struct kt_report_opts o = { .max_live = 10, .have_lost_bytes = 1,
				    .lost_bytes = 96 };
	struct parsed p;
	struct ksyms ks;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	synth_alloc(&s[0], KT_TYPE_KMALLOC, 1, SITE_B, 0x1000, 100, 128);
	synth_alloc(&s[0], KT_TYPE_KMALLOC, 2, SITE_B2, 0x2000, 60, 64);
	synth_free(&s[1], KT_TYPE_KMALLOC, 3, SITE_A, 0x1000);
	synth_alloc(&s[1], KT_TYPE_CACHE, 6, SITE_M, 0x3000, 200, 256);
	parse_all(&p, s, 2);
	check(!p.rc, "parse failed: %s", p.err);
	f = fmemopen((void *)kallsyms, strlen(kallsyms), "r");
	check(ksyms_load(&ks, f) == 3, "kallsyms: want 3 text symbols");
	fclose(f);
	o.ksyms = &ks;

	f = open_memstream(&out, &len);
	kt_print_report(f, &p.acc, &p.merged, &p.skipped, &o);
	fclose(f);
	check(!!strstr(out, "4 events (3 allocations, 1 frees) from 2 CPUs"),
	      "header line wrong:\n%s", out);
	check(!!strstr(out, "lost: 2 events (sequence gaps), 96 bytes"),
	      "lost line wrong");
	check(has_row(out, "kmalloc  func_b+0x20",
		      "1 1 100 128 21.9% 1 0 0 kmalloc func_b+0x20"),
	      "func_b+0x20 row wrong:\n%s", out);
	check(!!strstr(out, "  cache    mod_fn+0x8 [mymod]\n"),
	      "module symbol not named");
	check(!!strstr(out, "live at end (possible leaks): 2 objects, 320 bytes"),
	      "live summary wrong");
	check(has_row(out, "mod_fn+0x8 [mymod]",
		      "0x0000000000003000 cache 200 256 1 mod_fn+0x8 [mymod]"),
	      "live object line wrong");
	free(out);

	out = NULL;
	o.by_function = 1;
	f = open_memstream(&out, &len);
	kt_print_report(f, &p.acc, &p.merged, &p.skipped, &o);
	fclose(f);
	check(has_row(out, "kmalloc  func_b",
		      "2 1 160 192 16.7% 1 1 64 kmalloc func_b"),
	      "func_b function row wrong:\n%s", out);
	check(has_row(out, "total", "3 1 360 448 19.6% 1 2 320 total"),
	      "total row wrong:\n%s", out);
	free(out);
	ksyms_free(&ks);
	parsed_free(&p);
	result("report per call site and per function, symbols, leaks");
}

static void test_empty(void)
{
	struct synth s[2] = { 0 };
	struct parsed p;

	synth_alloc(&s[1], KT_TYPE_KMALLOC, 1, SITE_A, 0x1000, 8, 8);
	parse_all(&p, s, 2);
	check(!p.rc && p.merged.nr == 1, "an empty CPU broke the merge");
	parsed_free(&p);
	result("a CPU with no records");
}

/* Live collection, on directories standing in for debugfs and sysfs. */

/* Write @len bytes of @data to @dir/@name, making @dir first. */
static int put_file(const char *dir, const char *name, const void *data,
		    size_t len)
{
	char path[4096];
	FILE *f;
	int ok;

	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fwrite(data, 1, len, f) == len;
	return fclose(f) || !ok ? -1 : 0;
}

static int put_text(const char *dir, const char *name, const char *text)
{
	return put_file(dir, name, text, strlen(text));
}

/* A sysfs CPU directory: cpu@cpu/online holding @online ("" for none). */
static void fake_cpu(const char *sysfs, int cpu, const char *online)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/cpu%d", sysfs, cpu);
	mkdir(dir, 0755);
	if (*online)
		put_text(dir, "online", online);
}

static void test_cpu_names(void)
{
	static const struct { const char *name; int cpu; } names[] = {
		{ "cpu0", 0 }, { "cpu17", 17 }, { "cpu4095", 4095 },
		{ "cpu4096", -1 }, { "cpu", -1 }, { "cpu-1", -1 },
		{ "cpu+1", -1 }, { "cpu1a", -1 }, { "cpu1.tmp", -1 },
		{ "abi_version", -1 }, { "enabled", -1 }, { "", -1 },
		{ NULL, 0 }
	};
	size_t i;

	for (i = 0; names[i].name; i++)
		check(kt_cpu_of(names[i].name) == names[i].cpu,
		      "'%s' is cpu %d, want %d", names[i].name,
		      kt_cpu_of(names[i].name), names[i].cpu);
	result("cpu<n> file names");
}

static void test_cpu_online(const char *tmp)
{
	char sysfs[4096];

	snprintf(sysfs, sizeof(sysfs), "%s/online-sysfs", tmp);
	mkdir(sysfs, 0755);
	fake_cpu(sysfs, 0, "");
	fake_cpu(sysfs, 1, "1\n");
	fake_cpu(sysfs, 2, "0\n");
	check(kt_cpu_online(sysfs, 0) == 1, "cpu0 without an online file is offline");
	check(kt_cpu_online(sysfs, 1) == 1, "cpu1 with online 1 is offline");
	check(kt_cpu_online(sysfs, 2) == 0, "cpu2 with online 0 is online");
	check(kt_cpu_online(sysfs, 3) == 0, "cpu3, not there, is online");
	result("online CPUs: the online file, or none for a fixed CPU");
}

/*
 * A CPU this process may run on, and one the kernel refuses it (past the
 * CPUs there are), as sched_setaffinity() itself says; -1 if none.
 */
static void find_cpus(int *allowed, int *refused)
{
	cpu_set_t old, one;
	int cpu;

	*allowed = -1;
	*refused = -1;
	if (sched_getaffinity(0, sizeof(old), &old))
		return;
	for (cpu = 0; cpu < CPU_SETSIZE && *allowed < 0; cpu++)
		if (CPU_ISSET(cpu, &old))
			*allowed = cpu;
	for (cpu = CPU_SETSIZE - 1; cpu >= 0 && *refused < 0; cpu--) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) && errno == EINVAL)
			*refused = cpu;
	}
	sched_setaffinity(0, sizeof(old), &old);
}

static void test_pin(const char *tmp, int allowed, int refused)
{
	char sysfs[4096];
	cpu_set_t old;
	int ret;

	snprintf(sysfs, sizeof(sysfs), "%s/pin-sysfs", tmp);
	mkdir(sysfs, 0755);
	sched_getaffinity(0, sizeof(old), &old);
	fake_cpu(sysfs, allowed, "1\n");
	ret = kt_pin(sysfs, allowed);
	check(ret == KT_PINNED && sched_getcpu() == allowed,
	      "cpu%d: %d, running on %d; want pinned", allowed, ret,
	      sched_getcpu());
	fake_cpu(sysfs, refused, "0\n");
	ret = kt_pin(sysfs, refused);
	check(ret == KT_CPU_OFFLINE, "cpu%d, online 0: %d, want offline (%d)",
	      refused, ret, KT_CPU_OFFLINE);
	fake_cpu(sysfs, refused, "1\n");
	ret = kt_pin(sysfs, refused);
	check(ret == KT_CPU_REFUSED, "cpu%d, online 1: %d, want refused (%d)",
	      refused, ret, KT_CPU_REFUSED);
	sched_setaffinity(0, sizeof(old), &old);
	result("pinning tells an offline CPU from one that refuses us");
}

/* A fake kmemtrace directory, recording on (no enable, no first drain). */
static void fake_kmemtrace(const char *dir)
{
	char abi[16];

	snprintf(abi, sizeof(abi), "%d\n", KT_ABI_VERSION);
	put_text(dir, "abi_version", abi);
	put_text(dir, "enabled", "1\n");
	put_text(dir, "total_overruns", "0\n");
}

static const struct kt_stream *stream_of(const struct kt_recording *rec,
					 int cpu)
{
	int i;

	for (i = 0; i < rec->nr; i++)
		if (rec->streams[i].cpu == cpu)
			return &rec->streams[i];
	return NULL;
}

static int same_stream(const struct kt_stream *st, const struct synth *s)
{
	return st && st->len == s->len && !memcmp(st->data, s->buf, s->len);
}

/*
 * A cpu<n> file made while recording gets a reader: one for a CPU we can
 * run on (read pinned as it grows), one for an offline CPU (drained at
 * the end); other new files are none of ours.
 */
static void test_record_new_files(const char *tmp, int allowed, int refused)
{
	char dir[4096], sysfs[4096], cmd[4096 * 3], name[32];
	struct synth s[3] = { 0 };
	char sh[] = "sh", dash_c[] = "-c";
	char *const argv[] = { sh, dash_c, cmd, NULL };
	struct kt_recording rec;
	int ret;

	snprintf(dir, sizeof(dir), "%s/rec-kmemtrace", tmp);
	snprintf(sysfs, sizeof(sysfs), "%s/rec-sysfs", tmp);
	mkdir(sysfs, 0755);
	fake_cpu(sysfs, allowed, "1\n");
	fake_cpu(sysfs, refused, "0\n");
	fake_kmemtrace(dir);
	synth_alloc(&s[0], KT_TYPE_KMALLOC, 1, SITE_A, 0x1000, 100, 128);
	synth_alloc(&s[1], KT_TYPE_CACHE, 2, SITE_B, 0x2000, 200, 200);
	synth_free(&s[1], KT_TYPE_CACHE, 3, SITE_B, 0x2000);
	synth_alloc(&s[2], KT_TYPE_PAGES, 4, SITE_M, 0x3000, 4096, 4096);
	/* At the start only a first CPU's file (here: refused, offline). */
	snprintf(name, sizeof(name), "cpu%d", refused);
	put_file(dir, name, s[0].buf, s[0].len);
	put_file(dir, "late-allowed", s[1].buf, s[1].len);
	put_file(dir, "late-offline", s[2].buf, s[2].len);
	snprintf(cmd, sizeof(cmd),
		 "d='%s'; cat \"$d/late-allowed\" > \"$d/cpu%d\" && echo > \"$d/cpu%d.tmp\" && cat \"$d/late-offline\" > \"$d/cpu%d\"",
		 dir, allowed, allowed, allowed == 0 ? 1 : 0);
	/* The second late file: a CPU offline by the fake sysfs. */
	fake_cpu(sysfs, allowed == 0 ? 1 : 0, "0\n");
	ret = kt_record(dir, sysfs, 0, argv, &rec);
	check(ret == 0, "kt_record: %d", ret);
	check(rec.nr == 3, "%d streams, want 3", rec.nr);
	check(same_stream(stream_of(&rec, refused), &s[0]),
	      "cpu%d (there from the start): not its %zu bytes", refused,
	      s[0].len);
	check(same_stream(stream_of(&rec, allowed), &s[1]),
	      "cpu%d (made while recording, online): not its %zu bytes",
	      allowed, s[1].len);
	check(same_stream(stream_of(&rec, allowed == 0 ? 1 : 0), &s[2]),
	      "cpu%d (made while recording, offline): not its %zu bytes",
	      allowed == 0 ? 1 : 0, s[2].len);
	kt_recording_free(&rec);
	result("record: cpu<n> files made while recording are read");
}

/* Run kt_record() with stderr into @err. */
static int record_to(const char *dir, const char *sysfs, char *err,
		     size_t len)
{
	char path[4200], true_cmd[] = "true";
	char *const argv[] = { true_cmd, NULL };
	struct kt_recording rec;
	int fd, saved, ret;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/stderr", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	ret = kt_record(dir, sysfs, 0, argv, &rec);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, err, len - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	kt_recording_free(&rec);
	return ret;
}

/* An online CPU that refuses us: recording fails at once, saying why. */
static void test_record_refused(const char *tmp, int refused)
{
	char dir[4096], sysfs[4096], err[2048], want[128], name[32];
	int ret;

	snprintf(dir, sizeof(dir), "%s/refused-kmemtrace", tmp);
	snprintf(sysfs, sizeof(sysfs), "%s/refused-sysfs", tmp);
	mkdir(sysfs, 0755);
	fake_cpu(sysfs, refused, "1\n");
	fake_kmemtrace(dir);
	snprintf(name, sizeof(name), "cpu%d", refused);
	put_text(dir, name, "");
	ret = record_to(dir, sysfs, err, sizeof(err));
	snprintf(want, sizeof(want),
		 "cpu%d: online, but this task may not run there", refused);
	check(ret == -1, "kt_record: %d, want -1", ret);
	check(strstr(err, want) && strstr(err, "cpuset"),
	      "message lacks '%s' and 'cpuset': %s", want, err);
	result("record: an online CPU outside our cpuset fails with the reason");
}

static void test_record(void)
{
	char tmp[] = "/tmp/kmemtrace-tests.XXXXXX", cmd[64];
	int allowed, refused;

	if (!mkdtemp(tmp)) {
		check(0, "mkdtemp: %s", strerror(errno));
		result("live collection: a temporary directory");
		return;
	}
	test_cpu_online(tmp);
	find_cpus(&allowed, &refused);
	if (allowed < 0 || refused < 0 || refused <= 1) {
		check(0, "no CPU to run on (%d) or none refused (%d)",
		      allowed, refused);
		result("live collection: CPUs to test with");
	} else {
		test_pin(tmp, allowed, refused);
		test_record_new_files(tmp, allowed, refused);
		test_record_refused(tmp, refused);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", tmp);
}

/* Write a small session as "record -o" would, for the command-line tests. */
static int write_sample(const char *dir)
{
	struct synth s[2] = { 0 };
	char path[4096];
	FILE *f;
	int i;

	synth_alloc(&s[0], KT_TYPE_KMALLOC, 1, SITE_B, 0x1000, 100, 128);
	synth_alloc(&s[0], KT_TYPE_PAGES, 2, SITE_M, 0x2000, 4096, 4096);
	synth_free(&s[1], KT_TYPE_KMALLOC, 3, SITE_A, 0x1000);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), i < 2 ? "%s/cpu%d" : "%s/kallsyms",
			 dir, i);
		f = fopen(path, "w");
		if (!f)
			return 1;
		if (i < 2)
			fwrite(s[i].buf, 1, s[i].len, f);
		else
			fputs(kallsyms, f);
		fclose(f);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--sample"))
		return write_sample(argv[2]);
	test_every_kind();
	test_unknown_ids_and_features();
	test_wraparound();
	test_gaps();
	test_corrupt();
	test_report();
	test_empty();
	test_cpu_names();
	test_record();
	return failures ? 1 : 0;
}
