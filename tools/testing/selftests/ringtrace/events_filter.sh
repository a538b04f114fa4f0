#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: an event's filter reads none when there is none, keeps the
#              records it accepts and only those, reads back as written,
#              and writing 0 clears it
# requires: events/ftrace/print/filter trace_marker trace

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING
F=$T/events/ftrace/print/filter
trap 'echo 0 > $F' EXIT
rt_plan 4

[ "$(cat $F)" = none ]
rt_result $? "filter reads none when there is none"

echo > $T/trace
echo 'buf ~ "keep*"' > $F
echo keep-this > $T/trace_marker
echo drop-this > $T/trace_marker
grep -q 'keep-this$' $T/trace && ! grep -q 'drop-this$' $T/trace
rt_result $? "a filter keeps the records it accepts and only those"
echo 0 > $F
[ "$(cat $F)" = none ]
rt_result $? "writing 0 clears the filter"

good='common_pid > 0 && !(buf ~ "zz*")'
echo "$good" > $F
[ "$(cat $F)" = "$good" ]
rt_result $? "the filter file shows the filter"
rt_exit
