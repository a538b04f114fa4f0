#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unmodified trace-cmd (Debian's, "trace-cmd report") reads a trace.dat
# written by the format module: the synthetic session of the host tests,
# in the 2008 record layout with an empty header_page.  Every event is
# there, merged across CPUs by time stamp, with its time stamp, task and
# text, and the lost-event markers sit before the pages that had them.
# Then tracedat report prints the same, byte for byte, and the command
# line rejects bad input with exit 2 and a message naming the offset.
# Usage: interop-tests.sh TESTS TRACEDAT
set -u
tests=$1 tracedat=$2
failures=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
name="tracedat host: trace-cmd report reads our file"

if ! command -v trace-cmd > /dev/null; then
	echo "SKIP $name (no trace-cmd; scripts/setup installs it)"
	exit 0
fi
"$tests" --write "$dir/s.dat" || { echo "FAIL $name"; echo "    cannot write the file"; exit 1; }
out=$(trace-cmd report -i "$dir/s.dat" 2>&1); rc=$?
squeezed=$(tr -s ' ' <<<"$out" | sed 's/^ //')
why=
[ $rc -eq 0 ] || why+="exit $rc"$'\n'
n=$(grep -c ': print: 0x0: ' <<<"$squeezed")
[ "$n" -eq 305 ] || why+="$n print events, want 305"$'\n'
for line in "bash-51 [000] 5.422548: print: 0x0: hello 1" \
	    "bash-51 [000] 5.574041: print: 0x0: hello 2" \
	    "bash-51 [000] 5.640723: print: 0x0: hello 3" \
	    "cat-54 [001] 5.422549: print: 0x0: event 0" \
	    "cat-54 [001] 5.422848: print: 0x0: event 299"; do
	grep -qxF "$line" <<<"$squeezed" || why+="no line '$line'"$'\n'
done
grep -B1 -xF "cat-54 [001] 5.422649: print: 0x0: event 100" <<<"$squeezed" |
	grep -qxF "CPU:1 [7 EVENTS DROPPED]" || why+="no '[7 EVENTS DROPPED]' before event 100"$'\n'
grep -B1 -xF "cat-54 [001] 5.422749: print: 0x0: event 200" <<<"$squeezed" |
	grep -qxF "CPU:1 [EVENTS DROPPED]" || why+="no '[EVENTS DROPPED]' before event 200"$'\n'
awk '$4 ~ /^[0-9]+\.[0-9]+:$/ { t = $4 + 0; if (t < last) bad = 1; last = t }
     END { exit bad }' <<<"$squeezed" || why+="time stamps out of order"$'\n'
if [ -z "$why" ]; then
	echo "PASS $name (305 events, 2 lost-event markers)"
else
	echo "FAIL $name"
	printf '%s' "$why" | sed 's/^/    /'
	head -5 <<<"$out" | sed 's/^/    | /'
	failures=$((failures + 1))
fi

# same NAME FILE: tracedat report prints what trace-cmd report prints.
same() {
	local name="tracedat host: $1" ours theirs rc

	theirs=$(trace-cmd report -i "$2" 2>&1 | tail -n +2)
	ours=$("$tracedat" report "$2" 2>&1); rc=$?
	if [ $rc -eq 0 ] && [ "$ours" = "$theirs" ] &&
	   [ "$(grep -c ': print: ' <<<"$ours")" -eq 305 ]; then
		echo "PASS $name (305 events)"
	else
		echo "FAIL $name"
		echo "    exit $rc"
		diff <(echo "$theirs") <(echo "$ours") | head -6 | sed 's/^/    /'
		failures=$((failures + 1))
	fi
}
same "tracedat report prints what trace-cmd report prints" "$dir/s.dat"
"$tests" --write-modern "$dir/modern.dat"
same "current record layout (trace-cmd's files): the same as trace-cmd report" \
	"$dir/modern.dat"

