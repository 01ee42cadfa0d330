#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Fingerprints of kernel functions in a kernel source tree, and their check.

usage: scripts/fingerprint.py [--help] SRCDIR FUNCFILE [--known FILE] [--ref SRCDIR]

FUNCFILE lists the functions a port mirrors, one `PATH FUNCTION` a line
(PATH relative to SRCDIR, e.g. kernel/sched/fair.c; `#` comments).  For
each, the definitions of FUNCTION at file scope in SRCDIR/PATH are found
(every #if branch's definition, in file order), their text normalised
(comments removed, one space between C tokens, so whitespace and comment
changes do not count) and hashed with sha256.

Without --known it prints `PATH FUNCTION SHA256` lines.  With --known FILE
(lines `PATH FUNCTION VARIANT SHA256`: the variants a port implements) it
prints one line per function, `PATH FUNCTION VARIANT`, and exits 1 at the
first function whose fingerprint is not a known variant, naming it on
stderr; with --ref SRCDIR (the port's reference kernel source) that line
also names the first token that differs from the reference's text of the
function.  A function missing from the source is a difference too.

examples:
  scripts/fingerprint.py .cache/src-6.1.0-57-amd64 module/port/6.1/mirrors.txt
  scripts/fingerprint.py .cache/src-6.1.0-47-amd64 module/port/6.1/mirrors.txt \\
      --known module/port/6.1/fingerprints.txt --ref .cache/src-6.1.0-57-amd64
"""
import argparse
import hashlib
import os
import re
import sys

TOKEN = re.compile(r"""
    (?P<pp>^[ \t]*\#(?:[^\n\\]|\\\n|\\.)*)
  | (?P<ws>[ \t\r\f\v]+|\n)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[\w.]|[eEpP][+-])*)
  | (?P<op>->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|\.\.\.|\#\#|[^\s])
""", re.S | re.M | re.X)


def tokens(text):
    """C tokens with their line numbers; a preprocessor directive is one
    token (its own comments removed, whitespace collapsed)."""
    out = []
    line = 1
    for m in TOKEN.finditer(text):
        kind, val = m.lastgroup, m.group()
        if kind == "pp":
            val = re.sub(r"/\*.*?\*/|//[^\n]*", " ", val, flags=re.S)
            val = " ".join(val.replace("\\\n", " ").split())
            out.append((val, line, True))
        elif kind not in ("ws", "comment"):
            out.append((val, line, False))
        line += m.group().count("\n")
    return out


def definitions(toks, name):
    """Token slices of every file-scope definition of function `name`."""
    defs = []
    depth = 0
    start = 0               # first token of the current file-scope declaration
    i, n = 0, len(toks)
    while i < n:
        t, _, pp = toks[i]
        if pp:
            if depth == 0:
                start = i + 1
            i += 1
            continue
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif t == ";" and depth == 0:
            start = i + 1
        elif depth == 0 and t == name and i + 1 < n and toks[i + 1][0] == "(":
            # skip the parameter list, then attributes; a body must follow
            j, par = i + 1, 0
            while j < n:
                if toks[j][0] == "(":
                    par += 1
                elif toks[j][0] == ")":
                    par -= 1
                    if par == 0:
                        break
                j += 1
            k = j + 1
            while k < n and toks[k][0] not in ("{", ";", ",", "="):
                k += 1
            if k < n and toks[k][0] == "{":
                d, e = 0, k
                while e < n:
                    if toks[e][0] == "{" and not toks[e][2]:
                        d += 1
                    elif toks[e][0] == "}" and not toks[e][2]:
                        d -= 1
                        if d == 0:
                            break
                    e += 1
                defs.append(toks[start:e + 1])
                i = e + 1
                start = i
                continue
        i += 1
    return defs


def fingerprint(defs):
    text = "\n".join(" ".join(t for t, _, _ in d) for d in defs)
    return hashlib.sha256(text.encode()).hexdigest(), text


def read_funcs(path):
    funcs = []
    with open(path) as f:
        for ln in f:
            ln = ln.split("#", 1)[0].split()
            if ln:
                if len(ln) != 2:
                    sys.exit("fingerprint.py: error: %s: bad line %r" % (path, " ".join(ln)))
                funcs.append((ln[0], ln[1]))
    return funcs


def read_known(path):
    known = {}
    with open(path) as f:
        for ln in f:
            ln = ln.split("#", 1)[0].split()
            if ln:
                if len(ln) != 4:
                    sys.exit("fingerprint.py: error: %s: bad line %r" % (path, " ".join(ln)))
                known.setdefault((ln[0], ln[1]), []).append((ln[2], ln[3]))
    return known


class Tree:
    def __init__(self, root):
        self.root = root
        self.cache = {}

    def defs(self, path, func):
        if path not in self.cache:
            try:
                with open(os.path.join(self.root, path), errors="replace") as f:
                    self.cache[path] = tokens(f.read())
            except OSError:
                self.cache[path] = None
        toks = self.cache[path]
        return None if toks is None else definitions(toks, func)


def first_difference(mine, ref):
    """'line N: `a` where the reference has `b`' for two definition lists."""
    a = [t for d in mine for t in d]
    b = [t for d in ref for t in d]
    for i in range(max(len(a), len(b))):
        ta = a[i] if i < len(a) else None
        tb = b[i] if i < len(b) else None
        if ta is None or tb is None or ta[0] != tb[0]:
            where = "line %d" % ta[1] if ta else "end of function"
            return "%s: `%s` where the reference has `%s`" % (
                where, ta[0] if ta else "", tb[0] if tb else "")
    return "same tokens as the reference"


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("srcdir")
    ap.add_argument("funcfile")
    ap.add_argument("--known", help="the port's variants: PATH FUNCTION VARIANT SHA256 lines")
    ap.add_argument("--ref", help="the port's reference source tree, to name the first token")
    args = ap.parse_args()
    if not os.path.isdir(args.srcdir):
        print("fingerprint.py: error: no source tree %s" % args.srcdir, file=sys.stderr)
        return 2
    funcs = read_funcs(args.funcfile)
    known = read_known(args.known) if args.known else None
    src = Tree(args.srcdir)
    ref = Tree(args.ref) if args.ref else None
    for path, func in funcs:
        defs = src.defs(path, func)
        if not defs:
            what = "file missing" if defs is None else "no definition"
            if known is None:
                print("fingerprint.py: error: %s:%s(): %s" % (path, func, what), file=sys.stderr)
                return 1
            print("%s:%s(): %s in this source" % (path, func, what), file=sys.stderr)
            return 1
        sha, _ = fingerprint(defs)
        if known is None:
            print("%s %s %s" % (path, func, sha))
            continue
        var = [v for v, s in known.get((path, func), []) if s == sha]
        if not var:
            why = "%s:%s() differs from every variant the port has (%s)" % (
                path, func, ", ".join(v for v, _ in known.get((path, func), [])) or "none")
            if ref:
                rdefs = ref.defs(path, func)
                if rdefs:
                    why += "; first difference: " + first_difference(defs, rdefs)
            print(why, file=sys.stderr)
            return 1
        print("%s %s %s" % (path, func, var[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
