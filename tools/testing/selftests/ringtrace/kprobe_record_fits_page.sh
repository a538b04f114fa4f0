#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: probes whose records just fit a buffer page (4064 bytes of
#              payload with 4 KiB pages), entry and return, are accepted
#              and record; so do 128 strings, and strings cut to share
#              what is left of the page
# requires: kprobe_events trace

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
trap 'echo 0 2> /dev/null > $T/events/kprobes/enable; echo > $T/kprobe_events' EXIT
rt_plan 1

# 32 bytes of fixed fields (40 for return probes), then the arguments'
# slots: 512 bytes for a u64[64] (kprobe_syntax_errors.sh: a byte more
# is E2BIG).
# repeat N WORD: N times " WORD".
repeat() {
	local i out=

	for ((i = 0; i < $1; i++)); do out="$out $2"; done
	echo "$out"
}
# arrays N [M]: N u64[64] of %di's memory, then a u64[M].
arrays() { echo "$(repeat "$1" '+0(%di):u64[64]')${2:+ +0(%di):u64[$2]}"; }
# Strings are __data_loc: 8 bytes each in the fixed part, their text after
# it, cut to share what is left of the page.  128 $comm fit (1056 + 128 *
# the comm's length); a probe whose arrays leave 8 bytes for 3 strings
# records "cat" (4), "ca" (3, a byte kept for the last) and "".  Lines of
# 4064-byte records may be cut at a page: only their starts are read.
comms() { repeat "$1" '$comm'; }

echo > $T/kprobe_events
echo "p:fits vfs_read$(arrays 7 56)" >> $T/kprobe_events &&
	echo "r:rfits vfs_read$(arrays 7 55)" >> $T/kprobe_events &&
	echo "p:comms vfs_read$(comms 128)" >> $T/kprobe_events &&
	echo "p:full vfs_read$(comms 3)$(arrays 7 52)" >> $T/kprobe_events &&
	echo 1 > $T/events/kprobes/enable &&
	echo > $T/trace && cat /proc/version > /dev/null &&
	echo 0 > $T/events/kprobes/enable &&
	grep -q ': vfs_read+0x0/0x[0-9a-f]*: {[0-9,]*} {' $T/trace &&
	grep -q ' <- vfs_read: {[0-9,]*} {' $T/trace &&
	grep -q ': vfs_read+0x0/0x[0-9a-f]*:\( "cat"\)\{128\}$' $T/trace &&
	grep -q ': vfs_read+0x0/0x[0-9a-f]*: "cat" "ca" "" {' $T/trace
rt_result $? "4064-byte records fit exactly and record; 128 strings record, and cut to fit"
echo 0 > $T/events/kprobes/enable 2>/dev/null
echo > $T/kprobe_events
rt_exit
