#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of tg-offline: audit-to-audit completeness of the traced
# written deltas, clear_tg_load_avg records (CPU offline) among them, and
# every decided attempt against its policy's rule, over offline.dat.
#   tg-offline.host.sh ARTIFACT_DIR
set -uo pipefail
dir=${1:?usage: tg-offline.host.sh ARTIFACT_DIR}
TOP=${TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
chk=$(TOP=$TOP "$TOP/tests/vm/tg-check/build.sh") ||
	{ echo "not ok - tg-offline.host: cannot build tg-check"; exit 1; }
"$chk" --kernel "${KREL:?run by run-scenario.sh, which sets KREL}" \
	--complete --min-pairs 4 --rules --need stock,fixed:64 \
	"$dir/offline.dat"
