// SPDX-License-Identifier: GPL-2.0
/*
 * The trace buffer's control files: tracing_on, buffer_size_kb,
 * buffer_total_size_kb, saved_cmdlines, trace_clock, options/overwrite and
 * per_cpu/cpuN/stats (the per_cpu/cpuN directories are made here, for the
 * other per-CPU files too).  What they change, and the locks, are trace.c's.
 */

#define pr_fmt(fmt) "ringtrace: " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core.h"
#include "dir.h"
#include "trace.h"

/* Read a whole small user buffer as a trimmed string. */
static int ringtrace_get_word(const char __user *ubuf, size_t count,
			      char *buf, size_t size)
{
	if (count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ringtrace_strip(buf);
	return 0;
}

/* A 0/1 control file: tracing_on, options/overwrite. */
struct bool_control {
	bool	(*get)(void);
	void	(*set)(bool on);
};

static ssize_t bool_control_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct bool_control *ctl = file->f_inode->i_private;
	char buf[4];
	int len = scnprintf(buf, sizeof(buf), "%d\n", ctl->get());

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t bool_control_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct bool_control *ctl = file->f_inode->i_private;
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &on);
	if (ret)
		return ret;
	ctl->set(on);
	return count;
}

static const struct file_operations bool_control_fops = {
	.read	= bool_control_read,
	.write	= bool_control_write,
	.llseek	= default_llseek,
};

static struct bool_control tracing_on_control = {
	.get	= ringtrace_tracing_on,
	.set	= ringtrace_trace_set_on,
};

static ssize_t buffer_size_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	bool total = file->f_inode->i_private;
	unsigned long kb = ringtrace_trace_kb();
	char buf[32];
	int len;

	if (total)
		kb *= num_possible_cpus();
	len = scnprintf(buf, sizeof(buf), "%lu\n", kb);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t buffer_size_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	unsigned long kb;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 10, &kb);
	if (ret)
		return ret;
	ret = ringtrace_trace_resize(kb);
	return ret ? ret : count;
}

static const struct file_operations buffer_size_fops = {
	.read	= buffer_size_read,
	.write	= buffer_size_write,
	.llseek	= default_llseek,
};

static const struct file_operations buffer_total_size_fops = {
	.read	= buffer_size_read,
	.llseek	= default_llseek,
};

static struct bool_control overwrite_control = {
	.get	= ringtrace_trace_overwrite,
	.set	= ringtrace_trace_set_overwrite,
};

static int trace_clock_show(struct seq_file *m, void *v)
{
	const char *now = ringtrace_trace_clock_name(), *name;
	unsigned int i;

	for (i = 0; (name = ringtrace_trace_clock_names(i)); i++)
		seq_printf(m, name == now ? "%s[%s]" : "%s%s", i ? " " : "",
			   name);
	seq_putc(m, '\n');
	return 0;
}

static int trace_clock_open(struct inode *inode, struct file *file)
{
	return single_open(file, trace_clock_show, NULL);
}

static ssize_t trace_clock_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[16];
	int ret;

	ret = ringtrace_get_word(ubuf, count, buf, sizeof(buf));
	if (ret)
		return ret;
	ret = ringtrace_trace_set_clock(buf);
	return ret ? ret : count;
}

