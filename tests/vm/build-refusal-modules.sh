#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build copies of fairlab.ko that claim to be written for another kernel
# build, for tests/vm/scenarios/port-refusal: one expecting another
# release, one expecting another size of find_idlest_group.  Same sources,
# same check code; only the port's identity constants differ.
# Also three small livepatches of one of fairlab's functions, for
# tests/vm/scenarios/klp-others (tests/vm/klp-others/klp_test.c).
#   tests/vm/build-refusal-modules.sh  ->  build/refusal/fairlab-{release,size}.ko,
#                                         build/refusal/fl_test_{other,replace,handover}.ko
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

# Other livepatches of one of fairlab's functions (klp-others scenario).
d=$out/klp-others
rm -rf "$d" && mkdir -p "$d"
cp "$top"/tests/vm/klp-others/* "$d/"
make -s -C "$KDIR" M="$d" FAIRLAB_MODULE_DIR="$top/module" modules \
	>"$d/build.log" 2>&1 || { cat "$d/build.log" >&2; exit 1; }
for m in fl_test_other fl_test_replace fl_test_handover; do
	cp "$d/$m.ko" "$out/$m.ko"
done
echo "built $out/fl_test_{other,replace,handover}.ko"
