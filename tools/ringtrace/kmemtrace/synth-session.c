// SPDX-License-Identifier: GPL-2.0
/*
 * Write a synthetic kmemtrace session of about SIZE MiB into DIR, as
 * "record -o" would, for "make bench": four CPUs, 1,000 call sites and
 * 200,000 pointers of every kind (kmalloc, cache, pages, large kmallocs
 * as the kernel writes them), about half of them live at any time, frees
 * on any CPU.  Deterministic.
 *
 *   synth-session DIR SIZE_MIB
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"
#include "synth.h"

#define SYNTH_CPUS		4
#define NR_SITES	1000
#define NR_PTRS		200000
#define OUT_BUF		0x100000

struct out {
	FILE		*f;
	uint8_t		buf[OUT_BUF];
	size_t		len;
};

struct ptr_state {
	uint8_t		live;
	uint8_t		cpu;
};

static struct out outs[SYNTH_CPUS];
static struct ptr_state ptrs[NR_PTRS];
static uint64_t rng = 0x9e3779b97f4a7c15ULL, written;
static uint32_t seq;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void put(int cpu, uint8_t id, uint8_t type, uint64_t site,
		uint64_t ptr, uint64_t req, uint64_t alloc)
{
	struct out *o = &outs[cpu];

	if (OUT_BUF - o->len < KT_ALLOC_SIZE) {
		fwrite(o->buf, 1, o->len, o->f);
		o->len = 0;
	}
	o->len += synth_record(o->buf + o->len, id, type, 0,
			       (int32_t)seq++, site, ptr, req, alloc,
			       type == KT_TYPE_PAGES ? 0x100cca : 0xcc0,
			       -1, 0);
	written += id == KT_EVENT_ALLOC ? KT_ALLOC_SIZE : KT_CORE_SIZE;
}

/* Pointer @id's kind: 0 kmalloc, 1 cache, 2 pages, 3 large kmalloc. */
static int kind_of(uint32_t id)
{
	static const int kinds[16] = { 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
				       2, 2, 2, 3 };

	return kinds[id % 16];
}

static void op(uint32_t id)
{
	uint64_t ptr = 0xffff888000000000ULL + (uint64_t)id * 16384;
	uint64_t site = 0xffffffff81000000ULL + (id % NR_SITES) * 0x40;
	int cpu = (int)(rnd() % SYNTH_CPUS), kind = kind_of(id);
	uint8_t type = kind == 3 ? KT_TYPE_KMALLOC : (uint8_t)kind;
	uint64_t req = 1 + rnd() % 2048;

	if (ptrs[id].live) {
		put(cpu, KT_EVENT_FREE, type, site, ptr, 0, 0);
		if (kind == 3)
			put(cpu, KT_EVENT_FREE, KT_TYPE_PAGES, site, ptr, 0, 0);
		ptrs[id].live = 0;
		return;
	}
	if (kind >= 2)
		req = 4096ULL << (rnd() % 3);
	if (kind == 3)
		put(cpu, KT_EVENT_ALLOC, KT_TYPE_PAGES, site, ptr, req, req);
	put(cpu, KT_EVENT_ALLOC, type, site, ptr, kind == 3 ? req - 100 : req,
	    kind < 2 ? (req + 63) & ~63ULL : req);
	ptrs[id].live = 1;
	ptrs[id].cpu = (uint8_t)cpu;
}

int main(int argc, char **argv)
{
	char path[4096];
	uint64_t size;
	FILE *f;
	int i;

	if (argc != 3) {
		fprintf(stderr, "usage: synth-session DIR SIZE_MIB\n");
		return 2;
	}
	size = strtoull(argv[2], NULL, 0) << 20;
	for (i = 0; i < SYNTH_CPUS; i++) {
		snprintf(path, sizeof(path), "%s/cpu%d", argv[1], i);
		outs[i].f = fopen(path, "wb");
		if (!outs[i].f) {
			perror(path);
			return 1;
		}
	}
	snprintf(path, sizeof(path), "%s/abi_version", argv[1]);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", KT_ABI_VERSION) < 0 || fclose(f)) {
		perror(path);
		return 1;
	}
	while (written < size)
		op((uint32_t)(rnd() % NR_PTRS));
	for (i = 0; i < SYNTH_CPUS; i++) {
		fwrite(outs[i].buf, 1, outs[i].len, outs[i].f);
		if (fclose(outs[i].f)) {
			perror("synth-session");
			return 1;
		}
	}
	printf("%llu bytes, %u records\n", (unsigned long long)written, seq);
	return 0;
}
