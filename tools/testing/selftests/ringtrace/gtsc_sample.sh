#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the GTSC documentation's example, kprobes_gtsc.ko: forks
#              leave "[timestamp] pid" records in
#              gtsc_example/kernel_clone/trace0, in time order, one per
#              fork; its files come and go with the module, 100 times over
# requires: kprobes_gtsc.ko

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing
rt_sample_ko kprobes_gtsc
ko=$SAMPLE_KO

C=/sys/kernel/debug/gtsc_example/kernel_clone
rt_plan 5

insmod "$ko" || rt_skip "cannot load $ko"
[ -f $C/trace0 ] && [ ! -e $C/trace1 ] && [ "$(cat $C/state)" = running ]
rt_result $? "insmod makes gtsc_example/kernel_clone/trace0, running"

cat $C/trace0 > /dev/null
# Brace expansion and a builtin echo: the shell forks exactly 20 times.
pid=$(bash -c 'for i in {1..20}; do /bin/true; done; echo $$')
records=$(cat $C/trace0)
n=$(echo "$records" | awk -v p="$pid" '$2 == p' | wc -l)
[ "$n" -eq 20 ]
rt_result $? "20 forks of pid $pid: 20 records with its pid ($n)"
echo "$records" | awk '{ t = substr($1, 2, length($1) - 2) + 0
	if (NR > 1 && t < last) bad = 1; last = t } END { exit bad }'
rt_result $? "time stamps never go back ($(echo "$records" | wc -l) records)"

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
