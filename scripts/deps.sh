#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything fairlab needs on a Debian 12 machine and unpack the
# target kernel (image, modules, scheduler sources) into the ignored cache.
#
# Pinned: Debian linux-image-6.1.0-57-amd64 / linux-source-6.1, package
# version 6.1.192-3.  Idempotent: a second run installs and downloads nothing.
set -euo pipefail

KREL=6.1.0-57-amd64
KPKGVER=6.1.192-3
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${FAIRLAB_CACHE:-$top/.cache}
stamp=$cache/deps-$KPKGVER.done

PKGS=(linux-headers-$KREL qemu-system-x86 busybox-static trace-cmd
      libtracecmd-dev libtraceevent-dev libtracefs-dev rt-tests stress-ng kmod gnuplot-nox
      cpio gzip pkg-config gcc make binutils file time bc libclang-rt-14-dev
      clang valgrind)

say() { printf 'deps: %s\n' "$*" >&2; }
die() { printf 'deps: error: %s\n' "$*" >&2; exit 1; }

if [ -f "$stamp" ] && [ -e "$cache/kernel/boot/vmlinuz-$KREL" ] &&
   [ -f "$cache/src/kernel/sched/sched.h" ]; then
	missing=()
	for p in "${PKGS[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && exit 0
fi

need_root() {
	[ "$(id -u)" = 0 ] && { "$@"; return; }
	command -v sudo >/dev/null || die "must run as root (or have sudo) to install: $*"
	sudo "$@"
}

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	say "installing: ${missing[*]}"
	need_root apt-get update -q >&2
	need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
fi

# The headers must be exactly the pinned build: the port is written for it.
hv=$(dpkg-query -W -f='${Version}' "linux-headers-$KREL")
[ "$hv" = "$KPKGVER" ] ||
	die "linux-headers-$KREL is version $hv, fairlab's 6.1 port needs $KPKGVER"

mkdir -p "$cache/deb"
fetch() { # package version
	local f
	f=$(ls "$cache/deb/$1"_"$2"_*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$f" ]; then
		say "downloading $1=$2"
		(cd "$cache/deb" && apt-get download "$1=$2" >&2) ||
			die "cannot download $1=$2 (is 'apt-get update' done and is bookworm-security reachable?)"
		f=$(ls "$cache/deb/$1"_"$2"_*.deb | head -n1)
	fi
	local v
	v=$(dpkg-deb -f "$f" Version)
	[ "$v" = "$2" ] || die "$f is version $v, expected $2"
	echo "$f"
}

img=$(fetch "linux-image-$KREL" "$KPKGVER")
if [ ! -e "$cache/kernel/boot/vmlinuz-$KREL" ]; then
	say "unpacking $(basename "$img")"
	rm -rf "$cache/kernel.tmp" && mkdir -p "$cache/kernel.tmp"
	dpkg-deb -x "$img" "$cache/kernel.tmp"
	rm -rf "$cache/kernel" && mv "$cache/kernel.tmp" "$cache/kernel"
fi

src=$(fetch linux-source-6.1 "$KPKGVER")
if [ ! -f "$cache/src/kernel/sched/sched.h" ]; then
	say "unpacking kernel/sched from $(basename "$src")"
	rm -rf "$cache/src.tmp" && mkdir -p "$cache/src.tmp"
	dpkg-deb --fsys-tarfile "$src" |
		tar -x -O --wildcards './usr/src/linux-source-6.1.tar.xz' |
		tar -xJ -C "$cache/src.tmp" --strip-components=1 \
			--wildcards 'linux-source-6.1/kernel/sched/*' \
			'linux-source-6.1/kernel/workqueue_internal.h'
	rm -rf "$cache/src" && mv "$cache/src.tmp" "$cache/src"
fi

touch "$stamp"
say "ready: kernel $KREL ($KPKGVER) in $cache"
