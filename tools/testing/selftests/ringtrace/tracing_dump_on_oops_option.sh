#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: options/dump_on_oops is root-only, reads back 0, 1 and 2,
#              refuses anything else with EINVAL and an error_log line,
#              its value unchanged.  (The dump itself needs a panic:
#              scripts/tests/dump-on-oops boots a VM for it.)
# requires: options/dump_on_oops error_log

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
F=$T/options/dump_on_oops
trap 'echo > $T/error_log' EXIT
rt_plan 14

old=$(cat "$F")
case $old in 0 | 1 | 2) r=0 ;; *) r=1 ;; esac
rt_result $r "reads back a mode at boot ($old)"

[ "$(stat -c '%a %u' "$F")" = "600 0" ]
rt_result $? "mode 0600, owned by root"

for v in 1 2 0; do
	echo $v > "$F" && [ "$(cat "$F")" = $v ]
	rt_result $? "reads $v after writing $v"
done

echo 2 > "$F"
echo > $T/error_log
# The last one is longer than the file reads (15 bytes).
for bad in 3 -1 abc "1 2" "" 4294967296 "$(printf '%020d' 1)"; do
	rt_write_fails "$F" "$bad" && [ "$(cat "$F")" = 2 ]
	rt_result $? "refuses '$bad' and stays 2"
done

# One error_log line per refusal, naming the file.
n=$(grep -c 'options/dump_on_oops: error: ' $T/error_log)
[ "$n" = 7 ]
rt_result $? "error_log has a line for each refusal ($n of 7)"

echo "$old" > "$F"
[ "$(cat "$F")" = "$old" ]
rt_result $? "put back to $old"
rt_exit
