# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: GPL-2.0
#
# Stand-ins for testing tests/vm/run-scenario.sh without a VM
# (tests/unit/vm-*.t): busybox, trace-cmd, hackbench, stress-ng and
# file(1) in $tmp/bin, for PATH, a scratch CACHE with an empty kernel image
# of the newest port, every virtio module built in (the harness then packs
# none), and an empty module dir.  The caller writes its own stand-in
# $tmp/bin/qemu-system-x86_64.  Source it with "top" set; sets tmp (a
# scratch directory, removed at exit), KREL and bin.

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/scripts/ports.sh"
KREL=$(fl_kernel_krel "$(fl_ready_ports | tail -n1)")
bin=$tmp/bin
mkdir -p "$bin" "$tmp/cache/kernel-$KREL/boot" "$tmp/cache/kernel-$KREL/lib/modules/$KREL/kernel" "$tmp/mods"
: >"$tmp/cache/kernel-$KREL/boot/vmlinuz-$KREL"
printf 'kernel/drivers/virtio/%s.ko\n' virtio_ring virtio virtio_pci_modern_dev \
	virtio_pci_legacy_dev virtio_pci >"$tmp/cache/kernel-$KREL/lib/modules/$KREL/modules.builtin"
echo 'kernel/drivers/block/virtio_blk.ko' >>"$tmp/cache/kernel-$KREL/lib/modules/$KREL/modules.builtin"
for t in busybox trace-cmd hackbench stress-ng; do
	printf '#!/bin/sh\nexit 0\n' >"$bin/$t"
done
printf '#!/bin/sh\necho "$1: ELF 64-bit LSB executable, statically linked"\n' >"$bin/file"
chmod +x "$bin"/*
