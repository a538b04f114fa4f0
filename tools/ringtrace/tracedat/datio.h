/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pieces trace.dat versions 6 and 7 share: numbers in the file's
 * endianness, sized blobs, counts checked against what is left, and the
 * event systems' list.  A reader never trusts a size it has not checked
 * against the bytes left, so a bad file ends in an error naming the
 * offset, never in a crash or a loop.
 */
#ifndef TRACEDAT_DATIO_H
#define TRACEDAT_DATIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "datfile.h"

extern const uint8_t td_magic[10];

/* Longest system, section or compression name read. */
#define TD_NAME_MAX	256

/* Print @fmt into @err; returns -1. */
int td_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct td_out {
	FILE		*f;
	int		big_endian;
	uint64_t	pos;
	int		failed;
};

/* @v as @bytes bytes at @p, big-endian if @big_endian. */
void td_store_uint(uint8_t *p, uint64_t v, int bytes, int big_endian);
void td_put(struct td_out *o, const void *p, size_t n);
void td_put_uint(struct td_out *o, uint64_t v, int bytes);
void td_put_zeros(struct td_out *o, uint64_t n);
/* A size of @size_bytes bytes, then the blob. */
void td_put_blob(struct td_out *o, const struct td_blob *b, int size_bytes);
/* "header_page\0", its blob, "header_event\0", its blob. */
void td_put_headers(struct td_out *o, const struct td_file *tf);

/*
 * Bytes being read.  Offsets in messages are @base + the position: the
 * file's offsets for the file itself or a stored section, the offsets in
 * the decompressed bytes for a compressed one, which @within then names.
 */
struct td_in {
	const uint8_t	*buf;
	size_t		len, pos;
	int		big_endian;
	size_t		base;
	const char	*within;
	char		*err;
	size_t		errlen;
};

/* "[within: ]offset BASE+POS: " and @fmt into in->err; returns -1. */
int td_in_fail(const struct td_in *in, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* At least @n bytes left, else an error naming @what. */
int td_need(struct td_in *in, size_t n, const char *what);
int td_get_uint(struct td_in *in, int bytes, const char *what, uint64_t *v);
/* A size (of @bytes bytes) and that many bytes after it. */
int td_get_blob(struct td_in *in, int bytes, const char *what,
		struct td_blob *b);
/* The @n bytes of @s, exactly, at the current offset. */
int td_expect(struct td_in *in, const char *s, size_t n, const char *what);
/* A NUL-terminated string of at most TD_NAME_MAX bytes (empty if @empty_ok). */
int td_get_string(struct td_in *in, const char *what, int empty_ok,
		  const char **s);
/* A count of items that each take at least @min bytes: bounded by the file. */
int td_get_count(struct td_in *in, const char *what, size_t min,
		 uint32_t *count);
/* @n blobs with 8-byte sizes, into a new array. */
int td_read_blobs(struct td_in *in, uint32_t n, const char *what,
		  struct td_blob **out);
/* The count of event systems, then each one's name and formats. */
int td_read_systems(struct td_in *in, struct td_file *tf);
/* The header_page and header_event blobs, each after its name. */
int td_read_headers(struct td_in *in, struct td_file *tf);

/* Version 7, after the file header's page size (datfile7.c). */
int td_read_v7(struct td_in *in, struct td_file *tf);
int td_write_v7(FILE *f, const struct td_file *tf, char *err, size_t errlen);

#endif
