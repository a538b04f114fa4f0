#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd start -e and stop, unmodified, against ringtrace:
#              the calls this test made to ringtrace_kprobe_target.ko
#              meanwhile are in trace, trace-cmd show prints them, and
#              trace-cmd extract saves them in a file whose report renders
#              them exactly as trace does
# requires: cmd:trace-cmd kprobe_events trace tracing_on set_event
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target
T=$TRACING
dir=$(mktemp -d)
trap 'rm -rf "$dir"; echo > "$T/set_event"; echo > "$T/kprobe_events"
      echo 1 > "$T/tracing_on"' EXIT
rt_plan 4
cd "$dir" || exit 1
echo 'p:kprobes/tcday ringtrace_kprobe_target a0 a1' > "$T/kprobe_events"

# calls N: call the target N times.
calls() { echo "$1" > "$TARGET_CALL"; }
# Its records: as trace shows them (the spec's "SYMBOL+off/size: args"),
# and as trace-cmd's reports do (libtraceevent: "tcday: " and the same).
hits_text() { grep -c ': ringtrace_kprobe_target+0x0/0x[0-9a-f]* .*: 0x11 0x22$' "$@"; }
hits() { grep -c ' tcday: ' "$@"; }

trace-cmd start -e kprobes/tcday > out 2>&1
calls 3
trace-cmd stop >> out 2>&1
n=$(hits_text "$T/trace")
[ "$n" -eq 3 ] && [ "$(cat "$T/tracing_on")" = 0 ]
rt_result $? "trace-cmd start -e kprobes/tcday, 3 calls, stop: trace holds 3 ($n)"
[ $rt_fails -eq 0 ] || { sed 's/^/# /' out; head -20 "$T/trace" | sed 's/^/# /'; }
n=$(trace-cmd show 2> /dev/null | hits_text)
[ "$n" -eq 3 ]
rt_result $? "trace-cmd show: the same 3 ($n)"
# The records' text as trace prints it, after "TASK-PID [CPU] TIME: ".
grep -v '^#' "$T/trace" | sed 's/^[^]]*\] *[0-9.]*: //' > trace_text
trace-cmd extract -o "$dir/x.dat" >> out 2>&1
trace-cmd report -i "$dir/x.dat" > report.out 2>&1
n=$(hits report.out)
[ "$n" -eq 3 ]
rt_result $? "trace-cmd extract, then report: the same 3 ($n)"
# The spec's aN arguments give the format alias lines: libtraceevent must
# still parse it, and print the records by its print fmt exactly as trace
# does.
sed -n 's/^.* tcday: *//p' report.out > report_text
n=$(grep -c . report_text)
[ "$n" -eq 3 ] && ! grep -q 'FAILED TO PARSE' report.out &&
	cmp -s trace_text report_text
rt_result $? "trace-cmd report renders the a0/a1 probe's 3 records exactly as trace does ($(head -n 1 report_text))"
[ $rt_fails -eq 0 ] || diff trace_text report_text | sed 's/^/# /'
[ $rt_fails -eq 0 ] || sed 's/^/# /' report.out
rt_exit
