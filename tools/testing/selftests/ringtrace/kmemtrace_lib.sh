#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of kmemtrace's shell selftests (after ringtrace_lib.sh).

# shellcheck disable=SC2034 # for the tests that source this file
KMEMTRACE=/sys/kernel/debug/kmemtrace
# The reporter, built and installed with these tests.
# shellcheck disable=SC2034 # as above
KT=$(dirname "$0")/kmemtrace

# kt_load_pattern: set PATTERN, loading kmemtrace_pattern.ko
# (samples/kmemtrace) unless it is loaded (module:kmemtrace_pattern in the
# header loads it first; a test that unloaded it loads it again), or skip.
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
