// SPDX-License-Identifier: GPL-2.0
/*
 * A GTSC data provider driven from user space, for GTSC's selftests.
 *
 * Commands written to /sys/kernel/debug/gtsc_test_provider/ctl:
 *
 *   setup ROOT NAME SUB_SIZE NR_SUB FLAGS   trace_setup(); fails with its errno
 *   write NAME COUNT LEN                    COUNT records of LEN bytes, if running
 *   cleanup NAME                            trace_cleanup()
 *
 * Record i of a write is "seq=<i>" padded with '.' to LEN bytes, the last
 * one a newline; the sequence continues from write to write.  Writes are
 * serialized, as a global channel needs, and each record is written on
 * the CPU the writer happens to run on.
 */

#include <linux/debugfs.h>
#include <linux/gtsc.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define MAX_CHANNELS	8
#define MAX_RECORD	512

struct provider_channel {
	struct trace_info	*trace;
	unsigned long		seq;
};

static struct provider_channel channels[MAX_CHANNELS];
static DEFINE_MUTEX(provider_lock);
static struct dentry *provider_dir;

static struct provider_channel *find_channel(const char *name)
{
	unsigned int i;

	for (i = 0; i < MAX_CHANNELS; i++)
		if (channels[i].trace && !strcmp(channels[i].trace->name, name))
			return &channels[i];
	return NULL;
}

static int do_setup(const char *root, const char *name, u32 size, u32 nr,
		    u32 flags)
{
	struct trace_info *trace;
	unsigned int i;

	for (i = 0; i < MAX_CHANNELS && channels[i].trace; i++)
		;
	if (i == MAX_CHANNELS)
		return -ENOSPC;
	trace = trace_setup(root, name, size, nr, flags);
	if (IS_ERR(trace))
		return PTR_ERR(trace);
	channels[i].trace = trace;
	channels[i].seq = 0;
	return 0;
}

static int do_write(struct provider_channel *ch, unsigned long count,
		    unsigned int len)
{
	char *record;
	unsigned long i;
	int n;

	if (len < 2 || len > MAX_RECORD)
		return -EINVAL;
	record = kmalloc(len, GFP_KERNEL);
	if (!record)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		if (!trace_running(ch->trace))
			break;
		memset(record, '.', len);
		n = snprintf(record, len, "seq=%lu", ch->seq++);
		if (n < len - 1)
			record[n] = '.';
		record[len - 1] = '\n';
		relay_write(ch->trace->rchan, record, len);
	}
	kfree(record);
	return 0;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	char a[64], b[64];
	struct provider_channel *ch;
	unsigned long n;
	u32 x, y, z;
	char *buf;
	int ret;

	if (count > 256)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&provider_lock);
	if (sscanf(buf, "setup %63s %63s %u %u %u", a, b, &x, &y, &z) == 5) {
		ret = do_setup(a, b, x, y, z);
	} else if (sscanf(buf, "write %63s %lu %u", a, &n, &x) == 3) {
		ch = find_channel(a);
		ret = ch ? do_write(ch, n, x) : -ENOENT;
	} else if (sscanf(buf, "cleanup %63s", a) == 1) {
		ch = find_channel(a);
		ret = ch ? 0 : -ENOENT;
		if (ch) {
			trace_cleanup(ch->trace);
			ch->trace = NULL;
		}
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&provider_lock);
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations ctl_fops = {
	.write	= ctl_write,
	.llseek	= noop_llseek,
};

static int __init provider_init(void)
{
	provider_dir = debugfs_create_dir("gtsc_test_provider", NULL);
	debugfs_create_file("ctl", 0200, provider_dir, NULL, &ctl_fops);
	return 0;
}

static void __exit provider_exit(void)
{
	unsigned int i;

	debugfs_remove_recursive(provider_dir);
	for (i = 0; i < MAX_CHANNELS; i++)
		if (channels[i].trace)
			trace_cleanup(channels[i].trace);
}

module_init(provider_init);
module_exit(provider_exit);
MODULE_DESCRIPTION("GTSC provider driven by its selftests");
MODULE_LICENSE("GPL");
