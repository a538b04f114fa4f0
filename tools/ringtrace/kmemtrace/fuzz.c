// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the kmemtrace reporter: N inputs (default 100000), each two CPU
 * streams made from valid records and then mutated (bit flips, random
 * bytes, size fields, cuts, splices, pure noise), through parse, merge,
 * accounting and the report, with every report option and, for one in
 * four, --resync (which must never fail).  Built with ASan and UBSan, which end the
 * run on any fault; an alarm ends it if an input hangs.  Deterministic
 * for a given seed.  Prints one PASS or FAIL line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "ksyms.h"
#include "report.h"
#include "stream.h"
#include "synth.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void make_valid(struct synth *s, int32_t *seq)
{
	static const uint64_t sites[] = { 0xffffffff81000010ULL,
					  0xffffffff81000120ULL,
					  0xffffffffc0001008ULL, 0 };
	int n = (int)(rnd() % 60), i;

	for (i = 0; i < n; i++) {
		uint64_t ptr = 0xffff888000000000ULL + (rnd() % 32) * 64;
		uint64_t site = sites[rnd() % 4];
		uint8_t type = (uint8_t)(rnd() % 4);
		uint64_t req = 1 + rnd() % 5000;
		uint8_t feat[8] = { (uint8_t)(3 + rnd() % 6), 0,
				    (uint8_t)rnd() };

		switch (rnd() % 7) {
		case 5:	/* a large kmalloc: pages, then kmalloc */
			synth_alloc(s, KT_TYPE_PAGES, (*seq)++, site, ptr,
				    4096, 4096);
			synth_alloc(s, KT_TYPE_KMALLOC, (*seq)++, site, ptr,
				    req, 8192);
			break;
		case 6:	/* its kfree: kmalloc, then pages */
			synth_free(s, KT_TYPE_KMALLOC, (*seq)++, site, ptr);
			synth_free(s, KT_TYPE_PAGES, (*seq)++, site, ptr);
			break;
		case 0:
		case 1:
			synth_alloc(s, type, (*seq)++, site, ptr, req,
				    req + rnd() % 64);
			break;
		case 2:
		case 3:
			synth_free(s, type, (*seq)++, site, ptr);
			break;
		default:
			synth_event(s, (uint8_t)(rnd() % 3), type, (*seq)++,
				    site, ptr, req, req, feat, feat[0]);
		}
		if (!(rnd() % 16))
			*seq += (int32_t)(rnd() % 5);	/* lost records */
	}
}

static void mutate(struct synth *s, const struct synth *other)
{
	int n = 1 + (int)(rnd() % 6), i;

	for (i = 0; i < n; i++) {
		size_t at = s->len ? rnd() % s->len : 0;

		switch (rnd() % 8) {
		case 0:
			if (s->len)
				s->buf[at] ^= (uint8_t)(1u << (rnd() % 8));
			break;
		case 1:
			if (s->len)
				s->buf[at] = (uint8_t)rnd();
			break;
		case 2:	/* a size field */
			if (s->len > 3) {
				at &= ~(size_t)7;
				s->buf[at + 2] = (uint8_t)rnd();
				s->buf[at + 3] = (uint8_t)(rnd() % 3 ? 0 : rnd());
			}
			break;
		case 3:
			s->len = s->len ? rnd() % s->len : 0;
			break;
		case 4: {	/* splice in part of the other stream */
			size_t len = other->len ? rnd() % other->len : 0;

			if (at + len <= sizeof(s->buf)) {
				memcpy(s->buf + at, other->buf, len);
				if (at + len > s->len)
					s->len = at + len;
			}
			break;
		}
		case 5:	/* a sequence number far away */
			if (s->len > 8)
				memset(s->buf + (at & ~(size_t)7) + 4,
				       (int)rnd(), 1);
			break;
		case 6:
			if (s->len + 8 <= sizeof(s->buf)) {
				uint64_t v = rnd();

				memcpy(s->buf + s->len, &v, 1 + rnd() % 8);
				s->len += 1 + rnd() % 8;
			}
			break;
		default:	/* noise */
			s->len = rnd() % 512;
			for (size_t j = 0; j < s->len; j++)
				s->buf[j] = (uint8_t)rnd();
		}
	}
}

