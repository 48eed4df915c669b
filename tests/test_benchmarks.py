"""Smoke tests of ``benchmarks/bench_season.py``, ``profile_analysis.py`` and
``fidelity.py``: their smallest runs print their figures.

Benchmarks are not tests; this only keeps the scripts working: the season against GNU
Backgammon on two of the committed self-play matches (5 points, gnubg's own), and the
profile of the 13-roll Example A. (The season's Dask part takes as long again; that Dask
gives the local run's rows is tests/test_season.py's.)
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gnubg")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_season.py"
TINY = ("selfplay_0001.mat", "selfplay_0021.mat")  # the two smallest of data/selfplay


def test_bench_season_smallest_run_prints_its_ratios(tmp_path: Path) -> None:
    for name in TINY:
        shutil.copyfile(ROOT / "data" / "selfplay" / name, tmp_path / name)
    out = _run(SCRIPT, "--only", "season", "--folder", str(tmp_path), "--matches", "2",
               "--repeat", "1")  # fmt: skip
    assert re.search(r"season: 2 matches at 0-ply", out), out
    assert re.search(r"^  wall  bgkit .* s  gnubg .* s  ratio \d+\.\d\d", out, re.M), out
    assert re.search(r"^  CPU   bgkit .* ratio \d+\.\d\d", out, re.M), out
    assert re.search(r"per match: bgkit \d\.\d{3} CPU s, gnubg \d\.\d{3} CPU s", out), out
    # the season's way in parts: gnubg analysing each match itself, read back by bgkit
    assert re.search(r"its parts: .*: \d+\.\d CPU s, \d\.\d{3} per match = [\d.-]+x", out), out
    assert re.search(r"equal in 4 of 4 rows\); \d+ of \d+ real-valued columns differ", out), out
    # its parts, and the wall ratio it would make over the cores, with and without the reading
    parts = r"analyse match (\d\.\d{3}), its save match \d\.\d{3}, bgkit reading the SGF"
    found = re.search(parts, out)
    assert found is not None and float(found[1]) > 0, out
    assert re.search(r"would be about [\d.-]+; with nothing read back [\d.-]+$", out, re.M), out


def test_profile_analysis_prints_calls_per_roll_and_the_floor() -> None:
    example = ROOT / "tests" / "data" / "analysis" / "example_a.mat"
    out = _run(SCRIPT.with_name("profile_analysis.py"), str(example), "--repeat", "1")
    assert re.search(r"example_a.mat, 0-ply, 13 rolls", out), out
    assert re.search(r"^    findbestmoves \(luck\) +\d+\.\d\d$", out, re.M), out
    assert re.search(r"^    Python function calls +\d+$", out, re.M), out
    assert re.search(r"floor: gnubg's analyse match \d\.\d{3} CPU s; .* = \d+\.\d\dx", out), out
    replayed = r"every call of the analysis replayed \(\d+\.\d a roll\) \d\.\d{3} s"
    assert re.search(replayed, out), out


def _run(script: Path, *args: str) -> str:
    """What the benchmark script prints (it must succeed, within two minutes)."""
    run = subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True, text=True, timeout=120, cwd=script.parent,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_fidelity_compares_every_roll_with_gnubgs_own(tmp_path: Path) -> None:
    """Example A at 0-ply (13 rolls, 12 with a play): every error and luck is gnubg's
    (test_analysis checks the same); gnubg with two threads is run twice and compared with
    itself; gnubg's one-thread figures are kept, and used by the next run."""
    example = ROOT / "tests" / "data" / "analysis" / "example_a.mat"
    args = (str(example), "--plies", "0", "--threads", "2", "--cache", str(tmp_path))
    out = _run(SCRIPT.with_name("fidelity.py"), *args)
    assert re.search(r"^example_a.mat, 0-ply: .* errors 12/12, luck 13/13 within 1e-05", out,
                     re.M), out  # fmt: skip
    assert re.search(r"^  gnubg with 2 threads, run 2 against run 1: errors 12/12", out, re.M), out
    assert re.search(r"^all 1 records: errors 12/12, luck 13/13", out, re.M), out
    (kept,) = tmp_path.glob("example_a.*.0ply.json")  # (gnubg's one-thread figures)
    made = kept.stat().st_mtime_ns
    again = _run(SCRIPT.with_name("fidelity.py"), str(example), "--plies", "0", "--cache",
                 str(tmp_path))  # fmt: skip
    assert "errors 12/12, luck 13/13" in again, again
    assert kept.stat().st_mtime_ns == made  # (read, not made again)
