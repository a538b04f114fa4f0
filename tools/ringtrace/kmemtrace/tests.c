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

/* The live list's summary line. */
#define LIVE_LINE(slab, pages) \
	"\nlive at end (possible leaks): " slab "; " pages "\n"

static const char kallsyms[] =
	"ffffffff81000000 T func_a\n"
	"ffffffff81000100 t func_b\n"
	"ffffffff81000200 D some_data\n"
	"ffffffffc0001000 t mod_fn\t[mymod]\n";

struct parsed {
	struct kt_event		*ev;		/* the merged order */
	size_t			nr;
	uint64_t		events, gaps;
	struct kt_skipped	skipped;
	struct kt_account	acc;
	struct kt_merge		m;		/* events and gaps only */
	char			err[256];
	int			rc;
};

/* Read @nr streams as the ABI @ro says, merge and account them. */
static void parse_opts(struct parsed *p, struct synth *s, int nr,
		       const struct kt_read_opts *ro)
{
	struct kt_cursor cur[4];
	struct kt_event e;
	int i, got;

	memset(p, 0, sizeof(*p));
	p->acc.want_ptrs = 1;
	p->acc.want_pages = 1;
	for (i = 0; i < nr; i++)
		kt_cursor_mem(&cur[i], s[i].buf, s[i].len, i, ro, &p->skipped);
	got = kt_merge_init(&p->m, cur, (size_t)nr) ? -1 : 1;
	while (got > 0 && (got = kt_merge_next(&p->m, &e)) > 0) {
		struct kt_event *ev = realloc(p->ev, (p->nr + 1) * sizeof(e));

		if (!ev || kt_account_event(&p->acc, &e)) {
			free(ev);
			p->ev = NULL;
			p->rc = -2;
			break;
		}
		p->ev = ev;
		p->ev[p->nr++] = e;
	}
	if (got < 0)
		p->rc = -1;
	if (got < 0 && p->m.failed)
		snprintf(p->err, sizeof(p->err), "%s", p->m.failed->err);
	p->events = p->m.events;
	p->gaps = p->m.gaps;
	free(p->m.heap);
	p->m.heap = NULL;
	p->m.nr = 0;
}

static void parse_all(struct parsed *p, struct synth *s, int nr)
{
	const struct kt_read_opts ro = { .abi = KT_ABI_VERSION };

	parse_opts(p, s, nr, &ro);
}

static void parsed_free(struct parsed *p)
{
	free(p->ev);
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
	const struct kt_site *sites = kt_sites(acc);
	size_t i;

	for (i = 0; i < acc->sites.nr; i++)
		if (sites[i].call_site == site && sites[i].type_id == type)
			return &sites[i];
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
	check(p.nr == 8, "merged %zu events, want 8", p.nr);
	for (size_t i = 0; i < p.nr; i++)
		check(p.ev[i].seq == (int32_t)i + 1,
		      "merged[%zu] has seq %d", i, p.ev[i].seq);
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
	check(p.gaps == 0, "gaps where there are none");
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
	check(p.nr == 3, "kept %zu events, want 3", p.nr);
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
	for (i = 0; i < p.nr; i++)
		check(p.ev[i].seq == seqs[i], "merged[%zu] is %d, want %d",
		      i, p.ev[i].seq, seqs[i]);
	check(p.gaps == 0, "wrap counted as a gap");
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
	check(p.gaps == 3 + (0x7ffffffeULL - 16 + 1) + 2,
	      "gaps %llu", (unsigned long long)p.gaps);
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
	kt_print_report(f, &p.acc, &p.m, &p.skipped, &o);
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
	check(!!strstr(out, LIVE_LINE("2 slab objects, 320 bytes",
				      "0 page allocations, 0 bytes")),
	      "live summary wrong");
	check(has_row(out, "mod_fn+0x8 [mymod]",
		      "0x0000000000003000 cache 200 256 1 mod_fn+0x8 [mymod]"),
	      "live object line wrong");
	free(out);

	out = NULL;
	o.by_function = 1;
	f = open_memstream(&out, &len);
	kt_print_report(f, &p.acc, &p.m, &p.skipped, &o);
	fclose(f);
	check(has_row(out, "kmalloc  func_b",
		      "2 1 160 192 16.7% 1 1 64 kmalloc func_b"),
	      "func_b function row wrong:\n%s", out);
	check(has_row(out, "total", "3 1 360 448 19.6% 1 2 320 slab total"),
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
	check(!p.rc && p.nr == 1, "an empty CPU broke the merge");
	parsed_free(&p);
	result("a CPU with no records");
}

/* Run @s through kt_print_report() with @o; the output (free() it). */
static char *report_of(struct parsed *p, struct kt_report_opts *o,
		       const struct ksyms *ks)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	o->ksyms = ks;
	kt_print_report(f, &p->acc, &p->m, &p->skipped, o);
	fclose(f);
	return out;
}

