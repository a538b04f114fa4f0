// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat version 6, written and read section by section in the order
 * of shared/spec/trace-cmd.dat.txt.  The reader trusts nothing: every
 * count and size is checked against what is left before it is used, so a
 * bad file ends in an error naming the offset, never in a crash or loop.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "datfile.h"

static const uint8_t td_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				    'i', 'n', 'g' };

/* Longest system or section name read; names are short words. */
#define TD_NAME_MAX	256

static int td_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Writing */

struct td_out {
	FILE	*f;
	int	big_endian;
	long	pos;
	int	failed;
};

static void put(struct td_out *o, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, o->f) != n)
		o->failed = 1;
	o->pos += (long)n;
}

static void put_uint(struct td_out *o, uint64_t v, int bytes)
{
	uint8_t b[8];
	int i;

	for (i = 0; i < bytes; i++)
		b[o->big_endian ? bytes - 1 - i : i] = (uint8_t)(v >> (8 * i));
	put(o, b, (size_t)bytes);
}

static void put_zeros(struct td_out *o, uint64_t n)
{
	static const uint8_t zeros[4096];

	while (n) {
		size_t k = n > sizeof(zeros) ? sizeof(zeros) : (size_t)n;

		put(o, zeros, k);
		n -= k;
	}
}

static void put_blob(struct td_out *o, const struct td_blob *b, int size_bytes)
{
	put_uint(o, b->len, size_bytes);
	put(o, b->data, b->len);
}

int td_write(FILE *f, const struct td_file *tf, char *err, size_t errlen)
{
	struct td_out o = { .f = f, .big_endian = tf->big_endian };
	uint8_t flags[2] = { (uint8_t)!!tf->big_endian, tf->long_size };
	uint32_t i, j;
	uint64_t off;

	if (tf->long_size != 4 && tf->long_size != 8)
		return td_fail(err, errlen, "long size %u: 4 or 8", tf->long_size);
	if (!tf->page_size || tf->page_size & (tf->page_size - 1))
		return td_fail(err, errlen, "page size %u: a power of two",
			       tf->page_size);
	put(&o, td_magic, sizeof(td_magic));
	put(&o, "6", 2);
	put(&o, flags, 2);
	put_uint(&o, tf->page_size, 4);
	put(&o, "header_page", 12);
	put_blob(&o, &tf->header_page, 8);
	put(&o, "header_event", 13);
	put_blob(&o, &tf->header_event, 8);
	put_uint(&o, tf->nr_ftrace_formats, 4);
	for (i = 0; i < tf->nr_ftrace_formats; i++)
		put_blob(&o, &tf->ftrace_formats[i], 8);
	put_uint(&o, tf->nr_systems, 4);
	for (i = 0; i < tf->nr_systems; i++) {
		const struct td_system *s = &tf->systems[i];

		put(&o, s->name, strlen(s->name) + 1);
		put_uint(&o, s->nr_formats, 4);
		for (j = 0; j < s->nr_formats; j++)
			put_blob(&o, &s->formats[j], 8);
	}
	put_blob(&o, &tf->kallsyms, 4);
	put_blob(&o, &tf->printk_formats, 4);
	put_blob(&o, &tf->cmdlines, 8);
	put_uint(&o, tf->nr_cpus, 4);
	/* Always an options section, if only its closing type 0. */
	put(&o, "options  ", 10);
	for (i = 0; i < tf->nr_options; i++) {
		put_uint(&o, tf->options[i].type, 2);
		put_blob(&o, &tf->options[i].data, 4);
	}
	put_uint(&o, 0, 2);
	if (tf->mode == TD_LATENCY) {
		put(&o, "latency  ", 10);
		put(&o, tf->latency.data, tf->latency.len);
		goto out;
	}
	put(&o, "flyrecord", 10);
	/* The CPUs' data follows the table, each on a page boundary. */
	off = (uint64_t)o.pos + 16ULL * tf->nr_cpus;
	for (i = 0; i < tf->nr_cpus; i++) {
		off = (off + tf->page_size - 1) & ~(uint64_t)(tf->page_size - 1);
		put_uint(&o, off, 8);
		put_uint(&o, tf->cpu_data[i].len, 8);
		off += tf->cpu_data[i].len;
	}
	for (i = 0; i < tf->nr_cpus; i++) {
		put_zeros(&o, (tf->page_size - (uint64_t)o.pos % tf->page_size) %
			  tf->page_size);
		put(&o, tf->cpu_data[i].data, tf->cpu_data[i].len);
	}
out:
	if (o.failed || fflush(f))
		return td_fail(err, errlen, "write failed at offset %ld", o.pos);
	return 0;
}

/* Reading */

struct td_in {
	const uint8_t	*buf;
	size_t		len, pos;
	int		big_endian;
	char		*err;
	size_t		errlen;
};

static int need(struct td_in *in, size_t n, const char *what)
{
	if (in->len - in->pos >= n)
		return 0;
	return td_fail(in->err, in->errlen,
		       "offset %zu: truncated: %s needs %zu bytes, %zu left",
		       in->pos, what, n, in->len - in->pos);
}

