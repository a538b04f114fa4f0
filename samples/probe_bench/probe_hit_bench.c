// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of one probe hit, for "make bench" (scripts/probe-bench-vm).
 *
 * /sys/kernel/debug/probe_hit_bench takes:
 *
 *   N        call probe_bench_target() N times in a loop, preemption
 *            enabled (cond_resched() every 1024 calls), timed with
 *            ktime_get_ns()
 *   probe    put a kprobe with an empty pre_handler on probe_bench_target()
 *   unprobe  remove it
 *
 * and reads back "N NS": the calls of the last run and the nanoseconds it
 * took.  The benchmark times the loop with no probe on the function, with
 * this module's empty kprobe (the kprobe mechanism alone: breakpoint or
 * jump, handler dispatch) and with a kprobe event on the function
 * (the mechanism plus the tracer's work), on ringtrace's kernel and on an
 * upstream one: the module needs no ringtrace.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define PHB_MAX_CALLS	100000000UL

static DEFINE_MUTEX(phb_mutex);
static unsigned long phb_calls;
static u64 phb_ns;
static unsigned long phb_sink;
static struct kprobe phb_kprobe;
static bool phb_probed;
static struct dentry *phb_file;

/*
 * The probed function.  noipa: called as written, arguments where the
 * ABI puts them (a probe's %di %si %dx %cx); the asm keeps the sum from
 * being folded into the caller.  Its body is long enough for a jump
 * (optimised) kprobe, as most kernel functions are.
 */
static noinline __noipa unsigned long
probe_bench_target(unsigned long a, unsigned long b, unsigned long c,
		   unsigned long d)
{
	unsigned long r = (a ^ b) + (c ^ d);

	asm volatile("" : "+r" (r));
	return r;
}

static int phb_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

/* Under phb_mutex. */
static int phb_probe(void)
{
	int ret;

	if (phb_probed)
		return -EBUSY;
	/* A kprobe is registered afresh each time: no state of the last. */
	memset(&phb_kprobe, 0, sizeof(phb_kprobe));
	phb_kprobe.addr = (kprobe_opcode_t *)probe_bench_target;
	phb_kprobe.pre_handler = phb_pre_handler;
	ret = register_kprobe(&phb_kprobe);
	if (!ret)
		phb_probed = true;
	return ret;
}

/* Under phb_mutex. */
static int phb_unprobe(void)
{
	if (!phb_probed)
		return -ENOENT;
	unregister_kprobe(&phb_kprobe);
	phb_probed = false;
	return 0;
}

static noinline void phb_run(unsigned long calls)
{
	unsigned long i, sum = 0;

	for (i = 0; i < calls; i++) {
		sum += probe_bench_target(i, calls, sum, 0x5a5a);
		if (!(i & 1023))
			cond_resched();
	}
	WRITE_ONCE(phb_sink, sum);
}

static ssize_t phb_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	unsigned long calls;
	char buf[24];
	u64 start;
	int ret;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	mutex_lock(&phb_mutex);
	if (sysfs_streq(buf, "probe")) {
		ret = phb_probe();
	} else if (sysfs_streq(buf, "unprobe")) {
		ret = phb_unprobe();
	} else {
		ret = kstrtoul(buf, 0, &calls);
		if (!ret && (!calls || calls > PHB_MAX_CALLS))
			ret = -ERANGE;
		if (!ret) {
			start = ktime_get_ns();
			phb_run(calls);
			phb_ns = ktime_get_ns() - start;
			phb_calls = calls;
		}
	}
	mutex_unlock(&phb_mutex);
	return ret ? ret : count;
}

static ssize_t phb_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	char buf[48];
	int len;

	mutex_lock(&phb_mutex);
	len = scnprintf(buf, sizeof(buf), "%lu %llu\n", phb_calls, phb_ns);
	mutex_unlock(&phb_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations phb_fops = {
	/* An open file keeps the module, whose code release() runs. */
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= phb_read,
	.write	= phb_write,
	.llseek	= default_llseek,
};

static int __init phb_init(void)
{
	phb_file = debugfs_create_file("probe_hit_bench", 0600, NULL, NULL,
				       &phb_fops);
	return 0;
}

static void __exit phb_exit(void)
{
	debugfs_remove(phb_file);
	mutex_lock(&phb_mutex);
	if (phb_probed)
		phb_unprobe();
	mutex_unlock(&phb_mutex);
}

module_init(phb_init);
module_exit(phb_exit);
MODULE_DESCRIPTION("The cost of one kprobe hit, for make bench");
MODULE_LICENSE("GPL");
