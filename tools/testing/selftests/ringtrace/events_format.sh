#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: an event's format (ftrace:print's): its ID is the id
#              file's, it names the event, the common fields sit at 0, 2,
#              3, 4 and 8 with signed:, and print fmt names fields REC->
# requires: events/ftrace/print/format

. "$(dirname "$0")/ringtrace_lib.sh"
P=$TRACING/events/ftrace/print
rt_plan 5

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
rt_exit
