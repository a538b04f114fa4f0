#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by ringtrace's shell selftests: TAP output, the path of
# the tracing directory, and the "# requires:" header each test opens with,
# which sourcing this file enforces (rt_requires, at the end).
#
# A test's header, its opening comment lines (a line that is not a
# comment, even an empty one, ends it):
#
#	# description: the one behaviour the test checks
#	# requires: WORD...		(any number of these lines)
#
# Each WORD is one of:
#
#	FILE		a file or directory of the tracing directory
#			(kprobe_events, events/ftrace/print/filter) whose
#			first component is one of rt_tracing_names
#	/PATH		an absolute path (/sys/kernel/debug/kmemtrace,
#			/proc/self/fail-nth)
#	cmd:NAME	a command on PATH (trace-cmd, taskset, timeout)
#	tool:NAME	an executable built beside the tests (tracedat)
#	module:NAME	sample module NAME.ko (rt_sample_ko), loaded unless
#			/sys/module/NAME exists already
#	cpu-hotplug	a last online CPU other than 0 that can go offline
#
# Every test requires root.  A requirement not met skips the test, naming
# it; a word of no such form fails it, so that a typo does not pass as a
# skip, and so does a comment line that looks like a misspelt "# requires:"
# (one line a header line: continuation lines are not read).  Modules load
# after every other word is met, so that a skip leaves none loaded.

# RT_TRACING: another directory, for the host test of this file
# (scripts/tests/ksft-lib-requires).
TRACING=${RT_TRACING:-/sys/kernel/debug/tracing}
KSFT_SKIP=4
rt_fails=0
rt_count=0