# Version 7, trace-cmd 3's default: files trace-cmd itself wrote (convert
# of the session, stored and zstd; Debian's trace-cmd has no zlib) read as
# trace-cmd reads them, and the files tracedat writes (stored, zstd, in
# chunks of 2 pages) read by trace-cmd as it reads the version 6 one.
for c in none zstd; do
	if trace-cmd convert -i "$dir/modern.dat" -o "$dir/tc7-$c.dat" \
		--file-version 7 --compression $c > /dev/null 2>&1; then
		same "version 7 written by trace-cmd convert, compression $c" \
			"$dir/tc7-$c.dat"
	else
		echo "SKIP tracedat host: version 7 written by trace-cmd convert, compression $c (trace-cmd cannot write it)"
	fi
done
want6=$(trace-cmd report -i "$dir/modern.dat" 2>&1 | tail -n +2)
for c in none zstd; do
	name="tracedat host: trace-cmd report reads our version 7, compression $c"
	"$tests" --write-v7 "$dir/td7-$c.dat" $c
	theirs=$(trace-cmd report -i "$dir/td7-$c.dat" 2>&1 | tail -n +2)
	if [ "$theirs" = "$want6" ] && [ "$(grep -c ': print: ' <<<"$theirs")" -eq 305 ]; then
		echo "PASS $name (305 events, as from version 6)"
	else
		echo "FAIL $name"
		diff <(echo "$want6") <(echo "$theirs") | head -6 | sed 's/^/    /'
		failures=$((failures + 1))
	fi
	same "our version 7, compression $c: the same as trace-cmd report" \
		"$dir/td7-$c.dat"
done

bad() {	# name, expected message, tracedat arguments...
	local name="tracedat host: cli: $1" want=$2 out rc
	shift 2
	out=$("$tracedat" "$@" 2>&1); rc=$?
	if [ $rc -ne 2 ]; then
		echo "FAIL $name"; echo "    exit $rc, want 2: $out"
		failures=$((failures + 1))
	elif ! grep -qF -- "$want" <<<"$out"; then
		echo "FAIL $name"; echo "    message lacks '$want': $out"
		failures=$((failures + 1))
	else
		echo "PASS $name"
	fi
}
head -c 5000 "$dir/s.dat" > "$dir/cut.dat"
bad "truncated file" "CPU 0's data (4096 bytes at 4096) lies past the end (5000)" report "$dir/cut.dat"
printf 'hello' > "$dir/junk.dat"
bad "not a trace.dat" "offset 0: truncated: the magic" report "$dir/junk.dat"
bad "missing file" "No such file or directory" report "$dir/none.dat"
bad "unknown command" "unknown command 'frob'" frob
bad "bad CPU" "--cpu x: not a CPU list" report -c x "$dir/s.dat"
bad "bad CPU range" "--cpu 2-1: not a CPU list" report --cpu 2-1 "$dir/s.dat"
bad "trace-cmd report's -e (endianness) is not taken" "-e -i: not an event or system name" report -e -i "$dir/s.dat"
bad "-e FILE" "-e s.dat: not an event or system name" report -e s.dat
bad "a second -v" "only one -v" report -v -F print -v -F print "$dir/s.dat"
bad "-F of an unknown event" "-F 'nosuch: x == 1': no event found" report -F 'nosuch: x == 1' "$dir/s.dat"
bad "-f without -e" "-f a: no -e before it" record -f a
bad "FILE and -i FILE both" "usage:" report -i "$dir/s.dat" "$dir/s.dat"
bad "--file-version 8" "--file-version 8: 6 or 7" record --file-version 8
bad "--compression lz4" "--compression lz4: none, zlib, zstd or any" record --compression lz4
head -c 600 "$dir/td7-zstd.dat" > "$dir/cut7.dat"
bad "version 7 cut in its metadata" "offset" report "$dir/cut7.dat"

