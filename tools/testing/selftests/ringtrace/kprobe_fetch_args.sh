#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: every fetch-arg kind records the known arguments, registers,
#              stack, symbols, memory, strings, $comm and return value of
#              ringtrace_kprobe_target() (samples/ringtrace), a bad
#              dereference as a fault; the format describes the fields
# requires: kprobe_events trace module:ringtrace_kprobe_target

. "$(dirname "$0")/ringtrace_lib.sh"
rt_load_target

T=$TRACING
K=$T/events/kprobes
trap 'echo 0 2> /dev/null > $K/enable; echo > $T/kprobe_events' EXIT
rt_plan 6

head=$(rt_ksym ringtrace_kprobe_target_head)
tail=$(rt_ksym rtkt_tail)
data=$(rt_ksym ringtrace_kprobe_target_data)
comm=$(cat /proc/$$/comm)
lines() { grep -c "$1" $T/trace; }

echo > $T/kprobe_events
echo > $T/trace
echo "p:fetch ringtrace_kprobe_target a0 a1 %dx +0(a2) +0(+8(a2)) a3:string" \
	"+0(+16(+8(a2))):string a4 a5 a6 a7 s1 s2 @ringtrace_kprobe_target_data" \
	"@$data @ringtrace_kprobe_target_head+8 +0(a4) +0(a4):string" \
	"\$comm %si:u8 %r8:s8 sum=-8(+24(%dx)):x16 s0" > $T/kprobe_events
echo 'r:fetchret ringtrace_kprobe_target rv $retval ra' >> $T/kprobe_events
[ -d $K/fetch ] && [ -d $K/fetchret ]
rt_result $? "probes on a module's function: events/kprobes/fetch, fetchret"

echo 1 > $K/fetch/enabled
echo 1 > $K/fetchret/enabled
echo 3 > $TARGET_CALL
echo 0 > $K/fetch/enabled
echo 0 > $K/fetchret/enabled

# %pS names the module of a module's symbol, as upstream's trace does.
mod=' \[ringtrace_kprobe_target\]'
want="ringtrace_kprobe_target+0x0/0x[0-9a-f]*$mod: 0x11 0x22 $head 0x4ead 0x7a11"
want="$want \"hello\" \"tail\" 0x55 0x66 0x77 0x88 0x77 0x88 0x5eed5eed"
want="$want 0x5eed5eed $tail 0xfffffffffffffff2 \"(fault)\" \"$comm\" 34 85"
want="$want sum=0x1000 0x[0-9a-f]*\$"
[ "$(lines "$want")" -eq 3 ]
ok=$?
[ $ok -eq 0 ] || { echo "# want: $want"; grep -m1 ': ringtrace_kprobe_target+' $T/trace | sed 's/^/# got:  /'; }
rt_result $ok "a0-a7, %dx, s1, s2, @SYM, @ADDR, @SYM+offs, nested +offs(), strings, \$comm, types"

grep -q "0xfffffffffffffff2 \"(fault)\"" $T/trace
rt_result $? "a bad dereference records -EFAULT and a string records (fault)"

ret=$(grep -m1 " <- ringtrace_kprobe_target$mod: " $T/trace)
case $ret in
*" rtkt_call_write+0x"*"/0x"*" <- ringtrace_kprobe_target"*": 0x509f 0x509f 0x"*) ok=0 ;;
*) ok=1; echo "# got: $ret"; grep -m3 'ringtrace_kprobe_target' $T/trace | sed 's/^/# /' ;;
esac
[ "$(lines " <- ringtrace_kprobe_target$mod: ")" -eq 3 ] || ok=1
rt_result $ok "the return probe records rv, \$retval (0x509f) and returns into the caller"

# With the return probe armed, s0 was its trampoline: check s0 alone.
echo > $T/trace
echo 1 > $K/fetch/enabled
echo 1 > $TARGET_CALL
echo 0 > $K/fetch/enabled
s0=$(grep -m1 ': ringtrace_kprobe_target+0x0/' $T/trace | awk '{ print $NF }')
ra=${ret##* }
[ -n "$s0" ] && [ "$s0" = "$ra" ]
rt_result $? "s0 at entry is the return address the return probe sees ($ra)"

grep -q '	alias: a4;	original: arg7;' $K/fetch/format &&
	grep -q '	field:__data_loc char\[\] arg5;	offset:[0-9]*;	size:4;	signed:1;' $K/fetch/format &&
	grep -q '	field:u16 sum;' $K/fetch/format
rt_result $? "format: aliases, string and typed fields"
echo > $T/kprobe_events
rt_exit
