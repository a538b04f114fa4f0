#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: reading trace does not consume: a second read shows the
#              same markers
# requires: trace trace_marker tracing_on

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	echo > "$T/trace"
	echo 1 > "$T/tracing_on"
}
trap cleanup EXIT
rt_plan 1

echo 1 > $T/tracing_on
echo > $T/trace
echo first-marker > $T/trace_marker
echo second-marker > $T/trace_marker

[ "$(grep -c -- '-marker$' $T/trace)" = 2 ] && [ "$(grep -c -- '-marker$' $T/trace)" = 2 ]
rt_result $? "reading trace twice shows both markers both times"
rt_exit
