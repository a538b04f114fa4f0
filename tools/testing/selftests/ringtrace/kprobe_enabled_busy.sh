#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: an enabled probe cannot be removed (EBUSY), neither by
#              "-:EVENT" nor by an empty write clearing it with the others
# requires: kprobe_events

. "$(dirname "$0")/ringtrace_lib.sh"

T=$TRACING
K=$T/events/kprobes
trap 'echo 0 2> /dev/null > $K/enable; echo > $T/kprobe_events' EXIT
rt_plan 2

echo > $T/kprobe_events
echo p:myprobe do_sys_open a0 a1 a2 a3 > $T/kprobe_events
echo r:myretprobe do_sys_open rv ra >> $T/kprobe_events

echo 1 > $K/myprobe/enabled
err=$( (echo -:myprobe >> $T/kprobe_events) 2>&1 )
case $err in *"busy"*) ok=0 ;; *) ok=1 ;; esac
rt_result $ok "an enabled probe cannot be removed (EBUSY)"
err=$( (echo > $T/kprobe_events) 2>&1 )
case $err in *"busy"*) ok=0 ;; *) ok=1 ;; esac
[ -d $K/myprobe ] || ok=1
rt_result $ok "nor cleared with the others"
echo 0 > $K/myprobe/enabled
rt_exit
