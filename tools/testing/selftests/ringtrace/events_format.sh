#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: events/ has header_event and header_page (the layout of the
#              pages trace_pipe_raw gives); an event's id, format (common fields at 0, 2, 3,
#              4, 8, print fmt with REC->) and filter files
# requires: events/header_event events/ftrace/print/format

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing

E=$TRACING/events
P=$E/ftrace/print
rt_plan 9

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
rt_exit
