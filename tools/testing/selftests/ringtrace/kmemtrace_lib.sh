#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of kmemtrace's shell selftests (after ringtrace_lib.sh).

KMEMTRACE=/sys/kernel/debug/kmemtrace
# The reporter, built and installed with these tests.
KT=$(dirname "$0")/kmemtrace

kt_require() {
	[ "$(id -u)" -eq 0 ] || rt_skip "must be root"
	[ -d $KMEMTRACE ] || rt_skip "no $KMEMTRACE (CONFIG_KMEMTRACE)"
	[ -x "$KT" ] || rt_skip "no kmemtrace reporter at $KT"
}

# kt_load_pattern: load kmemtrace_pattern.ko (samples/kmemtrace), or skip.
kt_load_pattern() {
	PATTERN=/sys/kernel/debug/kmemtrace_pattern
	[ -e $PATTERN/run ] && return 0
	rt_sample_ko kmemtrace_pattern
	insmod "$SAMPLE_KO" || rt_skip "cannot load $SAMPLE_KO"
}

# kt_write FILE VALUE: write VALUE to FILE; prints the error, if any.
kt_write() {
	local err

	err=$( { echo "$2" > "$1"; } 2>&1 ) && return 0
	echo "${err##*: }"
	return 1
}
