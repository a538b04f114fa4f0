#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: every allocator entry point kmemtrace_pattern.ko's
#              run_paths uses (node, bulk, RCU, vmalloc, kvmalloc, exact
#              and split pages, folios) is recorded with its caller's call
#              site and node, and every free pairs with its allocation
#              (kmemtrace_sites, on the raw records)
# requires: CONFIG_KMEMTRACE, kmemtrace_pattern.ko

. "$(dirname "$0")/ringtrace_lib.sh"
. "$(dirname "$0")/kmemtrace_lib.sh"
[ "$(id -u)" -eq 0 ] || rt_skip "must be root"
[ -d $KMEMTRACE ] || rt_skip "no $KMEMTRACE (CONFIG_KMEMTRACE)"
kt_load_pattern
exec timeout "$(rt_scaled 240)" "$(dirname "$0")/kmemtrace_sites"
