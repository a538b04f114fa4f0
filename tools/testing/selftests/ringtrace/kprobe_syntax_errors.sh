#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: each malformed or impossible kprobe_events line fails with
#              its own errno, puts the command and a caret under the fault
#              in error_log, and leaves the defined probes as they were
# requires: kprobe_events error_log cmd:dd

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes

# "ERRNO line", the line with a ^ where error_log must point.
bad_lines=(
	'EINVAL ^x do_sys_open'
	'EINVAL ^q:e f'
	'EINVAL p^5 do_sys_open'
	'EINVAL r^0 do_sys_open'
	'EINVAL r^5000 do_sys_open'
	'EINVAL p:^'
	'EINVAL p:^1abc do_sys_open'
	'EINVAL p:^a-b do_sys_open'
	'EINVAL -:grp/^x/'
	'EINVAL p do_sys_open^%ret'
	'EINVAL r do_sys_open^%returns'
	'EINVAL p ^0x1000%return'
	'EINVAL p:^/ev do_sys_open'
	'EINVAL p:^g-x/ev f'
	'EINVAL p^;x f'
	'EINVAL p^'
	'EINVAL p:ev^'
	'EINVAL -^'
	'EINVAL -:grp/ ^extra'
	'ENOENT -:ev ^extra'
	'EINVAL -:^'
	'EINVAL p do_sys_open+^x'
	'EINVAL p do_sys_open+^'
	'EINVAL p do_sys_open^-4'
	'EINVAL p do^$sys'
	'EINVAL r do_sys_open^+4'
	'ENOENT r ^0x1000'
	'EINVAL p ^0xzz'
	'EINVAL p ^0'
	'EINVAL p ^1abc'
	'EINVAL p f ^rv'
	'EINVAL p f ^ra'
	'EINVAL p f ^$retval'
	'EINVAL p f %^zz'
	'EINVAL p f %^'
	'EINVAL p f ^s'
	'EINVAL p f s^x'
	'EINVAL p f s^-1'
	'EINVAL p f ^a'
	'EINVAL p f a^x'
	'EINVAL p f a^99999'
	'EINVAL p f @^'
	'EINVAL p f @^0xzz'
	'EINVAL p f @sym+^x'
	'EINVAL p f @sy^$m'
	'EINVAL p f +4%di^'
	'EINVAL p f +4^(%di'
	'EINVAL p f +^x(%di)'
	'EINVAL p f +4(^)'
	'EINVAL p f +4(%^zz)'
	'EINVAL p f +4(^rv)'
	'EINVAL p f x=^'
	'EINVAL p f ^=a0'
	'EINVAL p f ^1x=a0'
	'EINVAL p f a0:^u7'
	'EINVAL p f a0:^'
	'EINVAL p f x=a0 ^x=a1'
	'EINVAL p f arg1=a0 ^a1'
	'EINVAL p f %^di:u32:u8'
	'EINVAL p f -4(+8^(%di)'
	'EINVAL p f a^0:string:u8'
	'EINVAL p f $stack^x'
	'EINVAL p f $arg^z'
	'EINVAL p f $arg^0'
	'EINVAL p f ^$foo'
	'EINVAL p f ^ip=a0'
	'EINVAL p f a0 ^common_pid=a1'
	'EINVAL p:base2 vfs_read ^rv'
	'EINVAL p:base2 vfs_read a0 ^ra'
	'EINVAL p:base2 vfs_read %^none'
	'EINVAL p:^grp-x/ev vfs_read'
	'EEXIST p:base vfs_write^'
	'EEXIST p:kprobes/base vfs_write a0 ^x=a1'
	'EEXIST p:base vfs_write a0 ^a1:u8'
	'EEXIST p:base vfs_write a0 a1 ^a2'
	'EEXIST ^p:base vfs_read a0 a1'
	'EEXIST ^r:base vfs_read a0 a1'
	'ENOENT -:base ^vfs_write'
	'ENOENT -:base ^vfs_read a1'
	'ENOENT p:nosym ^no_such_function_here'
	'ENOENT r:nosym ^no_such_function_here'
	'ENOENT p:nosym vfs_read a0 ^@no_such_symbol_here'
	'ENOENT p:nosym vfs_read a0 ^+8(@no_such_symbol_here)'
	'ENOENT ^-:no_such_event'
	'ENOENT ^-:nogroup/base'
	'EINVAL p:blacklisted ^kprobe_int3_handler'
	'EINVAL r:blacklisted ^kprobe_int3_handler'
)

# What strerror() says for each errno: the shell prints it on a failed write.
declare -A errno_text=(
	[EINVAL]="Invalid argument"
	[ENOENT]="No such file or directory"
	[EEXIST]="File exists"
	[E2BIG]="Argument list too long"
	[EILSEQ]="Invalid or incomplete multibyte or wide character"
	[EADDRNOTAVAIL]="Cannot assign requested address"
)

base='p:kprobes/base vfs_read+0 a0 a1'
errf=$(mktemp) || exit 1
trap 'rm -f "$errf"; echo > $T/kprobe_events' EXIT

# The probes defined and their event directories, in $defined; builtins
# only (a fork costs a lot under TCG with KASAN, and this runs per line).
defined() {
	local lines dirs

	mapfile -t lines < $T/kprobe_events
	dirs=($T/events/kprobes/*)
	defined="${lines[*]}|${dirs[*]##*/}"
}

