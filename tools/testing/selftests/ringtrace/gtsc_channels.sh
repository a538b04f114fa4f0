#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: GTSC channels through gtsc_test_provider.ko: the files of
#              per-CPU and global channels, nr_sub/sub_size, exact dropped
#              counts, flight mode keeping the newest records, rewind,
#              state gating writes, bad input refused with nothing made, a
#              reader outliving its channel
# requires: gtsc_test_provider.ko

. "$(dirname "$0")/ringtrace_lib.sh"
rt_require_tracing
rt_sample_ko gtsc_test_provider
ko=$SAMPLE_KO
lsmod 2>/dev/null | grep -q '^gtsc_test_provider ' || insmod "$ko" ||
	rt_skip "cannot load $ko"

D=/sys/kernel/debug
CTL=$D/gtsc_test_provider/ctl
R=$D/gtsc_selftest
rt_plan 15

ctl() { echo "$*" > $CTL; }
# seqs [FILE]: the sequence numbers of the records read from FILE (stdin).
seqs() { sed -n 's/^seq=\([0-9]*\)\.*$/\1/p' "$@"; }

ctl setup gtsc_selftest percpu 4096 4 0
ok=0
for cpu in $(seq 0 $(($(nproc) - 1))); do [ -f $R/percpu/trace$cpu ] || ok=1; done
for f in state dropped rewind nr_sub sub_size; do [ -f $R/percpu/$f ] || ok=1; done
rt_result $ok "a per-CPU channel has trace0..trace$(($(nproc) - 1)) and the control files"
[ "$(cat $R/percpu/nr_sub)" = 4 ] && [ "$(cat $R/percpu/sub_size)" = 4096 ] &&
	[ "$(cat $R/percpu/state)" = setup ]
rt_result $? "nr_sub and sub_size match the setup; state reads 'setup'"
ctl write percpu 5 64
[ "$(cat $R/percpu/trace* | wc -l)" -eq 0 ]
rt_result $? "nothing is written before start"
echo start > $R/percpu/state
ctl write percpu 7 64
[ "$(cat $R/percpu/trace* | wc -l)" -eq 7 ] && [ "$(cat $R/percpu/state)" = running ]
rt_result $? "after 'start', 7 records written, 7 read"

ctl setup gtsc_selftest global 1024 2 2
[ -f $R/global/trace0 ] && [ ! -e $R/global/trace1 ]
rt_result $? "a global channel has trace0 alone"
echo start > $R/global/state
ctl write global 100 100
got=$(seqs $R/global/trace0 | tr '\n' ' ')
[ "$(cat $R/global/dropped)" = 80 ] && [ "$got" = "$(seq 0 19 | tr '\n' ' ')" ]
rt_result $? "non-overwrite 2x1024: 20 of 100 100-byte records kept, dropped 80"

ctl setup gtsc_selftest flight 1024 2 3
echo start > $R/flight/state
ctl write flight 100 100
got=$(seqs $R/flight/trace0)
last=$(echo "$got" | tail -1)
first=$(echo "$got" | head -1)
[ "$(cat $R/flight/dropped)" = 0 ] && [ "$last" = 99 ] && [ "$first" -ge 80 ] &&
	[ "$(echo "$got" | wc -l)" -eq $((100 - first)) ]
rt_result $? "flight mode keeps the newest records ($first..$last), drops none"

ctl write flight 3 100
a=$(seqs $R/flight/trace0 | tr '\n' ' ')
b=$(seqs $R/flight/trace0 | tr '\n' ' ')
echo 1 > $R/flight/rewind
c=$(seqs $R/flight/trace0 | tr '\n' ' ')
[ "$a" = "100 101 102 " ] && [ -z "$b" ] && case $c in *"100 101 102 ") true ;; *) false ;; esac
rt_result $? "rewind makes consumed records readable again ($c)"

echo stop > $R/global/state
n0=$(cat $R/global/dropped)
ctl write global 10 100
[ "$(cat $R/global/state)" = stopped ] && [ "$(cat $R/global/dropped)" = "$n0" ] &&
	[ -z "$(cat $R/global/trace0)" ]
rt_result $? "'stop' gates writes: nothing written, nothing dropped"
echo start > $R/global/state
ctl write global 3 100
[ "$(seqs $R/global/trace0 | wc -l)" -eq 3 ]
rt_result $? "'start' again: 3 more records"

ok=0
for bad in garbage 1 "start stop" ""; do
	(echo "$bad" > $R/global/state) 2>/dev/null && ok=1
done
for bad in 0 2 yes; do
	(echo "$bad" > $R/global/rewind) 2>/dev/null && ok=1
done
[ "$(cat $R/global/state)" = running ] || ok=1
rt_result $ok "garbage to state or rewind: EINVAL, state unchanged"

# setup arguments|errno
bad_setups=(
	"gtsc_selftest bad 0 4 0|Invalid argument"
	"gtsc_selftest bad 1000 4 0|Invalid argument"
	"gtsc_selftest bad 4096 1 0|Invalid argument"
	"gtsc_selftest bad 4096 0 0|Invalid argument"
	"gtsc_selftest bad 1048576 1024 0|Argument list too long"
	"gtsc_selftest bad 4096 4 8|Invalid argument"
	"gtsc_selftest global 4096 4 0|File exists"
	"gtsc_selftest/x bad 4096 4 0|Invalid argument"
	"gtsc_other .. 4096 4 0|Invalid argument"
)
ok=0
for entry in "${bad_setups[@]}"; do
	err=$( (echo "setup ${entry%|*}" > $CTL) 2>&1 )
	case $err in *"${entry#*|}"*) ;; *) ok=1; echo "# setup ${entry%|*}: $err" ;; esac
done
[ ! -e $R/bad ] && [ ! -e $D/gtsc_other ] && [ -f $R/global/trace0 ] || ok=1
rt_result $ok "${#bad_setups[@]} bad setups fail with their errno and make nothing"

# A reader holding trace0 open reads on after its channel is gone.
ctl setup gtsc_selftest gone 4096 2 2
echo start > $R/gone/state
ctl write gone 4 64
exec 3< $R/gone/trace0
ctl cleanup gone
[ ! -e $R/gone ]
rt_result $? "cleanup removes the channel's directory"
[ "$(seqs <&3 | tr '\n' ' ')" = "0 1 2 3 " ]
rt_result $? "an open reader still reads the records"
exec 3<&-

ctl cleanup percpu
ctl cleanup global
ctl cleanup flight
[ ! -e $R ]
rt_result $? "the root goes with its last channel"
rmmod gtsc_test_provider
rt_exit
