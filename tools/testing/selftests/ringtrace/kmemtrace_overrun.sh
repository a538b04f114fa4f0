#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a 32 KiB per-CPU buffer under an allocation storm (20,000
#              kmalloc/kfree pairs, no reader on that CPU until it ends)
#              refuses records: total_overruns grows, and the reporter
#              still finishes and reports the loss in events and bytes
# requires: /sys/kernel/debug/kmemtrace tool:kmemtrace module:kmemtrace_pattern

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"
kt_load_pattern
rt_plan 4

echo 0 > $KMEMTRACE/enabled
size=$(cat $KMEMTRACE/buffer_size_kb)
echo 32 > $KMEMTRACE/buffer_size_kb
before=$(cat $KMEMTRACE/total_overruns)
out=$("$KT" record -g -n 3 -- sh -c "echo 20000 > $PATTERN/storm" 2>&1)
rc=$?
after=$(cat $KMEMTRACE/total_overruns)
echo "$size" > $KMEMTRACE/buffer_size_kb

[ $rc -eq 0 ] && grep -qE '  kmalloc +pattern_storm \[kmemtrace_pattern\]$' <<<"$out"
rt_result $? "the reporter finishes (exit $rc) and reports the storm"
[ "$after" -gt "$before" ]
rt_result $? "total_overruns grew ($before -> $after bytes)"
lost=$(sed -n 's/^lost: \([0-9]*\) events (sequence gaps), \([0-9]*\) bytes (total_overruns)$/\1 \2/p' <<<"$out")
[ "${lost% *}" -gt 0 ] 2>/dev/null
rt_result $? "the report counts lost events (${lost% *})"
[ "${lost#* }" = $((after - before)) ]
rt_result $? "the report's lost bytes are total_overruns' growth (${lost#* })"
[ $rt_fails -eq 0 ] || echo "$out" | sed 's/^/# /'
rt_exit
