#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: what kmemtrace's buffer_size_kb takes: a size rounds up to
#              whole 16 KiB sub-buffers; below 32 is ERANGE, not a number
#              EINVAL, any size while recording EBUSY, a size whose buffers
#              do not fit in memory ENOMEM (never the OOM killer), each
#              leaving the size as it was
# requires: /sys/kernel/debug/kmemtrace

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"

enabled=$(cat $KMEMTRACE/enabled)
size=$(cat $KMEMTRACE/buffer_size_kb)
# restore: the size and enabled found (a new size makes new, empty
# buffers: only if it changed).
restore() {
	echo 0 > $KMEMTRACE/enabled
	[ "$(cat $KMEMTRACE/buffer_size_kb)" = "$size" ] ||
		echo "$size" > $KMEMTRACE/buffer_size_kb
	echo "$enabled" > $KMEMTRACE/enabled
}
trap restore EXIT
rt_plan 5

echo 0 > $KMEMTRACE/enabled
err=$(kt_write $KMEMTRACE/buffer_size_kb 8)
[ "$err" = "Numerical result out of range" ] &&
	[ "$(cat $KMEMTRACE/buffer_size_kb)" = "$size" ]
rt_result $? "buffer_size_kb: 8 (below 32) is ERANGE, size kept ($err)"

err=$(kt_write $KMEMTRACE/buffer_size_kb lots)
[ "$err" = "Invalid argument" ] && [ "$(cat $KMEMTRACE/buffer_size_kb)" = "$size" ]
rt_result $? "buffer_size_kb: 'lots' is EINVAL, size kept ($err)"

kt_write $KMEMTRACE/buffer_size_kb 100 && [ "$(cat $KMEMTRACE/buffer_size_kb)" = 112 ]
rt_result $? "buffer_size_kb: 100 rounds up to whole 16 KiB sub-buffers (112)"

echo 1 > $KMEMTRACE/enabled
err=$(kt_write $KMEMTRACE/buffer_size_kb 64)
got=$(cat $KMEMTRACE/buffer_size_kb)
echo 0 > $KMEMTRACE/enabled
[ "$err" = "Device or resource busy" ] && [ "$got" = 112 ]
rt_result $? "buffer_size_kb: EBUSY while recording, size kept ($err)"
echo "$size" > $KMEMTRACE/buffer_size_kb

# The largest size, on every possible CPU, against half of MemAvailable.
max=262144
cpus=$(($(cut -d- -f2 /sys/devices/system/cpu/possible) + 1))
avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
if [ $((max * cpus * 2)) -le "$avail" ]; then
	rt_result 0 "# SKIP $max KiB per CPU fits in this machine"
else
	echo 0 > $KMEMTRACE/enabled
	err=$(kt_write $KMEMTRACE/buffer_size_kb $max)
	now=$(cat $KMEMTRACE/buffer_size_kb)
	echo "# $max KiB x $cpus CPUs with $avail KiB available: ${err:-accepted}; buffer_size_kb $now"
	[ "$err" = "Cannot allocate memory" ] && [ "$now" = "$size" ] &&
		kt_write $KMEMTRACE/enabled 1 && kt_write $KMEMTRACE/enabled 0
	rt_result $? "too large: ENOMEM, the size unchanged, recording still starts"
fi
trap - EXIT
restore
rt_exit
