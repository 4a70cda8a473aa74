"""Junk and mutations: random bytes (invalid UTF-8, control characters, Unicode white space)
and mutated copies of valid lines (words dropped, swapped, duplicated, replaced, cut)."""

SAFE_WORDS = [
    "uci", "isready", "setoption", "name", "value", "position", "startpos", "fen", "moves",
    "go", "stop", "ponderhit", "ucinewgame", "debug", "on", "off", "register", "later",
    "infinite", "ponder", "searchmoves", "wtime", "btime", "winc", "binc", "movestogo", "depth",
    "nodes", "mate", "movetime", "Hash", "Threads", "MultiPV", "Clear", "xboard", "protover",
    "new", "force", "usermove", "setboard", "edit", "analyze", "exit", "undo", "remove", "hint",
    "bk", "level", "st", "sd", "time", "otim", "ping", "memory", "cores", "option", "?", ".",
    "#", "c", "post", "nopost", "hard", "easy", "playother", "white", "black", "result", "1-0",
    "*", "variant", "normal", "fischerandom", "e2e4", "e7e5", "g1f3", "e1g1", "e7e8q", "a7a8=Q",
    "Nf3", "O-O", "0000", "@@@@", "Ke1", "xe4", "0", "1", "-1", "2", "7", "64", "100", "1000",
    "1048576", "1048577", "2147483648", "4294967296", "18446744073709551615",
    "18446744073709551616", "-9223372036854775809", "+5", "3.5", "1e9", "0x10", "nan", "inf",
    "-", "w", "b", "KQkq", "0:30", "=", "true", "false", "<empty>", "w-", "\t", "\u00a0",
]
UNICODE_BITS = ["\u00a0", "\u2003", "\u3000", "\u0085", "\u00e9", "\u4e2d", "\U0001f600",
                "\u200b", "\ufeff", "\u202e"]
INVALID_UTF8 = [b"\xff", b"\xfe", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                b"\x80", b"\xe2\x82", b"\xf0\x9f\x98"]


def random_junk(rng, n):
    out = bytearray()
    while len(out) < n:
        x = rng.random()
        if x < 0.45:
            out += bytes([rng.randint(32, 126)])
        elif x < 0.55:
            out += bytes([rng.choice([0, 1, 7, 8, 9, 11, 12, 13, 27, 31, 127])])
        elif x < 0.7:
            out += rng.choice(INVALID_UTF8)
        elif x < 0.85:
            out += rng.choice(UNICODE_BITS).encode("utf-8")
        else:
            out += bytes([rng.randint(128, 255)])
    return bytes(out).replace(b"\n", b" ")


def mutate(rng, line):
    """A mutated copy of a valid line (bytes)."""
    tokens = line.split(" ")
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(10)
        if op == 0 and len(tokens) > 1:
            del tokens[rng.randrange(len(tokens))]
        elif op == 1 and len(tokens) > 1:
            i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == 2:
            i = rng.randrange(len(tokens))
            tokens.insert(i, tokens[i])
        elif op == 3:
            tokens[rng.randrange(len(tokens))] = rng.choice(SAFE_WORDS)
        elif op == 4:
            tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(SAFE_WORDS))
        elif op == 5:
            i = rng.randrange(len(tokens))
            tokens[i] = tokens[i].upper() if rng.random() < 0.5 else tokens[i].capitalize()
        elif op == 6:
            i = rng.randrange(len(tokens))
            t = tokens[i]
            cut = rng.randrange(len(t) + 1)
            tokens[i] = t[:cut]
        elif op == 7:
            sep = rng.choice(["\t", "  ", "\u00a0", "\u3000", "\x0b", "\r", ""])
            i = rng.randrange(len(tokens))
            tokens[i] = tokens[i] + sep
        elif op == 8:
            tokens[rng.randrange(len(tokens))] = str(rng.choice(
                [0, -1, 1, 2**31, 2**32, 2**63, 2**64, -(2**63) - 1, rng.randint(-100, 10**6)]))
        else:
            pass
    raw = " ".join(tokens).encode("utf-8")
    if rng.random() < 0.25:
        at = rng.randrange(len(raw) + 1)
        raw = raw[:at] + random_junk(rng, rng.randint(1, 6)) + raw[at:]
    if rng.random() < 0.1:
        raw = rng.choice([b" ", b"\t", b"  "]) + raw
    if rng.random() < 0.1:
        raw += b"\r"
    return raw.replace(b"\n", b" ")
