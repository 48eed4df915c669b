"""A program's analysis in the actions' annotations (bgkit.formats.sgf_analysis), issue 16.

XG's analysis read from every real ``.xg`` file reaches ``read_match``, survives SGF and
JSON exactly, is reported as dropped by a conversion to ``.mat``, and shows in GNU
Backgammon (Debian's gnubg, the judge CI installs) when it loads bgkit's SGF. gnubg's own
SGF analysis reads into the same model.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from debian_gnubg import debian_gnubg, run_script

from bgkit import read_match, write_match
from bgkit.errors import BgkitError
from bgkit.formats.annotations import (
    ActionAnalysis,
    CandidatePlay,
    CheckerAnalysis,
    CubeAnalysis,
    Probabilities,
)
from bgkit.formats.sgf_analysis import PROPERTY, CubeContext, analysis_of, annotate
from bgkit.formats.xg import read_xg_record
from bgkit.play import Play
from bgkit.records import Double, Match, Move, Take
from bgkit.replay import ReplayStep, replay

DATA = Path(__file__).resolve().parent.parent / "data"
XG_FILES = sorted((DATA / "real" / "xg").glob("*.xg"))
GNUBG_SGF = DATA / "real" / "sgf" / "kevung__gbf__test.sgf"  # gnubg 1.08's own analysis


def notes_of(match_path: Path) -> list[ActionAnalysis | None]:
    match = read_match(match_path)
    return [analysis_of(a) for g in match.games for a in g.actions]


@pytest.mark.parametrize("path", XG_FILES, ids=lambda p: p.name)
def test_read_match_gives_xgs_analysis_on_every_analysed_action(path: Path) -> None:
    record = read_xg_record(path)
    match = read_match(path)
    analysed = 0
    for game, notes in zip(match.games, record.analysis, strict=True):
        for action, note in zip(game.actions, notes, strict=True):
            assert analysis_of(action) == note, (game.number, action)
            analysed += note is not None
    assert analysed > 150


@pytest.mark.parametrize("path", XG_FILES, ids=lambda p: p.name)
def test_every_analysed_play_is_found_among_the_candidates(path: Path) -> None:
    """XG lists the play made (by its result: ``7/2`` is ``7/3 3/2`` or ``7/5 5/2``)."""
    match = read_match(path)
    checked = 0
    for step in replay(match):
        note = analysis_of(step.action)
        if not isinstance(step.action, Move) or note is None or note.checker is None:
            continue
        if not note.checker.candidates:  # a roll that cannot be played
            assert not step.action.play
            continue
        assert note.checker.played is not None, step.action
        made = note.checker.candidates[note.checker.played].play
        assert step.before.with_dice(*step.action.dice).apply(made) == step.after
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("fmt", ["sgf", "json"])
@pytest.mark.parametrize("path", XG_FILES, ids=lambda p: p.name)
def test_sgf_and_json_keep_the_analysis_exactly(path: Path, fmt: str, tmp_path: Path) -> None:
    match = read_match(path)
    out = tmp_path / f"converted.{fmt}"
    write_match(match, out)
    back = read_match(out)
    mine = [a.annotations for g in match.games for a in g.actions]
    assert [a.annotations for g in back.games for a in g.actions] == mine
    assert notes_of(out) == notes_of(path)


def test_converting_to_mat_says_the_analysis_is_dropped(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bgkit", "convert", str(XG_FILES[0]), str(tmp_path / "x.mat")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    analysed = sum(
        1
        for note in notes_of(XG_FILES[0])
        if note is not None and (note.checker is not None or note.cube is not None)
    )
    assert (
        f"note: {tmp_path / 'x.mat'}: the analysis of {analysed} action(s) is not written"
        in run.stderr
    )
    assert len(run.stderr.splitlines()) == 2  # the conversion's line and the note


def test_gnubgs_own_sgf_analysis_reads_into_the_same_model() -> None:
    match = read_match(GNUBG_SGF)
    moves = deep = 0
    for step in _replayable(match):
        note = analysis_of(step.action)
        if not isinstance(step.action, Move) or note is None or note.checker is None:
            continue
        checker = note.checker
        if not checker.candidates:  # a dance: gnubg writes its luck alone
            assert step.play == Play() and checker.luck is not None
            continue
        assert checker.played is not None
        made = checker.candidates[checker.played].play
        assert step.before.with_dice(*step.action.dice).apply(made) == step.after
        best = checker.candidates[0]
        assert best.level in ("Cubeful 2-ply", "Cubeful 0-ply")  # (0-ply: exact bear-offs)
        assert all(c.equity <= best.equity for c in checker.candidates if c.level == best.level)
        assert checker.luck is not None
        moves += 1
        deep += best.level == "Cubeful 2-ply"
    assert moves > 50 and deep > moves * 0.8
    first_cube = next(
        n.cube for n in map(analysis_of, match.games[0].actions) if n is not None and n.cube
    )
    # ;B[61lrqr]DA[E ver 3 2C 1 0.000000 1 0.499713 ... -0.006797 0.499522 ... 0.477776]:
    # without the position, the values as gnubg wrote them (match winning chances)
    assert first_cube.no_double == 0.499522 and first_cube.double_take == 0.477776
    assert first_cube.probabilities == Probabilities(
        0.499713, 0.13012, 0.004473, 0.135144, 0.005422
    )


def _replayable(match: Match) -> Iterator[ReplayStep]:
    """The steps of ``match`` up to its first action that does not replay (this SGF has
    a roll whose play gnubg did not record)."""
    try:
        yield from replay(match)
    except BgkitError:
        return


def test_money_cube_figures_are_written_as_equities() -> None:
    cube = CubeAnalysis(no_double=0.337, double_take=0.215, double_pass=1.0, level="3-ply")
    money = CubeContext(0, (0, 0), 2, 0, False)
    double = annotate(Double(0, 4), ActionAnalysis(cube=cube), money)
    da = dict(double.annotations)["DA"][0].split()
    assert da[3] == "2C" and da[13] == "0.337000" and da[20] == "0.215000"  # o6, t6
    assert analysis_of(double) == ActionAnalysis(cube=cube)
    # a take holds the decision in bgkit's property only (gnubg keeps it on the double)
    take = annotate(Take(1), ActionAnalysis(cube=cube), money)
    assert [k for k, _ in take.annotations] == [PROPERTY]


def test_match_cube_figures_are_gnubgs_match_winning_chances() -> None:
    # 7-point match at 0-0, cube 1: one EMG is worth (W - L) / 2 of MWC
    context = CubeContext(7, (0, 0), 1, 0, False)
    assert context.to_mwc(0.0) == pytest.approx(0.5)
    assert context.to_mwc(1.0) - context.to_mwc(-1.0) == pytest.approx(
        context.to_mwc(1.0) - 0.5 + 0.5 - context.to_mwc(-1.0)
    )
    assert 0.5 < context.to_mwc(1.0) < 0.6  # winning one point of seven


def test_an_action_without_analysis_is_left_alone() -> None:
    move = Move(0, (3, 1), Play("8/5 6/5"))
    assert annotate(move, ActionAnalysis()) is move
    assert analysis_of(move) is None


_DUMP = """
import gnubg, json, os
gnubg.command("load match " + os.environ["BGKIT_SGF"])
m = gnubg.match(analysis=1, boards=0, statistics=0, verbose=0)
with open(os.environ["BGKIT_OUT"], "w") as f:
    json.dump([g["game"] for g in m["games"]], f)
