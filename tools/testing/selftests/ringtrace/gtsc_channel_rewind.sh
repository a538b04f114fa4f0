#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a GTSC channel's rewind (gtsc_test_provider.ko, flight
#              mode): records read once are consumed, and after a write of
#              1 to rewind readable again
# requires: module:gtsc_test_provider

. "$(dirname "$0")/ringtrace_lib.sh"

# The module stays loaded (the next gtsc test uses it, loading costs time).
D=/sys/kernel/debug
CTL=$D/gtsc_test_provider/ctl
R=$D/gtsc_selftest
rt_plan 1

ctl() { echo "$*" > $CTL; }
# Its channels go, whatever happened (cleanup of none fails quietly).
trap 'ctl cleanup flight 2>/dev/null' EXIT
# seqs [FILE]: the sequence numbers of the records read from FILE (stdin).
seqs() { sed -n 's/^seq=\([0-9]*\)\.*$/\1/p' "$@"; }

# A full flight-mode channel, read: records 0..99 written and consumed.
ctl setup gtsc_selftest flight 1024 2 3
echo start > $R/flight/state
ctl write flight 100 100
seqs $R/flight/trace0 > /dev/null

ctl write flight 3 100
a=$(seqs $R/flight/trace0 | tr '\n' ' ')
b=$(seqs $R/flight/trace0 | tr '\n' ' ')
echo 1 > $R/flight/rewind
c=$(seqs $R/flight/trace0 | tr '\n' ' ')
[ "$a" = "100 101 102 " ] && [ -z "$b" ] && case $c in *"100 101 102 ") true ;; *) false ;; esac
rt_result $? "rewind makes consumed records readable again ($c)"
rt_exit
