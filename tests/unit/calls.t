#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/calls.py on a small executable compiled here from a file named
# kernel/sched/fair.c (gcc -g -O2): each replaced function's inlined
# subroutines with their inline chains and its calls with the chain of
# the code holding them, its .cold part included; the objdump run per
# cluster of ranges (surface.objdump_ranges) gives the instructions one
# run per range gives; a function that is not there is an error.
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/calls.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the system python3 has pyelftools (as in scripts/port-check.sh)
py=/usr/bin/python3
[ -x $py ] || py=python3
fail=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fail=1; }

mkdir -p "$tmp/kernel/sched"
cat >"$tmp/kernel/sched/fair.c" <<'EOF'
__attribute__((noinline)) void ext_call(int x) { __asm__ volatile("" : : "r"(x)); }
__attribute__((noinline)) void other_call(int x) { __asm__ volatile("" : : "r"(x)); }
__attribute__((noinline, cold)) void rare_call(int x) { __asm__ volatile("" : : "r"(x)); }
static inline __attribute__((always_inline)) void helper(int x)
{
	if (x > 3)
		ext_call(x);
}
static inline __attribute__((always_inline)) void outer(int x)
{
	helper(x + 1);
	other_call(x);
}
__attribute__((noinline)) int task_tick_fair(int x)
{
	outer(x);
	if (__builtin_expect(x == 42, 0))
		rare_call(x);
	return x * 3;
}
__attribute__((noinline)) int enqueue_entity(int x)
{
	helper(x);
	return x + 1;
}
void _start(void)
{
	volatile int v = 5;

	enqueue_entity(task_tick_fair(v));
	for (;;)
		;
}
EOF
if ! (cd "$tmp" && gcc -g -O2 -fno-pie -no-pie -nostdlib -static -fno-stack-protector \
	-fcf-protection=none -o vmlinux kernel/sched/fair.c) 2>"$tmp/cc.err"; then
	nok "fixture does not compile: $(head -n1 "$tmp/cc.err")"
	exit 1
fi

$py "$top/scripts/calls.py" "$tmp/vmlinux" task_tick_fair enqueue_entity >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && ok "calls.py runs on the fixture" || nok "calls.py exit $rc: $(cat "$tmp/err")"
for want in \
	"task_tick_fair task_tick_fair inline outer" \
	"task_tick_fair task_tick_fair>outer inline helper" \
	"task_tick_fair task_tick_fair>outer>helper call ext_call" \
	"task_tick_fair task_tick_fair>outer call other_call" \
	"task_tick_fair task_tick_fair call rare_call" \
	"enqueue_entity enqueue_entity inline helper" \
	"enqueue_entity enqueue_entity>helper call ext_call"; do
	grep -qxF "$want" "$tmp/out" && ok "line: $want" || nok "no line '$want' in: $(tr '\n' '|' <"$tmp/out")"
done
# nothing else: enqueue_entity neither inlines outer nor calls other_call
n=$(wc -l <"$tmp/out")
[ "$n" = 7 ] && ok "7 lines, no others" || nok "$n lines: $(tr '\n' '|' <"$tmp/out")"
sort -c "$tmp/out" 2>/dev/null && ok "lines sorted" || nok "lines not sorted"

# the ranges of task_tick_fair (its .cold part too) and enqueue_entity: one
# objdump run for all of them decodes what one run per range decodes
$py - "$top/scripts/surface.py" "$tmp/vmlinux" >"$tmp/cmp" 2>&1 <<'EOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("surface", sys.argv[1])
s = importlib.util.module_from_spec(spec)
spec.loader.exec_module(s)
v = sys.argv[2]
with open(v, "rb") as fh:
    elf = s.ELFFile(fh)
    dwarf = elf.get_dwarf_info(relocate_dwarf_sections=False)
    tree = s.CUTree(dwarf, s.find_cu(dwarf, s.FAIR_CU))
# the two functions calls.py is asked for: code of others lies between
ranges = [r for n in tree.concrete if n.name in ("task_tick_fair", "enqueue_entity")
          for r in n.ranges]
one = sorted(x for lo, hi in ranges for x in s.objdump(v, lo, hi))
many = list(s.objdump_ranges(v, ranges))
split = max(len(n.ranges) for n in tree.concrete)
print("ranges %d split %d insns %d %d same %s" % (len(ranges), split, len(one), len(many), one == many))
EOF
grep -q "same True" "$tmp/cmp" && ! grep -q " insns 0 " "$tmp/cmp" &&
	ok "objdump_ranges = objdump per range ($(cat "$tmp/cmp"))" || nok "objdump_ranges: $(cat "$tmp/cmp")"
grep -q " split [2-9] " "$tmp/cmp" && ok "fixture has a function in two ranges (.cold)" ||
	nok "no split function in the fixture: $(cat "$tmp/cmp")"

$py "$top/scripts/calls.py" "$tmp/vmlinux" no_such_fn >/dev/null 2>"$tmp/err"
[ $? != 0 ] && grep -q "no out-of-line no_such_fn" "$tmp/err" && ok "a missing function is an error" ||
	nok "missing function: $(cat "$tmp/err")"
exit $fail
