#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: points come and go on an event, enabled or not: "-:EV SYM
#              [ARGS]" removes the points it matches (the last takes the
#              event, or is EBUSY while it is enabled), a point appended
#              to the enabled event records at once, while a task hits it
# requires: kprobe_events trace module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target

T=$TRACING
E=$T/events/kprobes/mp
rt_plan 6

cleanup() {
	[ -n "${loop:-}" ] && kill "$loop" 2> /dev/null
	echo 0 2> /dev/null > $T/events/kprobes/enable
	echo > $T/kprobe_events
}
trap cleanup EXIT
echo > $T/kprobe_events
echo > $T/trace

# rtkt_call_write(file, buf, count, pos) calls ringtrace_kprobe_target()
# as many times as the number written says.
echo 'p:mp ringtrace_kprobe_target x=a0' > $T/kprobe_events &&
	echo 'p:mp rtkt_call_write x=a2' >> $T/kprobe_events

# As upstream: a point of an event that has others goes, enabled or not.
echo 1 > $E/enable
echo '-:mp rtkt_call_write x=a2' >> $T/kprobe_events &&
	[ "$(cat $T/kprobe_events)" = "p:kprobes/mp ringtrace_kprobe_target+0 x=a0" ] &&
	[ -d $E ] && echo 1 > $TARGET_CALL &&
	[ "$(grep -c ': rtkt_call_write+0x0/' $T/trace)" -eq 0 ] &&
	[ "$(grep -c ': ringtrace_kprobe_target+0x0/' $T/trace)" -eq 1 ]
rt_result $? "-:mp SYM ARG on the enabled event removes that point only; the other still records"
echo 0 > $E/enable

# Appending to an enabled event arms the new point.
echo > $T/trace
echo 1 > $E/enable
echo 'p:mp rtkt_call_write x=a2' >> $T/kprobe_events
echo 2 > $TARGET_CALL
echo 0 > $E/enable
n1=$(grep -c ": ringtrace_kprobe_target+0x0/" $T/trace)
n2=$(grep -c ": rtkt_call_write+0x0/" $T/trace)
[ "$n1" -eq 2 ] && [ "$n2" -eq 1 ]
rt_result $? "a point appended to the enabled event records at once ($n1 + $n2)"

echo 1 > $E/enable
echo '-:mp ringtrace_kprobe_target' >> $T/kprobe_events &&
	! echo '-:mp rtkt_call_write' >> $T/kprobe_events 2> /dev/null &&
	[ "$(cat $T/kprobe_events)" = "p:kprobes/mp rtkt_call_write+0 x=a2" ]
rt_result $? "-:mp SYM of the last point of an enabled event: EBUSY, as -:mp"
echo 0 > $E/enable
echo '-:mp rtkt_call_write' >> $T/kprobe_events &&
	[ -z "$(cat $T/kprobe_events)" ] && [ ! -d $E ]
rt_result $? "-:mp SYM of the last point removes the event"

# One "-:EV SYM" matching several points (same place, other fetch-args),
# the event's last two among them.
echo 'p:mp vfs_read x=%di' > $T/kprobe_events &&
	echo 'p:mp vfs_read x=%si' >> $T/kprobe_events &&
	echo '-:mp vfs_read' >> $T/kprobe_events &&
	[ -z "$(cat $T/kprobe_events)" ] && [ ! -d $E ]
rt_result $? "-:mp SYM removes every point it matches, the event with the last"

# Points come and go while the event records: the target is called from
# another task the whole time, and a point on vfs_read (hit by every
# read) is appended to the enabled event and removed, the event toggled
# every third round.
echo 'p:mp ringtrace_kprobe_target x=a0' > $T/kprobe_events
echo 1 > $E/enable
echo > $T/trace
(while :; do echo 1 > $TARGET_CALL; done) &
loop=$!
# The other task is calling once the event has a record (100 rounds,
# scaled to the machine's speed); then only the rounds' records count.
for i in $(seq "$(rt_scaled 100)"); do
	grep -q ": ringtrace_kprobe_target+0x0/" $T/trace && break
	sleep 0.1
done
echo > $T/trace
ok=0
for i in $(seq 15); do
	echo 'p:mp vfs_read x=a0' >> $T/kprobe_events || ok=1
	cat $E/format > /dev/null
	echo '-:mp vfs_read' >> $T/kprobe_events || ok=1
	[ $((i % 3)) -eq 0 ] && echo 0 > $E/enable && echo 1 > $E/enable
done
kill $loop
wait $loop 2> /dev/null
loop=
echo 0 > $E/enable
n=$(grep -c ": ringtrace_kprobe_target+0x0/" $T/trace)
[ $ok -eq 0 ] && [ "$n" -gt 0 ] &&
	[ "$(cat $T/kprobe_events)" = "p:kprobes/mp ringtrace_kprobe_target+0 x=a0" ]
rt_result $? "15 rounds of append and remove on the enabled event while another task hits it ($n target records)"
echo > $T/kprobe_events
rt_exit
