#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Derive fairlab's patch surface from a kernel build's debug vmlinux.

usage: scripts/surface.py [--help] [--label TEXT] VMLINUX

Prints, for the kernel whose DWARF-carrying vmlinux is given:

  (a) every out-of-line function holding an inlined copy of a target
      (update_tg_load_avg, clear_tg_load_avg, update_pick_idlest, and any
      other function of kernel/sched/fair.c found writing tg->load_avg),
      with the inline chain down to the target; whether it can be
      klp-patched (it has an __fentry__ site in __mcount_loc: the kernel's
      `inline` implies notrace, so a static inline the compiler kept out of
      line cannot be patched); for one that cannot, its callers, each call
      checked for whether it can reach the target with the constant
      arguments DWARF records for it.  `root NAME` lines are the functions
      a klp port must replace (tests/unit/port-surface.t reads them).
  (b) every instruction that writes tg->load_avg (`write FUNC+0xOFF` lines,
      for kprobes: kallsyms name plus offset survives KASLR), found inside
      the inlined writer copies, and cross-checked by a scan of all of
      .text for locked writes to the member's offset (from DWARF).

Every section says how its lines were found.  tests/vm/scenarios/
surface-writes.guest.sh puts a kprobe on each `write` line and checks that
all fire unpatched and none while fairlab is patched.  Takes 1-2 minutes
per build (pyelftools on fair.c's DWARF, one objdump pass over .text).

Needs: python3-pyelftools, binutils (objdump).  `make surface KERNEL=...`
fetches the -dbg package and installs these (scripts/surface.sh).

examples:
  scripts/surface.py .cache/dbg/vmlinux-6.12.117+deb12-amd64 > module/port/6.12/surface.txt
  scripts/surface.py --label "Debian 6.1.192-3" .cache/dbg/vmlinux-6.1.0-57-amd64
"""
import argparse
import bisect
import hashlib
import os
import re
import subprocess
import sys
import time

try:
    from elftools.elf.elffile import ELFFile
    from elftools.dwarf.ranges import BaseAddressEntry
except ImportError:
    sys.exit("surface.py: error: python3-pyelftools is not installed "
             "(apt-get install python3-pyelftools, or make surface)")

TARGETS = ("update_tg_load_avg", "clear_tg_load_avg", "update_pick_idlest")
# the functions of fair.c that read tg->load_avg to weigh a group entity
READ_TARGETS = ("calc_group_shares", "update_cfs_group")
FAIR_CU = "kernel/sched/fair.c"
# DWARF register numbers (x86-64 psABI) -> register family
DWREG = ["rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
         "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
CALLER_SAVED = {"rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11"}


def fam(reg):
    """x86-64 register name (AT&T, with or without %) -> 64-bit family."""
    r = reg.lstrip("%")
    m = re.fullmatch(r"r(\d+)[dwb]?", r)
    if m:
        return "r" + m.group(1)
    m = re.fullmatch(r"[re]?([abcd])[xlh]", r)
    if m:
        return "r" + m.group(1) + "x"
    m = re.fullmatch(r"[re]?(si|di|bp|sp)l?", r)
    if m:
        return "r" + m.group(1)
    return None


# ------------------------------------------------------------------ ELF

class Symbols:
    def __init__(self, elf):
        st = elf.get_section_by_name(".symtab")
        if st is None:
            sys.exit("surface.py: error: vmlinux has no .symtab")
        funcs = []
        self.byname = {}
        self.data = {}
        for s in st.iter_symbols():
            if s["st_info"]["type"] == "STT_FUNC" and s["st_size"] > 0:
                funcs.append((s["st_value"], s["st_size"], s.name))
                self.byname.setdefault(s.name, []).append(s["st_value"])
            elif s.name in ("__start_mcount_loc", "__stop_mcount_loc", "linux_banner"):
                self.data[s.name] = s["st_value"]
        funcs.sort()
        self.funcs = funcs
        self.starts = [f[0] for f in funcs]
        self.at = {f[0]: f for f in funcs}

    def lookup(self, addr):
        i = bisect.bisect_right(self.starts, addr) - 1
        if i >= 0:
            a, size, name = self.funcs[i]
            if addr < a + size:
                return self.funcs[i]
        return None

    def fmt(self, addr):
        f = self.lookup(addr)
        return "%s+0x%x" % (f[2], addr - f[0]) if f else "0x%x" % addr


def read_vaddr(elf, addr, size):
    for sec in elf.iter_sections():
        a = sec["sh_addr"]
        if sec["sh_type"] != "SHT_NOBITS" and a <= addr and addr + size <= a + sec["sh_size"]:
            off = addr - a
            return sec.data()[off:off + size]
    return None


def mcount_sites(elf, syms):
    """The __fentry__ call sites recorded in __mcount_loc (ftrace's list)."""
    a, b = syms.data.get("__start_mcount_loc"), syms.data.get("__stop_mcount_loc")
    if a is None or b is None:
        sys.exit("surface.py: error: no __start/__stop_mcount_loc in vmlinux "
                 "(not an ftrace build?)")
    raw = read_vaddr(elf, a, b - a)
    return set(int.from_bytes(raw[i:i + 8], "little") for i in range(0, len(raw), 8))


# ------------------------------------------------------------------ DWARF

def expr_value(expr):
    """A DWARF expression that is a constant or a register, else None."""
    if not expr:
        return None
    op = expr[0]
    if 0x30 <= op <= 0x4f and len(expr) == 1:
        return ("const", op - 0x30)
    if 0x50 <= op <= 0x6f and len(expr) == 1:
        return ("reg", op - 0x50)
    sizes = {0x08: (1, False), 0x09: (1, True), 0x0a: (2, False), 0x0b: (2, True),
             0x0c: (4, False), 0x0d: (4, True), 0x0e: (8, False), 0x0f: (8, True)}
    if op in sizes:
        n, signed = sizes[op]
        return ("const", int.from_bytes(bytes(expr[1:1 + n]), "little", signed=signed))
    if op in (0x10, 0x11):  # constu / consts (LEB128)
        v = shift = 0
        for b in expr[1:]:
            v |= (b & 0x7f) << shift
            shift += 7
            if not b & 0x80:
                break
        if op == 0x11 and expr[-1] & 0x40:
            v -= 1 << shift
        return ("const", v)
    return None


class Node:
    __slots__ = ("tag", "name", "ranges", "children", "call_line", "call_file",
                 "parent", "offset")

    def __init__(self, tag, parent):
        self.tag, self.parent = tag, parent
        self.children = []
        self.ranges = []
        self.name = self.call_file = None
        self.call_line = 0

    def contains(self, addr):
        return any(a <= addr < b for a, b in self.ranges)

    def chain(self):
        n, out = self, []
        while n is not None and n.tag != "DW_TAG_compile_unit":
            if n.tag in ("DW_TAG_subprogram", "DW_TAG_inlined_subroutine"):
                out.append(n)
            n = n.parent
        return out[::-1]


class CUTree:
    """Subprograms, inlined subroutines and lexical blocks of one CU, with
    their address ranges, plus its call sites' constant arguments."""

    def __init__(self, dwarf, cu):
        self.cu = cu
        self.dwarf = dwarf
        self.rl = dwarf.range_lists()
        top = cu.get_top_DIE()
        self.name = top.attributes["DW_AT_name"].value.decode()
        self.base = top.attributes["DW_AT_low_pc"].value if "DW_AT_low_pc" in top.attributes else 0
        lp = dwarf.line_program_for_CU(cu)
        self.files = lp.header.file_entry if lp else []
        self.v5 = cu["version"] >= 5
        self.namecache = {}
        self.struct_members = {}
        self.concrete = []      # Nodes of out-of-line subprograms
        self.inlined = []       # Nodes of inlined subroutines
        self.callsites = {}     # return pc -> {dwarf reg: const}
        self.root = Node("DW_TAG_compile_unit", None)
        self._walk(top, self.root)

    def file_name(self, idx):
        i = idx if self.v5 else idx - 1
        if 0 <= i < len(self.files):
            return os.path.basename(self.files[i].name.decode())
        return "?"

    def ranges(self, die):
        at = die.attributes
        if "DW_AT_low_pc" in at and "DW_AT_high_pc" in at:
            lo = at["DW_AT_low_pc"].value
            hi = at["DW_AT_high_pc"]
            hi = hi.value if hi.form == "DW_FORM_addr" else lo + hi.value
            return [(lo, hi)] if lo < hi else []
        if "DW_AT_ranges" in at:
            out, base = [], self.base
            for e in self.rl.get_range_list_at_offset(at["DW_AT_ranges"].value, cu=self.cu):
                if isinstance(e, BaseAddressEntry):
                    base = e.base_address
                elif e.is_absolute:
                    out.append((e.begin_offset, e.end_offset))
                else:
                    out.append((base + e.begin_offset, base + e.end_offset))
            return [r for r in out if r[0] < r[1]]
        return []

    def die_name(self, die):
        if die.offset in self.namecache:
            return self.namecache[die.offset]
        name, d = None, die
        for _ in range(8):
            at = d.attributes
            if "DW_AT_name" in at:
                name = at["DW_AT_name"].value.decode()
                break
            nxt = None
            for a in ("DW_AT_abstract_origin", "DW_AT_specification"):
                if a in at:
                    nxt = d.get_DIE_from_attribute(a)
                    break
            if nxt is None:
                break
            d = nxt
        self.namecache[die.offset] = name
        return name

    def _walk(self, die, parent):
        for c in die.iter_children():
            tag = c.tag
            if tag in ("DW_TAG_subprogram", "DW_TAG_inlined_subroutine",
                       "DW_TAG_lexical_block"):
                rng = self.ranges(c)
                if tag == "DW_TAG_subprogram" and not rng:
                    continue        # abstract instance or declaration
                n = Node(tag, parent)
                n.offset = c.offset
                n.ranges = rng
                if tag != "DW_TAG_lexical_block":
                    n.name = self.die_name(c)
                if tag == "DW_TAG_inlined_subroutine":
                    at = c.attributes
                    n.call_line = at["DW_AT_call_line"].value if "DW_AT_call_line" in at else 0
                    n.call_file = self.file_name(at["DW_AT_call_file"].value) \
                        if "DW_AT_call_file" in at else "?"
                    self.inlined.append(n)
                elif tag == "DW_TAG_subprogram":
                    self.concrete.append(n)
                parent.children.append(n)
                if c.has_children:
                    self._walk(c, n)
            elif tag in ("DW_TAG_call_site", "DW_TAG_GNU_call_site"):
                at = c.attributes
                ret = at.get("DW_AT_call_return_pc") or at.get("DW_AT_low_pc")
                if ret is None:
                    continue
                vals = {}
                for p in c.iter_children():
                    pa = p.attributes
                    loc = pa.get("DW_AT_location")
                    val = pa.get("DW_AT_call_value") or pa.get("DW_AT_GNU_call_site_value")
                    if loc is None or val is None:
                        continue
                    lr, vv = expr_value(loc.value), expr_value(val.value)
                    if lr and lr[0] == "reg" and vv and vv[0] == "const":
                        vals[lr[1]] = vv[1]
                self.callsites[ret.value] = vals
            elif tag == "DW_TAG_structure_type":
                self._struct(c)
            elif c.has_children and tag not in ("DW_TAG_union_type", "DW_TAG_enumeration_type"):
                self._walk(c, parent)

    def _struct(self, die):
        at = die.attributes
        if "DW_AT_name" not in at or "DW_AT_declaration" in at:
            return
        name = at["DW_AT_name"].value.decode()
        if name in self.struct_members:
            return
        mem = {}
        for m in die.iter_children():
            ma = m.attributes
            if m.tag == "DW_TAG_member" and "DW_AT_name" in ma and \
                    "DW_AT_data_member_location" in ma:
                mem[ma["DW_AT_name"].value.decode()] = ma["DW_AT_data_member_location"].value
        self.struct_members[name] = mem

    def innermost(self, addr):
        """The chain of subprogram/inlined nodes containing addr."""
        node = self.root
        while True:
            nxt = None
            for c in node.children:
                if c.contains(addr):
                    nxt = c
                    break
            if nxt is None:
                return node.chain() if node is not self.root else []
            node = nxt


def find_cu(dwarf, suffix, addrs=()):
    """The compile unit whose name ends with suffix.  addrs: code addresses
    the unit is expected to hold; .debug_aranges maps them to their unit at
    once, where a scan parses the header of every unit before it (seconds
    on a vmlinux); the scan is the fallback."""
    aranges = dwarf.get_aranges() if addrs else None
    for a in addrs if aranges else ():
        off = aranges.cu_offset_at_addr(a)
        if off is None:
            continue
        cu = dwarf.get_CU_at(off)
        n = cu.get_top_DIE().attributes.get("DW_AT_name")
        if n and n.value.decode().endswith(suffix):
            return cu
    for cu in dwarf.iter_CUs():
        top = cu.get_top_DIE()
        n = top.attributes.get("DW_AT_name")
        if n and n.value.decode().endswith(suffix):
            return cu
    return None


# ------------------------------------------------------------------ disassembly

INSN = re.compile(r"^\s*([0-9a-f]+):\s+(.*?)\s*$")


def objdump(vmlinux, start=None, stop=None):
    cmd = ["objdump", "-d", "--no-show-raw-insn", "-j", ".text", vmlinux]
    if start is not None:
        cmd[1:1] = ["--start-address=0x%x" % start, "--stop-address=0x%x" % stop]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, bufsize=1 << 20)
    for line in p.stdout:
        m = INSN.match(line)
        if m:
            yield int(m.group(1), 16), m.group(2)
    if p.wait() != 0:
        sys.exit("surface.py: error: objdump failed")


def objdump_ranges(vmlinux, ranges, gap=1 << 20):
    """(addr, text) of the instructions of ranges ([lo, hi) pairs), in address
    order: one objdump run per cluster of ranges less than gap bytes apart
    (each run reads the vmlinux's symbols, a second or more), keeping the
    instructions that start inside a range.  objdump disassembles from each
    symbol's start, so a longer window decodes a range as the range alone
    does when the range starts at a symbol (a function or its .cold part)."""
    spans = []          # the union of ranges, as disjoint sorted pairs
    for lo, hi in sorted(ranges):
        if spans and lo <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], hi))
        else:
            spans.append((lo, hi))
    i = 0
    while i < len(spans):
        lo, hi = spans[i]
        j = i + 1
        while j < len(spans) and spans[j][0] - hi < gap:
            hi = max(hi, spans[j][1])
            j += 1
        starts = [a for a, _ in spans[i:j]]
        for addr, text in objdump(vmlinux, lo, hi):
            k = bisect.bisect_right(starts, addr) - 1
            if k >= 0 and addr < spans[i + k][1]:
                yield addr, text
        i = j


