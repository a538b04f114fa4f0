#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a point appended to an event must match it: another kind,
#              other names, types or aliases, a point it has, an upstream
#              probe's fetch-arg named are refused; appended to an event of
#              the other style (options/upstream_kprobes), it is the event's
# requires: kprobe_events options/upstream_kprobes
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
O=$T/options/upstream_kprobes
trap 'echo 0 > $O; echo > $T/kprobe_events' EXIT
rt_plan 3

echo > $T/kprobe_events
echo 'p:mp ringtrace_kprobe_target x=a0' > $T/kprobe_events &&
	echo 'p:mp rtkt_call_write x=a2' >> $T/kprobe_events
want='p:kprobes/mp ringtrace_kprobe_target+0 x=a0
p:kprobes/mp rtkt_call_write+0 x=a2'

refused=0
echo 'r:mp vfs_read x=a0' >> $T/kprobe_events 2> /dev/null && refused=1
echo 'p:mp vfs_read y=a0' >> $T/kprobe_events 2> /dev/null && refused=1
echo 'p:mp vfs_read x=a0:u8' >> $T/kprobe_events 2> /dev/null && refused=1
echo 'p:mp vfs_read' >> $T/kprobe_events 2> /dev/null && refused=1
echo 'p:mp vfs_read a0' >> $T/kprobe_events 2> /dev/null && refused=1
echo 'p:mp rtkt_call_write x=a2' >> $T/kprobe_events 2> /dev/null && refused=1
[ $refused -eq 0 ] && [ "$(cat $T/kprobe_events)" = "$want" ]
rt_result $? "appending another kind, other names, types or aliases, or a point mp has: refused, mp intact"

# An alias names a field for filters: a0 and a1 (both the field arg0)
# cannot share it.  Upstream's probes: the same fetch-arg with its name
# written out is the same probe.
echo 'p:al ringtrace_kprobe_target a0' > $T/kprobe_events
refused=0
echo 'p:al rtkt_call_write a1' >> $T/kprobe_events 2> /dev/null && refused=1
echo 1 > $O
echo 'p:up vfs_read %di' >> $T/kprobe_events &&
	echo 'p:up vfs_read arg1=%di' >> $T/kprobe_events 2> /dev/null && refused=1
echo 0 > $O
[ $refused -eq 0 ] && [ "$(grep -c '^p:kprobes/al ' $T/kprobe_events)" -eq 1 ] &&
	[ "$(grep -c '^p:kprobes/up ' $T/kprobe_events)" -eq 1 ]
rt_result $? "appends with another alias, or an upstream probe's same fetch-arg named: refused"
# A point appended to an event of the other style is read in the event's.
echo 'p:st ringtrace_kprobe_target %di' > $T/kprobe_events
echo 1 > $O
echo 'p:st rtkt_call_write %dx' >> $T/kprobe_events
echo 0 > $O
echo 'p:up vfs_read %di' >> $T/kprobe_events
echo 1 > $O
echo 'p:up vfs_write %si' >> $T/kprobe_events
echo 0 > $O
want='p:kprobes/st ringtrace_kprobe_target+0 %di
p:kprobes/st rtkt_call_write+0 %dx
p:kprobes/up vfs_read+0 %di
p:kprobes/up vfs_write+0 %si'
[ "$(cat $T/kprobe_events)" = "$want" ]
rt_result $? "a point appended to an event of the other style takes the event's names and listing"
[ $rt_fails -eq 0 ] || sed 's/^/# /' $T/kprobe_events
echo > $T/kprobe_events
rt_exit
