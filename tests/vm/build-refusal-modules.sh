#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build copies of fairlab.ko that claim to be written for another kernel
# build, for tests/vm/scenarios/port-refusal: one expecting another
# release, one expecting another size of find_idlest_group.  Same sources,
# same check code; only the port's identity constants differ.
#   tests/vm/build-refusal-modules.sh  ->  build/refusal/{release,size}/fairlab.ko
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
KDIR=${KDIR:-/usr/src/linux-headers-${KREL:-6.1.0-57-amd64}}
out=$top/build/refusal

build() { # name defines
	local d=$out/$1
	rm -rf "$d" && mkdir -p "$d"
	(cd "$top" && find module \( -name '*.c' -o -name '*.h' -o -name Kbuild \) \
		-print0 | cpio -0 -pdm --quiet "$d") 
	cp "$top/Kbuild" "$d/"
	make -s -C "$KDIR" M="$d" FAIRLAB_SCHED_SRC="$top/.cache/src" \
		FAIRLAB_PORT_DEFINES="$2" modules >"$d/build.log" 2>&1 ||
		{ cat "$d/build.log" >&2; exit 1; }
	cp "$d/module/fairlab.ko" "$out/fairlab-$1.ko"
}
build release '-DFL_PORT_RELEASE=\"6.1.0-99-amd64\"'
build size '-DFL_PORT_SIZE_SKEW=0x10'
echo "built $out/fairlab-release.ko $out/fairlab-size.ko"
