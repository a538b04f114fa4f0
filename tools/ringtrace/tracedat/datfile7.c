// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat version 7, trace-cmd 3's default: after the file header come
 * a compression name and version and the offset of the first options
 * section; options name the other sections by offset, and the last option
 * of a section (DONE) gives the next options section.  A section is a
 * header (id, flags, description string id, size) and its bytes; with
 * flag 1 they are compressed: compressed size, uncompressed size, data.
 * A buffer's CPU data is compressed in chunks instead (a count, then each
 * chunk's two sizes and data).
 *
 * The reader follows the options wherever they point, checks every offset
 * and size against the file, every uncompressed size against what the
 * compressed bytes can hold and against a budget for the whole file
 * before taking memory for it, and decompresses each section into memory
 * the td_file owns.  The writer lays out trace-cmd's sections with a
 * single options section: metadata sections, the buffer, the options,
 * the strings.
 */
#include <stdlib.h>
#include <string.h>

#include "datio.h"

enum {
	OPT_DONE		= 0,
	OPT_BUFFER		= 3,
	OPT_CPUCOUNT		= 8,
	OPT_STRINGS		= 15,
	OPT_HEADER_INFO		= 16,
	OPT_FTRACE_EVENTS	= 17,
	OPT_EVENT_FORMATS	= 18,
	OPT_KALLSYMS		= 19,
	OPT_PRINTK		= 20,
	OPT_CMDLINES		= 21,
	OPT_BUFFER_TEXT		= 22,
};

#define SEC_COMPRESSED		1
#define SEC_HEADER_SIZE		16	/* id 2, flags 2, string id 4, size 8 */
/* Options sections followed before the chain is taken for a loop. */
#define MAX_OPTION_SECTIONS	1024
/* Options kept (the ones this reader has no use for). */
#define MAX_OPTIONS		65536
/* CPU ids read; more is a corrupt file, not a machine. */
#define MAX_CPUS		65536
/*
 * What a decompressed section, a chunk (trace-cmd writes a few pages) or
 * a whole CPU's data may come to, and what the whole file may inflate
 * to: more is a corrupt size, refused before any memory is taken for it.
 */
#define MAX_SECTION		(256ULL << 20)
#define MAX_CHUNK		(64ULL << 20)
#define MAX_CPU_DATA		(16ULL << 30)
#define BUDGET_BASE		(64ULL << 20)
#define BUDGET_PER_BYTE		256
/* Pages per compressed chunk of CPU data written, unless told. */
#define CHUNK_PAGES		16

/* The metadata sections, by option (and section) id, with their names. */
static const struct {
	uint16_t	id;
	const char	*name;		/* trace-cmd's description string */
	const char	*unpacked;	/* in messages, once decompressed */
} meta[] = {
	{ OPT_HEADER_INFO, "headers", "the headers section (decompressed)" },
	{ OPT_FTRACE_EVENTS, "ftrace events",
	  "the ftrace events section (decompressed)" },
	{ OPT_EVENT_FORMATS, "events format",
	  "the events format section (decompressed)" },
	{ OPT_KALLSYMS, "kallsyms", "the kallsyms section (decompressed)" },
	{ OPT_PRINTK, "printk", "the printk section (decompressed)" },
	{ OPT_CMDLINES, "command lines",
	  "the command lines section (decompressed)" },
};

#define NR_META		ARRAY_SIZE(meta)

/* Reading */

struct cpu_ref {
	uint32_t	cpu;
	uint64_t	off, size;
};

/*
 * What the options told, gathered before any section is read, each
 * section's offset with the file offset of the options section that gave
 * it (for messages); and what may still be decompressed.
 */
struct v7_index {
	uint64_t	meta_off[NR_META], meta_from[NR_META];
	/* The top instance's buffer and text buffer; 0: none (refused). */
	uint64_t	buffer_off, buffer_from;
	uint64_t	text_off, text_from;
	struct cpu_ref	*cpus;
	uint32_t	nr_cpus, cpu_count;
	uint32_t	options_cap;
	uint64_t	budget;
};

static void *own(struct td_file *tf, size_t len)
{
	void *p = malloc(len ? len : 1), **a;

	if (!p)
		return NULL;
	a = realloc(tf->owned, (tf->nr_owned + 1) * sizeof(*a));
	if (!a) {
		free(p);
		return NULL;
	}
	tf->owned = a;
	a[tf->nr_owned++] = p;
	return p;
}

/*
 * Whether @rsize bytes may come of the @csize compressed bytes at @in
 * (csize is within the file): what the codec can make of them, and what
 * is left of the file's budget, which it takes.  Checked before any
 * memory is taken for them; @what names them.
 */
static int may_inflate(struct td_in *in, struct td_file *tf,
		       struct v7_index *ix, size_t at, uint64_t csize,
		       uint64_t rsize, const char *what)
{
	if (!td_codec_size_ok(tf->codec, in->buf + in->pos, (size_t)csize,
			      rsize))
		return td_in_fail(in, at, "%s: %llu compressed bytes cannot make %llu (%s)",
				  what, (unsigned long long)csize,
				  (unsigned long long)rsize,
				  td_codec_name(tf->codec));
	if (rsize > ix->budget)
		return td_in_fail(in, at,
				  "%s: %llu more bytes decompressed: more than %zu file bytes may make",
				  what, (unsigned long long)rsize, tf->base_len);
	ix->budget -= rsize;
	return 0;
}

