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


GNUBG_TEXT = (
    ROOT / "data" / "real" / "gnubg_txt"
    / "lassehjorthmadsen__bglab__4ply__Magic_-_Lasse_5pt_Backgammon_Studio_2024_04_22_19_06_30.txt"
)  # fmt: skip


def test_a_gnubg_text_export_costs_memory_and_time_linear_in_its_size(tmp_path: Path) -> None:
    """gnubg's text export, a real analysed game over and over (each game after the match
    was won: an error each): from 1 MB to 4 MB the memory one more byte costs stays under
    6 bytes (measured 3.6-4.4: the text, its bytes while decoded, and the match; each
    block is grouped as it is read; Lark's tree of the whole export made it 35) and the
    time per byte under 20 µs (measured 0.2 µs CPU; 16.0 MB in 2.7 s CPU and 102 MiB,
    67 MB in 11.2 s and 343 MiB)."""
    game = GNUBG_TEXT.read_bytes()
    measured = []
    for times in (11, 44):
        path = tmp_path / f"g{times}.txt"
        path.write_bytes(game * times)
        args = [*BGKIT, "verify", "-q", "-j", "1", "--from", "gnubg-text", str(path)]
        ran = run(args, seconds=120, memory=2 * GIB)
        assert ran.code == 1, ran.stderr  # (the games after the first: after the match)
        assert ran.lines[-1].startswith(f"1 file(s), {times} game(s), {53 * times - 1} action(s)")
        measured.append((path.stat().st_size, ran.max_rss, ran.seconds))
    (size1, rss1, _), (size2, rss2, t2) = measured
    assert (rss2 - rss1) / (size2 - size1) < 6, measured
    assert t2 < 5 + size2 * 20e-6, measured


def _padded_export(path: Path, size: int, *, candidates: bool) -> str:
    """A real one-position export made ``size`` characters long: its first candidate
    (a line and its two or three lines of chances) over and over, or blank lines."""
    text = path.read_text("utf-8")
    if not candidates:
        return text + "\n" * (size - len(text))
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("1. "))
    second = next(i for i, line in enumerate(lines) if line.lstrip().startswith("2. "))
    block = "\n".join(lines[first:second]) + "\n"
    times = (size - len(text)) // len(block)
    return "\n".join(lines[:first]) + "\n" + block * times + "\n".join(lines[second:])


@pytest.mark.parametrize("kind", ["xg_txt", "bgblitz_txt"])
def test_a_position_export_costs_what_one_position_can(tmp_path: Path, kind: str) -> None:
    """XG's and BGBlitz's text exports hold one position (1-2 KB): ``bgkit show`` reads
    one of up to a million characters (a candidate repeated: 2.1 s CPU, 98 MiB; blank
    lines: 0.3 s, 41 MiB) and refuses a longer one with one line, before reading it
    (16 MB took 38 s and 1 GB, or 10 s and 4.2 GB of blank lines)."""
    real = ROOT / "data" / "real" / kind
    source = sorted(p for p in real.iterdir() if "checker" in p.name.lower())[0]
    what = "XG" if kind == "xg_txt" else "BGBlitz"
    for size, candidates in ((1 << 20, True), (1 << 20, False), (16 << 20, True)):
        path = tmp_path / f"export_{size}_{candidates}.txt"
        text = _padded_export(source, size, candidates=candidates)
        path.write_text(text, "utf-8")
        ran = run([*BGKIT, "show", str(path)], seconds=60, memory=GIB)
        if len(text) <= 1 << 20:
            assert ran.code == 0, ran.stderr
            assert ran.max_rss < 300 << 20 and ran.seconds < 30, (size, candidates, ran)
        else:
            assert ran.code == 2 and len(ran.lines) == 1, ran.stderr
            assert ran.lines[0] == (
                f"bgkit: {path}:1:1: {what} position export of {len(text):,} characters:"
                " more than one position's export holds (at most 1,048,576)"
            )
            assert ran.seconds < 10, ran


def test_a_gnubg_text_export_with_a_thousand_faults_costs_no_copy_each(tmp_path: Path) -> None:
    """60 MB of a real game over and over with a damaged analysis line in every board's
    block: the first thousand are read past (notes), then the rest of the file is left
    unread (one error). Each fault blanked its lines in a copy of the whole text, and
    each error copied the text to look past it: 63 s CPU for 67 MB (15 s for 16 MB);
    now 2.1 s and 244 MiB."""
    import re

    game = GNUBG_TEXT.read_text("utf-8")
    text = re.sub(r"(Rolled [0-9][0-9]:\n[^\n]*)Eq\.:", r"\1Eq:", game * (60_000_000 // len(game)))
    path = tmp_path / "faults.txt"
    path.write_text(text, "utf-8")
    args = [*BGKIT, "verify", "-q", "-j", "1", "--max-size", "64M", "--from", "gnubg-text"]
    ran = run([*args, str(path)], seconds=60, memory=2 * GIB)
    assert ran.code == 1, ran.stderr
    assert ran.lines[-1].endswith("; 1 error(s), 1001 note(s)"), ran.lines[-1]
    assert "more than 1000 lines could not be read" in ran.stderr
    assert ran.seconds < 20 and ran.max_rss < 600 << 20, ran


def test_a_commands_peak_memory_is_its_own_not_the_test_process() -> None:
    """Linux counts in a forked process's peak memory the resident memory of its parent
    at the fork: measured from pytest's process (hundreds of MB late in a run), the two
    sizes of the tests above measured alike and their slopes said nothing. ``run``
    starts the command from a small process of its own."""
    held = bytearray(400 << 20)
    held[:: 1 << 12] = b"\1" * len(range(0, len(held), 1 << 12))  # (resident, not reserved)
    ran = run([sys.executable, "-c", "pass"], seconds=30)
    assert ran.code == 0 and ran.max_rss < 100 << 20, ran
    del held
