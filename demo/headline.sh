#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make headline: where a group's load should live, in one table, from the
# recordings of make demo and make demo-scale on each kernel.  This script
# gathers the figures; demo/headline-analyze.sh computes the headline from
# them (its header defines every figure).
#
#   demo/headline.sh [--window=US] [--scales=LIST] OUT DIR...
#
# DIR: the output of a make demo (recordings/, vm-tg/) or make demo-scale
# (cpus-N/recordings/, vm-cpusN/) run, any kernel; its kernel release is
# read from the guest's dmesg ("Linux version"), its CPUs and nodes from
# the guest's topology.txt (the recordings' cpu_topology records).
#
# Per tg recording (throughput.tsv kind tg), one row of OUT/headline-runs.tsv:
#   `fairlab whatif --policy=P --contention=US` (P its policy as
#   throughput.tsv names it, a tg_layout included: stock/node): the recording
#   replayed under its own policy and layout (which must be exact: no
#   decision diverged, and its idle cost must be report's) gives the idle
#   modeled cost (coh_cost_ns_per_s), the contended one
#   (coh_cost_contended_ns_per_s) and the mean shares error; `fairlab
#   report --csv` (segment "all") gives the cross-node transfers per second
#   (coh_xnode_per_s).
# Per stock recording of each DIR's largest point, rows of
# OUT/headline-model.tsv: `fairlab whatif --policy=stock
# --layout=global,node,llc,node:100000 --contention=US --scale-cpus=C` for
# each C of LIST at or above the recording's own CPUs per node: the
# contended cost with the recording's per-CPU rates extrapolated to C CPUs
# per node (a MODEL: fairlab whatif --help), and the replay's mean shares
# error (not scaled: the extrapolation prices transfers only).
#
# And per such stock recording, rows of OUT/headline-sweep.tsv: `fairlab
# whatif --layout=global,node,llc,node:1000,node:100000 --contention=US`
# with whatif's default 50 policies: each policy under each layout
# replayed on stock's loads (a prediction without feedback: fairlab
# whatif --help), its contended cost and mean shares error.
#
# Options: --window=US, the contention term's window (default 10 us);
# --scales=LIST, the extrapolation's CPUs per node (default
# 8,16,32,64,112: 112 is a 224-CPU 2-socket Sapphire Rapids' node, the
# machine of the 2023 per-node RFC).  FAIRLAB: the fairlab binary (default
# build/fairlab).  Exit status 1 when a recording is missing or not
# replayed exactly, 2 on a usage error.
#
# Examples:
#   demo/headline.sh build/headline build/demo-scale/* build/demo/*
#   demo/headline.sh --window=5 --scales=16,112 /tmp/h build/demo/6.12.117+deb12-amd64
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
W=10
SCALES=8,16,32,64,112
usage() { echo "usage: demo/headline.sh [--window=US] [--scales=LIST] OUT DIR..." >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--window=*) W=${1#*=}; [[ $W =~ ^[1-9][0-9]*$ ]] || { echo "headline: --window: '$W' is not a positive integer (us)" >&2; exit 2; } ;;
	--scales=*) SCALES=${1#*=}; [[ $SCALES =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || { echo "headline: --scales: '$SCALES' is not a list of CPU counts" >&2; exit 2; } ;;
	-h|--help) sed -n '4,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "headline: unknown option '$1'" >&2; usage ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 2 ] || usage
out=$1; shift
FAIRLAB=${FAIRLAB:-$top/build/fairlab}
[ -x "$FAIRLAB" ] || { echo "headline: $FAIRLAB missing (make userspace)" >&2; exit 1; }
mkdir -p "$out"
runs=$out/headline-runs.tsv
model=$out/headline-model.tsv
printf 'kernel\tpoint\tcpus\tcpus_per_node\tpolicy\tround\tfile\tcoh_cost_ns_per_s\tcoh_cost_contended_ns_per_s\tcoh_xnode_per_s\tshares_err_mean_pct\n' >"$runs"
printf 'kernel\tpoint\tround\tfile\tcpus_per_node\tscale_cpus_per_node\tpolicy\tcoh_cost_contended_scaled_ns_per_s\tshares_err_mean_pct\n' >"$model"
sweep=$out/headline-sweep.tsv
printf 'kernel\tpoint\tround\tfile\tpolicy\tcoh_cost_contended_ns_per_s\tshares_err_mean_pct\n' >"$sweep"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# col CSV KEY: column KEY of the CSV's row 2 (the first data row), by name
col() { awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next } c { print $c; exit }' "$1"; }

# topo TOPO: sets cpus, nodes and cpn (CPUs per node) from a guest's
# topology.txt (one "cpu=N node=M llc=L" line per CPU)
topo() {
	cpus=$(grep -c '^cpu=' "$1")
	nodes=$(sed -n 's/.* node=\([0-9-]*\).*/\1/p' "$1" | sort -u | wc -l)
	cpn=$((cpus / nodes))
}

