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
# Waits for the other side: 100 rounds of 0.1 s on the development
# machines, scaled by RT_SLOWDOWN (scripts/machine-speed; make test
# exports it).
slowdown=${RT_SLOWDOWN:-100}
case $slowdown in '' | 0* | *[!0-9]* | [0-9] | [0-9][0-9]) slowdown=100 ;; esac
rounds=$((100 * slowdown / 100))

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
bad "truncated stream" "cut (read as cpu0): corrupt stream: offset 48: truncated record: event size 48, 41 bytes left" \
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
bad "bad sort key" "-s size: keys are" report -s size "$dir"
# The corrupt files out of the session.
mkdir "$dir/bad" && mv "$dir/cpu5" "$dir/cpu6" "$dir/bad/"

# -L wins over the session's total_overruns, and says so.
out=$("$kt" report -L 7 "$dir" 2>"$dir/err"); rc=$?
why=
[ $rc -eq 0 ] || why="exit $rc"
grep -q '^lost: 0 events (sequence gaps), 7 bytes (total_overruns)$' <<<"$out" || why+=$'\n-L not reported'
grep -qF -- "-L 7, not the session's total_overruns (96)" "$dir/err" || why+=$'\nno note on stderr'
result "-L wins over the session's total_overruns" "$why${why:+$'\n'$out$'\n'$(cat "$dir/err")}"

# Several sessions: refused, whether DIRs or their cpu<n> files.
two=$dir/two
mkdir "$two" && "$tests" --sample "$two"
bad "several DIRs" "a session directory must be the only PATH" report "$dir" "$two"
bad "a DIR among files" "a session directory must be the only PATH" report "$dir/cpu0" "$two"
bad "cpu0 of two sessions" "both are cpu0" report "$dir/cpu0" "$two/cpu0"

# A file not named cpu<n> is a CPU of its own: after cpu1, not cpu1 again.
cp "$dir/cpu0" "$dir/other"
out=$("$kt" report -k "$dir/kallsyms" "$dir/cpu1" "$dir/other" 2>&1); rc=$?
why=
[ $rc -eq 0 ] || why="exit $rc"
grep -q ' from 3 CPUs$' <<<"$out" || why+=$'\nnot 3 CPUs'
grep -qE '^ +1 +1 +100 +128 +21\.9% +1 +0 +0  kmalloc  func_b\+0x20$' <<<"$out" || why+=$'\nthe free is not cross-CPU'
result "a file not named cpu<n> does not take a named CPU's number" "$why${why:+$'\n'$out}"
rm "$dir/other"

# Sessions carry abi_version and endianness.
echo 3 > "$two/abi_version"
bad "abi_version 3" "ABI version 3: this kmemtrace reads versions 1 to 2" report "$two"
echo 2 > "$two/abi_version"
swapped=$dir/swapped
mkdir "$swapped" && "$tests" --sample-other-order "$swapped" && echo 96 > "$swapped/total_overruns"
want=$("$kt" report "$dir" 2>&1)
out=$("$kt" report "$swapped" 2>&1); rc=$?
why=
[ $rc -eq 0 ] && [ "$out" = "$want" ] || why="exit $rc; differs from the same session in this machine's order"
result "a session of the other endianness reports the same" "$why${why:+$'\n'$out}"
echo middle > "$swapped/endianness"
bad "bad endianness" "endianness: not \"little\" or \"big\"" report "$swapped"

# --resync: a corrupt span is skipped and counted.
out=$("$kt" report --resync "$dir/cpu0" "$dir/bad/cpu5" 2>&1); rc=$?
why=
[ $rc -eq 0 ] || why="exit $rc"
grep -q '^resync: 1 corrupt spans skipped, 8 bytes$' <<<"$out" || why+=$'\nno resync line'
result "--resync skips a corrupt stream's bytes" "$why${why:+$'\n'$out}"

out=$("$kt" report --caller --alloc --page -s hit,callsite -l 1 "$dir" 2>&1); rc=$?
why=
[ $rc -eq 0 ] || why="exit $rc"
grep -qE '^0x0000000000001000 +1 +1 +128 +128 +100 +100 +21\.9% +1 +- +kmalloc  func_b\+0x20$' <<<"$out" || why+=$'\nno --alloc row'
grep -qE '^ +1 +0 +4096 +1 +4096 +0 unmovable +GFP_KERNEL$' <<<"$out" || why+=$'\nno --page row'
grep -q '^\.\.\. 1 more call sites (-l 1)$' <<<"$out" || why+=$'\n-l did not limit'
result "--caller, --alloc, --page, -s and -l" "$why${why:+$'\n'$out}"

out=$("$kt" --help); rc=$?
why=
[ $rc -eq 0 ] || why="exit $rc"
for o in --alloc --page --caller --resync --sort --lines; do
	grep -q -- "$o" <<<"$out" || why+=$'\n'"no $o"
done
result "--help names the report options" "$why"

# record passes a SIGTERM on to its command and ends with it (a fake
# kmemtrace directory: recording "on", one cpu<n> file).
rec=$dir/rec
mkdir "$rec" && cp "$dir/cpu0" "$rec/" && echo 1 > "$rec/abi_version" &&
	echo 1 > "$rec/enabled" && echo 0 > "$rec/total_overruns"
"$kt" record -d "$rec" -- sleep 60 > "$dir/record.out" 2>&1 &
pid=$!
# The command runs (a child of record's) before the signal: else record
# itself would die of it, and the test pass without passing anything on.
for ((i = 0; i < rounds; i++)); do
	pgrep -P $pid > /dev/null && break
	sleep 0.1
done
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

# record writes the streams to -o DIR as it reads them: they are there
# while the command runs, and stay when record is killed.
out_dir=$dir/kept
why=
"$kt" record -d "$rec" -o "$out_dir" -- \
	sh -c "i=0; until cmp -s '$rec/cpu0' '$out_dir/cpu0'; do
		[ \$i -lt $rounds ] || exit 1; sleep 0.1; i=\$((i + 1)); done" \
	> "$dir/record.out" 2>&1 ||
	why="cpu0 not written while recording (exit $?)"
for f in abi_version endianness total_overruns kallsyms; do
	[ -f "$out_dir/$f" ] || why+=$'\n'"no $f"
done
[ "$(cat "$out_dir/abi_version" 2>/dev/null)" = 1 ] || why+=$'\nabi_version is not the kernel\'s'
saved=$("$kt" report "$out_dir" 2>&1)
grep -q '^kmemtrace report: 2 events' "$dir/record.out" || why+=$'\nno report'
result "record -o writes as it goes; the saved session is complete" "$why${why:+$'\n'$(cat "$dir/record.out")$'\n'$saved}"

rm -rf "$out_dir"
# (Its command, left behind, ends by itself.)
"$kt" record -d "$rec" -o "$out_dir" -- sleep 30 > "$dir/record.out" 2>&1 &
pid=$!
# Killed once it has read and written cpu0: what it wrote must stay.
for ((i = 0; i < rounds; i++)); do
	cmp -s "$rec/cpu0" "$out_dir/cpu0" 2>/dev/null && break
	sleep 0.1
done
kill -KILL $pid
wait $pid 2>/dev/null
why=
cmp -s "$rec/cpu0" "$out_dir/cpu0" || why="cpu0 lost"
out=$("$kt" report "$out_dir" 2>&1) || why+=$'\nno report of it'
result "record killed: what it read is kept and reports" "$why${why:+$'\n'$out}"

[ $failures -eq 0 ]
