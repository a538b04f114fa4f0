#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: unmodified trace-cmd record --file-version 7 --compression
#              zstd of a kprobe session on ringtrace_kprobe_target.ko: a
#              zstd file that reads the same in tracedat report and
#              trace-cmd report, line for line
# requires: cmd:trace-cmd tool:tracedat kprobe_events
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracedat
rt_load_target
dir=$(mktemp -d)
# trace-cmd leaves tracing off when it is done.
trap 'rm -rf "$dir"; echo > $TRACING/kprobe_events; echo 1 > $TRACING/tracing_on' EXIT
rt_plan 1
cd "$dir" || exit 1
echo 'p:tcprobe ringtrace_kprobe_target a0 a1' > $TRACING/kprobe_events

trace-cmd record --file-version 7 --compression zstd -e kprobes \
	-o "$dir/kz.dat" -- sh -c "echo 2 > $TARGET_CALL" > "$dir/out" 2>&1
grep -qF zstd <(head -c 40 "$dir/kz.dat") && rt_same_report "$dir/kz.dat"
rt_result $? "trace-cmd record --compression zstd: its file reads the same in tracedat report"
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$dir/out" "$dir/diff"
rt_exit
