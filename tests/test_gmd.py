"""bgkit.formats.gmd: Gibbon's GMD match dumps."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgkit._grammars import parser
from bgkit.errors import NotationError
from bgkit.formats import read_match
from bgkit.formats.gmd import parse_gmd, read_gmd, sniff_gmd
from bgkit.formats.mat import read_mat
from bgkit.play import Play
from bgkit.records import Double, Drop, Move, Take
from bgkit.verify import verify

GMD = Path(__file__).resolve().parent.parent / "data" / "real" / "gmd"
MAT = Path(__file__).resolve().parent.parent / "data" / "real" / "mat"

HEAD = "GMD-2 # Created by Gibbon version 0.2.0\nLength: 7\nPlayer:W: Ann\nPlayer:B: Bo\n"


def test_strict_grammar_builds() -> None:
    assert parser("gmd", strict=True) is not None


def test_seven_point_match_scores_like_the_mat_file() -> None:
    gmd = read_gmd(GMD / "gitGNU__gnu_gibbon__7point.gmd")
    mat = read_mat(MAT / "gitGNU__gnu_gibbon__7point.mat")
    assert gmd.players == ("SnowWhite", "JoeBlack")
    assert mat.players == ("JoeBlack", "SnowWhite")  # the .mat has them the other way round
    assert len(gmd.games) == len(mat.games) == 9
    for g, m in zip(gmd.games, mat.games, strict=True):
        assert g.score == (m.score[1], m.score[0])
        assert g.result is not None and m.result is not None
        assert (1 - g.result.winner, g.result.points) == (m.result.winner, m.result.points)
    assert gmd.games[-1].result is not None and gmd.games[-1].result.match_won
    assert verify(gmd).ok
    assert gmd.tag("Site") == "София (България)"
    assert gmd.tag("Player 1 Rank") == "1234.56 123 (FIBS), 0.984 31 (Gibbon)"
    assert gmd.crawford


def test_black_moves_are_turned_round() -> None:
    match = parse_gmd(
        HEAD + "Game:\nRoll:-:: 3 1\nMove:B:: 1/4 12/13\nRoll:W:: 6 5\nMove:W:: 24/13\n"
    )
    black, white = match.games[0].actions
    assert black == Move(1, (3, 1), Play("24/21 13/12"))
    assert white == Move(0, (6, 5), Play("24/13"))
    bar = parse_gmd(HEAD + "Game:\nRoll:B:: 2 1\nMove:B:: bar/2 bar/1\n").games[0].actions[0]
    assert isinstance(bar, Move) and bar.play == Play("bar/23 bar/24")
    off = parse_gmd(HEAD + "Game:\nRoll:B:: 2 1\nMove:B:: 23-off 24/off\n").games[0].actions[0]
    assert isinstance(off, Move) and off.play == Play("2/off 1/off")


def test_cube_drop_and_game_scores() -> None:
    match = parse_gmd(
        HEAD
        + "Game:\nRoll:-:: 4 2\nMove:W:: 8/4 6/4\nDouble:B:\nTake:W:\nRoll:B:: 1 1\n"
        + "Move:B:: 1/2 1/2 17/18 17/18\nDouble:W:\nDrop:B:\nGame:\nRoll:-:: 2 1\n"
    )
    first, second = match.games
    assert [type(a) for a in first.actions] == [Move, Double, Take, Move, Double, Drop]
    assert [a.value for a in first.actions if isinstance(a, Double)] == [2, 4]
    assert first.result is not None and (first.result.winner, first.result.points) == (0, 2)
    assert second.score == (2, 0)
    assert second.actions == ()  # an opening roll nobody has played yet


def test_resignations() -> None:
    accepted = parse_gmd(HEAD + "Game:\nRoll:-:: 4 2\nMove:W:: 8/4 6/4\nResign:B:: 2\nAccept:W:\n")
    result = accepted.games[0].result
    assert result is not None and (result.winner, result.points) == (0, 2)
    rejected = parse_gmd(
        HEAD + "Game:\nRoll:-:: 4 2\nMove:W:: 8/4 6/4\nRoll:B:: 3 1\nResign:W:: 1\nReject:B:\n"
        "Move:B:: 1/4 12/13\n"
    )
    assert rejected.games[0].result is None
    assert len(rejected.games[0].actions) == 2  # the roll before the resignation is kept


def test_a_roll_without_a_move_is_an_unknown_play() -> None:
    match = read_gmd(GMD / "gitGNU__gnu_gibbon__roll-white-incomplete.gmd")
    last = match.games[0].actions[-1]
    assert isinstance(last, Move) and last.play is None


def test_an_opening_double_is_rerolled() -> None:
    match = read_gmd(GMD / "gitGNU__gnu_gibbon__initial-with-two-doubles.gmd")
    assert match.games[0].actions == ()


def test_setup_positions() -> None:
    match = read_gmd(GMD / "gitGNU__gnu_gibbon__edited.gmd")
    game = match.games[0]
    assert game.score == (3, 6)
    assert game.setup == "-b----E-C-A-eD---a-c--b-bB/1"
    pos = match.initial_position(0)
    assert pos.board[0][25] == 2  # White's two checkers on the bar
    assert (pos.cube, pos.cube_owner) == (2, 1)  # only Black may double: Black owns it


def test_a_played_out_game_is_scored_by_replay() -> None:
    match = read_gmd(GMD / "gitGNU__gnu_gibbon__win-by-move-complete.gmd")
    result = match.games[0].result
    # Black bears off its last checker while White has two on the bar: backgammon, cube 2
    assert result is not None and (result.winner, result.points) == (1, 6)


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("Length: 7\n", 1, 1, "unexpected"),
        ("GMD-2\nLength: 7\nGame:\nRoll:W:: 7 1\n", 4, 10, "dice must be 1-6"),
        ("GMD-2\nGame:\nRoll:W:: 6 1\nMove:W:: 25/19\n", 4, 10, "a point must be 1-24"),
        ("GMD-2\nGame:\nMove:W:: 8/4\n", 3, 6, "a move without a roll"),
        ("GMD-2\nRoll:W:: 6 1\n", 2, 6, "before the first 'Game:'"),
        ("GMD-2\nGame:\nRoll:W:: 6 1\nMove:W:: 8/14\n", 4, 10, "White cannot move from 8 to 14"),
        ("GMD-2\nGame:\nFoo:W:\n", 3, 1, "unexpected"),
        ("GMD-2\nGame: Points{1 2 3}\n", 2, 7, "Points{} needs 26 numbers"),
    ],
)
def test_errors_point_at_the_problem(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_gmd(text, source_name="x.gmd", strict=True)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert words in str(info.value)
    # read leniently (the default), an action line is the one fault and the rest is read;
    # a file whose first line or a Game: line cannot be read is not read
    if line == 1 or text.splitlines()[line - 1].startswith("Game"):
        with pytest.raises(NotationError):
            parse_gmd(text)
        return
    (fault,) = parse_gmd(text).read_errors
    assert (fault.line, fault.column) == (line, column)
    assert words in fault.message


def test_a_line_that_cannot_be_read_costs_that_line_only() -> None:
    text = (GMD / "gitGNU__gnu_gibbon__7point.gmd").read_text()
    lines = text.split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("Double:"))
    lines[index] = "Dubble:" + lines[index][len("Double:") :]
    match = parse_gmd("\n".join(lines))
    assert [(f.line, f.column) for f in match.read_errors] == [(index + 1, 1)]
    original = parse_gmd(text)
    assert len(match.games) == len(original.games)
    assert (
        sum(len(g.actions) for g in match.games) == sum(len(g.actions) for g in original.games) - 1
    )


def test_read_match_dispatch(tmp_path: Path) -> None:
    path = GMD / "gitGNU__gnu_gibbon__7point.gmd"
    copy = tmp_path / "seven.txt"
    copy.write_bytes(path.read_bytes())
    assert read_match(path) == read_match(copy) == read_gmd(path)
    assert sniff_gmd(path.read_text(encoding="utf-8"))


_LINES = st.sampled_from(
    [
        "Game:",
        "Roll:W:: 4 2",
        "Roll:B:12: 6 6",
        "Roll:-:: 3 1",
        "Move:W:: 8/4 6/4",
        "Move:B:: 1/3 12/15",
        "Move:B::",
        "Double:W:",
        "Take:B:",
        "Drop:B:",
        "Resign:W:: 1",
        "Accept:B:",
        "Reject:B:",
        "Game: Scores{3 6} Points{2 0 0 0 0 0 5 0 3 0 1 0 0 4 0 0 0 0 0 0 0 0 -1 0 0 0} Cube{2}",
        "Length: 5",
        "# a comment",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINES, max_size=12), st.text(max_size=20))
def test_fuzz_any_text_parses_or_raises_notation_error(lines: list[str], noise: str) -> None:
    for text in ("GMD-2\n" + "\n".join(lines) + "\n", "GMD-2\n" + "\n".join(lines) + noise, noise):
        try:
            match = parse_gmd(text)
        except NotationError:
            continue
        repr(match)
