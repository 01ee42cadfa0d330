#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Issues 2 (d), 3 (f) and 9: fairlab.ko refuses a kernel that is not the
# one its port was written for, says what it expected and what it found,
# and patches nothing.  On every kernel:
#  - two copies of this kernel's fairlab.ko built by
#    tests/vm/build-refusal-modules.sh to expect another release and
#    another size of the port's first replaced function: the port's own
#    identity check refuses them;
#  - the fairlab.ko of every other supported kernel: the kernel's module
#    loader refuses it before its code runs ("invalid module format"; in
#    dmesg, 6.1 says the module "disagrees about version of symbol
#    module_layout", 6.12 that its ".gnu.linkonce.this_module section size
#    must match the kernel's built struct module size");
#  - the genuine module, same sources, then loads and patches.
# fairlab-files: build/refusal/@KREL@/fairlab-release.ko build/refusal/@KREL@/fairlab-size.ko
# fairlab-files: build/kmod/*/module/fairlab.ko
. "$FL_LIB"
rel=$(uname -r)
ver=$(uname -v)
R=/fairlab/build/refusal/$rel

# grep -E pattern matching the string $1 literally
lit() { printf '%s' "$1" | sed 's/[][\.*^$()+?{}|]/\\&/g'; }

load_mod fairlab_trace || exit 1

dmesg_mark
expect_fail "release mismatch refused" "No such device" insmod $R/fairlab-release.ko
assert_dmesg_has "fairlab: this port is for kernel 0\.0\.0-other-amd64 .*; running $(lit "$rel $ver"): refusing to load" \
	"release mismatch: dmesg names expected and found"
check "nothing patched after release mismatch" test ! -e $FL_LIVEPATCH/fairlab
check "no module after release mismatch" test ! -e /sys/module/fairlab
assert_eq "no livepatch registered after release mismatch" "" "$(ls $FL_LIVEPATCH)"

dmesg_mark
expect_fail "size mismatch refused" "No such device" insmod $R/fairlab-size.ko
line=$(dmesg_since | grep -E 'fairlab: [a-z_]+: expected size 0x[0-9a-f]+, found 0x[0-9a-f]+: kernel build differs from the port, refusing to load' | head -n1)
exp=$(echo "$line" | sed -n 's/.*expected size \(0x[0-9a-f]*\),.*/\1/p')
fnd=$(echo "$line" | sed -n 's/.*found \(0x[0-9a-f]*\):.*/\1/p')
check "size mismatch: dmesg names function, expected and found" test -n "$exp" -a -n "$fnd"
assert_eq "size mismatch: expected is the real size + 0x10" "$((fnd + 0x10))" "$((exp))"
check "nothing patched after size mismatch" test ! -e $FL_LIVEPATCH/fairlab
check "no module after size mismatch" test ! -e /sys/module/fairlab
assert_eq "no livepatch registered after size mismatch" "" "$(ls $FL_LIVEPATCH)"

# Another kernel's port: refused by the module loader, before its code runs.
nother=0
for ko in /fairlab/build/kmod/*/module/fairlab.ko; do
	other=$(basename "$(dirname "$(dirname "$ko")")")
	[ "$other" = "$rel" ] && continue
	nother=$((nother + 1))
	dmesg_mark
	# another series: the loader refuses it; another flavour of the same
	# build (same struct module, same symbol CRCs; with modversions the
	# loader compares vermagic past the release only): fairlab's own
	# identity check does, or the loader on a symbol CRC the flavour changed
	other_re=$(printf '%s' "$other" | sed 's/[.+]/\\&/g')
	expect_fail "$other's module refused on $rel" "[Ii]nvalid module format|Invalid argument|No such device" insmod "$ko"
	assert_dmesg_has "fairlab: (disagrees about version of symbol [A-Za-z_0-9]+|\.gnu\.linkonce\.this_module section size must match|version magic|this port is for kernel $other_re .*refusing to load)" \
		"$other's module: the loader says why"
	check "nothing patched after $other's module" test ! -e $FL_LIVEPATCH/fairlab
done
[ $nother -gt 0 ] || echo "ok - cross-kernel refusal # SKIP no other kernel's module built"

# (The kernel taints K when it reads a livepatch module's modinfo, before
# init runs: taint cannot tell whether anything was patched.)

load_lp fairlab || exit 1
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
