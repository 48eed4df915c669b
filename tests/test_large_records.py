"""Issue 29, item 6: memory and time grow linearly with a record's size, with a constant
the README's limits table states, and the size limit costs nothing until it is used.

A 30 MB SGF hit a 4 GB cap (Lark's parse tree of the whole file); ``--max-size 5G``
failed on any file under a 4 GB cap (the read buffer was set aside first). The records
here are valid sessions of the sample's games repeated, made in ``tmp_path``; the slope
between two sizes is what a record at the size limit costs per byte (the full-size
measurement, ``benchmarks/bench_large.py``, is in the README).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from bounded import BGKIT, GIB, run

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_large import records  # noqa: E402  (the records bench_large.py measures)


def test_the_size_limit_sets_nothing_aside(tmp_path: Path) -> None:
    ran = run([*BGKIT, "verify", "-q", "--max-size", "5G", str(SAMPLE)], memory=2 * GIB)
    assert ran.code == 0, ran.stderr
    ran = run(
        [*BGKIT, "convert", "--max-size", "5G", "--from", "mat", "-", str(tmp_path / "o.json")],
        memory=2 * GIB,
        stdin=SAMPLE.read_bytes(),
    )
    assert ran.code == 0, ran.stderr


@pytest.mark.parametrize(
    ("fmt", "per_byte"), [("sgf", 20), ("mat", 16), ("gmd", 12), ("javafibs", 12)]
)
def test_memory_and_time_are_linear_in_the_size(tmp_path: Path, fmt: str, per_byte: int) -> None:
    """Two sizes, 4x apart: the memory one more byte costs stays under ``per_byte``
    bytes (measured 13 for SGF, 11 for .mat: a 64 MiB record under 1 GB; the whole
    process at 16 MiB, bench_large.py: 15.7 and 9.2 bytes a byte; GMD and JavaFIBS
    from 16 to 64 MiB: 7.0 and 5.6), and the time per byte under 20 µs (measured 3-4 µs
    on a loaded 2-core machine)."""
    measured = []
    for games in (150, 600):
        path = tmp_path / f"s{games}.{fmt}"
        path.write_bytes(records(games, fmt))
        ran = run([*BGKIT, "verify", "-q", "-j", "1", str(path)], seconds=120, memory=2 * GIB)
        assert ran.code == 0, ran.stderr
        assert ran.lines[-1].startswith(f"1 file(s), {games} game(s)")
        measured.append((path.stat().st_size, ran.max_rss, ran.seconds))
    (size1, rss1, _), (size2, rss2, t2) = measured
    slope = (rss2 - rss1) / (size2 - size1)
    assert slope < per_byte, measured
    assert t2 < 5 + size2 * 20e-6, measured


def test_an_sgf_record_is_verified_a_game_at_a_time(tmp_path: Path) -> None:
    """``bgkit verify`` reads an SGF record's games as it verifies them and lets each go
    after: from 150 to 1,200 games the peak memory grows by the text alone (and, while
    it is decoded, the file's bytes: 2 bytes a byte), not by the moves (13 bytes a byte
    when the record was held whole: 860 MB for 64 MiB)."""
    measured = []
    for games in (150, 1200):
        path = tmp_path / f"s{games}.sgf"
        path.write_bytes(records(games, "sgf"))
        ran = run([*BGKIT, "verify", "-q", "-j", "1", str(path)], seconds=120, memory=2 * GIB)
        assert ran.code == 0, ran.stderr
        assert ran.lines[-1].startswith(f"1 file(s), {games} game(s)")
        measured.append((path.stat().st_size, ran.max_rss))
    (size1, rss1), (size2, rss2) = measured
    assert (rss2 - rss1) / (size2 - size1) < 3.5, measured
