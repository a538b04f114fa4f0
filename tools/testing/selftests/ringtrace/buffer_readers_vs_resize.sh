#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: readers race writers and resizes: with markers written on
#              every CPU, trace_pipe, trace_pipe_raw, stats and trace read,
#              buffer_size_kb flipping and clears, every resize succeeds or
#              is EBUSY, nothing hangs, a later marker is read out once
# requires: trace trace_pipe trace_marker tracing_on buffer_size_kb
# requires: per_cpu/cpu0/trace_pipe per_cpu/cpu0/trace_pipe_raw
# requires: per_cpu/cpu0/trace per_cpu/cpu0/stats
# requires: cmd:timeout cmd:taskset cmd:dd

. "$(dirname "$0")/ringtrace_lib.sh"

# In detail: markers are written on every CPU; trace_pipe,
# per_cpu/cpu0/trace_pipe, trace_pipe_raw (also two readers sharing one
# open file), stats and trace are read in loops; buffer_size_kb flips
# between 16 and 64 and the buffer is cleared.  Every resize succeeds or
# fails with EBUSY (trace open), the size reads back as one of the two,
# nothing hangs, and a marker written after the storm comes out of
# trace_pipe exactly once (KASAN and lockdep reports are the harness's to
# catch).

T=$TRACING
STORM=${RT_STORM:-10}	# seconds of racing (make torture: longer)
rt_race_limits "$STORM"	# RACE: at most this long until the goals; LIMIT
SMALL=16
BIG=64

# The loops, each run as "bash $0 --LOOP DIR ..." under timeout.  They end
# when DIR/stop appears or after a bounded number of iterations, and keep
# their counts in DIR as they go (the race lasts until they show a resize
# done and records read).

# loop_writer DIR CPU: markers, as fast as a shell writes them.
loop_writer() {
	local i

	for ((i = 0; i < 200000; i++)); do
		rt_stopped "$1" && break
		echo "storm-$2-$i" 2>/dev/null > "$T/trace_marker"
	done
}

# loop_pipe DIR: blocking reads of trace_pipe and per_cpu/cpu0/trace_pipe,
# a page at a time (a read returns when its buffer is full or no record
# is left), each cut after a few seconds (so they also wait for records).
loop_pipe() {
	local i n f bytes=0

	for ((i = 0; i < 1000; i++)); do
		rt_stopped "$1" && break
		if ((i % 2)); then
			f=$T/per_cpu/cpu0/trace_pipe
		else
			f=$T/trace_pipe
		fi
		n=$(timeout --foreground -k 2 3 dd if="$f" bs=4096 count=4 2>/dev/null | wc -c)
		bytes=$((bytes + n))
		echo "$bytes" > "$1/pipe"
	done
}

# loop_raw DIR NCPUS: trace_pipe_raw of each CPU by whole pages, and cpu0's
# by pieces of pages from two readers sharing one open file.
loop_raw() {
	local i n bytes=0

	for ((i = 0; i < 1000; i++)); do
		rt_stopped "$1" && break
		n=$(timeout --foreground -k 2 5 dd if="$T/per_cpu/cpu$((i % $2))/trace_pipe_raw" \
			bs=4096 count=4 iflag=nonblock 2>/dev/null | wc -c)
		bytes=$((bytes + n))
		{
			timeout --foreground -k 2 5 dd of=/dev/null bs=1000 count=8 iflag=nonblock \
				<&3 2>/dev/null &
			timeout --foreground -k 2 5 dd of=/dev/null bs=1000 count=8 iflag=nonblock \
				<&3 2>/dev/null
			wait
		} 3< "$T/per_cpu/cpu0/trace_pipe_raw"
		echo "$bytes" > "$1/raw"
	done
}

# loop_trace DIR NCPUS: every CPU's stats, then trace or a CPU's trace
# (which make resizes fail with EBUSY while they are open).
loop_trace() {
	local i

	for ((i = 0; i < 1000; i++)); do
		rt_stopped "$1" && break
		timeout --foreground -k 2 5 cat "$T"/per_cpu/cpu*/stats > /dev/null
		if ((i % 2)); then
			timeout --foreground -k 2 10 cat "$T/per_cpu/cpu$((i / 2 % $2))/trace" > /dev/null
		else
			timeout --foreground -k 2 10 cat "$T/trace" > /dev/null
		fi
		# Room for resizes between two opens of trace (EBUSY meanwhile).
		sleep 1
	done
}

# loop_resize DIR: buffer_size_kb between SMALL and BIG, and clears.
loop_resize() {
	local i kb err got ok=0 busy=0 bad=0 badsize=0

	for ((i = 0; i < 1000; i++)); do
		rt_stopped "$1" && break
		kb=$((i % 2 ? BIG : SMALL))
		if err=$( (echo "$kb" > "$T/buffer_size_kb") 2>&1 ); then
			ok=$((ok + 1))
		else
			case $err in
			*"Device or resource busy"*) busy=$((busy + 1)) ;;
			*) bad=$((bad + 1)); echo "# resize to $kb KiB: $err" ;;
			esac
		fi
		# And a clear ("echo > trace") under the same readers.
		((i % 3)) || echo > "$T/trace"
		read -r got < "$T/buffer_size_kb"
		if [ "$got" != $SMALL ] && [ "$got" != $BIG ]; then
			badsize=$((badsize + 1))
			echo "# buffer_size_kb reads '$got' after writing $kb"
		fi
		echo "$ok $busy $bad $badsize" > "$1/resize"
	done
}

