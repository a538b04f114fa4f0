#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: probes defined while options/upstream_kprobes is 1 are
#              upstream's: error_log places, NAME=FETCHARG listing, fields
#              arg1..., "EVENT: (POINT) NAME=VALUE" lines and print fmt,
#              (fault); those defined while it is 0 keep the spec's
# requires: kprobe_events error_log trace options/upstream_kprobes
# requires: module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target

T=$TRACING
O=$T/options/upstream_kprobes
K=$T/events/kprobes
rt_plan 9

trap 'echo 0 > $O; echo 0 2> /dev/null > $K/enable; echo > $T/kprobe_events' EXIT
echo > $T/kprobe_events
echo > $T/trace
mod='\[ringtrace_kprobe_target\]'
point="ringtrace_kprobe_target+0x0/0x[0-9a-f]* $mod"

# Errors in a line written while it is 1: upstream's location name and
# caret (the fetch-arg's start: position 11, 13 + 11 bytes in the caret
# line), and a register is no string.
echo 1 > $O
echo > $T/error_log
! echo 'p vfs_read %none_reg' >> $T/kprobe_events 2> /dev/null &&
	grep -q 'trace_kprobe: error: ' $T/error_log &&
	[ "$(tail -n 1 $T/error_log | wc -c)" -eq 24 ] &&
	! echo 'p vfs_read a0:string' >> $T/kprobe_events 2> /dev/null &&
	echo 0 > $O && echo 'p:regstr vfs_read a0:string' >> $T/kprobe_events
rt_result $? "upstream_kprobes=1: error_log says trace_kprobe, caret at the fetch-arg; a0:string refused (accepted at 0)"
[ $rt_fails -eq 0 ] || sed 's/^/# /' $T/error_log
echo 0 > $O
echo > $T/kprobe_events

# The spec's probe, defined while it is 0.
echo 'p:specp ringtrace_kprobe_target a0 $arg2 x=a0:u8' > $T/kprobe_events
echo 1 > $O
echo 'p:upp ringtrace_kprobe_target a0 $arg2 x=a0:u8' >> $T/kprobe_events
echo 'r:upr ringtrace_kprobe_target $retval' >> $T/kprobe_events
want='p:kprobes/specp ringtrace_kprobe_target+0 a0 $arg2 x=a0:u8
p:kprobes/upp ringtrace_kprobe_target+0 arg1=a0 arg2=$arg2 x=a0:u8
r:kprobes/upr ringtrace_kprobe_target+0 arg1=$retval'
got=$(cat $T/kprobe_events)
[ "$got" = "$want" ]
rt_result $? "kprobe_events lists the upstream probes' fetch-args as NAME=FETCHARG, the spec's as written"
[ $rt_fails -eq 0 ] || printf '# %s\n' "$got"

fields() { sed -n 's/^\tfield:[^;]* \([a-z0-9_]*\);.*/\1/p' $K/$1/format | tr '\n' ' '; }
[ "$(fields upp)" = "common_type common_flags common_preempt_count common_pid common_tgid ip nargs arg1 arg2 x " ] &&
	[ "$(fields specp)" = "common_type common_flags common_preempt_count common_pid common_tgid ip nargs arg0 arg1 x " ] &&
	grep -q 'alias: a0;.*original: arg1;' $K/upp/format
rt_result $? "fields: arg1, arg2 (upstream's, from 1), arg0, arg1 (the spec's); the alias a0 names the first either way"

echo 1 > $K/enable
echo 3 > $TARGET_CALL
echo 0 > $K/enable
n=$(grep -c ": upp: ($point) arg1=0x11 arg2=0x22 x=17$" $T/trace)
[ "$n" -eq 3 ]
rt_result $? "trace: 3 upstream lines 'upp: (POINT) arg1=0x11 arg2=0x22 x=17' ($n)"
[ $rt_fails -eq 0 ] || grep -v '^#' $T/trace | head -n 6 | sed 's/^/# /'
n=$(grep -c ": upr: (rtkt_call_write+0x[0-9a-f]*/0x[0-9a-f]* $mod <- ringtrace_kprobe_target) arg1=0x509f$" $T/trace)
[ "$n" -eq 3 ]
rt_result $? "trace: 3 upstream return lines 'upr: (rtkt_call_write+off/size <- ringtrace_kprobe_target) arg1=0x509f' ($n)"
[ $rt_fails -eq 0 ] || grep -m 2 ': upr: ' $T/trace | sed 's/^/# /'
n=$(grep -c ": $point: 0x11 0x22 x=17$" $T/trace)
[ "$n" -eq 3 ]
rt_result $? "the spec's probe keeps the spec's line '$point: 0x11 0x22 x=17' after the option is set ($n)"

grep -q "^print fmt: \"(ringtrace_kprobe_target+0x0/0x[0-9a-f]* $mod) arg1=0x%lx arg2=0x%lx x=%u\", REC->arg1, REC->arg2, REC->x$" $K/upp/format &&
	grep -q "^print fmt: \"(%pS <- ringtrace_kprobe_target) arg1=0x%lx\", REC->ret_ip, REC->arg1$" $K/upr/format
rt_result $? "print fmt follows the upstream lines (the event's name is the tool's to print)"
[ $rt_fails -eq 0 ] || grep -h '^print fmt' $K/upp/format $K/upr/format | sed 's/^/# /'

# A string whose memory faults (a0 is 0x11, read as a user address):
# upstream's records length 0 and prints (fault); the spec's records the
# text "(fault)".
echo 'p:upf ringtrace_kprobe_target bad=+0(a0):string ok=+0(a3):string' >> $T/kprobe_events
echo 0 > $O
echo 'p:later ringtrace_kprobe_target a0 bad=+0(a0):string' >> $T/kprobe_events
echo > $T/trace
echo 1 > $K/upf/enable
echo 1 > $K/later/enable
echo 1 > $TARGET_CALL
echo 0 > $K/enable
grep -q ": upf: ($point) bad=(fault) ok=\"hello\"$" $T/trace &&
	grep -q ": $point: 0x11 bad=\"(fault)\"$" $T/trace
rt_result $? "a faulting string: (fault) in upstream's lines, \"(fault)\" in the spec's"
[ $rt_fails -eq 0 ] || grep -v '^#' $T/trace | sed 's/^/# /'
grep -q '^p:kprobes/later ringtrace_kprobe_target+0 a0 bad=+0(a0):string$' $T/kprobe_events &&
	grep -q '^p:kprobes/upp ringtrace_kprobe_target+0 arg1=a0 ' $T/kprobe_events &&
	grep -q 'field:unsigned long arg0;' $K/later/format
rt_result $? "back to 0: a new probe is the spec's again, upp stays upstream's"
rt_exit