static void load_test_ksyms(struct ksyms *ks)
{
	FILE *f = fmemopen((void *)kallsyms, strlen(kallsyms), "r");

	if (ksyms_load(ks, f) != 3)
		check(0, "kallsyms: want 3 text symbols");
	fclose(f);
}

/*
 * A large kmalloc: pages then kmalloc at one pointer and call site, on
 * one CPU, with another CPU's record and one of this CPU's (an interrupt)
 * between; kfree: kmalloc free, then pages free.  One kmalloc row; a slab
 * page at the address of its first object stays a page allocation.
 */
static void test_fold_large(void)
{
	struct synth s[2] = { 0 };
	struct kt_report_opts o = { .max_live = 10 };
	const struct kt_site *k, *pg, *slab_pg, *obj;
	struct parsed p;
	struct ksyms ks;
	char *out;

	synth_alloc(&s[0], KT_TYPE_PAGES, 1, SITE_A, 0x100000, 16384, 16384);
	synth_alloc(&s[1], KT_TYPE_CACHE, 2, SITE_B, 0x9000, 64, 64);
	synth_alloc(&s[0], KT_TYPE_CACHE, 3, SITE_B, 0x9100, 64, 64);
	synth_alloc(&s[0], KT_TYPE_KMALLOC, 4, SITE_A, 0x100000, 10000, 16384);
	synth_free(&s[1], KT_TYPE_KMALLOC, 5, SITE_B2, 0x100000);
	synth_free(&s[1], KT_TYPE_PAGES, 6, SITE_B2, 0x100000);
	/* A slab page and the first object in it: both stay. */
	synth_alloc(&s[0], KT_TYPE_PAGES, 7, SITE_M, 0x200000, 8192, 8192);
	synth_alloc(&s[0], KT_TYPE_KMALLOC, 8, SITE_B2, 0x200000, 96, 96);
	synth_free(&s[0], KT_TYPE_CACHE, 9, SITE_B, 0x9000);
	synth_free(&s[1], KT_TYPE_CACHE, 10, SITE_B, 0x9100);
	parse_all(&p, s, 2);
	check(!p.rc, "parse failed: %s", p.err);
	k = find_site(&p.acc, SITE_A, KT_TYPE_KMALLOC);
	pg = find_site(&p.acc, SITE_A, KT_TYPE_PAGES);
	check(k && k->allocs == 1 && k->frees == 1 && k->bytes_req == 10000 &&
	      k->bytes_alloc == 16384 && k->cross_cpu_frees == 1 && !k->live,
	      "large kmalloc row wrong");
	check(!pg || (!pg->allocs && !pg->frees && !pg->live),
	      "a large kmalloc's pages are a page row too");
	slab_pg = find_site(&p.acc, SITE_M, KT_TYPE_PAGES);
	obj = find_site(&p.acc, SITE_B2, KT_TYPE_KMALLOC);
	check(slab_pg && slab_pg->live == 1 && slab_pg->live_bytes == 8192,
	      "slab page folded into the object in it");
	check(obj && obj->live == 1, "the object in a slab page lost");
	check(p.acc.folded == 1, "folded %llu, want 1",
	      (unsigned long long)p.acc.folded);
	check(!p.acc.untracked_frees, "%llu untracked frees, want 0",
	      (unsigned long long)p.acc.untracked_frees);
	check(p.acc.nr_live == 2, "live %zu, want 2", p.acc.nr_live);
	load_test_ksyms(&ks);
	out = report_of(&p, &o, &ks);
	check(!strstr(out, "  pages    func_a"), "func_a has a pages row:\n%s",
	      out);
	check(has_row(out, "total", "4 3 10224 16608 38.4% 3 1 96 slab total"),
	      "slab total wrong:\n%s", out);
	check(has_row(out, "total", "1 0 8192 8192 0.0% 0 1 8192 pages total"),
	      "page total wrong:\n%s", out);
	check(!!strstr(out, LIVE_LINE("1 slab objects, 96 bytes",
				      "1 page allocations, 8192 bytes")),
	      "live summary wrong:\n%s", out);
	free(out);
	ksyms_free(&ks);
	parsed_free(&p);
	result("a large kmalloc is one kmalloc row; slab and page totals apart");
}

