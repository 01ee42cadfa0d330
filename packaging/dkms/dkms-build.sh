#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Builds fairlab_trace.ko and fairlab.ko for kernel KREL whose headers are
# in KDIR, with the port written for that build (dkms.conf's MAKE):
#
#   dkms-build.sh [--clean] KREL KDIR
#
# A kernel without a port is refused in one line naming the supported
# builds.  Each port's kernel/sched headers (from the linux-source of its
# build) are in sched/PORT/.
set -eu
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ports.sh"
clean=
[ "${1:-}" = --clean ] && { clean=1; shift; }
rel=${1:?usage: dkms-build.sh [--clean] KREL KDIR}
kdir=${2:?usage: dkms-build.sh [--clean] KREL KDIR}
if [ -n "$clean" ]; then
	[ -d "$kdir" ] && make -s -C "$kdir" M="$top" clean || true
	exit 0
fi
port=$(fl_port_of "$rel")
if [ -z "$port" ]; then
	echo "fairlab: no port for kernel $rel; supported builds: $(fl_supported)" >&2
	exit 1
fi
exec make -j"$(nproc)" -C "$kdir" M="$top" FAIRLAB_PORT="$port" FAIRLAB_SCHED_SRC="$top/sched/$port" modules
