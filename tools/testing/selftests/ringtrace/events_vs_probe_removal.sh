#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: event files race the removal of their event: while one loop
#              adds and removes a kprobe event, others write its filter,
#              read its filter and format, toggle its enable and the
#              kprobes group's enable and filter.  Removing an event waits
#              for its files' operations in flight, so none of those may
#              wait for anything the removal holds; buffer resets release
#              removed events meanwhile: nothing hangs, and
#              afterwards probes are added, enabled and removed as usual
#              (KASAN and lockdep reports are the harness's to catch)
# requires: kprobe_events cmd:timeout

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes
STORM=${RT_STORM:-8}	# seconds of racing (make torture: longer)
rt_race_limits "$STORM"	# RACE: at most this long until the goals; LIMIT
PROBE=racep

# loop_probe DIR: add the probe and remove it; counts the removals, as
# they happen (the race lasts until there is one).
loop_probe() {
	local i n=0

	echo 0 > "$1/removed"
	for ((i = 0; i < 100000; i++)); do
		rt_stopped "$1" && break
		echo "p:$PROBE vfs_read a0" 2>/dev/null >> "$T/kprobe_events"
		# EBUSY while a toggling loop has it enabled: try again.
		echo "-:$PROBE" 2>/dev/null >> "$T/kprobe_events" &&
			n=$((n + 1)) && echo "$n" > "$1/removed"
	done
}

# loop_files DIR: the event's and the group's files, present or not.  The
# event's filter is long: a write compiles it before it takes the events
# lock, and a removal that takes the lock meanwhile must not then wait for
# that write.
loop_files() {
	local i expr=a0

	for ((i = 0; i < 250; i++)); do expr="$expr != $i && a0"; done
	expr="$expr != 250"
	for ((i = 0; i < 100000; i++)); do
		rt_stopped "$1" && break
		echo "$expr" 2>/dev/null > "$K/$PROBE/filter"
		cat "$K/$PROBE/filter" "$K/$PROBE/format" > /dev/null 2>&1
		echo 0 2>/dev/null > "$K/$PROBE/filter"
		echo "common_pid != 0" 2>/dev/null > "$K/filter"
	done
}

# loop_enable DIR: the event's enable and the group's, on and off; and
# resets of the buffer, which release the events removed meanwhile.
loop_enable() {
	local i

	for ((i = 0; i < 100000; i++)); do
		rt_stopped "$1" && break
		echo $((i % 2)) 2>/dev/null > "$K/$PROBE/enable"
		echo 0 2>/dev/null > "$K/$PROBE/enable"
		echo $((i % 2)) 2>/dev/null > "$K/enable"
		echo 0 2>/dev/null > "$K/enable"
		echo > "$T/trace"
	done
}

case ${1:-} in
--probe) loop_probe "$2"; exit 0 ;;
--files) loop_files "$2"; exit 0 ;;
--enable) loop_enable "$2"; exit 0 ;;
esac

dir=$(mktemp -d)
cleanup() {
	rt_stop_loops "$dir"
	rm -rf "$dir"
	if [ $rt_hung -eq 0 ]; then
		echo 0 > "$K/enable" 2>/dev/null
		echo > "$T/kprobe_events"
	fi
}
trap cleanup EXIT

rt_plan 4
echo 0 > "$T/events/enable"
echo > "$T/kprobe_events"

rt_start_loop bash "$0" --probe "$dir"
rt_start_loop bash "$0" --files "$dir"
rt_start_loop bash "$0" --files "$dir"
rt_start_loop bash "$0" --enable "$dir"

rt_race "$dir" "$STORM" removed:1
rt_wait_loops "$(rt_scaled 50)"

[ $rt_hung -eq 0 ]
rt_result $? "no add/remove, file or enable loop hung"
removed=$(cat "$dir/removed" 2>/dev/null || echo 0)
echo "# the probe was removed $removed times during the storm"
[ "$removed" -gt 0 ]
rt_result $? "the probe was added and removed during the storm ($removed times)$rt_stuck"
if [ $rt_hung -ne 0 ]; then
	rt_result 1 "afterwards a probe is added, enabled, disabled and removed (not tried: hung)"
	rt_result 1 "afterwards the kprobes group filter reads back (not tried: hung)"
	rt_exit
fi

echo 0 > "$K/enable" 2>/dev/null
echo > "$T/kprobe_events"
echo "p:$PROBE vfs_read a0" >> "$T/kprobe_events" &&
	echo 1 > "$K/$PROBE/enable" && echo 0 > "$K/$PROBE/enable" &&
	echo "-:$PROBE" >> "$T/kprobe_events" && [ ! -e "$K/$PROBE" ]
rt_result $? "afterwards a probe is added, enabled, disabled and removed"
echo "p:$PROBE vfs_read a0" >> "$T/kprobe_events" &&
	echo "common_pid != 1" > "$K/filter" &&
	[ "$(cat "$K/filter")" = "common_pid != 1" ] &&
	echo "-:$PROBE" >> "$T/kprobe_events"
rt_result $? "afterwards the kprobes group filter reads back"
rt_exit
