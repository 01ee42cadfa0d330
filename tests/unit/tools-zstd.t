#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# trace.dat v7 zstd read in place (tools/reader/zpages.h), ASan+UBSan build:
#  - on every committed recording (tests/data/*.dat, as recorded) and on
#    the same converted back from v6 to v7 zstd with `trace-cmd convert`,
#    `report` (text, --json, --csv) and `whatif --csv` print byte for byte,
#    stdout and stderr, what they print through libtracecmd's uncompressed
#    copy (FAIRLAB_ZSTD=0), and FAIRLAB_PROFILE says the chunks were read
#    in place (so that a silent fallback fails);
#  - no temporary copy: with $TMPDIR unusable the same output, no warning,
#    and no file created at all (strace, when installed);
#  - the CPUs decoded on 2 and 3 threads (--threads, pardecode.h) give
#    byte for byte what one thread gives (report text and --json, whatif
#    --csv), on every committed recording and on a 16-CPU one made by
#    fl-tracegen (many records of equal timestamps on different CPUs);
#  - the records a slot of those threads, by FAIRLAB_PROFILE: 2048 for 4
#    CPUs, fewer but at least 256 for 16;
#  - a corrupt chunk header, a corrupt zstd frame, garbage in a chunk and
#    a truncated file: a clear error and exit 1 (garbage that still
#    decompresses may also read as records), never a sanitizer report;
#    the same message on 1 and 2 threads;
#  - a page whose padding points back at its first event (kbuffer then
#    re-reads its events for ever, tools/test/v7_chunks.py): the
#    record bound ends it, exit 1, on 1 and 2 threads and through the copy;
#  - a first page whose padding points at itself (kbuffer never returns
#    from it while the file is opened): the watchdog ends it, exit 1
#    naming the page, nothing left unreachable (LeakSanitizer).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
make_flavours
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# same_output NAME FILE ARGS...: ARGS on FILE, in place and through the copy
same_output() {
	local name=$1 f=$2 nonempty=${NONEMPTY:-1}
	shift 2
	FAIRLAB_PROFILE=1 "$FAIRLAB" "$@" "$f" >"$tmp/z.out" 2>"$tmp/z.err"; zs=$?
	FAIRLAB_ZSTD=0 "$FAIRLAB" "$@" "$f" >"$tmp/c.out" 2>"$tmp/c.err"; cs=$?
	grep -v '^fairlab profile:' "$tmp/z.err" >"$tmp/z.err2"
	check "$name: $* identical (stdout, stderr, exit $zs) read in place and through the copy" \
		eval 'test $zs = $cs && { test $nonempty = 0 || test -s "$tmp/z.out"; } && cmp -s "$tmp/z.out" "$tmp/c.out" &&
		      cmp -s "$tmp/z.err2" "$tmp/c.err"'
}

for f in "$DATA"/analyzer-*.dat; do
	b=$(basename "$f" .dat)
	conv=$tmp/$b.reconv.dat
	trace-cmd convert --file-version 7 --compression zstd -i "$WORK/$b.v6.dat" -o "$conv" \
		>/dev/null 2>&1
	for g in "$f" "$conv"; do
		name=$(basename "$g")
		FAIRLAB_PROFILE=1 "$FAIRLAB" report --json "$g" 2>"$tmp/err" >/dev/null
		check "$name: its zstd chunks are read in place" \
			grep -q "zstd chunks read in place" "$tmp/err"
		for fmt in "" --json --csv; do
			# the converted copy: one format is enough
			[ "$g" = "$conv" ] && [ "$fmt" != --json ] && continue
			same_output "$name" "$g" report $fmt
		done
	done
	same_output "$b" "$f" whatif --csv
done
# refused the same way: no fairlab formats
NONEMPTY=0 same_output sched-only "$DATA/sched-only.dat" report
check "sched-only.dat: refused (exit 1)" test "$zs" = 1

# ---- no temporary copy ----
f=$DATA/analyzer-policies.dat
"$FAIRLAB" report --json "$f" >"$tmp/ref" 2>/dev/null
TMPDIR=$tmp/missing "$FAIRLAB" report --json "$f" >"$tmp/out" 2>"$tmp/err"; s=$?
check "with \$TMPDIR missing: the same report, no copy warning (exit $s)" \
	eval 'test $s = 0 && cmp -s "$tmp/ref" "$tmp/out" && ! grep -q "uncompressed copy" "$tmp/err"'

