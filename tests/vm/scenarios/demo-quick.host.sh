#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of demo-quick: the demo's analysis (tools/experiment/analyze.sh
# --check, through build/fairlab) on the scenario's recordings: every
# recording parses, the table has a row with figures per policy, force has
# the most writes/s; and demo/whatif.sh: every recording replayed
# under its own policy gives back its decisions and figures exactly.
# Results in ARTIFACT_DIR/results/.
#   demo-quick.host.sh ARTIFACT_DIR
set -uo pipefail
dir=${1:?usage: demo-quick.host.sh ARTIFACT_DIR}
top=${TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
TOP=$top bash "$top/tools/experiment/analyze.sh" --check "$dir/tg/recordings" "$dir/results" 2>&1 |
	sed -E '/^(not )?ok - /!s/^/# /'
rc=${PIPESTATUS[0]}
# each recording replayed under its own policy: decisions and figures exact
if TOP=$top bash "$top/demo/whatif.sh" "$dir/tg/recordings" "$dir/results" 2>&1 | sed 's/^/# /'; [ "${PIPESTATUS[0]}" = 0 ]; then
	echo "ok - demo: fairlab whatif replays every recording exactly under its own policy"
else
	echo "not ok - demo: fairlab whatif replays every recording exactly under its own policy"; rc=1
fi
exit "$rc"
