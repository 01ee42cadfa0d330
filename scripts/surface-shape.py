#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The structure of a patch surface (scripts/surface.py output), and its comparison.

usage: scripts/surface-shape.py [--help] SURFACE [PORT_SURFACE]

One SURFACE: prints its shape, the lines that must be equal for a port
written for one build to serve another, sorted:

  root NAME holds: WHAT            a function the port replaces, and what
                                   it holds (targets inlined / via a call)
  holder NAME traceable|notrace    an out-of-line function holding a target
  inline A -> B -> ...             an inline chain inside a holder
  call HOLDER -> CALLEE (ARGS)     a call to a notrace holder, with the
                                   constant arguments DWARF records
  nocall FUNC -> CALLEE (ARGS)     such a call proven not to reach a target
  write FUNC: A -> B -> ...        one instruction writing tg->load_avg (one
                                   line per write site: their number counts)
  reader NAME traceable|notrace holds: WHAT, and its inline chains and
  readcall FUNC -> call CALLEE     direct calls of a reader

Left out: addresses, sizes, offsets inside functions, source line numbers,
the registers and instructions of the proofs, and locked writes outside
kernel/sched/fair.c ('other' lines): code generation moves those without
changing what the port must replace.

Two SURFACEs (a build's, then the port's): exits 0 when the shapes are
equal, else 1 with one line naming the first difference on stdout.

examples:
  scripts/surface-shape.py module/port/6.1/surface.txt
  scripts/surface-shape.py .cache/port-check/6.1.0-47-amd64/surface.txt module/port/6.1/surface.txt
"""
import re
import sys


def shape(path):
    out = []
    with open(path) as f:
        for ln in f:
            ln = ln.rstrip("\n")
            s = ln.strip()
            if not s or s.startswith("#"):
                continue
            s = re.sub(r"\s+\[[^\]]*\]$", "", s)            # address ranges
            s = re.sub(r" \([\w./-]+:\d+\)", "", s)          # (fair.c:123)
            s = re.sub(r"\+0x[0-9a-f]+", "", s)              # offsets
            s = re.sub(r" size=0x[0-9a-f]+", "", s)
            s = re.sub(r" 0xffffffff[0-9a-f]+", "", s)       # addresses
            w = s.split()
            kind = w[0]
            if kind in ("decided:", "other"):
                continue
            if kind == "write":
                # write FUNC  ADDR  INSN...  CHAIN: keep the function and chain
                chain = s.split("    ")[-1].strip() if "    " in s else ""
                out.append("write %s: %s" % (w[1], chain))
                continue
            out.append(" ".join(w))
    return sorted(out)


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help") or len(args) > 2:
        print(__doc__, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    try:
        a = shape(args[0])
        if len(args) == 1:
            print("\n".join(a))
            return 0
        b = shape(args[1])
    except OSError as e:
        print("surface-shape.py: error: %s" % e, file=sys.stderr)
        return 2
    if a == b:
        return 0
    only_a = [x for x in a if x not in b or a.count(x) > b.count(x)]
    only_b = [x for x in b if x not in a or b.count(x) > a.count(x)]
    if only_a and (not only_b or only_a[0] <= only_b[0]):
        print("surface: the build has `%s`, the port's surface.txt not" % only_a[0])
    else:
        print("surface: the port's surface.txt has `%s`, the build not" % only_b[0])
    return 1


if __name__ == "__main__":
    sys.exit(main())
