# SPDX-License-Identifier: GPL-2.0
#
# ringtrace entry points.  Every target installs what it needs first
# (scripts/setup); see README.md.

.PHONY: all run test stress torture bench check kernel kernel-run kernel-test shell series tools help
.DEFAULT_GOAL := help

help:
	@echo "make run      build the run kernel, boot it and run the demo"
	@echo "make test     checks, test kernel, series, host tests, KUnit and kselftests in the VM"
	@echo "make stress   long stress run of the ring buffer (STRESS_SECONDS=180 per case)"
	@echo "make torture  the race kselftests for longer, 4 vCPUs (TORTURE_SECONDS=600 in all)"
	@echo "make bench    buffer, kprobe, kmemtrace, probe hit, flood and idle reader benchmarks, ringtrace vs upstream"
	@echo "make check    checkpatch --strict, sparse, W=1, the layering (no circle) and kernel-doc on our code"
	@echo "make kernel   build the run and test kernels and their kselftests (build/out-run, build/out-test)"
	@echo "make shell    an interactive shell in the run kernel's VM"
	@echo "make series   export the subsystem as a quilt series into build/series"
	@echo "make tools    the user-space tools (kmemtrace, tracedat) into build/tools"

all: kernel

# Each kernel with its kselftests built, so that "make kselftest
# TARGETS=ringtrace" in its VM only runs them (README, "By hand").
kernel:
	@scripts/build-kernel run all kselftest-all TARGETS=ringtrace
	@scripts/build-kernel test all kselftest-all TARGETS=ringtrace

kernel-run:
	@scripts/build-kernel run

kernel-test:
	@scripts/build-kernel test

# User-space tools for the VM, built on the host into build/tools.
tools:
	@scripts/setup
	@mkdir -p build/tools
	@$(MAKE) -s -C tools/ringtrace/kmemtrace OUTPUT=$(CURDIR)/build/tools
	@$(MAKE) -s -C tools/ringtrace/tracedat OUTPUT=$(CURDIR)/build/tools \
		$(CURDIR)/build/tools/tracedat

run: kernel-run tools
	@rm -f build/demo.dat
	@scripts/run-vm -k run -- scripts/demo
	@printf '\n== on the host: the session the VM recorded, by tracedat and by trace-cmd\n'
	@build/tools/tracedat report build/demo.dat | head -8
	@trace-cmd report -i build/demo.dat 2>/dev/null | head -9

shell: kernel-run
	@scripts/run-vm -k run

test:
	@scripts/test

stress:
	@scripts/stress $(STRESS_SECONDS)

torture:
	@scripts/torture $(TORTURE_SECONDS)

bench:
	@scripts/bench $(or $(BENCH_WRITES),100000) $(or $(BENCH_ONLY),all)

check:
	@scripts/setup
	@scripts/check

series:
	@scripts/export-series
