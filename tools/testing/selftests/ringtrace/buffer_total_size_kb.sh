#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: buffer_total_size_kb is buffer_size_kb times the CPUs
# requires: buffer_size_kb buffer_total_size_kb per_cpu/cpu0

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
old_kb=$(cat $T/buffer_size_kb)
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	echo "$old_kb" > "$T/buffer_size_kb"
}
trap cleanup EXIT
rt_plan 1

echo 16 > $T/buffer_size_kb
cpus=("$T"/per_cpu/cpu*)
ncpus=${#cpus[@]}
[ "$(cat $T/buffer_total_size_kb)" = $((16 * ncpus)) ]
rt_result $? "buffer_total_size_kb is 16 x $ncpus CPUs"
rt_exit
