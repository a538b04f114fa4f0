#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: kprobe_events defines the spec's example probes (do_sys_open
#              is kept out of line by patches/do-sys-open-out-of-line.patch):
#              the event, its canonical listing and format with aliases,
#              ">>" adding a return probe; "-:EVENT" and ">" remove them
# requires: kprobe_events

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes
trap 'echo > $T/kprobe_events' EXIT
rt_plan 5

echo > $T/kprobe_events
echo p:myprobe do_sys_open a0 a1 a2 a3 > /sys/kernel/debug/tracing/kprobe_events
[ -d $K/myprobe ]
rt_result $? "p:myprobe makes events/kprobes/myprobe"
grep -qx 'p:kprobes/myprobe do_sys_open+0 a0 a1 a2 a3' $T/kprobe_events
rt_result $? "kprobe_events lists it in canonical form"
grep -q '	field:unsigned long ip;	offset:16;	size:8;' $K/myprobe/format &&
	grep -q '	field:int nargs;	offset:24;	size:4;' $K/myprobe/format &&
	grep -q '	field:unsigned long arg0;	offset:32;	size:8;' $K/myprobe/format &&
	grep -q '	alias: a0;	original: arg0;' $K/myprobe/format
rt_result $? "format: ip at 16, nargs at 24, arg0 at 32, alias a0 of arg0"

echo r:myretprobe do_sys_open rv ra >> /sys/kernel/debug/tracing/kprobe_events
[ -d $K/myretprobe ] && [ -d $K/myprobe ]
rt_result $? ">> adds a return probe and keeps the first"

echo -:myprobe >> $T/kprobe_events
echo > $T/kprobe_events
[ ! -d $K/myprobe ] && [ ! -d $K/myretprobe ] && [ -z "$(cat $T/kprobe_events)" ]
rt_result $? "-:EVENT and an empty write remove the probes"
rt_exit
