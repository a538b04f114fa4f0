#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: tracedat record of a trace_marker session and of a kprobe
#              session (ringtrace_kprobe_target.ko, known arguments):
#              every event is in the file, and tracedat report and
#              unmodified trace-cmd report print the same thing, line for
#              line; report -s counts them; --file-version 7
#              --compression zstd writes a file trace-cmd reads the same,
#              with the CPUs' stats for report --stat; -F records the
#              command's events only, -C sets the clock for the session
# requires: trace-cmd, ringtrace_kprobe_target.ko

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing
rt_require_tracedat
rt_load_target
rt_plan 12

dir=$(mktemp -d)
trap 'rm -rf "$dir"; echo > $TRACING/kprobe_events' EXIT


"$TD" record -e ftrace/print -o "$dir/m.dat" -- \
	sh -c "for i in 1 2 3 4 5; do echo marker \$i > $TRACING/trace_marker; done" \
	2> "$dir/err"
rc=$?
[ $rc -eq 0 ] && [ -s "$dir/m.dat" ]
rt_result $? "record -e ftrace/print -- COMMAND writes the file (exit $rc)"
n=$("$TD" report "$dir/m.dat" | grep -c ': print: .*: marker [1-5]$')
[ "$n" -eq 5 ]
rt_result $? "the 5 markers are in it ($n)"
rt_same_report "$dir/m.dat"
rt_result $? "tracedat report and trace-cmd report agree line for line"
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$dir/err" "$dir/diff"

echo 'p:tdprobe ringtrace_kprobe_target a0 a1' > $TRACING/kprobe_events
"$TD" record -e kprobes/tdprobe -o "$dir/k.dat" -- sh -c "echo 3 > $TARGET_CALL" \
	2> "$dir/err"
rc=$?
[ $rc -eq 0 ] && [ "$(cat $TRACING/events/kprobes/tdprobe/enable)" = 0 ]
rt_result $? "record -e kprobes/tdprobe writes the file and disables the event after (exit $rc)"
n=$("$TD" report "$dir/k.dat" | grep -c ' tdprobe: .* 0x11 0x22$')
[ "$n" -eq 3 ]
rt_result $? "3 calls, each with a0 0x11 and a1 0x22 ($n)"
rt_same_report "$dir/k.dat"
rt_result $? "tracedat report and trace-cmd report agree line for line"
"$TD" report -s "$dir/k.dat" | grep -qE '^tdprobe +3 '
rt_result $? "report -s counts 3 tdprobe events"
[ $rt_fails -eq 0 ] || { sed 's/^/# /' "$dir/err" "$dir/diff"; "$TD" report "$dir/k.dat" | head -5 | sed 's/^/# /'; }

"$TD" record --file-version 7 --compression zstd -e kprobes/tdprobe \
	-o "$dir/kz.dat" -- sh -c "echo 4 > $TARGET_CALL" 2> "$dir/err"
n=$("$TD" report "$dir/kz.dat" | grep -c ' tdprobe: .* 0x11 0x22$')
[ "$n" -eq 4 ] && grep -qF zstd <(head -c 40 "$dir/kz.dat")
rt_result $? "record --file-version 7 --compression zstd: 4 calls in a zstd file ($n)"
rt_same_report "$dir/kz.dat"
rt_result $? "tracedat report and trace-cmd report agree line for line on it"
"$TD" report --stat "$dir/kz.dat" | rt_stat_lines > "$dir/ours"
trace-cmd report --stat -i "$dir/kz.dat" 2>/dev/null | rt_stat_lines > "$dir/theirs"
grep -qx 'CPU: 0' "$dir/ours" && grep -q '^entries: ' "$dir/ours" &&
	diff "$dir/theirs" "$dir/ours" > "$dir/diff"
rt_result $? "its CPU stats at the end: report --stat shows them, as trace-cmd report --stat"

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
pid=$(cat "$dir/pid")
calls=$(cat "$dir/noise-calls" 2> /dev/null)
"$TD" report "$dir/f.dat" | grep ' tdprobe: ' > "$dir/ours"
n=$(wc -l < "$dir/ours")
others=$(grep -vc -- "-$pid *\[" "$dir/ours")
[ $rc -eq 0 ] && [ "$n" -eq 2 ] && [ "$others" -eq 0 ] && [ "${calls:-0}" -ge 2 ]
rt_result $? "record -F: the command's 2 calls only, none of the other task's ($n calls, $others of other tasks, which called ${calls:-0} times meanwhile)"
grep -q '\[global\]' "$dir/clock" && grep -q '\[local\]' $TRACING/trace_clock
rt_result $? "record -C global: the session's clock ($(cat "$dir/clock")), then local back ($(cat $TRACING/trace_clock))"
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$dir/err" "$dir/diff"
rt_exit
