"""bgkit.formats.javafibs: JavaFIBS's internal match files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgkit._grammars import parser
from bgkit.errors import NotationError
from bgkit.formats import read_match
from bgkit.formats.gmd import read_gmd
from bgkit.formats.javafibs import parse_javafibs, read_javafibs, sniff_javafibs
from bgkit.play import Play, Step
from bgkit.records import Double, Drop, Move, Take
from bgkit.verify import verify

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
SEVEN = REAL / "javafibs" / "gitGNU__gnu_gibbon__7point.match"
HEAD = "JavaFIBS internal match representation v1.1\r\n8:Bo:5\r\n13:Bo:\r\n6:You:Bo\r\n"


def test_strict_grammar_builds() -> None:
    assert parser("javafibs", strict=True) is not None


def test_seven_point_match_equals_the_gmd_dump() -> None:
    match = read_javafibs(SEVEN)
    gmd = read_gmd(REAL / "gmd" / "gitGNU__gnu_gibbon__7point.gmd")
    assert match.players == ("SnowWhite", "JoeBlack") == gmd.players
    assert match.length == 7
    assert match.games == gmd.games  # same games, actions and results
    assert verify(match).ok
    last = match.games[-1].result
    assert last is not None and last.match_won and last.winner == 1


def test_moves_in_either_direction() -> None:
    match = parse_javafibs(
        HEAD + "11:You:4 2\r\n1:You:17-21 19-21\r\n0:Bo:5 2\r\n1:Bo:bar-23 23-18\r\n"
        "0:You:2 1\r\n1:You:bar-2 bar-1\r\n0:Bo:3 3\r\n15:Bo:\r\n"
    )
    moves = match.games[0].actions
    assert moves == (
        Move(0, (4, 2), Play("8/4 6/4")),
        Move(1, (5, 2), Play("bar/23 23/18")),
        Move(0, (2, 1), Play("bar/23 bar/24")),
        Move(1, (3, 3), Play()),
    )


def test_cube_and_results() -> None:
    match = parse_javafibs(
        HEAD + "11:You:4 2\r\n1:You:8-4 6-4\r\n2:Bo:\r\n4:You:\r\n0:Bo:3 1\r\n1:Bo:8-5 6-5\r\n"
        "2:You:\r\n5:Bo:\r\n7:You:2\r\n14:Ann-2:Bo-0\r\n13:Bo:\r\n6:You:Bo\r\n11:Bo:3 1\r\n"
        "3:Bo:1\r\n7:You:1\r\n"
    )
    first, second = match.games
    assert [type(a) for a in first.actions] == [Move, Double, Take, Move, Double, Drop]
    assert first.result is not None and (first.result.winner, first.result.points) == (0, 2)
    assert second.score == (2, 0)
    assert second.result is not None and second.result.points == 1  # a resignation
    assert match.players == ("Ann", "Bo")


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("8:Bo:5\n", 1, 1, "unexpected"),
        (HEAD + "0:You:7 1\r\n", 5, 7, "dice must be 1-6"),
        (HEAD + "0:You:6 1\r\n1:You:24-18 8-9\r\n", 6, 13, "both directions"),
        (HEAD + "1:You:8-4\r\n", 5, 3, "without a roll"),
        (HEAD + "0:Cy:6 1\r\n", 5, 3, "neither 'You' nor the opponent"),
        (HEAD + "99:You:\r\n", 5, 1, "unexpected"),
    ],
)
def test_errors_point_at_the_problem(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_javafibs(text, source_name="x.match", strict=True)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert words in str(info.value)
    # read leniently (the default), the line is the one fault and the rest is read, unless
    # the first line cannot be read
    if line == 1:
        with pytest.raises(NotationError):
            parse_javafibs(text)
        return
    (fault,) = parse_javafibs(text).read_errors
    assert (fault.line, fault.column) == (line, column)
    assert words in fault.message


def test_read_match_dispatch() -> None:
    assert read_match(SEVEN) == read_javafibs(SEVEN)
    assert sniff_javafibs(SEVEN.read_text(encoding="utf-8"))


_LINES = st.sampled_from(
    [
        "13:Bo:",
        "6:You:Bo",
        "11:You:4 2",
        "0:Bo:3 1",
        "1:You:8-4 6-4",
        "1:Bo:24-21 13-12",
        "1:Bo:1-4",
        "15:You:",
        "2:You:",
        "4:Bo:",
        "5:Bo:",
        "3:You:2",
        "12:Bo:",
        "7:You:1",
        "9:You:5",
        "14:Ann-1:Bo-0",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINES, max_size=12), st.text(max_size=20))
def test_fuzz_any_text_parses_or_raises_notation_error(lines: list[str], noise: str) -> None:
    start = "JavaFIBS internal match representation v1.1\n8:Bo:5\n"
    for text in (start + "\n".join(lines), start + "\n".join(lines) + noise, noise):
        try:
            match = parse_javafibs(text)
        except NotationError:
            continue
        repr(match)


def test_a_line_that_cannot_be_read_costs_that_line_only() -> None:
    text = SEVEN.read_text(encoding="utf-8")
    lines = text.split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("1:"))  # a move
    lines[index] = "1:" + lines[index][2:].replace("-", "~", 1)
    match = parse_javafibs("\n".join(lines))
    assert [f.line for f in match.read_errors] == [index + 1]
    original = parse_javafibs(text)
    assert len(match.games) == len(original.games)
    assert [g.result for g in match.games] == [g.result for g in original.games]


# ---------------------------------------------------- a bad line costs that line only (#28)


def _seven_with(line_of: str, text: str, nth: int = 0) -> tuple[str, int]:
    """The 7-point match with its ``nth`` line starting ``line_of`` replaced by ``text``,
    and that line's number."""
    lines = SEVEN.read_text(encoding="utf-8").split("\n")
    index = [i for i, line in enumerate(lines) if line.startswith(line_of)][nth]
    lines[index] = text + "\r"
    return "\n".join(lines), index + 1