def split_insn(text):
    text = text.split("#")[0].strip()
    parts = text.split(None, 1)
    if not parts:
        return "", []
    mn, rest = parts[0], parts[1] if len(parts) > 1 else ""
    if mn in ("lock", "rep", "repz", "repnz", "notrack", "bnd", "cs", "ds") and rest:
        p2 = rest.split(None, 1)
        mn = mn + " " + p2[0]
        rest = p2[1] if len(p2) > 1 else ""
    ops, depth, cur = [], 0, ""
    for ch in rest:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return mn, ops


def branch_target(ops):
    if ops:
        m = re.match(r"^([0-9a-f]+)\s*<", ops[0])
        if m:
            return int(m.group(1), 16)
    return None


def mem_disp(op):
    """displacement of an AT&T memory operand 'disp(%base,...)', else None"""
    m = re.fullmatch(r"(-?0x[0-9a-f]+|-?\d+)?\((%\w+)?(,%\w+)?(,\d)?\)", op)
    if not m:
        return None
    d = m.group(1)
    return int(d, 0) if d else 0


WRITE_MN = re.compile(r"^(lock \w+|xchg\w*)$")


def is_locked_write(mn, ops):
    return bool(WRITE_MN.match(mn)) and any(mem_disp(o) is not None for o in ops)


