// SPDX-License-Identifier: GPL-2.0
/* Kernel text symbols from /proc/kallsyms, for naming call sites. */
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"

/* A call site further than this past a symbol is not in it. */
#define KSYM_MAX_OFFSET	0x100000

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int ksyms_load(struct ksyms *ks, FILE *f)
{
	char line[512], type, name[256], mod[128];
	size_t cap = 0;

	memset(ks, 0, sizeof(*ks));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		struct ksym *s;
		int n;

		mod[0] = '\0';
		n = sscanf(line, "%llx %c %255s %127s", &addr, &type, name, mod);
		if (n < 3 || !addr || !strchr("tTwW", type))
			continue;
		if (ks->nr == cap) {
			cap = cap ? cap * 2 : 4096;
			s = realloc(ks->syms, cap * sizeof(*s));
			if (!s)
				goto nomem;
			ks->syms = s;
		}
		s = &ks->syms[ks->nr];
		s->addr = addr;
		if (n == 4) {
			s->name = malloc(strlen(name) + strlen(mod) + 2);
			if (s->name)
				sprintf(s->name, "%s %s", name, mod);
		} else {
			s->name = strdup(name);
		}
		if (!s->name)
			goto nomem;
		ks->nr++;
	}
	qsort(ks->syms, ks->nr, sizeof(*ks->syms), ksym_cmp);
	return (int)ks->nr;
nomem:
	ksyms_free(ks);
	return -1;
}

void ksyms_free(struct ksyms *ks)
{
	size_t i;

	for (i = 0; i < ks->nr; i++)
		free(ks->syms[i].name);
	free(ks->syms);
	memset(ks, 0, sizeof(*ks));
}

static const struct ksym *ksyms_find(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - ks->syms[lo - 1].addr > KSYM_MAX_OFFSET)
		return NULL;
	return &ks->syms[lo - 1];
}

void ksyms_name(const struct ksyms *ks, uint64_t addr, int with_offset,
		char *buf, size_t len)
{
	const struct ksym *s = ksyms_find(ks, addr);
	const char *mod;
	int flen;

	if (!s) {
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
		return;
	}
	if (!with_offset) {
		snprintf(buf, len, "%s", s->name);
		return;
	}
	mod = strchr(s->name, ' ');
	flen = mod ? (int)(mod - s->name) : (int)strlen(s->name);
	snprintf(buf, len, "%.*s+0x%llx%s", flen, s->name,
		 (unsigned long long)(addr - s->addr), mod ? mod : "");
}
