#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the files of /sys/kernel/debug/kmemtrace: cpu<n> per
#              online CPU, total_overruns and abi_version (0400, as the
#              ABI says: a number, and 2), enabled and buffer_size_kb
#              (0600); nobody but root reads them
# requires: /sys/kernel/debug/kmemtrace

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"

enabled=$(cat $KMEMTRACE/enabled)
trap 'echo "$enabled" > $KMEMTRACE/enabled' EXIT
rt_plan 4

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
