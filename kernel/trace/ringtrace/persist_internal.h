/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The last boot's trace as the persistent region's check found it
 * (persist.c), for the files that show it: its pages and formats
 * (last_boot.c) and its text (last_boot_trace.c).
 */
#ifndef _RINGTRACE_PERSIST_INTERNAL_H
#define _RINGTRACE_PERSIST_INTERNAL_H

#include <linux/ringtrace_persist.h>
#include <linux/types.h>
#include <asm/page.h>

struct dentry;
struct rtb_data_page;

/**
 * struct rtp_field - a field of a last boot's event, from its format
 * @name:	its name
 * @offset:	where it is in the record's payload
 * @size:	its bytes (of the __data_loc word, for a dynamic one)
 * @is_signed:	a signed integer
 * @is_string:	a char array
 * @is_dynamic:	a __data_loc field: offset and length of the data
 */
struct rtp_field {
	char		name[32];
	unsigned int	offset;
	unsigned int	size;
	bool		is_signed;
	bool		is_string;
	bool		is_dynamic;
};

/**
 * struct rtp_format - one of the last boot's event formats, in the region
 * @text:	the format file's text
 * @len:	its bytes
 * @system:	the event's system
 * @name:	the event's name
 * @id:		its id in the last boot (common_type)
 * @fields:	its fields after the common ones; NULL if they do not parse
 * @nr_fields:	entries of @fields
 */
struct rtp_format {
	const char		*text;
	size_t			len;
	char			system[64];
	char			name[64];
	unsigned int		id;
	struct rtp_field	*fields;
	unsigned int		nr_fields;
};

struct rtp_last;

/**
 * struct rtp_cpu - a CPU's pages of the last boot, in time order
 * @last:	the last boot's trace it is part of
 * @cpu:	its CPU number in the last boot
 * @slots:	the pages' slots in the CPU's slice
 * @nr_slots:	entries of @slots
 * @records:	DATA records in them
 */
struct rtp_cpu {
	struct rtp_last	*last;
	unsigned int	cpu;
	u32		*slots;
	unsigned int	nr_slots;
	unsigned long	records;
};

/**
 * struct rtp_last - the last boot's trace
 * @cpus:	per CPU number of the last boot
 * @nr_cpus:	entries of @cpus
 * @records:	DATA records of all CPUs
 * @formats:	the event formats kept, oldest first
 * @nr_formats:	entries of @formats
 * @text_delta:	the last boot's text offset less this boot's: subtract it
 *		from a last boot's address to get this boot's
 * @same_kernel: the last boot ran this kernel, whose symbols are its
 * @gone:	the region is recording again: its files read nothing more
 *		(set under rtp_lock, read under RCU; a grace period follows)
 * @dir:	last_boot/
 * @hdr:	the region, its geometry checked
 */
struct rtp_last {
	struct rtp_cpu		*cpus;
	unsigned int		nr_cpus;
	unsigned long		records;
	struct rtp_format	*formats;
	unsigned int		nr_formats;
	unsigned long		text_delta;
	bool			same_kernel;
	bool			gone;
	struct dentry		*dir;
	struct rtp_header	*hdr;
};

/* A data page of region @base, whose geometry is @g's. */
static inline void *rtp_slot_page(const struct rtp_header *g, void *base,
				  unsigned int cpu, unsigned int slot)
{
	return base + ((unsigned long)g->meta_pages +
		       (unsigned long)cpu * g->slice_pages + slot) * PAGE_SIZE;
}

/* A data page of region @h, by its own geometry (checked). */
static inline void *rtp_data_page(struct rtp_header *h, unsigned int cpu,
				  unsigned int slot)
{
	return rtp_slot_page(h, h, cpu, slot);
}

/* last_boot.c */
const char *rtp_parse_formats(struct rtp_header *h, struct rtp_last *last);
int rtp_entry_id(const char *entry);
void rtp_free_last(struct rtp_last *last);
struct rtb_data_page *rtp_last_page(struct rtp_last *last, unsigned int cpu,
				    unsigned int index);
void rtp_show_pages(struct rtp_last *last, struct dentry *dir);
/* last_boot_trace.c */
void rtp_show_trace(struct rtp_last *last, struct dentry *dir);

#if IS_ENABLED(CONFIG_KUNIT)
/* persist.c: the check of a region not trusted. */
const char *rtp_check(struct rtp_header *h, unsigned long size,
		      struct rtp_last **lastp, char *why, size_t why_size);
#endif

#endif /* _RINGTRACE_PERSIST_INTERNAL_H */
