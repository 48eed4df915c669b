"""bgkit.xgid and grammars/xgid.lark: eXtreme Gammon's XGID (specs/position-ids.md §3)."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from real_ids import REAL, xg_exports
from strategies import positions

from bgkit import GameState, InvalidPositionError, NotationError, Position
from bgkit._grammars import parser
from bgkit.errors import BgkitError
from bgkit.gnubgid import gnubg_id
from bgkit.xgid import format_xgid, parse_xgid

# XGID, gnubg's Position ID:Match ID after `set gnubgid <XGID>` (spec §3.5, verified there)
VECTORS = [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "4HPwATDgc/ABMA:cAkAAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10", "4HPwATDgc/ABMA:cAkAAAAAAAAA"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "4HPwATDgc/ABMA:cInqAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:7:10", "4HPwATDgc/ABMA:MIHlAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:4:0:9:10", "4HPwATDgc/ABMA:UQkgAUAAEAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:3:1:0:7:10", "4HPwATDgc/ABMA:AQHgABAAGAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:62:6:4:1:7:10", "4HPwATDgc/ABMA:8AnrAEAAMAAE"),
    ("XGID=bb----E-D---cE---c-e-----A:0:0:1:41:0:0:0:5:10", "4HNwAGzg8+ADQA:cAmmAAAAAAAE"),
    ("XGID=bb----E-D---cE---c-e-----A:2:-1:-1:41:1:3:0:5:10", "4PPgA0Dgc3AAbA:AgGmADAACAAE"),
    ("XGID=-BBCBBB--------------bcdd-:2:-1:1:64:0:0:0:0:10", "790AAMB22wAAAA:QgkTAAAAAAAE"),
    ("XGID=--aaB-C-C-ABdB---bbe---AA-:0:0:1:00:6:9:0:11:10", "4NvgARSYc5oBKA:cAlgAZAAMAAE"),
    ("XGID=aCBBBC-a-A---Aa---bbbbbbA-:0:0:-1:65:2:0:0:11:10", "t+0QAiC2bUNAQA:MAF3AQAAEAAE"),
]


@pytest.mark.parametrize(("xgid", "gnubg"), VECTORS, ids=[v[0][5:31] + v[0][32:] for v in VECTORS])
def test_vectors(xgid: str, gnubg: str) -> None:
    pos = parse_xgid(xgid)
    assert gnubg_id(pos) == gnubg
    assert format_xgid(pos) == xgid
    assert parse_xgid(xgid.removeprefix("XGID=")) == pos


def test_vector_fields() -> None:
    pos = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:4:0:9:10")
    assert (pos.cube, pos.cube_owner, pos.turn, pos.score, pos.match_length) == (2, 1, 1, (4, 2), 9)
    pos = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:3:1:0:7:10")
    assert (pos.cube_owner, pos.turn, pos.score) == (0, 0, (1, 3))
    assert parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:62:6:4:1:7:10").crawford
    money = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10")
    assert (money.jacoby, money.beavers, money.is_match) == (True, True, False)
    assert parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:0:10").beavers
    assert parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:0").cube_limit == 1


def test_signed_views() -> None:
    pos = parse_xgid("XGID=bb----E-D---cE---c-e-----A:0:0:1:41:0:0:0:5:10")
    assert list(pos.signed_points(1)) == [
        -2, -2, 0, 0, 0, 0, 5, 0, 4, 0, 0, 0, -3, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 0, 1,
    ]  # fmt: skip
    pos = parse_xgid("XGID=-BBCBBB--------------bcdd-:2:-1:1:64:0:0:0:0:10")
    assert list(pos.signed_points(1)) == [
        0, 2, 2, 3, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, -3, -4, -4, 0,
    ]  # fmt: skip
    assert pos.borne_off() == (2, 2)


def test_opening_layout() -> None:
    assert parse_xgid("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10") == Position.initial(turn=1)
    assert format_xgid(Position.initial()) == "XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10"


XG = xg_exports()


@pytest.mark.skipif(not XG, reason=f"no XG exports in {REAL}")
@pytest.mark.parametrize(("name", "xgid", "pips"), XG, ids=[x[0] for x in XG])
def test_real_xg_exports(name: str, xgid: str, pips: tuple[int, int]) -> None:
    pos = parse_xgid(xgid)
    pips_x, pips_o = pips
    assert pos.pip_counts() == (pips_o, pips_x)
    assert format_xgid(pos) == xgid


def test_real_xg_details() -> None:
    # kevung/xgparser 01_checkerPosition: X 3, O 6 of 7; O owns the 2-cube; X to play 21
    pos = parse_xgid("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10")
    assert (pos.turn, pos.dice, pos.score, pos.cube, pos.cube_owner) == (1, (2, 1), (6, 3), 2, 0)
    assert pos.borne_off() == (1, 0)
    # 05_NRT: 9 against 9 checkers left, X owns the 2-cube
    pos = parse_xgid("XGID=---BADB------------bf---a-:1:1:1:00:4:0:0:7:10")
    assert pos.borne_off() == (6, 6) and pos.cube_owner == 1 and pos.pip_counts() == (43, 42)


# ---------------------------------------------------------------------- pending double


def test_pending_double_convention() -> None:
    pos = parse_xgid("-b----E-C---eE---c-e----B-:1:1:1:D:2:4:0:9:10")
    assert pos.doubled and pos.dice is None
    assert pos.turn == 1  # X has doubled ...
    assert (pos.cube, pos.cube_owner) == (2, 1)  # ... the cube before the double
    assert format_xgid(pos) == "XGID=-b----E-C---eE---c-e----B-:1:1:1:D:2:4:0:9:10"
    assert format_xgid(Position.initial(turn=0).double()).split(":")[4] == "D"
    assert pos.take().cube == 4 and pos.take().cube_owner == 0


# ---------------------------------------------------------------------- errors


def error(text: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        parse_xgid(text)
    return info.value


GOOD = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"


def test_error_full_rendering() -> None:
    assert str(error(GOOD.replace("E-C", "E-Q"))) == (
        "1:14: 'Q' is not a checker count: A-P are 1-16 of X's checkers, a-p of O's\n"
        "    XGID=-b----E-Q---eE---c-e----B-:0:0:1:52:0:0:0:7:10\n"
        "                 ^"
    )


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        (GOOD.replace("-B-", "-B"), 31, "an XGID board has 26 characters (O's bar,"),
        (GOOD.replace("-B-", "-B--"), 32, "an XGID board has 26 characters"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", 6, "O's bar: X's checkers"),
        ("XGID=-b----E-C---eE---c-e----Bb:0:0:1:52:0:0:0:7:10", 31, "X's bar: O's checkers"),
        (GOOD.replace(":0:0:1:52", ":16:0:1:52"), 33, "cube exponent must be 0-15, not 16"),
        (GOOD.replace(":0:0:1:52", ":1:2:1:52"), 35, "cube position must be 0 (centred)"),
        (GOOD.replace(":0:0:1:52", ":0:1:1:52"), 35, "a cube of 1 cannot be owned"),
        (GOOD.replace(":0:0:1:52", ":0:0:0:52"), 37, "turn must be 1 (X) or -1 (O), not 0"),
        (GOOD.replace(":52:", ":72:"), 39, "dice must be 00 or two dice 1-6, not 72"),
        (GOOD.replace(":52:", ":50:"), 40, "dice must be 00 or two dice 1-6, not 50"),
        (GOOD.replace(":52:", ":B:"), 39, "unexpected 'B' in the XGID dice field"),
        (GOOD.replace(":52:", ":R:"), 39, "unexpected 'R' in the XGID dice field"),
        (GOOD.replace(":52:", ":5:"), 39, "unexpected '5' in the XGID dice field"),
        (GOOD.replace(":0:0:0:7:", ":7:0:0:7:"), 42, "score 7 is not below the match length 7"),
        (GOOD.replace(":0:0:0:7:", ":0:8:0:7:"), 44, "score 8 is not below the match length 7"),
        (GOOD.replace(":0:0:0:7:", ":0:0:2:7:"), 46, "rules field in match play (Crawford flag)"),
        (GOOD.replace(":0:0:0:7:", ":0:0:4:0:"), 46, "rules field in money play"),
        (GOOD.replace(":7:10", ":7:16"), 50, "maximum cube exponent must be 0-15, not 16"),
        (GOOD.replace(":7:10", ":7:1234567890"), 50, "maximum cube exponent must be 0-15"),
        (GOOD + ":0", 52, "unexpected ':' in XGID; expected "),
        (GOOD[:-3], 49, "XGID ends too early; expected ':'"),
        ("XGID=", 6, "XGID ends too early"),
        ("", 1, "XGID ends too early"),
        ("XGID=:" + GOOD[5:], 6, "unexpected ':' in XGID"),
    ],
)
def test_errors(text: str, column: int, message: str) -> None:
    err = error(text)
    assert message in err.msg
    assert (err.line, err.column) == (1, column)


def test_error_on_a_later_line() -> None:
    err = error("\n  " + GOOD.replace(":52:", ":57:"))
    assert (err.line, err.column) == (2, 42)


def test_impossible_boards_are_invalid_positions() -> None:
    with pytest.raises(InvalidPositionError, match="X has 16 checkers"):
        parse_xgid(GOOD.replace("-B-:", "-C-:"))
    with pytest.raises(InvalidPositionError, match="O has 29 checkers"):
        parse_xgid(GOOD.replace("-b--", "-p--"))
    board = "b" + "B" * 6 + "-" * 12 + "b" * 6 + "B"  # both on the bar, both boards closed
    with pytest.raises(InvalidPositionError, match="closed boards"):
        parse_xgid(f"XGID={board}:0:0:1:00:0:0:0:0:10")


# ---------------------------------------------------------------------- properties


def as_xgid_reads(pos: Position) -> Position:
    """What an XGID keeps of ``pos`` (see the module docstring of bgkit.xgid)."""
    sides = tuple((15 - sum(side[1:]), *side[1:]) for side in pos.board)
    return replace(
        pos,
        board=sides,
        checkers=15,
        game_state=GameState.PLAYING,
        resigned=0,
        jacoby=pos.jacoby and not pos.is_match,
        beavers=pos.beavers and not pos.is_match,
        cube_limit=1 << max(pos.cube_limit.bit_length() - 1, 0),
    )


@given(positions())
@example(Position.initial())
@example(Position.initial(turn=1).double())
def test_round_trip(pos: Position) -> None:
    assert parse_xgid(format_xgid(pos)) == pos


@given(positions(checkers=None, game_states=tuple(GameState), resignations=True))
def test_round_trip_keeps_what_an_xgid_holds(pos: Position) -> None:
    text = format_xgid(pos)
    assert parse_xgid(text) == as_xgid_reads(pos)
    assert format_xgid(parse_xgid(text)) == text
    assert repr(pos) == f"Position.from_xgid({text!r})"


def test_cube_limit_that_is_not_a_power_of_two() -> None:
    pos = replace(Position.initial(), cube_limit=1000)
    assert format_xgid(pos).endswith(":9")
    assert parse_xgid(format_xgid(pos)).cube_limit == 512


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid XGID with a few characters replaced, inserted or deleted."""
    chars = list(format_xgid(draw(positions(resignations=True))))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(chars)))
        ch = draw(st.sampled_from("-:0123456789ABDPQabpqz =X\n"))
        op = draw(st.sampled_from(["put", "insert", "delete"]))
        if op == "insert" or i == len(chars):
            chars.insert(i, ch)
        elif op == "put":
            chars[i] = ch
        else:
            del chars[i]
    return "".join(chars)


