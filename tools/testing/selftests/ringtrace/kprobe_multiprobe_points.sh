#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: an event with several probe points, as upstream's: "p:EV
#              SYM2" appends a point to EV, each point records its hits
#              with its own fetch-args into the one event (return probes
#              too), kprobe_profile lists each, print fmt shows the point
# requires: kprobe_events kprobe_profile trace module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target

T=$TRACING
E=$T/events/kprobes/mp
trap 'echo 0 2> /dev/null > $T/events/kprobes/enable; echo > $T/kprobe_events' EXIT
rt_plan 6

echo > $T/kprobe_events
echo > $T/trace
mod='\[ringtrace_kprobe_target\]'

# rtkt_call_write(file, buf, count, pos) calls ringtrace_kprobe_target()
# (a0 0x11, a1 0x22) as many times as the number written says.
echo 'p:mp ringtrace_kprobe_target x=a0' > $T/kprobe_events &&
	echo 'p:mp rtkt_call_write x=a2' >> $T/kprobe_events
want='p:kprobes/mp ringtrace_kprobe_target+0 x=a0
p:kprobes/mp rtkt_call_write+0 x=a2'
[ "$(cat $T/kprobe_events)" = "$want" ] && [ -d $E ] &&
	[ "$(ls -d $T/events/kprobes/*/ | wc -l)" -eq 1 ]
rt_result $? "p:mp SYM2 appends a second point to mp: two lines, one event"

echo 1 > $E/enable
echo 3 > $TARGET_CALL
echo 0 > $E/enable
n1=$(grep -c ": ringtrace_kprobe_target+0x0/0x[0-9a-f]* $mod: x=0x11$" $T/trace)
n2=$(grep -c ": rtkt_call_write+0x0/0x[0-9a-f]* $mod: x=0x2$" $T/trace)
[ "$n1" -eq 3 ] && [ "$n2" -eq 1 ]
rt_result $? "each point records its hits with its own fetch-args: 3 target calls ($n1), 1 write of 2 bytes ($n2)"
[ $rt_fails -eq 0 ] || grep -v '^#' $T/trace | head | sed 's/^/# /'

prof=$(grep ' mp ' $T/kprobe_profile | awk '{print $2}' | tr '\n' ' ')
[ "$prof" = "3 1 " ]
rt_result $? "kprobe_profile: a line per point, hits 3 and 1 ($prof)"

grep -q '^print fmt: "%pS: x=0x%lx", REC->ip, REC->x$' $E/format
rt_result $? "with two points, print fmt shows the point by %pS"

echo > $T/trace
echo 'r:mp ringtrace_kprobe_target rv' > $T/kprobe_events &&
	echo 'r:mp rtkt_call_write rv' >> $T/kprobe_events &&
	echo 1 > $E/enable && echo 2 > $TARGET_CALL && echo 0 > $E/enable
n1=$(grep -c ": [^ ]* $mod <- ringtrace_kprobe_target $mod: 0x509f$" $T/trace)
n2=$(grep -c ": [^ ]* <- rtkt_call_write $mod: 0x2$" $T/trace)
[ "$n1" -eq 2 ] && [ "$n2" -eq 1 ]
rt_result $? "a return event with two points: each records its returns ($n1 + $n2)"
[ $rt_fails -eq 0 ] || grep -v '^#' $T/trace | head -n 4 | sed 's/^/# /'

echo > $T/kprobe_events
[ ! -d $E ]
rt_result $? "echo > kprobe_events removes the multi-point event"
rt_exit
