#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: options/overwrite reads back the 0 or 1 written and refuses
#              other values with EINVAL, staying as it was
# requires: options/overwrite

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
read -r old_overwrite < $T/options/overwrite
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	echo "$old_overwrite" > "$T/options/overwrite"
}
trap cleanup EXIT
rt_plan 3

echo 0 > $T/options/overwrite
[ "$(cat $T/options/overwrite)" = 0 ]
rt_result $? "options/overwrite reads 0 after writing 0"
rt_write_fails $T/options/overwrite 2 && [ "$(cat $T/options/overwrite)" = 0 ]
rt_result $? "options/overwrite refuses '2' and stays 0"
echo 1 > $T/options/overwrite
[ "$(cat $T/options/overwrite)" = 1 ]
rt_result $? "options/overwrite reads 1 after writing 1"
rt_exit
