#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds fairlab_trace.ko and fairlab.ko for kernel KREL whose headers are
# in KDIR, with the port of its series (dkms.conf's MAKE):
#
#   dkms-build.sh [--clean] KREL KDIR
#
# A build its port does not serve (module/port/<series>/builds.tsv) is
# refused in one line naming the reason and the served builds.  The
# module is compiled with the build's line of that table
# (scripts/port-build-header.sh: release, version string, sizes,
# variants) and with the kernel/sched headers of the build's own Debian
# version, in sched/<version>/.
set -eu
top=$(cd "$(dirname "$0")" && pwd)
. "$top/scripts/ports.sh"
clean=
[ "${1:-}" = --clean ] && { clean=1; shift; }
rel=${1:?usage: dkms-build.sh [--clean] KREL KDIR}
kdir=${2:?usage: dkms-build.sh [--clean] KREL KDIR}
if [ -n "$clean" ]; then
	[ -d "$kdir" ] && make -s -C "$kdir" M="$top" clean || true
	exit 0
fi
series=$(fl_series_of "$rel")
port=
[ -n "$series" ] && [ -f "$top/module/port/$series/port.c" ] && port=$series
if [ -z "$port" ]; then
	# the builds of the versions whose kernel/sched sources it carries
	# shellcheck disable=SC2046 # a package version a word
	echo "fairlab: no port for kernel $rel; supported builds: $(fl_supported $(ls "$top/sched" 2>/dev/null))" >&2
	exit 1
fi
why=$(fl_refusal "$rel")
if [ -n "$why" ]; then
	echo "fairlab: $why" >&2
	exit 1
fi
kv=$(fl_build_pkgver "$rel")
if [ ! -f "$top/sched/$kv/kernel/sched/sched.h" ]; then
	echo "fairlab: this fairlab-dkms was packaged without the scheduler sources of Debian $kv (kernel $rel); rebuild it with them: scripts/fetch-build.sh $rel source && make deb" >&2
	exit 1
fi
"$top/scripts/port-build-header.sh" "$rel" >"$top/module/port_build.h"
exec make -j"$(nproc)" -C "$kdir" M="$top" FAIRLAB_PORT="$port" FAIRLAB_SCHED_SRC="$top/sched/$kv" modules
