// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace's current_tracer and available_tracers.  ringtrace records
 * events only: its one tracer is the one upstream calls "nop", and these
 * files say so in upstream's spelling, so that tools which select or reset
 * a tracer (trace-cmd, ftracetest, scripts that "echo nop > current_tracer")
 * find it.  Writing "nop" changes nothing (upstream's buffer is not emptied
 * either when the tracer stays the same); any other name fails with
 * -EINVAL and a line in error_log.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/ringtrace_events.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "dir.h"

#define TRACERS		"nop\n"
/* Longer than any tracer name upstream has. */
#define TRACER_NAME_MAX	64

static ssize_t tracers_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, count, ppos, TRACERS,
				       strlen(TRACERS));
}

static ssize_t current_tracer_write(struct file *file,
				    const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	char buf[TRACER_NAME_MAX + 1];
	size_t len = min_t(size_t, count, TRACER_NAME_MAX);

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (count <= TRACER_NAME_MAX && !strcmp(strim(buf), "nop"))
		return count;
	ringtrace_error_log("current_tracer", buf, 0,
			    "no such tracer: ringtrace has only nop");
	return -EINVAL;
}

static const struct file_operations current_tracer_fops = {
	.read	= tracers_read,
	.write	= current_tracer_write,
	.llseek	= default_llseek,
};

static const struct file_operations available_tracers_fops = {
	.read	= tracers_read,
	.llseek	= default_llseek,
};

static int __init ringtrace_tracers_init(void)
{
	ringtrace_add_file("current_tracer", 0600, NULL, NULL,
			   &current_tracer_fops,
			   "the tracer: nop (events only), the one there is");
	ringtrace_add_file("available_tracers", 0400, NULL, NULL,
			   &available_tracers_fops, "tracers there are: nop");
	return 0;
}
late_initcall(ringtrace_tracers_init);
