#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: upstream's spellings: dynamic_events defines, lists and
#              removes kprobe_events' probes; a trailing comment is
#              ignored; "-:EVENT" of every group, "-:GROUP/", "p:GROUP/ SYM"
#              naming the event, and SYM%return a return probe
# requires: kprobe_events dynamic_events trace

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes
trap 'echo 0 2> /dev/null > $K/enable; echo > $T/kprobe_events' EXIT
rt_plan 6

echo > $T/kprobe_events

# dynamic_events, upstream's file of all dynamic events: the same probes.
echo 'p:kprobes/dyn1 vfs_read a0' > $T/dynamic_events &&
	echo 'r:dyn2 vfs_read rv' >> $T/dynamic_events &&
	[ "$(cat $T/dynamic_events)" = "$(cat $T/kprobe_events)" ] &&
	[ "$(grep -c dyn $T/kprobe_events)" = 2 ] && [ -d $K/dyn1 ] && [ -d $K/dyn2 ]
rt_result $? "dynamic_events defines probes and lists what kprobe_events lists"
echo '-:kprobes/dyn1' >> $T/dynamic_events && [ ! -d $K/dyn1 ] && [ -d $K/dyn2 ] &&
	echo > $T/dynamic_events && [ -z "$(cat $T/kprobe_events)" ] && [ ! -d $K/dyn2 ]
rt_result $? "dynamic_events: '-:GRP/EVENT' removes one, '>' clears all"
printf '%s\n' '# a comment line' 'p:cmt vfs_read a0 # a comment after it' \
	>> $T/kprobe_events && [ "$(grep -c . $T/kprobe_events)" = 1 ] &&
	grep -q '^p:kprobes/cmt vfs_read+0 a0$' $T/kprobe_events
rt_result $? "a comment after a definition is ignored, as upstream"
echo > $T/kprobe_events

# Upstream's spellings: -:EVENT of every group, GROUP/ alone, SYM%return.
echo 'p:g1/same vfs_read' > $T/kprobe_events && echo 'p:g2/same vfs_read' >> $T/kprobe_events &&
	echo 'p:g2/other vfs_read' >> $T/kprobe_events &&
	echo '-:same' >> $T/kprobe_events && [ "$(cat $T/kprobe_events)" = 'p:g2/other vfs_read+0' ] &&
	echo 'p:g2/more vfs_read' >> $T/kprobe_events && echo '-:g2/' >> $T/kprobe_events &&
	[ -z "$(cat $T/kprobe_events)" ]
rt_result $? "'-:same' removes 'same' of every group; '-:g2/' every event of g2"
echo 'p:grp/ vfs_read' > $T/kprobe_events &&
	grep -qx 'p:grp/p_vfs_read_0 vfs_read+0' $T/kprobe_events
rt_result $? "'p:grp/ vfs_read' names the event after the point ($(cat $T/kprobe_events))"
echo > $T/trace
ok=1
if echo 'p:retp vfs_read%return $retval' > $T/kprobe_events &&
   grep -qx 'r:kprobes/retp vfs_read+0 $retval' $T/kprobe_events &&
   echo 1 > $K/retp/enable; then
	read -r _ < /proc/version
	echo 0 > $K/retp/enable
	grep -q ' <- vfs_read: 0x' $T/trace && ok=0
fi
rt_result $ok "'p:retp vfs_read%return' is a return probe: its records show '<- vfs_read'"
echo > $T/kprobe_events
rt_exit
