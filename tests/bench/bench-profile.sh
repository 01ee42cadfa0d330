#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Where patched-stock's instructions go (part 3 of make bench-module; also
# make bench-profile).  Not a test.
#
# Two VM boots one after the other (1 vCPU each, guest clock counting
# guest instructions, QEMU -icount shift=0: the counts do not depend on
# what else the host runs, so the boots need not overlap), each running
# the same pipe
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
#     vmlinux runs through;
#   - on a kernel whose update_tg_load_avg() rate-limits by
#     sched_clock_cpu() (6.7 on: 6.12), what that clock read costs per
#     attempt: the instructions of sched_clock_cpu() and of the clock
#     functions it calls, per call (instructions / entries, an entry being
#     an execution of the block at the function's first address), and
#     the attempts per switch (entries of fl_tg_update_slow(), through
#     which stock goes on such a kernel, one clock read each); as a share
#     of the attempt's instructions and of the kernel's per switch.
#     TCG counts instructions, not cycles: what the read costs in time
#     (rdtsc's latency, the cache misses of a remote CPU's clock data)
#     the emulated VM cannot say.
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

echo "== kernel instructions per context switch: pipe ping-pong, $rts round trips in a 2-level cgroup, 1 vCPU, -icount (unpatched vs tg_policy=$policy; kernel ${KERNEL:-default})"
for mode in none "$policy"; do
	tag=${mode//:/_}
	rm -rf "$out/vm.$tag" "$out/tb.$tag"
	if ! tests/vm/run-scenario.sh --smp 1 --icount 0 --timeout 600 \
		--qemu-arg "-plugin $out/tb-insns.so,out=$out/tb.$tag,begin=$begin,end=$end" \
		--append "PROFILE_POLICY=$mode PROFILE_ROUNDTRIPS=$rts" \
		--out "$out/vm.$tag" "$src/profile.guest.sh" >"$out/vm.$tag.log" 2>&1 ||
	   [ ! -s "$out/vm.$tag/profile.txt" ] || [ ! -s "$out/tb.$tag" ] ||
	   grep -q '^# incomplete' "$out/tb.$tag"; then
		echo "bench-profile: the $mode run failed, see $out/vm.$tag.log" >&2
		tail -5 "$out/vm.$tag.log" >&2
		exit 1
	fi
	# instructions and entries per kernel function: kallsyms and blocks
	# merged by address (16-digit lower-case hex sorts as text); a block
	# at a function's first address is an entry into it
	{
		awk '$2 ~ /^[tTwW]$/ { print $1, 0, $3 $4, 0 }' "$out/vm.$tag/kallsyms"
		awk '{ print $1, 1, $2 * $3, $3 }' "$out/tb.$tag"
	} | LC_ALL=C sort -k1,1 -k2,2n |
		awk '$2 == 0 { f = $3; fa = $1; next }
		     { n[f] += $3; if ($1 == fa) e[f] += $4 }
		     END { for (f in n) print f, n[f], e[f] + 0 }' \
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

# The rate limit's clock read, where stock reads one per attempt: every
# attempt of stock then goes through fl_tg_update_slow() (tg_update.h:
# the rule needs the clock), which calls sched_clock_cpu() once, so its
# entries count the clock reads the rate limit makes.
attempts=$(awk '$1 == "fl_tg_update_slow[fairlab]" { print $3 }' "$out/funcs.$ptag")
if [ "$policy" = stock ] && [ "${attempts:-0}" -gt 0 ]; then
	echo
	echo "the rate limit's clock read (sched_clock_cpu() per update_tg_load_avg() attempt):"
	printf "%-28s %14s %14s %14s %14s\n" "clock function" "entries" "instr." "instr./entry" "instr./switch"
	printf "%-28s %14s %14s %14s %14s\n" "(patched boot)" "(per switch)" "(per attempt)" "" ""
	# the clock functions: sched_clock_cpu() and what it calls on x86
	clockfns='^(sched_clock_cpu|sched_clock|sched_clock_noinstr|native_sched_clock|paravirt_sched_clock|sched_clock_local|sched_clock_remote|kvm_sched_clock_read|kvm_clock_read|pvclock_clocksource_read|pvclock_clocksource_read_nowd)$'
	awk -v sw="$p_sw" -v att="$attempts" -v re="$clockfns" '
		$1 ~ re {
			printf "%-28s %14.3f %14.2f %14.2f %14.2f\n", $1, $3 / sw, $2 / att,
				$3 ? $2 / $3 : 0, $2 / sw
		}' "$out/funcs.$ptag" | sort -k2,2gr
	awk -v sw="$p_sw" -v att="$attempts" -v u_sw="$u_sw" -v re="$clockfns" '
		FNR == NR { if ($1 == "sched_clock_cpu") ue = $3 / u_sw; uk += $2 / u_sw; next }
		$1 == "fl_tg_update_slow[fairlab]" { own = $2 / $3 }
		$1 == "sched_clock_cpu" { e = $3 }
		$1 ~ re { ci += $2; if ($3 > ce) ce = $3 }
		{ pk += $2 / sw }
		END {
			if (!e) { print "sched_clock_cpu() never ran in the window"; exit }
			# a sched_clock_cpu() call, what it calls included
			c = ci / e
			if (ce > 1.01 * e)
				print "(a clock function was entered more often than sched_clock_cpu(), from elsewhere: the per-read figure below counts those calls too, an upper bound)"
			printf "attempts (fl_tg_update_slow entries): %.3f per switch; sched_clock_cpu() calls: %.3f per switch patched, %.3f unpatched (%.2f%% of the patched calls are the rate limit'"'"'s)\n",
				att / sw, e / sw, ue, 100 * att / e
			printf "one clock read: %.1f instructions (sched_clock_cpu() and its callees, per call); fl_tg_update_slow() itself: %.1f per attempt\n", c, own
			printf "so per attempt the clock read is %.0f%% of the attempt'"'"'s %.1f instructions (fairlab'"'"'s, decision and counters included)\n",
				100 * c / (c + own), c + own
			printf "per switch: %.1f instructions of clock reads by the rate limit, %.2f%% of the %.1f kernel instructions per switch patched (%.2f%% of the %.1f unpatched)\n",
				c * att / sw, 100 * c * att / sw / pk, pk, 100 * c * att / sw / uk, uk
		}' "$out/funcs.none" "$out/funcs.$ptag"
	echo "(TCG counts instructions, not cycles: the time a clock read takes on hardware, rdtsc's latency and the cache misses of reading a remote CPU's clock, is not measured here)"
fi
