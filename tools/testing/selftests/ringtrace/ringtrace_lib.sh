#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by ringtrace's shell selftests: TAP output and the path of
# the tracing directory.

TRACING=/sys/kernel/debug/tracing
KSFT_SKIP=4
rt_fails=0
rt_count=0

rt_require_tracing() {
	[ "$(id -u)" -eq 0 ] || rt_skip "must be root"
	[ -d "$TRACING" ] || rt_skip "no $TRACING (is debugfs mounted?)"
}

rt_skip() {
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

rt_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

# rt_result CONDITION-STATUS DESCRIPTION
rt_result() {
	rt_count=$((rt_count + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $rt_count $2"
	else
		echo "not ok $rt_count $2"
		rt_fails=$((rt_fails + 1))
	fi
}

rt_exit() {
	[ $rt_fails -eq 0 ]
	exit $?
}
