"""Writes compressed streams made by Python's zlib (the zlib C library) for InflateTests, with what each must
decode to, into the directory given as the first argument:

  manifest.json  [{"name", "format": "gzip"|"zlib"|"raw", "expect": file name of the output, or null: must fail}]
  NAME.in        the compressed bytes;  NAME.out  the expected output
  bomb-1GiB-zeros.gz  a valid gzip file of 1 GiB of zeros (1 MB)

Streams: every level 0-9 and strategy (filtered, Huffman only, RLE, fixed) in each wrapper, window sizes, flush
points (empty stored blocks), gzip headers with FEXTRA/FNAME/FCOMMENT/FHCRC written by hand, concatenated members,
empty, 1-byte, 5 MB repetitive and 1 MB random inputs, small streams (every prefix is cut short); then 1,500 streams with 1-3 bits flipped or bytes cut,
each judged by zlib itself (decodes whole with nothing left over, or fails). Seeded: the same every run.
"""
import json
import os
import random
import struct
import sys
import zlib

out = sys.argv[1]
rng = random.Random(28)
manifest = []
outputs = {}

WORDS = ("the quick brown fox jumps over lazy dog request body mapping stub wiremock json gzip deflate "
         "huffman literal length distance window block stored fixed dynamic 0 1 2 3 42 1000 { } [ ] : , \" \n").split(" ")
