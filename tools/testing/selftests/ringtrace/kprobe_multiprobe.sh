#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: an event with several probe points, as upstream's: "p:EV
#              SYM2" appends a point to EV (same kind and arguments), each
#              point records its own hits into the one event, kprobe_events
#              and kprobe_profile list each, "-:EV SYM" removes one (enabled
#              or not; the last takes the event), appending to an enabled
#              event arms the new point, return probes too, a module going
#              takes its points only; points added and removed while the
#              event records from another task
# requires: kprobe_events ringtrace_kprobe_target.ko

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing
T=$TRACING
[ -e $T/kprobe_events ] || rt_skip "no kprobe_events"
rt_load_target
E=$T/events/kprobes/mp
rt_plan 16

cleanup() {
	[ -n "${loop:-}" ] && kill "$loop" 2> /dev/null
	echo 0 > $T/options/upstream_kprobes
	echo 0 2> /dev/null > $T/events/kprobes/enable
	echo > $T/kprobe_events
}
trap cleanup EXIT
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

refused=0
echo 'r:mp vfs_read x=a0' >> $T/kprobe_events 2> /dev/null && refused=1
echo 'p:mp vfs_read y=a0' >> $T/kprobe_events 2> /dev/null && refused=1
echo 'p:mp vfs_read x=a0:u8' >> $T/kprobe_events 2> /dev/null && refused=1
echo 'p:mp vfs_read' >> $T/kprobe_events 2> /dev/null && refused=1
echo 'p:mp vfs_read a0' >> $T/kprobe_events 2> /dev/null && refused=1
echo 'p:mp rtkt_call_write x=a2' >> $T/kprobe_events 2> /dev/null && refused=1
[ $refused -eq 0 ] && [ "$(cat $T/kprobe_events)" = "$want" ]
rt_result $? "appending another kind, other names, types or aliases, or a point mp has: refused, mp intact"

# As upstream: a point of an event that has others goes, enabled or not.
echo > $T/trace
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
# the event's last two among them; and return probes with two points.
echo 'p:mp vfs_read x=%di' > $T/kprobe_events &&
	echo 'p:mp vfs_read x=%si' >> $T/kprobe_events &&
	echo '-:mp vfs_read' >> $T/kprobe_events &&
	[ -z "$(cat $T/kprobe_events)" ] && [ ! -d $E ]
rt_result $? "-:mp SYM removes every point it matches, the event with the last"
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

# An alias names a field for filters: a0 and a1 (both the field arg0)
# cannot share it.  Upstream's probes: the same fetch-arg with its name
# written out is the same probe.
O=$T/options/upstream_kprobes
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

# A module going takes its points, not the event's others.
echo 'p:mp vfs_read x=a0' >> $T/kprobe_events
rmmod ringtrace_kprobe_target
[ "$(cat $T/kprobe_events)" = "p:kprobes/mp vfs_read+0 x=a0" ] && [ -d $E ]
rt_result $? "rmmod takes the point on its function; the vfs_read point and the event stay"
rt_load_target
echo > $T/kprobe_events
[ ! -d $E ]
rt_result $? "echo > kprobe_events removes the multi-point event"
rt_exit
