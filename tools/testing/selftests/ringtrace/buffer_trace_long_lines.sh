#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a record's line of 2.4 KiB prints whole; one longer than a
#              page (4096 bytes) is cut with " [...]" and ends with its
#              newline, in trace and in trace_pipe
# requires: trace trace_pipe trace_marker tracing_on kprobe_events cmd:dd

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	echo 0 > "$T/events/kprobes/wide/enable" 2>/dev/null
	echo > "$T/kprobe_events"
	echo > "$T/trace"
}
trap cleanup EXIT
rt_plan 3
line_re='^ +[^ ]+-[0-9]+ +\[[0-9]{3}\] +[0-9]+\.[0-9]{6}: tracing_mark_write: '

echo 1 > $T/tracing_on
# 128 hexadecimal fetch-args print about 2.4 KiB: whole, as upstream's
# page-sized lines.  20 arrays of 64 stack bytes print over 5 KiB: cut.
args=
for i in $(seq 128); do args="$args %di"; done
echo > $T/trace
echo "p:wide vfs_read$args" > $T/kprobe_events &&
	echo 1 > $T/events/kprobes/wide/enable &&
	cat /proc/version > /dev/null &&
	echo 0 > $T/events/kprobes/wide/enable
line=$(grep -m 1 ': vfs_read+0x0/' $T/trace)
n=$(printf '%s\n' "$line" | awk '{ print NF }')
[ "${#line}" -gt 2048 ] && [ "$n" -ge 128 ] && [[ $line != *'[...]' ]]
rt_result $? "trace: a record's line of ${#line} bytes (128 values) is whole"
args=
for i in $(seq 20); do args="$args +0(\$stack):x8[64]"; done
echo > $T/trace
echo "p:wide vfs_read$args" > $T/kprobe_events &&
	echo 1 > $T/events/kprobes/wide/enable &&
	cat /proc/version > /dev/null &&
	echo 0 > $T/events/kprobes/wide/enable &&
	echo after-wide > $T/trace_marker
out=$(cat $T/trace)
line=$(printf '%s\n' "$out" | grep -m 1 ': vfs_read+0x0/')
echo "$out" | grep -Eq '^ +[^ ]+-[0-9]+ +\[[0-9]{3}\] +[0-9.]+: vfs_read\+0x0/0x[0-9a-f]+: \{0x.* \[\.\.\.\]$' &&
	[ "${#line}" -le 4095 ] && [ "${#line}" -gt 4000 ] &&
	! echo "$out" | grep -q 'vfs_read+0x0.*after-wide' &&
	echo "$out" | grep -Eq "${line_re}after-wide\$"
rt_result $? "trace: a record's line over a page (${#line} bytes shown) ends with ' [...]' and a newline"
echo after-wide-2 > $T/trace_marker
out=$(dd if=$T/trace_pipe bs=65536 iflag=nonblock 2>/dev/null)
echo "$out" | grep -Eq ' \[\.\.\.\]$' &&
	! echo "$out" | grep -q 'vfs_read+0x0.*after-wide' &&
	echo "$out" | grep -Eq "${line_re}after-wide-2\$"
rt_result $? "trace_pipe: the same"
rt_exit
