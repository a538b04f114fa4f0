// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace accounting and report.  An allocation makes an object live
 * and charges its call site; a free ends the object and counts as a free
 * of the site that allocated it, and as a cross-CPU free when another CPU
 * frees it.  Slab objects and pages are tracked apart: a large kmalloc()
 * is a kmalloc object and, under it, pages at the same address.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define NAME_LEN	160

/* For printf's %llu: uint64_t is unsigned long here. */
#define U(v)	((unsigned long long)(v))

static const char *const type_names[KT_NR_TYPES] = {
	[KT_TYPE_KMALLOC]	= "kmalloc",
	[KT_TYPE_CACHE]		= "cache",
	[KT_TYPE_PAGES]		= "pages",
};

static size_t hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)v;
}

static int grow_sites_hash(struct kt_account *acc)
{
	size_t size = acc->site_hash_size ? acc->site_hash_size * 2 : 1024;
	size_t *h = calloc(size, sizeof(*h)), i;

	if (!h)
		return -1;
	for (i = 0; i < acc->nr_sites; i++) {
		const struct kt_site *s = &acc->sites[i];
		size_t j = hash64(s->call_site ^ s->type_id) & (size - 1);

		while (h[j])
			j = (j + 1) & (size - 1);
		h[j] = i + 1;
	}
	free(acc->site_hash);
	acc->site_hash = h;
	acc->site_hash_size = size;
	return 0;
}

/* The index of (@call_site, @type)'s sums, made if new; -1 on ENOMEM. */
static long site_index(struct kt_account *acc, uint64_t call_site,
		       uint8_t type)
{
	size_t j;

	if (2 * (acc->nr_sites + 1) > acc->site_hash_size &&
	    grow_sites_hash(acc))
		return -1;
	j = hash64(call_site ^ type) & (acc->site_hash_size - 1);
	while (acc->site_hash[j]) {
		const struct kt_site *s = &acc->sites[acc->site_hash[j] - 1];

		if (s->call_site == call_site && s->type_id == type)
			return (long)(acc->site_hash[j] - 1);
		j = (j + 1) & (acc->site_hash_size - 1);
	}
	if (acc->nr_sites == acc->sites_cap) {
		size_t cap = acc->sites_cap ? acc->sites_cap * 2 : 256;
		struct kt_site *s = realloc(acc->sites, cap * sizeof(*s));

		if (!s)
			return -1;
		acc->sites = s;
		acc->sites_cap = cap;
	}
	memset(&acc->sites[acc->nr_sites], 0, sizeof(struct kt_site));
	acc->sites[acc->nr_sites].call_site = call_site;
	acc->sites[acc->nr_sites].type_id = type;
	acc->site_hash[j] = ++acc->nr_sites;
	return (long)(acc->nr_sites - 1);
}

static size_t obj_slot(const struct kt_account *acc, uint64_t ptr,
		       int pages)
{
	size_t j = hash64(ptr ^ (uint64_t)pages) & (acc->objs_size - 1);

	while (acc->objs[j].used &&
	       (acc->objs[j].ptr != ptr || acc->objs[j].pages != pages))
		j = (j + 1) & (acc->objs_size - 1);
	return j;
}

static int grow_objs(struct kt_account *acc)
{
	size_t old_size = acc->objs_size, i;
	struct kt_object *old = acc->objs;

	acc->objs_size = old_size ? old_size * 2 : 4096;
	acc->objs = calloc(acc->objs_size, sizeof(*acc->objs));
	if (!acc->objs) {
		acc->objs = old;
		acc->objs_size = old_size;
		return -1;
	}
	for (i = 0; i < old_size; i++)
		if (old[i].used)
			acc->objs[obj_slot(acc, old[i].ptr, old[i].pages)] =
				old[i];
	free(old);
	return 0;
}

/* Remove slot @j, shifting back the entries of its probe run. */
static void obj_remove(struct kt_account *acc, size_t j)
{
	size_t mask = acc->objs_size - 1, k = j;

	acc->objs[j].used = 0;
	for (;;) {
		size_t home;

		k = (k + 1) & mask;
		if (!acc->objs[k].used)
			break;
		home = hash64(acc->objs[k].ptr ^ acc->objs[k].pages) & mask;
		/* Move k into the hole unless its home lies in (j, k]. */
		if (j < k ? (home <= j || home > k) : (home <= j && home > k)) {
			acc->objs[j] = acc->objs[k];
			acc->objs[k].used = 0;
			j = k;
		}
	}
	acc->nr_live--;
}

