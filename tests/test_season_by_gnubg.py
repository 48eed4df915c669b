"""A season's worker has gnubg analyse each match it can itself (issue 31).

:func:`bgkit.analysis.gnubg_match.gnubg_analysis` runs gnubg's ``analyse match`` in the
worker's process and reads the figures back from the SGF gnubg saves. The oracle is gnubg
analysing the record alone in a process of its own (``tests/gnubg_reference.py``; its
JSON in ``tests/data/analysis``, the per-player sums of gnubg's own game statistics):
the season's rows must give its figures, at 0-ply and at 2-ply. Where gnubg's analysis
cannot stand for bgkit's (a money session, another match equity table, a roll not
recorded, a match gnubg reads back otherwise), the worker runs bgkit's own analysis.

Each check runs in a spawned process, as a season's worker is one: gnubg's commands start
its threads in the process that runs them.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gnubg")

ROOT = Path(__file__).resolve().parent.parent
SELFPLAY = ROOT / "data" / "selfplay"
REFERENCES = Path(__file__).parent / "data" / "analysis"
MONEY = ROOT / "data" / "real" / "mat" / "halheinrich__BgMatchFormat_Lib__money_session.mat"
UNRECORDED = ROOT / "data" / "real" / "mat" / "kevung__gbf__test.txt"
# BackgammonGalaxy: its last game says "Wins 1 point and the match" (the points needed),
# where gnubg's import scores the game's value, 2 (verify's "capped-match-win")
CAPPED_WIN = ROOT / "data" / "real" / "mat" / "lassehjorthmadsen__bglab__match10329741.txt"
# BackgammonGalaxy: its second player has no name
NAMELESS = ROOT / "data" / "real" / "mat" / "lassehjorthmadsen__bglab__match3755271.txt"


def _in_a_worker(fn: Callable[..., Any], *args: Any) -> Any:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(fn, *args).result()


def _rows_and_whose(paths: list[Path], plies: int) -> tuple[list[Any], bool]:
    """The season's rows of the last of ``paths``, analysed in turn, and whether gnubg's
    own analysis gave them."""
    from bgkit import batch
    from bgkit.analysis import gnubg_match

    taken = []
    analyse = gnubg_match.gnubg_analysis

    def spy(*args: Any, **kwargs: Any) -> Any:
        taken.append(analyse(*args, **kwargs))
        return taken[-1]

    gnubg_match.gnubg_analysis = spy
    rows = [batch.analyze_rows(path, plies=plies) for path in paths]
    return rows[-1], taken[-1] is not None


@pytest.mark.parametrize("plies", [0, 2])
def test_a_seasons_rows_are_gnubgs_own_analysis(plies: int) -> None:
    """The match after another in the worker: gnubg's figures for it alone."""
    name = "selfplay_0005"
    reference = json.loads((REFERENCES / f"{name}.{plies}ply.json").read_text())
    paths = [SELFPLAY / "selfplay_0002.mat", SELFPLAY / f"{name}.mat"]
    rows, gnubgs = _in_a_worker(_rows_and_whose, paths, plies)
    assert gnubgs
    _assert_gnubgs(rows, reference)


def test_a_match_won_by_the_points_needed_is_gnubgs_own_analysis() -> None:
    """A record that writes the game winning the match for the points the winner needed
    (a writer's convention) is gnubg's own analysis, though gnubg scores that game at its
    value: the figures do not depend on it. It fell back to bgkit's own searches before
    (5 of the 79 real records gnubg may analyse did so)."""
    reference = json.loads((REFERENCES / "bglab_match10329741.0ply.json").read_text())
    rows, gnubgs = _in_a_worker(_rows_and_whose, [CAPPED_WIN], 0)
    assert gnubgs
    _assert_gnubgs(rows, reference)


def test_only_the_points_past_the_match_may_differ() -> None:
    """gnubg's record of a match is bgkit's when the game that wins it scores the points
    needed in one and more in the other; not when a game's winner differs, nor when an
    earlier game's points do."""
    from dataclasses import replace

    from bgkit.analysis.gnubg_match import _games
    from bgkit.formats import read_match
    from bgkit.records import Result

    match = read_match(CAPPED_WIN)
    *before, last = match.games
    assert last.result is not None and last.result.points == 1

    def with_results(*results: tuple[int, Result]) -> Any:
        games = list(match.games)
        for index, result in results:
            games[index] = replace(games[index], result=result)
        return replace(match, games=tuple(games))

    winner = last.result.winner
    assert _games(with_results((-1, replace(last.result, points=2)))) == _games(match)
    assert _games(with_results((-1, replace(last.result, winner=1 - winner)))) != _games(match)
    first = before[0].result
    assert first is not None
    assert _games(with_results((0, replace(first, points=first.points + 1)))) != _games(match)


