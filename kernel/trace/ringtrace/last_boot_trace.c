// SPDX-License-Identifier: GPL-2.0
/*
 * last_boot/trace: the last boot's records as text, every CPU's merged by
 * time, decoded with the formats that boot kept (last_boot.c), not
 * with this boot's events, whose ids may mean other events.
 *
 * The last boot's task names are not kept: a record shows "<...>" and its
 * pid.  Fields print as NAME=VALUE: char arrays and __data_loc strings as
 * text, integers in decimal if signed and in hex if not; an unsigned long
 * that is an address in the core kernel's text prints as its symbol when
 * the last boot ran this kernel, moved by the two boots' text offsets
 * (KASLR); module addresses stay numbers (modules load elsewhere).
 * trace_marker's records print their text as trace does.
 */

#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/unaligned.h>

#include "dir.h"
#include "filter.h"
#include "persist_internal.h"
#include "record_layout.h"
#include "trace.h"

/* A CPU's place in the last boot's pages. */
struct rtp_cursor {
	unsigned int		index;		/* page, in time order */
	struct rtb_data_page	*page;
	unsigned int		off;
	unsigned int		end;
	u64			ts;		/* of the record before @off */
	bool			peeked;		/* @ev is the next record */
	struct rtb_event	*ev;
	unsigned int		ev_len;
	u64			ev_ts;
};

struct rtp_trace_iter {
	struct rtp_last		*last;
	loff_t			pos;		/* of the record at @cpu */
	int			cpu;		/* next record's CPU, or -1 */
	struct rtp_cursor	cur[];
};

/* The next DATA record of @cpu, or false at its end. */
static bool rtp_peek(struct rtp_trace_iter *it, unsigned int cpu)
{
	struct rtp_cursor *c = &it->cur[cpu];
	struct rtb_event *ev;
	unsigned int len, type;
	u64 delta;

	while (!c->peeked) {
		if (!c->page || c->off >= c->end) {
			if (c->page)
				c->index++;
			if (c->index >= it->last->cpus[cpu].nr_slots)
				return false;
			c->page = rtp_last_page(it->last, cpu, c->index);
			c->off = 0;
			c->end = min_t(unsigned long, c->page->commit,
				       RTB_PAGE_DATA_SIZE);
			c->ts = c->page->time_stamp;
			continue;
		}
		ev = (struct rtb_event *)&c->page->data[c->off];
		len = rtb_event_decode(ev, c->end - c->off, &type, &delta);
		/* Checked at boot; a page that changed since ends here. */
		if (!len) {
			c->off = c->end;
			c->index = it->last->cpus[cpu].nr_slots;
			return false;
		}
		c->ts += delta;
		c->off += len;
		if (type == RTB_TYPE_DATA) {
			c->ev = ev;
			c->ev_len = len;
			c->ev_ts = c->ts;
			c->peeked = true;
		}
	}
	return true;
}

/* Pick the CPU with the oldest next record. */
static void rtp_pick(struct rtp_trace_iter *it)
{
	unsigned int cpu;

	it->cpu = -1;
	for (cpu = 0; cpu < it->last->nr_cpus; cpu++)
		if (rtp_peek(it, cpu) &&
		    (it->cpu < 0 || it->cur[cpu].ev_ts < it->cur[it->cpu].ev_ts))
			it->cpu = cpu;
}

static void rtp_rewind(struct rtp_trace_iter *it)
{
	memset(it->cur, 0, it->last->nr_cpus * sizeof(it->cur[0]));
	it->pos = 1;
	rtp_pick(it);
}

static void *rtp_trace_start(struct seq_file *m, loff_t *pos)
	__acquires(RCU)
{
	struct rtp_trace_iter *it = m->private;

	/* Pairs with the grace period after @gone in rtp_keep_write(). */
	rcu_read_lock();
	if (READ_ONCE(it->last->gone))
		return NULL;
	if (!*pos)
		return SEQ_START_TOKEN;
	if (*pos != it->pos) {
		/* A seek: walk there again. */
		rtp_rewind(it);
		while (it->cpu >= 0 && it->pos < *pos) {
			it->cur[it->cpu].peeked = false;
			it->pos++;
			rtp_pick(it);
		}
	}
	return it->cpu >= 0 ? it : NULL;
}

static void *rtp_trace_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct rtp_trace_iter *it = m->private;

	++*pos;
	if (v == SEQ_START_TOKEN) {
		rtp_rewind(it);
	} else {
		it->cur[it->cpu].peeked = false;
		it->pos++;
		rtp_pick(it);
	}
	return it->cpu >= 0 ? it : NULL;
}

static void rtp_trace_stop(struct seq_file *m, void *v)
	__releases(RCU)
{
	rcu_read_unlock();
}

static struct rtp_format *rtp_find_format(struct rtp_last *last,
					  unsigned int id)
{
	int i;

	/* The latest: an id given again after a reset is the later event. */
	for (i = last->nr_formats - 1; i >= 0; i--)
		if (last->formats[i].id == id)
			return &last->formats[i];
	return NULL;
}

/*
 * @len bytes at @s, up to a NUL, non-printing ones as '.', but for a
 * last newline (a marker's).
 */
