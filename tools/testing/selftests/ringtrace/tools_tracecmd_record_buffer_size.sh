#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd record -b, unmodified, against ringtrace: with a
#              buffer size of its own, the calls this test made to
#              ringtrace_kprobe_target.ko are in its file, and its summary
#              counts no "-1 events lost"
# requires: cmd:trace-cmd kprobe_events buffer_size_kb
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target
T=$TRACING
dir=$(mktemp -d)
old_kb=$(cat "$T/buffer_size_kb")
trap 'rm -rf "$dir"; echo > "$T/kprobe_events"
      echo "$old_kb" > "$T/buffer_size_kb"; echo 1 > "$T/tracing_on"' EXIT
rt_plan 2
cd "$dir" || exit 1
echo 'p:kprobes/tcday ringtrace_kprobe_target a0 a1' > "$T/kprobe_events"

trace-cmd record -b 64 -e kprobes/tcday -o "$dir/r.dat" -- sh -c "echo 2 > $TARGET_CALL" \
	> rec 2>&1
rc=$?
# Its records, as trace-cmd's reports show them.
n=$(trace-cmd report -i "$dir/r.dat" 2> /dev/null | grep -c ' tcday: ')
[ $rc -eq 0 ] && [ "$n" -eq 2 ]
rt_result $? "trace-cmd record -b 64 -e kprobes/tcday -- 2 calls: 2 in the file ($n, exit $rc)"
! grep -q -- '-1 events lost\|-1 events' rec && grep -q 'CPU0 data recorded' rec
rt_result $? "its summary counts no '-1' lost events"
[ $rt_fails -eq 0 ] || sed 's/^/# /' rec
rt_exit
