#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a full GTSC channel (gtsc_test_provider.ko): without
#              overwrite it keeps the oldest records and counts the rest
#              in dropped, exactly; in flight mode it keeps the newest and
#              drops none
# requires: module:gtsc_test_provider

. "$(dirname "$0")/ringtrace_lib.sh"

# The module stays loaded (the next gtsc test uses it, loading costs time).
D=/sys/kernel/debug
CTL=$D/gtsc_test_provider/ctl
R=$D/gtsc_selftest
rt_plan 2

ctl() { echo "$*" > $CTL; }
# Its channels go, whatever happened (cleanup of none fails quietly).
trap 'ctl cleanup global 2>/dev/null; ctl cleanup flight 2>/dev/null' EXIT
# seqs [FILE]: the sequence numbers of the records read from FILE (stdin).
seqs() { sed -n 's/^seq=\([0-9]*\)\.*$/\1/p' "$@"; }

ctl setup gtsc_selftest global 1024 2 2
echo start > $R/global/state
ctl write global 100 100
got=$(seqs $R/global/trace0 | tr '\n' ' ')
[ "$(cat $R/global/dropped)" = 80 ] && [ "$got" = "$(seq 0 19 | tr '\n' ' ')" ]
rt_result $? "non-overwrite 2x1024: 20 of 100 100-byte records kept, dropped 80"

ctl setup gtsc_selftest flight 1024 2 3
echo start > $R/flight/state
ctl write flight 100 100
got=$(seqs $R/flight/trace0)
last=$(echo "$got" | tail -1)
first=$(echo "$got" | head -1)
[ "$(cat $R/flight/dropped)" = 0 ] && [ "$last" = 99 ] && [ "$first" -ge 80 ] &&
	[ "$(echo "$got" | wc -l)" -eq $((100 - first)) ]
rt_result $? "flight mode keeps the newest records ($first..$last), drops none"
rt_exit
