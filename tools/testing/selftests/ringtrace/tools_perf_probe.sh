#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: perf probe (Debian's linux-perf), unmodified, against
#              ringtrace: -a with upstream's fetch-args (a string read at a
#              user pointer, a signed register), -l, the records, -d; each
#              checked against the opens this test made
# requires: cmd:perf kprobe_events

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING
rt_plan 4

dir=$(mktemp -d)
cleanup() {
	[ -e "$T/events/probe/enable" ] && echo 0 > "$T/events/probe/enable"
	perf probe -q -d 'probe:*' 2> /dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
echo > "$T/kprobe_events"
echo > "$T/trace"

# do_sys_openat2(dfd, filename, how): filename is the user's pointer.
out=$(perf probe -a 'do_sys_openat2 path=+0(%si):string dfd=%di:s32' 2>&1)
ok=$?
grep -q '^p:probe/do_sys_openat2 .* path=+0(%si):string dfd=%di:s32$' \
	"$T/kprobe_events" || ok=1
[ $ok -eq 0 ] || echo "$out" | sed 's/^/# /'
rt_result $ok "perf probe -a defines probe:do_sys_openat2 in kprobe_events"

perf probe -l 2>&1 | grep -q 'probe:do_sys_openat2 (on do_sys_openat2 with path dfd)'
rt_result $? "perf probe -l lists it"

# Three opens of a name no one else opens.
name=$dir/perf-probe-$$
: > "$name"
echo 1 > "$T/events/probe/do_sys_openat2/enable"
for i in 1 2 3; do : < "$name"; done
echo 0 > "$T/events/probe/do_sys_openat2/enable"
n=$(grep -c ": do_sys_openat2+0x0/0x[0-9a-f]*: path=\"$name\" dfd=-100\$" "$T/trace")
[ "$n" -eq 3 ]
rt_result $? "the records hold the path each open passed, read from user memory ($n of 3)"

perf probe -q -d 'probe:do_sys_openat2' 2>&1 &&
	[ -z "$(cat "$T/kprobe_events")" ] && [ ! -d "$T/events/probe" ]
rt_result $? "perf probe -d removes the probe and its events"
rt_exit
