#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd list, unmodified, against ringtrace: -e names the
#              kprobe event this test defined on ringtrace_kprobe_target.ko,
#              -t the nop tracer
# requires: cmd:trace-cmd kprobe_events module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING
dir=$(mktemp -d)
trap 'rm -rf "$dir"; echo > "$T/kprobe_events"' EXIT
rt_plan 1
cd "$dir" || exit 1
echo 'p:kprobes/tcday ringtrace_kprobe_target a0 a1' > "$T/kprobe_events"

trace-cmd list -e > list.out 2>&1 && grep -qx 'kprobes:tcday' list.out &&
	trace-cmd list -t 2>&1 | grep -qw nop
rt_result $? "trace-cmd list -e names kprobes:tcday; list -t names nop"
rt_exit
