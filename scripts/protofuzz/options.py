"""Values for the options the engine declares (UCI `option`, XBoard `feature option`), good
and bad: table sizes up to --max-hash, thread counts, spins, checks, the fixtures' files."""

class OptionGen:
    """Values for the options an engine declares, good and bad."""

    def __init__(self, driver):
        self.d = driver

    def hash_value(self, refused_only=False):
        """A table size in MB: mostly small, sometimes up to --max-hash (by default beyond the
        machine's memory, which the engine must cut down), sometimes invalid. With
        refused_only, invalid values are only ones the parser refuses (XBoard's `memory`
        clamps a too large number instead of refusing it)."""
        r = self.d.rng
        top = self.d.max_hash
        x = r.random()
        if x < 0.4:
            return str(r.randint(1, min(64, top)))
        if x < 0.6:
            return str(r.randint(1, min(1024, top)))
        if x < 0.72:
            return str(r.randint(1, min(4096, top)))
        if x < 0.9:
            low = min(top, max(1, self.d.mem_available // 4))
            return str(r.randint(low, top))
        if x < 0.95:
            return str(min(top, 1048576))
        if refused_only:
            return r.choice(["-1", "99999999999999999999", "lots", "64.5", ""])
        return r.choice(["0", "-1", "1048577", "99999999999999999999", "lots", "64.5", ""])

    def threads_value(self):
        r = self.d.rng
        if r.random() < 0.9:
            return str(r.randint(1, self.d.args.max_threads))
        return r.choice(["0", "-3", "257", "many", "2.0", ""])

    def value(self, opt):
        """A value for opt = {name, type, min, max}."""
        r = self.d.rng
        name = opt["name"].lower()
        if name == "hash":
            return self.hash_value()
        if name == "threads":
            return self.threads_value()
        kind = opt["type"]
        if kind == "spin":
            lo, hi = opt["min"], opt["max"]
            x = r.random()
            if x < 0.6:
                return str(r.randint(lo, min(hi, lo + 8) if name == "multipv" else hi))
            if x < 0.8:
                return str(r.choice([lo, hi]))
            return r.choice([str(lo - 1), str(hi + 1), "x", "", "1.5", "+3", "99999999999999999999"])
        if kind == "check":
            return r.choice(["true", "false", "TRUE", "False", "1", "0", "on", "off", "maybe", ""])
        if kind == "button":
            return None if r.random() < 0.8 else "x"
        files = self.d.fixtures.get(name)
        if files:
            return r.choice(files)[0]
        return r.choice(["<empty>", "", "whatever"])