@given(st.one_of(st.text(max_size=60), mutated()))
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_any_text_parses_or_raises_bgkit_errors(text: str) -> None:
    with contextlib.suppress(NotationError, InvalidPositionError):
        pos = parse_xgid(text)
        assert parse_xgid(format_xgid(pos)) == pos
        repr(pos)
        str(pos)


def test_grammar_builds_in_strict_mode() -> None:
    strict = parser("xgid", strict=True)
    assert strict.parse(GOOD).data == "xgid"


def test_errors_are_bgkit_errors() -> None:
    with pytest.raises(BgkitError):
        parse_xgid("XGID=nonsense")
    with pytest.raises(ValueError):
        parse_xgid("XGID=nonsense")


# ---------------------------------------------------------------------- GNU Backgammon oracle


@given(pos=positions())
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_gnubg_reads_bgkit_xgids_as_bgkit(gnubg: Any, pos: Position) -> None:
    import gnubg_session

    assume(gnubg_session.holds(pos))
    gnubg_session.set_xgid(format_xgid(pos))
    # gnubg steps back from a pending double, sorts the dice (its Match ID does too) and,
    # reading an XGID, forgets the score of a money session and ignores beavers
    expected = replace(pos, doubled=False)
    if not pos.is_match:
        expected = replace(expected, score=(0, 0))
    assert gnubg_session.current_id() == gnubg_id(expected)
