#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tracedat record --last-boot against a fake tracing directory: its
# last_boot/ holds the synthetic session of tests.c (305 print events on
# CPUs 0 and 1, CPU 2 empty, lost events on CPU 1) as plain files, in the
# current record layout or the 2008 one.  Checked: the file reports every
# event with "<...>" for the tasks (no saved cmdlines), in both tools and
# both layouts (the 2008 one said by an empty header page), in version 6
# and 7; kallsyms moved by the text delta, module symbols left out; another
# kernel refused, and with --force written without symbols; pages that
# are not what the stats say, a record of no known event, an unreadable
# trace_pipe_raw, no last_boot/ or no stats refused (exit 2, the reason);
# without last_boot/events/, this boot's formats with a warning; nothing
# in the tracing directory changed.  The real thing, through a reboot, is
# scripts/tests/last-boot-tracedat.
# Usage: lastboot-tests.sh TESTS TRACEDAT
set -u
tests=$1 td=$2
failures=0
dir=$(mktemp -d)
T=$dir/tracing
trap 'rm -rf "$dir"' EXIT

why=
want() {	# want CONDITION-EXIT-STATUS REASON
	[ "$1" -eq 0 ] || why+="$2"$'\n'
}

result() {
	local name="tracedat host: record --last-boot: $1"

	if [ -z "$why" ]; then
		echo "PASS $name"
	else
		echo "FAIL $name"
		printf '%s' "$why" | sed 's/^/    /'
		sed 's/^/    | /' "$dir/err"
		failures=$((failures + 1))
	fi
	why=
}

# fake LAYOUT DELTA|other: a fresh tracing directory with a last_boot/.
fake() {
	rm -rf "$T"
	mkdir -p "$T/events/ftrace/print" "$T/last_boot/events/ftrace/print"
	mkdir -p "$T/last_boot/per_cpu/cpu0" "$T/last_boot/per_cpu/cpu1" \
		"$T/last_boot/per_cpu/cpu2"
	"$tests" --fake-tracing "$T" && "$tests" --fake-last-boot "$T" "$1" "$2" ||
		{ echo "FAIL tracedat host: record --last-boot: the fake directory"; exit 1; }
	echo 1 > "$T/tracing_on"
	echo '[local] global' > "$T/trace_clock"
	rm -f "$T/page"
}

# Every file of the fake directory and its checksum.
sums() { (cd "$T" && find . -type f | sort | xargs md5sum); }

# The synthetic session as the test program writes it, its tasks unknown.
"$tests" --write-modern "$dir/direct.dat" || exit 1
"$td" report "$dir/direct.dat" | sed -E 's/^ *[a-z]+-([0-9])/           <...>-\1/' \
	> "$dir/expected"
n=$(grep -c ': print: ' "$dir/expected")
if [ "$n" -ne 305 ] || ! grep -q '^CPU:1 \[7 EVENTS DROPPED\]$' "$dir/expected"; then
	echo "FAIL tracedat host: record --last-boot: the synthetic session reports $n events"
	exit 1
fi

# same_reports FILE: both tools print the session, the tasks as <...>.
same_reports() {
	"$td" report "$1" > "$dir/ours" 2>&1
	diff "$dir/expected" "$dir/ours" > "$dir/diff"
	want $? "tracedat report: not the 305 events with <...> tasks ($(grep -c '^[<>]' "$dir/diff") lines differ)"
	trace-cmd report -i "$1" 2>&1 | tail -n +2 > "$dir/theirs"
	diff "$dir/ours" "$dir/theirs" > "$dir/diff"
	want $? "trace-cmd report differs from tracedat report ($(grep -c '^[<>]' "$dir/diff") lines)"
}

