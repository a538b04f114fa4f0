#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: every allocator entry point kmemtrace_pattern.ko's
#              run_paths uses (node, bulk, RCU, vmalloc, kvmalloc, exact
#              and split pages, folios) is recorded with its caller's call
#              site and node, and every free pairs with its allocation
#              (kmemtrace_sites, on the raw records)
# requires: /sys/kernel/debug/kmemtrace module:kmemtrace_pattern
# requires: tool:kmemtrace_sites cmd:timeout

. "$(dirname "$0")/ringtrace_lib.sh"
exec timeout "$(rt_scaled 240)" "$(dirname "$0")/kmemtrace_sites"
