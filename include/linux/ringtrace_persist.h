/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The persistent trace buffer's region as it is in memory
 * (Documentation/trace/ringtrace-flight-recorder.rst): page 0 holds
 * struct rtp_header, then come the event formats, the page CRCs and the
 * CPUs' slices of data pages.  In the CPU's byte order; the next boot of
 * the same architecture reads it.
 */
#ifndef _LINUX_RINGTRACE_PERSIST_H
#define _LINUX_RINGTRACE_PERSIST_H

#include <linux/types.h>

/* "RTPERSIS" in memory on a little-endian CPU. */
#define RTP_MAGIC		0x5349535245505452ULL
#define RTP_VERSION		1
/* Pages for the event formats: about 200 formats. */
#define RTP_FORMATS_PAGES	16

enum rtp_seal {
	RTP_UNSEALED,		/* the kernel ended without telling us */
	RTP_SEALED_PANIC,
	RTP_SEALED_REBOOT,	/* reboot, halt or power off */
	RTP_NR_SEALS,
};

/**
 * struct rtp_header - page 0 of the persistent region
 * @magic:	RTP_MAGIC once the region is set up
 * @version:	RTP_VERSION
 * @header_crc:	CRC32 of @version and what follows this up to @formats_len
 * @region_size: bytes of the region
 * @page_size:	PAGE_SIZE of the kernel that wrote it
 * @nr_cpus:	CPU numbers with a slice (nr_cpu_ids)
 * @slice_pages: pages of a slice: ring pages and one reader page
 * @meta_pages:	pages before the first slice
 * @formats_off: byte offset of the formats area in the region
 * @formats_size: its bytes
 * @crcs_off:	byte offset of the page CRC table
 * @reserved:	0
 * @text_offset: where the kernel's text was moved to (KASLR), 0 if not
 * @set_up:	wall-clock seconds when the region was set up
 * @kernel:	the kernel's release and version string
 * @formats_len: bytes of formats in the area
 * @formats_crc: their CRC32
 * @clock:	the trace clock of the records (trace_clock's name)
 * @clock_crc:	CRC32 of @clock
 * @sealed:	enum rtp_seal
 * @seal_crc:	CRC32 of @sealed, @reader_slot[] and the page CRCs
 * @reader_slot: per CPU number, the reader page's slot in its slice
 *
 * Everything before @formats_len is written once, when the region is set
 * up; the rest changes while the kernel runs.
 */
struct rtp_header {
	u64	magic;
	u32	version;
	u32	header_crc;
	u64	region_size;
	u32	page_size;
	u32	nr_cpus;
	u32	slice_pages;
	u32	meta_pages;
	u32	formats_off;
	u32	formats_size;
	u32	crcs_off;
	u32	reserved;
	u64	text_offset;
	u64	set_up;
	char	kernel[128];
	u32	formats_len;
	u32	formats_crc;
	char	clock[16];
	u32	clock_crc;
	u32	sealed;
	u32	seal_crc;
	u32	reader_slot[];
};

#endif /* _LINUX_RINGTRACE_PERSIST_H */
