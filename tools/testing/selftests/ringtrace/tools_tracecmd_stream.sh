#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd stream, unmodified, against ringtrace: started on
#              a kprobe event of ringtrace_kprobe_target.ko, it prints the
#              calls this test makes meanwhile
# requires: cmd:trace-cmd cmd:setsid cmd:stdbuf cmd:timeout
# requires: kprobe_events set_event module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target
T=$TRACING
dir=$(mktemp -d)
stream_pid=
trap '[ -n "$stream_pid" ] && kill -KILL -- -"$stream_pid" 2> /dev/null
      rm -rf "$dir"; echo > "$T/set_event"; echo > "$T/kprobe_events"
      echo 1 > "$T/tracing_on"' EXIT
rt_plan 1
cd "$dir" || exit 1
echo 'p:kprobes/tcday ringtrace_kprobe_target a0 a1' > "$T/kprobe_events"

# calls N: call the target N times.
calls() { echo "$1" > "$TARGET_CALL"; }
# Its records, as trace-cmd's reports show them.
hits() { grep -c ' tcday: ' "$@"; }

# stream: started, 2 calls: both printed.  Its own process group, killed
# at the end: trace-cmd 3.1's stream does not end on SIGINT while no new
# record comes (measured the same on upstream 6.1's ftrace).  Line-buffered
# so that what it printed is in the file when it is killed.
echo > "$T/set_event"
echo 1 > "$T/tracing_on"
setsid stdbuf -oL trace-cmd stream -e kprobes/tcday > stream.out 2>&1 &
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
	[ "$(hits stream.out)" -ge 2 ] && break
	sleep 0.5
done
kill -KILL -- -"$stream_pid" 2> /dev/null
wait "$stream_pid" 2> /dev/null
stream_pid=
n=$(hits stream.out)
[ "$n" -eq 2 ]
rt_result $? "trace-cmd stream -e kprobes/tcday prints the 2 calls made meanwhile ($n)"
[ "$n" -eq 2 ] || { head -20 stream.out; cat "$T"/per_cpu/cpu*/stats "$T/tracing_on" "$T/set_event"; } | sed 's/^/# /'
rt_exit
