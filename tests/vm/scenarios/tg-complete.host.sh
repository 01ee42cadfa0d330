#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of tg-complete: exact audit-to-audit completeness of the traced
# written deltas (and the rules, as a bonus) over complete.dat.
#   tg-complete.host.sh ARTIFACT_DIR
set -uo pipefail
dir=${1:?usage: tg-complete.host.sh ARTIFACT_DIR}
TOP=${TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
chk=$(TOP=$TOP "$TOP/tests/vm/tg-check/build.sh") ||
	{ echo "not ok - tg-complete.host: cannot build tg-check"; exit 1; }
"$chk" --kernel "${KREL:?run by run-scenario.sh, which sets KREL}" \
	--complete --min-pairs 4 --rules --need stock,fixed:64,relative:8 \
	--table "$dir/complete.dat"
