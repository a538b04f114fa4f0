#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kmemtrace command on saved sessions: a report from a directory and
# from files, and the errors of bad input (exit 2, a message naming the
# file and the offset).  Usage: cli-tests.sh KMEMTRACE TESTS
set -u
kt=$1 tests=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0

result() {	# name, then the failure reason (empty: passed)
	if [ -z "$2" ]; then
		echo "PASS kmemtrace host: cli: $1"
	else
		echo "FAIL kmemtrace host: cli: $1"
		echo "$2" | sed 's/^/    /'
		failures=$((failures + 1))
	fi
}

"$tests" --sample "$dir" || { result "sample" "cannot write a sample"; exit 1; }
echo 96 > "$dir/total_overruns"

out=$("$kt" report "$dir" 2>&1); rc=$?
why=
[ $rc -eq 0 ] || why="exit $rc: $out"
grep -q '^lost: 0 events (sequence gaps), 96 bytes (total_overruns)$' <<<"$out" || why+=$'\nno lost line'
grep -qE '^ +1 +1 +100 +128 +21\.9% +1 +0 +0  kmalloc  func_b\+0x20$' <<<"$out" || why+=$'\nno func_b+0x20 row'
grep -qE '^0x0000000000002000 pages +4096 +4096 +0  mod_fn\+0x8 \[mymod\]$' <<<"$out" || why+=$'\nno live page'
result "report of a saved directory" "$why${why:+$'\n'$out}"

out=$("$kt" report -g -k "$dir/kallsyms" "$dir/cpu0" "$dir/cpu1" 2>&1); rc=$?
why=
[ $rc -eq 0 ] || why="exit $rc"
grep -qE '  kmalloc  func_b$' <<<"$out" || why+=$'\nno func_b row'
result "report of cpu<n> files by function" "$why${why:+$'\n'$out}"

bad() {	# name, expected message, kmemtrace arguments...
	local name=$1 want=$2 out rc
	shift 2
	out=$("$kt" "$@" 2>&1); rc=$?
	if [ $rc -ne 2 ]; then
		result "$name" "exit $rc, want 2: $out"
	elif ! grep -qF -- "$want" <<<"$out"; then
		result "$name" "message lacks '$want': $out"
	else
		result "$name" ""
	fi
}

cp "$dir/cpu0" "$dir/cut"
truncate -s -7 "$dir/cut"
bad "truncated stream" "cpu0: corrupt stream: offset 48: truncated record: event size 48, 41 bytes left" \
	report -k "$dir/kallsyms" "$dir/cut"
printf 'garbage!' > "$dir/cpu5"
bad "garbage" "cpu5: corrupt stream: offset 0: truncated record: event size 25202, 8 bytes left" report "$dir/cpu5"
printf '\0\0\x08\0' > "$dir/cpu6"
bad "size below the core" "offset 0: event size 8 is below the 24-byte core" report "$dir/cpu6"
bad "missing file" "/nonexistent/cpu0: No such file or directory" report /nonexistent/cpu0
bad "no files" "usage:" report
bad "unknown command" "unknown command 'frobnicate'" frobnicate
bad "bad option value" "-n lots: not a number" report -n lots "$dir"
bad "empty directory" "no cpu<n> files" report "$(mktemp -d -p "$dir")"
# record passes a SIGTERM on to its command and ends with it (a fake
# kmemtrace directory: recording "on", one cpu<n> file).
rec=$dir/rec
mkdir "$rec" && cp "$dir/cpu0" "$rec/" && echo 1 > "$rec/abi_version" &&
	echo 1 > "$rec/enabled" && echo 0 > "$rec/total_overruns"
"$kt" record -d "$rec" -- sleep 60 > "$dir/record.out" 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
for _ in $(seq 50); do
	kill -0 $pid 2>/dev/null || break
	sleep 0.2
done
why=
if kill -0 $pid 2>/dev/null; then
	why="still running 10 s after SIGTERM (its command was not told)"
	kill -KILL $pid
fi
wait $pid 2>/dev/null
result "record: SIGTERM reaches the command, and record ends" "$why${why:+$'\n'$(cat "$dir/record.out")}"

# Started with SIGCHLD ignored (a parent's SIG_IGN survives exec), record
# still sees its command end.
why=
timeout -k 5 20 bash -c 'trap "" CHLD; exec "$0" record -d "$1" -- true' \
	"$kt" "$rec" > "$dir/record.out" 2>&1
rc=$?
[ $rc -ne 124 ] && [ $rc -ne 137 ] || why="still running 20 s after its command ended"
result "record: its command's end is seen with SIGCHLD ignored" "$why${why:+$'\n'$(cat "$dir/record.out")}"

[ $failures -eq 0 ]
