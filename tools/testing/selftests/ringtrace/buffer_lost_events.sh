#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a flooded 4 KiB flight recorder on CPU 0 says what it lost:
#              trace and trace_pipe print "CPU:0 [LOST N EVENTS]"
# requires: trace trace_pipe trace_marker tracing_on buffer_size_kb
# requires: options/overwrite cmd:taskset cmd:dd

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
old_kb=$(cat $T/buffer_size_kb)
old_overwrite=$(cat $T/options/overwrite)
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	echo "$old_kb" > "$T/buffer_size_kb"
	echo "$old_overwrite" > "$T/options/overwrite"
	echo 1 > "$T/tracing_on"
}
trap cleanup EXIT
rt_plan 2

echo 1 > $T/tracing_on
echo > $T/trace
echo 1 > $T/options/overwrite
echo 4 > $T/buffer_size_kb
taskset -c 0 sh -c "for i in \$(seq 400); do echo flood > $T/trace_marker; done"
grep -Eq '^CPU:0 \[LOST [0-9]+ EVENTS\]$' $T/trace
rt_result $? "trace notes the events CPU 0 lost"
dd if=$T/trace_pipe bs=65536 count=1 iflag=nonblock 2>/dev/null |
	grep -Eq '^CPU:0 \[LOST [0-9]+ EVENTS\]$'
rt_result $? "trace_pipe notes them too"
rt_exit
