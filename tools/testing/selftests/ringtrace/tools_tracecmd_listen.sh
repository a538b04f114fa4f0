#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd's own collector: trace-cmd listen on the VM's
#              loopback and unmodified trace-cmd record -N 127.0.0.1:PORT
#              of a kprobe session on ringtrace_kprobe_target.ko; the
#              collector's file holds the same events as a local
#              trace-cmd record of the same workload, and tracedat report
#              reads it as trace-cmd report does; then tracedat record -N
#              to the same collector, version 7 with zstd: its file holds
#              what a local tracedat record of the workload holds.  One
#              collector for both clients (trace-cmd runs are slow)
# requires: cmd:trace-cmd tool:tracedat cmd:timeout kprobe_events
# requires: module:ringtrace_kprobe_target /sys/class/net/lo

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracedat
rt_load_target
# The traffic stays on this machine: 127.0.0.1 only.
ifconfig lo 127.0.0.1 up 2> /dev/null || ip link set lo up 2> /dev/null ||
	rt_skip "cannot bring the loopback interface up"
dir=$(mktemp -d)
listener=
trap '[ -n "$listener" ] && kill $listener 2> /dev/null; rm -rf "$dir"
      echo > $TRACING/kprobe_events; echo 1 > $TRACING/tracing_on' EXIT
cd "$dir" || exit 1
mkdir coll

# listening PORT: whether a TCP socket listens on PORT (state 0A).
listening() {
	grep -qi "^ *[0-9]*: [0-9A-F]*:$(printf '%04X' "$1") [0-9A-F:]* 0A " \
		/proc/net/tcp /proc/net/tcp6 2> /dev/null
}

# Below the ephemeral ports (32768 up), so that no client holds it.
port=$((20000 + $$ % 12000))
trace-cmd listen -p $port -d "$dir/coll" -o col > "$dir/listen.log" 2>&1 &
listener=$!
# The waits here: 100 rounds, scaled to the machine's speed.
rounds=$(rt_scaled 100)
for ((i = 0; i < rounds; i++)); do
	listening $port && break
	sleep 0.1
done
kill -0 $listener 2> /dev/null || rt_skip "trace-cmd listen could not listen on port $port"
rt_plan 7
echo 'p:netprobe ringtrace_kprobe_target a0 a1' > $TRACING/kprobe_events

timeout "$(rt_scaled 120)" trace-cmd record -N 127.0.0.1:$port -e kprobes -- \
	sh -c "echo 3 > $TARGET_CALL" > "$dir/out" 2>&1
rc=$?
[ $rc -eq 0 ]
rt_result $? "trace-cmd record -N 127.0.0.1:$port -e kprobes -- COMMAND succeeds (exit $rc)"

# collected: sets file to the collector's file, once trace-cmd report
# shows the 3 calls in $dir/theirs: it writes the file when the client
# closes, and may lag.
collected() {
	local i

	file=
	for ((i = 0; i < rounds; i++)); do
		file=$(ls "$dir"/coll/col.*.dat 2> /dev/null | head -1)
		[ -n "$file" ] && trace-cmd report -i "$file" > "$dir/theirs" 2>&1 &&
			[ "$(grep -c ' netprobe: ' "$dir/theirs")" -ge 3 ] && break
		sleep 0.1
	done
}
collected
n=$(grep -c ' netprobe: .* 0x11 0x22$' "$dir/theirs" 2> /dev/null)
[ "${n:-0}" -eq 3 ]
rt_result $? "the collector's file ($(basename "${file:-none}")) holds the 3 calls with a0 0x11, a1 0x22 (${n:-0})"

# The same workload recorded locally: the same events, in order.
trace-cmd record -e kprobes -o "$dir/local.dat" -- \
	sh -c "echo 3 > $TARGET_CALL" > "$dir/out2" 2>&1
events() { trace-cmd report -i "$1" 2> /dev/null | grep ' netprobe: ' |
	   sed 's/^.* netprobe: *//'; }
events "$dir/local.dat" > "$dir/local"
events "${file:-/none}" > "$dir/collected"
[ -s "$dir/local" ] && diff "$dir/local" "$dir/collected" > "$dir/diff"
rt_result $? "the same events as a local trace-cmd record of the workload"

rt_same_report "${file:-/none}"
rt_result $? "tracedat report reads the collector's file as trace-cmd report does"

# tracedat speaking the same protocol to the same collector.
rm -f "$dir"/coll/*
timeout "$(rt_scaled 120)" "$TD" record -N 127.0.0.1:$port --file-version 7 --compression zstd \
	-e kprobes -- sh -c "echo 3 > $TARGET_CALL" 2> "$dir/out3"
rc=$?
[ $rc -eq 0 ] && grep -qF "sent to 127.0.0.1:$port" "$dir/out3"
rt_result $? "tracedat record -N 127.0.0.1:$port --file-version 7 --compression zstd succeeds (exit $rc)"
collected
"$TD" record -o "$dir/tdlocal.dat" --file-version 7 --compression zstd \
	-e kprobes -- sh -c "echo 3 > $TARGET_CALL" 2> "$dir/out4"
tdevents() { "$TD" report "$1" 2> /dev/null | grep ' netprobe: ' |
	     sed 's/^.* netprobe: *//'; }
tdevents "$dir/tdlocal.dat" > "$dir/local"
tdevents "${file:-/none}" > "$dir/collected"
[ "$(grep -c ' 0x11 0x22$' "$dir/collected")" -eq 3 ] &&
	diff "$dir/local" "$dir/collected" > "$dir/diff"
rt_result $? "the collector's file holds the 3 calls, as a local tracedat record does"
rt_same_report "${file:-/none}"
rt_result $? "trace-cmd report and tracedat report read the collector's file alike"
[ $rt_fails -eq 0 ] || sed 's/^/# /' "$dir/out" "$dir/out3" "$dir/listen.log" "$dir/diff"
rt_exit
