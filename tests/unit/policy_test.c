// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the policy code shared with fairlab.ko (module/policy/):
 * every branch of update_pick_idlest under every idlest policy, every tg
 * policy's threshold on both sides, and the parameter parser/formatter.
 * Expected values are worked out by hand from the rules in README.md's
 * "Policies" table.
 */
#include <stdio.h>
#include <string.h>
#include "policy.h"

static int fails, checks;

#define CHECK(cond, ...) do {						\
	checks++;							\
	if (!(cond)) {							\
		fails++;						\
		printf("not ok - %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

static struct fl_sg_stats sg(unsigned type, unsigned idle, unsigned nr,
			     unsigned long util, unsigned long avg,
			     unsigned long maxcap)
{
	struct fl_sg_stats s = { type, idle, nr, util, avg, maxcap };
	return s;
}

static void test_idlest(void)
{
	const unsigned pols[] = { FL_IDLEST_STOCK, FL_IDLEST_IDLE_CPUS,
				  FL_IDLEST_NR_RUNNING };
	/* The initial idlest_sgs of find_idlest_group: overloaded, UINT_MAX. */
	struct fl_sg_stats init = sg(FL_GROUP_OVERLOADED, 0, 0, 0, 0xffffffffUL, 0);
	struct fl_sg_stats a, b;
	unsigned i;

	for (i = 0; i < 3; i++) {
		unsigned p = pols[i];

		/* group_type decides first, in both directions */
		a = sg(FL_GROUP_FULLY_BUSY, 0, 4, 100, 500, 1024);
		b = sg(FL_GROUP_HAS_SPARE, 0, 9, 900, 0, 1024);
		CHECK(fl_idlest_decide(p, &a, &b), "p%u lower type wins", p);
		CHECK(!fl_idlest_decide(p, &b, &a), "p%u higher type loses", p);
		/* first candidate vs the initial stats */
		CHECK(fl_idlest_decide(p, &init, &b), "p%u first spare group picked", p);
		a = sg(FL_GROUP_OVERLOADED, 0, 8, 0, 2000, 1024);
		CHECK(fl_idlest_decide(p, &init, &a), "p%u first overloaded < UINT_MAX", p);
		/* overloaded / fully_busy: strictly lower avg_load */
		b = sg(FL_GROUP_OVERLOADED, 0, 8, 0, 1999, 1024);
		CHECK(fl_idlest_decide(p, &a, &b), "p%u lower avg_load wins", p);
		b.avg_load = 2000;
		CHECK(!fl_idlest_decide(p, &a, &b), "p%u equal avg_load keeps", p);
		a.group_type = b.group_type = FL_GROUP_FULLY_BUSY;
		b.avg_load = 2001;
		CHECK(!fl_idlest_decide(p, &a, &b), "p%u higher avg_load loses", p);
		b.avg_load = 10;
		CHECK(fl_idlest_decide(p, &a, &b), "p%u fully busy lower avg wins", p);
		/* imbalanced and asym_packing never replace */
		a = sg(FL_GROUP_IMBALANCED, 0, 0, 0, 0, 0);
		b = a;
		CHECK(!fl_idlest_decide(p, &a, &b), "p%u imbalanced never", p);
		a.group_type = b.group_type = FL_GROUP_ASYM_PACKING;
		CHECK(!fl_idlest_decide(p, &a, &b), "p%u asym never", p);
		/* misfit: strictly higher max capacity */
		a = sg(FL_GROUP_MISFIT_TASK, 0, 0, 0, 0, 512);
		b = sg(FL_GROUP_MISFIT_TASK, 0, 0, 0, 0, 1024);
		CHECK(fl_idlest_decide(p, &a, &b), "p%u misfit bigger cap wins", p);
		b.max_capacity = 512;
		CHECK(!fl_idlest_decide(p, &a, &b), "p%u misfit equal cap keeps", p);
		/* has_spare: more idle CPUs wins, fewer loses, for all */
		a = sg(FL_GROUP_HAS_SPARE, 2, 5, 300, 0, 1024);
		b = sg(FL_GROUP_HAS_SPARE, 3, 9, 900, 0, 1024);
		CHECK(fl_idlest_decide(p, &a, &b), "p%u more idle cpus wins", p);
		CHECK(!fl_idlest_decide(p, &b, &a), "p%u fewer idle cpus loses", p);
	}

	/* has_spare tie on idle_cpus: the policies differ here only */
	a = sg(FL_GROUP_HAS_SPARE, 2, 5, 300, 0, 1024);
	b = sg(FL_GROUP_HAS_SPARE, 2, 1, 200, 0, 1024);	/* lower util, fewer tasks */
	CHECK(fl_idlest_decide(FL_IDLEST_STOCK, &a, &b), "stock: lower util wins tie");
	CHECK(!fl_idlest_decide(FL_IDLEST_IDLE_CPUS, &a, &b), "idle_cpus: first stays");
	CHECK(fl_idlest_decide(FL_IDLEST_NR_RUNNING, &a, &b), "nr_running: fewer tasks wins");
	b = sg(FL_GROUP_HAS_SPARE, 2, 9, 200, 0, 1024);	/* lower util, more tasks */
	CHECK(fl_idlest_decide(FL_IDLEST_STOCK, &a, &b), "stock: util decides");
	CHECK(!fl_idlest_decide(FL_IDLEST_NR_RUNNING, &a, &b), "nr_running: more tasks loses");
	b = sg(FL_GROUP_HAS_SPARE, 2, 5, 300, 0, 1024);	/* identical */
	CHECK(!fl_idlest_decide(FL_IDLEST_STOCK, &a, &b), "stock: equal util keeps");
	CHECK(!fl_idlest_decide(FL_IDLEST_NR_RUNNING, &a, &b), "nr_running: equal keeps");
	CHECK(!fl_idlest_decide(FL_IDLEST_IDLE_CPUS, &a, &b), "idle_cpus: equal keeps");
	b = sg(FL_GROUP_HAS_SPARE, 2, 1, 400, 0, 1024);	/* higher util, fewer tasks */
	CHECK(!fl_idlest_decide(FL_IDLEST_STOCK, &a, &b), "stock: higher util loses");
	CHECK(fl_idlest_decide(FL_IDLEST_NR_RUNNING, &a, &b), "nr_running: ignores util");
}

static int decide(unsigned id, unsigned arg, long long delta,
		  unsigned long long contrib, long long tg, unsigned long long since,
		  unsigned nr_cpus, unsigned site)
{
	struct fl_tg_policy p = { id, arg };
	struct fl_tg_input in = { delta, contrib, tg, since, nr_cpus, site };

	return fl_tg_decide(&p, &in);
}

static void test_tg(void)
{
	const unsigned ord = FL_SITE_ENQUEUE_ENTITY, forced = FL_SITE_BLOCKED_DIRECT;
	const unsigned long long N = FL_SINCE_NEVER;

	/* stock: |delta| > contrib/64 (6.1); contrib 6400 -> threshold 100 */
	CHECK(!decide(FL_TG_STOCK, 0, 100, 6400, 0, N, 4, ord), "stock 100 !> 100");
	CHECK(decide(FL_TG_STOCK, 0, 101, 6400, 0, N, 4, ord), "stock 101 > 100");
	CHECK(decide(FL_TG_STOCK, 0, -101, 6400, 0, N, 4, ord), "stock negative");
	CHECK(!decide(FL_TG_STOCK, 0, -100, 6400, 0, N, 4, ord), "stock -100");
	CHECK(decide(FL_TG_STOCK, 0, 1, 63, 0, N, 4, ord), "stock small contrib");
	CHECK(!decide(FL_TG_STOCK, 0, 0, 0, 0, N, 4, ord), "stock zero delta");
	CHECK(decide(FL_TG_STOCK, 0, 101, 6400, 0, 0, 4, ord), "stock 6.1: no time gate");
	/*
	 * stock of 6.7+ (arg 1000: 6.12.117's update_tg_load_avg()): publish
	 * only when now - last_update_tg_load_avg >= 1 ms, then as 6.1
	 */
	CHECK(!decide(FL_TG_STOCK, 1000, 5000, 6400, 0, 999999, 4, ord), "stock 6.12: 999999 ns gated");
	CHECK(decide(FL_TG_STOCK, 1000, 101, 6400, 0, 1000000, 4, ord), "stock 6.12: 1 ms open");
	CHECK(!decide(FL_TG_STOCK, 1000, 100, 6400, 0, 1000000, 4, ord), "stock 6.12: open, 100 !> 100");
	CHECK(decide(FL_TG_STOCK, 1000, -101, 6400, 0, N, 4, ord), "stock 6.12: never published");
	CHECK(!decide(FL_TG_STOCK, 1000, 6400, 6400, 0, 0, 4, forced), "stock 6.12: forced site gated too");
	/* force: always, even 0 */
	CHECK(decide(FL_TG_FORCE, 0, 0, 6400, 0, N, 4, ord), "force zero");
	/* nonzero */
	CHECK(!decide(FL_TG_NONZERO, 0, 0, 6400, 0, N, 4, ord), "nonzero 0");
	CHECK(decide(FL_TG_NONZERO, 0, -1, 6400, 0, N, 4, ord), "nonzero -1");
	/* relative:8 -> 800 */
	CHECK(!decide(FL_TG_RELATIVE, 8, 800, 6400, 0, N, 4, ord), "rel8 800");
	CHECK(decide(FL_TG_RELATIVE, 8, 801, 6400, 0, N, 4, ord), "rel8 801");
	/* turner1: /8 ordinary, /16 forced */
	CHECK(!decide(FL_TG_TURNER1, 0, 800, 6400, 0, N, 4, ord), "t1 ordinary 800");
	CHECK(decide(FL_TG_TURNER1, 0, 401, 6400, 0, N, 4, forced), "t1 forced 401");
	CHECK(!decide(FL_TG_TURNER1, 0, 400, 6400, 0, N, 4, forced), "t1 forced 400");
	/* turner2: /8 ordinary, /nr_cpus forced */
	CHECK(!decide(FL_TG_TURNER2, 0, 800, 6400, 0, N, 4, ord), "t2 ordinary 800");
	CHECK(decide(FL_TG_TURNER2, 0, 801, 6400, 0, N, 4, ord), "t2 ordinary 801");
	CHECK(!decide(FL_TG_TURNER2, 0, 1600, 6400, 0, N, 4, forced), "t2 forced 1600");
	CHECK(decide(FL_TG_TURNER2, 0, 1601, 6400, 0, N, 4, forced), "t2 forced 1601");
	/* fixed:T */
	CHECK(!decide(FL_TG_FIXED, 16, 16, 1, 0, N, 4, ord), "fixed 16");
	CHECK(decide(FL_TG_FIXED, 16, -17, 1, 0, N, 4, ord), "fixed -17");
	CHECK(decide(FL_TG_FIXED, 0, 1, 1, 0, N, 4, ord), "fixed:0 = nonzero");
	/* log2:B -> B*(1+ilog2(n)): n=4 -> 3B, n=6 -> 3B, n=8 -> 4B */
	CHECK(!decide(FL_TG_LOG2, 8, 24, 0, 0, N, 4, ord), "log2 24 n4");
	CHECK(decide(FL_TG_LOG2, 8, 25, 0, 0, N, 6, ord), "log2 25 n6");
	CHECK(!decide(FL_TG_LOG2, 8, 32, 0, 0, N, 8, ord), "log2 32 n8");
	CHECK(decide(FL_TG_LOG2, 8, 33, 0, 0, N, 8, ord), "log2 33 n8");
	/* ratelimit:1000us: gate 1e6 ns, then stock */
	CHECK(!decide(FL_TG_RATELIMIT, 1000, 5000, 6400, 0, 999999, 4, ord), "rl gate");
	CHECK(decide(FL_TG_RATELIMIT, 1000, 101, 6400, 0, 1000000, 4, ord), "rl open");
	CHECK(!decide(FL_TG_RATELIMIT, 1000, 100, 6400, 0, 1000000, 4, ord), "rl stock");
	CHECK(decide(FL_TG_RATELIMIT, 1000, 101, 6400, 0, N, 4, ord), "rl never");
	/* budget:5 -> tg*5/(100*n): tg 8000, n 4 -> 100 */
	CHECK(!decide(FL_TG_BUDGET, 5, 100, 0, 8000, N, 4, ord), "budget 100");
	CHECK(decide(FL_TG_BUDGET, 5, -101, 0, 8000, N, 4, ord), "budget -101");
	CHECK(decide(FL_TG_BUDGET, 5, 1, 0, 0, N, 4, ord), "budget empty group");
	CHECK(!decide(FL_TG_BUDGET, 5, 0, 0, -5, N, 4, ord), "budget zero delta");
	CHECK(fl_ilog2(1) == 0 && fl_ilog2(2) == 1 && fl_ilog2(255) == 7 &&
	      fl_ilog2(0) == 0, "ilog2");
}

/*
 * The rules as README.md's "Policies" table states them, with divisions, as the kernel
 * writes "abs(delta) > cfs_rq->tg_load_avg_contrib / 64": an independent
 * statement to hold the division-free rules of policy.c against.
 */
static int reference(unsigned id, unsigned arg, long long delta,
		     unsigned long long contrib, long long tg,
		     unsigned long long since, unsigned nr, unsigned site)
{
	unsigned long long ad = delta < 0 ? -(unsigned long long)delta : (unsigned long long)delta;
	unsigned long long n = nr ? nr : 1, l2 = 0;
	int forced = site == FL_SITE_BLOCKED_DIRECT;

	while (nr >> (l2 + 1))
		l2++;
	switch (id) {
	case FL_TG_FORCE: return 1;
	case FL_TG_NONZERO: return ad != 0;
	case FL_TG_RELATIVE: return ad > contrib / arg;
	case FL_TG_TURNER1: return ad > contrib / (forced ? 16 : 8);
	case FL_TG_TURNER2: return ad > contrib / (forced ? n : 8);
	case FL_TG_FIXED: return ad > arg;
	case FL_TG_LOG2: return ad > arg * (1 + l2);
	case FL_TG_RATELIMIT:
		return since >= arg * 1000ULL && ad > contrib / 64;
	case FL_TG_BUDGET:
		if (tg <= 0)
			return ad != 0;
		return ad > (unsigned long long)tg * arg / (100 * n);
	default: return ad > contrib / 64;
	}
}

/*
 * Random inputs over the policies' whole argument ranges, each decided
 * with a rule made once (as the kernel does at a switch) and checked
 * against the reference.  Integer floor semantics: a > floor(c / N) is
 * a * N > c, which the reference exercises at every boundary it hits.
 */
static void test_tg_reference(void)
{
	static const unsigned args[][4] = {
		[FL_TG_RELATIVE] = { 1, 8, 64, 4096 },
		[FL_TG_FIXED] = { 0, 16, 1000, 1u << 20 },
		[FL_TG_LOG2] = { 0, 1, 8, 1u << 16 },
		[FL_TG_RATELIMIT] = { 1, 1000, 4000, 1000000 },
		[FL_TG_BUDGET] = { 1, 5, 50, 100 },
	};
	static const unsigned nrs[] = { 0, 1, 2, 3, 4, 7, 8, 64, 224, 8192 };
	unsigned long long x = 88172645463325252ULL;
	unsigned id, a, k, bad = 0, n = 0;

	for (id = 0; id < FL_TG_NR_POLICIES + 2; id++) {	/* + unknown ids */
		for (a = 0; a < 4; a++) {
			unsigned arg = id < FL_TG_NR_POLICIES ? args[id][a] : 0;
			unsigned nr = nrs[(id * 4 + a) % 10];
			struct fl_tg_policy p = { id, arg };
			struct fl_tg_rule r;

			fl_tg_rule_make(&p, nr, &r);
			for (k = 0; k < 20000; k++) {
				struct fl_tg_input in;
				unsigned long long c;
				long long d;

				x ^= x << 13; x ^= x >> 7; x ^= x << 17;
				c = x % (1ULL << (x >> 58 & 31));	/* contrib up to 2^31 */
				d = (long long)(x >> 20) % (long long)(c / (1 + (x >> 40) % 70) + 2);
				if (x & 1)
					d = -d;
				in.delta = d;
				in.contrib = c;
				in.tg_load_avg = (long long)(x % 100000) - 10;
				in.since_ns = x & 2 ? FL_SINCE_NEVER : x % 2000000000ULL;
				in.nr_cpus = nr;
				in.site = (unsigned)(x >> 33) % FL_NR_SITES;
				n++;
				if (fl_tg_rule_decide(&r, &in) !=
				    reference(id, arg, in.delta, in.contrib,
					      in.tg_load_avg, in.since_ns, nr,
					      in.site) ||
				    fl_tg_decide(&p, &in) !=
				    fl_tg_rule_decide(&r, &in))
					bad++;
			}
		}
	}
	CHECK(bad == 0, "rules == reference with divisions: %u of %u differ", bad, n);
}

static void parse_ok(const char *s, unsigned id, unsigned arg, const char *canon)
{
	struct fl_tg_policy p = { 99, 99 };
	char buf[64];

	CHECK(fl_tg_policy_parse(s, &p) == 0, "parse '%s'", s);
	CHECK(p.id == id && p.arg == arg, "'%s' -> %u:%u", s, p.id, p.arg);
	fl_tg_policy_format(&p, buf, sizeof(buf));
	CHECK(strcmp(buf, canon) == 0, "'%s' canon '%s' got '%s'", s, canon, buf);
}

static void test_parse(void)
{
	const char *bad[] = { "", "\n", "Stock", "STOCK", "stock ", " stock",
		"stock:1", "stock\n\n", "relative:", "relative:0", "relative:4097",
		"relative:08", "relative:-1", "relative:+8", "relative:8x",
		"relative:99999999999", "1", "42", "fixed:1048577", "budget:0",
		"budget:101", "ratelimit:0", "ratelimit:1000001", "log2:65537",
		"stockstockstockstockstockstockstock", "force:", "turner3", "relative:8:1",
		"rel", "nonzero\t", NULL };
	const char *ibad[] = { "", "\n", "Stock", "idle", "idle_cpus ", "nr_running:1",
		"0", "2", "nr-running", NULL };
	struct fl_tg_policy p;
	char buf[8];
	unsigned i, id;

	parse_ok("stock", FL_TG_STOCK, 0, "stock");
	parse_ok("stock\n", FL_TG_STOCK, 0, "stock");
	parse_ok("force", FL_TG_FORCE, 0, "force");
	parse_ok("nonzero", FL_TG_NONZERO, 0, "nonzero");
	parse_ok("relative", FL_TG_RELATIVE, 8, "relative:8");
	parse_ok("relative:16\n", FL_TG_RELATIVE, 16, "relative:16");
	parse_ok("relative:1", FL_TG_RELATIVE, 1, "relative:1");
	parse_ok("relative:4096", FL_TG_RELATIVE, 4096, "relative:4096");
	parse_ok("turner1", FL_TG_TURNER1, 0, "turner1");
	parse_ok("turner2", FL_TG_TURNER2, 0, "turner2");
	parse_ok("fixed", FL_TG_FIXED, 16, "fixed:16");
	parse_ok("fixed:0", FL_TG_FIXED, 0, "fixed:0");
	parse_ok("log2:8", FL_TG_LOG2, 8, "log2:8");
	parse_ok("ratelimit", FL_TG_RATELIMIT, 1000, "ratelimit:1000");
	parse_ok("ratelimit:1000000", FL_TG_RATELIMIT, 1000000, "ratelimit:1000000");
	parse_ok("budget", FL_TG_BUDGET, 5, "budget:5");
	parse_ok("budget:100", FL_TG_BUDGET, 100, "budget:100");
	for (i = 0; bad[i]; i++)
		CHECK(fl_tg_policy_parse(bad[i], &p) == -1, "reject '%s'", bad[i]);
	for (i = 0; ibad[i]; i++)
		CHECK(fl_idlest_policy_parse(ibad[i], &id) == -1, "reject idlest '%s'", ibad[i]);
	CHECK(fl_idlest_policy_parse("stock", &id) == 0 && id == FL_IDLEST_STOCK, "idlest stock");
	CHECK(fl_idlest_policy_parse("idle_cpus\n", &id) == 0 && id == FL_IDLEST_IDLE_CPUS, "idle_cpus");
	CHECK(fl_idlest_policy_parse("nr_running", &id) == 0 && id == FL_IDLEST_NR_RUNNING, "nr_running");
	/* formatting truncates to the buffer and stays terminated */
	p.id = FL_TG_RATELIMIT;
	p.arg = 1000;
	CHECK(fl_tg_policy_format(&p, buf, sizeof(buf)) == 7 && strcmp(buf, "ratelim") == 0,
	      "format truncates: '%s'", buf);
}

/* tg_layout values: the one parser the module and the analyzer share. */
static void test_layout(void)
{
	static const char *const bad[] = {
		"", "numa", "NODE", "global:5", "global:0", "node:", "node:x",
		"node:-1", "node:+5", "node:01", "node:10000001", "node:4294967296",
		"llc:1000x", "llc::", "node:1000:1", "node ", " llc", "node\n",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL };
	static const struct { const char *s; u8 id; u32 us; } good[] = {
		{ "global", FL_LAYOUT_GLOBAL, 0 }, { "node", FL_LAYOUT_NODE, 0 },
		{ "llc", FL_LAYOUT_LLC, 0 }, { "node:0", FL_LAYOUT_NODE, 0 },
		{ "node:1000", FL_LAYOUT_NODE, 1000 },
		{ "llc:10000000", FL_LAYOUT_LLC, 10000000 } };
	char buf[32];
	unsigned int i;
	u32 us;
	u8 id;

	for (i = 0; bad[i]; i++) {
		id = 99;
		CHECK(fl_layout_parse(bad[i], strlen(bad[i]), &id, &us) == -1 &&
		      id == 99, "reject layout '%s'", bad[i]);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(fl_layout_parse(good[i].s, strlen(good[i].s), &id, &us) == 0 &&
		      id == good[i].id && us == good[i].us, "layout '%s'", good[i].s);
	/* the length given is the value: a trailing newline is the caller's */
	CHECK(fl_layout_parse("node\n", 4, &id, &us) == 0 && id == FL_LAYOUT_NODE,
	      "layout of the first 4 chars of 'node\\n'");
	CHECK(fl_layout_format(FL_LAYOUT_NODE, 1000, buf, sizeof(buf)) == 9 &&
	      !strcmp(buf, "node:1000"), "format node:1000: '%s'", buf);
	CHECK(fl_layout_format(FL_LAYOUT_LLC, 0, buf, sizeof(buf)) == 3 &&
	      !strcmp(buf, "llc"), "format llc: '%s'", buf);
	CHECK(fl_layout_format(FL_LAYOUT_NODE, 1000, buf, 6) == 5 &&
	      !strcmp(buf, "node:"), "format truncates: '%s'", buf);
}

int main(void)
{
	test_idlest();
	test_tg();
	test_tg_reference();
	test_parse();
	test_layout();
	printf("%s - policy unit tests (%d checks, %d failed)\n",
	       fails ? "not ok" : "ok", checks, fails);
	return fails != 0;
}
