#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the GTSC documentation's example, kprobes_gtsc.ko: its
#              files come with the module (gtsc_example/kernel_clone/trace0,
#              running) and go with it, 30 times over
# requires: module:kprobes_gtsc

. "$(dirname "$0")/ringtrace_lib.sh"

# The header loaded it; the cycles load it again from the same file.
rt_sample_ko kprobes_gtsc
ko=$SAMPLE_KO
C=/sys/kernel/debug/gtsc_example/kernel_clone
trap 'rmmod kprobes_gtsc 2>/dev/null' EXIT
rt_plan 3

[ -f $C/trace0 ] && [ ! -e $C/trace1 ] && [ "$(cat $C/state)" = running ]
rt_result $? "insmod makes gtsc_example/kernel_clone/trace0, running"

rmmod kprobes_gtsc
[ ! -e /sys/kernel/debug/gtsc_example ]
rt_result $? "rmmod removes gtsc_example/"

# 30 cycles take about 25 s in the debug VM; RT_CYCLES=N runs N.
cycles=${RT_CYCLES:-30}
ok=0
for i in $(seq "$cycles"); do
	insmod "$ko" || { ok=1; break; }
	[ -f $C/trace0 ] || ok=1
	rmmod kprobes_gtsc || { ok=1; break; }
	[ ! -e /sys/kernel/debug/gtsc_example ] || ok=1
done
rt_result $ok "$cycles insmod/rmmod cycles: the files appear and disappear"
rt_exit
