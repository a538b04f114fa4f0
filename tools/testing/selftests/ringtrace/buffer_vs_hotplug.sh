#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the tracer against CPU hotplug: while the last CPU goes
#              offline and online, a kprobe on vfs_read records on every
#              CPU and readers drain each CPU's trace_pipe_raw; nothing
#              hangs, and then that CPU records again and is read
# requires: kprobe_events trace events/enable cpu-hotplug
# requires: cmd:timeout cmd:taskset

. "$(dirname "$0")/ringtrace_lib.sh"

# KASAN and lockdep reports are the harness's to catch.

T=$TRACING
K=$T/events/kprobes
PROBE=rt_hotplug
STORM=${RT_STORM:-6}	# seconds of racing (make torture: longer)
rt_race_limits "$STORM"	# RACE: at most this long until the goals; LIMIT

# loop_hotplug DIR CPU: CPU offline and online again; counts the rounds.
# It waits for the other loops to start (DIR/rawN and DIR/readN), so
# that the first round already races with every reader.
loop_hotplug() {
	local n=0 i online=/sys/devices/system/cpu/cpu$2/online

	echo 0 > "$1/hotplugs"
	for ((i = 0; i <= $2; i++)); do
		until rt_stopped "$1" || { [ -e "$1/raw$i" ] && [ -e "$1/read$i" ]; }; do
			sleep 0.1
		done
	done
	while ! rt_stopped "$1"; do
		echo 0 > "$online" && echo 1 > "$online" && n=$((n + 1))
		# Each round: a loop killed as hung still tells how far it got.
		echo "$n" > "$1/hotplugs"
	done
	echo 1 > "$online" 2>/dev/null
}

# loop_raw DIR CPU: drain CPU's raw pages; counts the bytes.
loop_raw() {
	local bytes=0 n

	echo 0 > "$1/raw$2"
	while ! rt_stopped "$1"; do
		n=$(timeout 1 cat "$T/per_cpu/cpu$2/trace_pipe_raw" 2>/dev/null | wc -c)
		bytes=$((bytes + n))
		echo "$bytes" > "$1/raw$2"
	done
}

# loop_read DIR CPU: reads (the probe's hits) on CPU, if online.
loop_read() {
	: > "$1/read$2"
	while ! rt_stopped "$1"; do
		taskset -c "$2" cat /proc/version > /dev/null 2>&1 || sleep 0.1
	done
}

case ${1:-} in
--hotplug) loop_hotplug "$2" "$3"; exit 0 ;;
--raw) loop_raw "$2" "$3"; exit 0 ;;
--read) loop_read "$2" "$3"; exit 0 ;;
esac

# The header's cpu-hotplug: RT_LAST_CPU, the highest online CPU, can go
# offline.
last=${RT_LAST_CPU:?set by the header word cpu-hotplug}
ONLINE=/sys/devices/system/cpu/cpu$last/online
[ -e "$T/per_cpu/cpu$last/trace_pipe_raw" ] || rt_skip "no per_cpu/cpu$last/trace_pipe_raw"

# The events enabled before: off while the test runs, on again after.
was_enabled=$(grep -l '^1' "$T"/events/*/*/enable 2>/dev/null | grep -v "/$PROBE/")
dir=$(mktemp -d)
cleanup() {
	local f

	rt_stop_loops "$dir"
	rm -rf "$dir"
	if [ $rt_hung -eq 0 ]; then
		echo 1 > "$ONLINE" 2>/dev/null
		echo 0 > "$K/$PROBE/enable" 2>/dev/null
		echo "-:$PROBE" >> "$T/kprobe_events" 2>/dev/null
		for f in $was_enabled; do
			echo 1 > "$f"
		done
	fi
}
trap cleanup EXIT

rt_plan 4
echo 0 > "$T/events/enable"
echo "-:$PROBE" >> "$T/kprobe_events" 2>/dev/null
echo > "$T/trace"
echo "p:$PROBE vfs_read a0 a2" >> "$T/kprobe_events" &&
	echo 1 > "$K/$PROBE/enable"
rt_result $? "a kprobe event on vfs_read, enabled"

rt_start_loop bash "$0" --hotplug "$dir" "$last"
for cpu in $(seq 0 "$last"); do
	rt_start_loop bash "$0" --raw "$dir" "$cpu"
	rt_start_loop bash "$0" --read "$dir" "$cpu"
done
# The race lasts until the CPU went offline and online at least once.
rt_race "$dir" "$STORM" hotplugs:1
rt_wait_loops "$(rt_scaled 50)"
[ $rt_hung -eq 0 ]
rt_result $? "no hotplug, reader or raw-page loop hung"
hotplugs=$(cat "$dir/hotplugs" 2>/dev/null || echo 0)
raw=$(cat "$dir/raw$last" 2>/dev/null || echo 0)
echo "# cpu$last went offline and online $hotplugs times; $raw bytes of its raw pages read"
[ "$hotplugs" -gt 0 ]
rt_result $? "the CPU went offline and online during recording ($hotplugs times)$rt_stuck"
if [ $rt_hung -ne 0 ]; then
	rt_result 1 "afterwards cpu$last records and its records are read (not tried: hung)"
	rt_exit
fi

echo 1 > "$ONLINE"
echo > "$T/trace"
taskset -c "$last" cat /proc/version > /dev/null
grep -qE "^ *cat-[0-9]+ +\[0*$last\] .* vfs_read\+0x0/" "$T/trace"
rt_result $? "afterwards cpu$last records and its records are read"
rt_exit
