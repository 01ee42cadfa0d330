#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build fairlab_trace.ko and fairlab.ko for one kernel build, with the port
# written for it, in a directory of its own:
#
#   scripts/build-kmod.sh [--kdir DIR] [--out DIR] [--defines FLAGS] KERNEL
#
# KERNEL is a port name (6.1, 6.12) or a kernel release (6.1.0-57-amd64);
# with --kdir and KERNEL "auto" the release is read from the headers.  The
# modules land in build/kmod/<release>/module/ (--out: another directory,
# e.g. the refusal test's copies, built with --defines "-DFL_PORT_...").
#
# Kbuild (before 6.13) puts objects next to their sources, so each build
# gets a tree of symlinks to the sources: the shared core is compiled once
# per port, and the two ports' objects never mix.  Refuses, in one line,
# headers of a kernel that has no port.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ports.sh"

kdir=
out=
defines=
while [ $# -gt 0 ]; do
	case $1 in
	--kdir) kdir=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--defines) defines=${2?}; shift 2 ;;
	-*) echo "build-kmod: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# = 1 ] || { echo "usage: scripts/build-kmod.sh [--kdir DIR] [--out DIR] [--defines FLAGS] KERNEL|auto" >&2; exit 2; }

# The release headers were made for (Debian's kernel.release file holds
# the upstream version, utsrelease.h the package's release).
krel_of() { sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$1/include/generated/utsrelease.h" 2>/dev/null || true; }

if [ "$1" = auto ]; then
	[ -n "$kdir" ] || { echo "build-kmod: 'auto' needs --kdir" >&2; exit 2; }
	rel=$(krel_of "$kdir")
	[ -n "$rel" ] || {
		echo "fairlab: no kernel headers at $kdir (include/generated/utsrelease.h missing); supported builds: $(fl_supported)" >&2
		exit 1
	}
else
	rel=$(fl_kernel_krel "$1")
	[ -n "$rel" ] || rel=$1
fi
port=$(fl_port_of "$rel")
for p in $(fl_ports); do	# a port being written: fetched, no code yet
	[ -z "$port" ] && [ "$(fl_port_get "$p" KREL)" = "$rel" ] && {
		echo "fairlab: the port for kernel $rel (module/port/$p/) has no code yet (no port.c); supported builds: $(fl_supported)" >&2
		exit 1
	}
done
if [ -z "$port" ]; then
	echo "fairlab: no port for kernel $rel${kdir:+ (headers at $kdir)}; supported builds: $(fl_supported)" >&2
	exit 1
fi
kdir=${kdir:-/usr/src/linux-headers-$rel}
hrel=$(krel_of "$kdir")
if [ "$hrel" != "$rel" ]; then
	echo "fairlab: headers at $kdir are for kernel '${hrel:-none}', port $port needs $rel (make deps installs them)" >&2
	exit 1
fi
src=${FAIRLAB_CACHE:-$top/.cache}/src-$rel
[ -f "$src/kernel/sched/sched.h" ] ||
	{ echo "fairlab: $src missing: run make deps" >&2; exit 1; }

out=${out:-$top/build/kmod/$rel}
mkdir -p "$out"
# The symlink tree: new files linked, links to deleted files removed.
cp -rsf "$top/module" "$out/"
ln -sf "$top/Kbuild" "$out/Kbuild"
find "$out/module" -xtype l -delete
make -s -C "$kdir" M="$out" FAIRLAB_PORT="$port" FAIRLAB_SCHED_SRC="$src" \
	FAIRLAB_PORT_DEFINES="$defines" modules
