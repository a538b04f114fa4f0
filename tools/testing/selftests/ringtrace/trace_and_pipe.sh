#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace shows markers with the header and the line shape
#              "comm-pid [cpu] secs.usecs: text" without consuming them;
#              trace_pipe consumes; echo > trace clears; tracing_on 0 stops
#              recording but keeps what was recorded; lost events are noted;
#              a line of 2.4 KiB is whole, one longer than a page (4096
#              bytes) is cut with " [...]" and ends with its newline
# requires: trace trace_pipe trace_marker tracing_on taskset kprobe_events

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing

T=$TRACING
rt_plan 14
line_re='^ +[^ ]+-[0-9]+ +\[[0-9]{3}\] +[0-9]+\.[0-9]{6}: tracing_mark_write: '

echo 1 > $T/tracing_on
echo > $T/trace
echo first-marker > $T/trace_marker
echo second-marker > $T/trace_marker

head -4 $T/trace | grep -q '^# tracer: nop$'
rt_result $? "trace starts with the header"
grep -Eq "${line_re}first-marker\$" $T/trace
rt_result $? "a marker prints as comm-pid [cpu] secs.usecs: text"
[ "$(grep -c -- '-marker$' $T/trace)" = 2 ] && [ "$(grep -c -- '-marker$' $T/trace)" = 2 ]
rt_result $? "reading trace twice shows both markers both times"
[ "$(grep -- '-marker$' $T/trace | head -1 | sed 's/.*: //')" = first-marker ]
rt_result $? "oldest first"

# Non-blocking: only a hang takes the timeout's time.
got=$(timeout "$(rt_scaled 10)" dd if=$T/trace_pipe bs=4096 count=1 iflag=nonblock 2>/dev/null)
echo "$got" | grep -Eq "${line_re}first-marker\$" &&
	echo "$got" | grep -q 'second-marker$'
rt_result $? "trace_pipe returns the markers"
dd if=$T/trace_pipe bs=4096 count=1 iflag=nonblock 2>&1 | grep -q 'Resource temporarily unavailable'
rt_result $? "trace_pipe consumed them: a non-blocking read gets EAGAIN"
[ "$(grep -c -- '-marker$' $T/trace)" = 0 ]
rt_result $? "trace no longer shows consumed markers"

echo kept-marker > $T/trace_marker
echo 0 > $T/tracing_on
echo lost-marker > $T/trace_marker
grep -q 'kept-marker$' $T/trace && ! grep -q 'lost-marker$' $T/trace
rt_result $? "tracing_on 0: nothing new is recorded, the rest is kept"
echo 1 > $T/tracing_on
echo > $T/trace
[ "$(grep -vc '^#' $T/trace)" = 0 ]
rt_result $? "echo > trace empties the buffer"

# A flooded 4 KiB flight recorder on CPU 0 says what it lost.
old_kb=$(cat $T/buffer_size_kb)
old_overwrite=$(cat $T/options/overwrite)
echo 1 > $T/options/overwrite
echo 4 > $T/buffer_size_kb
taskset -c 0 sh -c "for i in \$(seq 400); do echo flood > $T/trace_marker; done"
grep -Eq '^CPU:0 \[LOST [0-9]+ EVENTS\]$' $T/trace
rt_result $? "trace notes the events CPU 0 lost"
dd if=$T/trace_pipe bs=65536 count=1 iflag=nonblock 2>/dev/null |
	grep -Eq '^CPU:0 \[LOST [0-9]+ EVENTS\]$'
rt_result $? "trace_pipe notes them too"
echo "$old_kb" > $T/buffer_size_kb
echo "$old_overwrite" > $T/options/overwrite

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
echo > $T/kprobe_events
rt_exit
