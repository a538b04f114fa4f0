#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: writing to trace (echo > trace) empties the buffer
# requires: trace trace_marker tracing_on

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	echo 1 > "$T/tracing_on"
}
trap cleanup EXIT
rt_plan 1

echo 1 > $T/tracing_on
echo clear-marker > $T/trace_marker
echo > $T/trace
[ "$(grep -vc '^#' $T/trace)" = 0 ]
rt_result $? "echo > trace empties the buffer"
rt_exit
