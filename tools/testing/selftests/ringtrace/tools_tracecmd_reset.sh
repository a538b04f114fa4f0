#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd reset, unmodified, against ringtrace: no event
#              enabled after it, tracing on, and the kprobe this test
#              defined on ringtrace_kprobe_target.ko removed, as on upstream
# requires: cmd:trace-cmd kprobe_events set_event buffer_size_kb tracing_on
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING
dir=$(mktemp -d)
old_kb=$(cat "$T/buffer_size_kb")
trap 'rm -rf "$dir"; echo > "$T/set_event"; echo > "$T/kprobe_events"
      echo "$old_kb" > "$T/buffer_size_kb"; echo 1 > "$T/tracing_on"' EXIT
rt_plan 2
cd "$dir" || exit 1
echo 'p:kprobes/tcday ringtrace_kprobe_target a0 a1' > "$T/kprobe_events"

echo kprobes:tcday > "$T/set_event"
echo 0 > "$T/tracing_on"
# What reset must undo is there: the event enabled, tracing off.
[ "$(cat "$T/set_event")" = kprobes:tcday ] && [ "$(cat "$T/tracing_on")" = 0 ] &&
	grep -q '^p:kprobes/tcday ' "$T/kprobe_events"
set_up=$?
[ $set_up -eq 0 ] || echo "# set-up: set_event, tracing_on or the kprobe not as written"
trace-cmd reset > out 2>&1
[ $set_up -eq 0 ] && [ -z "$(cat "$T/set_event")" ] && [ "$(cat "$T/tracing_on")" = 1 ]
rt_result $? "trace-cmd reset: no event enabled, tracing on"
[ $set_up -eq 0 ] && [ -z "$(cat "$T/kprobe_events")" ]
rt_result $? "trace-cmd reset: the kprobe is removed, as on upstream"
rt_exit
