// SPDX-License-Identifier: GPL-2.0
/*
 * The pieces trace.dat versions 6 and 7 share (datio.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "datio.h"

const uint8_t td_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i',
			       'n', 'g' };

int td_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Writing */

void td_put(struct td_out *o, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, o->f) != n)
		o->failed = 1;
	o->pos += n;
}

void td_store_uint(uint8_t *p, uint64_t v, int bytes, int big_endian)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[big_endian ? bytes - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

void td_put_uint(struct td_out *o, uint64_t v, int bytes)
{
	uint8_t b[8];

	td_store_uint(b, v, bytes, o->big_endian);
	td_put(o, b, (size_t)bytes);
}

void td_put_zeros(struct td_out *o, uint64_t n)
{
	static const uint8_t zeros[4096];

	while (n) {
		size_t k = n > sizeof(zeros) ? sizeof(zeros) : (size_t)n;

		td_put(o, zeros, k);
		n -= k;
	}
}

void td_put_blob(struct td_out *o, const struct td_blob *b, int size_bytes)
{
	td_put_uint(o, b->len, size_bytes);
	td_put(o, b->data, b->len);
}

/* Reading */

int td_in_fail(const struct td_in *in, size_t pos, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	snprintf(in->err, in->errlen, "%s%soffset %zu: ",
		 in->within ? in->within : "", in->within ? ": " : "",
		 in->base + pos);
	n = strlen(in->err);
	va_start(ap, fmt);
	vsnprintf(in->err + n, in->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

int td_need(struct td_in *in, size_t n, const char *what)
{
	if (in->len - in->pos >= n)
		return 0;
	return td_in_fail(in, in->pos, "truncated: %s needs %zu bytes, %zu left",
			  what, n, in->len - in->pos);
}

int td_get_uint(struct td_in *in, int bytes, const char *what, uint64_t *v)
{
	int i;

	if (td_need(in, (size_t)bytes, what))
		return -1;
	*v = 0;
	for (i = 0; i < bytes; i++)
		*v |= (uint64_t)in->buf[in->pos + (in->big_endian ?
					(size_t)(bytes - 1 - i) : (size_t)i)] << (8 * i);
	in->pos += (size_t)bytes;
	return 0;
}

int td_get_blob(struct td_in *in, int bytes, const char *what,
		struct td_blob *b)
{
	size_t at = in->pos;
	uint64_t n;

	if (td_get_uint(in, bytes, what, &n))
		return -1;
	if (n > in->len - in->pos)
		return td_in_fail(in, at, "%s of %llu bytes, only %zu left in the %s",
				  what, (unsigned long long)n, in->len - in->pos,
				  in->within ? "section" : "file");
	b->data = in->buf + in->pos;
	b->len = (size_t)n;
	in->pos += (size_t)n;
	return 0;
}

int td_expect(struct td_in *in, const char *s, size_t n, const char *what)
{
	if (td_need(in, n, what))
		return -1;
	if (memcmp(in->buf + in->pos, s, n))
		return td_in_fail(in, in->pos, "expected %s", what);
	in->pos += n;
	return 0;
}

int td_get_string(struct td_in *in, const char *what, int empty_ok,
		  const char **s)
{
	const uint8_t *start = in->buf + in->pos;
	const uint8_t *end = memchr(start, '\0', in->len - in->pos);

	if (!end || (end == start && !empty_ok) || end - start > TD_NAME_MAX)
		return td_in_fail(in, in->pos,
				  "expected %s (%d to %d bytes and a NUL)", what,
				  !empty_ok, TD_NAME_MAX);
	*s = (const char *)start;
	in->pos = (size_t)(end - in->buf) + 1;
	return 0;
}

int td_get_count(struct td_in *in, const char *what, size_t min,
		 uint32_t *count)
{
	size_t at = in->pos;
	uint64_t n;

	if (td_get_uint(in, 4, what, &n))
		return -1;
	if (n > (in->len - in->pos) / min)
		return td_in_fail(in, at, "%llu %s cannot fit in the %zu bytes left",
				  (unsigned long long)n, what, in->len - in->pos);
	*count = (uint32_t)n;
	return 0;
}

int td_read_blobs(struct td_in *in, uint32_t n, const char *what,
		  struct td_blob **out)
{
	uint32_t i;

	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return td_fail(in->err, in->errlen, "out of memory");
	for (i = 0; i < n; i++)
		if (td_get_blob(in, 8, what, &(*out)[i]))
			return -1;
	return 0;
}

int td_read_systems(struct td_in *in, struct td_file *tf)
{
	uint32_t i;

	if (td_get_count(in, "event systems", 5, &tf->nr_systems))
		return -1;
	tf->systems = calloc(tf->nr_systems ? tf->nr_systems : 1,
			     sizeof(*tf->systems));
	if (!tf->systems)
		return td_fail(in->err, in->errlen, "out of memory");
	for (i = 0; i < tf->nr_systems; i++) {
		struct td_system *s = &tf->systems[i];

		if (td_get_string(in, "a system name", 0, &s->name) ||
		    td_get_count(in, "event formats", 8, &s->nr_formats) ||
		    td_read_blobs(in, s->nr_formats, "event format",
				  &s->formats))
			return -1;
	}
	return 0;
}

int td_read_headers(struct td_in *in, struct td_file *tf)
{
	return td_expect(in, "header_page", 12, "\"header_page\\0\"") ||
	       td_get_blob(in, 8, "header_page", &tf->header_page) ||
	       td_expect(in, "header_event", 13, "\"header_event\\0\"") ||
	       td_get_blob(in, 8, "header_event", &tf->header_event) ? -1 : 0;
}

void td_put_headers(struct td_out *o, const struct td_file *tf)
{
	td_put(o, "header_page", 12);
	td_put_blob(o, &tf->header_page, 8);
	td_put(o, "header_event", 13);
	td_put_blob(o, &tf->header_event, 8);
}