/*
 * The section at file offset @off, which must have id @id: its bytes in
 * @sec, decompressed if flagged so (then @sec's offsets are the
 * decompressed bytes', named by @unpacked).  *@flags gets its flags.
 * @from is where the offset was given, for the message if it is wrong.
 */
static int open_section(struct td_in *in, struct td_file *tf,
			struct v7_index *ix, uint64_t off, size_t from,
			uint16_t id, const char *name, const char *unpacked,
			struct td_in *sec, uint64_t *flags)
{
	uint64_t v, size, csize, rsize;
	size_t at = (size_t)off;
	uint8_t *out;

	if (off > in->len)
		return td_in_fail(in, from, "the %s section's offset %llu lies past the end (%zu)",
				  name, (unsigned long long)off, in->len);
	in->pos = at;
	if (td_get_uint(in, 2, "a section id", &v))
		return -1;
	if (v != id)
		return td_in_fail(in, at,
				  "section id %llu where the options put the %s section (id %u)",
				  (unsigned long long)v, name, id);
	if (td_get_uint(in, 2, "section flags", flags) ||
	    td_get_uint(in, 4, "a section description", &v) ||
	    td_get_uint(in, 8, "a section size", &size))
		return -1;
	if (size > in->len - in->pos)
		return td_in_fail(in, at, "the %s section of %llu bytes, only %zu left in the file",
				  name, (unsigned long long)size, in->len - in->pos);
	*sec = *in;
	sec->buf = in->buf + in->pos;
	sec->len = (size_t)size;
	sec->pos = 0;
	sec->base = in->pos;
	in->pos += (size_t)size;
	if (!(*flags & SEC_COMPRESSED))
		return 0;
	if (tf->codec == TD_CODEC_NONE)
		return td_in_fail(in, at,
				  "a compressed %s section in a file of no compression",
				  name);
	/* Buffers are compressed in chunks: the caller reads those. */
	if (id == OPT_BUFFER || id == OPT_BUFFER_TEXT)
		return 0;
	if (td_get_uint(sec, 4, "a compressed size", &csize) ||
	    td_get_uint(sec, 4, "an uncompressed size", &rsize))
		return -1;
	if (csize > sec->len - sec->pos)
		return td_in_fail(sec, 0, "the %s section holds %zu compressed bytes, not %llu",
				  name, sec->len - sec->pos,
				  (unsigned long long)csize);
	if (rsize > MAX_SECTION)
		return td_in_fail(sec, 4,
				  "the %s section would make %llu bytes (at most 256 MiB)",
				  name, (unsigned long long)rsize);
	if (may_inflate(sec, tf, ix, 0, csize, rsize, name))
		return -1;
	out = own(tf, (size_t)rsize);
	if (!out)
		return td_in_fail(sec, 0, "out of memory for the %s section (%llu bytes)",
				  name, (unsigned long long)rsize);
	if (td_decompress(tf->codec, sec->buf + sec->pos, (size_t)csize, out,
			  (size_t)rsize))
		return td_in_fail(sec, 0,
				  "the %s section does not decompress (%s) to its %llu bytes",
				  name, td_codec_name(tf->codec),
				  (unsigned long long)rsize);
	sec->buf = out;
	sec->len = (size_t)rsize;
	sec->pos = 0;
	sec->base = 0;
	sec->within = unpacked;
	return 0;
}

/*
 * A BUFFER option: offset, instance name, clock, [page size,] CPU count
 * and each CPU's id, offset and size.  trace-cmd 3.1 writes the page
 * size; its file format page does not: the option's size tells which.
 * Only the first of the top instance is read; other instances are not
 * reported (the top one is the trace).
 */
static int read_buffer_option(struct td_in *opt, struct td_file *tf,
			      struct v7_index *ix, uint64_t from)
{
	const char *name, *clock;
	uint64_t off, v, rest;
	uint32_t i, n;

	if (td_get_uint(opt, 8, "the buffer's offset", &off) ||
	    td_get_string(opt, "the instance's name", 1, &name) ||
	    td_get_string(opt, "the buffer's clock", 1, &clock))
		return -1;
	if (*name || ix->buffer_off)
		return 0;
	if (!off)
		return td_in_fail(opt, 0, "the buffer's section at offset 0");
	rest = opt->len - opt->pos;
	if (rest >= 8 && (rest - 8) % 20 == 0) {
		if (td_get_uint(opt, 4, "the buffer's page size", &v))
			return -1;
		if (v != tf->page_size)
			return td_in_fail(opt, opt->pos - 4,
					  "the buffer's page size %llu is not the file's (%u)",
					  (unsigned long long)v, tf->page_size);
	} else if (rest < 4 || (rest - 4) % 20) {
		return td_in_fail(opt, opt->pos, "a BUFFER option's CPU table of %llu bytes",
				  (unsigned long long)rest);
	}
	if (td_get_count(opt, "buffer CPUs", 20, &n))
		return -1;
	ix->cpus = calloc(n ? n : 1, sizeof(*ix->cpus));
	if (!ix->cpus)
		return td_in_fail(opt, opt->pos, "out of memory for %u CPUs", n);
	for (i = 0; i < n; i++) {
		struct cpu_ref *c = &ix->cpus[i];

		if (td_get_uint(opt, 4, "a CPU id", &v) ||
		    td_get_uint(opt, 8, "a CPU's data offset", &c->off) ||
		    td_get_uint(opt, 8, "a CPU's data size", &c->size))
			return -1;
		if (v >= MAX_CPUS)
			return td_in_fail(opt, opt->pos - 20,
					  "CPU id %llu (at most %d CPUs are read)",
					  (unsigned long long)v, MAX_CPUS);
		c->cpu = (uint32_t)v;
	}
	ix->nr_cpus = n;
	ix->buffer_off = off;
	ix->buffer_from = from;
	tf->clock = clock;
	return 0;
}