case ${1:-} in
--writer) loop_writer "$2" "$3"; exit 0 ;;
--pipe) loop_pipe "$2"; exit 0 ;;
--raw) loop_raw "$2" "$3"; exit 0 ;;
--trace) loop_trace "$2" "$3"; exit 0 ;;
--resize) loop_resize "$2"; exit 0 ;;
esac

cpus=("$T"/per_cpu/cpu*)
ncpus=${#cpus[@]}
old_kb=$(cat "$T/buffer_size_kb")
dir=$(mktemp -d)
# Put the size back, unless a loop hung (the write could hang behind it).
# No loop may outlive the test: a reader left with trace open would make
# the next test's resizes EBUSY.
cleanup() {
	rt_stop_loops "$dir"
	rm -rf "$dir"
	[ $rt_hung -eq 0 ] && echo "$old_kb" > "$T/buffer_size_kb"
}
trap cleanup EXIT

rt_plan 8
echo 1 > "$T/tracing_on"
echo $SMALL > "$T/buffer_size_kb"

for ((cpu = 0; cpu < ncpus; cpu++)); do
	rt_start_loop taskset -c $cpu bash "$0" --writer "$dir" $cpu
done
rt_start_loop bash "$0" --pipe "$dir"
rt_start_loop bash "$0" --raw "$dir" "$ncpus"
rt_start_loop bash "$0" --trace "$dir" "$ncpus"
rt_start_loop bash "$0" --resize "$dir"

rt_race "$dir" "$STORM" resize:1 pipe+raw:1
rt_wait_loops "$(rt_scaled 50)"

read -r ok busy bad badsize 2>/dev/null < "$dir/resize"
echo "# resizes: ${ok:-?} done, ${busy:-?} EBUSY; trace_pipe: $(cat "$dir/pipe" 2>/dev/null) bytes, trace_pipe_raw: $(cat "$dir/raw" 2>/dev/null) bytes"
[ "${bad:-1}" -eq 0 ]
rt_result $? "every buffer_size_kb write succeeded or failed with EBUSY"
[ "${ok:-0}" -gt 0 ]
rt_result $? "resizes succeeded while readers ran (${ok:-0})$rt_stuck"
[ "${badsize:-1}" -eq 0 ]
rt_result $? "buffer_size_kb always read back $SMALL or $BIG"
# The two consume the same records: which gets them is a race of its own.
p= r=
{ read -r p < "$dir/pipe"; read -r r < "$dir/raw"; } 2>/dev/null
[ $((${p:-0} + ${r:-0})) -gt 0 ]
rt_result $? "trace_pipe or trace_pipe_raw returned records during the storm$rt_stuck"
[ $rt_hung -eq 0 ]
rt_result $? "no writer, reader or resize loop hung"

if [ $rt_hung -ne 0 ]; then
	rt_result 1 "a marker written after the storm is read from trace_pipe once (not tried: hung)"
	rt_result 1 "with trace open, buffer_size_kb is EBUSY (not tried: hung)"
	rt_result 1 "with the readers gone, buffer_size_kb takes $old_kb again (not tried: hung)"
	rt_exit
fi

# The readers are stopped: what is left drains, with the final marker once.
final="final-marker-$$-$RANDOM$RANDOM"
echo "$final" > "$T/trace_marker"
cut=$(rt_scaled 30)	# non-blocking reads: only a hang takes that long
got=$( (timeout "$cut" dd if="$T/trace_pipe" bs=65536 iflag=nonblock 2>/dev/null
	timeout "$cut" dd if="$T/trace_pipe" bs=65536 iflag=nonblock 2>/dev/null) |
	grep -c -- ": $final\$")
[ "$got" = 1 ]
rt_result $? "a marker written after the storm is read from trace_pipe once (got $got)"
# Held open, trace keeps its iterators: a resize would free their pages.
before=$(cat "$T/buffer_size_kb")
exec 4< "$T/trace"
err=$( (echo $((before == SMALL ? BIG : SMALL)) > "$T/buffer_size_kb") 2>&1 )
exec 4<&-
[[ $err == *"Device or resource busy"* ]] &&
	[ "$(cat "$T/buffer_size_kb")" = "$before" ]
rt_result $? "with trace open, buffer_size_kb is EBUSY and stays $before (${err:-no error})"
err=$( (echo "$old_kb" > "$T/buffer_size_kb") 2>&1 ) &&
	[ "$(cat "$T/buffer_size_kb")" = "$old_kb" ]
rt_result $? "with the readers gone, buffer_size_kb takes $old_kb again${err:+ ($err)}"
rt_exit
