#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the GTSC documentation's example, kprobes_gtsc.ko: forks
#              leave "[timestamp] pid" records in
#              gtsc_example/kernel_clone/trace0, one per fork, in time
#              order
# requires: module:kprobes_gtsc

. "$(dirname "$0")/ringtrace_lib.sh"

C=/sys/kernel/debug/gtsc_example/kernel_clone
# Its kprobe on kernel_clone goes with it.
trap 'rmmod kprobes_gtsc 2>/dev/null' EXIT
rt_plan 2

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
rt_exit
