#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything fairlab needs on a Debian 12 machine and unpack, for
# every port (module/port/*/kernel.conf), the kernel it is written for into
# the ignored cache:
#   .cache/kernel-$KREL/   the image package (vmlinuz, its modules)
#   .cache/src-$KREL/      kernel/sched/ of its linux-source package
#   .cache/deps-$KPKGVER.done   one stamp per build
# and install its linux-headers package.  Every version is pinned by the
# port's kernel.conf.  Idempotent: a second run installs and downloads
# nothing.
#
#   scripts/deps.sh             every port
#   scripts/deps.sh KREL...     only these builds
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${FAIRLAB_CACHE:-$top/.cache}

TOOLS=(qemu-system-x86 busybox-static trace-cmd
      libtracecmd-dev libtraceevent-dev libtracefs-dev rt-tests stress-ng kmod gnuplot-nox
      cpio gzip pkg-config gcc make binutils file time bc libclang-rt-14-dev
      clang valgrind)

say() { printf 'deps: %s\n' "$*" >&2; }
die() { printf 'deps: error: %s\n' "$*" >&2; exit 1; }

# conf_get FILE KEY
conf_get() { sed -n "s/^$2=//p" "$1"; }

confs=()
for c in "$top"/module/port/*/kernel.conf; do
	k=$(conf_get "$c" KREL)
	if [ $# -gt 0 ]; then
		want=0
		for a in "$@"; do [ "$a" = "$k" ] && want=1; done
		[ $want = 1 ] || continue
	fi
	confs+=("$c")
done
[ ${#confs[@]} -gt 0 ] || die "no port for ${*:-any kernel} (module/port/*/kernel.conf)"

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

ready() { # conf: everything of this build is in place
	local k v
	k=$(conf_get "$1" KREL); v=$(conf_get "$1" KPKGVER)
	[ -f "$cache/deps-$v.done" ] && [ -e "$cache/kernel-$k/boot/vmlinuz-$k" ] &&
		[ -f "$cache/src-$k/kernel/sched/sched.h" ] && installed "linux-headers-$k"
}

pkgs=("${TOOLS[@]}")
allready=1
for c in "${confs[@]}"; do
	pkgs+=("linux-headers-$(conf_get "$c" KREL)=$(conf_get "$c" KPKGVER)")
	ready "$c" || allready=0
done
missing=()
for p in "${TOOLS[@]}"; do installed "$p" || missing+=("$p"); done
for c in "${confs[@]}"; do
	installed "linux-headers-$(conf_get "$c" KREL)" ||
		missing+=("linux-headers-$(conf_get "$c" KREL)=$(conf_get "$c" KPKGVER)")
done
[ $allready = 1 ] && [ ${#missing[@]} -eq 0 ] && exit 0

need_root() {
	[ "$(id -u)" = 0 ] && { "$@"; return; }
	command -v sudo >/dev/null || die "must run as root (or have sudo) to install: $*"
	sudo "$@"
}

if [ ${#missing[@]} -gt 0 ]; then
	say "installing: ${missing[*]}"
	need_root apt-get update -q >&2
	need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
fi

mkdir -p "$cache/deb"
fetch() { # package version -> path of its .deb in the cache
	local f v
	f=$(ls "$cache/deb/$1"_"${2/:/%3a}"_*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$f" ]; then
		say "downloading $1=$2"
		(cd "$cache/deb" && apt-get download "$1=$2" >&2) ||
			die "cannot download $1=$2 (is 'apt-get update' done and is bookworm-security reachable?)"
		f=$(ls "$cache/deb/$1"_*.deb | head -n1)
	fi
	v=$(dpkg-deb -f "$f" Version)
	[ "$v" = "$2" ] || die "$f is version $v, expected $2"
	echo "$f"
}

for c in "${confs[@]}"; do
	KREL=$(conf_get "$c" KREL)
	KPKGVER=$(conf_get "$c" KPKGVER)
	KSRCPKG=$(conf_get "$c" KSRCPKG)
	ready "$c" && continue

	# The headers must be exactly the pinned build: the port is written for it.
	hv=$(dpkg-query -W -f='${Version}' "linux-headers-$KREL")
	[ "$hv" = "$KPKGVER" ] ||
		die "linux-headers-$KREL is version $hv, fairlab's port ($c) needs $KPKGVER"

	kdir=$cache/kernel-$KREL
	img=$(fetch "linux-image-$KREL" "$KPKGVER")
	if [ ! -e "$kdir/boot/vmlinuz-$KREL" ]; then
		say "unpacking $(basename "$img")"
		rm -rf "$kdir.tmp" && mkdir -p "$kdir.tmp"
		dpkg-deb -x "$img" "$kdir.tmp"
		rm -rf "$kdir" && mv "$kdir.tmp" "$kdir"
	fi

	sdir=$cache/src-$KREL
	src=$(fetch "$KSRCPKG" "$KPKGVER")
	if [ ! -f "$sdir/kernel/sched/sched.h" ]; then
		say "unpacking kernel/sched from $(basename "$src")"
		rm -rf "$sdir.tmp" && mkdir -p "$sdir.tmp"
		dpkg-deb --fsys-tarfile "$src" |
			tar -x -O --wildcards "./usr/src/$KSRCPKG.tar.xz" |
			tar -xJ -C "$sdir.tmp" --strip-components=1 \
				--wildcards "$KSRCPKG/kernel/sched/*" \
				"$KSRCPKG/kernel/workqueue_internal.h"
		rm -rf "$sdir" && mv "$sdir.tmp" "$sdir"
	fi

	touch "$cache/deps-$KPKGVER.done"
	say "ready: kernel $KREL ($KPKGVER) in $cache"
done