static void run_one(struct synth *s, const struct ksyms *ks, FILE *sink,
		    unsigned long *rejected)
{
	struct kt_read_opts ro = { .abi = 1 + (int)(rnd() & 1),
				   .resync = !(rnd() % 4),
				   .swap = !(rnd() % 16) };
	struct kt_report_opts o = { .ksyms = ks, .max_live = 20,
				    .by_function = (int)(rnd() & 1),
				    .max_lines = rnd() % 4,
				    .caller = (int)(rnd() & 1),
				    .alloc = (int)(rnd() & 1),
				    .page = (int)(rnd() & 1),
				    .resync = ro.resync };
	static const char *const sorts[] = { "bytes", "frag,hit", "ptr,net",
					     "callsite,xcpu,live,frees,req" };
	struct kt_cursor cur[2];
	struct kt_skipped skipped = { 0 };
	struct kt_account acc = { .want_ptrs = o.alloc, .want_pages = o.page };
	struct kt_merge m;
	struct kt_event e;
	int i, got;

	if (rnd() & 1)
		kt_parse_sort(sorts[rnd() % 4], &o);
	for (i = 0; i < 2; i++)
		kt_cursor_mem(&cur[i], s[i].buf, s[i].len, i, &ro, &skipped);
	got = kt_merge_init(&m, cur, 2) ? -1 : 1;
	while (got > 0 && (got = kt_merge_next(&m, &e)) > 0) {
		if (kt_account_event(&acc, &e)) {
			printf("FAIL kmemtrace host: fuzz: out of memory\n");
			exit(1);
		}
	}
	if (got < 0) {
		const char *err = m.failed ? m.failed->err : "";

		if (!m.failed || !strstr(err, "offset") || ro.resync) {
			printf("FAIL kmemtrace host: fuzz: %s\"%s\"%s\n",
			       m.failed ? "no offset in " : "out of memory: ",
			       err, ro.resync ? " with --resync" : "");
			exit(1);
		}
		(*rejected)++;
	} else {
		kt_print_report(sink, &acc, &m, &skipped, &o);
	}
	kt_merge_free(&m);
	kt_account_free(&acc);
}

int main(int argc, char **argv)
{
	static const char kallsyms[] =
		"ffffffff81000000 T func_a\nffffffff81000100 t func_b\n"
		"ffffffffc0001000 t mod_fn\t[mymod]\n";
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000;
	unsigned long i, rejected = 0;
	static struct synth s[2], valid[2];
	struct ksyms ks;
	FILE *sink = fopen("/dev/null", "w"), *f;

	if (argc > 2)
		rng_state = strtoull(argv[2], NULL, 0) | 1;
	f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");
	if (!sink || !f || ksyms_load(&ks, f) != 3) {
		printf("FAIL kmemtrace host: fuzz: setup\n");
		return 1;
	}
	fclose(f);
	alarm(600);
	for (i = 0; i < n; i++) {
		int32_t seq = (int32_t)rnd();

		valid[0].len = 0;
		valid[1].len = 0;
		make_valid(&valid[0], &seq);
		make_valid(&valid[1], &seq);
		s[0] = valid[0];
		s[1] = valid[1];
		if (i % 10)	/* one in ten stays valid */
			mutate(&s[rnd() & 1], &valid[rnd() & 1]);
		run_one(s, &ks, sink, &rejected);
	}
	ksyms_free(&ks);
	fclose(sink);
	printf("PASS kmemtrace host: fuzz: %lu inputs under ASan/UBSan, %lu %s\n",
	       n, rejected, "rejected as corrupt, no crash or hang");
	return 0;
}
