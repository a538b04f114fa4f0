// SPDX-License-Identifier: GPL-2.0
/*
 * The program the kmemtrace benchmark's fork/exec loop runs: linked
 * statically and run from tmpfs, so that exec costs the kernel's own work
 * (the allocations kmemtrace records) and not 9p reads of a dynamic
 * loader and libc.
 */
int main(void)
{
	return 0;
}
