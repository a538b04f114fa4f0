#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: current_tracer and available_tracers read nop, the one
#              tracer, and writing nop works; writing another tracer
#              fails, logged in error_log, and nop stays
# requires: current_tracer available_tracers error_log

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING

cleanup() {
	echo nop 2> /dev/null > "$T/current_tracer"
	echo > "$T/error_log"
}
trap cleanup EXIT
rt_plan 2

[ "$(cat "$T/current_tracer")" = nop ] && [ "$(cat "$T/available_tracers")" = nop ] &&
	echo nop > "$T/current_tracer"
rt_result $? "current_tracer and available_tracers read nop; writing nop works"
echo > "$T/error_log"
! (echo function > "$T/current_tracer") 2> /dev/null &&
	[ "$(cat "$T/current_tracer")" = nop ] && grep -q current_tracer "$T/error_log"
rt_result $? "writing another tracer fails, logged; nop stays"
rt_exit
