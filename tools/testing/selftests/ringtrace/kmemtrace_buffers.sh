#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: kmemtrace's buffers cost nothing until recording is first
#              enabled: booted without kmemtrace.enable=1 and never enabled
#              since, there are no cpu<n> files, a new buffer_size_kb makes
#              none, and the first enable makes them; booted with it, they
#              exist and record.  A size whose buffers do not fit in memory
#              fails with ENOMEM (never the OOM killer) and changes nothing.
#              Run it first after a boot without kmemtrace.enable=1: a
#              recording drained by kmemtrace record leaves empty buffers
# requires: CONFIG_KMEMTRACE

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"
kt_require
rt_plan 4

enabled=$(cat $KMEMTRACE/enabled)
size=$(cat $KMEMTRACE/buffer_size_kb)
cpu0() {
	[ -e $KMEMTRACE/cpu0 ]
}

if grep -qw 'kmemtrace.enable=1' /proc/cmdline; then
	echo "# booted with kmemtrace.enable=1"
	# Earlier tests may have turned recording off since.
	cpu0
	rt_result $? "recording since boot: cpu0 exists"
	rt_result 0 "# SKIP buffers made at the first enable (booted recording)"
elif cpu0; then
	# Buffers that were ever recorded to hold records until read; only a
	# reader that drained them all (kmemtrace record) leaves them empty.
	bytes=$(cat $KMEMTRACE/cpu* | wc -c)
	echo "# cpu<n> files exist, with $bytes bytes of records"
	[ "$bytes" -gt 0 ]
	rt_result $? "no empty buffers made before the first enable"
	rt_result 0 "# SKIP buffers made at the first enable (enabled earlier)"
else
	kt_write $KMEMTRACE/buffer_size_kb 128 && ! cpu0
	rt_result $? "never enabled: no cpu<n> files, not even after a new buffer_size_kb"
	kt_write $KMEMTRACE/enabled 1 && cpu0 && kt_write $KMEMTRACE/enabled 0
	rt_result $? "the first enable makes the buffers"
	echo "$size" > $KMEMTRACE/buffer_size_kb
fi

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
echo "$size" > $KMEMTRACE/buffer_size_kb
echo "$enabled" > $KMEMTRACE/enabled
[ "$(cat $KMEMTRACE/enabled)" = "$enabled" ]
rt_result $? "enabled restored to $enabled"
rt_exit
