#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Struct layouts, enumerators and function sizes a port relies on, from DWARF.

usage: scripts/layout.py [--help] [--cu PART] [--ksyms] ELF

Prints, from the compilation units of ELF whose name contains PART (a debug vmlinux, or a built
fairlab.ko), one line per member of every struct in STRUCTS, flattened
through anonymous structs and unions:

  member STRUCT.MEMBER OFFSET SIZE [BITOFFSET:BITSIZE] TYPE

(OFFSET and SIZE in bytes, hex), a line `size STRUCT BYTES`, and one line
`enum NAME VALUE` per enumerator whose name starts with one of ENUMS (the
sched_feat bits).  The same code reads both sides, so scripts/port-check.sh
compares the two outputs line for line.  With --ksyms (vmlinux only) it
also prints `ksize NAME 0xSIZE` for every text symbol: the distance to the
next text symbol, which is the size /proc/kallsyms and sprint_symbol()
report.

examples:
  scripts/layout.py --cu kernel/sched/fair.c --ksyms .cache/dbg/vmlinux-6.1.0-57-amd64
  scripts/layout.py --cu port/6.1/ build/kmod/6.1.0-57-amd64/module/fairlab.ko
"""
import argparse
import sys

try:
    from elftools.elf.elffile import ELFFile
except ImportError:
    sys.exit("layout.py: error: python3-pyelftools is not installed "
             "(apt-get install --no-install-recommends python3-pyelftools)")

STRUCTS = ("cfs_rq", "task_group", "sched_entity", "sched_avg", "load_weight",
           "util_est", "rq", "rq_flags", "sched_group", "sched_group_capacity",
           "sched_domain", "sched_domain_shared", "cfs_bandwidth", "task_struct",
           "sched_statistics", "sched_entity_stats", "sg_lb_stats", "numa_group",
           "autogroup")
ENUMS = ("__SCHED_FEAT_", "__FL_SCHED_FEAT_INSERT_")
QUALS = ("DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type",
         "DW_TAG_atomic_type", "DW_TAG_restrict_type")


def name_of(die):
    a = die.attributes.get("DW_AT_name")
    return a.value.decode() if a else None


def typ(die):
    return die.get_DIE_from_attribute("DW_AT_type") if "DW_AT_type" in die.attributes else None


def type_name(t):
    """A stable spelling of a type: qualifiers and typedef names kept."""
    if t is None:
        return "void"
    tag = t.tag
    if tag == "DW_TAG_pointer_type":
        return type_name(typ(t)) + "*"
    if tag in ("DW_TAG_const_type", "DW_TAG_volatile_type", "DW_TAG_atomic_type",
               "DW_TAG_restrict_type"):
        return tag[7:-5] + " " + type_name(typ(t))
    if tag == "DW_TAG_array_type":
        dims = ""
        for s in t.iter_children():
            if s.tag == "DW_TAG_subrange_type":
                ub = s.attributes.get("DW_AT_upper_bound") or s.attributes.get("DW_AT_count")
                n = ub.value + (1 if "DW_AT_upper_bound" in s.attributes else 0) \
                    if ub is not None and isinstance(ub.value, int) else 0
                dims += "[%d]" % n
        return type_name(typ(t)) + dims
    if tag == "DW_TAG_subroutine_type":
        return "fn"
    kind = {"DW_TAG_structure_type": "struct ", "DW_TAG_union_type": "union ",
            "DW_TAG_enumeration_type": "enum "}.get(tag, "")
    return kind + (name_of(t) or "<anon>")


def byte_size(t):
    while t is not None:
        a = t.attributes.get("DW_AT_byte_size")
        if a is not None:
            return a.value
        if t.tag == "DW_TAG_array_type":
            n = 1
            for s in t.iter_children():
                if s.tag == "DW_TAG_subrange_type":
                    ub = s.attributes.get("DW_AT_upper_bound")
                    cnt = s.attributes.get("DW_AT_count")
                    n *= (ub.value + 1) if ub is not None else (cnt.value if cnt else 0)
            return n * byte_size(typ(t))
        if t.tag == "DW_TAG_pointer_type":
            return 8
        if t.tag not in QUALS:
            return 0
        t = typ(t)
    return 0


def strip(t):
    while t is not None and t.tag in QUALS:
        t = typ(t)
    return t


def members(sdie, prefix, base, out):
    for m in sdie.iter_children():
        if m.tag != "DW_TAG_member":
            continue
        at = m.attributes
        loc = at.get("DW_AT_data_member_location")
        off = base + (loc.value if loc is not None and isinstance(loc.value, int) else 0)
        t = typ(m)
        nm = name_of(m)
        st = strip(t)
        if nm is None and st is not None and st.tag in ("DW_TAG_structure_type",
                                                        "DW_TAG_union_type"):
            members(st, prefix, off, out)       # anonymous struct/union
            continue
        bits = ""
        if "DW_AT_data_bit_offset" in at:
            bo = at["DW_AT_data_bit_offset"].value
            off = base + bo // 8
            bits = " %d:%d" % (bo % 8, at["DW_AT_bit_size"].value)
        elif "DW_AT_bit_size" in at:
            bits = " ?:%d" % at["DW_AT_bit_size"].value
        out.append("member %s%s 0x%x 0x%x%s %s" % (prefix, nm or "<anon>", off,
                                                   byte_size(t), bits, type_name(t)))


def find_cus(dwarf, part):
    """The compilation units whose name contains `part`."""
    for cu in dwarf.iter_CUs():
        n = cu.get_top_DIE().attributes.get("DW_AT_name")
        if n and part in n.value.decode():
            yield cu


def walk(die, structs, enums):
    for c in die.iter_children():
        if c.tag == "DW_TAG_structure_type":
            n = name_of(c)
            if n in STRUCTS and n not in structs and "DW_AT_declaration" not in c.attributes:
                out = []
                members(c, n + ".", 0, out)
                out.append("size %s 0x%x" % (n, byte_size(c)))
                structs[n] = out
        elif c.tag == "DW_TAG_enumeration_type":
            for e in c.iter_children():
                en = name_of(e) or ""
                if e.tag == "DW_TAG_enumerator" and en.startswith(ENUMS):
                    enums[en] = e.attributes["DW_AT_const_value"].value
        elif c.tag in ("DW_TAG_typedef",):
            continue


def ksizes(elf):
    """Distance from each text symbol to the next (kallsyms' /SIZE)."""
    st = elf.get_section_by_name(".symtab")
    text = {i for i, s in enumerate(elf.iter_sections())
            if s["sh_flags"] & 0x4 and s["sh_type"] == "SHT_PROGBITS"}
    syms = []
    for s in st.iter_symbols():
        if s["st_info"]["type"] in ("STT_FUNC", "STT_NOTYPE") and \
                isinstance(s["st_shndx"], int) and s["st_shndx"] in text and \
                s.name and not s.name.startswith((".L", "$")):
            syms.append((s["st_value"], s.name, s["st_info"]["type"]))
    syms.sort()
    addrs = sorted({a for a, _, _ in syms})
    import bisect
    out = []
    for a, n, ty in syms:
        if ty != "STT_FUNC":
            continue
        i = bisect.bisect_right(addrs, a)
        if i < len(addrs):
            out.append("ksize %s 0x%x" % (n, addrs[i] - a))
    return out


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("elf")
    ap.add_argument("--cu", default="kernel/sched/fair.c",
                    help="compilation units whose types are read (part of their name)")
    ap.add_argument("--ksyms", action="store_true", help="also print text symbol sizes")
    args = ap.parse_args()
    try:
        fh = open(args.elf, "rb")
    except OSError as e:
        print("layout.py: error: %s" % e, file=sys.stderr)
        return 1
    elf = ELFFile(fh)
    if not elf.has_dwarf_info():
        print("layout.py: error: %s has no DWARF" % args.elf, file=sys.stderr)
        return 1
    rel = elf["e_type"] == "ET_REL"
    dwarf = elf.get_dwarf_info(relocate_dwarf_sections=rel)
    structs, enums = {}, {}
    found = False
    for cu in find_cus(dwarf, args.cu):     # the first definition of each wins
        found = True
        walk(cu.get_top_DIE(), structs, enums)
        if args.cu == "kernel/sched/fair.c":
            break
    if not found:
        print("layout.py: error: no compilation unit %s in %s" % (args.cu, args.elf),
              file=sys.stderr)
        return 1
    lines = []
    for n in sorted(structs):
        lines += structs[n]
    for n in sorted(enums, key=lambda k: enums[k]):
        lines.append("enum %s %d" % (n, enums[n]))
    if args.ksyms:
        lines += ksizes(elf)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
