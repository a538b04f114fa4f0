#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: unloading a module removes the probes on its functions,
#              enabled or not, with their kprobe_profile lines, and only
#              those (an event's point elsewhere stays); its functions take
#              no probe until it is back, then new probes record again
# requires: kprobe_events kprobe_profile trace cmd:rmmod
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target

T=$TRACING
K=$T/events/kprobes
E=$K/mp
trap 'echo 0 2> /dev/null > $K/enable; echo > $T/kprobe_events' EXIT
rt_plan 5

hits() { awk -v e="$1" '$1 == e { print $2 }' $T/kprobe_profile; }
mod=' \[ringtrace_kprobe_target\]'

echo > $T/kprobe_events
echo > $T/trace
echo 'p:fetch ringtrace_kprobe_target a0' > $T/kprobe_events
echo 'r:fetchret ringtrace_kprobe_target rv' >> $T/kprobe_events

echo 1 > $K/fetch/enabled
rmmod ringtrace_kprobe_target
[ ! -d $K/fetch ] && [ ! -d $K/fetchret ] && [ -z "$(cat $T/kprobe_events)" ]
rt_result $? "unloading the module removes its probes, even an enabled one"
[ -z "$(hits fetch)" ]
rt_result $? "and their kprobe_profile lines"

err=$( (echo 'p:gone ringtrace_kprobe_target' >> $T/kprobe_events) 2>&1 )
case $err in *"No such file"*) ok=0 ;; *) ok=1 ;; esac
rt_result $ok "a probe on the unloaded module's function: ENOENT"

rt_load_target
echo 'p:again ringtrace_kprobe_target a0' > $T/kprobe_events
echo 1 > $K/again/enabled
echo 1 > $TARGET_CALL
echo 0 > $K/again/enabled
grep -q ": ringtrace_kprobe_target+0x0/0x[0-9a-f]*$mod: 0x11\$" $T/trace
rt_result $? "after reloading, a new probe on it records again"
echo > $T/kprobe_events

# A module going takes its points of an event, not the event's others.
echo 'p:mp ringtrace_kprobe_target x=a0' > $T/kprobe_events
echo 'p:mp vfs_read x=a0' >> $T/kprobe_events
rmmod ringtrace_kprobe_target
[ "$(cat $T/kprobe_events)" = "p:kprobes/mp vfs_read+0 x=a0" ] && [ -d $E ]
rt_result $? "rmmod takes the point on its function; the vfs_read point and the event stay"
rt_load_target
echo > $T/kprobe_events
rt_exit