/* ABI 1's offset 44 (target CPU) is no node; ABI 2's is the node asked. */
static void test_node(void)
{
	struct synth s = { 0 };
	struct kt_read_opts ro = { .abi = 1 };
	struct kt_report_opts o = { .max_live = 10, .caller = 1, .alloc = 1 };
	uint8_t rec[KT_ALLOC_SIZE];
	struct parsed p;
	struct ksyms ks;
	char *out;

	synth_put(&s, rec, synth_record(rec, KT_EVENT_ALLOC, KT_TYPE_KMALLOC,
					0, 1, SITE_A, 0x1000, 8, 8, 0xcc0, 1,
					0));
	synth_put(&s, rec, synth_record(rec, KT_EVENT_ALLOC, KT_TYPE_KMALLOC,
					0, 2, SITE_A, 0x2000, 8, 8, 0xcc0, 1,
					0));
	synth_put(&s, rec, synth_record(rec, KT_EVENT_ALLOC, KT_TYPE_KMALLOC,
					0, 3, SITE_B, 0x3000, 8, 8, 0xcc0, 0,
					0));
	synth_put(&s, rec, synth_record(rec, KT_EVENT_ALLOC, KT_TYPE_KMALLOC,
					0, 4, SITE_B, 0x4000, 8, 8, 0xcc0, 1,
					0));
	parse_opts(&p, &s, 1, &ro);
	check(!p.rc && p.nr == 4 && p.ev[0].node == -1,
	      "ABI 1: node %d, want -1", p.nr ? p.ev[0].node : 0);
	parsed_free(&p);
	parse_all(&p, &s, 1);
	check(!p.rc && p.nr == 4 && p.ev[0].node == 1,
	      "ABI 2: node %d, want 1", p.nr ? p.ev[0].node : 0);
	check(find_site(&p.acc, SITE_A, 0) &&
	      find_site(&p.acc, SITE_A, 0)->node == 1 &&
	      find_site(&p.acc, SITE_B, 0) &&
	      find_site(&p.acc, SITE_B, 0)->node == KT_NODE_MIXED,
	      "per-site node wrong");
	load_test_ksyms(&ks);
	out = report_of(&p, &o, &ks);
	check(has_row(out, "func_a+0x10",
		      "2 16 8 16 8 0.0% 0 16 1 kmalloc func_a+0x10"),
	      "--caller row of func_a wrong:\n%s", out);
	check(has_row(out, "func_b+0x20",
		      "2 16 8 16 8 0.0% 0 16 mix kmalloc func_b+0x20"),
	      "--caller row of func_b wrong:\n%s", out);
	check(has_row(out, "func_b+0x20",
		      "0x0000000000003000 1 0 8 8 8 8 0.0% 0 0 kmalloc func_b+0x20"),
	      "--alloc row of 0x3000 wrong:\n%s", out);
	free(out);
	ksyms_free(&ks);
	parsed_free(&p);
	result("node: ABI 1 has none, ABI 2's per site and per pointer");
}

/* --resync: a corrupt span is skipped and counted; without, it fails. */
static void test_resync(void)
{
	struct synth s = { 0 };
	struct kt_read_opts ro = { .abi = 2, .resync = 1 };
	uint8_t junk[13] = { 0x55, 0x66, 5 };	/* size 5: corrupt */
	struct parsed p;

	synth_alloc(&s, KT_TYPE_KMALLOC, 1, SITE_A, 0x1000, 8, 8);
	synth_put(&s, junk, sizeof(junk));
	synth_alloc(&s, KT_TYPE_KMALLOC, 2, SITE_A, 0x2000, 8, 8);
	synth_free(&s, KT_TYPE_KMALLOC, 3, SITE_A, 0x1000);
	/* A record whose size says 0 among good ones. */
	synth_alloc(&s, KT_TYPE_CACHE, 4, SITE_B, 0x3000, 8, 8);
	s.buf[s.len - 48 + 2] = 0;
	s.buf[s.len - 48 + 3] = 0;
	synth_alloc(&s, KT_TYPE_CACHE, 5, SITE_B, 0x4000, 8, 8);
	synth_put(&s, junk, 5);		/* cut at the end */
	parse_all(&p, &s, 1);
	check(p.rc == -1 && strstr(p.err, "offset 48:"),
	      "without --resync: rc %d \"%s\"", p.rc, p.err);
	parsed_free(&p);
	parse_opts(&p, &s, 1, &ro);
	check(!p.rc, "with --resync: rc %d \"%s\"", p.rc, p.err);
	check(p.nr == 4, "%zu records read, want 4", p.nr);
	check(p.skipped.corrupt == 3 && p.skipped.corrupt_bytes == 13 + 48 + 5,
	      "corrupt %llu spans, %llu bytes; want 3, 66",
	      (unsigned long long)p.skipped.corrupt,
	      (unsigned long long)p.skipped.corrupt_bytes);
	check(p.acc.nr_live == 2, "live %zu, want 2", p.acc.nr_live);
	parsed_free(&p);
	result("--resync skips corrupt spans and counts them");
}