static const struct file_operations trace_clock_fops = {
	.open		= trace_clock_open,
	.read		= seq_read,
	.write		= trace_clock_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int cpu_stats_show(struct seq_file *m, void *v)
{
	struct rtb_buffer *buffer = ringtrace_trace_buffer();
	int cpu = (long)m->private;
	struct rtb_cpu_stats s;
	u64 ts = 0, now;

	rtb_cpu_stats(buffer, cpu, &s);
	/* A peek may refill the reader page: pairs with the other readers. */
	ringtrace_access_lock(cpu);
	rtb_peek(buffer, cpu, &ts);
	ringtrace_access_unlock(cpu);
	now = rtb_time_stamp(buffer, cpu);
	/*
	 * Upstream's fields first, in its order and spelling (trace-cmd
	 * reads them), then ringtrace's own.  No record is ever lost to a
	 * commit overrun here: a writer that finds no room drops its record,
	 * counted in "dropped events".
	 */
	seq_printf(m, "entries: %lu\n", s.entries);
	seq_printf(m, "overrun: %lu\n", s.overruns);
	seq_puts(m, "commit overrun: 0\n");
	seq_printf(m, "bytes: %lu\n", s.pages * RTB_PAGE_DATA_SIZE);
	seq_printf(m, "oldest event ts: %5llu.%06llu\n",
		   ts / NSEC_PER_SEC, ts % NSEC_PER_SEC / NSEC_PER_USEC);
	seq_printf(m, "now ts: %5llu.%06llu\n",
		   now / NSEC_PER_SEC, now % NSEC_PER_SEC / NSEC_PER_USEC);
	seq_printf(m, "dropped events: %lu\n", s.dropped);
	seq_printf(m, "read events: %lu\n", s.read);
	seq_printf(m, "written: %lu\n", s.written);
	seq_printf(m, "discarded: %lu\n", s.discarded);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(cpu_stats);

/* per_cpu/cpuN, for each possible CPU; they live as long as the kernel. */
static struct dentry **cpu_dirs;

/**
 * ringtrace_cpu_dir() - the per_cpu/cpuN directory of a CPU
 * @cpu: a possible CPU
 *
 * Return: the directory, or NULL if @cpu has none (bad CPU, or boot could
 * not make it).
 */
struct dentry *ringtrace_cpu_dir(int cpu)
{
	if (!cpu_dirs || cpu < 0 || cpu >= nr_cpu_ids)
		return NULL;
	return cpu_dirs[cpu];
}
EXPORT_SYMBOL_GPL(ringtrace_cpu_dir);

static int __init ringtrace_trace_files_init(void)
{
	struct dentry *options, *per_cpu, *dir;
	char name[16];
	int cpu;

	/* trace.c's initcall, linked before this one, could not make it. */
	if (!ringtrace_trace_buffer())
		return -ENODEV;
	ringtrace_add_file("tracing_on", 0600, NULL, &tracing_on_control,
			   &bool_control_fops,
			   "1: record events, 0: stop (buffered events stay)");
	ringtrace_add_file("buffer_size_kb", 0600, NULL, NULL,
			   &buffer_size_fops,
			   "per-CPU buffer size in KiB; writing resizes and clears");
	ringtrace_add_file("buffer_total_size_kb", 0400, NULL, (void *)1,
			   &buffer_total_size_fops,
			   "buffer size of all CPUs together, in KiB");
	ringtrace_add_file("saved_cmdlines", 0400, NULL, NULL,
			   &ringtrace_saved_cmdlines_fops,
			   "pid and comm of traced tasks");
	ringtrace_add_file("trace_clock", 0600, NULL, NULL, &trace_clock_fops,
			   "clock of the time stamps ([current]); writing one clears");
	options = ringtrace_options_dir();
	if (options)
		ringtrace_add_file("overwrite", 0600, options,
				   &overwrite_control, &bool_control_fops,
				   "1: overwrite oldest events when full, 0: drop new ones");
	per_cpu = ringtrace_add_dir("per_cpu", NULL);
	cpu_dirs = kcalloc(nr_cpu_ids, sizeof(*cpu_dirs), GFP_KERNEL);
	if (IS_ERR(per_cpu) || !cpu_dirs)
		return 0;
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		dir = ringtrace_add_dir(name, per_cpu);
		if (IS_ERR(dir))
			continue;
		cpu_dirs[cpu] = dir;
		ringtrace_add_file("stats", 0400, dir, (void *)(long)cpu,
				   &cpu_stats_fops, cpu ? NULL :
				   "entries, overrun, dropped, read, bytes, times");
	}
	return 0;
}
fs_initcall_sync(ringtrace_trace_files_init);
