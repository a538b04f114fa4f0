#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: every fetch-arg kind records the known arguments, memory and
#              return value of ringtrace_kprobe_target() (samples/ringtrace);
#              aliases filter; enabled gates recording; kprobe_profile counts
#              each call; probes in a module go away when it unloads
# requires: kprobe_events kprobe_profile ringtrace_kprobe_target.ko

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing
[ -e $TRACING/kprobe_events ] || rt_skip "no kprobe_events"
rt_load_target

T=$TRACING
K=$T/events/kprobes
rt_plan 13

head=$(rt_ksym ringtrace_kprobe_target_head)
tail=$(rt_ksym rtkt_tail)
data=$(rt_ksym ringtrace_kprobe_target_data)
comm=$(cat /proc/$$/comm)
lines() { grep -c "$1" $T/trace; }
hits() { awk -v e="$1" '$1 == e { print $2 }' $T/kprobe_profile; }

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

[ "$(hits fetch)" = 3 ] && [ "$(hits fetchret)" = 3 ]
rt_result $? "kprobe_profile counts 3 hits for 3 calls"

echo 2 > $TARGET_CALL
[ "$(hits fetch)" = 3 ] && [ "$(lines 'ringtrace_kprobe_target+0x0/')" -eq 3 ]
rt_result $? "disabled probes neither fire nor record"

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

echo > $T/trace
echo 'a4 != 0x55' > $K/fetch/filter
echo 1 > $K/fetch/enabled
echo 1 > $TARGET_CALL
n1=$(lines 'ringtrace_kprobe_target+0x0/')
echo 'a4 == 0x55 && sum == 0x1000' > $K/fetch/filter
echo 2 > $TARGET_CALL
n2=$(lines 'ringtrace_kprobe_target+0x0/')
echo 0 > $K/fetch/enabled
echo 0 > $K/fetch/filter
[ "$n1" -eq 0 ] && [ "$n2" -eq 2 ] && [ "$(hits fetch)" = 7 ]
rt_result $? "filters on an alias and a named arg drop and keep records ($n1, $n2)"

echo 1 > $K/fetch/enabled
rmmod ringtrace_kprobe_target
[ ! -d $K/fetch ] && [ ! -d $K/fetchret ] && [ -z "$(cat $T/kprobe_events)" ]
rt_result $? "unloading the module removes its probes, even an enabled one"
[ -z "$(hits fetch)" ]
rt_result $? "and their kprobe_profile lines"

err=$( (echo 'p:gone ringtrace_kprobe_target' >> $T/kprobe_events) 2>&1 )
case $err in *"No such file"*) ok=0 ;; *) ok=1 ;; esac
rt_result $ok "a probe on the unloaded module's function: ENOENT"

rt_load_target
echo 'p:again ringtrace_kprobe_target a0' > $T/kprobe_events
echo 1 > $K/again/enabled
echo 1 > $TARGET_CALL
echo 0 > $K/again/enabled
grep -q ": ringtrace_kprobe_target+0x0/0x[0-9a-f]*$mod: 0x11\$" $T/trace
rt_result $? "after reloading, a new probe on it records again"
echo > $T/kprobe_events
rmmod ringtrace_kprobe_target
rt_exit
