#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compare-output.sh OLD NEW [FILE.dat]...
#
# The output of two fairlab binaries (OLD: a build of the base commit, NEW:
# this tree's), compared byte for byte on every run a speed change of the
# analyzer must leave alone: report (text, --json) and whatif (text, --csv,
# --json, --layout, --contention, --rel, --shared-miss=nearest,
# --threads=1, --idlest).  Each FILE is taken as recorded and converted to
# v6 and v7 zstd by fl-tracegen (-k 1 -r 1: the same records), so that both
# readers are covered.  Without FILEs: every recording in tests/data.
#
# Environment: FL_TRACEGEN (default build/fl-tracegen, else OLD's
# directory's), TMPDIR.  Exit 0 when every output is identical, 1 when one
# differs (named on stderr), 2 on a usage or set-up error.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "compare-output: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: $0 OLD NEW [FILE.dat]..."
old=$1 new=$2
shift 2
{ [ -x "$old" ] && [ -x "$new" ]; } || die "OLD and NEW must be executables"
gen=${FL_TRACEGEN:-$top/build/fl-tracegen}
[ -x "$gen" ] || gen=$(dirname "$old")/fl-tracegen
[ -x "$gen" ] || die "no fl-tracegen (set FL_TRACEGEN)"
if [ $# -eq 0 ]; then
	set -- "$top"/tests/data/*.dat
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/compare-output.XXXXXX") || die "mktemp"
trap 'rm -rf "$work"' EXIT

# One run per line: the subcommand and its options (FILE appended).
runs=(
	"report"
	"report --json"
	"whatif"
	"whatif --csv"
	"whatif --json"
	"whatif --layout=global,node,llc,node:1000"
	"whatif --layout=global,node,llc,node:1000 --json"
	"whatif --contention=10"
	"whatif --contention=10 --json"
	"whatif --rel --csv"
	"whatif --shared-miss=nearest --csv"
	"whatif --error=shares --cost=transfers"
	"whatif --threads=1"
	"whatif --idlest"
	"whatif --idlest --json"
)

n=0 bad=0
for f in "$@"; do
	base=$(basename "$f" .dat)
	inputs=("$f")
	for fmt in v6 v7; do
		out=$work/$base.$fmt.dat
		if "$gen" -q -k 1 -r 1 -f "$fmt" "$f" -o "$out" 2>"$work/gen.err"; then
			inputs+=("$out")
		else
			echo "compare-output: $base: no $fmt copy: $(head -1 "$work/gen.err")" >&2
		fi
	done
	for in in "${inputs[@]}"; do
		for run in "${runs[@]}"; do
			# word splitting of $run is wanted: it is a list of arguments
			# shellcheck disable=SC2086
			"$old" $run "$in" >"$work/old.out" 2>"$work/old.err"
			orc=$?
			# shellcheck disable=SC2086
			"$new" $run "$in" >"$work/new.out" 2>"$work/new.err"
			nrc=$?
			n=$((n + 1))
			if [ $orc -ne $nrc ] || ! cmp -s "$work/old.out" "$work/new.out" ||
			   ! cmp -s "$work/old.err" "$work/new.err"; then
				bad=$((bad + 1))
				echo "DIFFERS: $run ${in#"$work"/} (exit $orc/$nrc)" >&2
			fi
		done
	done
done
echo "compare-output: $n runs, $((n - bad)) identical (stdout, stderr, exit status), $bad differ"
[ $bad -eq 0 ]
