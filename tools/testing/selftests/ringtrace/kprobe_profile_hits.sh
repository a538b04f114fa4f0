#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: kprobe_profile counts each call an enabled probe sees,
#              filtered out or not, and a disabled probe neither fires nor
#              records; filters on an alias and on a named fetch-arg drop
#              and keep records (ringtrace_kprobe_target(), samples/ringtrace)
# requires: kprobe_events kprobe_profile trace module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target

T=$TRACING
K=$T/events/kprobes
trap 'echo 0 2> /dev/null > $K/enable; echo > $T/kprobe_events' EXIT
rt_plan 3

lines() { grep -c "$1" $T/trace; }
hits() { awk -v e="$1" '$1 == e { print $2 }' $T/kprobe_profile; }

echo > $T/kprobe_events
echo > $T/trace
# a4 (register a4, 0x55) is an alias of arg0; sum is a named fetch-arg.
echo 'p:fetch ringtrace_kprobe_target a4 sum=-8(+24(%dx)):x16' > $T/kprobe_events
echo 'r:fetchret ringtrace_kprobe_target rv' >> $T/kprobe_events

echo 1 > $K/fetch/enabled
echo 1 > $K/fetchret/enabled
echo 3 > $TARGET_CALL
echo 0 > $K/fetch/enabled
echo 0 > $K/fetchret/enabled
[ "$(hits fetch)" = 3 ] && [ "$(hits fetchret)" = 3 ]
rt_result $? "kprobe_profile counts 3 hits for 3 calls"

echo 2 > $TARGET_CALL
[ "$(hits fetch)" = 3 ] && [ "$(lines 'ringtrace_kprobe_target+0x0/')" -eq 3 ]
rt_result $? "disabled probes neither fire nor record"

# 3 more calls, enabled: kprobe_profile counts them all, 6.
echo > $T/trace
echo 'a4 != 0x55' > $K/fetch/filter
echo 1 > $K/fetch/enabled
echo 1 > $TARGET_CALL
n1=$(lines 'ringtrace_kprobe_target+0x0/')
echo 'a4 == 0x55 && sum == 0x1000' > $K/fetch/filter
echo 2 > $TARGET_CALL
n2=$(lines 'ringtrace_kprobe_target+0x0/')
echo 0 > $K/fetch/enabled
echo 0 > $K/fetch/filter
[ "$n1" -eq 0 ] && [ "$n2" -eq 2 ] && [ "$(hits fetch)" = 6 ]
rt_result $? "filters on an alias and a named arg drop and keep records ($n1, $n2), all counted"
echo > $T/kprobe_events
rt_exit