/* A session of the other byte order reads the same. */
static void test_swap(void)
{
	struct synth s[2] = { 0 };
	struct kt_read_opts ro = { .abi = 2, .swap = 1 };
	uint8_t rec[KT_ALLOC_SIZE];
	struct parsed p;
	int swap;

	for (swap = 0; swap < 2; swap++) {
		synth_put(&s[swap], rec, synth_record(rec, KT_EVENT_ALLOC, 0, 0,
						      7, SITE_A, 0x1000, 100,
						      128, 0xcc0, 1, swap));
		synth_put(&s[swap], rec, synth_record(rec, KT_EVENT_FREE, 0, 0,
						      8, SITE_A, 0x1000, 0, 0,
						      0, 0, swap));
	}
	parse_opts(&p, &s[1], 1, &ro);
	check(!p.rc && p.nr == 2 && p.ev[0].seq == 7 &&
	      p.ev[0].bytes_req == 100 && p.ev[0].bytes_alloc == 128 &&
	      p.ev[0].gfp_flags == 0xcc0 && p.ev[0].node == 1 &&
	      p.ev[1].ptr == 0x1000 && !p.acc.nr_live,
	      "swapped stream read wrong (rc %d, %zu records)", p.rc, p.nr);
	parsed_free(&p);
	result("a session of the other endianness");
}

/* --page, -s, -l and the GFP names. */
static void test_report_options(void)
{
	struct synth s = { 0 };
	struct kt_report_opts o = { .max_live = 0, .page = 1, .max_lines = 1 };
	uint8_t rec[KT_ALLOC_SIZE];
	struct parsed p;
	struct ksyms ks;
	char *out, name[256];

	kt_gfp_name(0xcc0, name, sizeof(name));
	check(!strcmp(name, "GFP_KERNEL"), "0xcc0: %s", name);
	kt_gfp_name(0x100cca | 0x100, name, sizeof(name));
	check(!strcmp(name, "GFP_HIGHUSER_MOVABLE|__GFP_ZERO"), "%s", name);
	kt_gfp_name(0x10000000 | 0x20, name, sizeof(name));
	check(!strcmp(name, "__GFP_HIGH|0x10000000"), "%s", name);
	check(kt_page_order(4096) == 0 && kt_page_order(32768) == 3 &&
	      kt_page_order(12288) == KT_ORDER_UNKNOWN,
	      "page orders wrong");
	check(kt_migratetype(0xcc0) == KT_MT_UNMOVABLE &&
	      kt_migratetype(0x100cca) == KT_MT_MOVABLE &&
	      kt_migratetype(0xcd0) == KT_MT_RECLAIMABLE,
	      "migrate types wrong");
	check(kt_parse_sort("frag,hit,bytes,pingpong", &o) == 0 &&
	      o.nr_sort == 4 && o.sort[3] == KT_SORT_XCPU, "-s frag,hit,... ");
	check(kt_parse_sort("bytes,", &o) && kt_parse_sort("size", &o) &&
	      kt_parse_sort("", &o), "bad -s keys accepted");
	check(kt_parse_sort("hit", &o) == 0, "-s hit");

	synth_put(&s, rec, synth_record(rec, KT_EVENT_ALLOC, KT_TYPE_PAGES, 0,
					1, SITE_A, 0x10000, 8192, 8192,
					0x100cca, 0, 0));
	synth_put(&s, rec, synth_record(rec, KT_EVENT_ALLOC, KT_TYPE_PAGES, 0,
					2, SITE_A, 0x20000, 4096, 4096, 0xcc0,
					0, 0));
	synth_put(&s, rec, synth_record(rec, KT_EVENT_ALLOC, KT_TYPE_PAGES, 0,
					3, SITE_B, 0x30000, 4096, 4096, 0xcc0,
					0, 0));
	synth_free(&s, KT_TYPE_PAGES, 4, SITE_B, 0x30000);
	parse_all(&p, &s, 1);
	check(!p.rc, "parse: %s", p.err);
	load_test_ksyms(&ks);
	out = report_of(&p, &o, &ks);
	/* -s hit -l 1: func_a+0x10 (2 hits) only. */
	check(has_row(out, "func_a+0x10",
		      "2 0 12288 12288 0.0% 0 2 12288 pages func_a+0x10") &&
	      !strstr(out, "pages    func_b") &&
	      strstr(out, "... 1 more call sites (-l 1)\n"),
	      "-s hit -l 1 rows wrong:\n%s", out);
	check(has_row(out, "total", "3 1 16384 16384 0.0% 0 2 12288 pages total"),
	      "page total (all rows, not the ones shown) wrong:\n%s", out);
	check(!!strstr(out, "\n    0           2           0           0           0\n"
			"    1           0           0           1           0\n"),
	      "order x migrate type table wrong:\n%s", out);
	check(has_row(out, "GFP_KERNEL",
		      "2 1 8192 1 4096 0 unmovable GFP_KERNEL"),
	      "--page row wrong:\n%s", out);
	free(out);
	ksyms_free(&ks);
	parsed_free(&p);
	result("--page, -s, -l and GFP flag names");
}

