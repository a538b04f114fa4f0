// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat version 6, written and read section by section in the order
 * of Documentation/trace/trace-dat.rst, and the file header both versions
 * share (version 7's sections: datfile7.c).  The reader trusts nothing:
 * every count and size is checked against what is left before it is used,
 * so a bad file ends in an error naming the offset, never in a crash or
 * loop.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "datio.h"

/* Writing */

static int write_v6(FILE *f, const struct td_file *tf, char *err,
		    size_t errlen)
{
	struct td_out o = { .f = f, .big_endian = tf->big_endian };
	uint8_t flags[2] = { (uint8_t)!!tf->big_endian, tf->long_size };
	uint32_t i, j;
	uint64_t off;

	td_put(&o, td_magic, sizeof(td_magic));
	td_put(&o, "6", 2);
	td_put(&o, flags, 2);
	td_put_uint(&o, tf->page_size, 4);
	td_put_headers(&o, tf);
	td_put_uint(&o, tf->nr_ftrace_formats, 4);
	for (i = 0; i < tf->nr_ftrace_formats; i++)
		td_put_blob(&o, &tf->ftrace_formats[i], 8);
	td_put_uint(&o, tf->nr_systems, 4);
	for (i = 0; i < tf->nr_systems; i++) {
		const struct td_system *s = &tf->systems[i];

		td_put(&o, s->name, strlen(s->name) + 1);
		td_put_uint(&o, s->nr_formats, 4);
		for (j = 0; j < s->nr_formats; j++)
			td_put_blob(&o, &s->formats[j], 8);
	}
	td_put_blob(&o, &tf->kallsyms, 4);
	td_put_blob(&o, &tf->printk_formats, 4);
	td_put_blob(&o, &tf->cmdlines, 8);
	td_put_uint(&o, tf->nr_cpus, 4);
	/* Always an options section, if only its closing type 0. */
	td_put(&o, "options  ", 10);
	for (i = 0; i < tf->nr_options; i++) {
		td_put_uint(&o, tf->options[i].type, 2);
		td_put_blob(&o, &tf->options[i].data, 4);
	}
	td_put_uint(&o, 0, 2);
	if (tf->meta_only)
		goto out;
	if (tf->mode == TD_LATENCY) {
		td_put(&o, "latency  ", 10);
		td_put(&o, tf->latency.data, tf->latency.len);
		goto out;
	}
	td_put(&o, "flyrecord", 10);
	/* The CPUs' data follows the table, each on a page boundary. */
	off = (uint64_t)o.pos + 16ULL * tf->nr_cpus;
	for (i = 0; i < tf->nr_cpus; i++) {
		off = (off + tf->page_size - 1) & ~(uint64_t)(tf->page_size - 1);
		td_put_uint(&o, off, 8);
		td_put_uint(&o, tf->cpu_data[i].len, 8);
		off += tf->cpu_data[i].len;
	}
	for (i = 0; i < tf->nr_cpus; i++) {
		td_put_zeros(&o, (tf->page_size - (uint64_t)o.pos % tf->page_size) %
			  tf->page_size);
		td_put(&o, tf->cpu_data[i].data, tf->cpu_data[i].len);
	}
out:
	if (o.failed || fflush(f))
		return td_fail(err, errlen, "write failed at offset %llu",
			       (unsigned long long)o.pos);
	return 0;
}

int td_write(FILE *f, const struct td_file *tf, char *err, size_t errlen)
{
	if (tf->long_size != 4 && tf->long_size != 8)
		return td_fail(err, errlen, "long size %u: 4 or 8", tf->long_size);
	/* What td_read() takes. */
	if (tf->page_size < 64 || tf->page_size > (1 << 20) ||
	    tf->page_size & (tf->page_size - 1))
		return td_fail(err, errlen, "page size %u: a power of two from 64 to 1 MiB",
			       tf->page_size);
	if (tf->version == 7)
		return td_write_v7(f, tf, err, errlen);
	if (tf->version && tf->version != 6)
		return td_fail(err, errlen, "version %u: 6 or 7", tf->version);
	return write_v6(f, tf, err, errlen);
}

/* Reading */

static int read_options(struct td_in *in, struct td_file *tf)
{
	for (;;) {
		struct td_option *o;
		size_t at = in->pos;
		uint64_t type;

		if (td_get_uint(in, 2, "option type", &type))
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
		if (td_get_blob(in, 4, "option", &o->data))
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

		if (td_get_uint(in, 8, "CPU data offset", &off) ||
		    td_get_uint(in, 8, "CPU data size", &size))
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

/* After the file's header: the sections of version 6, in their order. */
static int read_v6(struct td_in *in, struct td_file *tf)
{
	uint64_t v;

	if (td_read_headers(in, tf) ||
	    td_get_count(in, "ftrace formats", 8, &tf->nr_ftrace_formats) ||
	    td_read_blobs(in, tf->nr_ftrace_formats, "ftrace format",
			  &tf->ftrace_formats) ||
	    td_read_systems(in, tf) ||
	    td_get_blob(in, 4, "kallsyms", &tf->kallsyms) ||
	    td_get_blob(in, 4, "printk formats", &tf->printk_formats) ||
	    td_get_blob(in, 8, "saved cmdlines", &tf->cmdlines) ||
	    td_get_uint(in, 4, "CPU count", &v))
		return -1;
	tf->nr_cpus = (uint32_t)v;
	if (td_need(in, 10, "a section name"))
		return -1;
	if (!memcmp(in->buf + in->pos, "options  ", 10)) {
		in->pos += 10;
		if (read_options(in, tf) || td_need(in, 10, "a section name"))
			return -1;
	}
	if (!memcmp(in->buf + in->pos, "latency  ", 10)) {
		in->pos += 10;
		tf->mode = TD_LATENCY;
		tf->latency.data = in->buf + in->pos;
		tf->latency.len = in->len - in->pos;
		return 0;
	}
	return td_expect(in, "flyrecord", 10,
			 "\"flyrecord\\0\" or \"latency  \\0\" (or \"options  \\0\" first)") ||
	       read_flyrecord(in, tf) ? -1 : 0;
}

int td_read(const uint8_t *buf, size_t len, struct td_file *tf, char *err,
	    size_t errlen)
{
	struct td_in in = { .buf = buf, .len = len, .err = err,
			    .errlen = errlen };
	uint64_t v;

	memset(tf, 0, sizeof(*tf));
	tf->base = buf;
	tf->base_len = len;
	if (td_expect(&in, (const char *)td_magic, sizeof(td_magic),
		      "the magic 0x17 0x08 0x44 \"tracing\""))
		goto fail;
	if (td_need(&in, 2, "the version"))
		goto fail;
	if (!memcmp(in.buf + in.pos, "6", 2) || !memcmp(in.buf + in.pos, "7", 2)) {
		tf->version = in.buf[in.pos] - '0';
		in.pos += 2;
	} else if (td_expect(&in, "6", 2, "version \"6\\0\" or \"7\\0\" (the ones read)")) {
		goto fail;
	}
	if (td_need(&in, 2, "endianness and long size"))
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
	if (td_get_uint(&in, 4, "page size", &v))
		goto fail;
	if (v < 64 || v > (1 << 20) || v & (v - 1)) {
		td_fail(err, errlen, "offset %zu: page size %llu: a power of two from 64 to 1 MiB",
			in.pos - 4, (unsigned long long)v);
		goto fail;
	}
	tf->page_size = (uint32_t)v;
	if (tf->version == 7 ? td_read_v7(&in, tf) : read_v6(&in, tf))
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
	for (i = 0; i < tf->nr_owned; i++)
		free(tf->owned[i]);
	free(tf->owned);
	memset(tf, 0, sizeof(*tf));
}
