#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Where patched-stock's instructions go (part 3 of make bench-module; also
# make bench-profile).  Not a test.
#
# Two VM boots side by side (1 vCPU each, guest clock counting guest
# instructions, QEMU -icount shift=0), each running the same pipe
# ping-pong (insn-profile/pingpong.c) in a 2-level cgroup: one without
# fairlab.ko, one with tg_policy=$PROFILE_POLICY.  A QEMU TCG plugin
# (insn-profile/tb-insns.c) counts the kernel instructions executed during
# the measured loop, per translation block; the guest's /proc/kallsyms
# names them.  Prints, per context switch:
#   - the ping-pong's instructions per round trip in both boots, and
#     their ratio (the throughput ratio of this workload: icount makes it
#     exact to a few instructions);
#   - kernel instructions, total and by function, where the two differ
#     most;
#   - the part that is klp's own: the ftrace trampoline and
#     klp_ftrace_handler that every call into a replaced function from
#     vmlinux runs through.
#
# Env: PROFILE_POLICY (default stock), PROFILE_ROUNDTRIPS (default
#      100000), PROFILE_TOP (rows, default 20).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
out=$TOP/build/bench/profile	# the guest script names pingpong's path
policy=${PROFILE_POLICY:-stock}
rts=${PROFILE_ROUNDTRIPS:-100000}
top=${PROFILE_TOP:-20}
src=tests/bench/insn-profile
mkdir -p "$out"

cc -std=c11 -Wall -Wextra -Werror -O2 -shared -fPIC -o "$out/tb-insns.so" "$src/tb-insns.c"
cc -std=c11 -Wall -Wextra -Werror -O2 -static -no-pie -Wl,-Ttext-segment=0x50000000 \
	-o "$out/pingpong" "$src/pingpong.c"
begin=0x$(nm "$out/pingpong" | awk '$3 == "fl_profile_begin" { print $1 }')
end=0x$(nm "$out/pingpong" | awk '$3 == "fl_profile_end" { print $1 }')

echo "== kernel instructions per context switch: pipe ping-pong, $rts round trips in a 2-level cgroup, 1 vCPU, -icount (unpatched vs tg_policy=$policy)"
pids=()
for mode in none "$policy"; do
	tag=${mode//:/_}
	rm -rf "$out/vm.$tag" "$out/tb.$tag"
	tests/vm/run-scenario.sh --smp 1 --icount 0 --timeout 600 \
		--qemu-arg "-plugin $out/tb-insns.so,out=$out/tb.$tag,begin=$begin,end=$end" \
		--append "PROFILE_POLICY=$mode PROFILE_ROUNDTRIPS=$rts" \
		--out "$out/vm.$tag" "$src/profile.guest.sh" >"$out/vm.$tag.log" 2>&1 &
	pids+=($!)
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
for mode in none "$policy"; do
	tag=${mode//:/_}
	if [ $fail = 1 ] || [ ! -s "$out/vm.$tag/profile.txt" ] || grep -q '^# incomplete' "$out/tb.$tag"; then
		echo "bench-profile: the $mode run failed, see $out/vm.$tag.log" >&2
		tail -5 "$out/vm.$tag.log" >&2
		exit 1
	fi
	# instructions per kernel function: kallsyms and blocks merged by
	# address (16-digit lower-case hex sorts as text)
	{
		awk '$2 ~ /^[tTwW]$/ { print $1, 0, $3 $4 }' "$out/vm.$tag/kallsyms"
		awk '{ print $1, 1, $2 * $3 }' "$out/tb.$tag"
	} | LC_ALL=C sort -k1,1 -k2,2n |
		awk '$2 == 0 { f = $3; next } { n[f] += $3 } END { for (f in n) print f, n[f] }' \
		>"$out/funcs.$tag"
done

ptag=${policy//:/_}
read -r _ u_rt u_sw <"$out/vm.none/profile.txt"
read -r _ p_rt p_sw <"$out/vm.$ptag/profile.txt"
# per function: instructions per switch in each boot, and |difference|
awk -v u_sw="$u_sw" -v p_sw="$p_sw" '
	FNR == NR { u[$1] = $2 / u_sw; all[$1]; next }
	{ p[$1] = $2 / p_sw; all[$1] }
	END {
		for (f in all) {
			d = p[f] - u[f]
			printf "%s %.4f %.4f %.4f %.4f\n", f, u[f], p[f], d, d < 0 ? -d : d
		}
	}' "$out/funcs.none" "$out/funcs.$ptag" | sort -k5,5gr >"$out/diff.$ptag"

awk -v u_rt="$u_rt" -v p_rt="$p_rt" -v u_sw="$u_sw" -v p_sw="$p_sw" -v rts="$rts" \
    -v pol="$policy" '
	{ ut += $2; pt += $3 }
	$1 ~ /^ftrace_trampoline\[/ || $1 == "klp_ftrace_handler" { hop += $4 }
	END {
		printf "ping-pong: %.1f guest instructions per round trip unpatched, %.1f with tg_policy=%s: throughput %.4fx\n",
			u_rt, p_rt, pol, u_rt / p_rt
		printf "context switches in the %d round trips: %d unpatched, %d patched\n", rts, u_sw, p_sw
		printf "kernel instructions per switch: %.1f unpatched, %.1f patched (%+.1f), of which\n", ut, pt, pt - ut
		printf "  klp ftrace hops into replaced functions (ftrace_trampoline, klp_ftrace_handler): %+.1f\n", hop
		printf "  everything else (the replacements against the code they replace):              %+.1f\n", pt - ut - hop
	}' "$out/diff.$ptag"
echo
printf "%-40s %16s %16s %16s\n" "kernel function [module]" "unpatched" "patched" "difference"
printf "%-40s %16s %16s %16s\n" "" "(instr./switch)" "(instr./switch)" "(instr./switch)"
head -n "$top" "$out/diff.$ptag" | awk '{ printf "%-40s %16.1f %16.1f %+16.1f\n", $1, $2, $3, $4 }'
