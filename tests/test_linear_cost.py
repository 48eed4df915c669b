"""Issue 29, item 6: a reader's work, and the verifier's, is linear in the record's size.

Counted, not timed: the Python function calls made to read (and then to verify) a money
session of the sample's games, at one size and at four times it, on a 4x record must grow
at most 4.5x (a quadratic step would grow 16x; caches that fill on the first record make
the second cheaper, never dearer). ``benchmarks/bench_large.py`` measures the time and
memory of a maximal record for the README.

Also: the fast paths for the bulk of a record (the rows of plays of a ``.mat``, the
one-property nodes and letter pairs of an SGF) read every record under ``data/`` as the
general code does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bgkit
import bgkit.formats.mat as mat
import bgkit.formats.sgf as sgf
from bgkit.errors import BgkitError
from bgkit.formats import decode_bytes
from bgkit.records import Match
from bgkit.verify import verify

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_large import records, session

DATA = Path(__file__).resolve().parent.parent / "data"


def calls(work: Callable[[], Any]) -> int:
    """The Python function calls ``work`` makes (a count that does not depend on the load
    of the machine)."""
    count = 0

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("fmt", ["mat", "sgf", "json", "ogxm", "gmd", "javafibs"])
def test_reading_and_verifying_are_linear(fmt: str) -> None:
    counted = []
    for games in (10, 40):
        data = records(games, fmt)
        match = bgkit.read_match(text=data, format=fmt)
        assert len(match.games) == games
        reading = calls(lambda: bgkit.read_match(text=data, format=fmt))  # noqa: B023
        checking = calls(lambda: verify(match))  # noqa: B023
        counted.append((len(data), reading, checking))
    (size1, read1, check1), (size2, read2, check2) = counted
    assert 3.9 < size2 / size1 < 4.2, counted  # (a real record's header is written once)
    assert read1 > 1000 and read2 <= 4.5 * read1, counted
    assert check1 > 1000 and check2 <= 4.5 * check1, counted


GNUBG_TEXT = next((DATA / "real" / "gnubg_txt").glob("*Bulgakov*_009.txt"))  # (one game)


def test_reading_and_verifying_gnubg_text_are_linear() -> None:
    """gnubg's text export (read by its fast path, and a block at a time): one real
    analysed game, 10 and 40 times over (each a game of its own, after the match was
    won: an error each, linear too)."""
    from bgkit.formats.gnubg_text import parse_gnubg_match

    game = GNUBG_TEXT.read_text("utf-8")
    counted = []
    for times in (10, 40):
        text = game * times
        match = parse_gnubg_match(text, source_name="x.txt")
        assert len(match.games) == times and not match.read_errors
        reading = calls(lambda: parse_gnubg_match(text, source_name="x.txt"))  # noqa: B023
        checking = calls(lambda: verify(match))  # noqa: B023
        counted.append((len(text), reading, checking))
    (size1, read1, check1), (size2, read2, check2) = counted
    assert size2 == 4 * size1, counted
    assert read1 > 1000 and read2 <= 4.5 * read1, counted
    assert check1 > 1000 and check2 <= 4.5 * check1, counted


def test_verify_copies_no_match_per_game() -> None:
    """A count of calls misses work done in C: the verifier rebuilt the match (a tuple of
    every game) for each game whose score it counted otherwise, 9.8 µs an action at 21,814
    games against 6.9 at 4,000. No ``Match`` is made while verifying now."""
    match = session(40)  # (every game headed 0-0: the scores counted differ)
    made = 0

    def profile(frame: Any, event: str, _arg: Any) -> None:
        nonlocal made
        if event == "call" and frame.f_code.co_name == "__init__":
            made += isinstance(frame.f_locals.get("self"), Match)

    sys.setprofile(profile)
    try:
        report = verify(match)
    finally:
        sys.setprofile(None)
    assert report.games == 40 and made == 0


def _outcome(read: Callable[[], Any]) -> Any:
    """What a reader makes of a record: every action with its place, or the error."""
    try:
        match = read()
    except BgkitError as err:
        return ("error", str(err))
    return (
        match,
        match.read_errors,
        [
            [(a, a.line, a.column, a.number, a.annotations) for a in game.actions]
            for game in match.games
        ],
    )


SGF_FILES = sorted(p for p in DATA.rglob("*.sgf") if p.is_file())
MAT_FILES = sorted(p for p in DATA.rglob("*.mat") if p.is_file())


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_sgf_fast_paths_read_alike(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = decode_bytes(path.read_bytes())
    fast = _outcome(lambda: sgf.parse_sgf(text, source_name="x.sgf"))
    with monkeypatch.context() as patch:
        patch.setattr(sgf, "_SIMPLE_NODE", _NEVER)
        patch.setattr(sgf, "_letter_steps", lambda letters, player: None)
        slow = _outcome(lambda: sgf.parse_sgf(text, source_name="x.sgf"))
    assert fast == slow


@pytest.mark.parametrize("path", MAT_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_mat_rows_read_alike_piece_by_piece(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows of plays split line by line read as the terminal-by-terminal split does
    (tests/test_mat_rows.py compares both with the grammar's cell-by-cell rules)."""
    text = decode_bytes(path.read_bytes())
    fast = _outcome(lambda: mat.parse_mat(text, source_name="x.mat"))
    with monkeypatch.context() as patch:
        patch.setattr(mat, "_ROW_CELLS", _NEVER)
        slow = _outcome(lambda: mat.parse_mat(text, source_name="x.mat"))
    assert fast == slow