for layout in modern 2008; do
	fake "$layout" 0x0
	sums > "$dir/before"
	"$td" record --last-boot -d "$T" -o "$dir/lb.dat" 2> "$dir/err"
	rc=$?
	want $rc "exit $rc, want 0"
	same_reports "$dir/lb.dat"
	grep -qx '  CPU 0: 5 events, 4096 bytes (stats: 5 records)' "$dir/err" &&
		grep -qx '  CPU 1: 300 events, 24576 bytes (stats: 300 records)' "$dir/err"
	want $? "no 'CPU 0: 5 events' and 'CPU 1: 300 events' on stderr"
	trace-cmd dump --head-page -i "$dir/lb.dat" > "$dir/head" 2>&1
	if [ $layout = 2008 ]; then
		grep -q '^tracedat: the pages are in the buffer.s 2008 record layout' "$dir/err"
		want $? "no note of the 2008 layout"
		grep -qF '[Header page, 0 bytes]' "$dir/head"
		want $? "the header page is not empty (the 2008 layout)"
	else
		! grep -q '2008' "$dir/err" && ! grep -qF '[Header page, 0 bytes]' "$dir/head"
		want $? "the current layout taken for the 2008 one"
	fi
	trace-cmd dump --cmd-lines -i "$dir/lb.dat" 2>&1 | grep -qF '[Saved command lines, 0 bytes]'
	want $? "saved cmdlines written (this boot's tasks are not the last boot's)"
	trace-cmd dump --clock -i "$dir/lb.dat" 2>&1 | grep -qx '\[local\]'
	want $? "the clock is not [local]"
	sums | diff "$dir/before" - > /dev/null
	want $? "a file of the tracing directory changed"
	result "$layout record layout: 305 events, <...> tasks, both reports alike, nothing written to the tracing directory"
done

fake 2008 0x0
"$td" record --last-boot --file-version 7 --compression zstd -d "$T" \
	-o "$dir/v7.dat" 2> "$dir/err"
rc=$?
want $rc "exit $rc, want 0"
head -c 11 "$dir/v7.dat" | tail -c 1 | grep -qx 7 && grep -qaF zstd <(head -c 40 "$dir/v7.dat")
want $? "not a version 7 zstd file"
same_reports "$dir/v7.dat"
result "--file-version 7 --compression zstd: the same events in both reports"

# kallsyms at the last boot's addresses: this boot's moved by the delta.
fake modern 0x200000
"$td" record --last-boot -d "$T" -o "$dir/k.dat" 2> "$dir/err"
rc=$?
want $rc "exit $rc, want 0"
python3 - /proc/kallsyms 0x200000 > "$dir/ksyms" <<'PY'
import sys
delta = int(sys.argv[2], 16)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) > 3:
        continue                # a module's: left out
    a = int(f[0], 16)
    if a and f[1] not in ('A', 'a'):
        a = (a + delta) % (1 << 64)
    print('%0*x' % (len(f[0]), a), *f[1:])
PY
trace-cmd dump --kallsyms -i "$dir/k.dat" 2> /dev/null | tail -n +2 | sed '/^$/d' |
	tr '\t' ' ' | diff "$dir/ksyms" - > "$dir/diff"
want $? "kallsyms not this boot's moved by 0x200000 ($(grep -c '^[<>]' "$dir/diff") lines differ)"
if ! grep -qv '^0* ' /proc/kallsyms; then
	# Not root (kptr_restrict): every address is 0 and stays so.
	echo "SKIP tracedat host: record --last-boot: text delta: /proc/kallsyms shows no addresses (not root)"
	why=
else
	result "text delta 0x200000: kallsyms moved by it, module symbols left out ($(wc -l < "$dir/ksyms") symbols)"
fi

fake modern other
"$td" record --last-boot -d "$T" -o "$dir/o.dat" 2> "$dir/err"
rc=$?
want $((rc != 2)) "exit $rc, want 2"
grep -q "^tracedat: the last boot ran 6.1.0 #1 fake, another kernel (.*same kernel: no): .*--force" "$dir/err"
want $? "no message naming the other kernel and --force"
want $([ ! -e "$dir/o.dat" ]; echo $?) "a file written"
"$td" record --last-boot --force -d "$T" -o "$dir/o.dat" 2> "$dir/err"
rc=$?
want $rc "--force: exit $rc, want 0"
trace-cmd dump --kallsyms -i "$dir/o.dat" 2>&1 | grep -qF '[Kallsyms, 0 bytes]'
want $? "--force: symbols of this kernel written"
"$td" report "$dir/o.dat" 2>&1 | grep -c ': print: ' | grep -qx 305
want $? "--force: not the 305 events"
result "another kernel refused (exit 2); --force writes it without symbols"

