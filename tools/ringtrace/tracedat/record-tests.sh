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
# that went back do not wrap; what record changed (buffer_size_kb, the
# events' enable and filter files, tracing_on) is put back at the end,
# whether the command ended, ^C or SIGTERM ended the session or the
# recording failed, and left as the session left it with -k.  The
# kernel's side (buffer_percent, tracing_on before the last drain, a
# group's enable and filter reaching its events) is the VM's
# tools_tracedat_record_*.sh.
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
servers=()
trap 'stop_holders; [ ${#servers[@]} -gt 0 ] && kill "${servers[@]}" 2> /dev/null
      rm -rf "$dir"' EXIT

now_ms() { date +%s%3N; }

# stats CPU WRITTEN OVERRUN DROPPED
stats() {
	printf 'entries: 0\noverrun: %s\ncommit overrun: 0\ndropped events: %s\nread events: 0\nwritten: %s\n' \
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
	echo 1408 > "$T/buffer_size_kb"
	echo 0 > "$T/events/enable"
	# A system of two events, one on with a filter: its enable says X.
	mkdir -p "$T/events/sched/sched_switch" "$T/events/sched/sched_wakeup"
	echo X > "$T/events/sched/enable"
	echo none > "$T/events/sched/filter"
	echo 0 > "$T/events/sched/sched_switch/enable"
	echo none > "$T/events/sched/sched_switch/filter"
	echo 1 > "$T/events/sched/sched_wakeup/enable"
	echo 'pid == 1' > "$T/events/sched/sched_wakeup/filter"
	for ((c = 0; c < ncpu; c++)); do
		mkdir -p "$T/per_cpu/cpu$c"
		mkfifo "$T/per_cpu/cpu$c/trace_pipe_raw"
		stats $c 100 5 2
		(exec 3<> "$T/per_cpu/cpu$c/trace_pipe_raw"; exec sleep 600) \
			> /dev/null 2>&1 &
		holders+=($!)
	done
}

# $dir/state TRACING: the values record changes, a "file=value" line
# each.  A filter's "none" reads as "0", what clears it (and what record
# writes back to a plain file where the kernel would show "none").
cat > "$dir/state" <<'EOF'
#!/bin/sh
for f in buffer_size_kb tracing_on events/enable events/sched/enable \
	events/sched/filter events/sched/sched_switch/enable \
	events/sched/sched_switch/filter events/sched/sched_wakeup/enable \
	events/sched/sched_wakeup/filter; do
	printf '%s=%s\n' "$f" "$(cat "$1/$f")"
done | sed 's/=none$/=0/'
EOF
chmod +x "$dir/state"

# same WANT FOUND WHAT: FOUND's values are WANT's.
same() {
	diff -U0 "$1" "$2" > "$dir/diff" 2>&1 && return 0
	why+="$3 (- wanted, + found):"$'\n'
	why+=$(grep '^[-+][^-+]' "$dir/diff" || cat "$dir/diff")
	why+=$'\n'
	return 1
}

# same_state WANT WHAT: the fake directory's values are WANT's.
same_state() {
	"$dir/state" "$T" > "$dir/now"
	same "$1" "$dir/now" "$2"
}

# Waits for the other side: 5 s on the development machines, scaled by
# RT_SLOWDOWN (scripts/machine-speed; make test exports it).
slowdown=${RT_SLOWDOWN:-100}
case $slowdown in '' | 0* | *[!0-9]* | [0-9] | [0-9][0-9]) slowdown=100 ;; esac