/*
 * The reference model: a plain table of every pointer's state, against
 * the reporter reading the same session from files (through its window),
 * on four CPUs with interleaved sequence numbers that wrap around, 60,000
 * pointers of every kind (large kmallocs and interrupts between their two
 * records included) and frees on any CPU.
 */
#define MODEL_CPUS	4
#define MODEL_PTRS	60000
#define MODEL_SITES	16
#define MODEL_OPS	300000

struct dbuf {
	uint8_t		*p;
	size_t		len, cap;
};

struct model_obj {
	uint8_t		live, kind;	/* kind: a type, or 3: large */
	int		cpu, site;
	uint64_t	req, alloc;
};

struct model_site {
	uint64_t	allocs, frees, req, alloc, xcpu, live, live_bytes;
};

struct model {
	struct dbuf		out[MODEL_CPUS];
	struct model_obj	obj[MODEL_PTRS];
	struct model_site	site[MODEL_SITES][KT_NR_TYPES];
	uint32_t		seq;
	uint64_t		records, nr_live;
	uint64_t		rng;
	int			oom;
};

static uint64_t model_rnd(struct model *m)
{
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return m->rng;
}

static uint64_t model_ptr(int id)
{
	uint64_t kind = (uint64_t)(id % 8);

	/* Each kind in its own region: only a large kmalloc shares. */
	return 0xffff888000000000ULL + (kind << 36) + (uint64_t)id * 16384;
}

static uint64_t model_site_addr(int site)
{
	return 0xffffffff82000000ULL + (uint64_t)site * 0x40;
}

