#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: fetch-args upstream refuses are refused, defining nothing:
#              arrays of registers, 65 elements, a typed $comm, an
#              oversize bitfield, memory at $comm, ADDR%return; and a
#              return probe on an address inside a function
# requires: kprobe_events module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes
trap 'echo > $T/kprobe_events' EXIT
rt_plan 3

entry=$(rt_ksym ringtrace_kprobe_target)
echo > $T/kprobe_events

# The controls: the function's address is known and a probe on it with a
# plain fetch-arg is accepted, so that each refusal below is the argument's.
[[ $entry == 0x[0-9a-f]* ]] && [ "$entry" != 0x ] &&
	echo "r:okentry $entry" >> $T/kprobe_events &&
	echo 'p:okarg ringtrace_kprobe_target a0:u8' >> $T/kprobe_events &&
	[ -d $K/okentry ] && [ -d $K/okarg ] &&
	echo '-:okentry' >> $T/kprobe_events && echo '-:okarg' >> $T/kprobe_events
rt_result $? "controls: r ADDR on the function's entry and a0:u8 are accepted"

# Refused, as upstream refuses them.
bad=0
for arg in 'a0:u8[2]' '+0(a0):u8[65]' '$comm:u8' '+0(a0):b9@0/8' '+0($comm)'; do
	def="p:bad ringtrace_kprobe_target $arg"
	if (echo "$def" >> $T/kprobe_events) 2> /dev/null; then
		echo "# accepted: $def"
		bad=1
	fi
done
(echo "p:bad $entry%return" >> $T/kprobe_events) 2> /dev/null && bad=1
[ -d $K/bad ] && bad=1
[ $bad -eq 0 ]
rt_result $? "arrays of registers, 65 elements, a typed \$comm, an oversize bitfield"

(echo "r:notentry $(printf '0x%x' $((entry + 1)))" >> $T/kprobe_events) 2> /dev/null
[ $? -ne 0 ] && [ ! -d $K/notentry ]
rt_result $? "a return probe on an address inside a function is refused"
echo > $T/kprobe_events
rt_exit
