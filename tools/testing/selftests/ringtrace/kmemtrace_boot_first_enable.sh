#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: kmemtrace's buffers cost nothing until recording is first
#              enabled: booted without kmemtrace.enable=1 and never enabled
#              since, there are no cpu<n> files, a new buffer_size_kb makes
#              none, and the first enable makes them; booted with it, they
#              exist.  Only such a boot, before anything enabled recording,
#              shows the first (in make kselftest the C test
#              kmemtrace_records has enabled it before); with --first-use
#              (make test's own boot for it), buffers already there fail
#              the test instead of skipping that check
# requires: /sys/kernel/debug/kmemtrace

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"
first_use=0
[ "${1:-}" = --first-use ] && first_use=1

enabled=$(cat $KMEMTRACE/enabled)
size=$(cat $KMEMTRACE/buffer_size_kb)
# restore: the size and enabled found (a new size makes new, empty
# buffers: only if it changed).
restore() {
	[ "$(cat $KMEMTRACE/buffer_size_kb)" = "$size" ] || {
		echo 0 > $KMEMTRACE/enabled
		echo "$size" > $KMEMTRACE/buffer_size_kb
	}
	echo "$enabled" > $KMEMTRACE/enabled
}
trap restore EXIT
rt_plan 3

# not_first_use WHY: the check of the buffers made at the first enable
# cannot run; a failure if it had to.
not_first_use() {
	if [ $first_use -eq 1 ]; then
		rt_result 1 "first use since boot, as --first-use says: $1"
	else
		rt_result 0 "# SKIP buffers made at the first enable ($1)"
	fi
}

cpu0() {
	[ -e $KMEMTRACE/cpu0 ]
}

if grep -qw 'kmemtrace.enable=1' /proc/cmdline; then
	echo "# booted with kmemtrace.enable=1"
	# Earlier tests may have turned recording off since.
	cpu0
	rt_result $? "recording since boot: cpu0 exists"
	not_first_use "booted recording"
elif cpu0; then
	# Recording was on since boot, or a reader drained what it left:
	# nothing here tells when the buffers were made.
	echo "# cpu<n> files exist: recording was enabled since boot"
	rt_result 0 "# SKIP no buffers while never enabled (enabled earlier)"
	not_first_use "enabled earlier"
else
	# The size back before the first enable: buffers of the size found.
	kt_write $KMEMTRACE/buffer_size_kb 128 && ! cpu0 &&
		kt_write $KMEMTRACE/buffer_size_kb "$size" && ! cpu0
	rt_result $? "never enabled: no cpu<n> files, not even after a new buffer_size_kb"
	kt_write $KMEMTRACE/enabled 1 && cpu0 && kt_write $KMEMTRACE/enabled 0
	rt_result $? "the first enable makes the buffers"
fi

restore
[ "$(cat $KMEMTRACE/enabled)" = "$enabled" ]
rt_result $? "enabled restored to $enabled"
rt_exit