text = " ".join(rng.choice(WORDS) for _ in range(20000)).encode()
inputs = {
    "empty": b"",
    "one": b"x",
    "text": text,
    "small": text[:3000],
    "repetitive": (b"sut-launch " * 3 + b"mock server\n") * (5 * 1024 * 1024 // 45),
    "random": rng.randbytes(1 << 20),
}
WRAPPERS = {"raw": -15, "zlib": 15, "gzip": 31}


def add(name, fmt, data, expect):
    with open(os.path.join(out, name + ".in"), "wb") as f:
        f.write(data)
    if expect is not None and expect not in outputs:
        outputs[expect] = True
        with open(os.path.join(out, expect + ".out"), "wb") as f:
            f.write(inputs[expect] if expect in inputs else extra[expect])
    manifest.append({"name": name, "format": fmt, "expect": expect})


def compress(data, level=6, wbits=15, strategy=zlib.Z_DEFAULT_STRATEGY, mem=8, flushes=0):
    c = zlib.compressobj(level, zlib.DEFLATED, wbits, mem, strategy)
    if flushes == 0:
        return c.compress(data) + c.flush()
    step = max(1, len(data) // (flushes + 1))
    parts = []
    for start in range(0, len(data), step):
        parts.append(c.compress(data[start:start + step]))
        parts.append(c.flush(zlib.Z_FULL_FLUSH if start % 2 else zlib.Z_SYNC_FLUSH))
    return b"".join(parts) + c.flush()


extra = {"small-300": inputs["small"][:300]}
for fmt, wbits in WRAPPERS.items():
    for level in range(10):
        add(f"{fmt}-level{level}", fmt, compress(text, level, wbits), "text")
    for sname in ("Z_FILTERED", "Z_HUFFMAN_ONLY", "Z_RLE", "Z_FIXED"):
        add(f"{fmt}-{sname}", fmt, compress(text, 6, wbits, getattr(zlib, sname)), "text")
    for key in ("empty", "one"):
        for level in (0, 6):
            add(f"{fmt}-{key}-level{level}", fmt, compress(inputs[key], level, wbits), key)
    window = 9 if fmt == "zlib" else 10
    add(f"{fmt}-window{window}", fmt, compress(text, 9, (window if wbits > 0 else -window) + (16 if fmt == "gzip" else 0), mem=1), "text")
    add(f"{fmt}-flushes", fmt, compress(text, 6, wbits, flushes=7), "text")
    add(f"{fmt}-small", fmt, compress(inputs["small"], 6, wbits), "small")
    add(f"{fmt}-small-stored", fmt, compress(inputs["small"][:300], 0, wbits), "small-300")
    add(f"{fmt}-small-fixed", fmt, compress(inputs["small"], 6, wbits, zlib.Z_FIXED), "small")
add("gzip-repetitive-level9", "gzip", compress(inputs["repetitive"], 9, 31), "repetitive")
add("zlib-repetitive-rle", "zlib", compress(inputs["repetitive"], 6, 15, zlib.Z_RLE), "repetitive")
add("raw-random-level6", "raw", compress(inputs["random"], 6, -15), "random")
add("gzip-random-level0", "gzip", compress(inputs["random"], 0, 31), "random")

# gzip headers by hand (RFC 1952 §2.3): every optional field, the header CRC over all of them.
body = compress(inputs["small"], 6, -15)
trailer = struct.pack("<II", zlib.crc32(inputs["small"]), len(inputs["small"]))
for flags in (0x02, 0x04, 0x08, 0x10, 0x1E, 0x1F):
    header = b"\x1f\x8b\x08" + bytes([flags]) + struct.pack("<I", 1700000000) + b"\x02\x03"
    if flags & 0x04:
        header += struct.pack("<H", 8) + b"AP\x04\x00abcd"
    if flags & 0x08:
        header += b"request-body.json\x00"
    if flags & 0x10:
        header += b"a comment, in Latin-1: \xe9\x00"
    if flags & 0x02:
        header += struct.pack("<H", zlib.crc32(header) & 0xFFFF)
    stream = header + body + trailer
    d = zlib.decompressobj(31)
    assert d.decompress(stream) == inputs["small"] and d.eof and not d.unused_data
    add(f"gzip-header-flags{flags:02x}", "gzip", stream, "small")
    if flags & 0x02:
        bad = bytearray(stream)
        bad[len(header) - 1] ^= 0x01
        add(f"gzip-header-flags{flags:02x}-bad-crc", "gzip", bytes(bad), None)

# Concatenated members (as `cat a.gz b.gz`), zero padding after them; garbage after them is refused.
extra["two-members"] = inputs["small"] + text
two = compress(inputs["small"], 6, 31) + compress(text, 1, 31)
add("gzip-two-members", "gzip", two, "two-members")
add("gzip-two-members-zero-padding", "gzip", two + bytes(64), "two-members")
add("gzip-trailing-garbage", "gzip", two + b"garbage", None)
add("zlib-trailing-byte", "zlib", compress(text, 6, 15) + b"\x00", None)
add("raw-trailing-byte", "raw", compress(text, 6, -15) + b"\x00", None)

# Mutations: zlib decides. The stream is good only when it decodes whole with nothing left over.
for fmt, wbits in WRAPPERS.items():
    bases = [compress(inputs["small"], level, wbits, strategy) for level, strategy in
             ((6, zlib.Z_DEFAULT_STRATEGY), (1, zlib.Z_FIXED), (0, zlib.Z_DEFAULT_STRATEGY), (9, zlib.Z_HUFFMAN_ONLY), (6, zlib.Z_RLE))]
    for index in range(500):
        data = bytearray(rng.choice(bases))
        if index % 10 == 0:
            data = data[:rng.randrange(len(data))]
        else:
            for _ in range(rng.randint(1, 3)):
                position = rng.randrange(len(data)) if index % 3 else rng.randrange(min(len(data), 40))
                data[position] ^= 1 << rng.randrange(8)
        data = bytes(data)
        try:
            d = zlib.decompressobj(wbits)
            decoded = d.decompress(data)
            good = d.eof and not d.unused_data
        except zlib.error:
            good = False
        name = f"mutated-{fmt}-{index}"
        if good:
            extra[name] = decoded
        add(name, fmt, data, name if good else None)

# A bomb: 1 GiB of zeros in 1 MB of gzip. Each 1 MiB of zeros compresses to the same bytes after a full flush (no
# reference reaches back past one), so the stream is that chunk 1,024 times, an empty last block, and the trailer.
c = zlib.compressobj(9, zlib.DEFLATED, -15)
chunk = c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
crc = 0
for _ in range(1024):
    crc = zlib.crc32(bytes(1 << 20), crc)
bomb_header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03"
small_bomb = bomb_header + chunk * 2 + b"\x03\x00" + struct.pack("<II", zlib.crc32(bytes(2 << 20)), 2 << 20)
assert zlib.decompress(small_bomb, 31) == bytes(2 << 20)
with open(os.path.join(out, "bomb-1GiB-zeros.gz"), "wb") as f:
    f.write(bomb_header + chunk * 1024 + b"\x03\x00" + struct.pack("<II", crc, 1 << 30))

with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f)
