#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a task that writes markers before and after an exec shows
#              under its new name in trace: names are looked up by pid when
#              trace is read
# requires: trace trace_marker tracing_on /bin/echo

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
trap 'echo > "$T/trace"' EXIT
rt_plan 1

echo 1 > "$T/tracing_on"
# One pid, two names: a shell writes a marker, then execs echo, which
# writes the second.  Names are looked up by pid when trace is read: both
# records show the name the task had at its last record.
echo > "$T/trace"
mark="comm-$$-$RANDOM"
bash -c "echo $mark-before > $T/trace_marker; exec /bin/echo $mark-after > $T/trace_marker"
line=$(grep -- ": $mark-after\$" "$T/trace")
echo "# ${line:-no record of $mark-after}"
[[ $line =~ ^\ *echo-[0-9]+\  ]]
rt_result $? "a task traced before and after its exec shows its new name"
rt_exit
