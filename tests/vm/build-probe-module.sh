#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build tests/vm/probe-count/probe_count.ko (kprobe hit counter for
# tests/vm/scenarios/surface-writes) for the kernel under test, out of the
# source tree:  tests/vm/build-probe-module.sh -> build/probe-count/<KREL>/probe_count.ko
# (KREL, default 6.1.0-57-amd64, picks the headers: KDIR, default the
# build's installed headers, else those scripts/fetch-build.sh unpacked)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/ports.sh"
KREL=${KREL:-6.1.0-57-amd64}
[ -n "${KDIR:-}" ] || KDIR=$(fl_kdir "$KREL")
[ -n "$KDIR" ] || { "$top/scripts/fetch-build.sh" "$KREL" headers; KDIR=$(fl_kdir "$KREL"); }
out=$top/build/probe-count/$KREL
src=$top/tests/vm/probe-count
mkdir -p "$out"
cp "$src/probe_count.c" "$src/Kbuild" "$out/"
make -s -C "$KDIR" M="$out" modules >"$out/build.log" 2>&1 ||
	{ cat "$out/build.log" >&2; exit 1; }
! grep -q 'warning:' "$out/build.log" || { cat "$out/build.log" >&2; exit 1; }
echo "built ${out#$top/}/probe_count.ko"