/* An option this reader has no use for, kept for the caller (--stat). */
static int keep_option(struct td_in *sec, struct td_file *tf,
		       struct v7_index *ix, size_t at, uint16_t type,
		       const struct td_blob *data)
{
	if (tf->nr_options == ix->options_cap) {
		struct td_option *o;
		uint32_t cap = ix->options_cap ? ix->options_cap * 2 : 16;

		if (tf->nr_options >= MAX_OPTIONS)
			return td_in_fail(sec, at, "more than %d options", MAX_OPTIONS);
		o = realloc(tf->options, cap * sizeof(*o));
		if (!o)
			return td_in_fail(sec, at, "out of memory for options");
		tf->options = o;
		ix->options_cap = cap;
	}
	tf->options[tf->nr_options].type = type;
	tf->options[tf->nr_options++].data = *data;
	return 0;
}

/*
 * The options of the section at file offset @from; *@next: the next
 * options section, or 0.  A section named twice: the last one counts.
 */
static int read_option_list(struct td_in *sec, struct td_file *tf,
			    struct v7_index *ix, uint64_t from, uint64_t *next)
{
	for (;;) {
		struct td_in opt;
		struct td_blob data;
		uint64_t type, v;
		size_t at = sec->pos;
		const char *name;
		uint32_t i;

		if (td_get_uint(sec, 2, "an option id", &type) ||
		    td_get_blob(sec, 4, "an option", &data))
			return -1;
		opt = *sec;
		opt.buf = data.data;
		opt.len = data.len;
		opt.pos = 0;
		opt.base = sec->base + (size_t)(data.data - sec->buf);
		if (type == OPT_DONE)
			return td_get_uint(&opt, 8, "the next options section", next);
		for (i = 0; i < NR_META; i++) {
			if (type != meta[i].id)
				continue;
			if (td_get_uint(&opt, 8, "a section offset", &v))
				return -1;
			if (!v)
				return td_in_fail(sec, at,
						  "option %llu puts the %s section at offset 0",
						  (unsigned long long)type,
						  meta[i].name);
			ix->meta_off[i] = v;
			ix->meta_from[i] = from;
			break;
		}
		if (i < NR_META)
			continue;
		if (type == OPT_BUFFER) {
			if (read_buffer_option(&opt, tf, ix, from))
				return -1;
		} else if (type == OPT_BUFFER_TEXT) {
			if (td_get_uint(&opt, 8, "the text buffer's offset", &v) ||
			    td_get_string(&opt, "the instance's name", 1, &name))
				return -1;
			if (!*name && !ix->text_off) {
				if (!v)
					return td_in_fail(&opt, 0,
							  "the text buffer at offset 0");
				ix->text_off = v;
				ix->text_from = from;
			}
		} else if (type == OPT_CPUCOUNT) {
			if (td_get_uint(&opt, 4, "the CPU count", &v))
				return -1;
			if (v > MAX_CPUS)
				return td_in_fail(&opt, 0, "%llu CPUs (at most %d are read)",
						  (unsigned long long)v, MAX_CPUS);
			ix->cpu_count = (uint32_t)v;
		} else if (keep_option(sec, tf, ix, at, (uint16_t)type, &data)) {
			return -1;
		}
	}
}

/* The chain of options sections from @off, given at file offset @from. */
static int read_options(struct td_in *in, struct td_file *tf,
			struct v7_index *ix, uint64_t off, size_t from)
{
	uint64_t seen[MAX_OPTION_SECTIONS];
	unsigned int n = 0, i;

	while (off) {
		struct td_in sec;
		uint64_t flags, at = off;

		for (i = 0; i < n; i++)
			if (seen[i] == off)
				return td_in_fail(in, from,
						  "the options sections loop back to offset %llu",
						  (unsigned long long)off);
		if (n == MAX_OPTION_SECTIONS)
			return td_in_fail(in, from, "more than %d options sections",
					  MAX_OPTION_SECTIONS);
		seen[n++] = off;
		if (open_section(in, tf, ix, off, from, OPT_DONE, "options",
				 "the options section (decompressed)", &sec, &flags) ||
		    read_option_list(&sec, tf, ix, at, &off))
			return -1;
		from = (size_t)at;
	}
	return 0;
}

