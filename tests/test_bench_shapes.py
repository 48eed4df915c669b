"""Smoke test of ``benchmarks/bench_shapes.py``: its smallest run builds the shapes it
names and prints their costs with verify's verdicts.

Benchmarks are not tests; this keeps the script working, and checks that its shapes are
what they say: the game that never ends verifies clean (every play legal), the record of
faults gives errors (exit 1).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_shapes.py"


def test_bench_shapes_smallest_run_prints_its_table(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--size", "48K", "--formats", "mat,sgf",
         "--shapes", "long-game,faults", "--folder", str(tmp_path), "--seconds", "60"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    rows = {}
    for line in run.stdout.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 13 and cells[0] in ("mat", "sgf"):
            rows[cells[0], cells[1]] = cells
    wanted = {(f, s) for f in ("mat", "sgf") for s in ("long-game", "faults")}
    assert set(rows) == wanted, run.stdout
    for fmt in ("mat", "sgf"):
        _fmt, _shape, size, games, actions, code, *cost, first, summary = rows[fmt, "long-game"]
        assert 40_000 < int(size.replace(",", "")) <= 48 * 1024
        assert (games, code, first) == ("1", "0", ""), rows[fmt, "long-game"]
        assert int(actions.replace(",", "")) > 1000
        assert re.search(r"1 clean, 0 with errors, 0 unreadable; 0 error\(s\)", summary)
        assert all(re.fullmatch(r"[0-9.]+", c) for c in cost), cost
        faults = rows[fmt, "faults"]
        assert faults[5] == "1" and ": error: " in faults[11], faults