# wait_for FILE TEXT: until FILE holds TEXT, up to 5 s (scaled).  A FILE
# a background command writes must be emptied before it starts: its
# redirection happens in the child, which may come after the first look.
wait_for() {
	local i

	for ((i = 0; i < 100 * slowdown / 100; i++)); do
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

# wait_listening PORT: until a TCP socket listens on PORT, up to 5 s
# (scaled).
wait_listening() {
	local i

	for ((i = 0; i < 50 * slowdown / 100; i++)); do
		grep -qi ":$(printf '%04X' "$1") [0-9A-F:]* 0A " /proc/net/tcp \
			/proc/net/tcp6 2> /dev/null && return 0
		sleep 0.1
	done
	return 1
}

# events FILE: print events tracedat report finds in FILE.
events() { "$td" report "$1" 2> /dev/null | grep -c ': print: '; }

# A command: its end seen at once, its pages and losses counted.  The
# latency is from the command's last moment to tracing_on's write of 0.
fake
"$td" record -d "$T" -o "$dir/c.dat" -- sh -c "
	cat '$T/page' > '$T/per_cpu/cpu0/trace_pipe_raw'
	cat '$T/page' > '$T/per_cpu/cpu0/trace_pipe_raw'
	printf 'overrun: 8\ncommit overrun: 0\ndropped events: 2\nwritten: 150\n' > '$T/per_cpu/cpu0/stats'
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

# --file-version 7 --compression zstd: the same events as version 6, and
# trace-cmd (which reads version 7 and zstd) reports the file as tracedat.
fake
echo 'local [global] counter' > "$T/trace_clock"
"$td" record -d "$T" -o "$dir/v7.dat" --file-version 7 --compression zstd \
	-- sh -c "cat '$T/page' > '$T/per_cpu/cpu0/trace_pipe_raw'
		  printf 'entries: 0\noverrun: 9\nwritten: 160\n' > '$T/per_cpu/cpu0/stats'" \
	2> "$dir/err"
rc=$?
want $((rc != 0)) "exit $rc, want 0"
head -c 11 "$dir/v7.dat" | tail -c 1 | grep -qx 7
want $? "the file is not version 7"
grep -qF zstd <(head -c 40 "$dir/v7.dat")
want $? "no zstd in the file header"
n=$(events "$dir/v7.dat")
want $((n != 5)) "report: $n print events, want 5"
if command -v trace-cmd > /dev/null; then
	theirs=$(trace-cmd report -i "$dir/v7.dat" 2>&1 | tail -n +2)
	ours=$("$td" report "$dir/v7.dat" 2>&1)
	[ "$ours" = "$theirs" ]
	want $? "trace-cmd report differs: $(diff <(echo "$theirs") <(echo "$ours") | head -3)"
fi
"$td" record -d "$T" -o "$dir/v6.dat" --compression zstd --file-version 6 \
	-- true 2> "$dir/err2"
want $(($? != 2)) "--compression with --file-version 6 accepted"
grep -qF "needs --file-version 7" "$dir/err2"
want $? "no reason for refusing --compression with version 6"
# --stat: each CPU's stats as the session ended, as trace-cmd keeps them.
"$td" report --stat "$dir/v7.dat" > "$dir/stat"
grep -A6 -x "CPU: 0" "$dir/stat" | grep -qx "overrun: 9"
want $? "report --stat lacks CPU 0's stats at the end ('overrun: 9'): $(head -8 "$dir/stat")"
if command -v trace-cmd > /dev/null; then
	trace-cmd report --stat -i "$dir/v7.dat" 2>&1 | grep -qx "written: 160"
	want $? "trace-cmd report --stat does not show our CPU stats"
	trace-cmd dump --options -i "$dir/v7.dat" 2>&1 | grep -q 'global'
	want $? "no TRACECLOCK option in the file"
fi
result "--file-version 7 --compression zstd: 5 events, trace-cmd report reads it the same, --stat"

# -N: the session sent to trace-cmd's own collector (trace-cmd listen on
# this machine's loopback; nothing leaves it), version 6 and version 7 with
# zstd: the collector's file holds what a local recording of the same
# pages holds, as both tools report it.
if command -v trace-cmd > /dev/null; then
	# Below the ephemeral ports (32768 up), so that no client holds it.
	port=$((20000 + $$ % 12000))
	mkdir -p "$dir/coll"
	trace-cmd listen -p $port -d "$dir/coll" -o col > "$dir/listen.log" 2>&1 &
	lpid=$!
	servers+=($lpid)
	wait_listening $port
	kill -0 $lpid 2> /dev/null
	want $? "trace-cmd listen could not listen on port $port: $(cat "$dir/listen.log")"
	cmd="cat '$T/page' > '$T/per_cpu/cpu0/trace_pipe_raw'"
	for v in "--file-version 6" "--file-version 7 --compression zstd"; do
		fake
		"$td" record -d "$T" -o "$dir/local.dat" $v -- sh -c "$cmd" 2> "$dir/err"
		fake
		rm -f "$dir"/coll/*
		"$td" record -d "$T" -N 127.0.0.1:$port $v -- sh -c "$cmd" 2> "$dir/err"
		rc=$?
		want $rc "$v: exit $rc, want 0"
		grep -qF "sent to 127.0.0.1:$port" "$dir/err"
		want $? "$v: no 'sent to' line"
		file=$(ls "$dir"/coll/col.*.dat 2> /dev/null | head -1)
		theirs=$(trace-cmd report -i "${file:-/none}" 2>&1 | tail -n +2)
		ours=$("$td" report "${file:-/none}" 2>&1)
		local=$("$td" report "$dir/local.dat" 2>&1)
		[ -n "$local" ] && [ "$theirs" = "$local" ] && [ "$ours" = "$local" ]
		want $? "$v: the collector's file ($(basename "${file:-none}")) reads otherwise than the local one: $(diff <(echo "$local") <(echo "$theirs") | head -3)"
		[ "$(grep -c ': print: ' <<<"$local")" -eq 5 ]
		want $? "$v: the local recording lacks the 5 events"
	done
	"$td" record -d "$T" -N 127.0.0.1:$port -o x.dat -- true > /dev/null 2>&1
	want $(($? != 2)) "-N with -o accepted"
	"$dir/state" "$T" > "$dir/before"
	"$td" record -d "$T" -b 64 -N nohostport -- true > "$dir/err" 2>&1
	want $(($? != 2)) "-N without a port: exit $?, want 2"
	grep -qF "nohostport: not HOST:PORT" "$dir/err"
	want $? "-N without a port: $(cat "$dir/err")"
	"$td" record -d "$T" -b 64 -N 127.0.0.1:1 -- touch "$dir/ran" > "$dir/err" 2>&1
	want $(($? != 2)) "-N to no collector: exit $?, want 2"
	[ ! -e "$dir/ran" ] && grep -qF "connecting to 127.0.0.1:1" "$dir/err"
	want $? "-N to no collector: the command ran or no reason: $(cat "$dir/err")"
	same_state "$dir/before" "changed by a session refused for its collector"
	kill $lpid 2> /dev/null
	wait $lpid 2> /dev/null
	# Collectors that misbehave: exit 2 with the reason, the session kept
	# in trace.dat, the state put back.
	for mode in badrinit double; do
		fport=$((port + 1))
		python3 "$(dirname "$0")/fake-collector.py" $fport $mode &
		fpid=$!
		servers+=($fpid)
		wait_listening $fport
		kill -0 $fpid 2> /dev/null
		want $? "the $mode fake collector could not listen on port $fport"
		fake
		"$dir/state" "$T" > "$dir/before"
		rm -f "$dir/trace.dat"
		(cd "$dir" && "$td" record -d "$T" -b 64 -N 127.0.0.1:$fport -- \
			sh -c "$cmd") > "$dir/err" 2>&1
		rc=$?
		want $((rc != 2)) "$mode collector: exit $rc, want 2"
		case $mode in
		badrinit) reason="port 0 is not a number" ;;
		double) reason="stopped taking the header before its end" ;;
		esac
		grep -qF "$reason" "$dir/err" && grep -qF "kept in trace.dat" "$dir/err"
		want $? "$mode collector: no '$reason' or no 'kept in trace.dat': $(tail -2 "$dir/err")"
		n=$("$td" report "$dir/trace.dat" 2> /dev/null | grep -c ': print: ')
		want $((n != 5)) "$mode collector: the kept file has $n events, want 5"
		same_state "$dir/before" "$mode collector: not put back"
		kill $fpid 2> /dev/null
		wait $fpid 2> /dev/null
	done
	result "-N: sent to trace-cmd listen on the loopback, versions 6 and 7 (zstd), the collector's file reads as a local recording; no collector: refused before anything changes; collectors that misbehave: exit 2, the session kept in trace.dat, the state put back"
else
	echo "SKIP tracedat host: record: -N (no trace-cmd)"
fi

# ^C: the readers idle in poll(), the session's numbers from its start.
fake
: > "$dir/err"
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
"$dir/state" "$T" > "$dir/before"
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
same_state "$dir/before" "not put back"
result "SIGTERM passed on to the command ($t ms), the file written, the state put back"

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
echo 1 > "$T/tracing_on"
"$dir/state" "$T" > "$dir/before"
: > "$dir/err"
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
same_state "$dir/before" "not put back after the failure"
result "POLLHUP ends the reader with a message, without spinning; the state put back"

# The state record changes: -b, two -e with -f (one event had a filter
# before and is named as trace-cmd spells it, SYSTEM:EVENT; one is found
# by its name alone), tracing_on (1 before).  The command saves the
# session's values; at its end the old ones are back, or with -k the
# session's, tracing off.
opts=(-b 64 -e sched:sched_switch -f 'prev_pid != 0' -e sched_wakeup
	-f 'pid == 2')
fake
echo 1 > "$T/tracing_on"
"$dir/state" "$T" > "$dir/before"
cat > "$dir/session" <<EOF
buffer_size_kb=64
tracing_on=1
events/enable=0
events/sched/enable=X
events/sched/filter=0
events/sched/sched_switch/enable=1
events/sched/sched_switch/filter=prev_pid != 0
events/sched/sched_wakeup/enable=1
events/sched/sched_wakeup/filter=pid == 2
EOF
sed 's/^tracing_on=1$/tracing_on=0/' "$dir/session" > "$dir/kept"
"$td" record -d "$T" -o "$dir/r.dat" "${opts[@]}" -- \
	sh -c '"$1" "$2" > "$3"' sh "$dir/state" "$T" "$dir/during" 2> "$dir/err"
rc=$?
want $rc "exit $rc, want 0"
same "$dir/session" "$dir/during" "not the session's values while it ran"
same_state "$dir/before" "not put back"
result "-b, -e, -f, tracing_on: the session's values while the command runs, the old ones after"

# -C CLOCK, -P PID (twice) with an -e's -f, and -P without -e (every
# system's filter): the session's clock and filters while the command runs,
# the old ones after.
fake
echo 'local [global] counter' > "$T/trace_clock"
"$dir/state" "$T" > "$dir/before"
"$td" record -d "$T" -o "$dir/p.dat" -C counter -P 42 -P 43 \
	-e sched:sched_switch -f 'prev_pid > 1' -- sh -c "
	cat '$T/trace_clock' > '$dir/clock'
	cat '$T/events/sched/sched_switch/filter' > '$dir/f1'" 2> "$dir/err"
rc=$?
want $rc "exit $rc, want 0"
want $([ "$(cat "$dir/clock")" = counter ]; echo $?) "trace_clock during the session: $(cat "$dir/clock")"
want $([ "$(cat "$dir/f1")" = "(prev_pid > 1) && (common_pid == 42 || common_pid == 43)" ]; echo $?) \
	"sched_switch's filter during the session: $(cat "$dir/f1")"
want $([ "$(cat "$T/trace_clock")" = global ]; echo $?) "trace_clock after: $(cat "$T/trace_clock"), want global back"
same_state "$dir/before" "not put back"
"$td" record -d "$T" -o "$dir/p.dat" -P 7 -- sh -c "
	cat '$T/events/sched/filter' > '$dir/f2'" 2> "$dir/err"
want $([ "$(cat "$dir/f2")" = "common_pid == 7" ]; echo $?) \
	"-P without -e: sched's filter during the session: $(cat "$dir/f2")"
same_state "$dir/before" "not put back after -P without -e"
result "-C, -P (twice, with -f; without -e): the session's clock and pid filters while the command runs, the old ones after"

# -F: the command's own pid in the filter before it runs; a -F without a
# command and a bad -P refused.
fake
"$td" record -d "$T" -o "$dir/f.dat" -F -e sched/sched_switch -- sh -c "
	echo \$\$ > '$dir/pid'
	cat '$T/events/sched/sched_switch/filter' > '$dir/f3'" 2> "$dir/err"
rc=$?
want $rc "exit $rc, want 0"
want $([ "$(cat "$dir/f3")" = "common_pid == $(cat "$dir/pid")" ]; echo $?) \
	"-F: the filter the command saw: '$(cat "$dir/f3")', its pid $(cat "$dir/pid")"
"$td" record -d "$T" -F > /dev/null 2>&1
want $(($? != 2)) "-F without a command accepted"
rm -f "$dir/ran"
"$td" record -d "$T" -o "$dir/f.dat" -F -e nosuch -- touch "$dir/ran" > /dev/null 2>&1
want $(($? == 0)) "-F -e nosuch: exit 0"
[ ! -e "$dir/ran" ]
want $? "-F -e nosuch: the held command ran although the recording failed"
"$td" record -d "$T" -e sched:sched_switch -f 'a) || (b' -- true > "$dir/err" 2>&1
want $(($? != 2)) "-f with unbalanced parentheses accepted"
"$td" record -d "$T" -P 0 -- true > /dev/null 2>&1
want $(($? != 2)) "-P 0 accepted"
result "-F: the filter names the command's pid before it runs, a held command never runs if the recording fails; -F without a command, -P 0 and an -f that escapes its parentheses refused"

fake
echo 1 > "$T/tracing_on"
"$td" record -k -d "$T" -o "$dir/r.dat" "${opts[@]}" -- true 2> "$dir/err"
rc=$?
want $rc "exit $rc, want 0"
same_state "$dir/kept" "not the session's values"
result "-k: the session's values kept, tracing off"

# ^C or SIGTERM ends a session without a command: the same values back.
for sig in INT TERM; do
	fake
	echo 1 > "$T/tracing_on"
	"$dir/state" "$T" > "$dir/before"
	: > "$dir/err"
	"$td" record -d "$T" -o "$dir/r.dat" "${opts[@]}" 2> "$dir/err" &
	pid=$!
	wait_for "$dir/err" "recording, ^C to stop"
	want $? "no 'recording, ^C to stop'"
	"$dir/state" "$T" > "$dir/during"
	kill -$sig $pid
	wait $pid
	rc=$?
	want $rc "exit $rc, want 0"
	same "$dir/session" "$dir/during" "not the session's values while it ran"
	same_state "$dir/before" "not put back"
	result "SIG$sig without a command: the session's values while it runs, the old ones after"
done

# A recording that fails after it changed things (the second -e names
# no event): the -b and the first -e are put back.
fake
"$dir/state" "$T" > "$dir/before"
"$td" record -d "$T" -o "$dir/r.dat" -b 64 -e sched/sched_switch \
	-f 'prev_pid != 0' -e nosuch -- true 2> "$dir/err"
rc=$?
want $((rc != 2)) "exit $rc, want 2"
grep -qF -- "-e nosuch: $T/events/.../nosuch: No such file or directory" \
	"$dir/err"
want $? "no '-e nosuch: ...: No such file or directory'"
same_state "$dir/before" "not put back"
result "a recording that failed after -b and an -e: both put back"

# A group's enable and filter (-e SYSTEM -f, or every event without -e)
# reach each of its events; the command does here what the kernel does.
# Each event's own values come back; sched's enable, X before, is what
# its events say (the kernel's reading, not a plain file's).
for e in "-e sched -f common_pid!=0" ""; do
	fake
	"$dir/state" "$T" | grep -v '^events/sched/enable=' > "$dir/before"
	# shellcheck disable=SC2086
	"$td" record -d "$T" -o "$dir/r.dat" $e -- sh -c '
		for e in sched_switch sched_wakeup; do
			echo 1 > "$1/events/sched/$e/enable"
			[ -z "$2" ] || echo "$2" > "$1/events/sched/$e/filter"
		done' sh "$T" "${e:+common_pid!=0}" 2> "$dir/err"
	rc=$?
	want $rc "${e:-no -e}: exit $rc, want 0"
	"$dir/state" "$T" | grep -v '^events/sched/enable=' > "$dir/now"
	same "$dir/before" "$dir/now" "${e:-no -e}: not put back"
done
result "-e SYSTEM -f and no -e: each event's enable and filter put back"

# What cannot be put back (the event went during the session, as a kprobe
# event removed would) is a warning naming the file; the exit status is
# the command's, and the rest is put back.
fake
"$dir/state" "$T" | grep -v '^events/sched/sched_switch/' > "$dir/before"
"$td" record -d "$T" -o "$dir/r.dat" -b 64 -e sched/sched_switch -- \
	rm -r "$T/events/sched/sched_switch" 2> "$dir/err"
rc=$?
want $rc "exit $rc, want 0"
grep -qF "tracedat: warning: $T/events/sched/sched_switch/enable: putting back \"0\": No such file or directory" \
	"$dir/err"
want $? "no warning naming sched_switch/enable and ENOENT"
mkdir -p "$T/events/sched/sched_switch"
"$dir/state" "$T" 2> /dev/null | grep -v '^events/sched/sched_switch/' > "$dir/now"
same "$dir/before" "$dir/now" "not put back"
result "a value that cannot be put back: a warning, the exit status stays"

stop_holders
[ $failures -eq 0 ]