# ------------------------------------------------------------------ reachability

SIMPLE = re.compile(r"^(mov\w*|lea\w?|add\w?|sub\w?|and\w?|or\w?|xor\w?|sh[lr]\w?|sa[lr]\w?|"
                    r"inc\w?|dec\w?|neg\w?|not\w?|imul\w?|cmov\w+|set\w+|bs[fr]\w?|"
                    r"popcnt\w?|tzcnt\w?|lzcnt\w?|ro[lr]\w?|bswap\w?|adc\w?|sbb\w?)$")
NOWRITE = re.compile(r"^(test\w?|cmp\w?|bt\w?|push\w?|nop\w*|xchg %ax,%ax|endbr64|"
                     r"lock \w+|prefetch\w*|data16|cs|ds|int3|pause|lfence|mfence|sfence)$")
JCC = re.compile(r"^j(?!mp)\w+$")
# instructions that write registers they do not name (plus those they name)
IMPLICIT = {m: ["rax", "rdx"] for m in ("div", "divl", "divq", "idiv", "idivl", "idivq",
                                         "mul", "mull", "mulq", "cltq", "cqto", "cltd",
                                         "cwtl", "rdtsc", "rdtscp", "rdpid")}
IMPLICIT.update({"cpuid": ["rax", "rbx", "rcx", "rdx"]})
CC_ZF = {"je": True, "jz": True, "jne": False, "jnz": False}