static void rtp_show_text(struct seq_file *m, const char *s, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len && s[i]; i++) {
		if (s[i] == '\n' && (i + 1 == len || !s[i + 1]))
			break;
		seq_putc(m, isprint(s[i]) ? s[i] : '.');
	}
}

static void rtp_show_field(struct seq_file *m, struct rtp_last *last,
			   const struct rtp_field *f, const u8 *data,
			   unsigned int len)
{
	unsigned long addr;
	u32 loc;
	u64 v;

	if (f->offset > len || f->size > len - f->offset ||
	    (f->is_dynamic && f->size < sizeof(loc))) {
		seq_puts(m, "(cut)");
		return;
	}
	if (f->is_dynamic) {
		loc = get_unaligned((const u32 *)(data + f->offset));
		if ((loc & 0xffff) + (loc >> 16) > len) {
			seq_puts(m, "(cut)");
			return;
		}
		rtp_show_text(m, data + (loc & 0xffff), loc >> 16);
		return;
	}
	if (f->is_string) {
		/* "char buf[]" (size 0) runs to the record's end. */
		rtp_show_text(m, data + f->offset,
			      f->size ?: len - f->offset);
		return;
	}
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) {
		seq_printf(m, "(%u bytes)", f->size);
		return;
	}
	/* Read as filters read fields. */
	v = rtf_load(data + f->offset, f->size, f->is_signed);
	if (f->is_signed) {
		seq_printf(m, "%lld", (s64)v);
		return;
	}
	addr = (unsigned long)v - last->text_delta;
	/* Modules load elsewhere each boot: the core kernel's text only. */
	if (f->size == sizeof(long) && last->same_kernel &&
	    core_kernel_text(addr))
		seq_printf(m, "%pS", (void *)addr);
	else
		seq_printf(m, "0x%llx", v);
}

static int rtp_trace_show(struct seq_file *m, void *v)
{
	struct rtp_trace_iter *it = m->private;
	const struct ringtrace_entry *entry;
	const struct rtp_field *buf = NULL;
	struct rtp_cursor *c;
	struct rtp_format *f;
	unsigned int len, i;
	u64 ts;
	u8 *data;

	if (v == SEQ_START_TOKEN) {
		seq_printf(m, "# the last boot's trace: %lu records\n",
			   it->last->records);
		seq_puts(m, "#           TASK-PID     CPU#     TIMESTAMP  EVENT\n");
		return 0;
	}
	c = &it->cur[it->cpu];
	data = __rtb_event_data(c->ev);
	len = c->ev_len - (data - (u8 *)c->ev);
	ts = c->ev_ts;
	if (len < sizeof(*entry)) {
		seq_printf(m, "%16s [%03d] %5llu.%06llu: (a record of %u bytes)\n",
			   "", it->cpu, ts / NSEC_PER_SEC,
			   ts % NSEC_PER_SEC / NSEC_PER_USEC, len);
		return 0;
	}
	entry = (const struct ringtrace_entry *)data;
	seq_printf(m, "%16s-%-7d [%03d] %5llu.%06llu: ", "<...>",
		   entry->common_pid, it->cpu, ts / NSEC_PER_SEC,
		   ts % NSEC_PER_SEC / NSEC_PER_USEC);
	f = rtp_find_format(it->last, entry->common_type);
	if (!f) {
		seq_printf(m, "event %u: no format kept\n", entry->common_type);
		return 0;
	}
	if (!strcmp(f->system, "ftrace") && !strcmp(f->name, "print")) {
		for (i = 0; i < f->nr_fields; i++)
			if (!strcmp(f->fields[i].name, "buf"))
				buf = &f->fields[i];
	}
	if (buf) {
		seq_puts(m, "tracing_mark_write: ");
		rtp_show_field(m, it->last, buf, data, len);
		seq_putc(m, '\n');
		return 0;
	}
	seq_printf(m, "%s/%s:", f->system, f->name);
	for (i = 0; i < f->nr_fields; i++) {
		seq_printf(m, " %s=", f->fields[i].name);
		rtp_show_field(m, it->last, &f->fields[i], data, len);
	}
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations rtp_trace_seq_ops = {
	.start	= rtp_trace_start,
	.next	= rtp_trace_next,
	.stop	= rtp_trace_stop,
	.show	= rtp_trace_show,
};

static int rtp_trace_open(struct inode *inode, struct file *file)
{
	struct rtp_last *last = inode->i_private;
	struct rtp_trace_iter *it;

	it = __seq_open_private(file, &rtp_trace_seq_ops,
				struct_size(it, cur, last->nr_cpus));
	if (!it)
		return -ENOMEM;
	it->last = last;
	it->cpu = -1;
	return 0;
}

static const struct file_operations rtp_trace_fops = {
	.open		= rtp_trace_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release_private,
};

/**
 * rtp_show_trace() - make last_boot/trace
 * @last: the last boot's trace
 * @dir: last_boot/
 */
void rtp_show_trace(struct rtp_last *last, struct dentry *dir)
{
	ringtrace_add_file("trace", 0400, dir, last, &rtp_trace_fops,
			   "the last boot's records, all CPUs by time, with the formats it kept");
}
