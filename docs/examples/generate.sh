#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Writes the annotated examples docs/examples/*_example.txt: the notes
# below, and the output of the built fairlab run on the committed
# recordings of tests/data/ (from that directory, so that the file names
# are short).  tests/unit/docs-standalone.t runs it into a scratch
# directory and fails when the committed examples differ: an example
# always shows what the tool prints today.
#
#   docs/examples/generate.sh [OUTDIR]     (default docs/examples)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(cd "${1:-$top/docs/examples}" && pwd)
FAIRLAB=${FAIRLAB:-$top/build/fairlab}
cd "$top/tests/data"

# run LINES CMD...: "# CMD", then the lines LINES (a sed range) of its
# output (stdout and stderr, in that order)
run() {
	local lines=$1; shift
	echo "# fairlab $*"
	"$FAIRLAB" "$@" 2>&1 | sed -n "$lines"
}
skip() { echo "[...]"; }

{
cat <<'EOF'
Demonstrations of fairlab report, the figures of one recording.

The recording analyzer-policies.dat (in tests/data/ of the source) was made
in a 4-vCPU VM in 2 NUMA nodes: one second of a fork-heavy workload in the
cgroups /a/b and /a/c under each of the ten tg policies in turn. fairlab
report prints a header, then each policy segment (the records between two
policy switches), then the whole trace. Units are in parentheses: (n) a
count, (1/s) per second of trace time, (%) percent, (load) the kernel's
load units (cfs_rq avg.load_avg), (weight) scaled shares (cpu.weight 100 =
1048576), (ns/s) nanoseconds of modeled transfer latency per second.

EOF
run '1,64p' report --top=5 analyzer-policies.dat
cat <<'EOF'

The first segment ran under stock, the kernel's own rule. Of 5075 attempts
to publish a cfs_rq's load into tg->load_avg, 3345 wrote (34.09% skipped);
1649 of the writes ran on another CPU than the group's previous write (a
"writer switch": the cacheline of tg->load_avg moved), 924 of them across
the two NUMA nodes. The coherence model, which also replays the 3624 reads
of tg->load_avg, counts 2130 line transfers: a lower bound, priced at the
idle core-to-core latency of the machine --machine names.

The error of what was published: the shares error (the headline) compares,
at every read, the weight calc_group_shares() gave the group entity with
the weight it would have given had tg->load_avg been the exact sum of the
other cfs_rqs' loads plus this one's, as a share of the group's weight
(tg->shares): 0.197% on average over cfs_rq-time, 0 at the median, 3.69%
at p99, 6.51% at worst. The relative form (a share of the ideal weight,
unbounded when the ideal is small) follows it: 24.569% at worst. |E| is tg->load_avg minus the
true sum of the loads, 3.06 load units on average per group.

The rows below "pick_idlest" are consistency checks: every decision was
taken again by the shared policy code (no dispute), no record is missing
(no contrib jump), and the opening audit found tg->load_avg equal to the
sum of the contribs and the tracked error equal to the audited one.

EOF
run '66,70p' report --top=5 analyzer-policies.dat
cat <<'EOF'

One row per task group, ranked by writer switches: /a writes most often,
but /a/b has the worst shares error (6.51% of tg->shares at most, 24.57%
of the ideal weight): its few cfs_rqs carry little load, so a small stale
difference is a large fraction of it.
reads(n) are the tg_read records (calc_group_shares() reading the group's
tg->load_avg); gap is tg_load_avg - sum(contrib) at the group's last record.

EOF
run '72,101p' report --top=5 analyzer-policies.dat
skip
cat <<'EOF'

CPUs: switch_in counts the writes that pulled the line from another CPU
(xnode_in: from the other node); remote counts attempts on another CPU's
cfs_rq (the blocked-averages path of an idle CPU, for instance). Call
sites name the replaced kernel path of each attempt: dequeue_entity skips
56% of its attempts under stock, propagate_entity_cfs_rq almost none.
The histograms give the time |E| (and the shares error) spent in each
power-of-two bin; the bar is the time share.

The whole trace ends the report, with the audit windows: between two
tg_audit snapshots tg->load_avg must move by exactly the sum of the traced
written deltas. The last window of /a/c and of /a is off by 1 and 3 load
units, and the warning says so: some write between the last two audits
is absent from the recording.

EOF
run '1374,1390p' report --top=5 analyzer-policies.dat
cat <<'EOF'

Other forms: --top=0 lists every group; --json gives one document
(segments[].metrics.writes_per_s ...); --csv --table=groups (or summary,
cpus, sites, tg_policies, idlest, hist, shares_hist, audit_windows) one
CSV table, its headers ending with the unit (_n, _s, _per_s, _pct, _load).
fairlab-report(1) defines every row and column.
EOF
} >"$out/report_example.txt"

{
cat <<'EOF'
Demonstrations of fairlab compare, recordings side by side in the manner
of LKP (the 0-day kernel test robot).

Two recordings of tests/data/: analyzer-numa.dat (8 vCPUs, stock, then
relative:8 and budget:5) as the base, analyzer-policies.dat (4 vCPUs, ten
policies) as the new side. With one run per side there is no spread; with
several (BASE1 BASE2 -- NEW1 NEW2) each mean gets its standard deviation
in % of the mean.

EOF
run '1,30p' compare analyzer-numa.dat analyzer-policies.dat
skip
cat <<'EOF'

The first two lines are warnings (stderr): analyzer-numa.dat was recorded
by a fairlab_trace.ko whose audits carry no snapshot time, so its audit
windows are approximate. Each row is one figure: the base mean, its
stddev, the change in % of the base, the new mean; the unit is the end of
the name (_s seconds, _n count, _pct percent, _per_s per second, _load
load units, _ns_per_s). Here the new recording writes 3.1x as often per
second (+214.6% writes_per_s) on half the CPUs, a workload difference, not
a policy one: compare like with like (the same workload, the same VM
shape, several rounds), as fairlab experiment does.

The task-group lines follow (group:/a.writes_per_s ...) for groups present
in every run; --groups=N sets how many. --segment=N compares one policy
segment instead of whole recordings. fairlab-compare(1) has the rest.
EOF
} >"$out/compare_example.txt"

