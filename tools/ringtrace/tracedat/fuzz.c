// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the trace.dat reader and the page decoder: N files (default
 * 100000), each a synthetic session (version 6 in both record layouts,
 * version 7 stored and compressed with zstd and zlib) mutated (bit flips,
 * random bytes, 8-byte words set to extreme values, cuts, pieces moved),
 * read with td_read() and, when accepted, every CPU's pages walked and
 * the whole report made (libtraceevent rendering included; formats that
 * changed are vetted in a child first, as td_report() does).  Built
 * with ASan and UBSan, which end the run on any fault; an alarm ends it if
 * an input hangs (a minute each).  Deterministic for a seed.  Prints one PASS or FAIL line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datfile.h"
#include "pages.h"
#include "report.h"
#include "synth.h"

static struct synth_cpu cpus[2];
static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int count_event(const struct td_event *ev, void *ctx)
{
	(*(unsigned long *)ctx) += ev->len ? ev->data[0] : 1;
	return 0;
}

/*
 * A valid file: two CPUs of print events, some lost, some extends; in
 * version @version, its sections compressed with @codec.
 */
static uint8_t *make_file(size_t *len, int modern, uint32_t version,
			  enum td_codec codec)
{
	static struct td_blob data[2], fmt;
	struct td_file tf = { 0 };
	uint8_t rec[128];
	char *buf = NULL, err[128];
	FILE *f;
	int i;

	memset(cpus, 0, sizeof(cpus));
	cpus[0].modern = modern;
	cpus[1].modern = modern;
	for (i = 0; i < 150; i++) {
		char text[32];

		snprintf(text, sizeof(text), "fuzz %d", i);
		if (i == 120)
			synth_lose(&cpus[1], 3);
		synth_event(&cpus[i & 1], 1000000ULL + (uint64_t)i * 99999999,
			    rec, synth_print(rec, 7, i % 7 ? text : ""));
	}
	synth_close_page(&cpus[0], 1);
	synth_close_page(&cpus[1], 0);
	fmt.data = (const uint8_t *)synth_print_format;
	fmt.len = strlen(synth_print_format);
	tf.version = version;
	tf.codec = codec;
	tf.chunk_pages = 2;
	tf.long_size = 8;
	tf.page_size = SYNTH_PAGE;
	if (modern) {
		tf.header_page.data = (const uint8_t *)synth_header_page;
		tf.header_page.len = strlen(synth_header_page);
	}
	tf.ftrace_formats = &fmt;
	tf.nr_ftrace_formats = 1;
	tf.nr_cpus = 2;
	for (i = 0; i < 2; i++) {
		data[i].data = cpus[i].data;
		data[i].len = cpus[i].len;
	}
	tf.cpu_data = data;
	f = open_memstream(&buf, len);
	if (!f || td_write(f, &tf, err, sizeof(err)))
		return NULL;
	fclose(f);
	return (uint8_t *)buf;
}

static void mutate(uint8_t *b, size_t *len, size_t cap)
{
	int n = 1 + (int)(rnd() % 4), i;

	for (i = 0; i < n && *len; i++) {
		size_t at = rnd() % *len;

		switch (rnd() % 6) {
		case 0:
			b[at] ^= (uint8_t)(1u << (rnd() % 8));
			break;
		case 1:
			b[at] = (uint8_t)rnd();
			break;
		case 2: {	/* a size, count or offset set to an extreme */
			static const uint64_t v[] = { 0, 1, 0xffffffffULL,
						      ~0ULL, 0x7fffffff, 4096 };
			uint64_t x = v[rnd() % 6];

			if (at + 8 <= *len)
				memcpy(b + at, &x, 1 + rnd() % 8);
			break;
		}
		case 3:
			*len = at;
			break;
		case 4: {	/* move a piece */
			size_t from = rnd() % *len, k = rnd() % 64;

			if (from + k <= *len && at + k <= *len)
				memmove(b + at, b + from, k);
			break;
		}
		default:	/* within the pages: a record header */
			if (*len > 4096 + 64) {
				at = 4096 + rnd() % (*len - 4096 - 4);
				b[at] = (uint8_t)rnd();
			}
		}
	}
	(void)cap;
}

/* The valid files mutated in turn. */
static const struct {
	int		modern;
	uint32_t	version;
	enum td_codec	codec;
} seeds[] = {
	{ 0, 6, TD_CODEC_NONE },
	{ 1, 6, TD_CODEC_NONE },
	{ 1, 7, TD_CODEC_NONE },
	{ 1, 7, TD_CODEC_ZSTD },
	{ 0, 7, TD_CODEC_ZLIB },
};

#define NR_SEEDS	ARRAY_SIZE(seeds)

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000;
	unsigned long i, rejected = 0, walked = 0, sum = 0, reports = 0;
	uint8_t *valid[NR_SEEDS], *b;
	size_t len[NR_SEEDS], flen, max = 0, k;
	FILE *sink = fopen("/dev/null", "w");

	if (argc > 2)
		rng_state = strtoull(argv[2], NULL, 0) | 1;
	for (k = 0; k < NR_SEEDS; k++) {
		valid[k] = make_file(&len[k], seeds[k].modern, seeds[k].version,
				     seeds[k].codec);
		if (!valid[k] || !sink) {
			printf("FAIL tracedat host: fuzz: setup\n");
			return 1;
		}
		if (len[k] > max)
			max = len[k];
	}
	b = malloc(max);
	for (i = 0; i < n; i++) {
		struct td_file tf;
		char err[256];
		uint32_t c;

		/* Each input in a minute, however slow the machine. */
		alarm(60);
		/* Both record layouts, both versions, every compression. */
		k = i % NR_SEEDS;
		memcpy(b, valid[k], len[k]);
		flen = len[k];
		/* Each seed unchanged one time in ten. */
		if ((i / NR_SEEDS) % 10)
			mutate(b, &flen, len[k]);
		if (td_read(b, flen, &tf, err, sizeof(err))) {
			if (!strstr(err, "offset")) {
				printf("FAIL tracedat host: fuzz: no offset in \"%s\"\n",
				       err);
				return 1;
			}
			rejected++;
			continue;
		}
		{
			/*
			 * Loading the plugins (a directory walk and a dlopen
			 * each) costs more than the report: one in eight.
			 */
			struct td_report_opts o = {
						    .summary = (int)(i & 4),
						    .no_plugins = !!(i & 0x70) };

			td_report(sink, &tf, &o, err, sizeof(err));
			reports++;
		}
		for (c = 0; c < tf.nr_cpus; c++) {
			struct td_page_format pf = { tf.page_size, tf.long_size,
						     tf.big_endian,
						     tf.header_page.len != 0 };

			if (!td_walk_pages(tf.cpu_data[c].data,
					   tf.cpu_data[c].len, (int)c, &pf,
					   count_event, &sum, err, sizeof(err)))
				walked++;
		}
		td_release(&tf);
	}
	free(b);
	for (k = 0; k < NR_SEEDS; k++)
		free(valid[k]);
	fclose(sink);
	printf("PASS tracedat host: fuzz: %lu files under ASan/UBSan, %lu %s, ",
	       n, rejected, "rejected with an offset");
	printf("%lu CPUs walked, %lu reports\n", walked, reports);
	return 0;
}
