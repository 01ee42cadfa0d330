#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the tools a fairlab target needs on a Debian 12 machine (apt,
# --no-install-recommends), and, for the tests, download the kernel builds
# they boot.  Never installs or removes a kernel package (linux-image,
# linux-headers, linux-kbuild): every kernel build is downloaded as .deb
# files and unpacked under .cache/ by scripts/fetch-build.sh.
#
#   scripts/deps.sh [GROUP] [--check | --tools | --print-packages | --print-builds]
#
# GROUP (default: check):
#   tool     build the fairlab tool and its plugin (make userspace)
#   modules  build the kernel modules (make modules)
#   vm       boot scenarios in QEMU (run-scenario.sh, make demo)
#   check    all of the above and what the tests use (make check), and the
#            kernel builds make check boots: each port's own build and one
#            more served build per series (its smoke build)
#
# --check            install and download nothing: name each missing package
#                    and what needs it; exit 1 if any is missing
# --tools            install the missing packages, download no kernel build
#                    (what make modules, userspace, demo... run first)
# --print-packages   the apt packages of GROUP, one per line
# --print-builds     the kernel builds GROUP downloads, one per line
#
# Idempotent: a second run installs and downloads nothing.
#
# examples:
#   scripts/deps.sh tool            (make deps-tool)
#   scripts/deps.sh vm --check
#   scripts/deps.sh --print-packages | xargs apt-get -s install --no-install-recommends
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ports.sh"

say() { printf 'deps: %s\n' "$*" >&2; }
die() { printf 'deps: error: %s\n' "$*" >&2; exit 1; }

# "package:what needs it", per group
TOOL=(gcc:"C compiler (tools/)" make:make pkg-config:"pkg-config (tools/Makefile)"
	libtracecmd-dev:"trace-cmd library (tools/)"
	libtraceevent-dev:"traceevent library (tools/, plugin)"
	libtracefs-dev:"tracefs library (trace-cmd.h includes tracefs.h)"
	libzstd-dev:"zstd library (tools/: reads zstd-compressed trace.dat)")
MODULES=(gcc-12:"the compiler Debian 12 kernels are built with" make:make
	binutils:"strip, objdump (modules)" xz-utils:"xz (linux-source, .ko.xz)"
	dwarves:"pahole (6.12's headers ship a vmlinux: kbuild runs pahole -J on each module)"
	dpkg:"dpkg-deb (scripts/fetch-build.sh)" apt:"apt-get download (scripts/fetch-build.sh)")
VM=(qemu-system-x86:"qemu-system-x86_64 (tests/vm)" busybox-static:"static busybox (VM initramfs)"
	trace-cmd:"trace-cmd (in the VM)" rt-tests:"hackbench (in the VM)"
	stress-ng:"stress-ng (in the VM)" cpio:"cpio (VM initramfs)" gzip:gzip
	xz-utils:"xz (.ko.xz modules)" binutils:"strip (VM modules)" file:"file (tests/vm)"
	kmod:"modinfo (tests)")
CHECK=(clang:"clang (fuzz harness, tools-all)" libclang-rt-14-dev:"libFuzzer runtime (tools-all)"
	valgrind:"valgrind (unit tests)" gnuplot-nox:"gnuplot (plot tests)" time:"/usr/bin/time (tests)"
	bc:"bc (tests)" python3:"python3 (tests)" zstd:"zstd (tests/unit/tools-zstd.t: a recompressed chunk)"
	python3-pyelftools:"pyelftools (tests/unit/calls.t: scripts/surface.py on its fixture)")

group=check
mode=install
for a in "$@"; do
	case $a in
	tool|modules|vm|check) group=$a ;;
	--check) mode=check ;;
	--tools) mode=tools ;;
	--print-packages) mode=packages ;;
	--print-builds) mode=builds ;;
	-h|--help) sed -n '3,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "deps: unknown argument '$a' (see --help)" >&2; exit 2 ;;
	esac
done

case $group in
tool) entries=("${TOOL[@]}") ;;
modules) entries=("${MODULES[@]}") ;;
vm) entries=("${VM[@]}") ;;
check) entries=("${TOOL[@]}" "${MODULES[@]}" "${VM[@]}" "${CHECK[@]}") ;;
esac
# one line per package, first mention kept
mapfile -t entries < <(printf '%s\n' "${entries[@]}" | awk -F: '!seen[$1]++')

# The kernel builds make check boots: each ready port's own build and its
# smoke build.
builds() {
	local p
	[ "$group" = check ] || return 0
	for p in $(fl_ready_ports); do
		fl_port_get "$p" KREL
		fl_smoke_build "$p"
	done
}

case $mode in
packages) printf '%s\n' "${entries[@]%%:*}"; exit 0 ;;
builds) builds; exit 0 ;;
esac

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
missing=()
for e in "${entries[@]}"; do
	installed "${e%%:*}" || missing+=("$e")
done

if [ ${#missing[@]} -gt 0 ]; then
	for e in "${missing[@]}"; do say "missing package ${e%%:*}: ${e#*:}"; done
	if [ "$mode" = check ]; then
		t=deps-$group; [ "$group" != check ] || t=deps
		say "'make $t' (or scripts/deps.sh $group) installs them"
		exit 1
	fi
	pkgs=("${missing[@]%%:*}")
	sudo=
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || die "must run as root (or have sudo) to install: ${pkgs[*]}"
		sudo=sudo
	fi
	say "installing: ${pkgs[*]}"
	$sudo apt-get update -q >&2
	# what tests/unit/deps-host.t checks, once more before the real thing:
	# no kernel package installed or removed, not even as a dependency
	k=$(apt-get -s install --no-install-recommends "${pkgs[@]}" |
		sed -n 's/^\(Inst\|Remv\) \(linux-\(image\|headers\|kbuild\)-[^ ]*\).*/\1 \2/p' | paste -sd' ')
	[ -z "$k" ] || die "installing ${pkgs[*]} would change the host's kernel packages ($k); nothing installed"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install --no-install-recommends -y -q \
		"${pkgs[@]}" >&2
fi
[ "$mode" = install ] || exit 0

for k in $(builds); do
	"$top/scripts/fetch-build.sh" "$k" image headers source
done