rt_skip() {
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

rt_planned=0
rt_plan() {
	echo "TAP version 13"
	echo "1..$1"
	rt_planned=1
}

# rt_result CONDITION-STATUS DESCRIPTION
rt_result() {
	rt_count=$((rt_count + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $rt_count $2"
	else
		echo "not ok $rt_count $2"
		rt_fails=$((rt_fails + 1))
	fi
}

# rt_write_fails FILE VALUE: whether writing VALUE (and a newline) to FILE
# fails with "Invalid argument"; says what happened if not.
rt_write_fails() {
	local err
	err=$( (echo "$2" > "$1") 2>&1 )
	case $err in *"Invalid argument"*) return 0 ;; esac
	echo "# writing '$2' to $1 gave: ${err:-success}"
	return 1
}

rt_exit() {
	[ $rt_fails -eq 0 ]
	exit $?
}

# rt_scaled SECONDS: SECONDS scaled to this machine's speed, for hang
# limits and timeouts: RT_SLOWDOWN is how much slower than the development
# machine it is, in percent (scripts/test measures it once and passes it
# into the VMs; 100 when a test is run by hand).  A slow machine must
# make a test wait longer, not fail it.
rt_scaled() {
	local pct=${RT_SLOWDOWN:-100}

	case $pct in '' | 0* | *[!0-9]* | [0-9] | [0-9][0-9]) pct=100 ;; esac
	echo $(($1 * pct / 100))
}

# rt_require_tracedat: tracedat (built with the selftests) and trace-cmd,
# or skip (tool:tracedat cmd:trace-cmd in the header say so first).  Sets
# TD, tracedat's absolute path (tests cd elsewhere).
rt_require_tracedat() {
	TD=$(cd "$(dirname "$0")" && pwd)/tracedat
	[ -x "$TD" ] || rt_skip "no tracedat at $TD"
	command -v trace-cmd > /dev/null || rt_skip "no trace-cmd"
}

# rt_same_report FILE: whether tracedat report ($TD) prints FILE as
# trace-cmd report does (less its "cpus=" line); the texts and their
# diff are left in $dir/ours, $dir/theirs and $dir/diff.
rt_same_report() {
	"$TD" report "$1" > "$dir/ours" 2>&1 &&
		trace-cmd report -i "$1" 2>&1 | tail -n +2 > "$dir/theirs" &&
		diff "$dir/theirs" "$dir/ours" > "$dir/diff"
}

# rt_stat_lines: the "CPU: N" and "field: number" lines of a report --stat.
rt_stat_lines() {
	grep -E '^(CPU: [0-9]+|[a-z ]+: [0-9.]+)$'
}

# rt_load_target: set TARGET_CALL, loading ringtrace_kprobe_target.ko
# (samples/ringtrace) unless it is loaded (module:ringtrace_kprobe_target in
# the header loads it first; a test that unloaded it loads it again), or
# skip; after rt_plan (a reload) a failure is no skip but says so and
# returns 1: the checks that need the module then fail.
rt_load_target() {
	TARGET_CALL=/sys/kernel/debug/ringtrace_kprobe_target/call
	[ -e $TARGET_CALL ] && return 0
	if [ $rt_planned -eq 1 ]; then
		rt_find_ko ringtrace_kprobe_target && insmod "$SAMPLE_KO" && return 0
		echo "# cannot load ringtrace_kprobe_target.ko again"
		return 1
	fi
	rt_require_module ringtrace_kprobe_target
}

# rt_find_ko NAME: set SAMPLE_KO to the path of sample module NAME,
# looked for in the directories of RINGTRACE_SAMPLES (scripts/vm-test sets
# it), then in the samples/ of the kernel build the selftests were built
# in; return 1 if there is none.  rt_sample_ko NAME [WHY]: the same, or
# skip (WHY prefixes the reason).
rt_find_ko() {
	local d

	for d in ${RINGTRACE_SAMPLES:-} "$(dirname "$0")"/../../samples/*; do
		if [ -f "$d/$1.ko" ]; then
			SAMPLE_KO=$d/$1.ko
			return 0
		fi
	done
	return 1
}

rt_sample_ko() {
	rt_find_ko "$1" || rt_skip "${2:-}no $1.ko (samples/; CONFIG_SAMPLE_*=m)"
}

# rt_ksym NAME: the address of kernel symbol NAME, as 0x<hex>.
rt_ksym() {
	awk -v name="$1" '$3 == name { print "0x" $1; exit }' /proc/kallsyms |
		sed 's/^0x0*/0x/'
}

# Race tests run loops in the background, each under timeout:
# rt_start_loop CMD... starts one ("timeout -k 5 $LIMIT CMD..."), rt_race
# lets them race and then stops them, and rt_wait_loops SECONDS waits for
# them all until SECONDS from now and no longer (timeout cannot end a task
# stuck in the kernel), setting rt_hung to how many were still running or
# had to be killed.
rt_loop_pids=()
rt_loop_names=()
rt_hung=0

rt_start_loop() {
	# A loop re-running "$0" skips the "# requires:" check (see the end).
	RT_REQUIRED=$0 timeout -k 5 "$LIMIT" "$@" &
	rt_loop_pids+=($!)
	rt_loop_names+=("$*")
}

rt_wait_loops() {
	local deadline=$((SECONDS + $1)) i rc

	for i in "${!rt_loop_pids[@]}"; do
		while kill -0 "${rt_loop_pids[$i]}" 2>/dev/null && [ $SECONDS -lt $deadline ]; do
			sleep 1
		done
		if kill -0 "${rt_loop_pids[$i]}" 2>/dev/null; then
			rt_hung=$((rt_hung + 1))
			echo "# still running $1 s after the stop: ${rt_loop_names[$i]}"
			continue
		fi
		wait "${rt_loop_pids[$i]}"
		rc=$?
		case $rc in
		124 | 137)
			rt_hung=$((rt_hung + 1))
			echo "# still running after $LIMIT s: ${rt_loop_names[$i]}"
			;;
		esac
	done
}

# rt_race_limits STORM: RACE, how long a race of STORM seconds may go on
# for its goals (rt_race) before it is stuck, and LIMIT, the loops'
# timeout, which must outlast it and leave them time to see the stop.
rt_race_limits() {
	RACE=$(rt_scaled $(($1 + 120)))
	LIMIT=$((RACE + $(rt_scaled 40)))
}