@pytest.mark.parametrize(
    ("nth", "text", "column", "words"),
    [
        (1, "13:Joe@Black:", 4, "the game is against 'JoeBlack'"),  # read, cannot be used
        (1, "13;JoeBlack:", 1, "unexpected"),  # a game start the grammar cannot read
        (0, "1x:JoeBlack:", 1, "unexpected"),  # the first game's start
        (4, "xx", 1, "unexpected"),  # other text in place of a game start
    ],
)
def test_a_game_start_that_cannot_be_read_still_starts_its_game(
    nth: int, text: str, column: int, words: str
) -> None:
    original = read_javafibs(SEVEN)
    damaged, line = _seven_with("13:", text, nth)
    match = parse_javafibs(damaged)
    (fault,) = match.read_errors
    assert (fault.line, fault.column) == (line, column) and words in fault.message
    assert match.games == original.games  # every game, action and result
    report = verify(match)
    assert [(e.line, e.column, e.kind.value, e.game) for e in report.errors] == [
        (line, column, "unreadable-line", nth + 1)
    ]


def test_a_lost_roll_costs_its_line_only() -> None:
    damaged, line = _seven_with("0:JoeBlack:3 2", "0:JoeBlack:3 @")
    match = parse_javafibs(damaged)
    assert [(f.line, f.column) for f in match.read_errors] == [(line, 14)]
    assert len(match.games) == 9


@pytest.mark.parametrize(
    ("written", "play", "message"),
    [
        # You go up in this game (17-21 19-21 is 8/4 6/4): 21-19 is 4/6
        ("17-21 21-19", [Step(8, 4), Step(4, 6)], "4/6 moves a checker away from its home"),
        # a whole move written the other way among the game's moves
        ("21-17 21-19", [Step(4, 8), Step(4, 6)], "4/8 moves a checker away from its home"),
        # an entry from an empty bar: the rules' to say
        ("bar-12 19-21", [Step(25, 13), Step(6, 4)], "there is no checker on the bar to move"),
    ],
)
def test_a_step_the_wrong_way_is_an_illegal_play_of_the_player(
    written: str, play: list[Step], message: str
) -> None:
    damaged, line = _seven_with("1:You:17-21 19-21", f"1:You:{written}")
    match = parse_javafibs(damaged)
    assert not match.read_errors
    move = match.games[0].actions[0]
    assert isinstance(move, Move) and move.play == Play(play)
    errors = verify(match).errors
    assert [(e.line, e.kind.value, e.player_name) for e in errors][:1] == [
        (line, "illegal-play", "SnowWhite")
    ]
    assert message in errors[0].message
