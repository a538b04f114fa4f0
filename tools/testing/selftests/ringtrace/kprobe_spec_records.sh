#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the spec's example probe and return probe on do_sys_open,
#              enabled, record "do_sys_open+0x0/0x..: ARGS" and
#              "SYM+0x../0x.. <- do_sys_open: ARGS" lines, filter on an
#              alias, count in kprobe_profile; removing them keeps them
# requires: kprobe_events kprobe_profile trace

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes
trap 'echo 0 2> /dev/null > $K/enable; echo > $T/kprobe_events' EXIT
rt_plan 5

echo > $T/kprobe_events
echo > $T/trace
echo p:myprobe do_sys_open a0 a1 a2 a3 > /sys/kernel/debug/tracing/kprobe_events
echo r:myretprobe do_sys_open rv ra >> /sys/kernel/debug/tracing/kprobe_events

echo 'a0 != 0' > $K/myprobe/filter
[ "$(cat $K/myprobe/filter)" = 'a0 != 0' ]
rt_result $? "filters may name aliases"
echo 1 > $K/myprobe/enabled
echo 1 > $K/myretprobe/enable
cat /proc/version > /dev/null
cat /etc/hostname > /dev/null
echo 0 > $K/myprobe/enabled
echo 0 > $K/myretprobe/enabled
grep -Eq ': do_sys_open\+0x0/0x[0-9a-f]+: 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+$' $T/trace
rt_result $? "trace shows 'do_sys_open+0x0/0x..: 0x.. 0x.. 0x.. 0x..'"
grep -Eq '[a-z_0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+ <- do_sys_open: 0x[0-9a-f]+ 0x[0-9a-f]+$' $T/trace
rt_result $? "trace shows 'SYM+0x../0x.. <- do_sys_open: 0x.. 0x..'"
hits=$(awk '$1 == "myprobe" { print $2 }' $T/kprobe_profile)
[ "${hits:-0}" -gt 0 ]
rt_result $? "kprobe_profile counts hits ($hits)"

echo -:myprobe >> $T/kprobe_events
echo > $T/kprobe_events
grep -Eq ': do_sys_open\+0x0/0x[0-9a-f]+: 0x' $T/trace &&
	grep -q ' <- do_sys_open: 0x' $T/trace
rt_result $? "as in the spec, trace still shows their records after removing the probes"
echo > $T/trace
rt_exit
