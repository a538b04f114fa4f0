#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: kprobe_events defines probes whose events record when
#              enabled: the spec's examples verbatim (do_sys_open is kept
#              out of line by patches/do-sys-open-out-of-line.patch), the
#              format with aliases, trace lines, kprobe_profile, return
#              probes, the busy check and errors that leave nothing behind
# requires: kprobe_events kprobe_profile

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing
[ -e $TRACING/kprobe_events ] || rt_skip "no kprobe_events"

T=$TRACING
K=$T/events/kprobes
rt_plan 20

echo > $T/kprobe_events
echo > $T/trace
echo p:myprobe do_sys_open a0 a1 a2 a3 > /sys/kernel/debug/tracing/kprobe_events
[ -d $K/myprobe ]
rt_result $? "p:myprobe makes events/kprobes/myprobe"
grep -qx 'p:kprobes/myprobe do_sys_open+0 a0 a1 a2 a3' $T/kprobe_events
rt_result $? "kprobe_events lists it in canonical form"
grep -q '	field:unsigned long ip;	offset:16;	size:8;' $K/myprobe/format &&
	grep -q '	field:int nargs;	offset:24;	size:4;' $K/myprobe/format &&
	grep -q '	field:unsigned long arg0;	offset:32;	size:8;' $K/myprobe/format &&
	grep -q '	alias: a0;	original: arg0;' $K/myprobe/format
rt_result $? "format: ip at 16, nargs at 24, arg0 at 32, alias a0 of arg0"

echo r:myretprobe do_sys_open rv ra >> /sys/kernel/debug/tracing/kprobe_events
[ -d $K/myretprobe ] && [ -d $K/myprobe ]
rt_result $? ">> adds a return probe and keeps the first"

echo 'a0 != 0' > $K/myprobe/filter
[ "$(cat $K/myprobe/filter)" = 'a0 != 0' ]
rt_result $? "filters may name aliases"
echo 1 > $K/myprobe/enabled
echo 1 > $K/myretprobe/enable
cat /proc/version > /dev/null
cat /etc/hostname > /dev/null
echo 0 > $K/myprobe/enabled
echo 0 > $K/myretprobe/enabled
grep -Eq ': do_sys_open\+0x0/0x[0-9a-f]+: 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+$' $T/trace
rt_result $? "trace shows 'do_sys_open+0x0/0x..: 0x.. 0x.. 0x.. 0x..'"
grep -Eq '[a-z_0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+ <- do_sys_open: 0x[0-9a-f]+ 0x[0-9a-f]+$' $T/trace
rt_result $? "trace shows 'SYM+0x../0x.. <- do_sys_open: 0x.. 0x..'"
hits=$(awk '$1 == "myprobe" { print $2 }' $T/kprobe_profile)
[ "${hits:-0}" -gt 0 ]
rt_result $? "kprobe_profile counts hits ($hits)"

echo 1 > $K/myprobe/enabled
err=$( (echo -:myprobe >> $T/kprobe_events) 2>&1 )
case $err in *"busy"*) ok=0 ;; *) ok=1 ;; esac
rt_result $ok "an enabled probe cannot be removed (EBUSY)"
err=$( (echo > $T/kprobe_events) 2>&1 )
case $err in *"busy"*) ok=0 ;; *) ok=1 ;; esac
[ -d $K/myprobe ] || ok=1
rt_result $ok "nor cleared with the others"
echo 0 > $K/myprobe/enabled

err=$( (echo 'p:bad no_such_function_here a0' >> $T/kprobe_events) 2>&1 )
case $err in *"No such file"*) ok=0 ;; *) ok=1 ;; esac
[ ! -d $K/bad ] && tail -3 $T/error_log | grep -q 'unknown symbol' || ok=1
rt_result $ok "an unknown symbol: ENOENT, error_log, no event"
err=$( (echo 'p:bad2 vfs_read rv' >> $T/kprobe_events) 2>&1 )
case $err in *"Invalid argument"*) ok=0 ;; *) ok=1 ;; esac
[ ! -d $K/bad2 ] || ok=1
rt_result $ok "rv on a p probe: EINVAL, no event"

echo -:myprobe >> $T/kprobe_events
echo > $T/kprobe_events
[ ! -d $K/myprobe ] && [ ! -d $K/myretprobe ] && [ -z "$(cat $T/kprobe_events)" ]
rt_result $? "-:EVENT and an empty write remove the probes"
grep -Eq ': do_sys_open\+0x0/0x[0-9a-f]+: 0x' $T/trace &&
	grep -q ' <- do_sys_open: 0x' $T/trace
rt_result $? "as in the spec, trace still shows their records after that"
echo > $T/trace

# dynamic_events, upstream's file of all dynamic events: the same probes.
echo 'p:kprobes/dyn1 vfs_read a0' > $T/dynamic_events &&
	echo 'r:dyn2 vfs_read rv' >> $T/dynamic_events &&
	[ "$(cat $T/dynamic_events)" = "$(cat $T/kprobe_events)" ] &&
	[ "$(grep -c dyn $T/kprobe_events)" = 2 ] && [ -d $K/dyn1 ] && [ -d $K/dyn2 ]
rt_result $? "dynamic_events defines probes and lists what kprobe_events lists"
echo '-:kprobes/dyn1' >> $T/dynamic_events && [ ! -d $K/dyn1 ] && [ -d $K/dyn2 ] &&
	echo > $T/dynamic_events && [ -z "$(cat $T/kprobe_events)" ] && [ ! -d $K/dyn2 ]
rt_result $? "dynamic_events: '-:GRP/EVENT' removes one, '>' clears all"
printf '%s\n' '# a comment line' 'p:cmt vfs_read a0 # a comment after it' \
	>> $T/kprobe_events && [ "$(grep -c . $T/kprobe_events)" = 1 ] &&
	grep -q '^p:kprobes/cmt vfs_read+0 a0$' $T/kprobe_events
rt_result $? "a comment after a definition is ignored, as upstream"
echo > $T/kprobe_events

# Upstream's spellings: -:EVENT of every group, GROUP/ alone, SYM%return.
echo 'p:g1/same vfs_read' > $T/kprobe_events && echo 'p:g2/same vfs_read' >> $T/kprobe_events &&
	echo 'p:g2/other vfs_read' >> $T/kprobe_events &&
	echo '-:same' >> $T/kprobe_events && [ "$(cat $T/kprobe_events)" = 'p:g2/other vfs_read+0' ] &&
	echo 'p:g2/more vfs_read' >> $T/kprobe_events && echo '-:g2/' >> $T/kprobe_events &&
	[ -z "$(cat $T/kprobe_events)" ]
rt_result $? "'-:same' removes 'same' of every group; '-:g2/' every event of g2"
echo 'p:grp/ vfs_read' > $T/kprobe_events &&
	grep -qx 'p:grp/p_vfs_read_0 vfs_read+0' $T/kprobe_events
rt_result $? "'p:grp/ vfs_read' names the event after the point ($(cat $T/kprobe_events))"
echo > $T/trace
ok=1
if echo 'p:retp vfs_read%return $retval' > $T/kprobe_events &&
   grep -qx 'r:kprobes/retp vfs_read+0 $retval' $T/kprobe_events &&
   echo 1 > $K/retp/enable; then
	read -r _ < /proc/version
	echo 0 > $K/retp/enable
	grep -q ' <- vfs_read: 0x' $T/trace && ok=0
fi
rt_result $ok "'p:retp vfs_read%return' is a return probe: its records show '<- vfs_read'"
echo > $T/kprobe_events
rt_exit