"""


@pytest.mark.skipif(
    debian_gnubg() is None, reason="GNU Backgammon (Debian's gnubg) is not installed"
)
@pytest.mark.parametrize("path", XG_FILES[:2], ids=lambda p: p.name)
def test_gnubg_shows_xgs_analysis_from_bgkits_sgf(path: Path, tmp_path: Path) -> None:
    match = read_match(path)
    sgf = tmp_path / "x.sgf"
    write_match(match, sgf)
    games, _ = run_script(_DUMP, tmp_path, BGKIT_SGF=str(sgf))
    shown = 0
    for game, records in zip(match.games, games, strict=True):
        moves = [r for r in records if r["action"] == "move"]
        mine = [a for a in game.actions if isinstance(a, Move) and a.play is not None]
        assert len(moves) == len(mine)
        for action, record in zip(mine, moves, strict=True):
            note = analysis_of(action)
            if note is None or note.checker is None or note.checker.played is None:
                continue
            got = record["analysis"]
            assert got["imove"] == note.checker.played
            assert len(got["moves"]) == len(note.checker.candidates)
            for theirs, c in zip(got["moves"], note.checker.candidates, strict=True):
                assert theirs["score"] == pytest.approx(c.equity, abs=1e-6)
                assert c.probabilities is not None
                assert theirs["probs"][0] == pytest.approx(c.probabilities.win, abs=1e-6)
            if note.checker.luck is not None:
                assert got["luck-value"] == pytest.approx(note.checker.luck, abs=1e-5)
            if note.cube is not None and note.cube.no_double is not None:
                assert "nd-cubeful-eq" in got
            shown += 1
    assert shown > 100


def test_candidate_values_round_trip_through_bgkits_property() -> None:
    chances = Probabilities(0.5445, 0.1822, 0.0053, 0.1271, 0.0051)
    note = ActionAnalysis(
        checker=CheckerAnalysis(
            (
                CandidatePlay(Play("24/18 13/11"), -0.0123456789, chances, level="XG Roller++"),
                CandidatePlay(Play("bar/22* 6/off"), -0.1, None, match_winning_chance=0.48),
            ),
            played=1,
            error=-0.0876543211,
            luck=None,
        )
    )
    move = annotate(Move(1, (6, 2), Play("bar/22* 6/off")), note)
    assert analysis_of(move) == note
    assert "XG Roller++" in dict(move.annotations)[PROPERTY][0]


@pytest.mark.skipif(
    debian_gnubg() is None, reason="GNU Backgammon (Debian's gnubg) is not installed"
)
def test_gnubg_shows_bgkits_own_analysis(tmp_path: Path) -> None:
    """``bgkit analyze --sgf``: the candidates and cube decisions bgkit found, as gnubg's."""
    pytest.importorskip("gnubg")
    sgf = tmp_path / "analysed.sgf"
    source = DATA / "fixtures" / "handwritten_3pt.mat"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bgkit",
            "analyze",
            str(source),
            "-p",
            "0",
            "--sgf",
            str(sgf),
            "-j",
            "1",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    match = read_match(sgf)
    records = run_script(_DUMP, tmp_path, BGKIT_SGF=str(sgf))[0][0]
    moves = [r for r in records if r["action"] == "move"]
    mine = [a for a in match.games[0].actions if isinstance(a, Move)]
    shown = 0
    for action, record in zip(mine, moves, strict=True):
        note = analysis_of(action)
        if note is None or note.checker is None or not note.checker.candidates:
            continue
        got = record["analysis"]
        assert got["imove"] == note.checker.played
        assert [m["score"] for m in got["moves"]] == pytest.approx(
            [c.equity for c in note.checker.candidates], abs=1e-6
        )
        shown += 1
    assert shown >= 10


