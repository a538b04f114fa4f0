// SPDX-License-Identifier: GPL-2.0
/*
 * zlib and zstd for trace.dat version 7.  Each compressed block of the
 * file is one zlib stream (compress2()/uncompress(), as trace-cmd writes
 * them) or one zstd frame, with its uncompressed size next to it in the
 * file: a block that inflates to any other size is corrupt.
 */
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "codec.h"

int td_codec_by_name(const char *name, enum td_codec *codec)
{
	if (!strcmp(name, "none"))
		*codec = TD_CODEC_NONE;
	else if (!strcmp(name, "zlib"))
		*codec = TD_CODEC_ZLIB;
	else if (!strcmp(name, "zstd"))
		*codec = TD_CODEC_ZSTD;
	else
		return -1;
	return 0;
}

const char *td_codec_name(enum td_codec codec)
{
	switch (codec) {
	case TD_CODEC_ZLIB:
		return "zlib";
	case TD_CODEC_ZSTD:
		return "zstd";
	default:
		return "none";
	}
}

const char *td_codec_version(enum td_codec codec)
{
	switch (codec) {
	case TD_CODEC_ZLIB:
		return zlibVersion();
	case TD_CODEC_ZSTD:
		return ZSTD_versionString();
	default:
		return "";
	}
}

size_t td_compress_bound(enum td_codec codec, size_t len)
{
	switch (codec) {
	case TD_CODEC_ZLIB:
		return compressBound((uLong)len);
	case TD_CODEC_ZSTD:
		return ZSTD_compressBound(len);
	default:
		return len;
	}
}

int td_compress(enum td_codec codec, const uint8_t *in, size_t len,
		uint8_t *out, size_t *out_len)
{
	uLongf zlen = (uLongf)*out_len;
	size_t n;

	switch (codec) {
	case TD_CODEC_ZLIB:
		if (compress2(out, &zlen, in, (uLong)len, Z_BEST_COMPRESSION) != Z_OK)
			return -1;
		*out_len = zlen;
		return 0;
	case TD_CODEC_ZSTD:
		n = ZSTD_compress(out, *out_len, in, len, ZSTD_CLEVEL_DEFAULT);
		if (ZSTD_isError(n))
			return -1;
		*out_len = n;
		return 0;
	default:
		if (len > *out_len)
			return -1;
		memcpy(out, in, len);
		*out_len = len;
		return 0;
	}
}

int td_codec_size_ok(enum td_codec codec, const uint8_t *in, size_t len,
		     uint64_t out_len)
{
	unsigned long long named;

	if (!out_len)
		return 1;
	switch (codec) {
	case TD_CODEC_ZLIB:
		return out_len <= (uint64_t)len * 1032 + 64;
	case TD_CODEC_ZSTD:
		/* One frame a block, as ZSTD_compress() makes them. */
		named = ZSTD_getFrameContentSize(in, len);
		if (named == ZSTD_CONTENTSIZE_ERROR)
			return 0;
		if (named != ZSTD_CONTENTSIZE_UNKNOWN)
			return named == out_len;
		return out_len <= (uint64_t)len * 32768;
	default:
		return out_len == len;
	}
}

int td_decompress(enum td_codec codec, const uint8_t *in, size_t len,
		  uint8_t *out, size_t out_len)
{
	uLongf zlen = (uLongf)out_len;
	size_t n;

	switch (codec) {
	case TD_CODEC_ZLIB:
		if (uncompress(out, &zlen, in, (uLong)len) != Z_OK)
			return -1;
		return zlen == out_len ? 0 : -1;
	case TD_CODEC_ZSTD:
		n = ZSTD_decompress(out, out_len, in, len);
		return !ZSTD_isError(n) && n == out_len ? 0 : -1;
	default:
		if (len != out_len)
			return -1;
		memcpy(out, in, len);
		return 0;
	}
}
