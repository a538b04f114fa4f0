#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: per_cpu/cpuN/stats has upstream's fields in upstream's
#              order (ringtrace's own, written and discarded, after them)
#              and counts that match the markers this test wrote on CPU 0
# requires: set_event per_cpu/cpu0/stats trace_marker tracing_on trace
# requires: cmd:taskset

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING

cleanup() {
	echo > "$T/set_event"
	echo 1 > "$T/tracing_on"
}
# No event may record on CPU 0 beside the markers.
echo > "$T/set_event" || rt_skip "cannot clear set_event"
trap cleanup EXIT
rt_plan 2

# stats: upstream's fields in its order, then ringtrace's; the counts
# match what this test wrote on one CPU.
echo 0 > "$T/tracing_on"
echo > "$T/trace"
echo 1 > "$T/tracing_on"
taskset -c 0 sh -c "for i in 1 2 3 4 5; do echo sev-\$i > $T/trace_marker; done"
echo 0 > "$T/tracing_on"
fields=$(sed 's/:.*//' "$T/per_cpu/cpu0/stats" | tr '\n' ',')
want='entries,overrun,commit overrun,bytes,oldest event ts,now ts,dropped events,read events,written,discarded,'
[ "$fields" = "$want" ]
rt_result $? "stats has upstream's fields in upstream's order, then written and discarded ($fields)"
field() { sed -n "s/^$1: //p" "$T/per_cpu/cpu0/stats"; }
[ "$(field entries)" = 5 ] && [ "$(field 'dropped events')" = 0 ] &&
	[ "$(field 'read events')" = 0 ] && [ "$(field 'commit overrun')" = 0 ]
rt_result $? "5 markers on CPU 0: entries 5, 0 dropped, 0 read ($(tr '\n' ' ' < "$T/per_cpu/cpu0/stats"))"
rt_exit
