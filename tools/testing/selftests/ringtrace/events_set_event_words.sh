#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: every spelling of a set_event word ('SYS:EV', 'EV', 'SYS',
#              'SYS:', '*', '!', '>' and '>>', words in order, writes of
#              any length and cut anywhere) enables and disables what
#              upstream's does, as set_event and the events/ tree both say
# requires: set_event kprobe_events

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING

cleanup() {
	echo > "$T/set_event"
	echo > "$T/kprobe_events"
}
echo > "$T/set_event" && echo > "$T/kprobe_events" ||
	rt_skip "cannot clear set_event and kprobe_events"
trap cleanup EXIT
rt_plan 15

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
echo > "$T/set_event" && [ -z "$(cat "$T/set_event")" ]
rt_result $? "'echo > set_event' disables every event"
rt_exit
