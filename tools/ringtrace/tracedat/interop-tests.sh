#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unmodified trace-cmd (Debian's, "trace-cmd report") reads a trace.dat
# written by the format module: the synthetic session of the host tests,
# in the 2008 record layout with an empty header_page.  Every event is
# there, merged across CPUs by time stamp, with its time stamp, task and
# text, and the lost-event markers sit before the pages that had them.
# Usage: interop-tests.sh TESTS
set -u
tests=$1
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
	exit 1
fi
