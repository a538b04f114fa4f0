#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: tracedat record of a kprobe session (ringtrace_kprobe_target.ko,
#              known arguments): the event is disabled after, every call is
#              in the file with its arguments, tracedat report and
#              unmodified trace-cmd report print the same thing, line for
#              line, and report -s counts them
# requires: tool:tracedat cmd:trace-cmd kprobe_events
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracedat
rt_load_target
dir=$(mktemp -d)
trap 'rm -rf "$dir"; echo > $TRACING/kprobe_events' EXIT
rt_plan 4

echo 'p:tdprobe ringtrace_kprobe_target a0 a1' > $TRACING/kprobe_events
"$TD" record -e kprobes/tdprobe -o "$dir/k.dat" -- sh -c "echo 3 > $TARGET_CALL" \
	2> "$dir/err"
rc=$?
[ $rc -eq 0 ] && [ "$(cat $TRACING/events/kprobes/tdprobe/enable)" = 0 ]
rt_result $? "record -e kprobes/tdprobe writes the file and disables the event after (exit $rc)"
n=$("$TD" report "$dir/k.dat" | grep -c ' tdprobe: .* 0x11 0x22$')
[ "$n" -eq 3 ]
rt_result $? "3 calls, each with a0 0x11 and a1 0x22 ($n)"
rt_same_report "$dir/k.dat"
rt_result $? "tracedat report and trace-cmd report agree line for line"
"$TD" report -s "$dir/k.dat" | grep -qE '^tdprobe +3 '
rt_result $? "report -s counts 3 tdprobe events"
[ $rt_fails -eq 0 ] || { sed 's/^/# /' "$dir/err" "$dir/diff"; "$TD" report "$dir/k.dat" | head -5 | sed 's/^/# /'; }
rt_exit
