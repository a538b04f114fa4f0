#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: kmemtrace's enabled: 1 turns recording on, 0 off, and
#              anything else is EINVAL and changes nothing
# requires: /sys/kernel/debug/kmemtrace

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"

enabled=$(cat $KMEMTRACE/enabled)
trap 'echo "$enabled" > $KMEMTRACE/enabled' EXIT
rt_plan 2

echo 0 > $KMEMTRACE/enabled
kt_write $KMEMTRACE/enabled 1 && [ "$(cat $KMEMTRACE/enabled)" = 1 ] &&
	kt_write $KMEMTRACE/enabled 0 && [ "$(cat $KMEMTRACE/enabled)" = 0 ]
rt_result $? "enabled: 1 turns recording on, 0 off"

err=$(kt_write $KMEMTRACE/enabled maybe)
[ "$err" = "Invalid argument" ] && [ "$(cat $KMEMTRACE/enabled)" = 0 ]
rt_result $? "enabled: 'maybe' is EINVAL, still off ($err)"
rt_exit
