#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: GTSC's start, stop and cleanup race its writers and its
#              control files: while a provider writes records from process
#              context (trace_running(), then relay_write()), loops write
#              start and stop to the channel's state, read its buffers and
#              dropped, and clean the channel up and set it up again.  A
#              stop flushes sub-buffers writers may be writing and a
#              cleanup frees them: each must wait for the writers and
#              for the state writes in flight.  Every record read during
#              the race is whole (a sub-buffer finished under a writer
#              tears one); the window is a few instructions wide, so the
#              KUnit suite gtsc is what catches a writer inside it, and
#              the test provider serialises its writes with its cleanup.
#              The last CPU goes offline and online meanwhile (relay
#              makes its buffer file in the channel's directory when it
#              comes up, while cleanups remove files there).  Nothing
#              hangs (KASAN and lockdep reports are the harness's to
#              catch), and afterwards a channel records, stops and
#              reads back exactly
# requires: module:gtsc_test_provider
# requires: cmd:timeout

. "$(dirname "$0")/ringtrace_lib.sh"

D=/sys/kernel/debug
CTL=$D/gtsc_test_provider/ctl
R=$D/gtsc_race
STORM=${RT_STORM:-6}	# seconds of racing (make torture: longer)
rt_race_limits "$STORM"	# RACE: at most this long until the goals; LIMIT
# Records the reader must have read before the race ends: one whole
# sub-buffer's (1024 bytes of 64-byte records).  Writes to a running
# channel fill sub-buffers (50 records a write, 64 fit in the four), a
# full one or the next stop's flush makes them readable, and the reader
# drains them, unless a cleanup (every 0.3 s) threw them away first: so
# a total over the race, reached sooner or later, not one write's.
READ_GOAL=16

# loop_write DIR: records, 50 at a time; counts the writes that worked,
# as it goes (the race lasts until there are some).
loop_write() {
	local n=0

	echo 0 > "$1/writes"
	while ! rt_stopped "$1"; do
		echo "write ch 50 64" 2>/dev/null > $CTL &&
			n=$((n + 1)) && echo "$n" > "$1/writes"
	done
}

# loop_state DIR: start and stop, and read what the control files say.
loop_state() {
	while ! rt_stopped "$1"; do
		echo start 2>/dev/null > $R/ch/state
		cat $R/ch/state $R/ch/dropped > /dev/null 2>&1
		echo stop 2>/dev/null > $R/ch/state
	done
}

# loop_read DIR: drain the buffers; counts the records read and those
# that are not whole ("seq=<n>" and dots, 64 bytes with the newline): a
# stop that finished a sub-buffer under a writer tears a record.
loop_read() {
	local n all bad

	echo "0 0" > "$1/read"
	while ! rt_stopped "$1"; do
		# shellcheck disable=SC2086 # the glob: trace0..N
		n=$(cat $R/ch/trace* 2>/dev/null | awk '
			!/^seq=[0-9]+\.*$/ || length($0) != 63 { bad++ }
			END { print NR + 0, bad + 0 }')
		read -r all bad < "$1/read"
		echo "$((all + ${n% *})) $((bad + ${n#* }))" > "$1/read"
	done
}

# loop_hotplug DIR CPU: CPU offline and online again; counts the rounds.
# A channel set up while it is offline gets its buffer file when it comes
# up (relay_prepare_cpu() creates it in the channel's directory, hotplug
# lock held) while cleanups remove that directory's control files and
# state writes stop the channel.
loop_hotplug() {
	local n=0 online=/sys/devices/system/cpu/cpu$2/online

	echo 0 > "$1/hotplugs"
	while ! rt_stopped "$1"; do
		# EBUSY now and then (a hotplug in progress): try again later.
		{ echo 0 > "$online" && sleep 0.2 && echo 1 > "$online"; } \
			2>/dev/null && n=$((n + 1)) || sleep 0.2
		echo "$n" > "$1/hotplugs"
	done
	echo 1 > "$online" 2>/dev/null
}

# loop_life DIR: clean the channel up and set it up again; counts them,
# as it goes.
loop_life() {
	local n=0

	echo 0 > "$1/cleanups"
	while ! rt_stopped "$1"; do
		sleep 0.3
		echo "cleanup ch" > $CTL &&
			echo "setup gtsc_race ch 1024 4 0" > $CTL &&
			n=$((n + 1)) && echo "$n" > "$1/cleanups"
	done
}

case ${1:-} in
--write) loop_write "$2"; exit 0 ;;
--state) loop_state "$2"; exit 0 ;;
--read) loop_read "$2"; exit 0 ;;
--life) loop_life "$2"; exit 0 ;;
--hotplug) loop_hotplug "$2" "$3"; exit 0 ;;
esac

