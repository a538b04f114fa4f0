#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace_setup() under injected allocation failures: with
#              failslab and fail_page_alloc armed through fail-nth, the
#              Nth allocation of a setup fails for N = 1, 2, ... 300, past
#              the last; every failed setup leaves no file behind (and
#              kmemleak, checked after the run, no memory)
# requires: module:gtsc_test_provider
# requires: /sys/kernel/debug/failslab /sys/kernel/debug/fail_page_alloc
# requires: /proc/thread-self/fail-nth

. "$(dirname "$0")/ringtrace_lib.sh"
D=/sys/kernel/debug
CTL=$D/gtsc_test_provider/ctl
rt_plan 3

# GFP_KERNEL allocations may fail; quietly.
for f in failslab fail_page_alloc; do
	echo N > $D/$f/ignore-gfp-wait
	echo 0 > $D/$f/verbose
done
echo 0 > $D/fail_page_alloc/min-order

# N runs past the last allocation of a setup: the last runs all succeed.
# (Some failures in between are tolerated by design - kmemleak's own
# metadata allocations fall back to a pool - so a setup may succeed at
# a small N too.)
max=300
failed=0 left=0 other=0 succeeded=0 last_failed=0
for n in $(seq 1 $max); do
	# fail-nth counts this thread's next allocations: the open and write
	# of ctl, then trace_setup()'s.
	err=$( (echo $n > /proc/thread-self/fail-nth
		echo "setup gtsc_fi ch 4096 4 0" > $CTL) 2>&1 )
	if [ -e $D/gtsc_fi/ch/state ]; then
		succeeded=$((succeeded + 1))
		echo "cleanup ch" > $CTL
		[ ! -e $D/gtsc_fi ] || { left=$((left + 1)); echo "# n=$n: cleanup left $D/gtsc_fi"; }
		continue
	fi
	failed=$((failed + 1))
	last_failed=$n
	case $err in
	*"Cannot allocate memory"*) ;;
	*) other=$((other + 1)); echo "# n=$n: $err" ;;
	esac
	[ -e $D/gtsc_fi ] && { left=$((left + 1)); echo "# n=$n left $D/gtsc_fi"; }
done

for f in failslab fail_page_alloc; do
	echo Y > $D/$f/ignore-gfp-wait
done
echo 1 > $D/fail_page_alloc/min-order

[ $last_failed -lt $((max - 20)) ]
rt_result $? "the last failure was at N=$last_failed: past it, every setup succeeds"
[ $left -eq 0 ] && [ $failed -gt 10 ]
rt_result $? "each of the $failed failed setups left nothing behind ($succeeded succeeded)"
[ $other -eq 0 ]
rt_result $? "every failure is ENOMEM"
rmmod gtsc_test_provider
rt_exit
