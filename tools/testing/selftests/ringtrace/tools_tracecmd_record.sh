#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the file unmodified trace-cmd record writes by default
#              (version 7) of a kprobe session on ringtrace_kprobe_target.ko:
#              it holds every call with its known arguments, trace-cmd
#              disables the event after, and tracedat report, report --stat
#              and report -F -v --cpu print it as trace-cmd report does.
#              One recording for all these checks of the recorded file
#              (trace-cmd runs are slow)
# requires: cmd:trace-cmd tool:tracedat kprobe_events
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracedat
rt_load_target
dir=$(mktemp -d)
# trace-cmd leaves tracing off when it is done.
trap 'rm -rf "$dir"; echo > $TRACING/kprobe_events; echo 1 > $TRACING/tracing_on' EXIT
rt_plan 6
cd "$dir" || exit 1
echo 'p:tcprobe ringtrace_kprobe_target a0 a1' > $TRACING/kprobe_events

trace-cmd record -e kprobes -o "$dir/k7.dat" -- sh -c "echo 3 > $TARGET_CALL" \
	> "$dir/out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ -s "$dir/k7.dat" ]
rt_result $? "trace-cmd record -e kprobes -- COMMAND succeeds (exit $rc)"
# By the probe's print fmt: libtraceevent parses its format (alias lines
# and all), not "[FAILED TO PARSE] ... arg0=0x11 arg1=0x22", and prints
# the probe point as trace does.
n=$(trace-cmd report -i "$dir/k7.dat" 2>/dev/null |
	grep -c ' tcprobe: *ringtrace_kprobe_target+0x0/0x[0-9a-f]* \[ringtrace_kprobe_target\]: 0x11 0x22$')
[ "$n" -eq 3 ]
rt_result $? "trace-cmd report shows the 3 calls with a0 0x11, a1 0x22 ($n)"
[ "$(cat $TRACING/events/kprobes/tcprobe/enable)" = 0 ]
rt_result $? "trace-cmd disabled the event after recording"

rt_same_report "$dir/k7.dat"
rt_result $? "trace-cmd's default file (version 7) reads the same in tracedat report"
# report --stat and -F/--cpu, as trace-cmd's, on trace-cmd's own file.
trace-cmd report --stat -i "$dir/k7.dat" 2>/dev/null | rt_stat_lines > "$dir/theirs"
"$TD" report --stat "$dir/k7.dat" | rt_stat_lines > "$dir/ours"
grep -qx 'CPU: 0' "$dir/ours" && diff "$dir/theirs" "$dir/ours" > "$dir/diff"
rt_result $? "tracedat report --stat shows the CPU stats trace-cmd record saved"
"$TD" report -F 'tcprobe: common_pid != 0' -v -F 'tcprobe: common_pid == 1' \
	--cpu 0-1023 "$dir/k7.dat" > "$dir/ours"
trace-cmd report -F 'tcprobe: common_pid != 0' -v -F 'tcprobe: common_pid == 1' \
	--cpu 0-1023 -i "$dir/k7.dat" 2>/dev/null | tail -n +2 > "$dir/theirs"
[ "$(grep -c tcprobe "$dir/ours")" -eq 3 ] && diff "$dir/theirs" "$dir/ours" > "$dir/diff"
rt_result $? "report -F FILTER -v -F FILTER --cpu LIST prints what trace-cmd report prints"
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$dir/out" "$dir/diff"
rt_exit
