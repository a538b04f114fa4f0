#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: README names every file of the tracing directory
# requires: README

. "$(dirname "$0")/ringtrace_lib.sh"

files=$(find "$TRACING" -mindepth 1 -maxdepth 1 -type f -printf '%f\n' | sort)
rt_plan "$(echo "$files" | wc -l)"
for f in $files; do
	grep -q "^  $f " "$TRACING/README"
	rt_result $? "README lists $f"
done
rt_exit