static int account_alloc(struct kt_account *acc, const struct kt_event *e)
{
	int pages = e->type_id == KT_TYPE_PAGES;
	struct kt_object *o;
	struct kt_site *s;
	long site;
	size_t j;

	site = site_index(acc, e->call_site, e->type_id);
	if (site < 0)
		return -1;
	if (2 * (acc->nr_live + 1) > acc->objs_size && grow_objs(acc))
		return -1;
	s = &acc->sites[site];
	s->allocs++;
	s->bytes_req += e->bytes_req;
	s->bytes_alloc += e->bytes_alloc;
	s->live++;
	s->live_bytes += e->bytes_alloc;
	acc->allocs++;
	acc->bytes_req += e->bytes_req;
	acc->bytes_alloc += e->bytes_alloc;

	j = obj_slot(acc, e->ptr, pages);
	o = &acc->objs[j];
	if (o->used) {
		/* Its free was lost: the old object is gone. */
		acc->sites[o->site].live--;
		acc->sites[o->site].live_bytes -= o->bytes_alloc;
		acc->replaced++;
	} else {
		acc->nr_live++;
	}
	o->used = 1;
	o->pages = pages;
	o->ptr = e->ptr;
	o->bytes_req = e->bytes_req;
	o->bytes_alloc = e->bytes_alloc;
	o->site = (uint32_t)site;
	o->cpu = e->target_cpu >= 0 ? e->target_cpu : e->cpu;
	return 0;
}

static void account_free(struct kt_account *acc, const struct kt_event *e)
{
	size_t j;
	struct kt_object *o;
	struct kt_site *s;

	acc->frees++;
	if (!acc->objs_size) {
		acc->untracked_frees++;
		return;
	}
	j = obj_slot(acc, e->ptr, e->type_id == KT_TYPE_PAGES);
	o = &acc->objs[j];
	if (!o->used) {
		acc->untracked_frees++;
		return;
	}
	s = &acc->sites[o->site];
	s->frees++;
	s->live--;
	s->live_bytes -= o->bytes_alloc;
	if (o->cpu != e->cpu) {
		s->cross_cpu_frees++;
		acc->cross_cpu_frees++;
	}
	obj_remove(acc, j);
}

int kt_account(struct kt_account *acc, const struct kt_events *evs)
{
	size_t i;

	for (i = 0; i < evs->nr; i++) {
		const struct kt_event *e = &evs->ev[i];

		if (e->cpu >= acc->nr_cpus)
			acc->nr_cpus = e->cpu + 1;
		if (e->event_id == KT_EVENT_ALLOC) {
			if (account_alloc(acc, e))
				return -1;
		} else {
			account_free(acc, e);
		}
	}
	return 0;
}

void kt_account_free(struct kt_account *acc)
{
	free(acc->sites);
	free(acc->site_hash);
	free(acc->objs);
	memset(acc, 0, sizeof(*acc));
}

/* A report row: a site, or the sum of a function's sites. */
struct row {
	char		name[NAME_LEN];
	struct kt_site	sum;
};

static int row_by_name(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (int)x->sum.type_id - (int)y->sum.type_id;
}

static int row_by_bytes(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->sum.bytes_alloc != y->sum.bytes_alloc)
		return x->sum.bytes_alloc > y->sum.bytes_alloc ? -1 : 1;
	return row_by_name(a, b);
}

static void add_sums(struct kt_site *to, const struct kt_site *s)
{
	to->allocs += s->allocs;
	to->frees += s->frees;
	to->bytes_req += s->bytes_req;
	to->bytes_alloc += s->bytes_alloc;
	to->cross_cpu_frees += s->cross_cpu_frees;
	to->live += s->live;
	to->live_bytes += s->live_bytes;
}

static double frag_pct(const struct kt_site *s)
{
	if (!s->bytes_alloc)
		return 0.0;
	return 100.0 * (double)(s->bytes_alloc - s->bytes_req) /
	       (double)s->bytes_alloc;
}

static void print_row(FILE *out, const struct kt_site *s, const char *type,
		      const char *name)
{
	fprintf(out, "%8llu %8llu %11llu %11llu %6.1f%% %6llu %6llu %11llu  %-8s %s\n",
		U(s->allocs), U(s->frees), U(s->bytes_req), U(s->bytes_alloc),
		frag_pct(s), U(s->cross_cpu_frees), U(s->live),
		U(s->live_bytes), type, name);
}

static const char *type_name(uint8_t type)
{
	return type < KT_NR_TYPES ? type_names[type] : "?";
}