{
cat <<'EOF'
Demonstrations of fairlab whatif, one recording replayed under other
policies.

Each cfs_rq's recorded load sequence is decided again by the shared policy
code under every policy asked, in one pass. Here analyzer-policies.dat
(ten policies, one second each) is replayed as recorded (the exactness
check), under stock, under budget:5 and under relative:4, 16 and 64:

EOF
run '1,17p' whatif --policy=recorded,stock,budget:5 --sweep=relative:4..64x4 analyzer-policies.dat
cat <<'EOF'

"replayed as recorded: 50559 of 50559 decisions as recorded (exact)": the
recorded row gives back every decision, and the report's figures. The
other rows are a model: the replay cannot see feedback (another
tg->load_avg would change the group weights, and so the loads).

Columns: attempts and writes (n), write% (writes per attempt), writes/s,
writer switches (n, 1/s) and those across nodes, reads (the same under
every policy), modeled transfers (n) and their cost (ns/s, on --machine),
the shares error (sh.max, sh.mean, sh.p50, sh.p99 in % of tg->shares;
sh.rel.* in % of the ideal weight), |E| (load), diverged (n:
attempts decided otherwise than recorded) and front (* on the Pareto
frontier). Here relative:64 decides exactly like stock on this 4-CPU
recording (the same writes and error), and relative:4 writes 28% less than
stock for 34 times its mean |E|; relative:16 is off the frontier: budget:5
has fewer writes and a smaller error.

The last lines name the frontier by increasing cost. --cost=switches,
xnode, transfers or modeled and --error=shares choose its axes; -o DIR
plots it (whatif.png). Without --policy or --sweep, 50 policies are
replayed: recorded, every policy at its default argument, and five sweeps.
EOF
} >"$out/whatif_example.txt"

{
cat <<'EOF'
Demonstrations of fairlab experiment, the policy comparison make demo runs.

On a host with the modules loaded (root):

  sudo fairlab experiment --policies stock,force,relative:8 --rounds 5 \
       -o exp1 -- hackbench -g 8 -l 2000

records the command once per policy per round (the order rotating from
round to round), into exp1/recordings/ (KIND-POLICY-rN.dat, and
throughput.tsv: one row per run), then writes exp1/results/: table.txt and
table.tsv, compare/, plots/, verdict.txt and verdict-load.txt. The
analysis alone, on recordings already made, is --report-only. Below, it
runs on two stand-in
rounds of stock (tests/data/analyzer-numa.dat copied twice, so the spread
is 0) laid out as experiment leaves them:

# mkdir -p exp/recordings
# cp analyzer-numa.dat exp/recordings/tg-stock-r1.dat
# cp analyzer-numa.dat exp/recordings/tg-stock-r2.dat
# (and a throughput.tsv with one row per run)
EOF
tmp=$(mktemp -d)
mkdir -p "$tmp/exp/recordings"
printf 'kind\tpolicy\tround\tfile\thackbench_msgs_per_s\tstressng_ops_per_s\tlost_events\tsize_kb\n' \
	>"$tmp/exp/recordings/throughput.tsv"
for r in 1 2; do
	cp analyzer-numa.dat "$tmp/exp/recordings/tg-stock-r$r.dat"
	printf 'tg\tstock\t%s\ttg-stock-r%s.dat\tnan\tnan\t0\t230\n' $r $r >>"$tmp/exp/recordings/throughput.tsv"
done
echo "# fairlab experiment --report-only -o exp"
(cd "$tmp" && FAIRLAB_EXPERIMENT_LIB=$top/tools/experiment "$FAIRLAB" experiment --report-only -o exp 2>&1 |
	grep -v '^#  ')
rm -rf "$tmp"
cat <<'EOF'

(The analyzer's warnings, counted, come first; they are left out here.)
One row per tg policy: the mean over its rounds ± the standard deviation
in % of the mean; "vs stock" is the change of writes/s. write% (writes per
attempt) does not depend on how busy a run was; writes/s and switches/s
do. "xnode tr/s" is the coherence model's cross-node transfers of the
groups' lines per second (reads included; under a split tg_layout every
domain's line). "shares" is the headline error ('-' here: this recording has no
tg_read records), |E| the accumulated error in load units, "rel" |E| over
the sum of the loads, the starred columns the workload's own throughput
(what it wrote to $FAIRLAB_METRICS), "lost" the events lost.

The verdict counts a difference only beyond the round-to-round spread
(Welch's one-sided t-test at 5%): Pareto-optimal policies (no other has
a lower cost and a smaller error), dominated ones, and those the spread
cannot tell apart, once for each cost: modeled cross-node transfers/s
first, then writes/s and writes per attempt. Its error is the headline, the time-weighted mean
shares error; a run where some policy has none (here: no tg_read records)
falls back to mean |E| and says so. verdict-load.txt is the same verdict
by mean |E| always; pareto-policies.png draws both (shares error above,
|E| below). A real run of make demo (5 rounds of 11 policies in a
4-vCPU VM) is in demo/example/table.txt and the plots beside it.
EOF
} >"$out/experiment_example.txt"
