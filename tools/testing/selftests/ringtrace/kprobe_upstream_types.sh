#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: upstream's fetch-arg types and forms record what they name in
#              ringtrace_kprobe_target() (samples/ringtrace): strings at a
#              memory fetch-arg's address, user memory, bitfields, arrays,
#              symbol, symstr, immediates, r ADDR; format and print fmt
# requires: kprobe_events trace module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target

T=$TRACING
K=$T/events/kprobes
trap 'echo 0 2> /dev/null > $K/enable; echo > $T/kprobe_events' EXIT
rt_plan 8

mod='\[ringtrace_kprobe_target\]'
entry=$(rt_ksym ringtrace_kprobe_target)
line() { grep -m1 "$1" $T/trace; }
# check NAME WANT: the first line matching NAME's probe point matches WANT.
check() {
	local got
	got=$(line "$1")
	if ! printf '%s\n' "$got" | grep -q -- "$2"; then
		echo "# want: $2"
		echo "# got:  $got"
		return 1
	fi
}

echo > $T/kprobe_events
echo > $T/trace
# Strings: upstream's meaning (the text at the address), and a register
# holding the address (ringtrace's, which upstream refuses).
echo 'p:str ringtrace_kprobe_target name=+0(+16(a2)):string' \
	'tail=+0(+16(+8(a2))):string reg=a3:string lit=\"lit" c=$comm' \
	> $T/kprobe_events
echo 'p:num ringtrace_kprobe_target bf=+0(a2):b4@4/16' \
	'top=@ringtrace_kprobe_target_data:b8@24/32 arr=+0(+24(a2)):x64[2]' \
	'bytes=+0(a2):u8[2] nib=+0(a2):b4@0/8[2] imm=\0x1234:x16' \
	'neg=\-3:s32 sym=+8(a2):symbol ss=+8(a2):symstr' >> $T/kprobe_events
# a1 of the write handler is the user's buffer.
echo 'p:user rtkt_call_write u=+0(a1):ustring fallback=+0(a1):string' \
	'viau=+u0(a1):string byte=+u0(a1):x8 kbyte=+0(a1):x8' \
	'kern=+0(+16(a2)):ustring' >> $T/kprobe_events
echo "r:raddr $entry rv" >> $T/kprobe_events
rt_result $? "upstream's types, forms and r ADDR are accepted"

echo 1 > $K/enable
printf '1\0' > $TARGET_CALL
echo 0 > $K/enable

check ': ringtrace_kprobe_target+0x0/.*: name=' \
	"name=\"head\" tail=\"tail\" reg=\"hello\" lit=\"lit\" c=\"$(cat /proc/$$/comm)\"\$"
rt_result $? "strings: +0(+16(a2)) is the text at head.name, a3 the text a3 points at"

check ': ringtrace_kprobe_target+0x0/.*: bf=' \
	'bf=10 top=94 arr={0x2000,0x3000} bytes={173,78} nib={13,14} imm=0x1234 neg=-3 sym=rtkt_tail+0x0/0x[0-9a-f]* '"$mod"' ss="rtkt_tail+0x0/0x[0-9a-f]* '"$mod"'"$'
rt_result $? "bitfields, arrays, immediates, symbol and symstr"

check ': rtkt_call_write+0x0/' \
	'u="1" fallback="1" viau="1" byte=0x31 kbyte=0x31 kern="(fault)"$'
rt_result $? "user memory: ustring, +u0(), and a user address read as such"

check ' <- ringtrace_kprobe_target' ': 0x509f$'
rt_result $? "a return probe on the function's address records its return value"

f=$K/num/format
grep -q '	field:u64 arr\[2\];	offset:[0-9]*;	size:16;	signed:0;' $f &&
	grep -q '	field:u8 bytes\[2\];	offset:[0-9]*;	size:2;	signed:0;' $f &&
	grep -q '	field:u16 bf;	offset:[0-9]*;	size:2;	signed:0;' $f &&
	grep -q '	field:u64 sym;	offset:[0-9]*;	size:8;	signed:0;' $f &&
	grep -q '	field:__data_loc char\[\] ss;	offset:[0-9]*;	size:4;	signed:1;' $f
rt_result $? "format: arrays as TYPE NAME[N], bitfields as their size's type"

grep -q '^print fmt: ".*arr={0x%llx,0x%llx} .* sym=%pS ss=\\"%s\\"", .*REC->arr\[0\], REC->arr\[1\], .*, __get_str(ss)$' $f
rt_result $? "print fmt: each array element, %pS for a symbol, __get_str() for a string"

grep -q '^r:kprobes/raddr 0x' $T/kprobe_events &&
	grep -q 'name=+0(+16(a2)):string' $T/kprobe_events
rt_result $? "kprobe_events lists them as written"

echo > $T/kprobe_events
rt_exit
