#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: unmodified trace-cmd record --file-version 6 from
#              ringtrace's tracing directory: a marker session holds every
#              marker, and its file and that of a kprobe session on
#              ringtrace_kprobe_target.ko read the same in tracedat report
#              and trace-cmd report, line for line
# requires: cmd:trace-cmd tool:tracedat trace_marker events/ftrace/print
# requires: kprobe_events module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracedat
rt_load_target
dir=$(mktemp -d)
# trace-cmd leaves tracing off when it is done.
trap 'rm -rf "$dir"; echo > $TRACING/kprobe_events; echo 1 > $TRACING/tracing_on' EXIT
rt_plan 3
cd "$dir" || exit 1
echo 'p:tcprobe ringtrace_kprobe_target a0 a1' > $TRACING/kprobe_events

trace-cmd record --file-version 6 -e ftrace/print -o "$dir/m6.dat" -- \
	sh -c "for i in 1 2 3; do echo marker \$i > $TRACING/trace_marker; done" \
	> "$dir/out" 2>&1
n=$(trace-cmd report -i "$dir/m6.dat" 2>/dev/null | grep -c ': print: .*marker [1-3]$')
[ "$n" -eq 3 ]
rt_result $? "trace-cmd record --file-version 6 of 3 markers: all in it ($n)"
rt_same_report "$dir/m6.dat"
rt_result $? "its markers read the same in tracedat report and trace-cmd report"
trace-cmd record --file-version 6 -e kprobes -o "$dir/k6.dat" -- \
	sh -c "echo 2 > $TARGET_CALL" > "$dir/out" 2>&1
rt_same_report "$dir/k6.dat"
rt_result $? "its kprobe events read the same in tracedat report and trace-cmd report"
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$dir/out" "$dir/diff"
rt_exit