last=$(($(nproc --all) - 1))
ONLINE=/sys/devices/system/cpu/cpu$last/online
hotplug=0
[ "$last" -gt 0 ] && [ -w "$ONLINE" ] && [ "$(cat $ONLINE)" = 1 ] && hotplug=1

dir=$(mktemp -d)
cleanup() {
	rt_stop_loops "$dir"
	rm -rf "$dir"
	if [ $rt_hung -eq 0 ]; then
		echo "cleanup ch" 2>/dev/null > $CTL
		[ $hotplug -eq 0 ] || echo 1 > "$ONLINE" 2>/dev/null
	fi
}
trap cleanup EXIT

rt_plan 4
echo "setup gtsc_race ch 1024 4 0" > $CTL
rt_start_loop bash "$0" --write "$dir"
rt_start_loop bash "$0" --state "$dir"
rt_start_loop bash "$0" --state "$dir"
rt_start_loop bash "$0" --read "$dir"
rt_start_loop bash "$0" --life "$dir"
[ $hotplug -eq 0 ] || rt_start_loop bash "$0" --hotplug "$dir" "$last"
rt_race "$dir" "$STORM" writes:1 cleanups:1 read:$READ_GOAL
rt_wait_loops "$(rt_scaled 50)"
[ $rt_hung -eq 0 ]
rt_result $? "no writer, state, reader or cleanup loop hung"
writes=$(cat "$dir/writes" 2>/dev/null || echo 0)
cleanups=$(cat "$dir/cleanups" 2>/dev/null || echo 0)
hotplugs=$(cat "$dir/hotplugs" 2>/dev/null || echo "no")
echo "# $writes writes of 50 records, $cleanups cleanups and setups, cpu$last offline and online $hotplugs times"
[ "${writes:-0}" -gt 0 ] && [ "${cleanups:-0}" -gt 0 ]
rt_result $? "writes ($writes) and cleanups ($cleanups) raced the state writes$rt_stuck"
read -r records torn < "$dir/read"
records=${records:-0} torn=${torn:-0}
echo "# $records records read during the race, $torn not whole"
[ "$records" -ge $READ_GOAL ] && [ "$torn" -eq 0 ]
rt_result $? "every record read during the race is whole ($torn of $records torn, at least $READ_GOAL read)$rt_stuck"
if [ $rt_hung -ne 0 ]; then
	rt_result 1 "afterwards a channel records exactly (not tried: hung)"
	rt_exit
fi

# Afterwards: 3 records fit in 1024 bytes; a stop makes them readable and
# drops nothing; start and stop again add no empty sub-buffer.
echo "cleanup ch" 2>/dev/null > $CTL
echo "setup gtsc_race ch 1024 4 0" > $CTL &&
	echo start > $R/ch/state && echo "write ch 3 300" > $CTL &&
	echo stop > $R/ch/state && echo start > $R/ch/state &&
	echo stop > $R/ch/state &&
	[ "$(cat $R/ch/trace* | grep -c '^seq=')" = 3 ] &&
	[ "$(cat $R/ch/dropped)" = 0 ]
rt_result $? "afterwards a channel records, stops and reads back 3 records, none dropped"
rt_exit
