# SPDX-License-Identifier: GPL-2.0
#
# fairlab top-level build.
#   make            modules for every supported kernel, and the fairlab tool
#   make KERNEL=6.12  (or KREL=6.12.117+deb12-amd64) modules for one kernel
#   make deps       install what make check needs (tools only, apt
#                   --no-install-recommends) and download the kernel builds
#                   it boots into .cache/ (never installs a kernel package)
#   make deps-tool  only what building the fairlab tool needs (deps-modules,
#                   deps-vm: building the modules, booting VMs)
#   make check      unit tests, and VM integration tests on every kernel, and
#                   the smoke scenario on one more served build per series;
#                   ends "N passed, N failed"
#   make check-builds [BUILDS="KREL ..."] [JOBS=N]
#                   every served build (module/port/*/builds.tsv): download,
#                   build, boot its own image, smoke (+ coverage) scenarios
#   make demo       the policy comparison experiment in a QEMU VM (KERNEL=6.1|6.12)
#   make demo-scale contention and error against the CPU count, 2-16 vCPUs
#   make headline   where a group's load should live: demo-scale and demo's
#                   tg VM on every port, then demo/headline.sh (about 45 min;
#                   HEADLINE_RUN=0: only the analysis of the runs already made)
#   make install    the tool, plugin, man pages, completion (PREFIX=/usr/local)
#   make deb        build/deb/fairlab_*.deb and fairlab-dkms_*.deb
#   make port-check KREL=6.12.111+deb12-cloud-amd64
#                   decide whether the port of its series serves that build
#   make port-check-all  regenerate module/port/*/builds.tsv (every build)
#   make surface   regenerate module/port/*/surface.txt from Debian's -dbg
#                   vmlinux (KERNEL=6.12 for one port; fetches ~1 GB each)
#
# The supported kernels are the ports, module/port/<port>/kernel.conf, and
# the builds each serves (module/port/<port>/builds.tsv): KREL= any of them.
# Each kernel's modules are built in build/kmod/<release>/module/, against
# the same build's installed headers or those unpacked under .cache/.
# `make KDIR=/lib/modules/$(uname -r)/build modules` builds for the kernel
# whose headers those are, and stops with one line when it has no port.

CACHE     ?= $(CURDIR)/.cache
export CACHE

# Ports with code (port.c), oldest first; their releases.
PORTS     := $(shell top=$(CURDIR); . scripts/ports.sh; fl_ready_ports)
port_krel  = $(shell sed -n 's/^KREL=//p' module/port/$(1)/kernel.conf)
ALL_KRELS := $(foreach p,$(PORTS),$(call port_krel,$(p)))
# One more served build per series, smoke-tested by make check.
SMOKE_KRELS := $(shell top=$(CURDIR); . scripts/ports.sh; for p in $(PORTS); do fl_smoke_build $$p; done)

# What to build: KDIR (its kernel), KERNEL (a port), KREL, or every port.
ifdef KDIR
KSEL      := auto
KDIR_OPT  := --kdir $(KDIR)
else ifdef KERNEL
KSEL      := $(KERNEL)
else ifdef KREL
KSEL      := $(KREL)
else
KSEL      := $(ALL_KRELS)
endif
# The kernel the demo and benchmarks boot (default: the newest port).
KERNEL    ?= $(lastword $(PORTS))
export KERNEL

# Installs the tools a target needs when some are missing (apt, root or
# sudo; a no-op when all are there), never a kernel build.
need = @scripts/deps.sh $(1) --tools

.PHONY: all modules userspace tools-all deps deps-tool deps-modules deps-vm check \
	check-unit check-vm check-layout check-builds check-stress check-audit-smp demo demo-scale headline smoke-modules \
	bench-module bench-profile bench-analyzer install clean refusal-modules \
	surface probe-module port-check port-check-all

all: modules userspace

deps:
	@scripts/deps.sh check

deps-tool deps-modules deps-vm:
	@scripts/deps.sh $(@:deps-%=%)

# (each build's headers and sources are downloaded on first use)
modules:
	$(call need,modules)
	@set -e; for k in $(KSEL); do \
		echo "  KMOD    $$k"; scripts/build-kmod.sh $(KDIR_OPT) $$k; done

smoke-modules:
	@set -e; for k in $(SMOKE_KRELS); do \
		echo "  KMOD    $$k"; scripts/build-kmod.sh $$k; done

# The fairlab tool, library and plugin (what a user runs): only the
# libraries' dev packages (deps.sh tool installs them when missing;
# tools/Makefile names any still absent), nothing of the VM set-up ...
userspace:
	$(call need,tool)
	$(MAKE) -C tools cli

# ... and the sanitizer, fuzzing and test binaries only the tests need.
tools-all:
	$(call need,check)
	$(MAKE) -C tools all

# Copies of fairlab.ko that expect another kernel build (port-refusal test).
refusal-modules: modules
	@set -e; for k in $(KSEL); do tests/vm/build-refusal-modules.sh $$k; done