def test_a_player_without_a_name_is_gnubgs_own_analysis() -> None:
    """A record with a player whose name is empty (BackgammonGalaxy), which gnubg's import
    reads as ": 0", is gnubg's own analysis, with the record's names. It fell back to
    bgkit's own searches before."""
    reference = json.loads((REFERENCES / "bglab_match3755271.0ply.json").read_text())
    assert reference["names"] == ["lasse", ": 0"]
    rows, gnubgs = _in_a_worker(_rows_and_whose, [NAMELESS], 0)
    assert gnubgs
    _assert_gnubgs(rows, reference, names=("lasse", ""))


def _assert_gnubgs(
    rows: list[Any], reference: dict[str, Any], names: tuple[str, str] | None = None
) -> None:
    """The season's rows of a match are gnubg's figures (``reference``: its JSON by
    ``tests/gnubg_reference.py``), player by player; ``names``: the players' names in
    the rows (default: gnubg's)."""
    theirs = reference["players"]
    assert sorted(row["player"] for row in rows) == [0, 1]
    for row in rows:
        gnubg = theirs[row["player"]]
        assert row["name"] == (gnubg["name"] if names is None else names[row["player"]])
        # gnubg's own sums, written with six decimals
        assert row["luck_emg"] == pytest.approx(gnubg["luck_emg"], abs=1e-6)
        assert row["luck_mwc"] == pytest.approx(gnubg["luck_mwc"], abs=1e-6)
        assert row["checker_error_emg"] == pytest.approx(gnubg["chequer_err_emg"], abs=2e-5)
        assert row["unforced_moves"] == gnubg["unforced"]
        assert row["total_moves"] == gnubg["moves"]
        marks = {  # bgkit's column: gnubg's
            "doubtful": "skill_doubtful",
            "bad": "skill_bad",
            "very_bad": "skill_verybad",
            "lucky": "luck_lucky",
            "unlucky": "luck_unlucky",
            "very_lucky": "luck_verylucky",
            "very_unlucky": "luck_veryunlucky",
        }
        assert {m: row[m] for m in marks} == {m: gnubg[n] for m, n in marks.items()}


def _falls_back(path: Path, plies: int, met: str | None) -> tuple[bool, int]:
    from bgkit import batch
    from bgkit.analysis.gnubg_match import gnubg_analysis
    from bgkit.formats import read_match

    found = gnubg_analysis(read_match(path), plies, met) is None
    return found, len(batch.analyze_rows(path, plies=plies, met=met))


@pytest.mark.parametrize(
    ("path", "met"),
    [
        (MONEY, None),
        (SELFPLAY / "selfplay_0001.mat", "woolsey"),
        (UNRECORDED, None),
    ],
    ids=["money session", "another table", "a roll not recorded"],
)
def test_what_gnubgs_analysis_cannot_stand_for_is_bgkits(path: Path, met: str | None) -> None:
    assert _in_a_worker(_falls_back, path, 0, met) == (True, 2)


def _read_back_otherwise(path: Path) -> tuple[bool, bool]:
    """gnubg given one game less than the record has: its analysis is not taken."""
    from dataclasses import replace

    from bgkit.analysis.gnubg_match import gnubg_analysis
    from bgkit.formats import read_match
    from bgkit.formats.mat import dumps_mat
    from bgkit.records import Match

    match = read_match(path)
    whole = gnubg_analysis(match, 0) is not None
    Match.to_mat = lambda self: dumps_mat(replace(self, games=self.games[:-1]))  # type: ignore[method-assign]
    return whole, gnubg_analysis(match, 0) is None


def test_a_match_gnubg_reads_otherwise_is_left_to_bgkit() -> None:
    assert _in_a_worker(_read_back_otherwise, SELFPLAY / "selfplay_0005.mat") == (True, True)


