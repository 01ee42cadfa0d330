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
# a build no port serves (module/port/<series>/builds.tsv), naming why
# and the served builds of the nearest series.
#
# The headers are those of the same build installed on the host (same
# package version), else unpacked under .cache/headers-<release>/ by
# scripts/fetch-build.sh, which runs when they or the sources are missing.
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
# Served: a port's own build, or a "served" line of its builds.tsv.
why=$(fl_refusal "$rel")
if [ -n "$why" ]; then
	echo "fairlab: $why${kdir:+ (headers at $kdir)}" >&2
	exit 1
fi
port=$(fl_series_of "$rel")
cache=${CACHE:-$top/.cache}
# The build's headers (installed ones of the same version, else unpacked
# in the cache: fetched when missing) and its kernel/sched sources.
if [ -z "$kdir" ]; then
	kdir=$(fl_kdir "$rel")
	if [ -z "$kdir" ]; then
		CACHE=$cache "$top/scripts/fetch-build.sh" "$rel" headers
		kdir=$(fl_kdir "$rel")
	fi
fi
hrel=$(krel_of "$kdir")
if [ "$hrel" != "$rel" ]; then
	echo "fairlab: headers at $kdir are for kernel '${hrel:-none}', port $port needs $rel (scripts/fetch-build.sh $rel headers unpacks them)" >&2
	exit 1
fi
src=$cache/src-$rel
[ -f "$src/kernel/sched/sched.h" ] || CACHE=$cache "$top/scripts/fetch-build.sh" "$rel" source

out=${out:-$top/build/kmod/$rel}
mkdir -p "$out"
# The symlink tree: new files linked, links to deleted files removed.
cp -rsf "$top/module" "$out/"
ln -sf "$top/Kbuild" "$out/Kbuild"
find "$out/module" -xtype l -delete
# The build's release, version string, function sizes and variants, from
# its line of builds.tsv (fl_check_port() compares them at load).
# Replaced only when it changes, so that a rebuild of the same build
# recompiles nothing (make check-builds after make modules).
"$top/scripts/port-build-header.sh" "$rel" >"$out/module/port_build.h.new"
if cmp -s "$out/module/port_build.h.new" "$out/module/port_build.h"; then
	rm -f "$out/module/port_build.h.new"
else
	mv -f "$out/module/port_build.h.new" "$out/module/port_build.h"
fi
make -s -C "$kdir" M="$out" FAIRLAB_PORT="$port" FAIRLAB_SCHED_SRC="$src" \
	FAIRLAB_PORT_DEFINES="$defines" modules
