#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: kmemtrace against CPU hotplug: while one loop takes the
#              last CPU offline and online, another resizes the buffers
#              (relay gives each online CPU one, and each CPU coming up
#              one: a CPU coming up during a resize must get one too) and
#              records, and allocations run on every CPU; nothing hangs
#              or oopses.  Then the reporter records while that CPU goes
#              offline and comes back, and with it offline throughout,
#              and finishes both times
# requires: CONFIG_KMEMTRACE, CONFIG_HOTPLUG_CPU, kmemtrace_pattern.ko,
#           timeout taskset

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"

STORM=${RT_STORM:-6}	# seconds of racing (make torture: longer)
LIMIT=$((STORM + 40))	# a loop still running then has hung

# loop_hotplug DIR CPU: CPU offline and online again; counts the rounds.
loop_hotplug() {
	local n=0 online=/sys/devices/system/cpu/cpu$2/online

	echo "hotplug loop started" >&2
	echo 0 > "$1/hotplugs"
	while ! rt_stopped "$1"; do
		echo 0 > "$online" && echo 1 > "$online" && n=$((n + 1))
		echo "$n" > "$1/hotplugs"
	done
	echo 1 > "$online" 2>/dev/null
}

# loop_resize DIR: off, a new size, on, some records; counts the resizes.
loop_resize() {
	local n=0 kb

	while ! rt_stopped "$1"; do
		kb=$((32 + 16 * (n % 3)))
		echo 0 > $KMEMTRACE/enabled
		echo $kb > $KMEMTRACE/buffer_size_kb && n=$((n + 1))
		echo "$n" > "$1/resizes"
		echo 1 > $KMEMTRACE/enabled
		sleep 0.2
	done
}

# loop_alloc DIR CPU: allocations (and their records) on CPU, if online.
loop_alloc() {
	local PATTERN=/sys/kernel/debug/kmemtrace_pattern

	while ! rt_stopped "$1"; do
		taskset -c "$2" sh -c "echo 300 > $PATTERN/storm" 2>/dev/null || sleep 0.1
	done
}

case ${1:-} in
--hotplug) loop_hotplug "$2" "$3" 2>> "$2/log"; exit 0 ;;
--resize) loop_resize "$2" 2>> "$2/log"; exit 0 ;;
--alloc) loop_alloc "$2" "$3" 2>> "$2/log"; exit 0 ;;
esac

kt_require
kt_load_pattern
command -v timeout > /dev/null || rt_skip "no timeout"
command -v taskset > /dev/null || rt_skip "no taskset"
last=$(($(nproc --all) - 1))
ONLINE=/sys/devices/system/cpu/cpu$last/online
[ "$last" -gt 0 ] && [ -w "$ONLINE" ] || rt_skip "no CPU to take offline (CONFIG_HOTPLUG_CPU)"
[ "$(cat $ONLINE)" = 1 ] || rt_skip "cpu$last is offline already"

enabled=$(cat $KMEMTRACE/enabled)
size=$(cat $KMEMTRACE/buffer_size_kb)
dir=$(mktemp -d)
cleanup() {
	rt_stop_loops "$dir"
	rm -rf "$dir"
	if [ $rt_hung -eq 0 ]; then
		echo 1 > "$ONLINE" 2>/dev/null
		echo 0 > $KMEMTRACE/enabled
		echo "$size" > $KMEMTRACE/buffer_size_kb
		echo "$enabled" > $KMEMTRACE/enabled
	fi
}
trap cleanup EXIT

rt_plan 5
rt_start_loop bash "$0" --hotplug "$dir" "$last"
rt_start_loop bash "$0" --resize "$dir"
for cpu in $(seq 0 "$last"); do
	rt_start_loop bash "$0" --alloc "$dir" "$cpu"
done
sleep $STORM
touch "$dir/stop"
rt_wait_loops $((LIMIT - STORM + 10))
[ $rt_hung -eq 0 ]
rt_result $? "no hotplug, resize or allocation loop hung"
hotplugs=$(cat "$dir/hotplugs" 2>/dev/null || echo 0)
resizes=$(cat "$dir/resizes" 2>/dev/null || echo 0)
echo "# cpu$last went offline and online $hotplugs times, the buffers were resized $resizes times"
[ "$hotplugs" -gt 0 ] && [ "$resizes" -gt 0 ]
rt_result $? "CPU hotplug ($hotplugs) and resizes ($resizes) raced"
sed 's/^/# loop: /' "$dir/log" 2>/dev/null | head -20
[ $rt_hung -eq 0 ] || { rt_result 1 "not tried: hung"; rt_result 1 "not tried: hung"; rt_result 1 "not tried: hung"; rt_exit; }

# The buffer of the CPU that came and went takes records.
echo 1 > "$ONLINE"
echo 0 > $KMEMTRACE/enabled
echo "$size" > $KMEMTRACE/buffer_size_kb
out=$("$KT" record -g -- taskset -c "$last" sh -c "echo 1 > $PATTERN/run" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -qE "pattern_kmalloc \[kmemtrace_pattern\]" <<<"$out"
rt_result $? "afterwards cpu$last's allocations are recorded (exit $rc)"
[ $rc -eq 0 ] || echo "$out" | sed 's/^/# /'

# The reporter while the CPU goes offline and comes back.
out=$("$KT" record -g -- sh -c "echo 0 > $ONLINE; echo 1 > $PATTERN/run; echo 1 > $ONLINE; taskset -c $last sh -c 'echo 1 > $PATTERN/run'" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -qE "pattern_kmalloc \[kmemtrace_pattern\]" <<<"$out"
rt_result $? "the reporter records while cpu$last goes offline and comes back (exit $rc)"
[ $rc -eq 0 ] || echo "$out" | sed 's/^/# /'

# And with the CPU offline throughout.
echo 0 > "$ONLINE"
out=$("$KT" record -g -- sh -c "echo 1 > $PATTERN/run" 2>&1)
rc=$?
echo 1 > "$ONLINE"
[ $rc -eq 0 ] && grep -qE "pattern_kmalloc \[kmemtrace_pattern\]" <<<"$out"
rt_result $? "the reporter records with cpu$last offline (exit $rc)"
[ $rc -eq 0 ] || echo "$out" | sed 's/^/# /'
rt_exit
