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
rt_plan 11

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
want='print fmt: "%lx: %u cnt=%d name=\"%s\" x=0x%x 0x%lx", REC->ip, REC->arg0, REC->cnt, __get_str(name), REC->x, REC->arg4'
got=$(grep '^print fmt: ' $E/kprobes/fmtp/format)
[ "$got" = "$want" ]
rt_result $? "a kprobe event's print fmt converts each type as trace prints it, with NAME= (${got:0:120})"
args=
want='REC->ip'
for i in $(seq 40); do
	name=an_argument_name_of_thirty_two_$(printf '%02d' "$i")
	args="$args $name=%di"
	want="$want, REC->$name"
done
echo "p:longnames vfs_read$args" > $T/kprobe_events
got=$(grep '^print fmt: ' $E/kprobes/longnames/format)
[ "${got#*\", }" = "$want" ]
rt_result $? "40 arguments with 32-character names: print fmt not cut"
echo > $T/kprobe_events
rt_exit
