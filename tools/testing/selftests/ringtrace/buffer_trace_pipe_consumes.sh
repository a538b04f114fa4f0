#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace_pipe returns the markers in trace's line shape and
#              consumes them: a non-blocking read then gets EAGAIN, and
#              trace no longer shows them
# requires: trace trace_pipe trace_marker tracing_on cmd:timeout cmd:dd

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

# Non-blocking: only a hang takes the timeout's time.
got=$(timeout "$(rt_scaled 10)" dd if=$T/trace_pipe bs=4096 count=1 iflag=nonblock 2>/dev/null)
echo "$got" | grep -Eq "${line_re}first-marker\$" &&
	echo "$got" | grep -q 'second-marker$'
rt_result $? "trace_pipe returns the markers"
dd if=$T/trace_pipe bs=4096 count=1 iflag=nonblock 2>&1 | grep -q 'Resource temporarily unavailable'
rt_result $? "trace_pipe consumed them: a non-blocking read gets EAGAIN"
[ "$(grep -c -- '-marker$' $T/trace)" = 0 ]
rt_result $? "trace no longer shows consumed markers"
rt_exit
