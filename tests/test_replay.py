"""The replay iterator: the positions around every recorded action."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from bgkit.errors import BgkitError, IllegalActionError, IllegalPlayError
from bgkit.formats import read_match
from bgkit.formats.mat import parse_mat, read_mat
from bgkit.position import GameState
from bgkit.records import Double, Move
from bgkit.replay import move_number, replay
from bgkit.verify import IssueKind, Severity, verify

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"


def test_steps_follow_each_other() -> None:
    match = read_mat(DATA / "fixtures" / "selfplay_7pt_noisy.mat")
    steps = list(replay(match))
    assert len(steps) == sum(len(g.actions) for g in match.games) == 303
    for prev, step in itertools.pairwise(steps):
        if step.game_index == prev.game_index:
            assert step.before.board == prev.after.board
    moves = [s for s in steps if s.kind == "move"]
    assert all(s.before.dice is None and s.before.turn == s.player for s in moves)
    assert all(s.rolled.dice == s.action.dice for s in moves)  # type: ignore[union-attr]
    ends = {s.after.game_state for s in steps}
    assert GameState.DROPPED in ends  # (the other games end in resignations)
    with pytest.raises(TypeError):
        next(s for s in steps if s.kind == "double").rolled  # noqa: B018


def test_cube_actions() -> None:
    steps = list(replay(read_mat(DATA / "fixtures" / "handwritten_3pt.mat")))
    double, drop = steps[-2:]
    assert isinstance(double.action, Double) and double.after.doubled
    assert double.turn == drop.turn == 13 and double.move_number == 7
    assert drop.after.game_state == GameState.DROPPED


def test_beaver_and_raccoon() -> None:
    steps = list(replay(read_mat(DATA / "dialects" / "money.mat")))
    kinds = [s.kind for s in steps if s.game_index == 0]
    assert kinds[3:6] == ["double", "beaver", "raccoon"]
    after = steps[5].after
    assert (after.cube, after.cube_owner) == (8, 1)


def test_roll_then_resign() -> None:
    match = read_mat(DATA / "dialects" / "resign.mat")
    last = [s for s in replay(match) if isinstance(s.action, Move)][-1]
    if last.play is None:  # rolled, then resigned
        assert last.after.dice == last.action.dice


def test_move_numbers() -> None:
    right_first = (Move(1, (3, 1), None),)
    assert [move_number(t, right_first) for t in (1, 2, 3, 4)] == [1, 2, 2, 3]
    left_first = (Move(0, (3, 1), None),)
    assert [move_number(t, left_first) for t in (1, 2, 3, 4)] == [1, 1, 2, 2]


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("handwritten_3pt_illegal1.mat", IllegalPlayError),
        ("handwritten_3pt_illegal2.mat", IllegalPlayError),
    ],
)
def test_illegal_plays_raise_with_the_place(name: str, error: type[Exception]) -> None:
    match = read_mat(DATA / "fixtures" / name)
    with pytest.raises(error) as info:
        list(replay(match))
    issue = verify(match).errors[0]
    assert str(info.value).startswith(f"{match.source_name}:{issue.line}:{issue.column}:")


def test_cube_out_of_turn() -> None:
    text = (DATA / "fixtures" / "handwritten_3pt.mat").read_text()
    broken = text.replace(
        " Doubles => 2                Drops", "                              Drops"
    )
    with pytest.raises(IllegalActionError, match=r"without a double|cannot drop"):
        list(replay(parse_mat(broken, source_name="x.mat")))


def test_a_record_without_lines_is_placed_by_its_file_alone() -> None:
    # XG's binary files have no lines (each action's line is 0): the replay's messages
    # and the verifier's place them by the file's name, never at "0:0"
    text = (DATA / "fixtures" / "handwritten_3pt.mat").read_text()
    broken = parse_mat(
        text.replace(" Doubles => 2                Drops", "                              Drops"),
        source_name="x.xg",
    )
    games = tuple(
        replace(g, actions=tuple(replace(a, line=0, column=0) for a in g.actions))
        for g in broken.games
    )
    unlined = replace(broken, games=games)
    with pytest.raises(IllegalActionError) as info:
        list(replay(unlined))
    assert str(info.value).startswith("x.xg: ") and "0:0" not in str(info.value)
    assert verify(unlined).errors[0].location == "x.xg"
    nameless = replace(unlined, source_name=None)
    with pytest.raises(IllegalActionError) as info:
        list(replay(nameless))
    assert not str(info.value).startswith((":", " "))


FATAL = {k for k in IssueKind if k.severity is Severity.ERROR} - {
    IssueKind.HIT_MARK,
    IssueKind.WRITTEN_PATH,
    IssueKind.CUBE_VALUE,
    IssueKind.RESULT,
    IssueKind.SCORE,
}


@pytest.mark.parametrize(
    "path",
    sorted((DATA / "real" / "mat").glob("*.mat")) + sorted((DATA / "selfplay").glob("*.mat")),
    ids=lambda p: p.name,
)
def test_replays_what_the_verifier_accepts(path: Path) -> None:
    """Records whose only issues are cosmetic replay; the others raise."""
    match = read_match(path)
    issues = verify(match).issues
    fatal = any(i.kind in FATAL or i.kind is IssueKind.UNVERIFIABLE for i in issues)
    try:
        steps = list(replay(match))
    except BgkitError:
        assert fatal
    else:
        assert not fatal
        assert len(steps) == sum(len(g.actions) for g in match.games)
