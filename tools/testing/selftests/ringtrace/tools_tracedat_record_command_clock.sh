#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: tracedat record -F -C global of a kprobe session
#              (ringtrace_kprobe_target.ko): -F records the command's
#              events only, none of another task's meanwhile, and -C sets
#              the clock for the session, local again after it.  One
#              recording for both options' checks
# requires: tool:tracedat cmd:trace-cmd kprobe_events trace_clock
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracedat
rt_load_target
dir=$(mktemp -d)
noise=
trap '[ -n "$noise" ] && kill $noise 2> /dev/null
      rm -rf "$dir"; echo > $TRACING/kprobe_events' EXIT
rt_plan 2

echo 'p:tdprobe ringtrace_kprobe_target a0 a1' > $TRACING/kprobe_events
# -F with -C global: only the command's calls, while another task calls
# the target too (counting its calls in $dir/noise); the clock is the
# session's, then back.  The waits: 100 rounds, scaled to the machine's
# speed.
rounds=$(rt_scaled 100)
(
	n=0
	while :; do
		echo 1 > $TARGET_CALL
		n=$((n + 1))
		echo $n > "$dir/noise"
		sleep 0.2
	done
) &
noise=$!
for ((i = 0; i < rounds; i++)); do
	[ -s "$dir/noise" ] && break
	sleep 0.1
done
# The command waits until the other task has called twice more (the
# first may have begun before the session did): once at least meanwhile.
"$TD" record -C global -F -e kprobes/tdprobe -o "$dir/f.dat" -- sh -c "
	echo \$\$ > $dir/pid
	cat $TRACING/trace_clock > $dir/clock
	echo 2 > $TARGET_CALL
	i=0
	until read -r first < $dir/noise && [ -n \"\$first\" ] || [ \$i -ge $rounds ]; do
		sleep 0.1
		i=\$((i + 1))
	done
	first=\${first:-0} i=0
	while read -r now < $dir/noise; [ \"\${now:-0}\" -lt \$((first + 2)) ] &&
		[ \$i -lt $rounds ]; do
		sleep 0.1
		i=\$((i + 1))
	done
	echo \$((\${now:-0} - first)) > $dir/noise-calls" 2> "$dir/err"
rc=$?
kill $noise; wait $noise 2> /dev/null
noise=
pid=$(cat "$dir/pid")
calls=$(cat "$dir/noise-calls" 2> /dev/null)
"$TD" report "$dir/f.dat" | grep ' tdprobe: ' > "$dir/ours"
n=$(wc -l < "$dir/ours")
others=$(grep -vc -- "-$pid *\[" "$dir/ours")
[ $rc -eq 0 ] && [ "$n" -eq 2 ] && [ "$others" -eq 0 ] && [ "${calls:-0}" -ge 2 ]
rt_result $? "record -F: the command's 2 calls only, none of the other task's ($n calls, $others of other tasks, which called ${calls:-0} times meanwhile)"
grep -q '\[global\]' "$dir/clock" && grep -q '\[local\]' $TRACING/trace_clock
rt_result $? "record -C global: the session's clock ($(cat "$dir/clock")), then local back ($(cat $TRACING/trace_clock))"
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$dir/err"
rt_exit
