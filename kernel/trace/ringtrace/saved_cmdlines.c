// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace's saved_cmdlines: the comm of the pids that wrote records, for
 * output that names tasks gone meanwhile (trace, trace_pipe, crash dumps)
 * and for the saved_cmdlines file, which trace-cmd reads into trace.dat.
 */

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "core.h"
#include "saved_cmdlines.h"

/*
 * A slot per pid hash; a writer that finds the lock taken (another CPU,
 * or an NMI) skips saving.  A slot is rewritten whenever its pid or name
 * differs from the writer's, so a task that exec'ed shows under its new
 * name.
 */
struct ringtrace_saved_cmdline
	ringtrace_saved_cmdlines[RINGTRACE_SAVED_CMDLINES];
static DEFINE_RAW_SPINLOCK(saved_cmdlines_lock);

/**
 * ringtrace_store_comm() - write a task's pid and comm into its slot
 * @slot: the task's slot, which ringtrace_save_comm() found different
 * @task: the writer of a record just committed
 *
 * Any context but NMI; it only tries saved_cmdlines_lock.
 */
void ringtrace_store_comm(struct ringtrace_saved_cmdline *slot,
			  struct task_struct *task)
{
	unsigned long flags;

	if (!raw_spin_trylock_irqsave(&saved_cmdlines_lock, flags))
		return;
	WRITE_ONCE(slot->pid, task->pid);
	/*
	 * Not get_task_comm(): its task_lock() is not IRQ-safe, and this runs
	 * in any context.  A rename racing with the copy (exec, prctl) may
	 * leave a mix of both names, NUL-terminated: the task's next record
	 * puts it right.
	 */
	strscpy_pad(slot->comm, task->comm, TASK_COMM_LEN);
	raw_spin_unlock_irqrestore(&saved_cmdlines_lock, flags);
}

/**
 * ringtrace_find_comm() - the saved comm of a pid
 * @pid: the pid
 * @comm: TASK_COMM_LEN bytes that receive it
 *
 * Return: @comm, "<idle>" for pid 0 or "<...>" if the pid was not saved.
 */
const char *ringtrace_find_comm(int pid, char *comm)
{
	struct ringtrace_saved_cmdline *slot =
		&ringtrace_saved_cmdlines[(u32)pid % RINGTRACE_SAVED_CMDLINES];
	unsigned long flags;

	if (!pid)
		return "<idle>";
	raw_spin_lock_irqsave(&saved_cmdlines_lock, flags);
	if (slot->pid == pid)
		strscpy(comm, slot->comm, TASK_COMM_LEN);
	else
		strscpy(comm, "<...>", TASK_COMM_LEN);
	raw_spin_unlock_irqrestore(&saved_cmdlines_lock, flags);
	return comm;
}

/**
 * ringtrace_find_comm_nowait() - ringtrace_find_comm() that never waits
 * @pid: the pid
 * @comm: TASK_COMM_LEN bytes that receive it
 *
 * For crash dumps: only tries saved_cmdlines_lock, which a CPU stopped by
 * a panic may hold forever.  Any context, NMI included.
 *
 * Return: as ringtrace_find_comm(); "<...>" also when the lock is busy.
 */
const char *ringtrace_find_comm_nowait(int pid, char *comm)
{
	struct ringtrace_saved_cmdline *slot =
		&ringtrace_saved_cmdlines[(u32)pid % RINGTRACE_SAVED_CMDLINES];
	unsigned long flags;

	if (!pid)
		return "<idle>";
	strscpy(comm, "<...>", TASK_COMM_LEN);
	if (!raw_spin_trylock_irqsave(&saved_cmdlines_lock, flags))
		return comm;
	if (slot->pid == pid)
		strscpy(comm, slot->comm, TASK_COMM_LEN);
	raw_spin_unlock_irqrestore(&saved_cmdlines_lock, flags);
	return comm;
}

static void *saved_cmdlines_start(struct seq_file *m, loff_t *pos)
{
	return *pos < RINGTRACE_SAVED_CMDLINES ?
	       &ringtrace_saved_cmdlines[*pos] : NULL;
}

static void *saved_cmdlines_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return saved_cmdlines_start(m, pos);
}

static void saved_cmdlines_stop(struct seq_file *m, void *v)
{
}

static int saved_cmdlines_show(struct seq_file *m, void *v)
{
	struct ringtrace_saved_cmdline *slot = v;
	char comm[TASK_COMM_LEN];
	int pid = READ_ONCE(slot->pid);

	if (pid)
		seq_printf(m, "%d %s\n", pid, ringtrace_find_comm(pid, comm));
	return 0;
}

static const struct seq_operations saved_cmdlines_seq_ops = {
	.start	= saved_cmdlines_start,
	.next	= saved_cmdlines_next,
	.stop	= saved_cmdlines_stop,
	.show	= saved_cmdlines_show,
};

static int saved_cmdlines_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &saved_cmdlines_seq_ops);
}

const struct file_operations ringtrace_saved_cmdlines_fops = {
	.open		= saved_cmdlines_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release,
};
