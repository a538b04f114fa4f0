#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the files tools written for ftrace read and write:
#              available_events and set_event against the events/ tree
#              (every spelling of a set_event word, '!', '>' and '>>', a
#              bad word changing nothing and logged), current_tracer and
#              available_tracers with nop as the one tracer, and
#              per_cpu/cpuN/stats with upstream's fields in upstream's
#              order (ringtrace's own after them) and counts that match
#              the markers this test wrote
# requires: kprobe_events

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing
T=$TRACING
[ -e "$T/set_event" ] || rt_skip "no set_event"
[ -e "$T/kprobe_events" ] || rt_skip "no kprobe_events"
command -v taskset > /dev/null || rt_skip "no taskset (util-linux)"
[ -d "$T/per_cpu/cpu0" ] || rt_skip "no CPU 0"

cleanup() {
	echo > "$T/set_event"
	echo > "$T/kprobe_events"
	echo 1 > "$T/tracing_on"
}
echo > "$T/set_event" && echo > "$T/kprobe_events" ||
	rt_skip "cannot clear set_event and kprobe_events"
trap cleanup EXIT
rt_plan 23

cat > "$T/kprobe_events" <<EOF
p:kprobes/sev_a vfs_read
p:kprobes/sev_b vfs_write
p:sevgrp/sev_a vfs_open
EOF

# What the events/ tree says: SYSTEM:EVENT of each event with an enable
# file, or with "enabled" of those enabled.  Builtins only in the loop: a
# fork costs a lot under TCG with KASAN, and this runs a dozen times.
tree_events() {
	local d sys on=1

	for d in "$T"/events/*/*/; do
		[ -e "$d/enable" ] || continue
		[ "${1:-}" = enabled ] && read -r on < "$d/enable"
		[ "$on" = 1 ] || continue
		d=${d%/}
		sys=${d%/*}
		echo "${sys##*/}:${d##*/}"
	done | sort
}
# set_event lists exactly WANT (sorted words) and the tree agrees.
lists() {
	local want got tree

	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort)
	got=$(sort "$T/set_event")
	tree=$(tree_events enabled)
	[ "$got" = "$want" ] && [ "$tree" = "$want" ] && return 0
	echo "# set_event: $(echo $got); tree: $(echo $tree); want: $(echo $want)"
	return 1
}

[ "$(sort "$T/available_events")" = "$(tree_events)" ] &&
	grep -qx kprobes:sev_b "$T/available_events"
rt_result $? "available_events lists SYSTEM:EVENT of every event with an enable file"
! grep -q '^ftrace:print$' "$T/available_events"
rt_result $? "available_events leaves out always-on ftrace:print, as upstream"

echo kprobes:sev_a > "$T/set_event" && lists kprobes:sev_a
rt_result $? "'kprobes:sev_a' enables that one event"
echo kprobes:sev_b >> "$T/set_event" && lists kprobes:sev_a kprobes:sev_b
rt_result $? "'>>' adds kprobes:sev_b"
echo kprobes:sev_b > "$T/set_event" && lists kprobes:sev_b
rt_result $? "'>' disables all first"
echo '!kprobes:sev_b' >> "$T/set_event" && lists
rt_result $? "'!kprobes:sev_b' disables it"
echo sev_a >> "$T/set_event" && lists kprobes:sev_a sevgrp:sev_a
rt_result $? "a lone event name enables it in every system"
echo '!sev_a kprobes' >> "$T/set_event" && lists kprobes:sev_a kprobes:sev_b
rt_result $? "words apply in order: '!sev_a kprobes' leaves the kprobes system on"
echo 'kprobes:* !kprobes:sev_a' > "$T/set_event" && lists kprobes:sev_b
rt_result $? "'kprobes:*' then '!kprobes:sev_a'"
echo '*:sev_a' > "$T/set_event" && lists kprobes:sev_a sevgrp:sev_a
rt_result $? "'*:sev_a' matches the name in any system"
echo '*:*' > "$T/set_event" && lists $(tree_events)
rt_result $? "'*:*' enables every listed event"
echo 'sevgrp:' > "$T/set_event" && lists sevgrp:sev_a
rt_result $? "'sevgrp:' (empty event) names every event of the system"
echo '' >> "$T/set_event" && printf ' \t\n' >> "$T/set_event" && lists sevgrp:sev_a
rt_result $? "an empty and a white-space-only write change nothing"
! (echo '!' >> "$T/set_event") 2> /dev/null && ! (echo 'a:b:c' >> "$T/set_event") 2> /dev/null &&
	lists sevgrp:sev_a
rt_result $? "'!' alone and 'a:b:c' fail, changing nothing"
# A write longer than a page: stdio cuts it into writes of 4 KiB, inside
# words; each cut word is finished by the next write, every word applied.
long=""
for i in $(seq 400); do long="$long kprobes:sev_b !kprobes:sev_b"; done
echo "$long kprobes:sev_b" > "$T/set_event" && lists kprobes:sev_b
rt_result $? "a ${#long}-byte write: all its words, in order"
printf 'sevgrp:sev_a' > "$T/set_event" && lists sevgrp:sev_a
rt_result $? "a last word without white space is applied when the file closes"

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
[ $rc -ne 0 ] && [[ $err == *"Invalid argument"* ]] && lists kprobes:sev_a
rt_result $? "a word naming no event: EINVAL and nothing changes ($err)"
caret=$(tail -1 "$T/error_log" | awk '{ print index($0, "^") }')
word=$(tail -2 "$T/error_log" | head -1 | awk '{ print index($0, "nosuch") }')
grep -q 'set_event: error: no event of that name' "$T/error_log" &&
	[ "$word" -gt 0 ] && [ "$caret" = "$word" ]
rt_result $? "error_log names set_event, the caret under the word (column $caret, want $word)"
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$T/error_log"

[ "$(cat "$T/current_tracer")" = nop ] && [ "$(cat "$T/available_tracers")" = nop ] &&
	echo nop > "$T/current_tracer"
rt_result $? "current_tracer and available_tracers read nop; writing nop works"
echo > "$T/error_log"
! (echo function > "$T/current_tracer") 2> /dev/null &&
	[ "$(cat "$T/current_tracer")" = nop ] && grep -q current_tracer "$T/error_log"
rt_result $? "writing another tracer fails, logged; nop stays"

# stats: upstream's fields in its order, then ringtrace's; the counts
# match what this test wrote on one CPU.
echo > "$T/set_event" && [ -z "$(cat "$T/set_event")" ]
rt_result $? "'echo > set_event' disables every event"
echo 0 > "$T/tracing_on"
echo > "$T/trace"
echo 1 > "$T/tracing_on"
taskset -c 0 sh -c "for i in 1 2 3 4 5; do echo sev-\$i > $T/trace_marker; done"
echo 0 > "$T/tracing_on"
fields=$(sed 's/:.*//' "$T/per_cpu/cpu0/stats" | tr '\n' ',')
want='entries,overrun,commit overrun,bytes,oldest event ts,now ts,dropped events,read events,written,discarded,'
[ "$fields" = "$want" ]
rt_result $? "stats has upstream's fields in upstream's order, then written and discarded ($fields)"
field() { sed -n "s/^$1: //p" "$T/per_cpu/cpu0/stats"; }
[ "$(field entries)" = 5 ] && [ "$(field 'dropped events')" = 0 ] &&
	[ "$(field 'read events')" = 0 ] && [ "$(field 'commit overrun')" = 0 ]
rt_result $? "5 markers on CPU 0: entries 5, 0 dropped, 0 read ($(tr '\n' ' ' < "$T/per_cpu/cpu0/stats"))"
rt_exit
