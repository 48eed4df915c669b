"""bgkit.fibs and grammars/fibs.lark: FIBS ``board:`` lines (specs/position-ids.md §4)."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from strategies import positions

from bgkit import GameState, InvalidPositionError, NotationError, Position
from bgkit._grammars import parser
from bgkit.fibs import format_fibs_board, parse_fibs_board
from bgkit.xgid import parse_xgid

# (XGID, what gnubg 1.1.0a16 prints with `set output rawboard on`), spec §4.3
VECTORS = [
    (
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10",
        "board:root:gnubg:7:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:5:2:5:2"
        ":1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1",
    ),
    (
        "XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:7:10",
        "board:root:gnubg:7:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:3:1:3:1"
        ":1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1",
    ),
    (
        "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:4:0:9:10",
        "board:root:gnubg:9:2:4:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0"
        ":2:1:0:0:1:-1:0:25:0:0:0:0:0:0:0:1",
    ),
    (
        "XGID=bb----E-D---cE---c-e-----A:0:0:1:41:0:0:0:5:10",
        "board:root:gnubg:5:0:0:-2:-2:0:0:0:0:5:0:4:0:0:0:-3:5:0:0:0:-3:0:-5:0:0:0:0:0:1:1:4:1:4:1"
        ":1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1",
    ),
    (
        "XGID=-BBCBBB--------------bcdd-:2:-1:1:64:0:0:0:0:10",
        "board:root:gnubg:0:0:0:0:2:2:3:2:2:2:0:0:0:0:0:0:0:0:0:0:0:0:0:0:-2:-3:-4:-4:0:1:6:4:6:4"
        ":4:0:1:0:1:-1:0:25:2:2:0:0:0:0:0:1",
    ),
    (
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:62:6:4:1:7:10",
        "board:root:gnubg:7:6:4:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:6:2"
        ":1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0",
    ),
]
NAMES = ("root", "gnubg")


@pytest.mark.parametrize(("xgid", "line"), VECTORS, ids=[v[0][32:] for v in VECTORS])
def test_vectors(xgid: str, line: str) -> None:
    pos = parse_xgid(xgid)
    assert format_fibs_board(pos, names=NAMES) == line
    assert parse_fibs_board(line) == pos


def test_crawford_items() -> None:
    crawford = parse_fibs_board(VECTORS[5][1])
    assert crawford.crawford and crawford.score == (4, 6)
    post = replace(crawford, crawford=False)
    line = format_fibs_board(post, names=NAMES)
    assert line.endswith(":0:0:0:0:1:1")  # post-Crawford, not Crawford
    assert parse_fibs_board(line) == post


def test_cube_owner_flags() -> None:
    pos = parse_fibs_board(VECTORS[2][1])
    assert (pos.cube, pos.cube_owner) == (2, 1)  # the player owns the cube: may double 1:0
    assert format_fibs_board(replace(pos, cube_owner=0), names=NAMES).split(":")[38:40] == [
        "0",
        "1",
    ]


# Gibbon's test-clip-reader.c boards (real-ids vectors §4), with Gibbon's own decoding
GIBBON = [
    # line, (opponent pips, player pips), (opponent score, player score), turn, dice,
    # cube, cube owner, Crawford
    (
        "board:joe_white:black_jack:7:5:0:0:0:2:-1:0:-1:4:0:2:0:0:0:-2:4:0:0:0:-3:-2:-4:3:-2:0:0:"
        "0:0:-1:0:0:6:6:1:1:1:0:1:-1:0:25:0:0:0:0:2:6:0:0",
        (138, 156), (0, 5), 0, (6, 6), 1, None, False,
    ),
    (
        "board:joe_white:black_jack:1:0:0:0:6:2:0:2:0:0:0:0:0:-1:0:0:-2:0:0:0:0:0:0:-3:-1:-3:-1:"
        "-4:0:1:0:0:6:2:1:1:1:0:-1:1:25:0:0:5:0:0:2:4:0:0",
        (18, 73), (0, 0), 0, (6, 2), 1, None, False,
    ),
    (
        "board:joe_white:black_jack:2:1:1:0:0:0:-1:3:3:2:0:3:0:0:2:0:2:0:0:0:-1:-1:-2:-2:-2:-4:-2"
        ":0:0:1:5:1:0:0:2:0:1:0:1:-1:0:25:0:0:0:0:2:0:1:0",
        (83, 111), (1, 1), 1, (5, 1), 2, 0, False,
    ),
    (
        "board:You:GibbonTestA:2:0:1:0:0:0:-1:0:-1:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:1:0:0:0:1:0:1:"
        "0:0:0:0:1:1:1:0:-1:1:25:0:0:0:0:0:2:0:0:0",
        (163, 161), (1, 0), 0, None, 1, None, True,
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    "row", GIBBON, ids=["opponent-66", "bear-off", "post-crawford", "crawford"]
)
def test_real_gibbon_boards(row: tuple[Any, ...]) -> None:
    line, pips, score, turn, dice, cube, owner, crawford = row
    pos = parse_fibs_board(line)
    assert pos.pip_counts() == pips
    assert (pos.score, pos.turn, pos.dice) == (score, turn, dice)
    assert (pos.cube, pos.cube_owner, pos.crawford) == (cube, owner, crawford)
    assert pos.match_length == int(line.split(":")[3])


def test_real_clip_specification_example() -> None:
    pos = parse_fibs_board(
        "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2"
        ":0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
    )
    assert pos == Position.initial(match_length=3, turn=1).roll(6, 2)


def test_real_server_line_with_spaces() -> None:
    pos = parse_fibs_board(
        "board:mpgnu:buster:17:0:2:0:0:0:2: 1: 4: 3: 0: 1: 0: 1: 0: 0: 2: 0: 0: 0: 0: 0: 1: -2:"
        " -2: -1: -4: -4: 0: -1: 3: 6: 0: 0: 1: 1: 1: 0: -1: 1: 25: 0: 2: 0: 0: 0: 2: 2: 0: 0\n"
    )
    assert pos.borne_off() == (0, 2)  # mpgnu (the player, X) has borne off two
    assert (pos.turn, pos.dice, pos.score, pos.match_length) == (1, (3, 6), (2, 0), 17)


def test_unlimited_match_is_money() -> None:
    line = VECTORS[0][1].replace("board:root:gnubg:7:", "board:root:gnubg:9999:")
    assert parse_fibs_board(line).match_length == 0


def test_game_over_turn_zero() -> None:
    fields = VECTORS[0][1].split(":")
    fields[32] = "0"
    pos = parse_fibs_board(":".join(fields))
    assert pos.game_state == GameState.OVER


# ---------------------------------------------------------------------- orientations


def reoriented(line: str, colour: int, direction: int) -> str:
    """A gnubg-written line (colour 1, direction -1) in another colour and direction."""
    fields = line.split(":")
    slots = [int(v) for v in fields[6:32]]
    if colour == -1:
        slots = [-v for v in slots]
        fields[32] = str(-int(fields[32]))  # the turn is given as a colour
    if direction == 1:
        slots = slots[::-1]
    fields[6:32] = [str(v) for v in slots]
    fields[41:45] = [str(colour), str(direction), "25" if direction == 1 else "0",
                     "0" if direction == 1 else "25"]  # fmt: skip
    return ":".join(fields)


@pytest.mark.parametrize(("colour", "direction"), [(1, -1), (1, 1), (-1, -1), (-1, 1)])
@pytest.mark.parametrize(("xgid", "line"), VECTORS, ids=[v[0][32:] for v in VECTORS])
def test_both_colours_and_directions(xgid: str, line: str, colour: int, direction: int) -> None:
    assert parse_fibs_board(reoriented(line, colour, direction)) == parse_xgid(xgid)


@given(positions(checkers=None), st.sampled_from([1, -1]), st.sampled_from([1, -1]))
def test_orientations_of_random_positions(pos: Position, colour: int, direction: int) -> None:
    line = reoriented(format_fibs_board(pos), colour, direction)
    assert parse_fibs_board(line) == as_fibs_reads(pos)


# ---------------------------------------------------------------------- writing


def test_names_are_written_as_gnubg_writes_them() -> None:
    line = format_fibs_board(Position.initial(), names=("a:b", " c "))
    assert line.startswith("board:a_b:c:")
    with pytest.raises(ValueError, match="FIBS name"):
        format_fibs_board(Position.initial(), names=("", "x"))
    with pytest.raises(ValueError, match="FIBS name"):
        format_fibs_board(Position.initial(), names=("a\nb", "x"))
    assert format_fibs_board(Position.initial()).startswith("board:player:opponent:0:")


def test_pending_double_sign() -> None:
    player_doubled = Position.initial(match_length=5, turn=1).double()
    opponent_doubled = Position.initial(match_length=5, turn=0).double()
    assert format_fibs_board(player_doubled).split(":")[40] == "1"
    assert format_fibs_board(opponent_doubled).split(":")[40] == "-1"
    for pos in (player_doubled, opponent_doubled):
        assert parse_fibs_board(format_fibs_board(pos)) == pos


def test_hypergammon_counts_come_from_borne_off_items() -> None:
    pos = Position.initial(variant="hypergammon", turn=1)
    line = format_fibs_board(pos)
    assert line.split(":")[45:47] == ["0", "0"]
    assert parse_fibs_board(line) == pos


# ---------------------------------------------------------------------- errors


GOOD = VECTORS[0][1]


def with_item(index: int, value: str) -> str:
    fields = GOOD.split(":")
    fields[index] = value
    return ":".join(fields)


def column_of(text: str, index: int) -> int:
    """1-based column of item ``index`` of a colon-separated line."""
    return len(":".join(text.split(":")[:index])) + 2


def error(text: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        parse_fibs_board(text)
    return info.value


def test_error_full_rendering() -> None:
    """The board line is longer than an excerpt: the 80 characters around the caret show."""
    text = with_item(41, "2")
    shown = "..." + text[len(text) - 77 :]
    assert str(error(text)) == (
        f"1:98: FIBS colour (item 41) must be -1 or 1, not 2\n    {shown}\n"
        f"    {' ' * (97 - (len(text) - 80))}^"
    )
    assert text[97] == "2" and shown[97 - (len(text) - 80)] == "2"


@pytest.mark.parametrize(
    ("index", "value", "message"),
    [
        (42, "0", "direction (item 42) must be -1 or 1, not 0"),
        (43, "25", "home (item 43) with direction -1 must be 0, not 25"),
        (44, "0", "bar (item 44) with direction -1 must be 25, not 0"),
        (3, "-7", "match length must be 0-999999999, not -7"),
        (4, "7", "score 7 is not below the match length 7"),
        (10, "16", "checker count (slot 4) must be -15-15, not 16"),
        (32, "2", "turn (item 32) must be -1 or 0 or 1, not 2"),
        (33, "7", "die (item 33) must be 0-6, not 7"),
        (33, "0", "FIBS dice 0:2: both dice or neither"),
        (37, "3", "the FIBS cube value must be a power of two, not 3"),
        (37, "0", "cube value (item 37) must be"),
        (38, "2", "may-double flag (item 38) must be 0 or 1, not 2"),
        (40, "1", "a double is pending (item 40) but dice are rolled"),
        (45, "1", "the player has 16 checkers (on the board and borne off) and the opponent 15"),
        (46, "16", "borne-off count (item 46) must be 0-15, not 16"),
    ],
)
def test_errors(index: int, value: str, message: str) -> None:
    text = with_item(index, value)
    err = error(text)
    assert message in err.msg
    assert (err.line, err.column) == (1, column_of(text, index))


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        (GOOD.rsplit(":", 1)[0], len(GOOD) - 1, "FIBS board ends too early"),
        (GOOD + ":0", len(GOOD) + 1, "unexpected ':' in FIBS board"),
        (GOOD.replace("board:root:", "board::"), 7, "unexpected ':' in FIBS board"),
        (GOOD.replace("board:", "bored:"), 1, "unexpected"),
        (GOOD.replace(":-5:5:", ":-5:x:"), GOOD.index(":-5:5:") + 5, "unexpected 'x'"),
        ("", 1, "FIBS board ends too early"),
    ],
)
def test_syntax_errors(text: str, column: int, message: str) -> None:
    err = error(text)
    assert message in err.msg
    assert err.column == column


def test_impossible_position() -> None:
    board = [-2, 2, 2, 2, 2, 2, 2] + [0] * 12 + [-2] * 6 + [1]  # both dance on closed boards
    fields = GOOD.split(":")
    fields[6:32] = [str(v) for v in board]
    fields[33:37] = ["0"] * 4
    fields[45:47] = ["2", "1"]  # 13 + 2 and 14 + 1 checkers
    with pytest.raises(InvalidPositionError, match="closed boards"):
        parse_fibs_board(":".join(fields))


# ---------------------------------------------------------------------- properties


def as_fibs_reads(pos: Position) -> Position:
    """What a board line keeps of ``pos`` (see the module docstring of bgkit.fibs)."""
    return replace(
        pos,
        game_state=GameState.PLAYING,
        resigned=0,
        jacoby=False,
        beavers=False,
        cube_limit=1024,
    )


@given(positions(checkers=None, game_states=tuple(GameState), resignations=True))
@example(Position.initial())
@example(Position.initial(match_length=7, score=(6, 2), crawford=True))
def test_round_trip(pos: Position) -> None:
    line = format_fibs_board(pos, names=("me", "you"))
    assert parse_fibs_board(line) == as_fibs_reads(pos)
    assert format_fibs_board(parse_fibs_board(line), names=("me", "you")) == line


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid board line with a few characters replaced, inserted or deleted."""
    chars = list(format_fibs_board(draw(positions(checkers=None))))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(chars)))
        ch = draw(st.sampled_from("-:0123456789 \nx"))
        if i == len(chars) or draw(st.booleans()):
            chars.insert(i, ch)
        else:
            chars[i] = ch
    return "".join(chars)


@given(st.one_of(st.text(max_size=60), mutated()))
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_any_text_parses_or_raises_bgkit_errors(text: str) -> None:
    with contextlib.suppress(NotationError, InvalidPositionError):
        pos = parse_fibs_board(text)
        repr(pos)
        str(pos)


def test_grammar_builds_in_strict_mode() -> None:
    assert parser("fibs", strict=True).parse(GOOD).data == "fibs"


# ---------------------------------------------------------------------- GNU Backgammon oracle


@given(pos=positions(resignations=True))
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_gnubg_writes_the_same_board_lines(gnubg: Any, pos: Position) -> None:
    import gnubg_session

    assume(gnubg_session.holds(pos))
    names = gnubg_session.names()
    accepted = gnubg_session.set_position(pos)
    if not accepted:  # gnubg refused the double or resignation: compare without it
        pos = replace(pos, doubled=False, resigned=0)
    # gnubg sorts the dice when it reads an ID
    dice = None if pos.dice is None else (max(pos.dice), min(pos.dice))
    expected = replace(pos, dice=dice)
    assert gnubg_session.raw_board() == format_fibs_board(expected, names=(names[1], names[0]))
