#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: tracing_on reads back the 0 or 1 written, refuses other
#              values with EINVAL and stays as it was; at 0 nothing new
#              is recorded and what was recorded is kept
# requires: tracing_on trace trace_marker

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	echo 1 > "$T/tracing_on"
}
trap cleanup EXIT
rt_plan 4

echo 0 > $T/tracing_on
[ "$(cat $T/tracing_on)" = 0 ]
rt_result $? "tracing_on reads 0 after writing 0"
echo 1 > $T/tracing_on
[ "$(cat $T/tracing_on)" = 1 ]
rt_result $? "tracing_on reads 1 after writing 1"
rt_write_fails $T/tracing_on maybe && [ "$(cat $T/tracing_on)" = 1 ]
rt_result $? "tracing_on refuses 'maybe' and stays 1"

echo > $T/trace
echo kept-marker > $T/trace_marker
echo 0 > $T/tracing_on
echo lost-marker > $T/trace_marker
grep -q 'kept-marker$' $T/trace && ! grep -q 'lost-marker$' $T/trace
rt_result $? "tracing_on 0: nothing new is recorded, the rest is kept"
rt_exit
