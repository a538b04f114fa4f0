#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd stat, unmodified, against ringtrace: it shows the
#              kprobe this test defined on ringtrace_kprobe_target.ko and
#              that its event is enabled
# requires: cmd:trace-cmd kprobe_events set_event module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING
dir=$(mktemp -d)
trap 'rm -rf "$dir"; echo > "$T/set_event"; echo > "$T/kprobe_events"' EXIT
rt_plan 1
cd "$dir" || exit 1
echo 'p:kprobes/tcday ringtrace_kprobe_target a0 a1' > "$T/kprobe_events"

# Its enabled events: "All enabled" if tcday is the only event with an
# enable file, else listed under the kprobes system.
echo kprobes:tcday > "$T/set_event"
trace-cmd stat > stat.out 2>&1 && grep -q 'p:kprobes/tcday ringtrace_kprobe_target' stat.out &&
	grep -q 'All enabled\|^ *tcday$' stat.out
rt_result $? "trace-cmd stat shows the probe and that it is enabled"
[ $rt_fails -eq 0 ] || sed 's/^/# /' stat.out
rt_exit