# rt_race DIR STORM GOAL...: the loops race for STORM seconds, then on
# until every GOAL is met, looked at each second: GOAL is FILE:N, the
# count in DIR/FILE (a number, or the first of the numbers in it; 0 while
# it has none) at least N, or FILE+FILE...:N for their sum.  The loops
# write those counts as they go.  A race whose loops have not got there
# RACE seconds after it began (rt_race_limits) is stuck and ends then.
# Last, it tells the loops to stop (DIR/stop).  So a slow machine races
# longer rather than checks less.  Sets rt_raced, the seconds the race
# lasted, and rt_stuck: empty, or " (no progress in N s: FILE C of N ...)"
# naming the goals not met, for the assertions on those counts to say.
rt_race() {
	local dir=$1 storm=$2 start=$SECONDS goal files f n sum short

	shift 2
	: "${RACE:?rt_race needs rt_race_limits first}"
	rt_stuck=
	sleep "$storm"
	while :; do
		short=
		for goal in "$@"; do
			files=${goal%:*}
			sum=0
			for f in ${files//+/ }; do
				n=
				{ read -r n _ < "$dir/$f"; } 2>/dev/null
				case $n in '' | *[!0-9]*) n=0 ;; esac
				sum=$((sum + n))
			done
			[ $sum -ge "${goal##*:}" ] || short+=" ${goal%:*} $sum of ${goal##*:}"
		done
		[ -n "$short" ] || break
		if [ $((SECONDS - start)) -ge "$RACE" ] || ! rt_loops_alive; then
			# shellcheck disable=SC2034 # for the tests' assertions
			rt_stuck=" (goals not met after $((SECONDS - start)) s:$short)"
			rt_loops_alive || rt_stuck+=" (every loop had ended)"
			echo "# the race did not get there$rt_stuck"
			break
		fi
		sleep 1
	done
	touch "$dir/stop"
	rt_raced=$((SECONDS - start))
	[ -n "$rt_stuck" ] || [ $rt_raced -le $((storm + 1)) ] ||
		echo "# raced $rt_raced s: $storm s, then until the loops had done what the checks need"
}

# rt_loops_alive: whether any loop of rt_start_loop still runs.
rt_loops_alive() {
	local pid

	for pid in "${rt_loop_pids[@]}"; do
		kill -0 "$pid" 2>/dev/null && return 0
	done
	return 1
}

# rt_stopped DIR: whether the loops were told to stop (DIR/stop exists).
rt_stopped() {
	[ -e "$1/stop" ]
}