static int get_uint(struct td_in *in, int bytes, const char *what,
		    uint64_t *v)
{
	int i;

	if (need(in, (size_t)bytes, what))
		return -1;
	*v = 0;
	for (i = 0; i < bytes; i++)
		*v |= (uint64_t)in->buf[in->pos + (in->big_endian ?
					(size_t)(bytes - 1 - i) : (size_t)i)] << (8 * i);
	in->pos += (size_t)bytes;
	return 0;
}

/* A size (of @bytes bytes) and that many bytes after it. */
static int get_blob(struct td_in *in, int bytes, const char *what,
		    struct td_blob *b)
{
	size_t at = in->pos;
	uint64_t n;

	if (get_uint(in, bytes, what, &n))
		return -1;
	if (n > in->len - in->pos)
		return td_fail(in->err, in->errlen,
			       "offset %zu: %s of %llu bytes, only %zu left in the file",
			       at, what, (unsigned long long)n, in->len - in->pos);
	b->data = in->buf + in->pos;
	b->len = (size_t)n;
	in->pos += (size_t)n;
	return 0;
}

/* The @n bytes of @s, exactly, at the current offset. */
static int expect(struct td_in *in, const char *s, size_t n, const char *what)
{
	if (need(in, n, what))
		return -1;
	if (memcmp(in->buf + in->pos, s, n))
		return td_fail(in->err, in->errlen,
			       "offset %zu: expected %s", in->pos, what);
	in->pos += n;
	return 0;
}

/* A count of items that each take at least @min bytes: bounded by the file. */
static int get_count(struct td_in *in, const char *what, size_t min,
		     uint32_t *count)
{
	size_t at = in->pos;
	uint64_t n;

	if (get_uint(in, 4, what, &n))
		return -1;
	if (n > (in->len - in->pos) / min)
		return td_fail(in->err, in->errlen,
			       "offset %zu: %llu %s cannot fit in the %zu bytes left",
			       at, (unsigned long long)n, what, in->len - in->pos);
	*count = (uint32_t)n;
	return 0;
}

static int read_blobs(struct td_in *in, uint32_t n, const char *what,
		      struct td_blob **out)
{
	uint32_t i;

	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return td_fail(in->err, in->errlen, "out of memory");
	for (i = 0; i < n; i++)
		if (get_blob(in, 8, what, &(*out)[i]))
			return -1;
	return 0;
}

static int read_systems(struct td_in *in, struct td_file *tf)
{
	uint32_t i;

	if (get_count(in, "event systems", 5, &tf->nr_systems))
		return -1;
	tf->systems = calloc(tf->nr_systems ? tf->nr_systems : 1,
			     sizeof(*tf->systems));
	if (!tf->systems)
		return td_fail(in->err, in->errlen, "out of memory");
	for (i = 0; i < tf->nr_systems; i++) {
		struct td_system *s = &tf->systems[i];
		const uint8_t *end = memchr(in->buf + in->pos, '\0',
					    in->len - in->pos);

		if (!end || end == in->buf + in->pos ||
		    end - (in->buf + in->pos) > TD_NAME_MAX)
			return td_fail(in->err, in->errlen,
				       "offset %zu: expected a system name (1 to %d bytes and a NUL)",
				       in->pos, TD_NAME_MAX);
		s->name = (const char *)in->buf + in->pos;
		in->pos = (size_t)(end - in->buf) + 1;
		if (get_count(in, "event formats", 8, &s->nr_formats) ||
		    read_blobs(in, s->nr_formats, "event format", &s->formats))
			return -1;
	}
	return 0;
}

static int read_options(struct td_in *in, struct td_file *tf)
{
	for (;;) {
		struct td_option *o;
		size_t at = in->pos;
		uint64_t type;

		if (get_uint(in, 2, "option type", &type))
			return -1;
		if (!type)
			return 0;
		if (tf->nr_options >= (in->len - in->pos) / 4 + 1)
			return td_fail(in->err, in->errlen,
				       "offset %zu: more options than the file can hold",
				       at);
		o = realloc(tf->options, (tf->nr_options + 1) * sizeof(*o));
		if (!o)
			return td_fail(in->err, in->errlen, "out of memory");
		tf->options = o;
		o = &tf->options[tf->nr_options++];
		o->type = (uint16_t)type;
		if (get_blob(in, 4, "option", &o->data))
			return -1;
	}
}

