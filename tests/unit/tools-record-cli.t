#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fairlab record and fairlab experiment (ASan+UBSan build) on command lines
# that need no root and no module: --help, every usage error (exit 2, one
# line saying what is wrong, nothing recorded, no directory made), and the
# refusal on a machine without fairlab.ko (this host: exit 1 naming what
# to load or that root is needed).  What they record is tested in the VM
# (tests/vm/scenarios/record.guest.sh).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out err=$tmp/err
cd "$tmp" || exit 1

for cmd in record experiment; do
	run_fl "$out" "$err" $cmd --help; s=$?
	check "$cmd --help: exit 0, usage and examples" \
		eval 'test $s = 0 && grep -q "^usage: fairlab $cmd" "$out" && grep -q "^examples:" "$out"'
	run_fl "$out" "$err" $cmd --no-such-option; s=$?
	check "$cmd: unknown option exits 2" test $s = 2
done
run_fl "$out" "$err" help record; s=$?
check "help record = record --help" eval 'test $s = 0 && grep -q "trace-cmd record" "$out"'

# usage ERROR-RE ARGS...: exit 2, ERROR-RE on stderr, nothing on stdout
usage() {
	_re=$1; shift
	run_fl "$out" "$err" "$@"; s=$?
	check "$* : exit 2, says /$_re/" \
		eval 'test $s = 2 && grep -Eq -- "$_re" "$err" && ! test -s "$out" && [ $(wc -l <"$err") = 1 ]'
}
usage "goes after --" record hackbench
usage "--duration: '0' is not a positive" record --duration 0
usage "--duration: 'x' is not a positive" record -d x
usage "--buffer .KB.: '1' is not an integer from 64" record -b 1
usage "--idlest.*give --policy" record --idlest
# every policy through module/policy/policy.c before anything is checked or run
usage "record: --policy: 'bogus' is not a tg policy \(stock, .*relative\[:1..4096\]" record --policy bogus -d 1
usage "'relative:0' is not a tg policy" record --policy relative:0 -- true
usage "'relative:8' is not an idlest policy \(stock, idle_cpus, nr_running\)" record --idlest --policy relative:8 -d 1
usage "experiment: --policies: 'budgte:5' is not a tg policy" experiment --policies stock,force,budgte:5 -d 1
usage "'force' is not an idlest policy" experiment --idlest --policies stock,force -d 1
usage "--policies LIST is required" experiment -- true
usage "names no policy" experiment --policies , -- true
usage "policy 'stock' listed twice" experiment --policies stock,force,stock -- true
usage "'a b' is not a policy name" experiment --policies "a b" -- true
# POLICY/LAYOUT: the policy and the layout each checked, /global dropped
usage "experiment: --policies: 'a' is not a tg policy" experiment --policies a/node -- true
usage "'stock/nodes': 'nodes' is not a tg_layout \(global, node, llc, node:US, llc:US" experiment --policies stock,stock/nodes -- true
usage "'stock/node/llc': 'node/llc' is not a tg_layout" experiment --policies stock/node/llc -- true
usage "'stock/global:5': 'global:5' is not a tg_layout" experiment --policies stock/global:5 -- true
usage "'stock/node:10000001': 'node:10000001' is not a tg_layout" experiment --policies stock/node:10000001 -- true
usage "'stock/node': a tg_layout goes with tg policies only" experiment --idlest --policies stock/node -- true
usage "policy 'stock' listed twice" experiment --policies stock,stock/global -- true
usage "policy 'force/node:1000' listed twice" experiment --policies force/node:1000,stock,force/node:1000 -- true
usage "--rounds: '0' is not an integer from 1" experiment --policies stock --rounds 0 -- true
usage "a command .* or --duration" experiment --policies stock,force
usage "goes after --" experiment --policies stock true
usage "--report-only takes -o DIR only" experiment --report-only --policies stock
usage "at most 16 -e options" record $(for i in $(seq 17); do printf -- "-e fairlab "; done)
usage "at most 16 -e options" experiment --policies stock -d 1 $(for i in $(seq 17); do printf -- "-e fairlab "; done)
check "no usage error made a file or directory" test -z "$(ls -A "$tmp" | grep -v '^out$\|^err$')"

# --report-only on a directory with no experiment: exit 1, says so
run_fl "$out" "$err" experiment --report-only -o "$tmp/none"; s=$?
check "experiment --report-only on no experiment: exit 1, names throughput.tsv" \
	eval 'test $s = 1 && grep -q "none/recordings/throughput.tsv" "$err"'

# this host has no fairlab.ko (no livepatch, no port, or no module):
# refused before anything is switched or written (every option accepted:
# the refusal is the first thing after parsing; tools-record-safety.t
# checks each refusal in order on a made-up /sys)
for args in "record -d 1" "record --policy force -- true" "experiment --policies stock -d 1" \
	"record -o x.dat --policy stock --idlest --allow-lost -b 100 -e fairlab:tg_update -d 1" \
	"experiment --policies stock,nr_running --rounds 2 --idlest --allow-lost -b 100 -e fairlab --resume --no-report -o d -- true"; do
	run_fl "$out" "$err" $args; s=$?
	check "$args without fairlab.ko: exit 1, says what is missing" \
		eval 'test $s = 1 && grep -Eq "fairlab_trace.ko is not loaded.*insmod fairlab_trace.ko|needs root|no livepatch support|has no fairlab port" "$err"'
done
check "the refusals made no file" test ! -e fairlab.dat -a ! -e experiment -a ! -e x.dat -a ! -e d
tap_end
