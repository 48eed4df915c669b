"""bgkit.formats.gmd: Gibbon's GMD match dumps."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bgkit._grammars import parser
from bgkit.cli import main
from bgkit.errors import NotationError
from bgkit.formats import read_match
from bgkit.formats.gmd import parse_gmd, read_gmd, sniff_gmd
from bgkit.formats.mat import read_mat
from bgkit.play import Play, Step
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
        ("GMD-2\nGame:\nFoo:W:\n", 3, 1, "unexpected"),
        ("GMD-2\nGame: Points{1 2 3}\n", 2, 7, "Points{} needs 26 numbers"),
    ],
)
def test_errors_point_at_the_problem(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_gmd(text, source_name="x.gmd", strict=True)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert words in str(info.value)
    # read leniently (the default), the line is the one fault and the rest is read; a file
    # whose first line cannot be read is not read
    if line == 1:
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


# ---------------------------------------------------- a bad line costs that line only (#28)


def _seven_point_with(line_of: str, text: str, nth: int = 0) -> tuple[str, int]:
    """The 7-point dump with its ``nth`` line starting ``line_of`` replaced by ``text``,
    and that line's number."""
    lines = (GMD / "gitGNU__gnu_gibbon__7point.gmd").read_text().split("\n")
    index = [i for i, line in enumerate(lines) if line.startswith(line_of)][nth]
    lines[index] = text
    return "\n".join(lines), index + 1


@pytest.mark.parametrize(
    ("nth", "text", "column", "words"),
    [
        (1, "Gme:", 1, "unexpected 'Gme'"),  # not a Game: line to the grammar
        (1, "Game: Sc@res", 9, "unexpected '@res'"),  # a Game: line, broken
        (1, "Game: Scores{3}", 7, "Scores{} needs two numbers"),  # read, cannot be used
        (0, "Gme:", 1, "unexpected 'Gme'"),  # the first game's line
        (4, "xx", 1, "unexpected 'xx'"),  # other text between two games
    ],
)
def test_a_game_line_that_cannot_be_read_still_starts_its_game(
    nth: int, text: str, column: int, words: str
) -> None:
    original = read_gmd(GMD / "gitGNU__gnu_gibbon__7point.gmd")
    damaged, line = _seven_point_with("Game:", text, nth)
    match = parse_gmd(damaged, source_name="x.gmd")
    (fault,) = match.read_errors
    assert (fault.line, fault.column) == (line, column) and words in fault.message
    # every game is there with every action and result; the lost line's game is unverified
    assert [(g.score, g.actions, g.result) for g in match.games] == [
        (g.score, g.actions, g.result) for g in original.games
    ]
    report = verify(match)
    assert [(e.line, e.column, e.kind.value, e.game) for e in report.errors] == [
        (line, column, "unreadable-line", nth + 1)
    ]
    unverified = [n for n in report.notes if n.kind.value == "unverified"]
    assert [(n.game, n.message.endswith(f"line {line} could not be read")) for n in unverified] == [
        (nth + 1, True)
    ]


def test_other_text_after_the_last_action_of_a_game_is_one_error() -> None:
    # a line that cannot be read inside a game that goes on: that line only, no new game
    damaged, line = _seven_point_with("Roll:B:: 3 2", "Roll:B:: 3 @")
    match = parse_gmd(damaged)
    assert len(match.games) == 9
    assert [(f.line, f.column) for f in match.read_errors] == [(line, 12)]


def test_a_step_away_from_home_is_an_illegal_play_of_the_player() -> None:
    # as in .mat: a rule break at the play, naming the player; the rest is verified
    white = parse_gmd(HEAD + "Game:\nRoll:-:: 4 2\nMove:W:: 8/4 4/6\n", source_name="x.gmd")
    (move,) = white.games[0].actions
    assert isinstance(move, Move) and move.play == Play([Step(8, 4), Step(4, 6)])
    assert not white.read_errors
    (error,) = verify(white).errors
    assert (error.line, error.column, error.kind.value, error.player_name) == (
        7,
        6,
        "illegal-play",
        "Ann",
    )
    assert error.message == "illegal play 8/4 4/6 for 42: 4/6 moves a checker away from its home"
    # Black's points are White's numbers: 6/4 is Black's 19/21
    black = parse_gmd(HEAD + "Game:\nRoll:-:: 4 2\nMove:B:: 6/4 1/5\nRoll:W:: 3 1\n")
    (error,) = verify(black).errors
    assert (error.kind.value, error.player_name) == ("illegal-play", "Bo")
    assert error.message == (
        "illegal play 19/21 24/20 for 42: 19/21 moves a checker away from its home"
    )
    record = HEAD + "Game:\nRoll:-:: 4 2\nMove:W:: 8/4 4/6\n"
    result = CliRunner().invoke(main, ["verify", "-", "--from", "gmd"], input=record)
    assert result.exit_code == 1  # a rule break, not an unreadable record (2)
    assert result.stderr.startswith("-:7:6: error: illegal play 8/4 4/6 for 42:")
