#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the files of a GTSC channel (gtsc_test_provider.ko): a
#              per-CPU channel has trace0..trace<n> and its control files,
#              nr_sub and sub_size as set up, state 'setup'; a global
#              channel has trace0 alone
# requires: module:gtsc_test_provider

. "$(dirname "$0")/ringtrace_lib.sh"

# The module stays loaded (the next gtsc test uses it, loading costs time).
D=/sys/kernel/debug
CTL=$D/gtsc_test_provider/ctl
R=$D/gtsc_selftest
rt_plan 3

ctl() { echo "$*" > $CTL; }
# Its channels go, whatever happened (cleanup of none fails quietly).
trap 'ctl cleanup percpu 2>/dev/null; ctl cleanup global 2>/dev/null' EXIT

ctl setup gtsc_selftest percpu 4096 4 0
ok=0
for cpu in $(seq 0 $(($(nproc) - 1))); do [ -f "$R/percpu/trace$cpu" ] || ok=1; done
for f in state dropped rewind nr_sub sub_size; do [ -f $R/percpu/$f ] || ok=1; done
rt_result $ok "a per-CPU channel has trace0..trace$(($(nproc) - 1)) and the control files"
[ "$(cat $R/percpu/nr_sub)" = 4 ] && [ "$(cat $R/percpu/sub_size)" = 4096 ] &&
	[ "$(cat $R/percpu/state)" = setup ]
rt_result $? "nr_sub and sub_size match the setup; state reads 'setup'"

ctl setup gtsc_selftest global 1024 2 2
[ -f $R/global/trace0 ] && [ ! -e $R/global/trace1 ]
rt_result $? "a global channel has trace0 alone"
rt_exit
