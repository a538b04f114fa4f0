#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a GTSC channel's cleanup (gtsc_test_provider.ko) removes
#              its directory, a reader holding its trace0 open reads on
#              after it, and the root goes with its last channel
# requires: module:gtsc_test_provider

. "$(dirname "$0")/ringtrace_lib.sh"

# The module stays loaded (the next gtsc test uses it, loading costs time).
D=/sys/kernel/debug
CTL=$D/gtsc_test_provider/ctl
R=$D/gtsc_selftest
rt_plan 3

ctl() { echo "$*" > $CTL; }
# Its channels go, whatever happened (cleanup of none fails quietly).
trap 'exec 3<&-; ctl cleanup gone 2>/dev/null; ctl cleanup keep 2>/dev/null' EXIT
# seqs: the sequence numbers of the records read from stdin.
seqs() { sed -n 's/^seq=\([0-9]*\)\.*$/\1/p'; }

# A second channel keeps the root while the first goes.
ctl setup gtsc_selftest keep 4096 2 2

# A reader holding trace0 open reads on after its channel is gone.
ctl setup gtsc_selftest gone 4096 2 2
echo start > $R/gone/state
ctl write gone 4 64
exec 3< $R/gone/trace0
ctl cleanup gone
[ ! -e $R/gone ]
rt_result $? "cleanup removes the channel's directory"
[ "$(seqs <&3 | tr '\n' ' ')" = "0 1 2 3 " ]
rt_result $? "an open reader still reads the records"
exec 3<&-

ctl cleanup keep
[ ! -e $R ]
rt_result $? "the root goes with its last channel"
rt_exit
