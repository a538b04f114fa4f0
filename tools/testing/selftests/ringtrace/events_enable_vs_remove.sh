#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: an enabled probe cannot be removed, even when the enable
#              races the removal: one loop enables a probe and, each time
#              that succeeded, checks that the probe is still listed
#              before it disables it again; another removes the probe
#              ("-:", EBUSY while enabled) and adds it back; a third
#              clears all probes (EBUSY, removing none, while one is
#              enabled).  A removal between the removal's check and its
#              end would let an enable succeed on a probe that then goes.
# requires: kprobe_events cmd:timeout

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes
STORM=${RT_STORM:-8}	# seconds of racing (make torture: longer)
rt_race_limits "$STORM"	# RACE: at most this long until the goals; LIMIT

# The loops write their counts to DIR as they change: the race lasts
# until they show both sides ran.

# loop_enable DIR: enable; if that worked the probe must stay until disabled.
loop_enable() {
	local i on=0 gone=0

	echo "$on $gone" > "$1/enable"
	for ((i = 0; i < 100000; i++)); do
		rt_stopped "$1" && break
		echo 1 2>/dev/null > "$K/rtbusy/enable" || continue
		on=$((on + 1))
		# Waits for a removal in progress (kprobe_events' lock); then
		# the probe must still be there, and enabled: a probe added
		# back meanwhile would be disabled.
		grep -q "^p:kprobes/rtbusy " "$T/kprobe_events" &&
			[ "$(cat "$K/rtbusy/enable" 2>/dev/null)" = 1 ] ||
			gone=$((gone + 1))
		echo 0 2>/dev/null > "$K/rtbusy/enable"
		echo "$on $gone" > "$1/enable"
	done
}

# loop_remove DIR: remove the probe (EBUSY while enabled) and add it back.
loop_remove() {
	local i n=0

	echo 0 > "$1/removed"
	for ((i = 0; i < 100000; i++)); do
		rt_stopped "$1" && break
		echo "-:rtbusy" 2>/dev/null >> "$T/kprobe_events" &&
			n=$((n + 1)) && echo "$n" > "$1/removed"
		echo "p:rtbusy vfs_read" 2>/dev/null >> "$T/kprobe_events"
	done
}

# loop_clear DIR: remove every probe (EBUSY while one is enabled), add it back.
loop_clear() {
	local i n=0

	echo 0 > "$1/cleared"
	for ((i = 0; i < 100000; i++)); do
		rt_stopped "$1" && break
		echo 2>/dev/null > "$T/kprobe_events" &&
			n=$((n + 1)) && echo "$n" > "$1/cleared"
		echo "p:rtbusy vfs_read" 2>/dev/null >> "$T/kprobe_events"
	done
}

case ${1:-} in
--enable) loop_enable "$2"; exit 0 ;;
--remove) loop_remove "$2"; exit 0 ;;
--clear) loop_clear "$2"; exit 0 ;;
esac

dir=$(mktemp -d)
cleanup() {
	rt_stop_loops "$dir"
	rm -rf "$dir"
	if [ $rt_hung -eq 0 ]; then
		echo 0 > "$K/enable" 2>/dev/null
		echo > "$T/kprobe_events"
		# Gives the ids of the removed probes back.
		echo > "$T/trace"
	fi
}
trap cleanup EXIT

rt_plan 3
echo 0 > "$T/events/enable"
echo > "$T/kprobe_events"
echo "p:rtbusy vfs_read" >> "$T/kprobe_events"

rt_start_loop bash "$0" --enable "$dir"
rt_start_loop bash "$0" --remove "$dir"
rt_start_loop bash "$0" --clear "$dir"
rt_race "$dir" "$STORM" enable:1 removed+cleared:1
rt_wait_loops "$(rt_scaled 50)"

[ $rt_hung -eq 0 ]
rt_result $? "no enable, remove or clear loop hung"
read -r on gone < "$dir/enable" 2>/dev/null
removed=$(cat "$dir/removed" 2>/dev/null || echo 0)
cleared=$(cat "$dir/cleared" 2>/dev/null || echo 0)
echo "# enabled ${on:-0} times, removed $removed times, cleared $cleared times"
# Each loop slows the others (a removal waits for RCU): ask for both sides.
[ "${on:-0}" -gt 0 ] && [ $((removed + cleared)) -gt 0 ]
rt_result $? "the probe was enabled, and removed or cleared, during the storm$rt_stuck"
echo "# probes gone while enabled: ${gone:-?}"
[ "${gone:-1}" -eq 0 ]
rt_result $? "no probe went away while it was enabled"
rt_exit
