/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringtrace's saved_cmdlines: the comm of recently traced pids, so that
 * output can show names for records whose task is gone.  The check that
 * a slot already holds the writer's pid and comm runs on every record,
 * so it is inline here, beside the record path (trace.c); only a change
 * takes the out-of-line store in saved_cmdlines.c.
 */
#ifndef _RINGTRACE_SAVED_CMDLINES_H
#define _RINGTRACE_SAVED_CMDLINES_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <asm/unaligned.h>

/* Slots, one per pid hash (pid modulo the count). */
#define RINGTRACE_SAVED_CMDLINES	128

/**
 * struct ringtrace_saved_cmdline - one slot of saved_cmdlines
 * @comm:	the task's name, zero-padded
 * @comm_words:	the same bytes, compared a word at a time on every record
 * @pid:	the task, 0 for an empty slot
 *
 * Written under saved_cmdlines.c's lock, read without it by
 * ringtrace_save_comm().
 */
struct ringtrace_saved_cmdline {
	union {
		char	comm[TASK_COMM_LEN];
		u64	comm_words[TASK_COMM_LEN / sizeof(u64)];
	};
	int	pid;
};

static_assert(TASK_COMM_LEN == 2 * sizeof(u64));

extern struct ringtrace_saved_cmdline
	ringtrace_saved_cmdlines[RINGTRACE_SAVED_CMDLINES];

void ringtrace_store_comm(struct ringtrace_saved_cmdline *slot,
			  struct task_struct *task);

/*
 * Whether @slot holds @task's pid and comm.  Unlocked: a torn look costs
 * a store, or delays one a record.  Task names are zero-padded
 * (set_task_comm() pads them), so whole words compare as strings do.
 */
static inline bool
ringtrace_slot_holds(const struct ringtrace_saved_cmdline *slot,
		     const struct task_struct *task)
{
	const u64 *comm = (const u64 *)task->comm;

	/* Marked: written with WRITE_ONCE() under the lock. */
	if (READ_ONCE(slot->pid) != task->pid)
		return false;
	/*
	 * data_race(): the slot's name is written under the lock and read
	 * without it, and the task's may be renamed meanwhile
	 * (__set_task_comm()); a torn word at worst delays a store by a
	 * record.
	 */
	if (data_race(slot->comm_words[0] != get_unaligned(comm)))
		return false;
	/* data_race(): as above. */
	return data_race(slot->comm_words[1] == get_unaligned(comm + 1));
}

/**
 * ringtrace_save_comm() - remember a task's comm for its records
 * @task: the writer of a record just committed
 *
 * Any context but NMI (ringtrace_commit_record() skips it there).
 */
static inline void ringtrace_save_comm(struct task_struct *task)
{
	u32 i = (u32)task->pid % RINGTRACE_SAVED_CMDLINES;
	struct ringtrace_saved_cmdline *slot = &ringtrace_saved_cmdlines[i];

	if (task->pid && !ringtrace_slot_holds(slot, task))
		ringtrace_store_comm(slot, task);
}

#endif /* _RINGTRACE_SAVED_CMDLINES_H */