# refused CASE-NAME WANT-TEXT [OPTION...]: exit 2, the reason, no file.
refused() {
	local name=$1 text=$2
	shift 2
	rm -f "$dir/r.dat"
	"$td" record --last-boot -d "$T" -o "$dir/r.dat" "$@" 2> "$dir/err"
	rc=$?
	want $((rc != 2)) "exit $rc, want 2"
	grep -qF -- "$text" "$dir/err"
	want $? "no '$text' on stderr"
	want $([ ! -e "$dir/r.dat" ]; echo $?) "a file written"
	result "refused: $name"
}

fake modern 0x0
sed -i 's/^cpu1: 6 pages/cpu1: 7 pages/' "$T/last_boot/stats"
refused "pages that are not what the stats say" \
	"CPU 1: 6 pages in $T/last_boot/per_cpu/cpu1/trace_pipe_raw, 7 in $T/last_boot/stats"

fake modern 0x0
# CPU 0's first record (a header word and a length word after the page's
# 16 bytes): its event id (5, print) made 77.
printf '\x4d' | dd of="$T/last_boot/per_cpu/cpu0/trace_pipe_raw" bs=1 \
	seek=24 conv=notrunc status=none
refused "a record of an event no format has" \
	"not writing the last boot's pages: CPU 0: event 1: an event id no format has (77)"

fake modern 0x0
rm "$T/last_boot/per_cpu/cpu1/trace_pipe_raw"
mkdir "$T/last_boot/per_cpu/cpu1/trace_pipe_raw"
refused "an unreadable trace_pipe_raw" \
	"tracedat: CPU 1: reading $T/last_boot/per_cpu/cpu1/trace_pipe_raw: Is a directory"

fake modern 0x0
rm -r "$T/last_boot"
refused "no last_boot/" \
	"tracedat: no last boot's trace: no $T/last_boot (boot with ringtrace.persist=SIZE@ADDR"

fake modern 0x0
rm "$T/last_boot/stats"
refused "no last_boot/stats" "tracedat: $T/last_boot/stats: No such file or directory"

fake modern 0x0
sed -i '/^cpus: /d' "$T/last_boot/stats"
refused "stats without cpus" "$T/last_boot/stats: no \"cpus: N\" line"

fake modern 0x0
rm -r "$T/last_boot/events"
"$td" record --last-boot -d "$T" -o "$dir/w.dat" 2> "$dir/err"
rc=$?
want $rc "exit $rc, want 0"
grep -qF "tracedat: warning: no $T/last_boot/events: this boot's formats are used" "$dir/err"
want $? "no warning"
same_reports "$dir/w.dat"
result "no last_boot/events/: this boot's formats, with a warning"

# The options of a session are refused with --last-boot, --force without it.
for args in "-e ftrace" "-b 64" "-k" "-C global" "-P 1" "-N localhost:1" "-- true"; do
	# shellcheck disable=SC2086
	"$td" record --last-boot -d "$T" -o "$dir/r.dat" $args 2> "$dir/err"
	rc=$?
	want $((rc != 2)) "$args: exit $rc, want 2"
	grep -q "^tracedat: --last-boot reads last_boot/: no ${args%% *} with it$\|no COMMAND with it$" "$dir/err"
	want $? "$args: no reason given"
done
"$td" record --force -d "$T" -o "$dir/r.dat" -- true 2> "$dir/err"
rc=$?
want $((rc != 2)) "--force alone: exit $rc, want 2"
grep -qx "tracedat: --force goes with --last-boot" "$dir/err"
want $? "--force alone: no reason given"
: > "$dir/err"
result "a session's options with --last-boot, and --force without it: exit 2, the reason"

exit $((failures != 0))
