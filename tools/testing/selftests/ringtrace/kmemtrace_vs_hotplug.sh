#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: kmemtrace against CPU hotplug: while one loop takes the
#              last CPU offline and online, another resizes the buffers
#              (relay gives each online CPU one, and each CPU coming up
#              one: a CPU coming up during a resize must get one too) and
#              records, and allocations run on every CPU; nothing hangs
#              or oopses.  Then the reporter (under timeout) records
#              storms pinned to known CPUs, and each CPU's file holds
#              exactly its storms' records: afterwards, while the CPU
#              goes offline and comes back, with it offline throughout
#              (its file stays empty), and with buffers made while it was
#              offline, whose cpu<n> file appears only when it comes up
# requires: /sys/kernel/debug/kmemtrace tool:kmemtrace module:kmemtrace_pattern
# requires: cpu-hotplug cmd:timeout cmd:taskset

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"

STORM=${RT_STORM:-6}	# seconds of racing (make torture: longer)
rt_race_limits "$STORM"	# RACE: at most this long until the goals; LIMIT

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

kt_load_pattern
# The CPU that goes offline and online: the header's cpu-hotplug set it,
# the highest online CPU.
last=${RT_LAST_CPU:?set by the header word cpu-hotplug}
ONLINE=/sys/devices/system/cpu/cpu$last/online

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

rt_plan 7
rt_start_loop bash "$0" --hotplug "$dir" "$last"
rt_start_loop bash "$0" --resize "$dir"
for cpu in $(seq 0 "$last"); do
	rt_start_loop bash "$0" --alloc "$dir" "$cpu"
done
# The loops count each round as they go: the race lasts until both did one.
rt_race "$dir" "$STORM" hotplugs:1 resizes:1
rt_wait_loops "$(rt_scaled 50)"
[ $rt_hung -eq 0 ]
rt_result $? "no hotplug, resize or allocation loop hung"
hotplugs=$(cat "$dir/hotplugs" 2>/dev/null || echo 0)
resizes=$(cat "$dir/resizes" 2>/dev/null || echo 0)
echo "# cpu$last went offline and online $hotplugs times, the buffers were resized $resizes times"
[ "$hotplugs" -gt 0 ] && [ "$resizes" -gt 0 ]
rt_result $? "CPU hotplug ($hotplugs) and resizes ($resizes) raced$rt_stuck"
sed 's/^/# loop: /' "$dir/log" 2>/dev/null | head -20
if [ $rt_hung -ne 0 ]; then
	for i in 3 4 5 6 7; do rt_result 1 "not tried ($i): hung"; done
	rt_exit
fi

# The reporter's sessions: each under timeout (a hang fails the test, not
# make test), kept in $dir/NAME so that each CPU's records can be counted.
# The storms are the only pattern_storm calls: a CPU's file must hold each
# of its storms' allocations and frees, exactly.
PAIRS=200
KT_LIMIT=$(rt_scaled 120)

# record NAME COMMAND: kmemtrace record -o $dir/NAME -- sh -c COMMAND.
record() {
	timeout -k 5 "$KT_LIMIT" "$KT" record -o "$dir/$1" -- sh -c "$2" \
		> "$dir/$1.out" 2>&1
}

# storm CPU: the command line of PAIRS kmalloc(64)/kfree() pairs on CPU.
storm() {
	echo "taskset -c $1 sh -c 'echo $PAIRS > $PATTERN/storm'"
}

# storms NAME CPU: allocs, frees, bytes requested and allocated, cross-CPU
# frees of pattern_storm in CPU's file of session NAME ("none" if none).
storms() {
	local f=$dir/$1/cpu$2 row

	[ -f "$f" ] || { echo "no cpu$2 file"; return; }
	row=$(timeout -k 5 "$KT_LIMIT" "$KT" report -g -k "$dir/$1/kallsyms" "$f" 2>&1 |
		grep -E '  kmalloc +pattern_storm \[kmemtrace_pattern\]$' |
		awk '{ print $1, $2, $3, $4, $6 }')
	echo "${row:-none}"
}

# Allocated: the kmalloc-64 slab's stride per object (more than 64 with
# KASAN's metadata).
stride=$(cat /sys/kernel/slab/kmalloc-64/slab_size 2>/dev/null)
want="$PAIRS $PAIRS $((64 * PAIRS)) $((${stride:-0} * PAIRS)) 0"

# check STATUS NAME: STATUS is 0; if not, shows the session's output.
check() {
	local rc=$1

	[ "$rc" -eq 0 ] || sed 's/^/# /' "$dir/$2.out" | tail -20
	[ "$rc" -eq 0 ]
}

# The buffer of the CPU that came and went takes records.
echo 1 > "$ONLINE"
echo 0 > $KMEMTRACE/enabled
echo 256 > $KMEMTRACE/buffer_size_kb
record after "$(storm "$last")"
rc=$?
got=$(storms after "$last")
check $rc after && [ "$got" = "$want" ]
rt_result $? "afterwards cpu$last's storm is recorded: $got, want $want"

# The reporter while the CPU goes offline and comes back.
record back "echo 0 > $ONLINE; $(storm 0); echo 1 > $ONLINE; $(storm "$last")"
rc=$?
got0=$(storms back 0)
got=$(storms back "$last")
check $rc back && [ "$got0" = "$want" ] && [ "$got" = "$want" ]
rt_result $? "the reporter records while cpu$last goes offline and comes back: cpu0 $got0, cpu$last $got, want $want"

# And with the CPU offline throughout: it writes nothing.
echo 0 > "$ONLINE"
record offline "$(storm 0)"
rc=$?
echo 1 > "$ONLINE"
got0=$(storms offline 0)
check $rc offline && [ "$got0" = "$want" ] &&
	[ -f "$dir/offline/cpu$last" ] && [ ! -s "$dir/offline/cpu$last" ]
rt_result $? "the reporter records with cpu$last offline: cpu0 $got0, want $want; cpu$last's file empty"

# Buffers made while the CPU is offline have no cpu<last> file: relay makes
# it when the CPU comes up, and the reporter must read it from then on.
echo 0 > "$ONLINE"
echo 272 > $KMEMTRACE/buffer_size_kb
[ ! -e "$KMEMTRACE/cpu$last" ]
rt_result $? "buffers made with cpu$last offline have no cpu$last file"
record late "echo 1 > $ONLINE; $(storm "$last")"
rc=$?
got=$(storms late "$last")
check $rc late && [ "$got" = "$want" ]
rt_result $? "cpu$last's file, made while recording, is read: $got, want $want"
rt_exit
