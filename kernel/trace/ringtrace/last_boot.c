// SPDX-License-Identifier: GPL-2.0
/*
 * The last boot's trace as the persistent region holds it (persist.c
 * checks the region and hands it over): its event formats parsed from the
 * formats area, its pages in time order, last_boot/per_cpu/cpuN/
 * trace_pipe_raw and last_boot/events/SYSTEM/EVENT/format.  The text,
 * last_boot/trace, is last_boot_trace.c's.
 *
 * Everything here reads the region only while it holds the last boot's
 * trace: the files check @gone under RCU (rtp_keep_write() sets it, then
 * waits for a grace period before the region records again).
 */

#include <kunit/visibility.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/ringtrace_persist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "dir.h"
#include "persist_internal.h"
#include "record_layout.h"

/*
 * Parse one "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;" line of @f's
 * format into @field.  False if it is not one.
 */
static bool rtp_parse_field(const char *line, struct rtp_field *field)
{
	char decl[128], *name, *bracket;
	int is_signed;

	if (sscanf(line, "\tfield:%127[^;];\toffset:%u;\tsize:%u;\tsigned:%d;",
		   decl, &field->offset, &field->size, &is_signed) != 4)
		return false;
	field->is_signed = is_signed;
	field->is_dynamic = str_has_prefix(decl, "__data_loc ");
	field->is_string = strstr(decl, "char") && strchr(decl, '[');
	name = strrchr(decl, ' ');
	name = name ? name + 1 : decl;
	bracket = strchr(name, '[');
	if (bracket)
		*bracket = '\0';
	return strscpy(field->name, name, sizeof(field->name)) > 0;
}

/**
 * rtp_parse_fields() - the fields of a last boot's format, after the
 *	common ones
 * @f: the format; @f->fields and @f->nr_fields are set
 *
 * Return: 0, or -EINVAL or -ENOMEM (@f->fields stays NULL: its records
 * print without fields).
 */
static int rtp_parse_fields(struct rtp_format *f)
{
	const char *p = f->text, *end = f->text + f->len, *nl;
	struct rtp_field field, *fields;
	unsigned int n = 0, max = 0;
	char line[192];

	for (p = f->text; p < end; p++)
		max += *p == '\n';
	fields = kcalloc(max(max, 1U), sizeof(*fields), GFP_KERNEL);
	if (!fields)
		return -ENOMEM;
	for (p = f->text; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			break;
		if (str_has_prefix(p, "print fmt:"))
			break;
		strscpy(line, p, min_t(size_t, nl - p + 1, sizeof(line)));
		if (!rtp_parse_field(line, &field) ||
		    str_has_prefix(field.name, "common_"))
			continue;
		fields[n++] = field;
	}
	f->fields = fields;
	f->nr_fields = n;
	return 0;
}

/**
 * rtp_free_last() - free what rtp_parse_formats() and the boot check made
 * @last: the last boot's trace, or NULL
 */
void rtp_free_last(struct rtp_last *last)
{
	unsigned int cpu;

	if (!last)
		return;
	if (last->cpus)
		for (cpu = 0; cpu < last->nr_cpus; cpu++)
			kfree(last->cpus[cpu].slots);
	kfree(last->cpus);
	if (last->formats)
		for (cpu = 0; cpu < last->nr_formats; cpu++) {
			kfree(last->formats[cpu].fields);
			kfree(last->formats[cpu].text);
		}
	kfree(last->formats);
	kfree(last);
}
EXPORT_SYMBOL_IF_KUNIT(rtp_free_last);

/**
 * rtp_last_page() - a page of the last boot's trace
 * @last: the last boot's trace
 * @cpu: a CPU number of the last boot
 * @index: which of its pages, in time order
 *
 * Return: the page, in the region.
 */
struct rtb_data_page *rtp_last_page(struct rtp_last *last, unsigned int cpu,
				    unsigned int index)
{
	return rtp_data_page(last->hdr, cpu, last->cpus[cpu].slots[index]);
}

/* The id of a formats entry ("system: S\nname: N\nID: I\n..."), or -1. */
int rtp_entry_id(const char *entry)
{
	const char *id = strstr(entry, "\nID: ");
	unsigned int n;

	return id && sscanf(id, "\nID: %u", &n) == 1 ? n : -1;
}

/**
 * rtp_parse_formats() - the last boot's event formats
 * @h: the region, its formats area's CRC checked
 * @last: receives them (free with rtp_free_last())
 *
 * The formats area holds entries one after the other, each "system: SYS"
 * and a newline, the event's format file, and a NUL.  Split it into
 * @last's formats.
 *
 * Return: why it cannot be read, or NULL.
 */
