"""Text as the engine sees it: Rust's notion of white space (`str::split_whitespace`,
`str::trim`), integer parsing, the reader's line cut and lossy UTF-8, and how a sent line is
printed in reports."""

import re

WS = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(chr(c) for c in range(0x2000, 0x200B)) + (
    "\u2028\u2029\u202f\u205f\u3000"
)
WS_SET = frozenset(WS)
WS_RE = re.compile("[" + re.escape(WS) + "]+")
MAX_LINE_BYTES = 64 * 1024


def r_split(text):
    """str::split_whitespace."""
    return [t for t in WS_RE.split(text) if t]


def r_trim(text):
    """str::trim."""
    return text.strip(WS)


def engine_view(raw):
    """The line the engine's reader hands on for the raw bytes sent (without the newline)."""
    kept = (raw + b"\n")[:MAX_LINE_BYTES]
    return kept.rstrip(b"\r\n").decode("utf-8", "replace")


def r_int(text, lo, hi):
    """Rust's `str::parse` for an integer type with range lo..=hi, or None."""
    pattern = r"[+-]?[0-9]+" if lo < 0 else r"\+?[0-9]+"
    if not re.fullmatch(pattern, text):
        return None
    value = int(text)
    return value if lo <= value <= hi else None


I64 = (-(2**63), 2**63 - 1)
U32 = (0, 2**32 - 1)
U64 = (0, 2**64 - 1)


def shown(raw, limit=160):
    """A sent line as printed in reports."""
    text = raw.decode("utf-8", "backslashreplace")
    text = text.replace("\r", "\\r").replace("\x00", "\\x00")
    if len(text) > limit:
        return f"{text[:limit]}... ({len(raw)} bytes)"
    return text
