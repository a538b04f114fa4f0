#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: probes record in interrupt context: on hrtimer_interrupt
#              (hard IRQ) and run_timer_softirq (softirq), with the context
#              in common_flags, strings too, taking no lock that is not
#              IRQ-safe (lockdep reports are the harness's to catch)
# requires: kprobe_events trace tracing_on events/enable
# requires: cmd:taskset cmd:timeout cmd:nproc

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes
# common_flags bits (include/linux/ringtrace_events.h).
FLAG_HARDIRQ=8
FLAG_SOFTIRQ=16
STORM=${RT_STORM:-2}	# seconds the probes record (make torture: longer)
# ...and then on until each has recorded, at most this long: a slow
# machine records later, a probe that never records is stuck.
RACE=$(rt_scaled $((STORM + 120)))

cleanup() {
	echo 0 > "$K/enable" 2>/dev/null
	echo > "$T/kprobe_events"
}
trap cleanup EXIT

rt_plan 3
echo 1 > "$T/tracing_on"
echo 0 > "$T/events/enable"
echo > "$T/kprobe_events"
echo > "$T/trace"

# Strings too (__data_loc, measured then copied, symstr in a per-CPU
# buffer): $comm, the caller as symstr, and kernel memory read as text.
echo 'p:rt_hardirq hrtimer_interrupt c=$comm ret=s0:symstr m=+0(%di):string' >> "$T/kprobe_events" &&
	echo 'p:rt_softirq run_timer_softirq c=$comm ret=s0:symstr' >> "$T/kprobe_events" &&
	echo "common_flags & $FLAG_HARDIRQ" > "$K/rt_hardirq/filter" &&
	echo "common_flags & $FLAG_SOFTIRQ" > "$K/rt_softirq/filter" &&
	echo 1 > "$K/enable"
rt_result $? "probes on hrtimer_interrupt and run_timer_softirq, filtered on their context, enabled"
# count_records: hard and soft, the probes' records in trace.
count_records() {
	hard=$(grep -c ': hrtimer_interrupt+0x0/0x[0-9a-f]*: c="[^"]*" ret="[A-Za-z_][A-Za-z0-9_.]*+0x[0-9a-f]*/0x[0-9a-f]*" m="' "$T/trace")
	soft=$(grep -c ': run_timer_softirq+0x0/0x[0-9a-f]*: c="[^"]*" ret="[A-Za-z_][A-Za-z0-9_.]*+0x[0-9a-f]*/0x[0-9a-f]*"$' "$T/trace")
}

# A busy task on every CPU: the timer interrupts then hit a task (whose
# comm the record path saves) rather than the idle loop, and the tick
# keeps running timer softirqs.
busy=()
for cpu in $(seq 0 $(($(nproc) - 1))); do
	taskset -c "$cpu" timeout $((RACE + 3)) sh -c 'while :; do :; done' &
	busy+=($!)
done
start=$SECONDS
sleep "$STORM"
count_records
while { [ "$hard" -eq 0 ] || [ "$soft" -eq 0 ]; } && [ $((SECONDS - start)) -lt "$RACE" ]; do
	sleep 1
	count_records
done
took=$((SECONDS - start))
echo 0 > "$K/enable"
kill "${busy[@]}" 2>/dev/null
wait "${busy[@]}" 2>/dev/null
count_records
echo "# $hard hard-IRQ and $soft softirq records in $took s"
[ "$hard" -gt 0 ]
rt_result $? "hrtimer_interrupt recorded in hard-IRQ context ($hard records in $took s)"
[ "$soft" -gt 0 ]
rt_result $? "run_timer_softirq recorded in softirq context ($soft records in $took s)"
echo > "$T/kprobe_events"
rt_exit
