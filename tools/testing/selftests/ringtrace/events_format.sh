#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: events/ has header_event (the original record header) and an
#              empty header_page; an event's id, format (common fields at 0, 2, 3,
#              4, 8, print fmt with REC->) and filter files
# requires: events/header_event events/ftrace/print/format

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing

E=$TRACING/events
P=$E/ftrace/print
rt_plan 9

grep -q 'type        :    2 bits' $E/header_event &&
	grep -q 'len         :    3 bits' $E/header_event &&
	grep -q 'time_delta  :   27 bits' $E/header_event &&
	grep -q 'data        : type == 3' $E/header_event
rt_result $? "header_event describes type:2, len:3, time_delta:27"
[ -f $E/header_page ] && [ ! -s $E/header_page ] && [ -z "$(cat $E/header_page)" ]
rt_result $? "header_page is empty: readers use the original page layout"
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
