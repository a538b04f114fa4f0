#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: bad input to GTSC (gtsc_test_provider.ko) is refused and
#              changes nothing: garbage to a channel's state or rewind is
#              EINVAL, and each bad setup fails with its errno and makes no
#              file
# requires: module:gtsc_test_provider

. "$(dirname "$0")/ringtrace_lib.sh"

# The module stays loaded (the next gtsc test uses it, loading costs time).
D=/sys/kernel/debug
CTL=$D/gtsc_test_provider/ctl
R=$D/gtsc_selftest
rt_plan 2

ctl() { echo "$*" > $CTL; }
# Its channels go, whatever happened (cleanup of none fails quietly).
trap 'ctl cleanup global 2>/dev/null' EXIT

ctl setup gtsc_selftest global 1024 2 2
echo start > $R/global/state

ok=0
for bad in garbage 1 "start stop" ""; do
	(echo "$bad" > $R/global/state) 2>/dev/null && ok=1
done
for bad in 0 2 yes; do
	(echo "$bad" > $R/global/rewind) 2>/dev/null && ok=1
done
[ "$(cat $R/global/state)" = running ] || ok=1
rt_result $ok "garbage to state or rewind: EINVAL, state unchanged"

# setup arguments|errno
bad_setups=(
	"gtsc_selftest bad 0 4 0|Invalid argument"
	"gtsc_selftest bad 1000 4 0|Invalid argument"
	"gtsc_selftest bad 4096 1 0|Invalid argument"
	"gtsc_selftest bad 4096 0 0|Invalid argument"
	"gtsc_selftest bad 1048576 1024 0|Argument list too long"
	"gtsc_selftest bad 4096 4 8|Invalid argument"
	"gtsc_selftest global 4096 4 0|File exists"
	"gtsc_selftest/x bad 4096 4 0|Invalid argument"
	"gtsc_other .. 4096 4 0|Invalid argument"
)
ok=0
for entry in "${bad_setups[@]}"; do
	err=$( (echo "setup ${entry%|*}" > $CTL) 2>&1 )
	case $err in *"${entry#*|}"*) ;; *) ok=1; echo "# setup ${entry%|*}: $err" ;; esac
done
[ ! -e $R/bad ] && [ ! -e $D/gtsc_other ] && [ -f $R/global/trace0 ] || ok=1
rt_result $ok "${#bad_setups[@]} bad setups fail with their errno and make nothing"
rt_exit
