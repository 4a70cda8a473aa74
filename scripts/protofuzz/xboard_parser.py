"""Mirror of the engine's XBoard parser (src/protocol/xboard/command.rs, timecontrol.rs): the
command a line is taken for, the moves its move reader accepts, edit-mode sub-commands."""

import re

from .text import I64, U32, U64, WS_RE, r_int, r_split, r_trim

XB_NO_ARGS = {
    "xboard", "new", "quit", "random", "force", "go", "playother", "white", "black", "?",
    "draw", "edit", "hint", "bk", "undo", "remove", "hard", "easy", "post", "nopost", "analyze",
    "exit", ".", "computer", "pause", "resume",
}
XB_REST = {"accepted", "rejected", "setboard", "name", "ics"}
XB_ONE_ARG = {"variant", "usermove", "lift", "put", "hover", "exclude", "include"}
XB_NUMBER = {"sd": U32, "nps": U64, "time": I64, "otim": I64, "memory": U64, "cores": U64}
MAX_SECONDS = 1e7


def xb_split_word(line):
    m = WS_RE.search(line)
    if not m:
        return line, ""
    return line[: m.start()], r_trim(line[m.start():])


def decimal_prefix(text):
    m = re.match(r"[0-9]+(\.[0-9]+)?", text)
    return m.end() if m else 0


def xb_seconds(text):
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0.0 <= value <= MAX_SECONDS else None


def xb_parse_seconds(text):
    if decimal_prefix(text) != len(text):
        return None
    return xb_seconds(text)


def xb_parse_base(text):
    n = decimal_prefix(text)
    if n == 0:
        return None
    minutes = xb_seconds(text[:n])
    if minutes is None:
        return None
    total = minutes * 60
    after = text[n:]
    if after.startswith(":"):
        k = decimal_prefix(after[1:])
        if k > 0:
            sec = xb_seconds(after[1: 1 + k])
            if sec is None:
                return None
            total += sec
    return None if total > MAX_SECONDS else total


def is_square(s):
    return len(s) == 2 and "a" <= s[0] <= "h" and "1" <= s[1] <= "8"


def looks_like_move(word):
    if word == "@@@@":
        return True
    b = word
    if not b.isascii():
        return False
    promo = "nbrqNBRQ"
    if len(b) == 4 and is_square(b[:2]) and is_square(b[2:]):
        return True
    if len(b) == 5 and is_square(b[:2]) and is_square(b[2:4]) and b[4] in promo:
        return True
    if len(b) == 6 and is_square(b[:2]) and is_square(b[2:4]) and b[4] == "=" and b[5] in promo:
        return True
    if len(b) == 4 and b[0] in "PNBRQK" and b[1] == "@" and is_square(b[2:]):
        return True
    core = b.rstrip("!?")
    if core.endswith("+") or core.endswith("#"):
        core = core[:-1]
    if core in ("O-O", "O-O-O", "0-0", "0-0-0"):
        return True
    if not core:
        return False
    if core[0] in "NBRQK":
        body = core[1:]
        if len(body) < 2 or not is_square(body[-2:]):
            return False
        middle = body[:-2]
        if middle.endswith("x"):
            middle = middle[:-1]
        if len(middle) == 0:
            return True
        if len(middle) == 1:
            return "a" <= middle <= "h" or "1" <= middle <= "8"
        return len(middle) == 2 and is_square(middle)
    rest = core
    if len(rest) >= 3 and "a" <= rest[0] <= "h" and rest[1] == "x":
        rest = rest[2:]
    if len(rest) < 2 or not is_square(rest[:2]):
        return False
    tail = rest[2:]
    if tail == "":
        return True
    if len(tail) == 2 and tail[0] == "=":
        tail = tail[1:]
    return len(tail) == 1 and tail in "NBRQ"


def xb_parse(line):
    """(command, data) for a line as parse_command sees it; ('error',) if it is refused."""
    line = r_trim(line)
    word, rest = xb_split_word(line)
    args = r_split(rest)
    if word == "":
        return ("empty",)
    if word in XB_NO_ARGS:
        return (word,) if not args else ("error",)
    if word in XB_REST:
        return (word, rest) if rest else ("error",)
    if word in XB_ONE_ARG:
        return (word, args[0]) if len(args) == 1 else ("error",)
    if word in XB_NUMBER:
        if len(args) != 1:
            return ("error",)
        lo, hi = XB_NUMBER[word]
        value = r_int(args[0], lo, hi)
        return (word, value) if value is not None else ("error",)
    if word in ("ping", "protover"):
        if len(args) != 1:
            return ("error",)
        digits = args[0][1:] if args[0][:1] in ("+", "-") else args[0]
        ok = digits != "" and all("0" <= c <= "9" for c in digits)
        return (word, args[0]) if ok else ("error",)
    if word == "level":
        if len(args) != 3:
            return ("error",)
        if r_int(args[0], *U32) is None or xb_parse_base(args[1]) is None:
            return ("error",)
        return ("level",) if xb_parse_seconds(args[2]) is not None else ("error",)
    if word == "st":
        if len(args) != 1:
            return ("error",)
        return ("st",) if xb_parse_seconds(args[0]) is not None else ("error",)
    if word == "result":
        first, _ = xb_split_word(rest)
        return ("result",) if first in ("1-0", "0-1", "1/2-1/2", "*") else ("error",)
    if word == "rating":
        if len(args) != 2:
            return ("error",)
        ok = r_int(args[0], *I64) is not None and r_int(args[1], *I64) is not None
        return ("rating",) if ok else ("error",)
    if word == "egtpath":
        kind, path = xb_split_word(rest)
        return ("egtpath", kind, path) if kind and path else ("error",)
    if word == "option":
        if not rest:
            return ("error",)
        if "=" in rest:
            name, value = rest.split("=", 1)
            name, value = r_trim(name), r_trim(value)
        else:
            name, value = rest, None
        return ("option", name, value) if name else ("error",)
    if word == "setscore":
        if len(args) != 2:
            return ("error",)
        ok = r_int(args[0], *I64) is not None and r_int(args[1], *U32) is not None
        return ("setscore",) if ok else ("error",)
    if word == "uci":
        return ("error",)
    if not args and looks_like_move(word):
        return ("usermove", word)
    return ("error",)


def xb_parse_edit(line):
    """The edit sub-command of a line (already trimmed), or None."""
    if line in ("c", "#", "."):
        return (line,)
    raw = line.encode("utf-8")
    if len(raw) != 3:
        return None
    square = line[1:]
    if not is_square(square):
        return None
    if line[0] in "xX":
        return ("x", square)
    if line[0] in "PNBRQK":
        return ("put", line[0], square)
    return None
