#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: available_events lists SYSTEM:EVENT of every event of the
#              events/ tree with an enable file (kprobe events too, in the
#              kprobes group and in one of their own), leaving out always-on
#              ftrace:print as upstream does
# requires: available_events set_event kprobe_events

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING

echo > "$T/set_event" && echo > "$T/kprobe_events" ||
	rt_skip "cannot clear set_event and kprobe_events"
trap 'echo > "$T/kprobe_events"' EXIT
rt_plan 2

# One in the kprobes group, one in a group of its own.
echo 'p:kprobes/sev_b vfs_write' > "$T/kprobe_events"
echo 'p:sevgrp/sev_a vfs_open' >> "$T/kprobe_events"

# SYSTEM:EVENT of each event with an enable file, as the events/ tree
# says.  Builtins only in the loop: a fork costs a lot under KASAN.
tree_events() {
	local f sys

	for f in "$T"/events/*/*/enable; do
		[ -e "$f" ] || continue
		f=${f%/enable}
		sys=${f%/*}
		echo "${sys##*/}:${f##*/}"
	done | sort
}

[ "$(sort "$T/available_events")" = "$(tree_events)" ] &&
	grep -qx kprobes:sev_b "$T/available_events"
rt_result $? "available_events lists SYSTEM:EVENT of every event with an enable file"
! grep -q '^ftrace:print$' "$T/available_events"
rt_result $? "available_events leaves out always-on ftrace:print, as upstream"
rt_exit
