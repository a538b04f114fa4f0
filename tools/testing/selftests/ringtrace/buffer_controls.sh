#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: tracing_on, buffer_size_kb, buffer_total_size_kb, trace_clock
#              and options/overwrite read back what was written; bad values
#              fail with EINVAL and change nothing
# requires: tracing_on buffer_size_kb buffer_total_size_kb trace_clock options/overwrite

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing

T=$TRACING
rt_plan 15

echo 0 > $T/tracing_on
[ "$(cat $T/tracing_on)" = 0 ]
rt_result $? "tracing_on reads 0 after writing 0"
echo 1 > $T/tracing_on
[ "$(cat $T/tracing_on)" = 1 ]
rt_result $? "tracing_on reads 1 after writing 1"
rt_write_fails $T/tracing_on maybe && [ "$(cat $T/tracing_on)" = 1 ]
rt_result $? "tracing_on refuses 'maybe' and stays 1"

old_kb=$(cat $T/buffer_size_kb)
echo 16 > $T/buffer_size_kb
[ "$(cat $T/buffer_size_kb)" = 16 ]
rt_result $? "buffer_size_kb reads 16 after writing 16"
ncpus=$(ls -d $T/per_cpu/cpu* | wc -l)
[ "$(cat $T/buffer_total_size_kb)" = $((16 * ncpus)) ]
rt_result $? "buffer_total_size_kb is 16 x $ncpus CPUs"
for bad in 0 abc -1 99999999999; do
	rt_write_fails $T/buffer_size_kb $bad && [ "$(cat $T/buffer_size_kb)" = 16 ]
	rt_result $? "buffer_size_kb refuses '$bad' and stays 16"
done
echo "$old_kb" > $T/buffer_size_kb

grep -q '^\[local\] global$' $T/trace_clock
rt_result $? "trace_clock lists local (current) and global"
echo global > $T/trace_clock && grep -q '^local \[global\]$' $T/trace_clock
rt_result $? "trace_clock switches to global"
rt_write_fails $T/trace_clock sundial && grep -q '^local \[global\]$' $T/trace_clock
rt_result $? "trace_clock refuses 'sundial' and stays global"
echo local > $T/trace_clock

echo 0 > $T/options/overwrite
[ "$(cat $T/options/overwrite)" = 0 ]
rt_result $? "options/overwrite reads 0 after writing 0"
rt_write_fails $T/options/overwrite 2 && [ "$(cat $T/options/overwrite)" = 0 ]
rt_result $? "options/overwrite refuses '2' and stays 0"
echo 1 > $T/options/overwrite
[ "$(cat $T/options/overwrite)" = 1 ]
rt_result $? "options/overwrite reads 1 after writing 1"
rt_exit
