#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: buffer_size_kb under injected allocation failures: a resize
#              whose Nth allocation fails (N = 1, 2, ... past the last) is
#              ENOMEM and keeps the size and the records; one that succeeds
#              gives the new size
# requires: buffer_size_kb trace trace_marker tracing_on per_cpu/cpu0
# requires: /sys/kernel/debug/failslab /sys/kernel/debug/fail_page_alloc
# requires: /proc/thread-self/fail-nth

. "$(dirname "$0")/ringtrace_lib.sh"

# In detail: with failslab and fail_page_alloc armed through fail-nth, the
# Nth allocation of a resize from 16 to 32 KiB per CPU fails; every
# failure is ENOMEM and leaves the size and the buffered records as they
# were, every success gives the new size (and kmemleak, checked after the
# run, no leak).  The header's paths: CONFIG_FAILSLAB,
# CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAULT_INJECTION*.

D=/sys/kernel/debug
T=$TRACING
FROM=16
TO=32
cpus=("$T"/per_cpu/cpu*)
ncpus=${#cpus[@]}
# A resize allocates, for each possible CPU, the ring's page array, then a
# struct and a page for each ring page (RTB_PAGE_DATA_SIZE bytes of records:
# a page less 16 bytes of header) and for the spare reader page; kmemleak
# adds an object of its own to each slab allocation, and opening the file
# takes a few more.  N runs well past their total.
page_data=$(($(getconf PAGESIZE) - 16))
pages=$(((TO * 1024 + page_data - 1) / page_data))
max=$((ncpus * (3 * pages + 6) + 60))

old_kb=$(cat "$T/buffer_size_kb")
saved=()
for f in failslab/ignore-gfp-wait failslab/verbose \
	 fail_page_alloc/ignore-gfp-wait fail_page_alloc/verbose \
	 fail_page_alloc/min-order; do
	saved+=("$f=$(cat $D/$f)")
done
# Put the fault injection settings and the size back, however the test ends.
# shellcheck disable=SC2317 # run by the EXIT trap
restore() {
	local s

	for s in "${saved[@]}"; do
		echo "${s#*=}" > "$D/${s%%=*}"
	done
	echo "$old_kb" > "$T/buffer_size_kb"
}
trap restore EXIT

echo 1 > "$T/tracing_on"
echo $FROM > "$T/buffer_size_kb" ||
	rt_skip "cannot set buffer_size_kb to $FROM (trace open elsewhere?)"
rt_plan 5

# GFP_KERNEL allocations may fail; quietly.
for f in failslab fail_page_alloc; do
	echo N > $D/$f/ignore-gfp-wait
	echo 0 > $D/$f/verbose
done
echo 0 > $D/fail_page_alloc/min-order

# Before each try a marker: a failed resize must keep every marker written
# since the buffer was last emptied (by the previous successful resize).
# (Some failures in between are tolerated by design - kmemleak's own
# metadata allocations fall back to a pool - so a resize may succeed at a
# small N too.)
tag="rfi-$$"
since=0
failed=0 other=0 kept_size=0 kept_records=0 succeeded=0 new_size=0 last_failed=0
for n in $(seq 1 $max); do
	echo "$tag-$n" > "$T/trace_marker"
	since=$((since + 1))
	# fail-nth counts this thread's next allocations: the open and write
	# of buffer_size_kb, then rtb_resize()'s.
	if err=$( (echo "$n" > /proc/thread-self/fail-nth
		   echo $TO > "$T/buffer_size_kb") 2>&1 ); then
		succeeded=$((succeeded + 1))
		read -r kb < "$T/buffer_size_kb"
		if [ "$kb" != $TO ]; then
			new_size=$((new_size + 1))
			echo "# n=$n: resized, but buffer_size_kb reads $kb"
		fi
		if ! err=$( (echo $FROM > "$T/buffer_size_kb") 2>&1 ); then
			echo "# n=$n: cannot go back to $FROM KiB: $err"
		fi
		since=0
		continue
	fi
	failed=$((failed + 1))
	last_failed=$n
	case $err in
	*"Cannot allocate memory"*) ;;
	*) other=$((other + 1)); echo "# n=$n: $err" ;;
	esac
	read -r kb < "$T/buffer_size_kb"
	if [ "$kb" != $FROM ]; then
		kept_size=$((kept_size + 1))
		echo "# n=$n: the failed resize left buffer_size_kb at $kb"
	fi
	# Counted with builtins (a fork costs 0.2 s in the debug VM).
	mapfile -t lines < "$T/trace"
	shown=0 newest=0
	for line in "${lines[@]}"; do
		[[ $line == *": $tag-"* ]] || continue
		shown=$((shown + 1))
		[[ $line == *": $tag-$n" ]] && newest=$((newest + 1))
	done
	if [ "$shown" -ne $since ] || [ "$newest" -ne 1 ]; then
		kept_records=$((kept_records + 1))
		echo "# n=$n: trace shows $shown of the $since markers written since the buffer was emptied"
	fi
done

echo "# $failed resizes failed, $succeeded succeeded; N ran to $max"
[ "$last_failed" -lt $((max - 20)) ] && [ $succeeded -gt 0 ]
rt_result $? "the last failure was at N=$last_failed: past it, every resize succeeds"
[ $other -eq 0 ] && [ $failed -gt 10 ]
rt_result $? "every failed resize ($failed) is ENOMEM"
[ $kept_size -eq 0 ]
rt_result $? "after a failed resize buffer_size_kb still reads $FROM"
[ $kept_records -eq 0 ]
rt_result $? "after a failed resize trace still shows the markers written before"
[ $new_size -eq 0 ]
rt_result $? "after a successful resize buffer_size_kb reads $TO"
rt_exit