class Func:
    def __init__(self, addr, size, name, insns):
        self.addr, self.size, self.name = addr, size, name
        self.insns = insns                      # [(addr, mn, ops, text)]
        self.index = {a: i for i, (a, _, _, _) in enumerate(insns)}


def reaches(func, goal, known0, other_goals):
    """Can execution entering func with registers known0 ({family: value})
    reach an instruction in goal (set of (lo, hi) ranges), or a call/jump to
    an address in other_goals?  A path-sensitive walk that follows known
    constants through register copies and decides `test $imm,REG; je/jne`
    on them; anything else is taken both ways (so the answer errs towards
    "reachable").  Returns (bool, [decided branch texts])."""
    ins = func.insns
    seen = set()
    decided = set()
    stack = [(0, frozenset(known0.items()), None)]
    parent = {}
    while stack:
        i, st, pred = stack.pop()
        if (i, st) in seen or i >= len(ins):
            continue
        seen.add((i, st))
        parent[(i, st)] = pred
        a, mn, ops, text = ins[i]
        if any(lo <= a < hi for lo, hi in goal):
            if os.environ.get("SURFACE_DEBUG"):
                k = (i, st)
                while k:
                    print("  path %s %s %s" % (func.name, hex(ins[k[0]][0] - func.addr), dict(k[1])),
                          file=sys.stderr)
                    k = parent[k]
            return True, sorted(decided)
        known = dict(st)
        base = mn.split()[-1] if mn else ""
        if base in ("ret", "retq", "ud2") or (base == "jmp" and ops and "__x86_return_thunk" in ops[0]):
            continue
        tgt = branch_target(ops)
        if base in ("call", "jmp") and tgt is not None and tgt in other_goals:
            return True, sorted(decided)
        if base == "jmp":
            if tgt is not None and tgt in func.index:
                stack.append((func.index[tgt], st, (i, st)))
            elif tgt is None:
                return True, sorted(decided)    # indirect jump: give up, reachable
            continue                             # tail call elsewhere: path ends
        if JCC.match(base):
            succ = [i + 1]
            if tgt in func.index:
                succ.append(func.index[tgt])
            for j in succ:
                stack.append((j, st, (i, st)))
            continue
        if base in ("test", "and") and len(ops) == 2 and ops[0].startswith("$") \
                and fam(ops[1]) in known and i + 1 < len(ins) and ins[i + 1][1] in CC_ZF:
            v = known[fam(ops[1])] & int(ops[0][1:], 0)
            zf = v == 0
            if base == "and":
                known[fam(ops[1])] = v
                st = frozenset(known.items())
            ja, jmn, jops, _ = ins[i + 1]
            taken = zf == CC_ZF[jmn]
            decided.add("%s+0x%x %s with %s=%d: %s %s" % (
                func.name, a - func.addr, text.split("#")[0].strip(), fam(ops[1]),
                known[fam(ops[1])], jmn, "taken" if taken else "not taken"))
            jt = branch_target(jops)
            stack.append((func.index[jt] if taken and jt in func.index else i + 2, st, (i, st)))
            continue
        if base == "call":
            for r in CALLER_SAVED:
                known.pop(r, None)
        elif NOWRITE.match(mn):
            pass
        elif SIMPLE.match(base) and ops:
            dst = fam(ops[-1]) if ops[-1].startswith("%") else None
            if dst:
                if base.startswith("mov") and len(ops) == 2 and ops[0].startswith("%") \
                        and fam(ops[0]) in known and not base.startswith("movs"):
                    known[dst] = known[fam(ops[0])]
                elif base.startswith("mov") and len(ops) == 2 and ops[0].startswith("$"):
                    known[dst] = int(ops[0][1:], 0)
                elif base.startswith("xor") and len(ops) == 2 and fam(ops[0]) == dst:
                    known[dst] = 0
                else:
                    known.pop(dst, None)
        elif base.startswith("pop") and ops and fam(ops[0]):
            known.pop(fam(ops[0]), None)
        elif base in IMPLICIT:
            for r in IMPLICIT[base] + [fam(o) for o in ops if o.startswith("%")]:
                known.pop(r, None)
        else:
            known = {}                           # unknown effects: forget all
        stack.append((i + 1, frozenset(known.items()), (i, st)))
    return False, sorted(decided)


