#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: options/upstream_kprobes is 0 at first (the spec's names and
#              lines) and takes 0 and 1 only: other values are refused and
#              leave it 0
# requires: options/upstream_kprobes

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
O=$T/options/upstream_kprobes
trap 'echo 0 > $O' EXIT
rt_plan 2

[ "$(cat $O)" = 0 ]
rt_result $? "upstream_kprobes is 0 at first: the spec's names and lines"
refused=1
for bad in 2 x -1 10 yes; do
	if echo "$bad" > $O 2> /dev/null; then
		echo "# \"$bad\" was accepted"
		refused=0
	fi
done
[ $refused -eq 1 ] && [ "$(cat $O)" = 0 ]
rt_result $? "values other than 0/1 are refused with EINVAL, the option stays 0"
rt_exit
