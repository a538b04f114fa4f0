#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace starts with its header and prints each marker as
#              "comm-pid [cpu] secs.usecs: tracing_mark_write: text",
#              oldest first
# requires: trace trace_marker tracing_on

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	echo > "$T/trace"
	echo 1 > "$T/tracing_on"
}
trap cleanup EXIT
rt_plan 3
line_re='^ +[^ ]+-[0-9]+ +\[[0-9]{3}\] +[0-9]+\.[0-9]{6}: tracing_mark_write: '

echo 1 > $T/tracing_on
echo > $T/trace
echo first-marker > $T/trace_marker
echo second-marker > $T/trace_marker

head -4 $T/trace | grep -q '^# tracer: nop$'
rt_result $? "trace starts with the header"
grep -Eq "${line_re}first-marker\$" $T/trace
rt_result $? "a marker prints as comm-pid [cpu] secs.usecs: text"
[ "$(grep -- '-marker$' $T/trace | head -1 | sed 's/.*: //')" = first-marker ]
rt_result $? "oldest first"
rt_exit
