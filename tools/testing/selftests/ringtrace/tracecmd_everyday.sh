#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd's everyday subcommands, unmodified, against
#              ringtrace: list -e and -t, start/stop then show and extract,
#              stat, stream, record -b without "-1 events lost", and reset;
#              each checked against the calls this test made to
#              ringtrace_kprobe_target.ko
# requires: trace-cmd, ringtrace_kprobe_target.ko

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing
command -v trace-cmd > /dev/null || rt_skip "no trace-cmd"
for c in timeout setsid stdbuf; do
	command -v $c > /dev/null || rt_skip "no $c"
done
rt_load_target
T=$TRACING
rt_plan 11

dir=$(mktemp -d)
old_kb=$(cat "$T/buffer_size_kb")
cleanup() {
	[ -n "${stream_pid:-}" ] && kill -KILL -- -"$stream_pid" 2> /dev/null
	rm -rf "$dir"
	echo > "$T/set_event"
	echo > "$T/kprobe_events"
	echo "$old_kb" > "$T/buffer_size_kb"
	echo 1 > "$T/tracing_on"
}
trap cleanup EXIT
cd "$dir" || exit 1
PROBE='p:kprobes/tcday ringtrace_kprobe_target a0 a1'
echo "$PROBE" > "$T/kprobe_events"

# calls N: call the target N times.
calls() { echo "$1" > "$TARGET_CALL"; }
# Its records: as trace shows them (the spec's "SYMBOL+off/size: args"),
# and as trace-cmd's reports do (libtraceevent: "tcday: " and the same).
hits_text() { grep -c ': ringtrace_kprobe_target+0x0/0x[0-9a-f]* .*: 0x11 0x22$' "$@"; }
hits() { grep -c ' tcday: ' "$@"; }

trace-cmd list -e > list 2>&1 && grep -qx 'kprobes:tcday' list &&
	trace-cmd list -t 2>&1 | grep -qw nop
rt_result $? "trace-cmd list -e names kprobes:tcday; list -t names nop"

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
trace-cmd report -i "$dir/x.dat" > report 2>&1
n=$(hits report)
[ "$n" -eq 3 ]
rt_result $? "trace-cmd extract, then report: the same 3 ($n)"
# The spec's aN arguments give the format alias lines: libtraceevent must
# still parse it, and print the records by its print fmt exactly as trace
# does.
sed -n 's/^.* tcday: *//p' report > report_text
n=$(grep -c . report_text)
[ "$n" -eq 3 ] && ! grep -q 'FAILED TO PARSE' report &&
	cmp -s trace_text report_text
rt_result $? "trace-cmd report renders the a0/a1 probe's 3 records exactly as trace does ($(head -n 1 report_text))"
[ $rt_fails -eq 0 ] || diff trace_text report_text | sed 's/^/# /'
[ $rt_fails -eq 0 ] || sed 's/^/# /' report

# Its enabled events (extract disabled them: enabled again here): "All
# enabled" if tcday is the only event with an enable file, else listed
# under the kprobes system.
echo kprobes:tcday > "$T/set_event"
trace-cmd stat > stat 2>&1 && grep -q 'p:kprobes/tcday ringtrace_kprobe_target' stat &&
	grep -q 'All enabled\|^ *tcday$' stat
rt_result $? "trace-cmd stat shows the probe and that it is enabled"
[ $rt_fails -eq 0 ] || sed 's/^/# /' stat

trace-cmd record -b 64 -e kprobes/tcday -o "$dir/r.dat" -- sh -c "echo 2 > $TARGET_CALL" \
	> rec 2>&1
rc=$?
n=$(trace-cmd report -i "$dir/r.dat" 2> /dev/null | hits)
[ $rc -eq 0 ] && [ "$n" -eq 2 ]
rt_result $? "trace-cmd record -b 64 -e kprobes/tcday -- 2 calls: 2 in the file ($n, exit $rc)"
! grep -q -- '-1 events lost\|-1 events' rec && grep -q 'CPU0 data recorded' rec
rt_result $? "its summary counts no '-1' lost events"
[ $rt_fails -eq 0 ] || sed 's/^/# /' rec

# stream: started, 2 calls: both printed.  Its own process group, killed
# at the end: trace-cmd 3.1's stream does not end on SIGINT while no new
# record comes (measured the same on upstream 6.1's ftrace).  Line-buffered
# so that what it printed is in the file when it is killed.
echo > "$T/set_event"
echo 1 > "$T/tracing_on"
setsid stdbuf -oL trace-cmd stream -e kprobes/tcday > stream 2>&1 &
stream_pid=$!
# trace-cmd turns tracing off, empties the buffer, enables the event, then
# turns tracing on: wait for the last two.  (The waits' rounds scaled to
# the machine's speed.)
for i in $(seq "$(rt_scaled 100)"); do
	[ "$(cat "$T/events/kprobes/tcday/enable")" = 1 ] &&
		[ "$(cat "$T/tracing_on")" = 1 ] && break
	sleep 0.2
done
calls 2
for i in $(seq "$(rt_scaled 60)"); do
	[ "$(hits stream)" -ge 2 ] && break
	sleep 0.5
done
kill -KILL -- -"$stream_pid" 2> /dev/null
wait "$stream_pid" 2> /dev/null
stream_pid=
n=$(hits stream)
[ "$n" -eq 2 ]
rt_result $? "trace-cmd stream -e kprobes/tcday prints the 2 calls made meanwhile ($n)"
[ "$n" -eq 2 ] || { head -20 stream; cat "$T"/per_cpu/cpu*/stats "$T/tracing_on" "$T/set_event"; } | sed 's/^/# /'

echo kprobes:tcday > "$T/set_event"
trace-cmd reset > out 2>&1
[ -z "$(cat "$T/set_event")" ] && [ "$(cat "$T/tracing_on")" = 1 ]
rt_result $? "trace-cmd reset: no event enabled, tracing on"
[ -z "$(cat "$T/kprobe_events")" ]
rt_result $? "trace-cmd reset: the kprobe is removed, as on upstream"
rt_exit
