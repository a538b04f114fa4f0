/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GTSC internals shared with its KUnit suite: the steps of trace_setup(),
 * each of which the suite can make fail as an allocation failure would.
 */
#ifndef _GTSC_INTERNAL_H
#define _GTSC_INTERNAL_H

enum gtsc_setup_step {
	GTSC_STEP_NONE,
	GTSC_STEP_INFO,		/* struct trace_info */
	GTSC_STEP_ROOT,		/* struct gtsc_root */
	GTSC_STEP_ROOT_DIR,	/* debugfs <root>/ */
	GTSC_STEP_DIR,		/* debugfs <root>/<name>/ */
	GTSC_STEP_RELAY,	/* relay_open(): buffers, trace0..N */
	GTSC_STEP_FILES,	/* state, dropped, rewind, nr_sub, sub_size */
	GTSC_NR_STEPS,
};

/* Only in kernels with CONFIG_RINGTRACE_KUNIT_TEST (namespace GTSC_KUNIT). */
void gtsc_fail_setup_step(enum gtsc_setup_step step);

#endif /* _GTSC_INTERNAL_H */
