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

# rt_load_target: load ringtrace_kprobe_target.ko (samples/ringtrace), or
# skip.  The module is found through RINGTRACE_SAMPLES, else in the kernel
# build directory the selftests were built in.  Sets TARGET_CALL.
rt_load_target() {
	local dir=${RINGTRACE_SAMPLES:-$(dirname "$0")/../../samples/ringtrace}
	local ko=$dir/ringtrace_kprobe_target.ko

	TARGET_CALL=/sys/kernel/debug/ringtrace_kprobe_target/call
	[ -e $TARGET_CALL ] && return 0
	[ -f "$ko" ] || rt_skip "no $ko (CONFIG_SAMPLE_RINGTRACE_KPROBE_TARGET=m)"
	insmod "$ko" || rt_skip "cannot load $ko"
}

# rt_ksym NAME: the address of kernel symbol NAME, as 0x<hex>.
rt_ksym() {
	awk -v name="$1" '$3 == name { print "0x" $1; exit }' /proc/kallsyms |
		sed 's/^0x0*/0x/'
}
