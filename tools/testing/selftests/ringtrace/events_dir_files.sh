#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: events/ has its own files: header_event and header_page,
#              the layout of the records and pages trace_pipe_raw gives,
#              and enable, as each system has
# requires: events/header_event

. "$(dirname "$0")/ringtrace_lib.sh"
E=$TRACING/events
rt_plan 3

grep -q 'type_len    :    5 bits' $E/header_event &&
	grep -q 'time_delta  :   27 bits' $E/header_event &&
	grep -q 'padding     : type == 29' $E/header_event &&
	grep -q 'data max type_len  == 28' $E/header_event
rt_result $? "header_event describes type_len:5, time_delta:27 (trace_pipe_raw's records)"
grep -qP '^\tfield: u64 timestamp;\toffset:0;\tsize:8;' $E/header_page &&
	grep -qP '^\tfield: local_t commit;\toffset:8;\tsize:8;' $E/header_page &&
	grep -qP '^\tfield: char data;\toffset:16;\tsize:4080;' $E/header_page
rt_result $? "header_page describes the page: time stamp, commit at 8, data at 16"
[ -e $E/enable ] && [ -e $E/ftrace/enable ]
rt_result $? "events/enable and events/<system>/enable exist"
rt_exit
