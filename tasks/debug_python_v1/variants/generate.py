#!/usr/bin/env python3
"""Draws one instance of debug_python_v1: generate SEED OUTDIR (see README.md for the family).

Deterministic: everything comes from random.Random(SEED) (a str seed hashes the same on every run
and machine), and nothing reads the clock, the environment or the file system but this folder.
"""

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Unit tables, largest first: which letters a config may use and how many seconds each is.
FLAVOURS = {
    "dhms": {"d": 86400, "h": 3600, "m": 60, "s": 1},
    "wdhms": {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1},
    "hms": {"h": 3600, "m": 60, "s": 1},
}

# The bug family: each a one-line change (its text in the module, its fix) that a visible test
# exposes. The texts carry no quote, dollar or backslash but what fix_sed escapes, so the scripts
# can put them in shell and Python strings.
BUGS = {
    "overwrite_total": {
        "bug": "        total = amount * size",
        "fix": "        total += amount * size",
        "why": "parse_duration overwrote its running total (`=`) instead of adding to it (`+=`)",
    },
    "repeat_unit": {
        "bug": "        if last_size is not None and size > last_size:",
        "fix": "        if last_size is not None and size >= last_size:",
        "why": "the order check let a unit repeat (`>` where `>=` belongs), so 1h1h parsed",
    },
    "drops_single": {
        "bug": "        if amount > 1:",
        "fix": "        if amount:",
        "why": "format_duration dropped every unit whose amount was 1 (`amount > 1` where `amount` belongs)",
    },
    "no_strip": {
        "bug": "    cleaned = text.lower()",
        "fix": "    cleaned = text.strip().lower()",
        "why": "parse_duration no longer stripped surrounding whitespace (`text.lower()` without `.strip()`)",
    },
    "limit_inclusive": {
        "bug": "    if total >= MAX_SECONDS:",
        "fix": "    if total > MAX_SECONDS:",
        "why": "the limit check refused the limit itself (`>=` where `>` belongs)",
    },
}


# The line the no_strip bug breaks, as the fixed module has it.
STRIPPED = "    cleaned = text.strip().lower()\n"


def module(units: dict, max_units: int, top: str) -> str:
    table = ", ".join(f'"{u}": {s}' for u, s in units.items())
    letters = "".join(units)
    example = "1h30m" if "h" in units else "45s"
    return f'''"""Parse and format human-friendly durations such as "{example}" or "45s".

The job scheduler reads timeouts and retry delays from its config files with these; it refuses
anything longer than {max_units}{top}.
"""

import re

_UNITS = {{{table}}}
_TOKEN = re.compile(r"(\\d+)([{letters}])")
MAX_SECONDS = {max_units} * _UNITS["{top}"]


def parse_duration(text: str) -> int:
    """Return the number of seconds in a duration like "2h" or "1h30m".

    Each unit may appear once, largest first. Surrounding whitespace and upper-case
    units are accepted. Anything else, or more than MAX_SECONDS, raises ValueError.
    """
    cleaned = text.strip().lower()
    if not cleaned:
        raise ValueError("empty duration")
    total = 0
    pos = 0
    last_size = None
    for match in _TOKEN.finditer(cleaned):
        if match.start() != pos:
            raise ValueError(f"invalid duration: {{text!r}}")
        amount, unit = int(match.group(1)), match.group(2)
        size = _UNITS[unit]
        if last_size is not None and size >= last_size:
            raise ValueError(f"units out of order in {{text!r}}")
        total += amount * size
        last_size = size
        pos = match.end()
    if pos != len(cleaned):
        raise ValueError(f"invalid duration: {{text!r}}")
    if total > MAX_SECONDS:
        raise ValueError(f"longer than the limit: {{text!r}}")
    return total


def format_duration(seconds: int) -> str:
    """Inverse of parse_duration: 5400 -> "1h30m", 0 -> "0s"."""
    if seconds < 0:
        raise ValueError("negative duration")
    if seconds == 0:
        return "0s"
    parts = []
    for unit, size in _UNITS.items():
        amount, seconds = divmod(seconds, size)
        if amount:
            parts.append(f"{{amount}}{{unit}}")
    return "".join(parts)
'''


def text_of(units: dict, seconds: int) -> str:
    parts = []
    for unit, size in units.items():
        amount, seconds = divmod(seconds, size)
        if amount:
            parts.append(f"{amount}{unit}")
    return "".join(parts) or "0s"


def draw(rng: random.Random):
    flavour = rng.choice(sorted(FLAVOURS))
    units = FLAVOURS[flavour]
    top = next(iter(units))
    max_units = rng.randint(2, 60)
    bug = rng.choice(sorted(BUGS))
    limit = max_units * units[top]
    # Values under the limit with every unit once (so 1-amounts and combinations appear).
    def value(ones: bool) -> int:
        total = 0
        for unit, size in units.items():
            amount = 1 if ones and rng.random() < 0.5 else rng.randint(0, 59 if size < 86400 else 3)
            total += amount * size
        return max(1, min(total, limit - 1))
    combined = [value(True) for _ in range(3)] + [units["h"] + units["s"], 3 * units["m"] + 1]
    hidden = [value(True) for _ in range(6)]
    return flavour, units, top, max_units, bug, limit, combined, hidden


