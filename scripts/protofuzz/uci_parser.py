"""Mirror of the engine's UCI parser (src/protocol/uci/command.rs): what kind of command the
engine takes a line for, with its arguments."""

from .text import I64, U32, U64, WS, WS_SET, r_int, r_split, r_trim

UCI_COMMANDS = (
    "uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go", "stop",
    "ponderhit", "quit", "d", "eval", "bench",
)
GO_WORDS = (
    "searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes",
    "mate", "movetime", "infinite", "perft",
)
GO_NUMBERS = {
    "wtime": I64, "btime": I64, "winc": I64, "binc": I64, "movestogo": U32, "depth": U32,
    "nodes": U64, "mate": U32, "movetime": U64, "perft": U32,
}


def uci_parse(line):
    """(kind, ...) for a line: ('error',), ('empty',), ('position', fen|None, moves),
    ('go', params), ('setoption', name, value), or (command,)."""
    tokens = r_split(line)
    if not tokens:
        return ("empty",)
    start = next((i for i, t in enumerate(tokens) if t in UCI_COMMANDS), None)
    if start is None:
        return ("error",)
    command, args = tokens[start], tokens[start + 1:]
    if command == "debug":
        return ("debug",) if args and args[0] in ("on", "off") else ("error",)
    if command == "setoption":
        return uci_parse_setoption(line)
    if command == "position":
        moves_at = args.index("moves") if "moves" in args else None
        head = args[:moves_at] if moves_at is not None else args
        moves = args[moves_at + 1:] if moves_at is not None else []
        if head == ["startpos"]:
            return ("position", None, moves)
        if len(head) >= 2 and head[0] == "fen":
            return ("position", " ".join(head[1:]), moves)
        return ("error",)
    if command == "go":
        return uci_parse_go(args)
    return (command,)


def uci_parse_setoption(line):
    at = line.find("setoption")
    after = line[at + len("setoption"):].lstrip(WS)
    if not after.startswith("name"):
        return ("error",)
    rest = after[len("name"):]
    if rest and rest[0] not in WS_SET:
        return ("error",)
    words = r_split(rest)
    value_at = words.index("value") if "value" in words else None
    name_words = words[:value_at] if value_at is not None else words
    if not name_words:
        return ("error",)
    value = None
    if value_at is not None:
        value = ""
        search_from = 0
        while True:
            i = rest.find("value", search_from)
            if i < 0:
                break
            before_ok = i == 0 or rest[i - 1] in WS_SET
            after_text = rest[i + len("value"):]
            after_ok = after_text == "" or after_text[0] in WS_SET
            if before_ok and after_ok:
                value = r_trim(after_text)
                break
            search_from = i + len("value")
    return ("setoption", " ".join(name_words), value)


def uci_parse_go(args):
    """`go` always parses (as the engine does since issue 53): an unknown word or a parameter
    without a valid number is left out with an error line; the rest starts the search.
    `go perft N` is the developer command: no search, no bestmove."""
    params = {"searchmoves": [], "ponder": False, "infinite": False, "ignored": 0}
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "searchmoves":
            moves = []
            for t in args[i:]:
                if t in GO_WORDS:
                    break
                moves.append(t)
            i += len(moves)
            params["searchmoves"] = moves
        elif word in ("ponder", "infinite"):
            params[word] = True
        elif word in GO_NUMBERS:
            text = args[i] if i < len(args) and args[i] not in GO_WORDS else None
            i += text is not None
            lo, hi = GO_NUMBERS[word]
            value = r_int(text, lo, hi) if text is not None else None
            if value is None:
                params["ignored"] += 1
            else:
                params[word] = value
        else:
            params["ignored"] += 1
    if "perft" in params:
        return ("perft",)
    return ("go", params)