/* Metadata section @i, at the offset its option gave, into @tf. */
static int read_meta(struct td_in *in, struct td_file *tf,
		     struct v7_index *ix, unsigned int i)
{
	struct td_in sec;
	uint64_t flags;

	if (!ix->meta_off[i])
		return 0;
	if (open_section(in, tf, ix, ix->meta_off[i], (size_t)ix->meta_from[i],
			 meta[i].id, meta[i].name, meta[i].unpacked, &sec, &flags))
		return -1;
	switch (meta[i].id) {
	case OPT_HEADER_INFO:
		return td_read_headers(&sec, tf);
	case OPT_FTRACE_EVENTS:
		return td_get_count(&sec, "ftrace formats", 8, &tf->nr_ftrace_formats) ||
		       td_read_blobs(&sec, tf->nr_ftrace_formats, "ftrace format",
				     &tf->ftrace_formats) ? -1 : 0;
	case OPT_EVENT_FORMATS:
		return td_read_systems(&sec, tf);
	case OPT_KALLSYMS:
		return td_get_blob(&sec, 4, "kallsyms", &tf->kallsyms);
	case OPT_PRINTK:
		return td_get_blob(&sec, 4, "printk formats", &tf->printk_formats);
	default:
		return td_get_blob(&sec, 8, "saved cmdlines", &tf->cmdlines);
	}
}

/*
 * Chunked compressed data: a count, then each chunk's compressed and
 * uncompressed sizes and bytes; into memory @tf owns, taken once every
 * chunk's sizes were found possible.  @what names it.
 */
static int read_chunks(struct td_in *data, struct td_file *tf,
		       struct v7_index *ix, const char *what,
		       struct td_blob *out)
{
	size_t start = data->pos, pos;
	uint64_t total = 0, csize, rsize;
	uint32_t n, i;
	uint8_t *buf;

	if (td_get_count(data, "chunks", 8, &n))
		return -1;
	for (i = 0; i < n; i++) {
		size_t at = data->pos;
		char chunk[96];

		if (td_get_uint(data, 4, "a chunk's compressed size", &csize) ||
		    td_get_uint(data, 4, "a chunk's size", &rsize))
			return -1;
		if (csize > data->len - data->pos)
			return td_in_fail(data, at, "%s: chunk %u of %llu bytes, only %zu left",
					  what, i, (unsigned long long)csize,
					  data->len - data->pos);
		total += rsize;
		if (rsize > MAX_CHUNK || total > MAX_CPU_DATA ||
		    total > SIZE_MAX / 2)
			return td_in_fail(data, at,
					  "%s: chunk %u would make %llu bytes (%s)",
					  what, i, (unsigned long long)rsize,
					  rsize > MAX_CHUNK ? "at most 64 MiB a chunk" :
					  "at most 16 GiB a CPU");
		snprintf(chunk, sizeof(chunk), "%s: chunk %u", what, i);
		if (may_inflate(data, tf, ix, at, csize, rsize, chunk))
			return -1;
		data->pos += (size_t)csize;
	}
	buf = own(tf, (size_t)total);
	if (!buf)
		return td_in_fail(data, start, "%s: out of memory for %llu bytes",
				  what, (unsigned long long)total);
	data->pos = start + 4;
	for (i = 0, pos = 0; i < n; i++) {
		size_t at = data->pos;

		td_get_uint(data, 4, "a chunk's compressed size", &csize);
		td_get_uint(data, 4, "a chunk's size", &rsize);
		if (td_decompress(tf->codec, data->buf + data->pos, (size_t)csize,
				  buf + pos, (size_t)rsize))
			return td_in_fail(data, at,
					  "%s: chunk %u does not decompress (%s) to its %llu bytes",
					  what, i, td_codec_name(tf->codec),
					  (unsigned long long)rsize);
		data->pos += (size_t)csize;
		pos += (size_t)rsize;
	}
	out->data = buf;
	out->len = (size_t)total;
	return 0;
}

