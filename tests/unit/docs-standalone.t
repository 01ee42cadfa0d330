#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The project's docs stand alone: no file of the repository (sources,
# help texts, READMEs) sends the reader to a document that is not part of
# it, and every path the CLI's --help examples name exists in a checkout.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
cd "$top" || exit 1

# The files of the project: tracked ones in a git checkout, else the tree.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files() { git ls-files; }
else
	files() { find . -path ./build -prune -o -path ./.cache -prune -o -type f -print; }
fi
# Documents that belong to the team, not to the project (the pattern is
# split so that this file does not match it).
outside="DESIGN""\.md|PLATFORM""\.md|\.\./shared"
hits=$(files | grep -v -E '\.(dat|png)$' | grep -v -x -E '(\./)?tests/unit/docs-standalone\.t' |
	xargs grep -n -E "$outside" 2>/dev/null | head -5)
check "no file points to a document outside the project" test -z "$hits"
[ -z "$hits" ] || note "$hits"

help=$(for c in "" report compare plot; do "$FAIRLAB" $c --help; done 2>&1)
check "--help texts name no document outside the project" \
	eval '! echo "$help" | grep -q -E "$outside"'
# Example arguments that are paths into the tree (a '/' and a .dat end)
# must exist: a user pastes them.
missing=
for p in $(echo "$help" | grep -E '^  fairlab ' | tr ' ' '\n' | grep -E '^[A-Za-z0-9_.-]+/.*\.dat$'); do
	[ -e "$p" ] || missing="$missing $p"
done
check "--help examples name only paths that exist in a checkout${missing:+ (missing:$missing)}" \
	test -z "$missing"
tap_end