# ------------------------------------------------------------------ readers

def readers_section(P, fair, syms, calls, traceable):
    """Print section (c): the out-of-line functions holding a copy of a
    READ_TARGETS function, and the direct calls of those kept out of line.
    Returns the number of `reader` lines."""
    held = {}          # function address -> [(target, node, inlined)]
    for n in fair.inlined:
        if n.name in READ_TARGETS and n.ranges:
            ch = n.chain()
            if any(c.name == n.name for c in ch[:-1]):
                continue    # a copy nested in its own outer instance
            fs = syms.lookup(min(r[0] for r in ch[0].ranges))
            if fs is not None:
                held.setdefault(fs[0], []).append((n.name, n, True))
    for n in fair.concrete:
        if n.name in READ_TARGETS and n.ranges:
            fs = syms.lookup(min(r[0] for r in n.ranges))
            if fs is not None:
                held.setdefault(fs[0], []).append((n.name, n, False))
    P("## readers of tg->load_avg: out-of-line functions holding a copy of %s"
      % " or ".join(READ_TARGETS))
    P("# found in %s's DWARF: inlined subroutines of those names (inline chain" % FAIR_CU)
    P("# shown) and out-of-line copies of them; 'readcall' lines are the direct")
    P("# calls (objdump of .text) of a reader kept out of line.  A port replaces")
    P("# every 'reader' function to see every read.")
    n_readers = 0
    for a in sorted(held, key=lambda x: syms.at[x][2] if x in syms.at else ""):
        fs = syms.at.get(a) or syms.lookup(a)
        what = sorted(set(("" if inl else "itself: ") + t for t, _, inl in held[a]))
        dup = len(syms.byname.get(fs[2], []))
        P("reader %-32s size=0x%x %s%s  holds: %s" % (
            fs[2], fs[1], "traceable" if traceable(a) else "notrace",
            "" if dup == 1 else " (%d symbols of this name)" % dup, ", ".join(what)))
        n_readers += 1
        for t, n, inl in held[a]:
            if not inl:
                continue
            ch = n.chain()
            parts = [ch[0].name] + ["%s (%s:%d)" % (c.name, c.call_file, c.call_line)
                                    for c in ch[1:]]
            rs = ",".join("+0x%x-0x%x" % (lo - a, hi_ - a) for lo, hi_ in sorted(n.ranges))
            P("  inline  %s  [%s]" % (" -> ".join(parts), rs))
        if any(not inl for _, _, inl in held[a]):
            for site, mn in sorted(calls.get(a, [])):
                P("  readcall %-36s %s %s" % (syms.fmt(site), mn.split()[0], fs[2]))
    return n_readers


