#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: tracedat record --file-version 7 --compression zstd of a
#              kprobe session (ringtrace_kprobe_target.ko): a zstd file
#              holding every call, which unmodified trace-cmd report reads
#              as tracedat report does, with the CPUs' stats for report
#              --stat.  One recording for these checks of the recorded file
# requires: tool:tracedat cmd:trace-cmd kprobe_events
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracedat
rt_load_target
dir=$(mktemp -d)
trap 'rm -rf "$dir"; echo > $TRACING/kprobe_events' EXIT
rt_plan 3

echo 'p:tdprobe ringtrace_kprobe_target a0 a1' > $TRACING/kprobe_events
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
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$dir/err" "$dir/diff"
rt_exit
