#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a kprobe event's print fmt prints what trace does: the
#              probe point as text, each type converted as trace converts
#              it, NAME= before named arguments, a return probe's return
#              site; however many and however long its argument names
# requires: kprobe_events trace

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING
E=$T/events

trap 'echo > $T/kprobe_events' EXIT
echo > $T/kprobe_events
rt_plan 3

echo 'p:fmtp vfs_read a0:u32 cnt=a2:s16 name=+0(%si):string x=a1:x8 a3' > $T/kprobe_events
got=$(grep '^print fmt: ' $E/kprobes/fmtp/format)
# The head is the probe point as trace prints it: text, not %lx.
echo > $T/trace
echo 1 > $E/kprobes/fmtp/enable
cat $E/kprobes/fmtp/format > /dev/null
echo 0 > $E/kprobes/fmtp/enable
head=$(grep -v '^#' $T/trace | head -n 1 | sed -n 's/^.*[0-9]: \(vfs_read+0x0\/0x[0-9a-f]*\): .*/\1/p')
want="print fmt: \"$head: %u cnt=%d name=\\\"%s\\\" x=0x%x 0x%lx\", REC->arg0, REC->cnt, __get_str(name), REC->x, REC->arg4"
[ -n "$head" ] && [ "$got" = "$want" ]
rt_result $? "a kprobe event's print fmt: the probe point as trace prints it ($head), each type converted as trace does, NAME= (${got:0:120})"
echo 'r:fmtr vfs_read $retval ret=$retval:s32' > $T/kprobe_events
got=$(grep '^print fmt: ' $E/kprobes/fmtr/format)
want='print fmt: "%pS <- vfs_read: 0x%lx ret=%d", REC->ret_ip, REC->arg0, REC->ret'
[ "$got" = "$want" ]
rt_result $? "a return probe's print fmt: the return site by %pS, the function as text ($got)"
args=
want=
for i in $(seq 40); do
	name=an_argument_name_of_thirty_two_$(printf '%02d' "$i")
	args="$args $name=%di"
	want="$want${want:+, }REC->$name"
done
echo "p:longnames vfs_read$args" > $T/kprobe_events
got=$(grep '^print fmt: ' $E/kprobes/longnames/format)
[ "${got#*\", }" = "$want" ]
rt_result $? "40 arguments with 32-character names: print fmt not cut"
rt_exit
