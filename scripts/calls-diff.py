#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare an rt-amd64 build's replaced functions with the non-rt build of
the same version: scripts/calls.py lines of both, less the differences the
port follows.

usage: scripts/calls-diff.py [--help] NONRT RT RULES CONFIG

NONRT, RT: scripts/calls.py outputs (`FUNCTION CHAIN inline|call NAME`).
RULES: module/port/<series>/rt.txt (none: no difference is followed), lines

  SIGN FUNCTION CHAIN KIND NAME OPTION=VALUE

SIGN `-` a fact of the non-rt build the rt build lacks, `+` one only the rt
build has; FUNCTION, CHAIN and NAME are shell patterns (fnmatch); a rule
counts only when the rt build's CONFIG (.config) has OPTION=VALUE (`n`: not
set), and then it must explain at least one difference.  Every other
difference is one the port does not follow: the first (in the order of
calls.py's sorted lines, `-` before `+` at a tie) is printed as
`rt: FUNCTION: ...` and the exit status is 1.  Exit 0 and no output when
the two builds' facts agree up to the rules.

example:
  scripts/calls-diff.py .cache/port-check/6.1.0-57-amd64/calls.txt \\
      .cache/port-check/6.1.0-57-rt-amd64/calls.txt module/port/6.1/rt.txt \\
      .cache/headers-6.1.0-57-rt-amd64/usr/src/linux-headers-6.1.0-57-rt-amd64/.config
"""
import fnmatch
import sys


def facts(path):
    return {tuple(l.split()) for l in open(path) if l.strip() and not l.startswith("#")}


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(sys.argv) != 5:
        print("usage: scripts/calls-diff.py NONRT RT RULES CONFIG", file=sys.stderr)
        return 2
    nonrt, rt = facts(sys.argv[1]), facts(sys.argv[2])
    config = {}
    for l in open(sys.argv[4]):
        l = l.strip()
        if l.startswith("CONFIG_") and "=" in l:
            k, v = l.split("=", 1)
            config[k] = v
        elif l.startswith("# CONFIG_") and l.endswith(" is not set"):
            config[l.split()[1]] = "n"
    rules = []
    try:
        lines = open(sys.argv[3]).readlines()
    except FileNotFoundError:
        lines = []      # no rt.txt: the port follows no difference
    for n, l in enumerate(lines, 1):
        w = l.split()
        if not w or w[0].startswith("#"):
            continue
        if len(w) != 6 or w[0] not in "+-" or "=" not in w[5]:
            print("calls-diff: %s:%d: not `SIGN FUNCTION CHAIN KIND NAME OPTION=VALUE`"
                  % (sys.argv[3], n), file=sys.stderr)
            return 2
        opt, val = w[5].split("=", 1)
        if config.get(opt, "n") == val:
            rules.append([w[0], w[1:5], n, 0])
    diff = sorted([("-",) + f for f in nonrt - rt] + [("+",) + f for f in rt - nonrt],
                  key=lambda d: (d[1:], d[0] != "-"))
    for d in diff:
        hit = None
        for r in rules:
            if r[0] == d[0] and all(fnmatch.fnmatchcase(x, p) for x, p in zip(d[1:], r[1])):
                hit = r
                break
        if hit is None:
            side = "the non-rt build has" if d[0] == "-" else "only the rt build has"
            print("rt: %s: %s `%s %s` in %s" % (d[1], side, d[3], d[4], d[2]))
            return 1
        hit[3] += 1
    for r in rules:
        if r[3] == 0:
            print("rt: rule %s:%d (%s) explains no difference: the port follows a change "
                  "this build does not have" % (sys.argv[3], r[2], " ".join([r[0]] + r[1])))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
