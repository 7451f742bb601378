"""The fence's constants as the shell library's ``@FENCE_*@`` markers.

They come from the Python runtime's ``fence_rules`` (their one home), written
where ``library/fence.sh`` puts them: in case patterns, between double quotes,
or as printf formats.
"""

from __future__ import annotations

import re
import string

from ._escape import shell_double_quoted
from ._shell_sha256 import sha256_functions
from ._templates import python_runtime_module

__all__ = ["fence_markers"]

_HEX_DIGIT = "[0123456789abcdef]"
_LOWER = string.ascii_lowercase
_BLOCK = 64
"""Bytes in a SHA-256 block."""


def _mark_order(field: str) -> tuple[str, str]:
    """Case patterns on MEMBERS (``,"key":...``): the first key sorts after ``field``; is it.

    The mark goes first when every key sorts after it. Patterns list letters one
    by one (no ranges, which follow the locale). ``field`` is ``_`` and lowercase
    letters, so a longer key that starts with it sorts after it.
    """
    if re.fullmatch(r"_[a-z]+", field) is None:
        raise AssertionError(f"the shell orders the mark {field!r} as '_' and lowercase letters")
    after = [f',\\"{field}[!\\"]*']
    for place, char in enumerate(field):
        greater = "".join(letter for letter in _LOWER if letter > char)
        if greater:
            after.append(f',\\"{field[:place]}[{greater}]*')
    return " | ".join(after), f',\\"{field}\\":*'


def fence_markers() -> dict[str, str]:
    rules = python_runtime_module("fence_rules")
    run: int = rules.RUN_HEX_DIGITS
    secret: int = rules.SECRET_HEX_DIGITS
    field: str = rules.MARK_FIELD
    after, same = _mark_order(field)
    if not re.fullmatch(r"[A-Z_]+", rules.KEY_VARIABLE + rules.KEY_FD_VARIABLE):
        raise AssertionError("the key variables' names are written unquoted")
    fds = range(rules.KEY_FD_MIN, rules.KEY_FD_MAX + 1)
    if not 0 < fds.start <= fds.stop - 1 <= 9:  # one digit, as dash redirects
        raise AssertionError("the shell takes a key's descriptor as one digit")
    return {
        "@FENCE_SHA256@": sha256_functions(),
        "@FENCE_KEY_VARIABLE@": rules.KEY_VARIABLE,
        "@FENCE_KEY_FD_VARIABLE@": rules.KEY_FD_VARIABLE,
        "@FENCE_MARK_FIELD@": field,
        "@FENCE_MARK_AFTER@": after,
        "@FENCE_MARK_SAME@": same,
        "@FENCE_MARK_BYTES@": " ".join(str(byte) for byte in field.encode("ascii")),
        "@FENCE_MAC_DOMAIN@": shell_double_quoted(rules.MAC_DOMAIN),
        "@FENCE_MAX_SEQUENCE@": str(rules.MAX_SEQUENCE),
        "@FENCE_KEY_PATTERN@": _HEX_DIGIT * run + ":" + _HEX_DIGIT * secret,
        "@FENCE_KEY_SHAPE@": rules.KEY_SHAPE,
        "@FENCE_KEY_FDS@": "".join(str(fd) for fd in fds),
        "@FENCE_KEY_FD_RANGE@": f"{fds.start}..{fds.stop - 1}",
        "@FENCE_KEY_READ_SECONDS@": str(int(rules.KEY_READ_SECONDS)),
        "@FENCE_KEY_EXPOSED@": rules.KEY_EXPOSED,
        "@FENCE_KEY_REFUSED_STATUS@": str(int(rules.KEY_REFUSED_STATUS)),
        "@FENCE_KEY_BYTES@": str(run + 1 + secret),
        "@FENCE_BYTES@": "".join(f"\\{byte:03o}" for byte in range(1, 256)),
        "@FENCE_BYTES_MKSH@": "".join(f"\\0{byte:03o}" for byte in range(1, 256)),
        "@FENCE_PRINTF_ARGS@": " ".join(f'"\'${{_bsig_Fc:{i}:1}}"' for i in range(_BLOCK)),
        "@FENCE_MKSH_ARGS@": "".join(f" $((1#${{_bsig_Fc:{i}:1}}))" for i in range(_BLOCK)),
    }
