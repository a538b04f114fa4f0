#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the files of /sys/kernel/debug/kmemtrace: cpu<n> per
#              online CPU, total_overruns and abi_version (0400, as the
#              ABI says), enabled and buffer_size_kb (0600); bad writes
#              fail with their errno and change nothing; nobody but root
#              reads them
# requires: CONFIG_KMEMTRACE

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"
kt_require
rt_plan 10

[ "$(cat $KMEMTRACE/abi_version)" = 2 ]
rt_result $? "abi_version is 2"

# The cpu<n> files exist once recording was first turned on.
if [ ! -e $KMEMTRACE/cpu0 ]; then
	echo 1 > $KMEMTRACE/enabled
	echo 0 > $KMEMTRACE/enabled
fi
modes=$(cd $KMEMTRACE && stat -c '%n %a' abi_version total_overruns enabled buffer_size_kb cpu[0-9]* | tr '\n' ' ')
want="abi_version 400 total_overruns 400 enabled 600 buffer_size_kb 600 "
for cpu in $(seq 0 $(($(nproc) - 1))); do
	want+="cpu$cpu 400 "
done
[ "$modes" = "$want" ]
rt_result $? "modes and one cpu<n> per CPU ($modes)"

grep -qE '^[0-9]+$' $KMEMTRACE/total_overruns
rt_result $? "total_overruns is a number"

echo 0 > $KMEMTRACE/enabled
kt_write $KMEMTRACE/enabled 1 && [ "$(cat $KMEMTRACE/enabled)" = 1 ] &&
	kt_write $KMEMTRACE/enabled 0 && [ "$(cat $KMEMTRACE/enabled)" = 0 ]
rt_result $? "enabled: 1 turns recording on, 0 off"

err=$(kt_write $KMEMTRACE/enabled maybe)
[ "$err" = "Invalid argument" ] && [ "$(cat $KMEMTRACE/enabled)" = 0 ]
rt_result $? "enabled: 'maybe' is EINVAL, still off ($err)"

size=$(cat $KMEMTRACE/buffer_size_kb)
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

if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	ok=0
	for f in abi_version total_overruns enabled buffer_size_kb cpu0; do
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			cat $KMEMTRACE/$f > /dev/null 2>&1 && ok=1
	done
	rt_result $ok "uid 65534 reads none of them"
else
	rt_result 0 "uid 65534 reads none of them # SKIP setpriv cannot drop to 65534"
fi
rt_exit
