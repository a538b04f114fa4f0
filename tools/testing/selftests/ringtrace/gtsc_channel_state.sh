#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a GTSC channel's state gates its writers
#              (gtsc_test_provider.ko): nothing is written before 'start',
#              everything after it; 'stop' writes and drops nothing,
#              'start' again writes on
# requires: module:gtsc_test_provider

. "$(dirname "$0")/ringtrace_lib.sh"

# The module stays loaded (the next gtsc test uses it, loading costs time).
D=/sys/kernel/debug
CTL=$D/gtsc_test_provider/ctl
R=$D/gtsc_selftest
rt_plan 4

ctl() { echo "$*" > $CTL; }
# Its channels go, whatever happened (cleanup of none fails quietly).
trap 'ctl cleanup percpu 2>/dev/null; ctl cleanup global 2>/dev/null' EXIT
# seqs [FILE]: the sequence numbers of the records read from FILE (stdin).
seqs() { sed -n 's/^seq=\([0-9]*\)\.*$/\1/p' "$@"; }

ctl setup gtsc_selftest percpu 4096 4 0
ctl write percpu 5 64
[ "$(cat $R/percpu/trace* | wc -l)" -eq 0 ]
rt_result $? "nothing is written before start"
echo start > $R/percpu/state
ctl write percpu 7 64
[ "$(cat $R/percpu/trace* | wc -l)" -eq 7 ] && [ "$(cat $R/percpu/state)" = running ]
rt_result $? "after 'start', 7 records written, 7 read"

ctl setup gtsc_selftest global 1024 2 2
echo start > $R/global/state
echo stop > $R/global/state
n0=$(cat $R/global/dropped)
ctl write global 10 100
[ "$(cat $R/global/state)" = stopped ] && [ "$(cat $R/global/dropped)" = "$n0" ] &&
	[ -z "$(cat $R/global/trace0)" ]
rt_result $? "'stop' gates writes: nothing written, nothing dropped"
echo start > $R/global/state
ctl write global 3 100
[ "$(seqs $R/global/trace0 | wc -l)" -eq 3 ]
rt_result $? "'start' again: 3 more records"
rt_exit
