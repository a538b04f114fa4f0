#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a MOD:SYM probe waits for MOD: defined, listed and enabled
#              while MOD is not loaded, it records once MOD loads, stays
#              when MOD goes and records again when it is back; MOD:SYM of
#              a loaded MOD without SYM is refused
# requires: kprobe_events trace cmd:rmmod module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes
trap 'echo 0 2> /dev/null > $K/enable; echo > $T/kprobe_events' EXIT
rt_plan 3

echo > $T/kprobe_events
(echo 'p:nosuch ringtrace_kprobe_target:no_such_function' >> $T/kprobe_events) 2> /dev/null
[ $? -ne 0 ] && [ ! -d $K/nosuch ]
rt_result $? "MOD:SYM of a loaded module without SYM is refused"

# MOD:SYM waits for its module, stays when it goes, and comes back with it.
echo > $T/kprobe_events
rmmod ringtrace_kprobe_target
n() { grep -c ': ringtrace_kprobe_target+0x0/0x[0-9a-f]* \[ringtrace_kprobe_target\]: 0x11$' $T/trace; }
echo > $T/trace
echo 'p:pend ringtrace_kprobe_target:ringtrace_kprobe_target a0' > $T/kprobe_events &&
	echo 1 > $K/pend/enable &&
	grep -q '^p:kprobes/pend ringtrace_kprobe_target:ringtrace_kprobe_target+0 a0$' $T/kprobe_events
rt_result $? "MOD:SYM is defined, listed and enabled before MOD is loaded"
rt_load_target
echo 2 > $TARGET_CALL
a=$(n)
rmmod ringtrace_kprobe_target
[ -d $K/pend ] && grep -q '^p:kprobes/pend ' $T/kprobe_events
b=$?
rt_load_target
echo 3 > $TARGET_CALL
c=$(n)
echo 0 > $K/pend/enable
echo 1 > $TARGET_CALL
[ "$a" -eq 2 ] && [ $b -eq 0 ] && [ "$c" -eq 5 ] && [ "$(n)" -eq 5 ]
rt_result $? "it records once MOD loads (2 of 2), stays when MOD goes, records again when it is back (5 of 5)"
echo > $T/kprobe_events
rt_exit
