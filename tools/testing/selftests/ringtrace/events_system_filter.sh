#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: events/<system>/filter sets one expression on every event of
#              the system, all or none: an expression one event cannot
#              compile fails with EINVAL, leaves every filter as it was and
#              names the event in error_log; "0" clears them all; blanks
#              around an expression (or around "0") do not count
# requires: kprobe_events error_log

. "$(dirname "$0")/ringtrace_lib.sh"
T=$TRACING
rt_plan 7

trap 'echo > $T/kprobe_events; echo > $T/error_log' EXIT
echo > $T/kprobe_events
echo 'p:sf_one vfs_read a0 a1' > $T/kprobe_events
echo 'p:sf_two vfs_write x=a0' >> $T/kprobe_events
S=$T/events/kprobes

[ "$(cat $S/filter)" = none ]
rt_result $? "a new system's filter reads none"

echo 'common_pid != 0' > $S/filter &&
	[ "$(cat $S/filter)" = 'common_pid != 0' ] &&
	[ "$(cat $S/sf_one/filter)" = 'common_pid != 0' ] &&
	[ "$(cat $S/sf_two/filter)" = 'common_pid != 0' ]
rt_result $? "an expression on common fields goes to every event"

err=$( { echo 'a1 == 5' > $S/filter; } 2>&1)
[ "${err##*: }" = "Invalid argument" ] &&
	[ "$(cat $S/sf_one/filter)" = 'common_pid != 0' ] &&
	[ "$(cat $S/sf_two/filter)" = 'common_pid != 0' ] &&
	[ "$(cat $S/filter)" = 'common_pid != 0' ]
rt_result $? "a1 (not a field of sf_two) fails with EINVAL and changes nothing (${err##*: })"

grep -q 'system filter (kprobes, event sf_two)' $T/error_log
rt_result $? "error_log names the event that refused it"

echo 0 > $S/filter && [ "$(cat $S/filter)" = none ] &&
	[ "$(cat $S/sf_one/filter)" = none ] && [ "$(cat $S/sf_two/filter)" = none ]
rt_result $? "0 clears every event's filter"

printf '  common_pid != 1 \n' > $S/filter && [ "$(cat $S/filter)" = 'common_pid != 1' ] &&
	printf '\t common_pid != 2\n' > $S/sf_one/filter &&
	[ "$(cat $S/sf_one/filter)" = 'common_pid != 2' ]
rt_result $? "blanks around an expression are not kept (system and event filter)"

echo ' 0 ' > $S/sf_one/filter && [ "$(cat $S/sf_one/filter)" = none ] &&
	echo '  0' > $S/filter && [ "$(cat $S/filter)" = none ] &&
	[ "$(cat $S/sf_two/filter)" = none ]
rt_result $? "' 0 ' clears like 0 (event and system filter)"

rt_exit