# point KREL POINT RECDIR TOPO: the rows of one point's recordings
point() {
	local krel=$1 pt=$2 rec=$3 topo=$4 cpus nodes cpn kind pol round file _ f
	[ -s "$topo" ] || { echo "headline: $topo missing: no topology for $krel $pt" >&2; fail=1; return; }
	topo "$topo"
	while IFS=$'\t' read -r kind pol round file _; do
		[ "$kind" = tg ] || continue
		f=$rec/$file
		[ -s "$f" ] || { echo "headline: $f missing" >&2; fail=1; continue; }
		if ! "$FAIRLAB" whatif --policy="$pol" --contention="$W" --csv "$f" >"$tmp/w.csv" 2>"$tmp/err" ||
			! "$FAIRLAB" report --csv "$f" >"$tmp/r.csv" 2>>"$tmp/err"; then
			echo "headline: $f: $(head -2 "$tmp/err")" >&2; fail=1; continue
		fi
		# report --csv: the segment "all" when there are several
		awk -F, 'NR == 1 || $2 == "all"' "$tmp/r.csv" >"$tmp/ra.csv"
		[ "$(wc -l <"$tmp/ra.csv")" -ge 2 ] || awk -F, 'NR <= 2' "$tmp/r.csv" >"$tmp/ra.csv"
		local idle cont sh div xn rcost
		idle=$(col "$tmp/w.csv" coh_cost_ns_per_s)
		cont=$(col "$tmp/w.csv" coh_cost_contended_ns_per_s)
		sh=$(col "$tmp/w.csv" shares_err_mean_pct)
		div=$(col "$tmp/w.csv" diverged_n)
		xn=$(col "$tmp/ra.csv" coh_xnode_per_s)
		rcost=$(col "$tmp/ra.csv" coh_cost_ns_per_s)
		# the replay under its own policy and layout is the recording
		if [ "$div" != 0 ] || ! awk -v a="$idle" -v b="$rcost" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 * (b < 0 ? -b : b) + 1e-3) }'; then
			echo "headline: $f: whatif's replay is not the recording ($div decisions diverged; cost $idle against report's $rcost)" >&2
			fail=1; continue
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$krel" "$pt" "$cpus" "$cpn" "$pol" "$round" "$file" \
			"$idle" "$cont" "${xn:-nan}" "${sh:-nan}" >>"$runs"
	done < <(tail -n +2 "$rec/throughput.tsv")
}

# extrapolate KREL POINT RECDIR TOPO: the model rows of one point's stock recordings
extrapolate() {
	local krel=$1 pt=$2 rec=$3 topo=$4 cpus nodes cpn kind pol round file _ c
	[ -s "$topo" ] || return 0	# point() has said so
	topo "$topo"
	[ "$nodes" -ge 2 ] || return 0
	while IFS=$'\t' read -r kind pol round file _; do
		[ "$kind" = tg ] && [ "$pol" = stock ] || continue
		if ! "$FAIRLAB" whatif --layout=global,node,llc,node:1000,node:100000 --contention="$W" \
			--csv "$rec/$file" >"$tmp/s.csv" 2>"$tmp/err"; then
			echo "headline: $rec/$file: $(head -2 "$tmp/err")" >&2; fail=1; continue
		fi
		awk -F, -v k="$krel" -v p="$pt" -v r="$round" -v f="$file" '
			NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
			{ printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k, p, r, f, $h["policy"],
				$h["coh_cost_contended_ns_per_s"], $h["shares_err_mean_pct"] }' "$tmp/s.csv" >>"$sweep"
		for c in ${SCALES//,/ }; do
			[ "$c" -ge "$cpn" ] || continue
			if ! "$FAIRLAB" whatif --policy=stock --layout=global,node,llc,node:100000 --contention="$W" \
				--scale-cpus="$c" --csv "$rec/$file" >"$tmp/m.csv" 2>"$tmp/err"; then
				echo "headline: $rec/$file: $(head -2 "$tmp/err")" >&2; fail=1; continue
			fi
			awk -F, -v k="$krel" -v p="$pt" -v r="$round" -v f="$file" -v n="$cpn" -v c="$c" '
				NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
				{ printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k, p, r, f, n, c, $h["policy"],
					$h["coh_cost_contended_scaled_ns_per_s"], $h["shares_err_mean_pct"] }' "$tmp/m.csv" >>"$model"
		done
	done < <(tail -n +2 "$rec/throughput.tsv")
}

for d in "$@"; do
	d=${d%/}
	krel=$(cat "$d"/vm-*/dmesg.txt 2>/dev/null | sed -n 's/.*Linux version \([^ ]*\) .*/\1/p' | head -n1)
	[ -n "$krel" ] || { echo "headline: $d: no guest dmesg.txt naming the kernel (vm-*/dmesg.txt)" >&2; fail=1; continue; }
	last= lastn=0
	if compgen -G "$d/cpus-*/recordings/throughput.tsv" >/dev/null; then
		for r in "$d"/cpus-*/recordings; do
			n=${r%/recordings}; n=${n##*/cpus-}
			point "$krel" "cpus$n" "$r" "$d/vm-cpus$n/topology.txt"
			[ "$n" -gt "$lastn" ] && { lastn=$n; last="cpus$n $r $d/vm-cpus$n/topology.txt"; }
		done
	elif [ -s "$d/recordings/throughput.tsv" ]; then
		point "$krel" demo "$d/recordings" "$d/vm-tg/topology.txt"
		last="demo $d/recordings $d/vm-tg/topology.txt"
	else
		echo "headline: $d holds no make demo or make demo-scale recordings" >&2; fail=1; continue
	fi
	# shellcheck disable=SC2086
	[ -n "$last" ] && extrapolate "$krel" $last
done
"$top/demo/headline-analyze.sh" "$runs" "$model" "$sweep" "$out" || fail=1
exit $fail
