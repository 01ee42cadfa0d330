# SPDX-License-Identifier: GPL-2.0
#
# fairlab top-level build.
#   make            modules (module/*.ko) and userspace tools
#   make deps       install packages, fetch the pinned Debian kernel (idempotent)
#   make check      unit tests and VM integration tests; ends "N passed, N failed"
#   make demo       the policy comparison experiment in a QEMU VM
#   make surface    regenerate module/port/*/surface.txt from Debian's -dbg
#                   vmlinux (KERNEL=6.12 for one port; fetches ~1 GB each)
#
# KDIR defaults to the Debian 6.1.0-57 headers the 6.1 port is written for;
# `make KDIR=/lib/modules/$(uname -r)/build` builds for a host kernel (the
# module then refuses to load unless that kernel is the ported one).

KREL      ?= 6.1.0-57-amd64
KDIR      ?= /usr/src/linux-headers-$(KREL)
CACHE     ?= $(CURDIR)/.cache
SCHED_SRC ?= $(CACHE)/src
DEPS_STAMP = $(CACHE)/deps-6.1.192-3.done

export KREL CACHE

.PHONY: all modules userspace deps check check-unit check-vm demo \
	bench-module bench-profile bench-analyzer install clean refusal-modules \
	surface probe-module

all: modules userspace

$(DEPS_STAMP):
	@scripts/deps.sh

deps:
	@scripts/deps.sh

modules: $(DEPS_STAMP)
	$(MAKE) -C $(KDIR) M=$(CURDIR) FAIRLAB_SCHED_SRC=$(SCHED_SRC) modules

userspace: $(DEPS_STAMP)
	$(MAKE) -C tools

# Copies of fairlab.ko that expect another kernel build (port-refusal test).
refusal-modules: modules
	@tests/vm/build-refusal-modules.sh

# kprobe hit counter for tests/vm/scenarios/surface-writes
probe-module: $(DEPS_STAMP)
	@tests/vm/build-probe-module.sh

check: all refusal-modules probe-module
	@tests/run.sh

check-unit: all
	@tests/run.sh --unit-only

check-vm: all refusal-modules probe-module
	@tests/run.sh --vm-only

demo: all
	@tests/demo/demo.sh

bench-module: all
	@tests/bench/bench-module.sh

bench-profile: all
	@tests/bench/bench-profile.sh

bench-analyzer: all
	@tests/bench/bench-analyzer.sh

# The patch surface (functions a port must replace, tg->load_avg write
# sites) of each port's kernel build; the committed output is what CI uses.
surface:
	@scripts/surface.sh $(KERNEL)

install: userspace
	$(MAKE) -C tools install

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	-$(MAKE) -C tools clean
	rm -rf build