# kprobe hit counter for tests/vm/scenarios/surface-writes, per kernel
probe-module:
	@set -e; for k in $(ALL_KRELS); do KREL=$$k tests/vm/build-probe-module.sh; done

check: modules smoke-modules tools-all refusal-modules probe-module
	$(call need,vm)
	@tests/run.sh

# Every served build, or BUILDS="KREL ...": fetch, build, boot, smoke and
# (where its write sites are known) coverage; a table at the end.  JOBS=N
# runs N builds at a time (one VM each).
check-builds: userspace
	$(call need,vm)
	@tests/vm/check-builds.sh $(if $(JOBS),-j $(JOBS)) $(BUILDS)

# tg-stress with the 20 load/switch/unpatch/unload cycles on 6.1 (make
# check runs 5 of them); about 12 minutes of one core
check-stress: modules smoke-modules userspace
	$(call need,vm)
	@FAIRLAB_TEST_APPEND=TG_CYCLES=20 tests/run.sh --vm-only tg-stress

# audit-bigsmp with N=16 (AUDIT_ONLINE) vCPUs online on every port
check-audit-smp: modules smoke-modules userspace
	$(call need,vm)
	@tests/vm/audit-smp.sh $(or $(AUDIT_ONLINE),16)

check-unit: tools-all
	@tests/run.sh --unit-only

check-vm: modules smoke-modules userspace refusal-modules probe-module
	$(call need,vm)
	@tests/run.sh --vm-only

# Opt-in (not in check): tg_layout on both ports (tests/vm/optin/).
check-layout: modules
	$(call need,vm)
	@tests/run.sh --vm-only tg-layout

demo: userspace
	$(call need,vm)
	@$(MAKE) --no-print-directory modules KERNEL=$(KERNEL)
	@demo/demo.sh

demo-scale: userspace
	$(call need,vm)
	@$(MAKE) --no-print-directory modules KERNEL=$(KERNEL)
	@demo/scale.sh

# The headline over every port's make demo-scale and make demo (its
# tg VM) outputs, into build/headline/.
HEADLINE_RUN ?= 1
headline: userspace
	$(call need,vm)
	@set -e; dirs=; for p in $(PORTS); do \
		r=$$(sed -n 's/^KREL=//p' module/port/$$p/kernel.conf); \
		if [ "$(HEADLINE_RUN)" != 0 ]; then \
			$(MAKE) --no-print-directory modules KERNEL=$$p; \
			KERNEL=$$p demo/scale.sh; \
			KERNEL=$$p DEMO_ONLY=tg demo/demo.sh; \
		fi; \
		dirs="$$dirs build/demo-scale/$$r build/demo/$$r"; \
	done; demo/headline.sh build/headline $$dirs

bench-module: userspace
	$(call need,vm)
	@$(MAKE) --no-print-directory modules KERNEL=$(KERNEL)
	@tests/bench/bench-module.sh

bench-profile: userspace
	$(call need,vm)
	@$(MAKE) --no-print-directory modules KERNEL=$(KERNEL)
	@tests/bench/bench-profile.sh

# FL_BENCH_SOURCE=gen: a generated recording (fl-tracegen), no VM, no modules.
bench-analyzer: userspace
	$(MAKE) -C tools $(CURDIR)/build/fl-tracegen
ifneq ($(FL_BENCH_SOURCE),gen)
	$(call need,vm)
	@$(MAKE) --no-print-directory modules KERNEL=$(KERNEL)
endif
	@tests/bench/bench-analyzer.sh

# The patch surface (functions a port must replace, tg->load_avg write
# sites) of each port's kernel build; the committed output is what CI uses.
# Whether a build is served, from its own packages (scripts/port-check.sh),
# and the table of every build of the archive (module/port/*/builds.tsv).
port-check:
	@[ -n "$(KREL)" ] || { echo "usage: make port-check KREL=<kernel release>" >&2; exit 2; }
	@scripts/port-check.sh $(KREL)

port-check-all:
	@scripts/port-check-all.sh

surface:
	@scripts/surface.sh $(if $(filter command line environment,$(origin KERNEL)),$(KERNEL))

# fairlab into PREFIX/bin (default /usr/local: on sudo's path), its
# plugin, experiment's scripts, man pages and bash completion.
install: userspace
	$(MAKE) -C tools install

clean:
	-$(MAKE) -C tools clean
	rm -rf build

# ---- Packaging (install, man, deb) ---------------------------------------
# Debian packages: fairlab (tool, plugin, experiment scripts, man pages,
# completion) and fairlab-dkms (module sources, dkms.conf), in build/deb/.
.PHONY: deb man-check
deb:
	@scripts/mkdeb.sh

# Every long option of each subcommand's --help is in its man page, and back.
man-check: userspace
	@tests/unit/docs-man.t