static int read_flyrecord(struct td_in *in, struct td_file *tf)
{
	uint32_t i;

	if (tf->nr_cpus > (in->len - in->pos) / 16)
		return td_fail(in->err, in->errlen,
			       "offset %zu: a table of %u CPUs cannot fit in the %zu bytes left",
			       in->pos, tf->nr_cpus, in->len - in->pos);
	tf->cpu_data = calloc(tf->nr_cpus ? tf->nr_cpus : 1,
			      sizeof(*tf->cpu_data));
	tf->cpu_offsets = calloc(tf->nr_cpus ? tf->nr_cpus : 1,
				 sizeof(*tf->cpu_offsets));
	if (!tf->cpu_data || !tf->cpu_offsets)
		return td_fail(in->err, in->errlen, "out of memory");
	for (i = 0; i < tf->nr_cpus; i++) {
		size_t at = in->pos;
		uint64_t off, size;

		if (get_uint(in, 8, "CPU data offset", &off) ||
		    get_uint(in, 8, "CPU data size", &size))
			return -1;
		if (off > in->len || size > in->len - off)
			return td_fail(in->err, in->errlen,
				       "offset %zu: CPU %u's data (%llu bytes at %llu) lies past the end (%zu)",
				       at, i, (unsigned long long)size,
				       (unsigned long long)off, in->len);
		if (size && off < in->pos + 16ULL * (tf->nr_cpus - i - 1))
			return td_fail(in->err, in->errlen,
				       "offset %zu: CPU %u's data at %llu overlaps the header",
				       at, i, (unsigned long long)off);
		tf->cpu_offsets[i] = off;
		tf->cpu_data[i].data = in->buf + off;
		tf->cpu_data[i].len = (size_t)size;
	}
	return 0;
}

int td_read(const uint8_t *buf, size_t len, struct td_file *tf, char *err,
	    size_t errlen)
{
	struct td_in in = { .buf = buf, .len = len, .err = err,
			    .errlen = errlen };
	uint64_t v;

	memset(tf, 0, sizeof(*tf));
	tf->base = buf;
	if (expect(&in, (const char *)td_magic, sizeof(td_magic),
		   "the magic 0x17 0x08 0x44 \"tracing\""))
		goto fail;
	if (expect(&in, "6", 2, "version \"6\\0\" (the only one read)"))
		goto fail;
	if (need(&in, 2, "endianness and long size"))
		goto fail;
	if (in.buf[in.pos] > 1) {
		td_fail(err, errlen, "offset %zu: endianness %u: 0 or 1",
			in.pos, in.buf[in.pos]);
		goto fail;
	}
	in.big_endian = in.buf[in.pos];
	tf->big_endian = in.big_endian;
	tf->long_size = in.buf[in.pos + 1];
	if (tf->long_size != 4 && tf->long_size != 8) {
		td_fail(err, errlen, "offset %zu: long size %u: 4 or 8",
			in.pos + 1, tf->long_size);
		goto fail;
	}
	in.pos += 2;
	if (get_uint(&in, 4, "page size", &v))
		goto fail;
	if (v < 64 || v > (1 << 20) || v & (v - 1)) {
		td_fail(err, errlen, "offset %zu: page size %llu: a power of two from 64 to 1 MiB",
			in.pos - 4, (unsigned long long)v);
		goto fail;
	}
	tf->page_size = (uint32_t)v;
	if (expect(&in, "header_page", 12, "\"header_page\\0\"") ||
	    get_blob(&in, 8, "header_page", &tf->header_page) ||
	    expect(&in, "header_event", 13, "\"header_event\\0\"") ||
	    get_blob(&in, 8, "header_event", &tf->header_event) ||
	    get_count(&in, "ftrace formats", 8, &tf->nr_ftrace_formats) ||
	    read_blobs(&in, tf->nr_ftrace_formats, "ftrace format",
		       &tf->ftrace_formats) ||
	    read_systems(&in, tf) ||
	    get_blob(&in, 4, "kallsyms", &tf->kallsyms) ||
	    get_blob(&in, 4, "printk formats", &tf->printk_formats) ||
	    get_blob(&in, 8, "saved cmdlines", &tf->cmdlines) ||
	    get_uint(&in, 4, "CPU count", &v))
		goto fail;
	tf->nr_cpus = (uint32_t)v;
	if (need(&in, 10, "a section name"))
		goto fail;
	if (!memcmp(in.buf + in.pos, "options  ", 10)) {
		in.pos += 10;
		if (read_options(&in, tf) || need(&in, 10, "a section name"))
			goto fail;
	}
	if (!memcmp(in.buf + in.pos, "latency  ", 10)) {
		in.pos += 10;
		tf->mode = TD_LATENCY;
		tf->latency.data = in.buf + in.pos;
		tf->latency.len = in.len - in.pos;
		return 0;
	}
	if (expect(&in, "flyrecord", 10,
		   "\"flyrecord\\0\" or \"latency  \\0\" (or \"options  \\0\" once, first)") ||
	    read_flyrecord(&in, tf))
		goto fail;
	return 0;
fail:
	td_release(tf);
	return -1;
}

void td_release(struct td_file *tf)
{
	uint32_t i;

	for (i = 0; tf->systems && i < tf->nr_systems; i++)
		free(tf->systems[i].formats);
	free(tf->systems);
	free(tf->ftrace_formats);
	free(tf->options);
	free(tf->cpu_data);
	free(tf->cpu_offsets);
	memset(tf, 0, sizeof(*tf));
}