def test_a_report_from_xgs_own_analysis() -> None:
    """``analysis_from_file``: errors from XG's equities, luck as XG gives it, no gnubg."""
    from bgkit.analysis.match import analysis_from_file

    path = XG_FILES[-1]  # kevung__gbf__test.xg
    record = read_xg_record(path)
    result = analysis_from_file(read_match(path))
    assert result.evaluator == "eXtreme Gammon" and result.level == "the file's own levels"
    errors = [0.0, 0.0]
    luck = [0.0, 0.0]
    for game, notes in zip(record.match.games, record.analysis, strict=True):
        for action, note in zip(game.actions, notes, strict=True):
            if not isinstance(action, Move) or note is None or note.checker is None:
                continue
            k = note.checker
            if k.luck is not None:
                luck[action.player] += k.luck
            if len(k.candidates) > 1 and k.played is not None:
                errors[action.player] += k.candidates[0].equity - k.candidates[k.played].equity
    for p in (0, 1):
        row = result.players_list[p]
        assert row["checker_error_emg"] == pytest.approx(errors[p], abs=1e-9)
        assert row["luck_emg"] == pytest.approx(luck[p], abs=1e-9)
        assert 0 < row["pr"] < 30
    assert result.notes[1] == analysis_of(result.match.games[0].actions[1])


def test_a_record_without_analysis_says_so() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bgkit", "analyze", str(DATA / "sample.mat"), "--use-file-analysis"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr.strip().endswith(
        "holds no analysis to report (analyse it with GNU Backgammon instead)"
    )
    assert len(run.stderr.splitlines()) == 1


@pytest.mark.parametrize("bk", ["{", '{"checker": {"candidates": [{"steps": 3}]}}', "[]", ""])
def test_a_damaged_bk_falls_back_to_gnubgs_properties(bk: str) -> None:
    move = annotate(
        Move(0, (3, 1), Play("8/5 6/5")),
        ActionAnalysis(checker=CheckerAnalysis((CandidatePlay(Play("8/5 6/5"), 0.25),), 0)),
    )
    damaged = replace(
        move, annotations=tuple((k, (bk,) if k == PROPERTY else v) for k, v in move.annotations)
    )
    note = analysis_of(damaged)
    assert note is not None and note.checker is not None
    assert note.checker.candidates[0].equity == 0.25 and note.checker.played == 0
