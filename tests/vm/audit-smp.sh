#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-audit-smp: the audit-bigsmp scenario (255 possible CPUs,
# 1,000 groups under load, every audit row checked exact) with N vCPUs
# online instead of make check's 4, on every written port (or the ports
# named).  The VM shape is the scenario's own "# fairlab-vm:" line with its
# online count replaced; the guest reads AB_ONLINE.  Single-threaded TCG
# runs every vCPU on one host core: N=16 takes 2-4 minutes per kernel.
#
#   tests/vm/audit-smp.sh [N] [PORT...]      (default N=16, every port)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
n=${1:-16}
[[ $n =~ ^[1-9][0-9]*$ ]] && [ "$n" -le 255 ] ||
	{ echo "audit-smp.sh: N must be 1..255 (QEMU's TCG stops at 255 CPUs), not '$n'" >&2; exit 2; }
shift || true
. scripts/ports.sh
ports=${*:-$(fl_ready_ports)}
s=tests/vm/scenarios/audit-bigsmp.guest.sh
vm=$(sed -n 's/^#[[:space:]]*fairlab-vm:[[:space:]]*//p' "$s" | head -n1)
# the online count appears twice: --smp 4 (run-scenario.sh) and QEMU's
# -smp 4,maxcpus=255; both become N
vm=$(echo "$vm" | sed -E "s/--smp [0-9]+/--smp $n/; s/=[0-9]+,maxcpus=255/=$n,maxcpus=255/")
case $vm in *"--smp $n"*"=$n,maxcpus=255"*) ;; *)
	echo "audit-smp.sh: $s's fairlab-vm line no longer has the shape this script edits: $vm" >&2; exit 1 ;;
esac
rc=0
for k in $ports; do
	echo "== audit-bigsmp [$k] with $n online vCPUs"
	# shellcheck disable=SC2086
	tests/vm/run-scenario.sh --kernel "$k" --no-vm-line $vm --append "AB_ONLINE=$n" "$s" || rc=1
done
exit $rc