static int by_offset(const void *a, const void *b)
{
	const struct cpu_ref *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * The CPUs' data must not overlap (nor a CPU be listed twice): each
 * would be decompressed again, a small file making much memory.
 * @extra: bytes each CPU's data has beyond its listed size.
 */
static int check_overlaps(struct td_in *in, const struct v7_index *ix,
			  uint64_t extra)
{
	struct cpu_ref *sorted;
	uint32_t i;

	if (ix->nr_cpus < 2)
		return 0;
	sorted = malloc(ix->nr_cpus * sizeof(*sorted));
	if (!sorted)
		return td_in_fail(in, (size_t)ix->buffer_from,
				  "out of memory for %u CPUs", ix->nr_cpus);
	memcpy(sorted, ix->cpus, ix->nr_cpus * sizeof(*sorted));
	qsort(sorted, ix->nr_cpus, sizeof(*sorted), by_offset);
	for (i = 1; i < ix->nr_cpus; i++) {
		const struct cpu_ref *a = &sorted[i - 1], *b = &sorted[i];

		uint64_t gap = b->off - a->off;

		if ((a->size || extra) &&
		    (a->size > gap || extra > gap - a->size)) {
			uint32_t x = a->cpu, y = b->cpu;
			uint64_t at = b->off;

			free(sorted);
			return td_in_fail(in, (size_t)ix->buffer_from,
					  "the data of CPUs %u and %u overlap at offset %llu",
					  x < y ? x : y, x < y ? y : x,
					  (unsigned long long)at);
		}
	}
	free(sorted);
	return 0;
}

/* The top instance's CPU data, each CPU where the BUFFER option says. */
static int read_buffer(struct td_in *in, struct td_file *tf,
		       struct v7_index *ix)
{
	uint32_t nr = ix->cpu_count, i;
	struct td_in sec;
	uint64_t flags, extra;

	for (i = 0; i < ix->nr_cpus; i++)
		if (ix->cpus[i].cpu >= nr)
			nr = ix->cpus[i].cpu + 1;
	tf->nr_cpus = nr;
	tf->cpu_data = calloc(nr ? nr : 1, sizeof(*tf->cpu_data));
	tf->cpu_offsets = calloc(nr ? nr : 1, sizeof(*tf->cpu_offsets));
	if (!tf->cpu_data || !tf->cpu_offsets)
		return td_in_fail(in, (size_t)ix->buffer_from,
				  "out of memory for %u CPUs", nr);
	if (!ix->buffer_off)
		return 0;
	if (open_section(in, tf, ix, ix->buffer_off, (size_t)ix->buffer_from,
			 OPT_BUFFER, "buffer flyrecord", NULL, &sec, &flags))
		return -1;
	/*
	 * Compressed, the size trace-cmd lists leaves out the chunk count
	 * before the chunks.
	 */
	extra = flags & SEC_COMPRESSED ? 4 : 0;
	if (check_overlaps(in, ix, extra))
		return -1;
	for (i = 0; i < ix->nr_cpus; i++) {
		const struct cpu_ref *c = &ix->cpus[i];
		struct td_in data = sec;
		uint64_t stream = c->size + extra;
		char what[64];

		if (c->size > UINT64_MAX - extra || c->off < sec.base ||
		    c->off - sec.base > sec.len ||
		    stream > sec.len - (c->off - sec.base))
			return td_in_fail(in, (size_t)ix->buffer_from,
					  "CPU %u's data (%llu bytes at %llu) lies outside its buffer section (%zu bytes at %zu)",
					  c->cpu, (unsigned long long)c->size,
					  (unsigned long long)c->off, sec.len,
					  sec.base);
		tf->cpu_offsets[c->cpu] = c->off;
		data.buf = in->buf + c->off;
		data.len = (size_t)stream;
		data.pos = 0;
		data.base = (size_t)c->off;
		if (!extra) {
			tf->cpu_data[c->cpu].data = data.buf;
			tf->cpu_data[c->cpu].len = data.len;
			continue;
		}
		snprintf(what, sizeof(what), "CPU %u's data", c->cpu);
		if (read_chunks(&data, tf, ix, what, &tf->cpu_data[c->cpu]))
			return -1;
	}
	return 0;
}

/* Latency text: the section's bytes, decompressed if chunked. */
static int read_text(struct td_in *in, struct td_file *tf,
		     struct v7_index *ix)
{
	struct td_in sec;
	uint64_t flags;

	if (open_section(in, tf, ix, ix->text_off, (size_t)ix->text_from,
			 OPT_BUFFER_TEXT, "buffer text", NULL, &sec, &flags))
		return -1;
	tf->mode = TD_LATENCY;
	if (flags & SEC_COMPRESSED)
		return read_chunks(&sec, tf, ix, "the text buffer", &tf->latency);
	tf->latency.data = sec.buf;
	tf->latency.len = sec.len;
	return 0;
}

int td_read_v7(struct td_in *in, struct td_file *tf)
{
	struct v7_index ix;
	const char *name, *version;
	uint64_t first;
	unsigned int i;
	size_t at = in->pos;
	int ret = -1;

	memset(&ix, 0, sizeof(ix));
	ix.budget = BUDGET_BASE + (uint64_t)in->len * BUDGET_PER_BYTE;
	if (ix.budget > SIZE_MAX / 2)
		ix.budget = SIZE_MAX / 2;
	if (td_get_string(in, "a compression name", 0, &name) ||
	    td_get_string(in, "a compression version", 1, &version))
		return -1;
	if (td_codec_by_name(name, &tf->codec))
		return td_in_fail(in, at, "compression \"%s\": tracedat reads none, zlib and zstd",
				  name);
	at = in->pos;
	if (td_get_uint(in, 8, "the first options section's offset", &first))
		return -1;
	if (!first)
		return td_in_fail(in, at, "no options section (offset 0)");
	if (read_options(in, tf, &ix, first, at))
		goto out;
	if (!ix.meta_off[0]) {
		td_in_fail(in, (size_t)first,
			   "no HEADER_INFO option in the options from here: no headers section");
		goto out;
	}
	for (i = 0; i < NR_META; i++)
		if (read_meta(in, tf, &ix, i))
			goto out;
	if (!ix.buffer_off && ix.text_off)
		ret = read_text(in, tf, &ix);
	else
		ret = read_buffer(in, tf, &ix);
out:
	free(ix.cpus);
	return ret;
}

/* Writing */

/* A section's bytes as they go in the file, with what they are. */
struct out_section {
	uint16_t	id;
	uint16_t	flags;
	uint32_t	name;		/* offset in the strings section */
	uint8_t		*data;		/* compressed: sizes and data */
	size_t		len;
	uint64_t	off;		/* in the file */
};

/* A memory stream for a section's bytes, in the file's endianness. */
struct mem_out {
	struct td_out	o;
	char		*buf;
	size_t		len;
};

static int mem_open(struct mem_out *m, const struct td_file *tf)
{
	memset(m, 0, sizeof(*m));
	m->o.big_endian = tf->big_endian;
	m->o.f = open_memstream(&m->buf, &m->len);
	return m->o.f ? 0 : -1;
}

/*
 * Close @m into @s, compressed if the file is: then its bytes are the
 * compressed size, the uncompressed size and the compressed data.
 */
static int mem_close(struct mem_out *m, const struct td_file *tf,
		     struct out_section *s)
{
	size_t clen;
	uint8_t *packed;

	if (fclose(m->o.f) || m->o.failed || !m->buf) {
		free(m->buf);
		return -1;
	}
	if (tf->codec == TD_CODEC_NONE) {
		s->data = (uint8_t *)m->buf;
		s->len = m->len;
		return 0;
	}
	clen = td_compress_bound(tf->codec, m->len);
	/* Both sizes are 4 bytes, and td_read() takes up to MAX_SECTION. */
	if (m->len > MAX_SECTION || clen > UINT32_MAX) {
		free(m->buf);
		return -1;
	}
	packed = malloc(8 + clen);
	if (!packed || td_compress(tf->codec, (uint8_t *)m->buf, m->len,
				   packed + 8, &clen)) {
		free(packed);
		free(m->buf);
		return -1;
	}
	td_store_uint(packed, clen, 4, tf->big_endian);
	td_store_uint(packed + 4, m->len, 4, tf->big_endian);
	free(m->buf);
	s->data = packed;
	s->len = 8 + clen;
	s->flags = SEC_COMPRESSED;
	return 0;
}

/* Metadata section @i of @tf into @s. */
static int build_meta(const struct td_file *tf, unsigned int i,
		      struct out_section *s)
{
	struct mem_out m;
	uint32_t j, k;

	if (mem_open(&m, tf))
		return -1;
	switch (meta[i].id) {
	case OPT_HEADER_INFO:
		td_put_headers(&m.o, tf);
		break;
	case OPT_FTRACE_EVENTS:
		td_put_uint(&m.o, tf->nr_ftrace_formats, 4);
		for (j = 0; j < tf->nr_ftrace_formats; j++)
			td_put_blob(&m.o, &tf->ftrace_formats[j], 8);
		break;
	case OPT_EVENT_FORMATS:
		td_put_uint(&m.o, tf->nr_systems, 4);
		for (j = 0; j < tf->nr_systems; j++) {
			const struct td_system *sys = &tf->systems[j];

			td_put(&m.o, sys->name, strlen(sys->name) + 1);
			td_put_uint(&m.o, sys->nr_formats, 4);
			for (k = 0; k < sys->nr_formats; k++)
				td_put_blob(&m.o, &sys->formats[k], 8);
		}
		break;
	case OPT_KALLSYMS:
		td_put_blob(&m.o, &tf->kallsyms, 4);
		break;
	case OPT_PRINTK:
		td_put_blob(&m.o, &tf->printk_formats, 4);
		break;
	default:
		td_put_blob(&m.o, &tf->cmdlines, 8);
		break;
	}
	s->id = meta[i].id;
	return mem_close(&m, tf, s);
}

/* CPU data in chunks of tf->chunk_pages pages, each compressed. */
static int build_chunks(const struct td_file *tf, const struct td_blob *b,
			uint8_t **data, size_t *len)
{
	size_t chunk = (size_t)tf->page_size *
		       (tf->chunk_pages ? tf->chunk_pages : CHUNK_PAGES);
	struct td_out o = { .big_endian = tf->big_endian };
	size_t off, n, bound;
	uint8_t *packed;
	char *buf = NULL;

	/* Chunk sizes are 4 bytes; td_read() takes up to MAX_CHUNK. */
	if (chunk > MAX_CHUNK)
		return -1;
	bound = td_compress_bound(tf->codec, chunk);
	packed = malloc(bound);

	o.f = open_memstream(&buf, len);
	if (!o.f || !packed) {
		if (o.f && !fclose(o.f))
			free(buf);
		free(packed);
		return -1;
	}
	td_put_uint(&o, (b->len + chunk - 1) / chunk, 4);
	for (off = 0; off < b->len; off += n) {
		size_t clen = bound;

		n = b->len - off < chunk ? b->len - off : chunk;
		if (td_compress(tf->codec, b->data + off, n, packed, &clen)) {
			o.failed = 1;
			break;
		}
		td_put_uint(&o, clen, 4);
		td_put_uint(&o, n, 4);
		td_put(&o, packed, clen);
	}
	free(packed);
	if (fclose(o.f) || o.failed) {
		free(buf);
		return -1;
	}
	*data = (uint8_t *)buf;
	return 0;
}

/* The strings section: each section's description, by offset. */
static const char *const names[] = {
	"headers", "ftrace events", "events format", "kallsyms", "printk",
	"command lines", "buffer flyrecord", "buffer text", "options",
	"strings",
};

static uint32_t name_id(const char *name)
{
	uint32_t off = 0;
	size_t i;

	for (i = 0; strcmp(names[i], name); i++)
		off += (uint32_t)strlen(names[i]) + 1;
	return off;
}

/*
 * Options whose ids the writer writes itself or that name sections in
 * version 7: one in tf->options (a file of another version read) would
 * be taken by readers for what it is not.
 */
static int v7_own_option(uint16_t type)
{
	return type == OPT_DONE || type == OPT_BUFFER ||
	       type == OPT_CPUCOUNT ||
	       (type >= OPT_STRINGS && type <= OPT_BUFFER_TEXT);
}

static void put_section_header(struct td_out *o, const struct out_section *s,
			       uint64_t size)
{
	td_put_uint(o, s->id, 2);
	td_put_uint(o, s->flags, 2);
	td_put_uint(o, s->name, 4);
	td_put_uint(o, size, 8);
}

/*
 * The one options section @s: where the metadata sections @sec are, the
 * CPU count, @tf's options, the buffer at @buf_off (its CPUs at
 * @cpu_off, @packed as written) unless meta_only, DONE with no next.
 * Built in memory, stored: its size is what it came to.
 */
static int build_options(const struct td_file *tf,
			 const struct out_section *sec, uint64_t buf_off,
			 const uint64_t *cpu_off, const struct td_blob *packed,
			 uint32_t nr_listed, const char *clock,
			 struct out_section *s)
{
	struct mem_out m;
	uint32_t i;

	if (mem_open(&m, tf))
		return -1;
	for (i = 0; i < NR_META; i++) {
		td_put_uint(&m.o, meta[i].id, 2);
		td_put_uint(&m.o, 8, 4);
		td_put_uint(&m.o, sec[i].off, 8);
	}
	td_put_uint(&m.o, OPT_CPUCOUNT, 2);
	td_put_uint(&m.o, 4, 4);
	td_put_uint(&m.o, tf->nr_cpus, 4);
	for (i = 0; i < tf->nr_options; i++) {
		if (v7_own_option(tf->options[i].type))
			continue;
		td_put_uint(&m.o, tf->options[i].type, 2);
		td_put_blob(&m.o, &tf->options[i].data, 4);
	}
	if (tf->meta_only) {
		/* The collector adds BUFFER in an options section of its own. */
	} else if (tf->mode == TD_LATENCY) {
		td_put_uint(&m.o, OPT_BUFFER_TEXT, 2);
		td_put_uint(&m.o, 8 + 1 + strlen(clock) + 1, 4);
		td_put_uint(&m.o, buf_off, 8);
		td_put(&m.o, "", 1);
		td_put(&m.o, clock, strlen(clock) + 1);
	} else {
		td_put_uint(&m.o, OPT_BUFFER, 2);
		td_put_uint(&m.o, 8 + 1 + strlen(clock) + 1 + 4 + 4 +
			    20ULL * nr_listed, 4);
		td_put_uint(&m.o, buf_off, 8);
		td_put(&m.o, "", 1);
		td_put(&m.o, clock, strlen(clock) + 1);
		td_put_uint(&m.o, tf->page_size, 4);
		td_put_uint(&m.o, nr_listed, 4);
		for (i = 0; i < tf->nr_cpus; i++) {
			if (!packed[i].len)
				continue;
			td_put_uint(&m.o, i, 4);
			td_put_uint(&m.o, cpu_off[i], 8);
			/* As trace-cmd lists it: without the chunk count. */
			td_put_uint(&m.o, packed[i].len -
				    (tf->codec != TD_CODEC_NONE ? 4 : 0), 8);
		}
	}
	td_put_uint(&m.o, OPT_DONE, 2);
	td_put_uint(&m.o, 8, 4);
	td_put_uint(&m.o, 0, 8);
	if (fclose(m.o.f) || m.o.failed) {
		free(m.buf);
		return -1;
	}
	s->id = OPT_DONE;
	s->name = name_id("options");
	s->data = (uint8_t *)m.buf;
	s->len = m.len;
	return 0;
}

int td_write_v7(FILE *f, const struct td_file *tf, char *err, size_t errlen)
{
	struct td_out o = { .f = f, .big_endian = tf->big_endian };
	uint8_t flags[2] = { (uint8_t)!!tf->big_endian, tf->long_size };
	const char *clock = tf->clock ? tf->clock : "local";
	const char *cname = td_codec_name(tf->codec);
	const char *cversion = td_codec_version(tf->codec);
	struct out_section sec[NR_META];
	struct td_blob *packed = NULL;
	struct out_section opts = { .data = NULL };
	uint64_t pos, buf_off, buf_start, opt_off, str_len;
	uint64_t *cpu_off = NULL;
	uint32_t i, nr_listed = 0;
	int ret = -1;
	size_t k;

	memset(sec, 0, sizeof(sec));
	str_len = 0;
	for (k = 0; k < ARRAY_SIZE(names); k++)
		str_len += strlen(names[k]) + 1;
	/* Metadata sections, then CPU data compressed in memory first. */
	for (i = 0; i < NR_META; i++) {
		if (build_meta(tf, i, &sec[i])) {
			td_fail(err, errlen, "building the %s section failed",
				meta[i].name);
			goto out;
		}
		sec[i].name = name_id(meta[i].name);
	}
	cpu_off = calloc(tf->nr_cpus ? tf->nr_cpus : 1, sizeof(*cpu_off));
	packed = calloc(tf->nr_cpus ? tf->nr_cpus : 1, sizeof(*packed));
	if (!cpu_off || !packed) {
		td_fail(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; !tf->meta_only && tf->mode == TD_FLYRECORD &&
	     i < tf->nr_cpus; i++) {
		uint8_t *data;

		if (!tf->cpu_data[i].len)
			continue;
		nr_listed++;
		packed[i] = tf->cpu_data[i];
		if (tf->codec == TD_CODEC_NONE)
			continue;
		if (build_chunks(tf, &tf->cpu_data[i], &data, &packed[i].len)) {
			packed[i].data = NULL;
			td_fail(err, errlen, "compressing CPU %u's data failed", i);
			goto out;
		}
		packed[i].data = data;
	}

	/* Where everything goes. */
	pos = sizeof(td_magic) + 2 + 2 + 4 + strlen(cname) + 1 +
	      strlen(cversion) + 1 + 8;
	for (i = 0; i < NR_META; i++) {
		sec[i].off = pos;
		pos += SEC_HEADER_SIZE + sec[i].len;
	}
	buf_off = pos;
	buf_start = pos + SEC_HEADER_SIZE;
	pos = tf->meta_only ? buf_off : buf_start;
	if (tf->meta_only) {
		/* No buffer: the collector adds it, and its option. */
	} else if (tf->mode == TD_LATENCY) {
		pos += tf->latency.len;
	} else {
		for (i = 0; i < tf->nr_cpus; i++) {
			if (!packed[i].len)
				continue;
			pos = (pos + tf->page_size - 1) &
			      ~(uint64_t)(tf->page_size - 1);
			cpu_off[i] = pos;
			pos += packed[i].len;
		}
	}
	opt_off = pos;
	if (build_options(tf, sec, buf_off, cpu_off, packed, nr_listed,
			  clock, &opts)) {
		td_fail(err, errlen, "building the options section failed");
		goto out;
	}

	/* The file header, the metadata sections. */
	td_put(&o, td_magic, sizeof(td_magic));
	td_put(&o, "7", 2);
	td_put(&o, flags, 2);
	td_put_uint(&o, tf->page_size, 4);
	td_put(&o, cname, strlen(cname) + 1);
	td_put(&o, cversion, strlen(cversion) + 1);
	td_put_uint(&o, opt_off, 8);
	for (i = 0; i < NR_META; i++) {
		put_section_header(&o, &sec[i], sec[i].len);
		td_put(&o, sec[i].data, sec[i].len);
	}

	/* The buffer: CPU data page-aligned, or the latency text. */
	if (!tf->meta_only) {
		struct out_section b = {
			.id = tf->mode == TD_LATENCY ? OPT_BUFFER_TEXT : OPT_BUFFER,
			.name = name_id(tf->mode == TD_LATENCY ? "buffer text" :
					"buffer flyrecord"),
			.flags = tf->mode == TD_FLYRECORD &&
				 tf->codec != TD_CODEC_NONE ? SEC_COMPRESSED : 0,
		};

		put_section_header(&o, &b, opt_off - buf_start);
	}
	if (tf->meta_only) {
		/* Nothing: the collector appends the CPU data. */
	} else if (tf->mode == TD_LATENCY) {
		td_put(&o, tf->latency.data, tf->latency.len);
	} else {
		for (i = 0; i < tf->nr_cpus; i++) {
			if (!packed[i].len)
				continue;
			td_put_zeros(&o, cpu_off[i] - o.pos);
			td_put(&o, packed[i].data, packed[i].len);
		}
	}

	put_section_header(&o, &opts, opts.len);
	td_put(&o, opts.data, opts.len);

	/* The strings, stored: the descriptions are a few words. */
	{
		struct out_section s = { .id = OPT_STRINGS,
					 .name = name_id("strings") };

		put_section_header(&o, &s, str_len);
		for (k = 0; k < ARRAY_SIZE(names); k++)
			td_put(&o, names[k], strlen(names[k]) + 1);
	}
	if (o.failed || fflush(f))
		td_fail(err, errlen, "write failed at offset %llu",
			(unsigned long long)o.pos);
	else
		ret = 0;
out:
	free(opts.data);
	for (i = 0; i < NR_META; i++)
		free(sec[i].data);
	for (i = 0; packed && tf->codec != TD_CODEC_NONE && i < tf->nr_cpus; i++)
		free((void *)packed[i].data);
	free(packed);
	free(cpu_off);
	return ret;
}
