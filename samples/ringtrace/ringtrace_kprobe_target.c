// SPDX-License-Identifier: GPL-2.0
/*
 * A function with known arguments, for checking kprobe events.
 *
 * Writing N to /sys/kernel/debug/ringtrace_kprobe_target/call calls
 * ringtrace_kprobe_target() N times with these arguments:
 *
 *   a0 0x11, a1 0x22, a2 &ringtrace_kprobe_target_head, a3 "hello",
 *   a4 0x55, a5 0x66, and on the stack a6 0x77, a7 0x88
 *
 * The head node holds 0x4ead, points at a tail node holding 0x7a11, and
 * the nodes' names are "head" and "tail"; head's words point at the middle
 * of { 0x1000, 0x2000, 0x3000 }, for negative offsets.  The function returns 0x509f;
 * ringtrace_kprobe_target_data holds 0x5eed5eed.  The kprobe events
 * selftests probe it and check every fetch-arg kind against these values.
 *
 * Writing 1 to /sys/kernel/debug/ringtrace_kprobe_target/oops calls it
 * once, then oopses (a write through a NULL pointer): the writer is
 * killed, the kernel goes on.  scripts/tests/dump-on-oops uses it to test
 * dump_on_oops on an oops that does not panic.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

struct rtkt_node {
	unsigned long		value;
	struct rtkt_node	*next;
	const char		*name;
	unsigned long		*words;
};

static unsigned long rtkt_words[] = { 0x1000, 0x2000, 0x3000 };

static struct rtkt_node rtkt_tail = { .value = 0x7a11, .name = "tail" };
static struct rtkt_node ringtrace_kprobe_target_head = {
	.value = 0x4ead, .next = &rtkt_tail, .name = "head",
	.words = &rtkt_words[1],
};

static unsigned long ringtrace_kprobe_target_data __used = 0x5eed5eed;

static struct {
	unsigned long		a, b;
	struct rtkt_node	*node;
	const char		*str;
	unsigned long		e, f, g, h;
} rtkt_args = {
	0x11, 0x22, &ringtrace_kprobe_target_head, "hello",
	0x55, 0x66, 0x77, 0x88,
};

static struct dentry *rtkt_dir;

/* noipa: called as written, arguments where the ABI puts them. */
static noinline __noipa unsigned long
ringtrace_kprobe_target(unsigned long a, unsigned long b,
			struct rtkt_node *node, const char *str,
			unsigned long e, unsigned long f,
			unsigned long g, unsigned long h)
{
	return a + b + node->value + strlen(str) + e + f + g + h;
}

static ssize_t rtkt_call_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned long sum = 0;
	unsigned int n, i;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	if (n > 1000000)
		return -ERANGE;
	for (i = 0; i < n; i++)
		sum += ringtrace_kprobe_target(READ_ONCE(rtkt_args.a),
					       READ_ONCE(rtkt_args.b),
					       READ_ONCE(rtkt_args.node),
					       READ_ONCE(rtkt_args.str),
					       READ_ONCE(rtkt_args.e),
					       READ_ONCE(rtkt_args.f),
					       READ_ONCE(rtkt_args.g),
					       READ_ONCE(rtkt_args.h));
	if (sum != n * 0x509fUL)
		return -EIO;
	return count;
}

static const struct file_operations rtkt_call_fops = {
	.write	= rtkt_call_write,
	.llseek	= noop_llseek,
};

/* NULL, read through READ_ONCE() so that the write below is made. */
static unsigned long *rtkt_nowhere;

static ssize_t rtkt_oops_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	if (n != 1)
		return -EINVAL;
	*READ_ONCE(rtkt_nowhere) = ringtrace_kprobe_target(rtkt_args.a,
							  rtkt_args.b,
							  rtkt_args.node,
							  rtkt_args.str,
							  rtkt_args.e,
							  rtkt_args.f,
							  rtkt_args.g,
							  rtkt_args.h);
	return count;
}

static const struct file_operations rtkt_oops_fops = {
	.write	= rtkt_oops_write,
	.llseek	= noop_llseek,
};

static int __init rtkt_init(void)
{
	rtkt_dir = debugfs_create_dir("ringtrace_kprobe_target", NULL);
	debugfs_create_file("call", 0200, rtkt_dir, NULL, &rtkt_call_fops);
	debugfs_create_file("oops", 0200, rtkt_dir, NULL, &rtkt_oops_fops);
	return 0;
}

static void __exit rtkt_exit(void)
{
	debugfs_remove_recursive(rtkt_dir);
}

module_init(rtkt_init);
module_exit(rtkt_exit);
MODULE_DESCRIPTION("A function with known arguments for kprobe events");
MODULE_LICENSE("GPL");
