#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: buffer_size_kb reads back the size written; 0, a word, a
#              negative or a huge size fail with EINVAL and change nothing
# requires: buffer_size_kb

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
old_kb=$(cat $T/buffer_size_kb)
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	echo "$old_kb" > "$T/buffer_size_kb"
}
trap cleanup EXIT
rt_plan 5

echo 16 > $T/buffer_size_kb
[ "$(cat $T/buffer_size_kb)" = 16 ]
rt_result $? "buffer_size_kb reads 16 after writing 16"
for bad in 0 abc -1 99999999999; do
	rt_write_fails $T/buffer_size_kb $bad && [ "$(cat $T/buffer_size_kb)" = 16 ]
	rt_result $? "buffer_size_kb refuses '$bad' and stays 16"
done
rt_exit
