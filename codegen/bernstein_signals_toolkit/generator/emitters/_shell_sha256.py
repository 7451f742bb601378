"""SHA-256's compression function as straight-line shell arithmetic, for the fence.

The shell library marks lines with HMAC-SHA256 and may start no program, so it
compresses blocks in ``$(( ))``. Unrolled here (64 rounds, the message schedule in
a 16-word window, the working variables renamed instead of moved) because a
loop costs each shell far more than the arithmetic. Two dialects: shells whose
arithmetic is 64-bit mask each sum to 32 bits; mksh's is 32-bit (sums and ``<<``
wrap by themselves, but ``>>`` copies the sign bit, so it is masked).
"""

from __future__ import annotations

from typing import Final

__all__ = ["sha256_functions"]

_K: Final = (
    0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1, 0x923F82A4, 0xAB1C5ED5,
    0xD807AA98, 0x12835B01, 0x243185BE, 0x550C7DC3, 0x72BE5D74, 0x80DEB1FE, 0x9BDC06A7, 0xC19BF174,
    0xE49B69C1, 0xEFBE4786, 0x0FC19DC6, 0x240CA1CC, 0x2DE92C6F, 0x4A7484AA, 0x5CB0A9DC, 0x76F988DA,
    0x983E5152, 0xA831C66D, 0xB00327C8, 0xBF597FC7, 0xC6E00BF3, 0xD5A79147, 0x06CA6351, 0x14292967,
    0x27B70A85, 0x2E1B2138, 0x4D2C6DFC, 0x53380D13, 0x650A7354, 0x766A0ABB, 0x81C2C92E, 0x92722C85,
    0xA2BFE8A1, 0xA81A664B, 0xC24B8B70, 0xC76C51A3, 0xD192E819, 0xD6990624, 0xF40E3585, 0x106AA070,
    0x19A4C116, 0x1E376C08, 0x2748774C, 0x34B0BCB5, 0x391C0CB3, 0x4ED8AA4A, 0x5B9CCA4F, 0x682E6FF3,
    0x748F82EE, 0x78A5636F, 0x84C87814, 0x8CC70208, 0x90BEFFFA, 0xA4506CEB, 0xBEF9A3F7, 0xC67178F2,
)  # fmt: skip
"""The round constants (FIPS 180-4, 4.2.2)."""
_IV: Final = (
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
)  # fmt: skip
"""The initial hash value (FIPS 180-4, 5.3.3)."""
_MASK: Final = "0xffffffff"
"""32 bits: the identity in mksh, where 0xffffffff is -1."""


def _rotr(x: str, n: int, wide: bool) -> str:
    return (
        f"({x}>>{n}|{x}<<{32 - n})"
        if wide
        else f"({x}>>{n}&{(1 << (32 - n)) - 1:#x}|{x}<<{32 - n})"
    )


def _shr(x: str, n: int, wide: bool) -> str:
    return f"({x}>>{n})" if wide else f"({x}>>{n}&{(1 << (32 - n)) - 1:#x})"


def _sigma(x: str, rotations: tuple[int, int], shift: int, wide: bool) -> str:
    first, second = (_rotr(x, n, wide) for n in rotations)
    return f"({first}^{second}^{_shr(x, shift, wide)})"


def _big_sigma(x: str, rotations: tuple[int, int, int], wide: bool) -> str:
    return "(" + "^".join(_rotr(x, n, wide) for n in rotations) + ")"


def _block_body(wide: bool) -> list[str]:
    """Compress words _bsig_W0.._bsig_W15 into the state _bsig_H0.._bsig_H7."""
    v = [f"_bsig_V{i}" for i in range(8)]
    lines = ["  : " + " ".join(f"$((_bsig_V{i} = _bsig_H{i}))" for i in range(8))]
    for t in range(64):
        w = f"_bsig_W{t % 16}"
        if t >= 16:
            s1 = _sigma(f"_bsig_W{(t - 2) % 16}", (17, 19), 10, wide)
            s0 = _sigma(f"_bsig_W{(t - 15) % 16}", (7, 18), 3, wide)
            lines.append(f"  : $(({w} = ({s1} + _bsig_W{(t - 7) % 16} + {s0} + {w}) & {_MASK}))")
        a, b, c, d, e, f, g, h = (v[(k - t) % 8] for k in range(8))
        t1 = (
            f"({h} + {_big_sigma(e, (6, 11, 25), wide)} + ({e}&{f}^~{e}&{g})"
            f" + {_K[t]:#010x} + {w}) & {_MASK}"
        )
        t2 = f"{_big_sigma(a, (2, 13, 22), wide)} + ({a}&{b}^{a}&{c}^{b}&{c})"
        lines.append(
            f"  : $((_bsig_T1 = {t1})) $(({d} = ({d} + _bsig_T1) & {_MASK}))"
            f" $(({h} = (_bsig_T1 + {t2}) & {_MASK}))"
        )
    lines.append(
        "  : "
        + " ".join(f"$((_bsig_H{i} = (_bsig_H{i} + _bsig_V{i}) & {_MASK}))" for i in range(8))
    )
    return lines


def _words_body() -> list[str]:
    """_bsig_W0.._bsig_W15 from 64 byte values given as arguments."""
    lines = []
    for i in range(16):
        a, b, c, d = (f"${{{4 * i + j + 1}}}" for j in range(4))
        lines.append(f"  _bsig_W{i}=$(({a} << 24 | {b} << 16 | {c} << 8 | {d}))")
    return lines


def sha256_functions() -> str:
    """Shell text defining _bsig_sha_block, _bsig_sha_iv, _bsig_sha_wipe and _bsig_sha_words."""
    iv = " ".join(f"_bsig_H{i}=$(({value:#010x}))" for i, value in enumerate(_IV))
    lines = [
        "# _bsig_sha_block: one SHA-256 compression of _bsig_W0..15 into _bsig_H0..7",
        "# (generated: FIPS 180-4, unrolled; mksh's arithmetic is 32-bit).",
        "case $_bsig_sh in",
        "  mksh)",
        "_bsig_sha_block() {",
        *_block_body(wide=False),
        "}",
        "    ;;",
        "  *)",
        "_bsig_sha_block() {",
        *_block_body(wide=True),
        "}",
        "    ;;",
        "esac",
        "",
        "# _bsig_sha_iv: the state SHA-256 starts from.",
        "_bsig_sha_iv() {",
        f"  {iv}",
        "}",
        "",
        "# _bsig_sha_wipe: forget what compressing leaves behind (the state, the",
        "# working variables, the schedule's window): after an HMAC pad, the key's.",
        "_bsig_sha_wipe() {",
        "  " + " ".join(f"_bsig_H{i}=''" for i in range(8)),
        "  " + " ".join(f"_bsig_V{i}=''" for i in range(8)) + " _bsig_T1=''",
        "  " + " ".join(f"_bsig_W{i}=''" for i in range(16)),
        "}",
        "",
        "# _bsig_sha_words B1 .. B64: the block's words from its 64 byte values.",
        "_bsig_sha_words() {",
        *_words_body(),
        "}",
    ]
    return "\n".join(lines)
