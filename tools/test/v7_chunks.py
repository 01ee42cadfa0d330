#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""CPU 0's chunks in a trace.dat v7 zstd recording (tests/unit/tools-zstd.t).

v7_chunks.py offsets FILE
    prints the file offsets of CPU 0's data (its chunk count), of its 3rd
    chunk header and of the 4th.

v7_chunks.py loop SRC DST
    writes a copy of SRC whose CPU 0 first page makes kbuffer re-read its
    events for ever: after the page's first two events, a padding event
    whose length points back at the first event (kbuffer computes the next
    event's offset as the padding's data offset plus that length, so it
    goes back to event 1, then 2, then the padding again).  The chunk is
    recompressed with the zstd CLI (level 19, no checksum) and padded to
    its old compressed size with a zstd skippable frame, so that no offset
    of the file moves.  Prints the offsets of CPU 0's data, of the chunk
    and of the padding in the page's data.

v7_chunks.py stall SRC DST
    the same, with the padding the page's first event and its length
    pointing at itself: kbuffer then skips that padding for ever without
    returning an event, in the first walk of the page (the reader's
    watchdog, FAIRLAB_STALL_SECS, ends it)."""
import struct
import subprocess
import sys


def cpu0_offset(d):
    """CPU 0's data in the top instance's BUFFER option (id 3)."""
    p = 10 + len(b'7\0') + 2 + 4
    for _ in range(2):
        p = d.index(b'\0', p) + 1
    opts = struct.unpack_from('<Q', d, p)[0]
    while opts:
        size = struct.unpack_from('<Q', d, opts + 8)[0]
        q, nxt = opts + 16, 0
        while q < opts + 16 + size:
            oid, n = struct.unpack_from('<HI', d, q)
            if oid == 0:
                nxt = struct.unpack_from('<Q', d, q + 6)[0]
            if oid == 3 and d[q + 14] == 0:
                r = d.index(b'\0', q + 15) + 1 + 8   # clock, page size, cpus
                return struct.unpack_from('<Q', d, r + 4)[0]
            q += 6 + n
        opts = nxt
    sys.exit('no top-instance BUFFER option')


def after_two_events(raw, base):
    """Offset, from the page's data, of what follows its first two events."""
    off = seen = 0
    while seen < 2:
        tl = struct.unpack_from('<I', raw, base + off)[0] & 31
        if tl == 0:          # length in the next word, header included
            ln = (struct.unpack_from('<I', raw, base + off + 4)[0] - 4 + 3) & ~3
            off += 8 + ln
            seen += 1
        elif tl <= 28:       # tl words of data
            off += 4 + tl * 4
            seen += 1
        elif tl == 30:       # time extend
            off += 8
        elif tl == 31:       # absolute time stamp
            off += 16
        else:                # padding
            off += 8 + struct.unpack_from('<I', raw, base + off + 4)[0]
    return off


def chunk_after(d, c):
    """The chunk header after the one at @c."""
    return c + 8 + struct.unpack_from('<I', d, c)[0]


def offsets(path):
    d = open(path, 'rb').read()
    cpu0 = cpu0_offset(d)
    c3 = chunk_after(d, chunk_after(d, cpu0 + 4))
    print(cpu0, c3, chunk_after(d, c3))


def loop(src, dst, first=False):
    d = bytearray(open(src, 'rb').read())
    cpu0 = cpu0_offset(d)
    c = cpu0 + 4                                  # after the chunk count
    zsize, usize = struct.unpack_from('<II', d, c)
    frame = bytes(d[c + 8:c + 8 + zsize])
    raw = bytearray(subprocess.run(['zstd', '-d', '-c'], input=frame,
                                   capture_output=True, check=True).stdout)
    if len(raw) != usize:
        sys.exit('chunk decompressed to %d bytes, not %d' % (len(raw), usize))
    base = 16                                     # timestamp, commit (8 each)
    off = 0 if first else after_two_events(raw, base)
    # type_len 29 (padding), delta 0; length back to the first event
    struct.pack_into('<II', raw, base + off, 29, (1 << 32) - (off + 4))
    z = subprocess.run(['zstd', '-19', '-c', '--no-check'], input=bytes(raw),
                       capture_output=True, check=True).stdout
    if len(z) + 8 > zsize:
        sys.exit('recompressed chunk of %d bytes does not fit %d' % (len(z), zsize))
    pad = zsize - len(z) - 8
    z += struct.pack('<II', 0x184D2A50, pad) + b'\0' * pad
    d[c + 8:c + 8 + zsize] = z
    open(dst, 'wb').write(d)
    print(cpu0, c, off)


if len(sys.argv) == 3 and sys.argv[1] == 'offsets':
    offsets(sys.argv[2])
elif len(sys.argv) == 4 and sys.argv[1] in ('loop', 'stall'):
    loop(sys.argv[2], sys.argv[3], sys.argv[1] == 'stall')
else:
    sys.exit('usage: v7_chunks.py offsets FILE | loop SRC DST | stall SRC DST')