static size_t make_rows(const struct kt_account *acc,
			const struct kt_report_opts *opts, struct row *rows)
{
	size_t i, n = 0;

	for (i = 0; i < acc->nr_sites; i++) {
		ksyms_name(opts->ksyms, acc->sites[i].call_site,
			   !opts->by_function, rows[i].name, NAME_LEN);
		rows[i].sum = acc->sites[i];
	}
	if (!acc->nr_sites)
		return 0;
	qsort(rows, acc->nr_sites, sizeof(*rows), row_by_name);
	for (i = 1; i < acc->nr_sites; i++) {
		if (!strcmp(rows[n].name, rows[i].name) &&
		    rows[n].sum.type_id == rows[i].sum.type_id)
			add_sums(&rows[n].sum, &rows[i].sum);
		else
			rows[++n] = rows[i];
	}
	n++;
	qsort(rows, n, sizeof(*rows), row_by_bytes);
	return n;
}

static int live_cmp(const void *a, const void *b)
{
	const struct kt_object *x = a, *y = b;

	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return x->ptr < y->ptr ? -1 : x->ptr > y->ptr;
}

static void print_live(FILE *out, const struct kt_account *acc,
		       const struct kt_report_opts *opts)
{
	struct kt_object *live = calloc(acc->nr_live ? acc->nr_live : 1,
					sizeof(*live));
	size_t i, n = 0;
	uint64_t bytes = 0;
	char name[NAME_LEN];

	if (!live) {
		fprintf(out, "live at end: out of memory listing them\n");
		return;
	}
	for (i = 0; i < acc->objs_size; i++) {
		if (acc->objs[i].used) {
			live[n++] = acc->objs[i];
			bytes += acc->objs[i].bytes_alloc;
		}
	}
	qsort(live, n, sizeof(*live), live_cmp);
	fprintf(out, "\nlive at end (possible leaks): %zu objects, %llu bytes\n",
		n, U(bytes));
	if (n)
		fprintf(out, "%-18s %-8s %11s %11s %4s  %s\n", "pointer", "type",
			"requested", "allocated", "cpu", "call site");
	for (i = 0; i < n && i < opts->max_live; i++) {
		const struct kt_site *s = &acc->sites[live[i].site];

		ksyms_name(opts->ksyms, s->call_site, 1, name, sizeof(name));
		fprintf(out, "0x%016llx %-8s %11llu %11llu %4d  %s\n",
			U(live[i].ptr), type_name(s->type_id),
			U(live[i].bytes_req), U(live[i].bytes_alloc),
			live[i].cpu, name);
	}
	if (n > opts->max_live)
		fprintf(out, "... %zu more\n", n - opts->max_live);
	free(live);
}

void kt_print_report(FILE *out, const struct kt_account *acc,
		     const struct kt_events *evs,
		     const struct kt_skipped *skipped,
		     const struct kt_report_opts *opts)
{
	struct row *rows = calloc(acc->nr_sites ? acc->nr_sites : 1,
				  sizeof(*rows));
	struct kt_site total = { 0 };
	size_t i, n;

	fprintf(out, "kmemtrace report: %zu events (%llu allocations, %llu frees) from %d CPUs\n",
		evs->nr, U(acc->allocs), U(acc->frees), acc->nr_cpus);
	fprintf(out, "lost: %llu events (sequence gaps)", U(kt_seq_gaps(evs)));
	if (opts->have_lost_bytes)
		fprintf(out, ", %llu bytes (total_overruns)",
			U(opts->lost_bytes));
	fprintf(out, "\n");
	fprintf(out, "skipped: %llu unknown event ids, %llu unknown type ids, ",
		U(skipped->unknown_events), U(skipped->unknown_types));
	fprintf(out, "%llu feature blocks\n", U(skipped->feature_blocks));
	fprintf(out, "frees of memory allocated before the trace: %llu\n\n",
		U(acc->untracked_frees));
	if (!rows) {
		fprintf(out, "out of memory listing call sites\n");
		return;
	}
	fprintf(out, "%8s %8s %11s %11s %7s %6s %6s %11s  %-8s %s\n",
		"allocs", "frees", "requested", "allocated", "frag", "x-cpu",
		"live", "live-bytes", "type", "call site");
	n = make_rows(acc, opts, rows);
	for (i = 0; i < n; i++) {
		print_row(out, &rows[i].sum, type_name(rows[i].sum.type_id),
			  rows[i].name);
		add_sums(&total, &rows[i].sum);
	}
	print_row(out, &total, "", "total");
	free(rows);
	print_live(out, acc, opts);
}
