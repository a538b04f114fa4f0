#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: tracedat record of a trace_marker session: every marker is
#              in the file, and tracedat report and unmodified trace-cmd
#              report print the same thing, line for line
# requires: tool:tracedat cmd:trace-cmd trace_marker events/ftrace/print

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracedat
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
rt_plan 3

"$TD" record -e ftrace/print -o "$dir/m.dat" -- \
	sh -c "for i in 1 2 3 4 5; do echo marker \$i > $TRACING/trace_marker; done" \
	2> "$dir/err"
rc=$?
[ $rc -eq 0 ] && [ -s "$dir/m.dat" ]
rt_result $? "record -e ftrace/print -- COMMAND writes the file (exit $rc)"
n=$("$TD" report "$dir/m.dat" | grep -c ': print: .*: marker [1-5]$')
[ "$n" -eq 5 ]
rt_result $? "the 5 markers are in it ($n)"
rt_same_report "$dir/m.dat"
rt_result $? "tracedat report and trace-cmd report agree line for line"
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$dir/err" "$dir/diff"
rt_exit