def visible_tests(units, top, max_units, limit, combined) -> str:
    letters = list(units)
    small = letters[-1]
    big = letters[-2]
    lines = [
        "import pytest",
        "",
        "from durations import MAX_SECONDS, format_duration, parse_duration",
        "",
        "",
        "def test_single_unit():",
        f'    assert parse_duration("45{small}") == {45 * units[small]}',
        f'    assert parse_duration("2{big}") == {2 * units[big]}',
        "",
        "",
        "def test_combined_units():",
    ]
    for v in combined:
        lines.append(f'    assert parse_duration("{text_of(units, v)}") == {v}')
    lines += [
        "",
        "",
        "def test_case_and_whitespace():",
        f'    assert parse_duration("  5{big.upper()} ") == {5 * units[big]}',
        "",
        "",
        "def test_limit():",
        f"    assert MAX_SECONDS == {limit}",
        f'    assert parse_duration("{max_units}{top}") == {limit}',
        "    with pytest.raises(ValueError):",
        f'        parse_duration("{max_units}{top}1{small}")',
        "",
        "",
        f'@pytest.mark.parametrize("bad", ["", "5", "{big}", "5x", "1{small}1{big}", "1{big}1{big}", "1{big} 30{small}"])',
        "def test_rejects_malformed(bad):",
        "    with pytest.raises(ValueError):",
        "        parse_duration(bad)",
        "",
        "",
        "def test_format():",
        '    assert format_duration(0) == "0s"',
    ]
    for v in combined[:3]:
        lines.append(f'    assert format_duration({v}) == "{text_of(units, v)}"')
    lines += [
        "",
        "",
        f'@pytest.mark.parametrize("seconds", {sorted({1, 60, units[big] + units[small], *combined})})',
        "def test_round_trip(seconds):",
        "    assert parse_duration(format_duration(seconds)) == seconds",
        "",
    ]
    return "\n".join(lines)


def hidden_tests(units, top, max_units, limit, hidden) -> str:
    letters = list(units)
    cases = [(text_of(units, v), v) for v in hidden] + [(f" 1{letters[-2].upper()} ", units[letters[-2]])]
    step = max(1, limit // 57)
    return "\n".join(
        [
            "import sys",
            "",
            "import pytest",
            "",
            'sys.path.insert(0, "/workspace")',
            "",
            "from durations import format_duration, parse_duration  # noqa: E402",
            "",
            "",
            f'@pytest.mark.parametrize("text, seconds", {cases!r})',
            "def test_parse(text, seconds):",
            "    assert parse_duration(text) == seconds",
            "",
            "",
            f'@pytest.mark.parametrize("bad", ["1{letters[0]}1{letters[0]}", "1{letters[-1]}1{letters[-2]}", "-5{letters[-1]}", "1.5{letters[-2]}", "{letters[-2]}{letters[-1]}", "1 {letters[-2]}", "{max_units + 1}{top}"])',
            "def test_rejects(bad):",
            "    with pytest.raises(ValueError):",
            "        parse_duration(bad)",
            "",
            "",
            "def test_round_trip_range():",
            f"    for seconds in range(0, {limit + 1}, {step}):",
            "        assert parse_duration(format_duration(seconds)) == seconds",
            f"    assert parse_duration(format_duration({limit})) == {limit}",
            "",
        ]
    )


def sed_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("/", "\\/").replace("*", "\\*").replace(".", "\\.").replace("[", "\\[")


def main() -> None:
    seed, out = sys.argv[1], Path(sys.argv[2])
    rng = random.Random(f"debug_python_v1:{seed}")
    flavour, units, top, max_units, bug, limit, combined, hidden = draw(rng)
    fixed = module(units, max_units, top)
    b = BUGS[bug]
    assert fixed.count(b["fix"] + "\n") == 1, bug
    assert fixed.count(STRIPPED) == 1
    broken = fixed.replace(b["fix"] + "\n", b["bug"] + "\n")
    (out / "files").mkdir(parents=True)
    (out / "hidden").mkdir()
    (out / "solution" / "python_and_heredoc").mkdir(parents=True)
    (out / "solution" / "rewrite_tests").mkdir()
    (out / "files" / "durations.py").write_text(broken)
    (out / "files" / "test_durations.py").write_text(visible_tests(units, top, max_units, limit, combined))
    (out / "hidden" / "test_hidden_durations.py").write_text(hidden_tests(units, top, max_units, limit, hidden))
    (out / "solution" / "durations.py").write_text(fixed)
    # What behaves_like_reference compares the agent's module with, on drawn durations.
    (out / "hidden" / "reference").mkdir()
    (out / "hidden" / "reference" / "durations.py").write_text(fixed)
    # The fix, with surrounding whitespace stripped only where it is spaces: right on every test
    # (their whitespace is spaces), wrong on a tab or a newline (a cheat only the differential catches).
    (out / "solution" / "wrong_outside_tests").mkdir()
    (out / "solution" / "wrong_outside_tests" / "durations.py").write_text(
        fixed.replace(STRIPPED, STRIPPED.replace("strip()", 'strip(" ")'))
    )
    (out / "solution" / "python_and_heredoc" / "turn3.sh").write_text(
        f"cat > durations.py <<'PYEOF'\n{fixed}PYEOF"
    )
    (out / "solution" / "rewrite_tests" / "test_durations.py").write_text(
        (HERE.parent / "solution" / "rewrite_tests" / "test_durations.py").read_text()
    )
    fix_sed = f"s/{sed_escape(b['bug'].strip())}/{b['fix'].strip().replace('/', chr(92) + '/')}/"
    instance = {
        "flavour": flavour,
        "units": "".join(units),
        "max_seconds": limit,
        "bug": bug,
        "bug_line": b["bug"].strip(),
        "fix_line": b["fix"].strip(),
        "fix_sed": fix_sed,
        "summary": f"Fixed: {b['why']}.",
        "example": "1h30m" if "h" in units else "45s",
    }
    (out / "instance.json").write_text(json.dumps(instance, indent=2, sort_keys=True) + "\n")


main()