static void model_put(struct model *m, int cpu, uint8_t id, uint8_t type,
		      uint64_t site, uint64_t ptr, uint64_t req,
		      uint64_t alloc)
{
	struct dbuf *b = &m->out[cpu];

	if (b->cap - b->len < KT_ALLOC_SIZE) {
		size_t cap = b->cap ? b->cap * 2 : 1 << 20;
		uint8_t *p = realloc(b->p, cap);

		if (!p) {
			m->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	b->len += synth_record(b->p + b->len, id, type, 0,
			       (int32_t)m->seq++, site,
			       ptr, req, alloc, 0xcc0,
			       (int32_t)(model_rnd(m) % 3) - 1, 0);
	m->records++;
}

/* Kind of pointer @id: 0 kmalloc, 1 cache, 2 pages, 3 large kmalloc. */
static uint8_t model_kind(int id)
{
	static const uint8_t kinds[8] = { 0, 0, 0, 1, 1, 2, 2, 3 };

	return kinds[id % 8];
}

static void model_op(struct model *m, int id, int nested);

static void model_alloc(struct model *m, int id, int nested)
{
	struct model_obj *o = &m->obj[id];
	int cpu = (int)(model_rnd(m) % MODEL_CPUS);
	int site = (int)(model_rnd(m) % MODEL_SITES);
	uint8_t kind = model_kind(id), type = kind == 3 ? 0 : kind;
	uint64_t req = 1 + model_rnd(m) % 4096, alloc = req + model_rnd(m) % 64;
	struct model_site *s = &m->site[site][type];

	if (kind == 2 || kind == 3) {
		alloc = 4096ULL << (model_rnd(m) % 3);
		req = kind == 2 ? alloc : alloc - model_rnd(m) % 4096;
	}
	if (kind == 3) {
		model_put(m, cpu, KT_EVENT_ALLOC, KT_TYPE_PAGES,
			  model_site_addr(site), model_ptr(id), alloc, alloc);
		/* Another CPU, or an interrupt on this one, in between. */
		if (!nested && model_rnd(m) % 3 == 0)
			model_op(m, (int)(model_rnd(m) % MODEL_PTRS), 1);
	}
	model_put(m, cpu, KT_EVENT_ALLOC, type, model_site_addr(site),
		  model_ptr(id), req, alloc);
	o->live = 1;
	o->kind = kind;
	o->cpu = cpu;
	o->site = site;
	o->req = req;
	o->alloc = alloc;
	s->allocs++;
	s->req += req;
	s->alloc += alloc;
	s->live++;
	s->live_bytes += alloc;
	m->nr_live++;
}

static void model_free(struct model *m, int id)
{
	struct model_obj *o = &m->obj[id];
	int cpu = (int)(model_rnd(m) % MODEL_CPUS);
	uint8_t type = o->kind == 3 ? 0 : o->kind;
	struct model_site *s = &m->site[o->site][type];
	uint64_t site = model_site_addr((int)(model_rnd(m) % MODEL_SITES));

	model_put(m, cpu, KT_EVENT_FREE, type, site, model_ptr(id), 0, 0);
	if (o->kind == 3)
		model_put(m, cpu, KT_EVENT_FREE, KT_TYPE_PAGES, site,
			  model_ptr(id), 0, 0);
	o->live = 0;
	s->frees++;
	s->live--;
	s->live_bytes -= o->alloc;
	if (cpu != o->cpu)
		s->xcpu++;
	m->nr_live--;
}

/* Allocate @id if it is free, free it if it is live. */
static void model_op(struct model *m, int id, int nested)
{
	/* An interrupt does not interrupt a large kmalloc of its own id. */
	if (nested && model_kind(id) == 3)
		return;
	if (m->obj[id].live)
		model_free(m, id);
	else
		model_alloc(m, id, nested);
}

/* Compare @p (the reporter's) with @m. */
static void model_check(const struct model *m, const struct parsed *p)
{
	const struct kt_object *objs = p->acc.objs;
	size_t i, live = 0, bad = 0;
	int site, type;

	check(p->events == m->records, "%llu events, want %llu",
	      (unsigned long long)p->events, (unsigned long long)m->records);
	check(!p->gaps, "%llu gaps, want 0", (unsigned long long)p->gaps);
	check(!p->acc.untracked_frees, "%llu untracked frees",
	      (unsigned long long)p->acc.untracked_frees);
	check(p->acc.nr_live == m->nr_live, "%zu live, want %llu",
	      p->acc.nr_live, (unsigned long long)m->nr_live);
	for (site = 0; site < MODEL_SITES; site++) {
		for (type = 0; type < KT_NR_TYPES; type++) {
			const struct model_site *w = &m->site[site][type];
			const struct kt_site *g = find_site(&p->acc,
							    model_site_addr(site),
							    (uint8_t)type);
			struct kt_site none = { 0 };

			if (!g)
				g = &none;
			if (g->allocs != w->allocs || g->frees != w->frees ||
			    g->bytes_req != w->req || g->bytes_alloc != w->alloc ||
			    g->cross_cpu_frees != w->xcpu ||
			    g->live != w->live || g->live_bytes != w->live_bytes)
				check(0,
				      "site %d type %d: allocs %llu frees %llu x-cpu %llu live %llu; want %llu %llu %llu %llu",
				      site, type,
				      (unsigned long long)g->allocs,
				      (unsigned long long)g->frees,
				      (unsigned long long)g->cross_cpu_frees,
				      (unsigned long long)g->live,
				      (unsigned long long)w->allocs,
				      (unsigned long long)w->frees,
				      (unsigned long long)w->xcpu,
				      (unsigned long long)w->live);
		}
	}
	for (i = 0; i < p->acc.objs_size; i++) {
		const struct kt_object *o = &objs[i];
		const struct model_obj *w;
		uint64_t id;

		if (!o->flags || o->flags & KT_OBJ_ABSORBED)
			continue;
		live++;
		id = ((o->ptr - 0xffff888000000000ULL) & ((1ULL << 36) - 1)) /
		     16384;
		w = id < MODEL_PTRS ? &m->obj[id] : NULL;
		if (!w || model_ptr((int)id) != o->ptr || !w->live ||
		    w->alloc != o->bytes_alloc || w->req != o->bytes_req ||
		    w->cpu != o->cpu ||
		    !(o->flags & KT_OBJ_PAGES) != !(w->kind == 2) ||
		    kt_sites(&p->acc)[o->site].call_site !=
		    model_site_addr(w->site))
			bad++;
	}
	check(live == m->nr_live && !bad,
	      "live list: %zu objects (%zu not live in the model), want %llu",
	      live, bad, (unsigned long long)m->nr_live);
}

/* Write @m's streams to @dir, read them back from there into @p. */
static void model_report(struct model *m, const char *dir, struct parsed *p)
{
	struct kt_read_opts ro = { .abi = KT_ABI_VERSION };
	struct kt_cursor cur[MODEL_CPUS];
	struct kt_event e;
	char path[4200];
	int i, got, fd;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < MODEL_CPUS; i++) {
		snprintf(path, sizeof(path), "%s/cpu%d", dir, i);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || write(fd, m->out[i].p, m->out[i].len) !=
		    (ssize_t)m->out[i].len || lseek(fd, 0, SEEK_SET)) {
			check(0, "%s: %s", path, strerror(errno));
			p->rc = -2;
		}
		if (kt_cursor_fd(&cur[i], fd, i, &ro, &p->skipped))
			p->rc = -2;
	}
	got = p->rc || kt_merge_init(&p->m, cur, MODEL_CPUS) ? -1 : 1;
	while (got > 0 && (got = kt_merge_next(&p->m, &e)) > 0)
		if (kt_account_event(&p->acc, &e))
			got = -1;
	if (got < 0) {
		p->rc = -1;
		snprintf(p->err, sizeof(p->err), "%s",
			 p->m.failed ? p->m.failed->err : "out of memory");
	}
	p->events = p->m.events;
	p->gaps = p->m.gaps;
	free(p->m.heap);
	p->m.heap = NULL;
	for (i = 0; i < MODEL_CPUS; i++) {
		kt_cursor_free(&cur[i]);
		snprintf(path, sizeof(path), "%s/cpu%d", dir, i);
		unlink(path);
	}
}