# check ERRNO LINE POS: writing LINE fails with ERRNO, error_log shows it
# with the caret at POS (unless POS is -), and nothing changed.
check() {
	local errno=$1 line=$2 pos=$3 err= caret= cmd log ok=0

	# One write(2) for the whole line: the printf builtin writes what it
	# prints at once up to its stdio buffer's size (1 KiB when stdout is a
	# terminal, 4 KiB otherwise); dd for longer lines.
	if [ ${#line} -lt 1000 ]; then
		printf '%s\n' "$line" 2> "$errf" >> $T/kprobe_events
	else
		printf '%s\n' "$line" | dd of=$T/kprobe_events oflag=append \
			conv=notrunc bs=1M iflag=fullblock count=1 status=none 2> "$errf"
	fi
	read -r err < "$errf"
	case $err in *"${errno_text[$errno]}"*) ;; *) ok=1 ;; esac
	defined
	[ "$defined" = "$before" ] || ok=1
	if [ "$pos" != - ]; then
		mapfile -t log < $T/error_log
		[[ ${log[-1]} == *^* ]] || ok=1
		cmd=${log[-2]}
		caret=${log[-1]%%^*}
		caret=${#caret}
		[ "$cmd" = "  Command: $line" ] || ok=1
		# "  Command: " is 11 columns.
		[ "$caret" = $((11 + pos)) ] || ok=1
	fi
	[ $ok -eq 0 ] || echo "# '${line:0:80}': '$err', caret at $caret, want $pos + 11"
	return $ok
}

rt_plan $((${#bad_lines[@]} + 12))

echo > $T/kprobe_events
echo "$base" > $T/kprobe_events
defined
before=$defined
echo > $T/error_log

for entry in "${bad_lines[@]}"; do
	errno=${entry%% *}
	marked=${entry#* }
	pos=${marked%%^*}
	pos=${#pos}
	line=${marked/^/}
	check $errno "$line" $pos
	rt_result $? "$errno '$line' at $pos"
done

err=$( (echo 'p:bad no_such_function_here a0' >> $T/kprobe_events) 2>&1 )
case $err in *"No such file"*) ok=0 ;; *) ok=1 ;; esac
[ ! -d $K/bad ] && tail -3 $T/error_log | grep -q 'unknown symbol' || ok=1
rt_result $ok "an unknown symbol: ENOENT, error_log, no event"
err=$( (echo 'p:bad2 vfs_read rv' >> $T/kprobe_events) 2>&1 )
case $err in *"Invalid argument"*) ok=0 ;; *) ok=1 ;; esac
[ ! -d $K/bad2 ] || ok=1
rt_result $ok "rv on a p probe: EINVAL, no event"

args=
for i in $(seq 129); do args="$args %ax"; done
check E2BIG "p:many vfs_read$args" $((16 + 128 * 4))
rt_result $? "E2BIG for 129 fetch-args, the caret on the 129th"

check E2BIG "p:long vfs_read$(printf '%*s' 4100 '') a0" -
rt_result $? "E2BIG for a line over 4096 bytes"

# Records must fit a buffer page (4064 bytes of payload with 4 KiB pages):
# 32 bytes of fixed fields (40 for return probes), then the arguments'
# slots: 512 bytes for a u64[64].  (kprobe_record_fits_page.sh: what
# fits exactly is accepted and records.)
# repeat N WORD: N times " WORD".
repeat() {
	local i out=

	for ((i = 0; i < $1; i++)); do out="$out $2"; done
	echo "$out"
}
# arrays N [M]: N u64[64] of %di's memory, then a u64[M].
arrays() { echo "$(repeat "$1" '+0(%di):u64[64]')${2:+ +0(%di):u64[$2]}"; }
check E2BIG "p:huge vfs_read$(arrays 8)" -
rt_result $? "E2BIG for a probe with 8 u64[64] (a 4128-byte record)"
grep -q 'its records would not fit a buffer page' $T/error_log
rt_result $? "error_log says why"
check E2BIG "r:rhuge vfs_read$(arrays 7 56)" -
rt_result $? "E2BIG for a return probe with 7 u64[64] and a u64[56] (a 4072-byte record)"

# bash's printf writes a long line in 4096-byte pieces: the first is
# refused as a line too long, and the rest defines nothing either.
(printf '%s\n' "p:long vfs_read$(printf '%*s' 4100 '') a0" >> $T/kprobe_events) 2>/dev/null
ok=$?
defined
[ $ok -ne 0 ] && [ "$defined" = "$before" ]
rt_result $? "a long line written in pieces fails and defines nothing"

# Some offset in vfs_read's first instructions is inside one.
ok=1
for off in 1 2 3 4 5 6 7; do
	if check EILSEQ "p:mid vfs_read+$off" 6 >/dev/null; then
		ok=0
		break
	fi
done
rt_result $ok "EILSEQ for an offset inside an instruction (vfs_read+$off)"

# r ADDR takes a function's entry only (kprobes checks it), as upstream.
addr=$(printf '0x%x' $(($(rt_ksym vfs_read) + 4)))
check EINVAL "r:mid $addr" 6
rt_result $? "EINVAL for a return probe inside a function ($addr)"

data=$(rt_ksym jiffies_64)
check EINVAL "p:data $data" 7
rt_result $? "EINVAL for a data address ($data)"

# A name several functions share (static functions of different files):
# refused, as upstream, rather than probing whichever comes first.
# vmlinux's own (3 fields): not [bpf] or [__builtin__kprobes] entries,
# which no symbol table holds.
shared=$(awk 'NF == 3 && $2 == "t" { print $3 }' /proc/kallsyms | sort | uniq -d | head -1)
if [ -n "$shared" ]; then
	check EADDRNOTAVAIL "p:shared $shared" 9
	rt_result $? "EADDRNOTAVAIL for $shared, the name of several functions"
else
	rt_result 0 "# SKIP no function name is shared in this kernel"
fi

echo > $T/kprobe_events
rt_exit
