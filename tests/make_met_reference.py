"""Make the reference of GNU Backgammon's match equity tables extended past their length
(run once; the output is committed as ``tests/data/met/gnubg_extended.json``).

Debian's GNU Backgammon (1.07), in its own process, loads a table bgkit ships
(``set matchequitytable``) and prints it with ``show matchequitytable N``: a table of 25
points (Kazaross-XG2, gnubg's default) at 26, 40 and 64 points, one of 15 (woolsey) at 26,
so the reference holds gnubg's extension of both tables (its ``ExtendMET`` and its
post-Crawford extension), as percentages with the four decimals gnubg prints.

Usage: python tests/make_met_reference.py [OUT.json]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "met" / "gnubg_extended.json"
SHOWN = {"Kazaross-XG2": (26, 40, 64), "woolsey": (26,)}
_ROW = re.compile(r"^ +(\d+)-away((?: +\d+\.\d+)+) *$")
_TITLES = (
    "Pre-Crawford table:",
    "Post-Crawford table for player 0",
    "Post-Crawford table for player 1",
)


def parse_shown(text: str) -> dict[str, list[str]]:
    """The tables ``show matchequitytable`` printed in ``text``: ``pre`` (a row per
    away, each the figures as printed, separated by one space), ``post0`` and ``post1``
    (one row each)."""
    parts: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        title = next((t for t in _TITLES if line.startswith(t)), None)
        if title is not None:
            current = parts.setdefault(("pre", "post0", "post1")[_TITLES.index(title)], [])
            continue
        row = _ROW.match(line)
        if row is not None and current is not None:
            assert int(row.group(1)) == len(current) + 1, line
            current.append(" ".join(row.group(2).split()))
    assert set(parts) == {"pre", "post0", "post1"}, text[-2000:]
    return parts


def show(table: Path, length: int) -> dict[str, list[str]]:
    """Debian gnubg's printed ``table`` at ``length`` points, parsed."""
    from debian_gnubg import run_commands

    run = run_commands(
        [
            "set display off",
            "set sound enable off",
            f'set matchequitytable "{table}"',
            f"show matchequitytable {length}",
        ],
        timeout=120,
    )
    shown = parse_shown(run.stdout)
    assert len(shown["pre"]) == length and len(shown["post0"]) == 1, run.stdout[-2000:]
    return shown


def reference(program: str) -> dict[str, Any]:
    """What Debian's gnubg (``program``) prints of each table of :data:`SHOWN`, with its
    version."""
    sys.path.insert(0, str(ROOT / "tests"))
    from bgkit.analysis.met import met_path

    version = subprocess.run(
        [program, "--version"], capture_output=True, text=True, check=True, timeout=60
    ).stdout.splitlines()[0]
    tables = {
        name: {str(n): show(met_path(name), n) for n in lengths} for name, lengths in SHOWN.items()
    }
    return {"gnubg": version, "unit": "percent", "tables": tables}


def main() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from debian_gnubg import debian_gnubg

    program = debian_gnubg()
    if program is None:
        sys.exit("Debian's gnubg is not installed")
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(reference(program), indent=1) + "\n")
    print(out, out.stat().st_size)


if __name__ == "__main__":
    main()
