#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace_clock lists local (the current one) and global,
#              switches to global, and refuses an unknown clock with EINVAL
#              keeping the current one
# requires: trace_clock

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	echo local > "$T/trace_clock"
}
trap cleanup EXIT
rt_plan 3

grep -q '^\[local\] global$' $T/trace_clock
rt_result $? "trace_clock lists local (current) and global"
echo global > $T/trace_clock && grep -q '^local \[global\]$' $T/trace_clock
rt_result $? "trace_clock switches to global"
rt_write_fails $T/trace_clock sundial && grep -q '^local \[global\]$' $T/trace_clock
rt_result $? "trace_clock refuses 'sundial' and stays global"
rt_exit
