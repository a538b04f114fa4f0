#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: events/ has header_event and header_page (the layout of the
#              pages trace_pipe_raw gives); an event's id, format (common fields at 0, 2, 3,
#              4, 8, print fmt with REC->) and filter files; a kprobe
#              event's print fmt prints what trace does (names, types),
#              however long its argument names
# requires: events/header_event events/ftrace/print/format kprobe_events

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing

E=$TRACING/events
P=$E/ftrace/print
rt_plan 12

grep -q 'type_len    :    5 bits' $E/header_event &&
	grep -q 'time_delta  :   27 bits' $E/header_event &&
	grep -q 'padding     : type == 29' $E/header_event &&
	grep -q 'data max type_len  == 28' $E/header_event
rt_result $? "header_event describes type_len:5, time_delta:27 (trace_pipe_raw's records)"
grep -qP '^\tfield: u64 timestamp;\toffset:0;\tsize:8;' $E/header_page &&
	grep -qP '^\tfield: local_t commit;\toffset:8;\tsize:8;' $E/header_page &&
	grep -qP '^\tfield: char data;\toffset:16;\tsize:4080;' $E/header_page
rt_result $? "header_page describes the page: time stamp, commit at 8, data at 16"
[ "$(sed -n 's/^ID: //p' $P/format)" = "$(cat $P/id)" ]
rt_result $? "format's ID is the id file's"
grep -q '^name: print$' $P/format
rt_result $? "format names the event"
expect="common_type:0:2 common_flags:2:1 common_preempt_count:3:1 common_pid:4:4 common_tgid:8:4"
got=$(sed -n 's/^\tfield:[^;]* \([a-z_]*\);\toffset:\([0-9]*\);\tsize:\([0-9]*\);.*/\1:\2:\3/p' $P/format |
	head -5 | tr '\n' ' ')
[ "$got" = "$expect " ]
rt_result $? "common fields at offsets 0, 2, 3, 4, 8 ($got)"
grep -q 'signed:' $P/format && [ "$(grep -c '^$' $P/format)" -ge 2 ]
rt_result $? "fields say signed:, a blank line separates common fields"
grep -q '^print fmt: ".*", .*REC->buf' $P/format
rt_result $? "print fmt names fields as REC->name"
[ "$(cat $P/filter)" = none ]
rt_result $? "filter reads none when there is none"
[ -e $E/enable ] && [ -e $E/ftrace/enable ]
rt_result $? "events/enable and events/<system>/enable exist"

T=$TRACING
echo > $T/kprobe_events
echo 'p:fmtp vfs_read a0:u32 cnt=a2:s16 name=+0(%si):string x=a1:x8 a3' > $T/kprobe_events
got=$(grep '^print fmt: ' $E/kprobes/fmtp/format)
# The head is the probe point as trace prints it: text, not %lx.
echo > $T/trace
echo 1 > $E/kprobes/fmtp/enable
cat $E/kprobes/fmtp/format > /dev/null
echo 0 > $E/kprobes/fmtp/enable
head=$(grep -v '^#' $T/trace | head -n 1 | sed -n 's/^.*[0-9]: \(vfs_read+0x0\/0x[0-9a-f]*\): .*/\1/p')
want="print fmt: \"$head: %u cnt=%d name=\\\"%s\\\" x=0x%x 0x%lx\", REC->arg0, REC->cnt, __get_str(name), REC->x, REC->arg4"
[ -n "$head" ] && [ "$got" = "$want" ]
rt_result $? "a kprobe event's print fmt: the probe point as trace prints it ($head), each type converted as trace does, NAME= (${got:0:120})"
echo 'r:fmtr vfs_read $retval ret=$retval:s32' > $T/kprobe_events
got=$(grep '^print fmt: ' $E/kprobes/fmtr/format)
want='print fmt: "%pS <- vfs_read: 0x%lx ret=%d", REC->ret_ip, REC->arg0, REC->ret'
[ "$got" = "$want" ]
rt_result $? "a return probe's print fmt: the return site by %pS, the function as text ($got)"
args=
want=
for i in $(seq 40); do
	name=an_argument_name_of_thirty_two_$(printf '%02d' "$i")
	args="$args $name=%di"
	want="$want${want:+, }REC->$name"
done
echo "p:longnames vfs_read$args" > $T/kprobe_events
got=$(grep '^print fmt: ' $E/kprobes/longnames/format)
[ "${got#*\", }" = "$want" ]
rt_result $? "40 arguments with 32-character names: print fmt not cut"
echo > $T/kprobe_events
rt_exit
