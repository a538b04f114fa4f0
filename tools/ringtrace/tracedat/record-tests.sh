#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tracedat record against a fake tracing directory: its
# per_cpu/cpuN/trace_pipe_raw are FIFOs that this script fills with a
# page of the synthetic session (5 print events, the current record
# layout), its stats and tracing_on plain files.  What is checked is
# tracedat's side: a command's end is seen at once and the readers sleep
# in poll() while nothing comes (no sleep loops); ^C ends a session
# without a command, SIGTERM is passed on to one, an inherited SIG_IGN
# for SIGCHLD does not hide it; events per CPU are counted in the pages
# written; losses are counted from the start of the session, and counters
# that went back do not wrap.  The kernel's side (buffer_percent,
# tracing_on before the last drain) is the VM's tracedat_record.sh.
# Usage: record-tests.sh TESTS TRACEDAT
set -u
tests=$1 td=$2
failures=0
dir=$(mktemp -d)
T=$dir/tracing
holders=()
ncpu=$(getconf _NPROCESSORS_CONF)
[ "$ncpu" -gt 2 ] && ncpu=2

stop_holders() {
	[ ${#holders[@]} -gt 0 ] && kill "${holders[@]}" 2> /dev/null
	holders=()
}
trap 'stop_holders; rm -rf "$dir"' EXIT

now_ms() { date +%s%3N; }

# stats CPU WRITTEN OVERRUN DROPPED
stats() {
	printf 'entries: 0\noverrun: %s\ndropped: %s\nread: 0\nwritten: %s\n' \
		"$3" "$4" "$2" > "$T/per_cpu/cpu$1/stats"
}

# page CPU: one page of 5 events into CPU's trace_pipe_raw.
page() { cat "$T/page" > "$T/per_cpu/cpu$1/trace_pipe_raw"; }

# A fresh tracing directory.  Each FIFO is held open for writing by a
# process of its own (none of it inherited by tracedat), so that it says
# POLLHUP only when that process is killed.
fake() {
	local c

	stop_holders
	rm -rf "$T"
	mkdir -p "$T/events/ftrace/print"
	"$tests" --fake-tracing "$T" || return 1
	echo 0 > "$T/tracing_on"
	: > "$T/trace"
	echo 0 > "$T/events/enable"
	for ((c = 0; c < ncpu; c++)); do
		mkdir -p "$T/per_cpu/cpu$c"
		mkfifo "$T/per_cpu/cpu$c/trace_pipe_raw"
		stats $c 100 5 2
		(exec 3<> "$T/per_cpu/cpu$c/trace_pipe_raw"; exec sleep 600) \
			> /dev/null 2>&1 &
		holders+=($!)
	done
}

# wait_for FILE TEXT: until FILE holds TEXT, up to 5 s.
wait_for() {
	local i

	for ((i = 0; i < 100; i++)); do
		grep -qF -- "$2" "$1" 2> /dev/null && return 0
		sleep 0.05
	done
	return 1
}

# Voluntary context switches of each of PID's threads: "tid n" lines.
switches() {
	local t

	for t in /proc/"$1"/task/*; do
		echo "${t##*/} $(awk '/^voluntary_ctxt_switches/ { print $2 }' \
			"$t/status" 2> /dev/null)"
	done
}

why=
want() {	# want CONDITION-EXIT-STATUS REASON
	[ "$1" -eq 0 ] || why+="$2"$'\n'
}

result() {
	local name="tracedat host: record: $1"

	if [ -z "$why" ]; then
		echo "PASS $name"
	else
		echo "FAIL $name"
		printf '%s' "$why" | sed 's/^/    /'
		tr '\r' '\n' < "$dir/err" | sed 's/^/    | /'
		failures=$((failures + 1))
	fi
	why=
}

# events FILE: print events tracedat report finds in FILE.
events() { "$td" report "$1" 2> /dev/null | grep -c ': print: '; }

# A command: its end seen at once, its pages and losses counted.  The
# latency is from the command's last moment to tracing_on's write of 0.
fake
"$td" record -d "$T" -o "$dir/c.dat" -- sh -c "
	cat '$T/page' > '$T/per_cpu/cpu0/trace_pipe_raw'
	cat '$T/page' > '$T/per_cpu/cpu0/trace_pipe_raw'
	printf 'overrun: 8\ndropped: 2\nwritten: 150\n' > '$T/per_cpu/cpu0/stats'
	date +%s.%N > '$dir/exited'
	exit 3" 2> "$dir/err"
rc=$?
t=$(echo "$(stat -c %.9Y "$T/tracing_on") $(cat "$dir/exited")" |
	awk '{ printf "%d", ($1 - $2) * 1000 }')
want $((rc != 3)) "exit $rc, want the command's 3"
want $((t >= 500)) "tracing went off $t ms after the command's end"
grep -qF "CPU 0: 10 events, 8192 bytes, 0 pages after lost events" "$dir/err"
want $? "no 'CPU 0: 10 events, 8192 bytes' in the summary"
grep -qF "lost while recording: 3 events" "$dir/err"
want $? "not 3 lost (overrun 5 to 8) while recording"
tr '\r' '\n' < "$dir/err" | grep -qE '^tracedat: [0-9]+ events/s, 8192 bytes, 3 lost'
want $? "no last progress line with the final bytes and losses"
n=$(events "$dir/c.dat")
want $((n != 10)) "report: $n print events, want 10"
want $(($(cat "$T/tracing_on") != 0)) "tracing_on left at $(cat "$T/tracing_on")"
result "a command's end seen at once (tracing off $t ms later), 10 events counted in CPU 0's pages, 3 lost"

# ^C: the readers idle in poll(), the session's numbers from its start.
fake
"$td" record -d "$T" -o "$dir/i.dat" 2> "$dir/err" &
pid=$!
wait_for "$dir/err" "recording, ^C to stop"
want $? "no 'recording, ^C to stop'"
page 0
sleep 0.3
switches $pid > "$dir/sw0"
sleep 2.2
switches $pid > "$dir/sw1"
stats 0 60 1 0	# counters that went back: nothing, not 2^64 - 6
for ((c = 0; c < ncpu; c++)); do
	page $c
done
t0=$(now_ms)
kill -INT $pid
wait $pid
rc=$? t=$(($(now_ms) - t0))
want $((rc != 0)) "exit $rc, want 0"
want $((t >= 2000)) "took $t ms to end after SIGINT"
readers=$(join "$dir/sw0" "$dir/sw1" | awk -v main=$pid \
	'$1 != main { n += $3 - $2 } END { print n + 0 }')
main=$(join "$dir/sw0" "$dir/sw1" | awk -v main=$pid \
	'$1 == main { print $3 - $2 }')
want $((readers > 4)) "the readers woke $readers times in 2.2 idle seconds"
want $((${main:-99} > 6)) "the main thread woke ${main:-?} times in 2.2 s"
grep -qF "CPU 0: 10 events, 8192 bytes" "$dir/err"
want $? "no 'CPU 0: 10 events, 8192 bytes' in the summary"
if [ "$ncpu" -gt 1 ]; then
	grep -qF "CPU 1: 5 events, 4096 bytes" "$dir/err"
	want $? "no 'CPU 1: 5 events, 4096 bytes' in the summary"
fi
grep -qF "lost while recording: 0 events" "$dir/err"
want $? "lost while recording is not 0"
tr '\r' '\n' < "$dir/err" | grep -qE '[0-9]{12}'
want $((!$?)) "a number of 12 digits or more"
n=$(events "$dir/i.dat")
want $((n != 5 + 5 * ncpu)) "report: $n print events, want $((5 + 5 * ncpu))"
result "^C: readers idle in poll() ($readers wake-ups in 2.2 s), the last pages drained, no wrapped counts"

# SIGTERM while a command runs: passed on to it; the file is written.
fake
"$td" record -d "$T" -o "$dir/t.dat" -- sleep 30 2> "$dir/err" &
pid=$!
wait_for "$T/tracing_on" 1
want $? "tracing_on never went to 1"
page 0
sleep 0.2
t0=$(now_ms)
kill -TERM $pid
wait $pid
rc=$? t=$(($(now_ms) - t0))
want $((rc != 143)) "exit $rc, want 143 (the command's SIGTERM)"
want $((t >= 2000)) "took $t ms to end after SIGTERM"
grep -qF "tracedat: wrote $dir/t.dat" "$dir/err"
want $? "no 'wrote'"
n=$(events "$dir/t.dat")
want $((n != 5)) "report: $n print events, want 5"
result "SIGTERM passed on to the command ($t ms), the file written"

# An inherited SIG_IGN for SIGCHLD would have the command reaped unseen.
fake
t0=$(now_ms)
perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or die' \
	"$td" record -d "$T" -o "$dir/g.dat" -- sh -c 'exit 4' 2> "$dir/err"
rc=$? t=$(($(now_ms) - t0))
want $((rc != 4)) "exit $rc, want the command's 4"
want $((t >= 2000)) "took $t ms"
result "SIGCHLD ignored by the parent: the command's status still seen"

# A trace_pipe_raw that says POLLHUP ends its reader, with a message.
fake
"$td" record -d "$T" -o "$dir/h.dat" 2> "$dir/err" &
pid=$!
wait_for "$dir/err" "recording, ^C to stop"
kill "${holders[0]}"
sleep 0.5
cpu=$(awk '{ print $14 + $15 }' /proc/$pid/stat)
kill -INT $pid
wait $pid
rc=$?
want $((rc != 2)) "exit $rc, want 2"
grep -qF "reading CPU 0: poll() says POLLHUP" "$dir/err"
want $? "no 'reading CPU 0: poll() says POLLHUP'"
want $((cpu > 20)) "$cpu ticks of CPU time: a reader spun"
result "POLLHUP ends the reader with a message, without spinning"

stop_holders
[ $failures -eq 0 ]