const char *rtp_parse_formats(struct rtp_header *h, struct rtp_last *last)
{
	const char *area = (void *)h + h->formats_off, *p, *end;
	unsigned int n = 0, max = 0;
	struct rtp_format *f;
	int id;

	for (p = area; p < area + h->formats_len; p++)
		max += !*p;
	if (h->formats_len && area[h->formats_len - 1])
		return "event formats not ended";
	last->formats = kcalloc(max(max, 1U), sizeof(*f), GFP_KERNEL);
	if (!last->formats)
		return "out of memory";
	for (p = area; p < area + h->formats_len; p = end + 1) {
		end = p + strlen(p);
		f = &last->formats[n];
		if (sscanf(p, "system: %63[^/\n] name: %63[^/\n]", f->system,
			   f->name) != 2)
			return "event format without a system or name";
		/* A copy: the region is recorded over once it is given up. */
		f->len = end - (strchr(p, '\n') + 1);
		f->text = kmemdup(strchr(p, '\n') + 1, f->len, GFP_KERNEL);
		if (!f->text)
			return "out of memory";
		/* Its records are shown raw if its fields do not parse. */
		id = rtp_entry_id(p);
		if (id < 0)
			return "event format without an ID";
		f->id = id;
		n++;
		last->nr_formats = n;
		rtp_parse_fields(f);
	}
	last->nr_formats = n;
	return NULL;
}

/*
 * last_boot/per_cpu/cpuN/trace_pipe_raw: the CPU's pages in time order,
 * as trace_pipe_raw shows pages, each whole; reading does not consume.
 * Bytes past a page's records are zeroes, not what the page held.
 */
static ssize_t rtp_raw_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct rtp_cpu *c = file->private_data;
	struct rtb_data_page *page, *copy;
	unsigned long index, off, commit;
	ssize_t ret;

	if (*ppos < 0)
		return -EINVAL;
	index = *ppos >> PAGE_SHIFT;
	off = *ppos & ~PAGE_MASK;
	if (index >= c->nr_slots || !count)
		return 0;
	copy = (void *)get_zeroed_page(GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	/* Pairs with the grace period after @gone in rtp_keep_write(). */
	rcu_read_lock();
	if (READ_ONCE(c->last->gone)) {
		rcu_read_unlock();
		free_page((unsigned long)copy);
		return -ENODEV;
	}
	page = rtp_last_page(c->last, c->cpu, index);
	commit = min_t(unsigned long, page->commit, RTB_PAGE_DATA_SIZE);
	copy->time_stamp = page->time_stamp;
	copy->commit = commit;
	memcpy(copy->data, page->data, commit);
	rcu_read_unlock();
	/* As the live trace_pipe_raw gives pages out. */
	rtb_page_to_current_layout(copy);
	count = min_t(size_t, count, PAGE_SIZE - off);
	ret = copy_to_user(ubuf, (void *)copy + off, count) ? -EFAULT : count;
	free_page((unsigned long)copy);
	if (ret > 0)
		*ppos += ret;
	return ret;
}

static int rtp_raw_open(struct inode *inode, struct file *file)
{
	file->private_data = inode->i_private;
	return 0;
}

static const struct file_operations rtp_raw_fops = {
	.open	= rtp_raw_open,
	.read	= rtp_raw_read,
	.llseek	= default_llseek,
};

static ssize_t rtp_format_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct rtp_format *f = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, f->text, f->len);
}

static int rtp_format_open(struct inode *inode, struct file *file)
{
	file->private_data = inode->i_private;
	return 0;
}

static const struct file_operations rtp_format_fops = {
	.open	= rtp_format_open,
	.read	= rtp_format_read,
	.llseek	= default_llseek,
};

/*
 * last_boot/events/SYSTEM/EVENT/format.  An event enabled twice with
 * different formats (a kprobe event redefined) has both in the area: the
 * later one is shown, the one that was in force last.
 */
static void rtp_show_formats(struct rtp_last *last, struct dentry *dir)
{
	struct dentry *events, *sys, *ev;
	struct rtp_format *f;
	int i;

	events = ringtrace_add_dir("events", dir);
	if (IS_ERR(events))
		return;
	for (i = last->nr_formats - 1; i >= 0; i--) {
		f = &last->formats[i];
		sys = debugfs_lookup(f->system, events);
		if (sys) {
			/* In the tree until last_boot/ goes: no reference kept. */
			dput(sys);
		} else {
			sys = ringtrace_add_dir(f->system, events);
			if (IS_ERR(sys))
				continue;
		}
		ev = ringtrace_add_dir(f->name, sys);
		/* Made already: a later format of the same event. */
		if (IS_ERR(ev))
			continue;
		ringtrace_add_file("format", 0400, ev, f, &rtp_format_fops,
				   NULL);
	}
}

/**
 * rtp_show_pages() - last_boot/per_cpu/cpuN/trace_pipe_raw and
 *	last_boot/events/SYSTEM/EVENT/format
 * @last: the last boot's trace
 * @dir: last_boot/
 */
void rtp_show_pages(struct rtp_last *last, struct dentry *dir)
{
	struct dentry *per_cpu, *cpu_dir;
	char name[16];
	unsigned int cpu;

	per_cpu = ringtrace_add_dir("per_cpu", dir);
	for (cpu = 0; cpu < last->nr_cpus && !IS_ERR(per_cpu); cpu++) {
		snprintf(name, sizeof(name), "cpu%u", cpu);
		cpu_dir = ringtrace_add_dir(name, per_cpu);
		if (IS_ERR(cpu_dir))
			break;
		ringtrace_add_file("trace_pipe_raw", 0400, cpu_dir,
				   &last->cpus[cpu], &rtp_raw_fops,
				   cpu ? NULL :
				   "the last boot's pages of a CPU, in time order, not consumed");
	}
	rtp_show_formats(last, dir);
}