# ------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("vmlinux")
    ap.add_argument("--label", default="", help="kernel build named in the header")
    args = ap.parse_args()
    t0 = time.time()
    out = []
    P = out.append

    try:
        fh = open(args.vmlinux, "rb")
    except OSError as e:
        print("surface.py: error: %s" % e, file=sys.stderr)
        return 1
    elf = ELFFile(fh)
    if not elf.has_dwarf_info():
        print("surface.py: error: %s has no DWARF (use the -dbg package's vmlinux)"
              % args.vmlinux, file=sys.stderr)
        return 1
    syms = Symbols(elf)
    mcount = mcount_sites(elf, syms)
    # vmlinux is linked (ET_EXEC): its .rela.debug_* sections are left over
    # from --emit-relocs (for KASLR) and must not be applied again
    dwarf = elf.get_dwarf_info(relocate_dwarf_sections=False)
    cu = find_cu(dwarf, FAIR_CU)
    if cu is None:
        print("surface.py: error: no compilation unit %s" % FAIR_CU, file=sys.stderr)
        return 1
    fair = CUTree(dwarf, cu)
    t_dwarf = time.time() - t0
    tg = fair.struct_members.get("task_group", {})
    if "load_avg" not in tg:
        print("surface.py: error: struct task_group has no load_avg in %s" % FAIR_CU,
              file=sys.stderr)
        return 1
    off = tg["load_avg"]

    def traceable(addr):
        return any(addr <= m < addr + 16 for m in mcount)

    def ksym(addr):
        return syms.at.get(addr)

    # one pass over all of .text: locked writes to the offset, and every
    # direct call/jump with its target
    cand = []
    calls = {}
    for a, text in objdump(args.vmlinux):
        if "lock" in text or "xchg" in text:
            mn, ops = split_insn(text)
            if is_locked_write(mn, ops) and any(mem_disp(o) == off for o in ops):
                cand.append((a, text.split("#")[0].strip()))
        elif text.startswith(("call", "jmp")):
            mn, ops = split_insn(text)
            t = branch_target(ops)
            if t is not None:
                calls.setdefault(t, []).append((a, mn))
    t_scan = time.time() - t0

    def disasm(fsym):
        a, size, name = fsym
        insns = []
        for ia, text in objdump(args.vmlinux, a, a + size):
            mn, ops = split_insn(text)
            insns.append((ia, mn, ops, text.split("#")[0].strip()))
        return Func(a, size, name, insns)

    # writers: the targets that hold locked writes to tg->load_avg, plus any
    # other fair.c function the scan finds writing at that offset
    def frame_of(chain):
        """innermost frame that is not an atomic helper"""
        for n in reversed(chain):
            if not re.match(r"^(arch_|raw_)?atomic", n.name or ""):
                return n
        return None

    writes = []        # (addr, text, chain, how)
    others = []        # candidates that are not tg->load_avg writes
    writers = set(TARGETS[:2])
    for a, text in cand:
        chain = fair.innermost(a)
        if not chain:
            others.append((a, text, None))
            continue
        fr = frame_of(chain)
        if fr is not None and fr.name not in writers and fr.name not in TARGETS:
            # a fair.c function other than the known writers: still a write
            # to offset `off`; listed as a writer of its own if the
            # instruction lies in fair.c's own code (not an inline helper of
            # another header)
            writers.add(fr.name)
        writes.append((a, text, chain))

    # (a) holders: concrete out-of-line functions holding inlined targets
    targets = sorted(set(TARGETS) | writers)
    inst = {}          # holder address -> [(target, node)]
    for n in fair.inlined:
        if n.name in targets and n.ranges:
            ch = n.chain()
            if any(c.name == n.name for c in ch[:-1]):
                continue    # a copy nested in its own outer instance
            top = ch[0]
            lo = min(r[0] for r in top.ranges)
            inst.setdefault(lo, []).append((n.name, n))
    for n in fair.concrete:
        if n.name in targets and n.ranges:        # an out-of-line copy of a target itself
            lo = min(r[0] for r in n.ranges)
            inst.setdefault(lo, []).append((n.name, n))

    holders = {}       # addr -> dict
    for lo, lst in inst.items():
        fs = syms.lookup(lo)
        if fs is None:
            continue
        holders[fs[0]] = {"sym": fs, "targets": lst, "via": [], "goal":
                          [r for _, n in lst for r in n.ranges]}

    excluded = []
    work = [h for h in holders if not traceable(h)]
    done = set()
    while work:
        h = work.pop()
        if h in done:
            continue
        done.add(h)
        hinfo = holders[h]
        func = disasm(hinfo["sym"])
        hinfo["func"] = func
        for site, mn in sorted(calls.get(h, [])):
            cs = syms.lookup(site)
            if cs is None or cs[0] == h:
                continue
            ret = site + (5 if mn.startswith("call") else 0)
            consts = {}
            if mn.startswith("call"):
                for reg, v in fair.callsites.get(ret, {}).items():
                    if reg < len(DWREG):
                        consts[DWREG[reg]] = v
            other = {x for x in holders if x != h and x not in done}
            ok, why = reaches(func, hinfo["goal"], consts, other)
            rec = (cs, site, mn, consts, why)
            if not ok:
                excluded.append((h, rec))
                continue
            c = holders.setdefault(cs[0], {"sym": cs, "targets": [], "via": [], "goal": []})
            c["via"].append((h, rec))
            c["goal"].append((site, site + 1))
            if not traceable(cs[0]):
                done.discard(cs[0])
                work.append(cs[0])

    # cross-check from the other side: every locked write (any operand)
    # inside the writers' inlined copies must be one of the writes found
    inside = []
    for h, hi in holders.items():
        rngs = [r for t, n in hi["targets"] if t in writers for r in n.ranges]
        if not rngs:
            continue
        func = hi.get("func") or disasm(hi["sym"])
        for a, mn, ops, text in func.insns:
            if any(lo <= a < e for lo, e in rngs) and is_locked_write(mn, ops):
                inside.append((a, text))
    known_w = set(a for a, _, _ in writes)
    unmatched = [(a, t) for a, t in inside if a not in known_w]

    # ------------------------------------------------------------ output
    sha = hashlib.sha256()
    with open(args.vmlinux, "rb") as f:
        for blk in iter(lambda: f.read(1 << 22), b""):
            sha.update(blk)
    P("# fairlab patch surface of %s" % (args.label or os.path.basename(args.vmlinux)))
    P("# generated by scripts/surface.py (make surface) from %s" % os.path.basename(args.vmlinux))
    P("# vmlinux sha256 %s" % sha.hexdigest())
    ban = syms.data.get("linux_banner")
    raw = read_vaddr(elf, ban, 512) if ban is not None else None
    if raw:
        # what /proc/version shows on this build (the VM test compares it)
        P("# linux_banner: %s" % raw.split(b"\0")[0].decode(errors="replace").strip())
    P("# do not edit: regenerate.  Format: 'root NAME' = a function a klp port must")
    P("# replace; 'write FUNC+0xOFF' = an instruction that writes tg->load_avg;")
    P("# 'reader NAME' = a function a klp port replaces to count reads of it.")
    P("#")
    P("# targets: %s" % " ".join(targets))
    P("# struct task_group.load_avg: offset 0x%x (DWARF, %s)" % (off, FAIR_CU))
    P("# traceable = the function's __fentry__ site is in __mcount_loc (klp can patch it);")
    P("# notrace = not there (e.g. a static inline kept out of line): its callers are")
    P("# holders in turn, unless the constant arguments DWARF records for the call")
    P("# (DW_TAG_call_site_parameter) make every path to the target unreachable.")
    P("")
    roots = sorted(holders[h]["sym"][2] for h in holders if traceable(h))
    P("## patchable roots (%d): the functions a klp port must replace" % len(roots))
    for h in sorted(holders, key=lambda x: holders[x]["sym"][2]):
        hi = holders[h]
        if not traceable(h):
            continue
        what = sorted(set(t for t, _ in hi["targets"]) |
                      set("via " + holders[v]["sym"][2] for v, _ in hi["via"]))
        dup = len(syms.byname.get(hi["sym"][2], []))
        P("root %-34s size=0x%x%s  holds: %s" % (
            hi["sym"][2], hi["sym"][1], "" if dup == 1 else " (%d symbols of this name)" % dup,
            ", ".join(what)))
    P("")
    P("## holders: every out-of-line function holding a target, and how")
    for h in sorted(holders, key=lambda x: holders[x]["sym"][2]):
        hi = holders[h]
        a, size, name = hi["sym"]
        P("holder %s 0x%x size=0x%x %s" % (name, a, size,
                                          "traceable" if traceable(h) else "notrace"))
        for t, n in sorted(hi["targets"], key=lambda x: min(r[0] for r in x[1].ranges)):
            ch = n.chain()
            parts = [ch[0].name]
            for c in ch[1:]:
                parts.append("%s (%s:%d)" % (c.name, c.call_file, c.call_line))
            rs = ",".join("+0x%x-0x%x" % (lo - a, hi_ - a) for lo, hi_ in sorted(n.ranges))
            P("  inline  %s  [%s]" % (" -> ".join(parts), rs))
        for v, (cs, site, mn, consts, why) in hi["via"]:
            args_ = " ".join("%s=%d" % kv for kv in sorted(consts.items())) or "no constant args"
            P("  %-7s %s -> %s (%s)" % (mn.split()[0], syms.fmt(site), holders[v]["sym"][2], args_))
    P("")
    P("## calls of notrace holders that cannot reach a target (not holders)")
    if not excluded:
        P("# none")
    for h, (cs, site, mn, consts, why) in excluded:
        args_ = " ".join("%s=%d" % kv for kv in sorted(consts.items()))
        P("nocall %s -> %s (%s)" % (syms.fmt(site), holders[h]["sym"][2], args_))
        for w in why:
            P("  decided: %s" % w)
    P("")
    P("## writes of tg->load_avg (locked read-modify-write at offset 0x%x inside a writer)" % off)
    P("# found by a scan of all of .text (objdump) for locked writes (lock-prefixed or")
    P("# xchg) whose memory operand has displacement 0x%x; each is attributed by DWARF" % off)
    P("# (the inline chain at its address in %s) to the writer it lies in." % FAIR_CU)
    for a, text, chain in sorted(writes):
        parts = [chain[0].name] + ["%s (%s:%d)" % (c.name, c.call_file, c.call_line)
                                   for c in chain[1:]]
        P("write %-40s 0x%x  %-28s %s" % (syms.fmt(a), a, text, " -> ".join(parts)))
    P("# cross-check: the writers' inlined copies hold %d locked writes (any operand);"
      % len(inside))
    P("# %d of them are not listed above%s" % (
        len(unmatched), ":" if unmatched else " (each write is at offset 0x%x)" % off))
    for a, t in unmatched:
        P("unmatched %-36s 0x%x  %s" % (syms.fmt(a), a, t))
    P("")
    P("## other locked writes at offset 0x%x in .text, outside %s" % (off, FAIR_CU))
    P("# struct task_group is private to kernel/sched (sched.h).  Where the compilation")
    P("# unit defines it, the inline chain at the address shows what is written (an")
    P("# 'other' line, to be read); the rest cannot name tg->load_avg at all.")
    bycu = {}
    aranges = dwarf.get_aranges()
    cunames = {}
    for a, text, _ in others:
        cuoff = aranges.cu_offset_at_addr(a) if aranges else None
        if cuoff not in cunames:
            cunames[cuoff] = ("?", None)
            if cuoff is not None:
                c = dwarf.get_CU_at(cuoff)
                top = c.get_top_DIE()
                knows = any(d.tag == "DW_TAG_structure_type" and
                            d.attributes.get("DW_AT_name") is not None and
                            d.attributes["DW_AT_name"].value == b"task_group" and
                            "DW_AT_declaration" not in d.attributes
                            for d in top.iter_children())
                cunames[cuoff] = (top.attributes["DW_AT_name"].value.decode(),
                                  CUTree(dwarf, c) if knows else None)
        name, tree = cunames[cuoff]
        if tree is None:
            bycu.setdefault(name, []).append((a, text))
        else:
            ch = tree.innermost(a)
            parts = [ch[0].name] + ["%s (%s:%d)" % (c.name, c.call_file, c.call_line)
                                    for c in ch[1:]] if ch else ["?"]
            P("other %-40s 0x%x  %-28s %s: %s" % (syms.fmt(a), a, text, name, " -> ".join(parts)))
    P("# in compilation units that do not define struct task_group:")
    for name in sorted(bycu):
        P("# %-40s %s" % (name, ", ".join("%s (%s)" % (syms.fmt(a), t) for a, t in bycu[name])))
    P("")
    nreaders = readers_section(P, fair, syms, calls, traceable)
    P("")
    P("# %d holders, %d roots, %d writes, %d other locked writes at 0x%x, %d readers"
      % (len(holders), len(roots), len(writes), len(others), off, nreaders))
    print("\n".join(out))
    print("surface.py: fair.c DWARF %.1fs, .text scan until %.1fs, total %.1fs"
          % (t_dwarf, t_scan, time.time() - t0), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
