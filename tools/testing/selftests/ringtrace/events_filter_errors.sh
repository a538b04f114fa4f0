#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: each of 41 malformed event filters fails with EINVAL,
#              leaves the old filter in place and puts a caret under the
#              fault in error_log
# requires: events/ftrace/print/filter error_log

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
F=$T/events/ftrace/print/filter
errf=$(mktemp)
trap 'echo 0 > $F; echo > $T/error_log; rm -f "$errf"' EXIT

# expression|position of the fault
bad_filters=(
	"nosuch == 1|0"
	"bfu == 1|0"
	"1 == common_pid|0"
	"&& common_pid == 1|0"
	"common_pid|10"
	"common_pid =|11"
	"common_pid = 1|11"
	"common_pid ==|13"
	"buf ~|5"
	"common_pid &|12"
	"common_pid == abc|14"
	"common_pid == 0x|14"
	"common_pid === 1|13"
	"common_pid >> 1|12"
	"common_pid <> 1|12"
	"common_pid == \"42\"|14"
	"common_flags == 256|16"
	"common_flags == -1|16"
	"common_preempt_count == 1000|24"
	"common_pid == 99999999999|14"
	"ip == -1|6"
	"ip == 0x1ffffffffffffffff|6"
	"buf < x|4"
	"buf & 1|4"
	"common_pid ~ 1|11"
	"buf == \"abc|7"
	"common_pid == 1 &&|18"
	"common_pid == 1 |||18"
	"!|1"
	"()|1"
	"common_pid == 1 ||| ip == 1|18"
	"common_pid == 1 &&& 2|18"
	"(common_pid == 1|16"
	"((((common_pid == 1)))|22"
	"common_pid == 1 || (ip == 2|27"
	"common_pid == 1)|15"
	"common_pid == 1 common_pid == 2|16"
	"buf == bash extra|12"
	"common_pid == 1 & & 2|16"
	"ip == 1 && (buf ~ x|19"
	"$(printf '%.0s(' $(seq 33))common_pid == 1$(printf '%.0s)' $(seq 33))|32"
)

rt_plan ${#bad_filters[@]}

# The filter each refused one must leave in place.
good='common_pid > 0 && !(buf ~ "zz*")'
echo "$good" > $F
echo > $T/error_log
# Builtins only in the loop (a fork costs 0.2 s in the debug VM).
for entry in "${bad_filters[@]}"; do
	expr=${entry%|*}
	pos=${entry##*|}
	err=
	{ echo "$expr" > $F; } 2> "$errf"
	IFS= read -r err < "$errf"
	mapfile -t log < $T/error_log
	cmd= caret=
	if [ ${#log[@]} -ge 2 ]; then
		cmd=${log[-2]}
		caret=${log[-1]}
	fi
	caret=${caret%%^*}
	caret=${#caret}
	cur=
	IFS= read -r cur < $F
	case $err in *"Invalid argument"*) ok=0 ;; *) ok=1 ;; esac
	[ "$cur" = "$good" ] || ok=1
	[ "$cmd" = "  Command: $expr" ] || ok=1
	# The caret sits under the fault: "  Command: " is 11 columns.
	[ "$caret" = $((11 + pos)) ] || ok=1
	[ $ok -eq 0 ] || echo "# '$expr': '$err', caret at $caret, want $((11 + pos))"
	rt_result $ok "rejects '$expr' at $pos"
done
rt_exit