# libtracecmd's own copies go to /tmp/trace_cpu_data*, whatever $TMPDIR
# says: strace sees every file created
if command -v strace >/dev/null; then
	strace -f -e trace=open,openat,creat -o "$tmp/strace" "$FAIRLAB" report "$f" >/dev/null 2>&1
	FAIRLAB_ZSTD=0 strace -f -e trace=open,openat,creat -o "$tmp/strace0" "$FAIRLAB" report "$f" \
		>/dev/null 2>&1
	check "no file created while reading in place (strace; the copy creates $(grep -c O_CREAT "$tmp/strace0"))" \
		eval 'grep -q "analyzer-policies.dat" "$tmp/strace" && ! grep -q O_CREAT "$tmp/strace" &&
		      grep -q O_CREAT "$tmp/strace0"'
else
	note "strace missing: file creation not checked"
fi

# ---- decoding threads ----
# same_threads NAME FILE ARGS...: ARGS on FILE with 1, 2 and 3 decoding
# threads (never more than the recording's CPUs: 2 for a 2-CPU one)
same_threads() {
	local name=$1 f=$2 n
	shift 2
	"$FAIRLAB" "$@" --threads=1 "$f" >"$tmp/t1.out" 2>"$tmp/t1.err"; s1=$?
	for n in 2 3; do
		FAIRLAB_PROFILE=1 "$FAIRLAB" "$@" --threads=$n "$f" >"$tmp/tn.out" 2>"$tmp/tn.err"; sn=$?
		grep -v '^fairlab profile:' "$tmp/tn.err" >"$tmp/tn.err2"
		check "$name: $* identical (stdout, stderr, exit $s1) on 1 and $n decoding threads" \
			eval 'test $s1 = $sn && test -s "$tmp/t1.out" && cmp -s "$tmp/t1.out" "$tmp/tn.out" &&
			      cmp -s "$tmp/t1.err" "$tmp/tn.err2" &&
			      grep -E -q "^fairlab profile: CPU seconds per stage: [2-$n] decoding threads" "$tmp/tn.err"'
	done
}
gen=${FL_TRACEGEN:-$top/build/asan/fl-tracegen}
threads_files=("$DATA"/analyzer-*.dat)
if [ -x "$gen" ]; then
	"$gen" -q -k 4 "$DATA/analyzer-policies.dat" -o "$tmp/gen16.dat" &&
		threads_files+=("$tmp/gen16.dat")
	check "fl-tracegen made a 16-CPU v7 zstd file" test -s "$tmp/gen16.dat"
else
	not_ok "$gen is built (make -C tools all)"
fi
for g in "${threads_files[@]}"; do
	name=$(basename "$g")
	for fmt in "" --json; do
		same_threads "$name" "$g" report $fmt
	done
	same_threads "$name" "$g" whatif --csv
done
# A slot holds as many records as keep every stream's FL_PAR_SLOTS slots
# within FL_PAR_BYTES, 256 to 2048 (pardecode.h): the most for a few CPUs,
# fewer for more.  analyzer-policies.dat's CPUs hold some 23,000 records
# each, so the comparisons above pass the ring of slots many times over.
slots_of() {
	FAIRLAB_PROFILE=1 "$FAIRLAB" report --threads=2 "$1" 2>&1 >/dev/null |
		sed -n 's/.*slots of \([0-9]*\) records.*/\1/p'
}
s4=$(slots_of "$DATA/analyzer-policies.dat")
check "4 CPUs: slots of 2048 records (profile: '$s4')" test "$s4" = 2048
if [ -s "$tmp/gen16.dat" ]; then
	s16=$(slots_of "$tmp/gen16.dat")
	check "16 CPUs: fewer records a slot than 4 CPUs, at least 256 (profile: '$s16')" \
		eval 'test -n "$s16" && test "$s16" -ge 256 && test "$s16" -lt 2048'
fi
"$FAIRLAB" report --threads=0 "$DATA/analyzer-numa.dat" >/dev/null 2>"$tmp/err"; s=$?
check "--threads=0: usage error (exit $s)" eval 'test $s = 2 && grep -q -- "--threads" "$tmp/err"'

# ---- corrupt files ----
# cpu0 chunk3 chunk4: file offsets of CPU 0's data (its chunk count) and
# of its 3rd and 4th chunk headers
read -r cpu0 chunk3 chunk4 < <(python3 "$top/tools/test/v7_chunks.py" offsets "$f")
# corrupt NAME OFFSET HEX: a copy of $f with bytes HEX (printf escapes) at OFFSET
corrupt() {
	cp "$f" "$tmp/$1.dat"
	printf "$3" | dd of="$tmp/$1.dat" bs=1 seek="$2" conv=notrunc status=none
}
if [ -z "$chunk3" ]; then
	not_ok "found the chunks of CPU 0 in $f"
