#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a set_event write with a word naming no event fails with
#              EINVAL, changes nothing (not even its good words), and
#              error_log names set_event with the caret under that word
# requires: set_event kprobe_events error_log cmd:dd

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING

cleanup() {
	echo > "$T/set_event"
	echo > "$T/kprobe_events"
	echo > "$T/error_log"
}
echo > "$T/set_event" && echo > "$T/kprobe_events" ||
	rt_skip "cannot clear set_event and kprobe_events"
trap cleanup EXIT
rt_plan 2

cat > "$T/kprobe_events" <<EOF
p:kprobes/sev_a vfs_read
p:kprobes/sev_b vfs_write
EOF

# Whether set_event lists exactly kprobes:sev_a and the events/ tree has
# that one event enabled.  Builtins only in the loop (forks cost a lot).
only_sev_a() {
	local f on sys got tree

	got=$(sort "$T/set_event")
	tree=$(for f in "$T"/events/*/*/enable; do
		read -r on 2> /dev/null < "$f" || continue
		[ "$on" = 1 ] || continue
		f=${f%/enable}
		sys=${f%/*}
		echo "${sys##*/}:${f##*/}"
	done | sort)
	[ "$got" = kprobes:sev_a ] && [ "$tree" = kprobes:sev_a ] && return 0
	echo "# set_event: $got; tree: $tree; want: kprobes:sev_a"
	return 1
}

echo kprobes:sev_a > "$T/set_event"
echo > "$T/error_log"
# Two lines in one write (dd: the shell's printf writes line by line):
# the caret under the word of the second.
two=$(mktemp)
printf 'kprobes:sev_b\n\tnosuch:event\n' > "$two"
err=$(dd if="$two" of="$T/set_event" bs="$(stat -c %s "$two")" count=1 \
	oflag=append conv=notrunc status=none 2>&1)
rc=$?
rm -f "$two"
[ $rc -ne 0 ] && [[ $err == *"Invalid argument"* ]] && only_sev_a
rt_result $? "a word naming no event: EINVAL and nothing changes ($err)"
caret=$(tail -1 "$T/error_log" | awk '{ print index($0, "^") }')
word=$(tail -2 "$T/error_log" | head -1 | awk '{ print index($0, "nosuch") }')
grep -q 'set_event: error: no event of that name' "$T/error_log" &&
	[ "$word" -gt 0 ] && [ "$caret" = "$word" ]
rt_result $? "error_log names set_event, the caret under the word (column $caret, want $word)"
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$T/error_log"
rt_exit
