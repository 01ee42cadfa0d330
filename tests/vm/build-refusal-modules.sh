#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build copies of one kernel's fairlab.ko that claim to be written for
# another build, for tests/vm/scenarios/port-refusal: one expecting another
# release, one expecting another size of the first replaced function.
# Same sources, same check code; only the port's identity constants differ.
#   tests/vm/build-refusal-modules.sh KERNEL
#     ->  build/refusal/<release>/fairlab-{release,size}.ko
# Also three small livepatches of one of fairlab's functions, for
# tests/vm/scenarios/klp-others (tests/vm/klp-others/klp_test.c):
#     ->  build/refusal/<release>/fl_test_{other,replace,handover}.ko
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/ports.sh"
rel=$(fl_kernel_krel "${1:?usage: build-refusal-modules.sh KERNEL}")
[ -n "$rel" ] || { echo "build-refusal-modules: no port for kernel $1; supported builds: $(fl_supported)" >&2; exit 2; }
out=$top/build/refusal/$rel

build() { # name defines
	local d=$out/$1
	"$top/scripts/build-kmod.sh" --out "$d" --defines "$2" "$rel" >"$out/$1.log" 2>&1 ||
		{ cat "$out/$1.log" >&2; exit 1; }
	cp "$d/module/fairlab.ko" "$out/fairlab-$1.ko"
}
mkdir -p "$out"
# A release no Debian build has: the module's identity check must catch it.
build release "-DFL_PORT_RELEASE=\\\"0.0.0-other-amd64\\\""
build size '-DFL_PORT_SIZE_SKEW=0x10'
echo "built $out/fairlab-release.ko $out/fairlab-size.ko"

# Other livepatches of one of fairlab's functions (klp-others scenario).
d=$out/klp-others
rm -rf "$d" && mkdir -p "$d"
cp "$top"/tests/vm/klp-others/* "$d/"
make -s -C "$(fl_kdir "$rel")" M="$d" FAIRLAB_MODULE_DIR="$top/module" modules \
	>"$d/build.log" 2>&1 || { cat "$d/build.log" >&2; exit 1; }
for m in fl_test_other fl_test_replace fl_test_handover; do
	cp "$d/$m.ko" "$out/$m.ko"
done
echo "built $out/fl_test_{other,replace,handover}.ko"