static void test_model(const char *tmp, int leaks)
{
	struct model *m = calloc(1, sizeof(*m));
	struct kt_report_opts o = { .max_live = 1000 };
	struct parsed p;
	struct ksyms ks = { 0 };
	char *out;
	int i, k;

	if (!m) {
		check(0, "out of memory");
		result("reference model");
		return;
	}
	m->rng = leaks ? 0x2545f4914f6cdd1dULL : 0x9e3779b97f4a7c15ULL;
	/* The wrap comes in the middle of the session. */
	m->seq = 0x7fffffffu - 200000;
	for (i = 0; i < MODEL_PTRS; i++)
		model_op(m, i, 0);
	for (i = 0; i < MODEL_OPS; i++)
		model_op(m, (int)(model_rnd(m) % MODEL_PTRS), 0);
	/* No leaks: everything freed; else the first 100 stay. */
	for (i = leaks ? 100 : 0; i < MODEL_PTRS; i++)
		if (m->obj[i].live)
			model_free(m, i);
	for (i = 0, k = 0; leaks && i < 100; i++)
		k += m->obj[i].live;
	check(!m->oom, "out of memory making the streams");
	model_report(m, tmp, &p);
	check(!p.rc, "report: %s", p.err);
	check(p.acc.folded > 1000, "only %llu large kmallocs folded",
	      (unsigned long long)p.acc.folded);
	model_check(m, &p);
	out = report_of(&p, &o, &ks);
	if (!leaks) {
		check(!!strstr(out, LIVE_LINE("0 slab objects, 0 bytes",
					      "0 page allocations, 0 bytes")) &&
		      !strstr(out, "\n0x"),
		      "the leak report of a workload without leaks is not empty");
	} else {
		check(p.acc.nr_live == (size_t)k, "%zu live, want %d",
		      p.acc.nr_live, k);
	}
	free(out);
	parsed_free(&p);
	for (i = 0; i < MODEL_CPUS; i++)
		free(m->out[i].p);
	free(m);
	result(leaks ? "reference model: 4 CPUs, 60,000 pointers, wraparound, leaks listed" :
	       "reference model: a workload without leaks has an empty leak report");
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

/* Whether @out/cpu<n> holds @s, as the stream's length in @st says. */
static int same_stream(const char *out, const struct kt_stream *st,
		       const struct synth *s)
{
	static uint8_t buf[sizeof(s->buf) + 1];
	char path[4200];
	size_t n = 0;
	FILE *f;

	if (!st)
		return 0;
	snprintf(path, sizeof(path), "%s/cpu%d", out, st->cpu);
	f = fopen(path, "rb");
	if (f) {
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
	}
	return st->len == s->len && n == s->len && !memcmp(buf, s->buf, n);
}

/*
 * A cpu<n> file made while recording gets a reader: one for a CPU we can
 * run on (read pinned as it grows), one for an offline CPU (drained at
 * the end); other new files are none of ours.
 */
static void test_record_new_files(const char *tmp, int allowed, int refused)
{
	char dir[4096], sysfs[4096], cmd[4096 * 3], name[32], out[4096];
	struct synth s[3] = { 0 };
	char sh[] = "sh", dash_c[] = "-c";
	char *const argv[] = { sh, dash_c, cmd, NULL };
	struct kt_recording rec;
	int ret;

	snprintf(dir, sizeof(dir), "%s/rec-kmemtrace", tmp);
	snprintf(sysfs, sizeof(sysfs), "%s/rec-sysfs", tmp);
	snprintf(out, sizeof(out), "%s/rec-out", tmp);
	mkdir(sysfs, 0755);
	mkdir(out, 0755);
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
	ret = kt_record(dir, sysfs, 0, out, argv, &rec);
	check(ret == 0, "kt_record: %d", ret);
	check(rec.nr == 3, "%d streams, want 3", rec.nr);
	check(same_stream(out, stream_of(&rec, refused), &s[0]),
	      "cpu%d (there from the start): not its %zu bytes", refused,
	      s[0].len);
	check(same_stream(out, stream_of(&rec, allowed), &s[1]),
	      "cpu%d (made while recording, online): not its %zu bytes",
	      allowed, s[1].len);
	check(same_stream(out, stream_of(&rec, allowed == 0 ? 1 : 0), &s[2]),
	      "cpu%d (made while recording, offline): not its %zu bytes",
	      allowed == 0 ? 1 : 0, s[2].len);
	kt_recording_free(&rec);
	result("record: cpu<n> files made while recording are read");
}

/* Run kt_record() with stderr into @err. */
static int record_to(const char *dir, const char *sysfs, char *err,
		     size_t len)
{
	char path[4200], out[4200], true_cmd[] = "true";
	char *const argv[] = { true_cmd, NULL };
	struct kt_recording rec;
	int fd, saved, ret;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/stderr", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	snprintf(out, sizeof(out), "%s/out", dir);
	mkdir(out, 0755);
	ret = kt_record(dir, sysfs, 0, out, argv, &rec);
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
	test_model(tmp, 0);
	test_model(tmp, 1);
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

/*
 * Write a small session as "record -o" would, for the command-line tests;
 * @other_order: in the byte order this machine does not have, saying so.
 */
static int write_sample(const char *dir, int other_order)
{
	struct synth s[2] = { 0 };
	const uint16_t one = 1;
	int little = *(const uint8_t *)&one, i;
	uint8_t rec[KT_ALLOC_SIZE];
	char path[4096];
	FILE *f;

	synth_put(&s[0], rec, synth_record(rec, KT_EVENT_ALLOC,
					   KT_TYPE_KMALLOC, 0, 1, SITE_B,
					   0x1000, 100, 128, 0xcc0, -1,
					   other_order));
	synth_put(&s[0], rec, synth_record(rec, KT_EVENT_ALLOC, KT_TYPE_PAGES,
					   0, 2, SITE_M, 0x2000, 4096, 4096,
					   0xcc0, 0, other_order));
	synth_put(&s[1], rec, synth_record(rec, KT_EVENT_FREE, KT_TYPE_KMALLOC,
					   0, 3, SITE_A, 0x1000, 0, 0, 0, 0,
					   other_order));
	for (i = 0; i < 4; i++) {
		if (i < 2)
			snprintf(path, sizeof(path), "%s/cpu%d", dir, i);
		else
			snprintf(path, sizeof(path), "%s/%s", dir,
				 i == 2 ? "kallsyms" : "endianness");
		if (i == 3 && !other_order)
			break;
		f = fopen(path, "w");
		if (!f)
			return 1;
		if (i < 2)
			fwrite(s[i].buf, 1, s[i].len, f);
		else if (i == 2)
			fputs(kallsyms, f);
		else
			fputs(little ? "big\n" : "little\n", f);
		fclose(f);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--sample"))
		return write_sample(argv[2], 0);
	if (argc == 3 && !strcmp(argv[1], "--sample-other-order"))
		return write_sample(argv[2], 1);
	test_every_kind();
	test_unknown_ids_and_features();
	test_wraparound();
	test_gaps();
	test_corrupt();
	test_report();
	test_empty();
	test_fold_large();
	test_node();
	test_resync();
	test_swap();
	test_report_options();
	test_cpu_names();
	test_record();
	return failures ? 1 : 0;
}