# rt_stop_loops DIR: stop every loop (DIR/stop for the polite, KILL for the
# rest and for their children, "$0 --..."), and wait for them unless one
# hung: a loop stuck in the kernel cannot be waited for.
rt_stop_loops() {
	touch "$1/stop"
	[ ${#rt_loop_pids[@]} -eq 0 ] || kill -KILL "${rt_loop_pids[@]}" 2>/dev/null
	pkill -KILL -f "$0 --" 2>/dev/null
	[ $rt_hung -ne 0 ] || wait 2>/dev/null
}

# The directory of the running test, without a fork (dirname).
rt_dir=.
[[ $0 == */* ]] && rt_dir=${0%/*}

# rt_last_cpu: set RT_LAST_CPU to the highest online CPU (the one hotplug
# tests take offline).  Builtins only.
rt_last_cpu() {
	local range

	read -r range < /sys/devices/system/cpu/online
	RT_LAST_CPU=${range##*[-,]}
}

# The top-level names of the tracing directory a FILE word may start with
# (upstream's and ringtrace's): a word naming none of them is a typo, not
# a feature the kernel lacks.
rt_tracing_names=" README available_events available_filter_functions
	available_tracers buffer_percent buffer_size_kb buffer_total_size_kb
	current_tracer dump_on_oops dynamic_events error_log events free_buffer
	instances kprobe_events kprobe_profile last_boot options per_cpu
	printk_formats saved_cmdlines saved_cmdlines_size saved_tgids set_event
	set_event_pid snapshot trace trace_clock trace_marker trace_marker_raw
	trace_options trace_pipe tracing_cpumask tracing_on uprobe_events "

# rt_require_form WORD: return 0 if WORD is of a known form (a FILE word
# starting with one of rt_tracing_names), 2 if not.
rt_require_form() {
	case $1 in
	cmd:?* | tool:?* | module:?* | cpu-hotplug | /?*)
		return 0
		;;
	*:* | -* | *[!A-Za-z0-9_./]* | '')
		return 2
		;;
	esac
	[[ $rt_tracing_names == *[[:space:]]"${1%%/*}"[[:space:]]* ]] || return 2
}

# rt_require WORD: return 0 if WORD (a "# requires:" word of a known form,
# not module:) is met; else set rt_why to why not and return 1.  No
# subshell: the skip is the test's own.
rt_require() {
	case $1 in
	cmd:?*)
		command -v "${1#cmd:}" > /dev/null && return 0
		rt_why="no command ${1#cmd:}"
		;;
	tool:?*)
		[ -x "$rt_dir/${1#tool:}" ] && return 0
		rt_why="no ${1#tool:} beside the tests (built with them)"
		;;
	cpu-hotplug)
		rt_last_cpu
		[ "$RT_LAST_CPU" -gt 0 ] &&
			[ -w "/sys/devices/system/cpu/cpu$RT_LAST_CPU/online" ] && return 0
		rt_why="no CPU to take offline (CONFIG_HOTPLUG_CPU, 2 CPUs)"
		;;
	/?*)
		[ -e "$1" ] && return 0
		rt_why="no $1"
		;;
	*)
		[ -e "$TRACING/$1" ] && return 0
		rt_why="no $TRACING/$1"
		;;
	esac
	return 1
}

# rt_require_module NAME: met if /sys/module/NAME exists or NAME.ko loads;
# skips the test otherwise.
rt_require_module() {
	[ -d "/sys/module/$1" ] && return 0
	rt_sample_ko "$1" "requires module:$1: "
	insmod "$SAMPLE_KO" < /dev/null ||
		rt_skip "requires module:$1: cannot load $SAMPLE_KO"
}

# rt_requires TEST: check every "# requires:" word of TEST's header (the
# comment lines it opens with); skip the test at the first one not met.
rt_requires() {
	local line word words modules=() after_requires=0
	local re='^#[[:space:]]*[Rr][Ee][Qq][Uu][Ii][Rr][Ee][Ss]?[[:space:]]*:'

	[ "$EUID" -eq 0 ] || rt_skip "must be root"
	if [ ! -r "$1" ]; then
		echo "1..0 # $0: cannot read its own header ($1)"
		exit 1
	fi

	while IFS= read -r line; do
		case $line in
		"# requires: "*) ;;
		"#  "* | "#"$'\t'*)
			# An indented line right after "# requires:" would be
			# a continuation nobody reads.
			if [ $after_requires -eq 1 ]; then
				echo "1..0 # $0: '$line' continues a '# requires: ' line: give it its own"
				exit 1
			fi
			continue
			;;
		"#"*)
			if [[ $line =~ $re ]]; then
				echo "1..0 # $0: '$line' is no '# requires: ' line"
				exit 1
			fi
			after_requires=0
			continue
			;;
		*) break ;;
		esac
		after_requires=1
		read -ra words <<< "${line#"# requires: "}"
		for word in "${words[@]}"; do
			if ! rt_require_form "$word"; then
				echo "1..0 # $0: '# requires: $word' is no requirement"
				exit 1
			fi
			[ -n "${RT_REQUIRES_FORM_ONLY:-}" ] && continue
			if [[ $word == module:* ]]; then
				modules+=("${word#module:}")
				continue
			fi
			rt_require "$word" || rt_skip "requires $word: $rt_why"
		done
	done < "$1"
	# RT_REQUIRES_FORM_ONLY (scripts/tests/ksft-lib-requires): the
	# header's form checked, nothing loaded, nothing run.
	[ -z "${RT_REQUIRES_FORM_ONLY:-}" ] || exit 0
	for word in "${modules[@]}"; do
		rt_require_module "$word"
	done
}

# Once a test: the loops a race test starts with rt_start_loop as "$0
# --loop ..." have RT_REQUIRED set to it and skip the check (a CPU the test
# took offline must not skip a loop); nothing else inherits it.
if [ "${RT_REQUIRED:-}" != "$0" ]; then
	rt_requires "$0"
fi
unset RT_REQUIRED