class _Never:
    """A pattern that matches nothing: the fast path is never taken."""

    def match(self, *_args: Any) -> None:
        return None


_NEVER = _Never()


def test_the_fast_paths_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparisons above mean nothing if the fast paths are never taken."""
    record = DATA / "selfplay" / "selfplay_0003"
    monkeypatch.setattr(
        mat._MatBuilder,
        "_plays_by_pieces",
        lambda self, rows: pytest.fail("a row read piece by piece"),
    )
    match = mat.read_mat(record.with_suffix(".mat"))
    assert len(match.games) > 1
    hits = sgf._letter_steps.cache_info().hits
    sgf.read_sgf(record.with_suffix(".sgf"))
    assert sgf._letter_steps.cache_info().hits > hits


def test_the_collector_is_paused_while_reading_and_comes_back() -> None:
    """Readers and the verifier run without the cyclic collector (its passes over millions
    of objects were a third of reading a big .mat); it is on again after, also after an
    error, and stays off when the caller had turned it off."""
    import gc

    from bgkit import _gc

    seen = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mat, "parse_mat", lambda text, **kw: seen.append(gc.isenabled()))
        bgkit.read_match(text=" 0 point match\n", format="mat")
    assert seen == [False] and gc.isenabled()
    with pytest.raises(BgkitError):
        bgkit.read_match(text=" 0 pt match\n", format="mat")
    assert gc.isenabled()
    with _gc.paused():
        with _gc.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with _gc.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_files_analysis_is_summed_up_without_the_collector() -> None:
    """``analysis_from_file`` (and a season worker's reading of gnubg's SGF with it) make
    a match's rows and notes with the collector paused: of its passes (30 over gnubg's
    SGF of a 5-point match of two games before; about a tenth of the time) only those
    when it comes back at the end are left, next to no cyclic garbage after, and the
    collector on again."""
    import gc

    from bgkit.analysis.match import analysis_from_file

    match = sgf.read_sgf(DATA / "selfplay" / "selfplay_0003.sgf")
    passes = []

    def counted(phase: str, info: dict[str, int]) -> None:
        passes.append(phase)

    gc.collect()
    gc.callbacks.append(counted)
    try:
        result = analysis_from_file(match)
    finally:
        gc.callbacks.remove(counted)
    assert len(result.rows) > 100 and passes.count("start") <= 2 and gc.isenabled()
    del result
    assert gc.collect() < 100
