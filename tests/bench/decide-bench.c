// SPDX-License-Identifier: GPL-2.0
/*
 * decide-bench: decides N times for one policy on a precomputed, realistic
 * input mix, through fl_bench_decide(), an out-of-line copy of the inline
 * fl_tg_rule_decide() (module/policy/policy.h) the kernel compiles into its
 * hot path.  Run under callgrind by bench-module.sh: instructions per
 * decision = Ir(fl_bench_decide, inclusive) / N, call and return included.
 *
 *   decide-bench POLICY [N]
 *
 * Input mix (from the tg_update records of the tg-* VM scenarios):
 * contrib 0..2047, delta 0 in 1/4 of the attempts, small (|d| <= contrib/32)
 * in 2/5, large otherwise, either sign; since_ns 0..5 ms or never (1/10);
 * tg_load_avg 0..8191; nr_cpus 4; site weighted as measured (enqueue and
 * dequeue most, the forced blocked-averages path ~1/20, attach/detach).
 */
#include <stdio.h>
#include <stdlib.h>
#include "policy.h"

#define NIN 4096

/* out of line, so that callgrind can count it */
__attribute__((noinline)) bool fl_bench_decide(const struct fl_tg_rule *r,
					       const struct fl_tg_input *in)
{
	return fl_tg_rule_decide(r, in);
}

static u64 rnd_state = 88172645463325252ULL;

static u64 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

int main(int argc, char **argv)
{
	static const u32 sites[20] = { 0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 3, 4, 5,
				       10, 9, 12, 14, 12, 14, 7 };
	static struct fl_tg_input in[NIN];
	struct fl_tg_policy p;
	struct fl_tg_rule r;
	long n = argc > 2 ? atol(argv[2]) : 1000000, i;
	unsigned long writes = 0;

	if (argc < 2 || fl_tg_policy_parse(argv[1], &p)) {
		fprintf(stderr, "usage: decide-bench POLICY [N]\n");
		return 2;
	}
	for (i = 0; i < NIN; i++) {
		u64 c = rnd() % 2048, k = rnd() % 20;
		s64 d;

		if (k < 5)
			d = 0;
		else if (k < 13)
			d = (s64)(rnd() % (c / 32 + 1));
		else
			d = (s64)(rnd() % (c + 1));
		if (rnd() & 1)
			d = -d;
		in[i].delta = d;
		in[i].contrib = c;
		in[i].tg_load_avg = (s64)(rnd() % 8192);
		in[i].since_ns = rnd() % 10 ? rnd() % 5000000 : FL_SINCE_NEVER;
		in[i].nr_cpus = 4;
		in[i].site = sites[rnd() % 20];
	}
	fl_tg_rule_make(&p, 4, &r);	/* as the kernel does at a switch */
	for (i = 0; i < n; i++)
		writes += fl_bench_decide(&r, &in[i & (NIN - 1)]);
	printf("%s: %ld decisions, %lu writes\n", argv[1], n, writes);
	return 0;
}
