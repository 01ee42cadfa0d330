#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What each replaced function of a kernel build calls and inlines, from
its debug vmlinux (kernel/sched/fair.c's DWARF and the function's code).

usage: scripts/calls.py [--help] VMLINUX FUNCTION...

For each FUNCTION (an out-of-line function of kernel/sched/fair.c, as a
port's port.c lists them), prints one line per fact, sorted, duplicates
merged:

  FUNCTION CHAIN inline NAME   an inlined copy of NAME, reached through
                               CHAIN (FUNCTION>inlined>...>NAME's caller)
  FUNCTION CHAIN call NAME     a call or tail jump to the text symbol NAME
                               from code DWARF attributes to CHAIN (the
                               innermost inlined subroutine holding it)

Addresses, offsets, line numbers and how often a fact occurs are left out,
so two builds of one source compiled with different configurations give
the same lines where the function's source and its inlined callees'
sources did the same.  scripts/port-check.sh compares an rt-amd64 build's
lines with those of the non-rt build of the same version (module/port/
<series>/rt.txt lists the differences the port follows).  Needs
python3-pyelftools and objdump; about half a minute per vmlinux.

example:
  scripts/calls.py .cache/dbg/vmlinux-6.1.0-57-rt-amd64 task_tick_fair
"""
import argparse
import bisect
import importlib.util
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("surface", os.path.join(here, "surface.py"))
surface = importlib.util.module_from_spec(spec)
spec.loader.exec_module(surface)

# a direct call or jump: "call   ffffffff81234567 <name>" (no +offset: a
# symbol's start, so another function, not a branch inside this one)
TARGET = re.compile(r"^(call|jmp)\w*\s+[0-9a-f]+ <([A-Za-z0-9_.$]+)>$")


def symbols(elf, names):
    """name -> address of each STT_FUNC of .symtab named in names"""
    st = elf.get_section_by_name(".symtab")
    out = {}
    for s in st.iter_symbols() if st is not None else ():
        if s.name in names and s["st_info"]["type"] == "STT_FUNC" and s["st_size"] > 0:
            out.setdefault(s.name, s["st_value"])
    return out


def facts(vmlinux, tree, functions):
    """The sorted `FUNCTION CHAIN inline|call NAME` lines of functions."""
    byname = {}
    for n in tree.concrete:
        byname.setdefault(n.name, []).append(n)
    out = set()
    owner = []          # (lo, hi, function) of every range of every function
    for f in functions:
        nodes = byname.get(f)
        if not nodes:
            sys.exit("calls.py: error: %s: no out-of-line %s in %s" % (vmlinux, f, surface.FAIR_CU))
        for node in nodes:
            stack = [(node, f)]
            while stack:
                n, chain = stack.pop()
                for c in n.children:
                    if c.tag == "DW_TAG_inlined_subroutine":
                        out.add("%s %s inline %s" % (f, chain, c.name))
                        stack.append((c, chain + ">" + c.name))
                    else:
                        stack.append((c, chain))
            owner += [(lo, hi, f) for lo, hi in node.ranges]
    owner.sort()
    starts = [o[0] for o in owner]
    # objdump runs per cluster of ranges, not per range: each reads all symbols
    for addr, text in surface.objdump_ranges(vmlinux, [o[:2] for o in owner]):
        m = TARGET.match(" ".join(text.split()))
        if not m:
            continue
        # every function whose ranges hold addr (one, unless listed twice)
        k = bisect.bisect_right(starts, addr)
        for lo, hi, f in owner[:k]:
            if lo <= addr < hi and m.group(2) != f:
                chain = ">".join(x.name for x in tree.innermost(addr))
                out.add("%s %s call %s" % (f, chain or f, m.group(2)))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[1].split("\n\nexample")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="scripts/calls.py [--help] VMLINUX FUNCTION...",
        epilog="example:\n  scripts/calls.py .cache/dbg/vmlinux-6.1.0-57-rt-amd64 task_tick_fair")
    ap.add_argument("vmlinux")
    ap.add_argument("functions", nargs="+")
    a = ap.parse_args()
    with open(a.vmlinux, "rb") as fh:
        elf = surface.ELFFile(fh)
        if not elf.has_dwarf_info():
            sys.exit("calls.py: error: %s has no DWARF (a -dbg vmlinux?)" % a.vmlinux)
        # linked (ET_EXEC): its .rela.debug_* (6.1's --emit-relocs) are
        # applied already; pyelftools would apply ~11M of them again in Python
        dwarf = elf.get_dwarf_info(relocate_dwarf_sections=elf["e_type"] == "ET_REL")
        # .debug_aranges finds fair.c's unit from a replaced function's address
        addrs = symbols(elf, set(a.functions)).values()
        cu = surface.find_cu(dwarf, surface.FAIR_CU, sorted(addrs))
        if cu is None:
            sys.exit("calls.py: error: no %s compile unit in %s" % (surface.FAIR_CU, a.vmlinux))
        tree = surface.CUTree(dwarf, cu)
    for line in facts(a.vmlinux, tree, a.functions):
        print(line)


if __name__ == "__main__":
    main()
