#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: kmemtrace record of kmemtrace_pattern.ko's known pattern:
#              the report's line for each of its functions has exactly
#              the allocations, frees, bytes, fragmentation, cross-CPU
#              frees and live objects it made, its deliberate leak is
#              listed with its caller, and a report of the saved session
#              says the same
# requires: /sys/kernel/debug/kmemtrace tool:kmemtrace module:kmemtrace_pattern

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"
kt_load_pattern
rt_plan 10

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo 0 > $KMEMTRACE/enabled
out=$("$KT" record -g -n 1000000 -o "$dir/session" -- sh -c "echo 1 > $PATTERN/run" 2>"$dir/err")
rc=$?
[ $rc -eq 0 ] && [ "$(cat $KMEMTRACE/enabled)" = 0 ]
rt_result $? "kmemtrace record -g -o DIR -- COMMAND exits 0 and leaves recording off (exit $rc: $(cat "$dir/err"))"

# row FUNCTION TYPE: the figures of its line, single-spaced.
row() {
	grep -E "  $2 +$1 \[kmemtrace_pattern\]$" <<<"$out" |
		awk '{ print $1, $2, $3, $4, $5, $6, $7, $8 }'
}

xcpu=4
[ "$(nproc)" -gt 1 ] || xcpu=0
# A slab object takes its slab's stride (s->size, sysfs slab_size): a
# free pointer placed after the object, KASAN's and SLUB debugging's
# metadata come on top of the size class or object size.
# slab N CACHE REQUESTED: "allocated frag%" of N objects of CACHE.
slab() {
	local stride

	stride=$(cat "/sys/kernel/slab/$2/slab_size" 2>/dev/null)
	awk -v a=$(($1 * ${stride:-0})) -v r="$3" \
		'BEGIN { printf "%d %.1f%%", a, a ? 100 * (a - r) / a : 0 }'
}
#      function            type    allocs frees req alloc frag x-cpu live live-bytes
while read -r fn type want; do
	got=$(row "$fn" "$type")
	[ "$got" = "$want" ]
	rt_result $? "$fn ($type): '$got', want '$want'"
done <<EOT
pattern_kmalloc     kmalloc 16 16 1600 $(slab 16 kmalloc-128 1600) 0 0 0
pattern_cache       cache   8 8 1600 $(slab 8 kmemtrace_pattern 1600) 0 0 0
pattern_large       kmalloc 4 4 80000 131072 39.0% 0 0 0
pattern_pages       pages   2 2 16384 16384 0.0% 0 0 0
pattern_alloc_pages pages   3 3 12288 12288 0.0% 0 0 0
pattern_cross_cpu   kmalloc 4 4 128 $(slab 4 kmalloc-32 128) $xcpu 0 0
pattern_leak        kmalloc 1 0 64 $(slab 1 kmalloc-64 64) 0 1 $(slab 1 kmalloc-64 64 | cut -d' ' -f1)
EOT

leak_alloc=$(slab 1 kmalloc-64 64 | cut -d' ' -f1)
grep -qE "^0x[0-9a-f]{16} kmalloc +64 +$leak_alloc +[0-9]+  pattern_leak\+0x[0-9a-f]+ \[kmemtrace_pattern\]\$" <<<"$out"
rt_result $? "the leak is listed live at the end with its call site"

saved=$("$KT" report -g -n 1000000 "$dir/session" 2>&1)
[ "$saved" = "$out" ]
rt_result $? "kmemtrace report -g of the saved session prints the same report"
[ $rt_fails -eq 0 ] || echo "$out" | sed 's/^/# /'
rt_exit
