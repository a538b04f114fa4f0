#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: filters on upstream's names and types: an upstream probe's
#              arg1, arg2 keep and drop records (a spec probe's arg1 is
#              its second fetch-arg); an array cannot be compared, a
#              bitfield, a symbol and a __data_loc string can
# requires: kprobe_events trace options/upstream_kprobes
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target

T=$TRACING
O=$T/options/upstream_kprobes
K=$T/events/kprobes
rt_plan 3

trap 'echo 0 > $O; echo 0 2> /dev/null > $K/enable; echo > $T/kprobe_events' EXIT
echo > $T/kprobe_events
echo > $T/trace
point="ringtrace_kprobe_target+0x0/0x[0-9a-f]* \\[ringtrace_kprobe_target\\]"

# The spec's probe, defined while the option is 0, and upstream's.
echo "p:specp ringtrace_kprobe_target a0 \$arg2 x=a0:u8" > $T/kprobe_events
echo 1 > $O
echo "p:upp ringtrace_kprobe_target a0 \$arg2 x=a0:u8" >> $T/kprobe_events
echo 0 > $O

echo 'arg2 == 0x22 && arg1 == 0x11' > $K/upp/filter &&
	echo 'arg1 == 0x12' > $K/specp/filter
rt_result $? "filters take the upstream names"
echo 1 > $K/enable
echo 2 > $TARGET_CALL
echo 0 > $K/enable
n=$(grep -c ': upp: ' $T/trace)
m=$(grep -c ": $point: " $T/trace)
[ "$n" -eq 2 ] && [ "$m" -eq 0 ]
rt_result $? "filters keep upp's 2 calls ($n) and drop specp's (arg1 is its 0x22: $m)"
echo > $T/kprobe_events

# Upstream's types: arrays cannot be compared; bitfields and symbols are
# numbers, symstr a string.
echo 'p:num ringtrace_kprobe_target bf=+0(a2):b4@4/16' \
	'arr=+0(+24(a2)):x64[2] sym=+8(a2):symbol ss=+8(a2):symstr' > $T/kprobe_events
(echo 'arr == 1' > $K/num/filter) 2> /dev/null
a=$?
echo 'bf == 10 && sym != 0 && ss ~ "rtkt_tail+*"' > $K/num/filter
b=$?
echo > $T/trace
echo 1 > $K/num/enable
echo 2 > $TARGET_CALL
echo 'ss == "rtkt_tail"' > $K/num/filter
echo 3 > $TARGET_CALL
echo 0 > $K/num/enable
echo 0 > $K/num/filter
[ $a -ne 0 ] && [ $b -eq 0 ] &&
	[ "$(grep -c ': ringtrace_kprobe_target+0x0/.*: bf=10 ' $T/trace)" -eq 2 ]
rt_result $? "filters refuse an array, and keep records by a bitfield and a __data_loc string"
echo > $T/kprobe_events
rt_exit