def test_only_gnubgs_rules_and_starting_positions_go_to_gnubg() -> None:
    from dataclasses import replace

    from bgkit.analysis.gnubg_match import gnubg_may_analyse
    from bgkit.formats import read_match

    match = read_match(SELFPLAY / "selfplay_0001.mat")
    assert gnubg_may_analyse(match)
    for tag in (("Crawford", "Off"), ("CubeLimit", "8")):
        assert not gnubg_may_analyse(replace(match, tags=(*match.tags, tag))), tag
    first = replace(match.games[0], setup="-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10")
    assert not gnubg_may_analyse(replace(match, games=(first, *match.games[1:])))
    assert not gnubg_may_analyse(replace(match, length=65))


def _cube_record(top: int, folder: Path) -> tuple[bool, list[dict[str, Any]]]:
    """Whether gnubg's analysis stands for bgkit's on a 25-point game whose cube is
    doubled and taken up to ``top`` (a legal play each turn), and the season's rows."""
    import random

    from bgkit import batch
    from bgkit.analysis.gnubg_match import gnubg_analysis
    from bgkit.position import Position
    from bgkit.records import Double, Game, Match, Move, Take

    rng, pos, actions = random.Random(3), Position.initial(match_length=25), []
    while len(actions) < 40:
        if len(actions) > 1 and pos.cube < top and pos.cube_owner in (None, pos.turn):
            actions += [Double(pos.turn, pos.cube * 2), Take(pos.opponent)]
            pos = pos.double().take()
        dice = (3, 1) if not actions else (rng.randint(1, 6), rng.randint(1, 6))
        rolled = pos.roll(*dice)
        play = rolled.legal_plays()[0]
        actions.append(Move(pos.turn, dice, play))
        pos = rolled.apply(play)
    match = Match(("Alice", "Bob"), 25, (Game(1, (0, 0), tuple(actions), None),))
    assert max(a.value for a in actions if isinstance(a, Double)) == top
    path = folder / f"cube_{top}.mat"
    path.write_text(match.to_mat(), encoding="utf-8")
    return gnubg_analysis(match, 0) is not None, batch.analyze_rows(path, plies=0)


def test_a_cube_past_gnubgs_tables_never_reaches_it(tmp_path: Path) -> None:
    """gnubg's tables of a match stop at a cube of 64, and its analysis of a match that
    plays on at 128 read past them (a PR of 1e30 in a season's table): such a match goes
    to bgkit's analysis, which refuses it and says why."""
    stands, rows = _in_a_worker(_cube_record, 64, tmp_path)
    assert stands
    assert [(row["name"], "kind" in row) for row in rows] == [("Alice", False), ("Bob", False)]
    assert all(0 <= row["pr"] < 1000 for row in rows)
    stands, rows = _in_a_worker(_cube_record, 128, tmp_path)
    assert not stands
    # (placed at the first roll played at 128: line 16, column 6, Alice's)
    path = tmp_path / "cube_128.mat"
    why = (
        f"{path}:16:6: cannot analyse: a cube of 128 in a match: gnubg's match play stops"
        " at a cube of 64 (game 1, move 5, Alice)"
    )
    assert [(row["kind"], row["message"]) for row in rows] == [("unanalysable", why)]
    assert path.read_text().splitlines()[15][5:].startswith("52: 25/20 20/18")
    ran = subprocess.run(
        [sys.executable, "-m", "bgkit", "analyze", str(path), "--plies", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (ran.returncode, ran.stderr.splitlines(), ran.stdout) == (2, [f"bgkit: {why}"], "")


def test_a_season_killed_midway_leaves_no_file_behind(tmp_path: Path) -> None:
    """gnubg's ``.mat`` and SGF of each match are files in memory: a season killed in the
    middle of a match (its workers with it) leaves nothing in the temporary folder (a
    folder of its own per match was left there before)."""
    temporary, folder = tmp_path / "tmp", tmp_path / "season"
    temporary.mkdir()
    folder.mkdir()
    for path in SELFPLAY.glob("*.mat"):  # (30 matches: 6 s on 2 cores)
        (folder / path.name).write_bytes(path.read_bytes())
    season = subprocess.Popen(
        [sys.executable, "-m", "bgkit", "analyze", str(folder), "--plies", "0", "--no-progress"],
        env={**os.environ, "TMPDIR": str(temporary)}, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        time.sleep(1.5)  # (the workers are analysing their first matches)
        assert season.poll() is None
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(season.pid, signal.SIGKILL)
        season.wait()
    assert [p.name for p in temporary.iterdir()] == []