# trace-cmd report's spellings: -i FILE, --cpu N, and trace.dat by default.
spelling() {	# name, tracedat report arguments... (run in $dir)
	local name="tracedat host: cli: $1" out
	shift
	out=$(cd "$dir" && "$tracedat" report "$@" 2>&1)
	if [ "$out" = "$(cd "$dir" && "$tracedat" report -c 0 s.dat 2>&1)" ] &&
	   [ -n "$out" ]; then
		echo "PASS $name"
	else
		echo "FAIL $name"; echo "$out" | head -3 | sed 's/^/    /'
		failures=$((failures + 1))
	fi
}
cp "$dir/s.dat" "$dir/trace.dat"
spelling "report -i FILE --cpu 0, as trace-cmd" -i s.dat --cpu 0
spelling "report with no FILE reads trace.dat" -c 0
name="tracedat host: cli: report -e SYSTEM:EVENT, as trace-cmd, is -e SYSTEM/EVENT"
colon=$("$tracedat" report -e ftrace:print "$dir/s.dat" 2>&1)
slash=$("$tracedat" report -e ftrace/print "$dir/s.dat" 2>&1)
if [ -n "$slash" ] && [ "$colon" = "$slash" ] &&
   [ "$(grep -c " print: " <<<"$slash")" -eq 305 ]; then
	echo "PASS $name"
else
	echo "FAIL $name"; echo "$colon" | head -3 | sed 's/^/    /'
	failures=$((failures + 1))
fi
# trace-cmd report's selections, side by side with trace-cmd's own output
# on the session: CPU lists, -F filters (libtraceevent's language, as
# trace-cmd), -v before -F, and several -e (ours: trace-cmd's -e shows
# the file's endianness) against trace-cmd's -F of the same events.
alike() {	# name, expected line count, tracedat args, --, trace-cmd args
	local name="tracedat host: report: $1" n=$2 ours theirs a=() t=()
	shift 2
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	t=("$@")
	ours=$("$tracedat" report "${a[@]}" "$dir/s.dat" 2>&1)
	theirs=$(trace-cmd report "${t[@]}" -i "$dir/s.dat" 2>&1 | tail -n +2)
	if [ "$ours" = "$theirs" ] && [ "$(wc -l <<<"$ours")" -eq "$n" ]; then
		echo "PASS $name ($n lines, as trace-cmd report)"
	else
		echo "FAIL $name"
		echo "    $(wc -l <<<"$ours") lines, want $n"
		diff <(echo "$theirs") <(echo "$ours") | head -4 | sed 's/^/    /'
		failures=$((failures + 1))
	fi
}
# 305 events: 5 on CPU 0 (pid 51), 300 on CPU 1 (pid 54), 2 drop markers.
alike "--cpu 0,2" 5 --cpu 0,2 -- --cpu 0,2
alike "--cpu 1-2" 302 --cpu 1-2 -- --cpu 1-2
alike "-F 'print: common_pid == 51'" 5 -F 'print: common_pid == 51' -- \
	-F 'print: common_pid == 51'
alike "-v -F 'print: common_pid == 51'" 302 -v -F 'print: common_pid == 51' -- \
	-v -F 'print: common_pid == 51'
alike "-F 'ftrace/print: buf =~ \"event 29\"' (a regex on a string)" 11 \
	-F 'ftrace/print: buf =~ "event 29"' -- -F 'ftrace/print: buf =~ "event 29"'
alike "-F FILTER -F FILTER: a record either matches is shown" 307 \
	-F 'print: common_pid == 51' -F 'print: common_pid == 54' -- \
	-F 'print: common_pid == 51' -F 'print: common_pid == 54'
alike "-F then -v -F: shown unless the second matches" 302 \
	-F print -v -F 'print: common_pid == 51' -- \
	-F print -v -F 'print: common_pid == 51'
alike "-e print -e nosuch (several -e) is trace-cmd's -F print" 307 \
	-e print -e nosuch -- -F print
[ $failures -eq 0 ]