else
	corrupt zsize "$chunk3" '\xf0\xff\xff\xff'
	corrupt usize $((chunk3 + 4)) '\x03\x00\x00\x00'
	corrupt frame $((chunk3 + 8)) '\x00\x00\x00\x00'
	# the chunk count says 3: the chunks stop before the CPU's data does
	corrupt count "$cpu0" '\x03\x00\x00\x00'
	for c in zsize usize frame count; do
		at=$chunk3
		test $c = count && at=$chunk4
		run_fl "$tmp/out" "$tmp/err" report "$tmp/$c.dat"; s=$?
		check "corrupt chunk ($c): exit 1, says where and that the file is corrupt" \
			eval 'test $s = 1 && grep -q "CPU index 0: .* at offset $at (corrupt trace.dat)" "$tmp/err" &&
			      ! grep -E -q "$SAN_REPORT" "$tmp/err"'
		for n in 1 2; do
			run_fl "$tmp/out$n" "$tmp/err$n" report --threads=$n "$tmp/$c.dat"
			echo "exit $?" >>"$tmp/err$n"
		done
		check "corrupt chunk ($c): the same output and message on 1 and 2 decoding threads" \
			eval 'cmp -s "$tmp/out1" "$tmp/out2" && cmp -s "$tmp/err1" "$tmp/err2"'
	done
	check "a chunk count short of the CPU's data: named as such" \
		grep -q "data after the CPU's last chunk" "$tmp/err1"
	cp "$f" "$tmp/garbage.dat"
	head -c 4000 /dev/urandom | dd of="$tmp/garbage.dat" bs=1 seek=$((chunk3 + 12)) conv=notrunc status=none
	run_fl "$tmp/out" "$tmp/err" report "$tmp/garbage.dat"; s=$?
	check "garbage in a chunk: exit 0 or 1 (exit $s), no sanitizer report" \
		eval '{ test $s = 0 || test $s = 1; } && ! grep -E -q "$SAN_REPORT" "$tmp/err"'
fi
if ! command -v zstd >/dev/null; then
	not_ok "the zstd command (make deps) to build a looping page"
elif ! python3 "$top/tools/test/v7_chunks.py" loop "$f" "$tmp/loop.dat" >/dev/null; then
	not_ok "a looping page made from $f"
else
	for how in "--threads=1" "--threads=2" "FAIRLAB_ZSTD=0"; do
		case $how in
		FAIRLAB_ZSTD=0) FAIRLAB_ZSTD=0 timeout 120 "$FAIRLAB" report "$tmp/loop.dat" \
					>"$tmp/out" 2>"$tmp/err"; s=$? ;;
		*) timeout 120 "$FAIRLAB" report "$how" "$tmp/loop.dat" >"$tmp/out" 2>"$tmp/err"; s=$? ;;
		esac
		check "a page that loops ($how): exit 1 (exit $s), more records than the data holds" \
			eval 'test $s = 1 && grep -q "more records than the file" "$tmp/err" &&
			      ! grep -E -q "$SAN_REPORT" "$tmp/err"'
	done
fi
# The same padding as a page's first event, pointing at itself: kbuffer
# skips it for ever without returning, in the reader's first walk of CPU
# 0's pages while it opens the file; the watchdog's jump must leave
# nothing unreachable (LeakSanitizer at exit: exit 99) and name the page.
if ! command -v zstd >/dev/null; then
	not_ok "the zstd command (make deps) to build a page kbuffer never leaves"
elif ! python3 "$top/tools/test/v7_chunks.py" stall "$f" "$tmp/stall.dat" >/dev/null; then
	not_ok "a page kbuffer never leaves made from $f"
else
	FAIRLAB_STALL_SECS=1 timeout 120 "$FAIRLAB" report "$tmp/stall.dat" >"$tmp/out" 2>"$tmp/err"; s=$?
	check "a first page kbuffer never leaves, read in place: exit 1 (exit $s) naming the page, no sanitizer report" \
		eval 'test $s = 1 && grep -q "no progress walking a CPU.s first ring-buffer page" "$tmp/err" &&
		      ! grep -E -q "$SAN_REPORT" "$tmp/err"'
	FAIRLAB_ZSTD=0 FAIRLAB_STALL_SECS=1 timeout 120 "$FAIRLAB" report "$tmp/stall.dat" \
		>"$tmp/out" 2>"$tmp/err"; s=$?
	check "the same page through the copy: exit 1 (exit $s) with a message, no sanitizer report" \
		eval 'test $s = 1 && grep -q "no progress" "$tmp/err" && ! grep -E -q "$SAN_REPORT" "$tmp/err"'
fi
head -c $(($(stat -c %s "$f") * 7 / 10)) "$f" >"$tmp/trunc.dat"
run_fl "$tmp/out" "$tmp/err" report "$tmp/trunc.dat"; s=$?
check "truncated v7 zstd: exit 1 with a message, no sanitizer report" \
	eval 'test $s = 1 && grep -q "truncated or corrupt" "$tmp/err" && ! grep -E -q "$SAN_REPORT" "$tmp/err"'
tap_end
