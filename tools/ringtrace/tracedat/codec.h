/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compressions of trace.dat version 7, through the system's libraries
 * (zlib, libzstd), under the names trace-cmd writes in the file header.
 */
#ifndef TRACEDAT_CODEC_H
#define TRACEDAT_CODEC_H

#include <stddef.h>
#include <stdint.h>

enum td_codec { TD_CODEC_NONE, TD_CODEC_ZLIB, TD_CODEC_ZSTD };

/* "none", "zlib" or "zstd" to its codec: 0, or -1 for another name. */
int td_codec_by_name(const char *name, enum td_codec *codec);
const char *td_codec_name(enum td_codec codec);
/* The library's version, written next to the name ("" for none). */
const char *td_codec_version(enum td_codec codec);

/* The most bytes td_compress() can make of @len bytes. */
size_t td_compress_bound(enum td_codec codec, size_t len);

/*
 * Compress @len bytes at @in into @out, which has *@out_len bytes (at
 * least td_compress_bound()); *@out_len becomes the compressed size.
 * Returns 0, or -1 (the library failed).
 */
int td_compress(enum td_codec codec, const uint8_t *in, size_t len,
		uint8_t *out, size_t *out_len);

/*
 * Whether the @len compressed bytes at @in can make @out_len bytes: a
 * zstd block (one frame) that names its size must name that one; otherwise within
 * what the codec can make of @len bytes (zlib: 1032 to 1; zstd: 32768 to
 * 1, a block of one repeated byte).  A check before taking memory for a
 * size a file gives, not a proof that the bytes decompress.
 */
int td_codec_size_ok(enum td_codec codec, const uint8_t *in, size_t len,
		     uint64_t out_len);

/*
 * Decompress the @len bytes at @in, which must give exactly @out_len
 * bytes, into @out.  Returns 0, or -1: corrupt data, or a size other than
 * @out_len.
 */
int td_decompress(enum td_codec codec, const uint8_t *in, size_t len,
		  uint8_t *out, size_t out_len);

#endif
