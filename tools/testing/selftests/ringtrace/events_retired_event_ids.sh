#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a removed event's records stay in the buffer until it is
#              cleared, so its id must not go to a new event before then,
#              or they would print as the new event's.  Records one probe,
#              removes it, pushes it out of the removed events that still
#              print (64 newer removals), then adds a new probe: it gets
#              another id, the old records print as an unknown event and
#              none as the new one; after "echo > trace" ids are given again
# requires: kprobe_events

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes
PUSH=64			# removed events that keep printing

cleanup() {
	echo 0 > "$K/enable" 2>/dev/null
	echo > "$T/kprobe_events"
}
trap cleanup EXIT

rt_plan 4
echo 0 > "$T/events/enable"
echo > "$T/kprobe_events"
echo > "$T/trace"

echo "p:rtid_old vfs_read" >> "$T/kprobe_events"
old_id=$(cat "$K/rtid_old/id")
echo 1 > "$K/rtid_old/enable"
cat /proc/version /proc/cmdline > /dev/null
echo 0 > "$K/rtid_old/enable"
# Its lines name the probed function; no other event is enabled.
recorded=$(grep -c ' vfs_read+0x0/' "$T/trace")
echo "-:rtid_old" >> "$T/kprobe_events"
echo "# rtid_old (id $old_id) recorded $recorded times"
[ "$recorded" -gt 0 ]
rt_result $? "the probe recorded before its removal ($recorded records)"

for ((i = 0; i < PUSH; i++)); do
	echo "p:rtid_fill vfs_read" >> "$T/kprobe_events" &&
		echo "-:rtid_fill" >> "$T/kprobe_events" || break
done
# Its lines would show "rtid_arg=".
echo "p:rtid_new vfs_write rtid_arg=%di" >> "$T/kprobe_events"
new_id=$(cat "$K/rtid_new/id")
echo "# after $i more removals, rtid_new has id $new_id"
[ "$new_id" != "$old_id" ]
rt_result $? "a new event does not get the id of a removed one whose records are in the buffer"

as_new=$(grep -c 'rtid_arg=' "$T/trace")
unknown=$(grep -c "unknown event $old_id\$" "$T/trace")
echo "# old records: $unknown print as unknown, $as_new as rtid_new (never enabled)"
[ "$as_new" -eq 0 ] && [ "$unknown" -eq "$recorded" ]
rt_result $? "the removed event's records print as an unknown event, none as the new one"

echo > "$T/trace"
echo "-:rtid_new" >> "$T/kprobe_events"
echo "p:rtid_again vfs_read" >> "$T/kprobe_events"
again_id=$(cat "$K/rtid_again/id")
echo "# after echo > trace, a new probe has id $again_id"
# ida gives the lowest free id, and old_id is free again.
[ "$again_id" -le "$old_id" ]
rt_result $? "once the buffer is cleared, the ids are given again"
rt_exit
