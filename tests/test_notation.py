"""bgkit.notation: reading a position in whichever notation it is written."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import positions

from bgkit import InvalidPositionError, NotationError, Position
from bgkit.fibs import format_fibs_board
from bgkit.gnubgid import gnubg_id, position_id
from bgkit.notation import parse_position, sniff
from bgkit.xgid import format_xgid

OPENING_X = Position.initial(turn=1)
SAMPLES = {
    "xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "xgid-bare": "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "xgid-lower": "  xgid=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10\n",
    "gnubg": "4HPwATDgc/ABMA:cAkAAAAAAAAE",
    "gnubg-reversed": "cAkAAAAAAAAE:4HPwATDgc/ABMA",
    "fibs": "board:root:gnubg:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0"
    ":1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1",
}


@pytest.mark.parametrize("name", SAMPLES)
def test_every_notation_gives_the_same_position(name: str) -> None:
    assert parse_position(SAMPLES[name]) == OPENING_X


def test_sniff() -> None:
    assert sniff(SAMPLES["xgid"]) == sniff(SAMPLES["xgid-bare"]) == "xgid"
    assert sniff(SAMPLES["fibs"]) == sniff("  Board : x") == "fibs"
    assert sniff("4HPwATDgc/ABMA") == sniff(SAMPLES["gnubg-reversed"]) == "gnubg"
    assert sniff("4HPwATDgc/AB!A") == "gnubg"  # a mistyped ID still goes to the ID reader
    assert sniff("hello") is None
    assert sniff("") is None


def test_position_id_alone() -> None:
    assert parse_position("4HPwATDgc/ABMA") == Position.initial()


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("hello world", 1, "unknown position notation"),
        ("   ", 4, "empty text"),
        ("", 1, "empty text"),
        ("  8/5 6/5", 3, "unknown position notation"),
        ("4HPwATDgc/AB!A", 13, "'!' is not a Base64 character"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", 49, "XGID ends too early"),
        ("board:a:b:7", 12, "FIBS board ends too early"),
    ],
)
def test_errors_point_into_the_text(text: str, column: int, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_position(text)
    assert message in info.value.msg
    assert info.value.column == column


def test_unknown_notation_rendering() -> None:
    with pytest.raises(NotationError) as info:
        parse_position("hello world")
    assert str(info.value) == (
        "1:1: unknown position notation: expected an XGID, a FIBS board: line or a "
        "GNU Backgammon Position ID\n"
        "    hello world\n"
        "    ^"
    )


@given(positions(), st.sampled_from(["xgid", "fibs", "gnubg"]))
def test_dispatch_round_trip(pos: Position, kind: str) -> None:
    text = {"xgid": format_xgid, "fibs": format_fibs_board, "gnubg": gnubg_id}[kind](pos)
    assert sniff(text) == kind
    back = parse_position(text)
    assert position_id(back) == position_id(pos)
    assert back.turn == pos.turn and back.match_length == pos.match_length


@given(st.text(max_size=80))
def test_any_text_parses_or_raises_bgkit_errors(text: str) -> None:
    with contextlib.suppress(NotationError, InvalidPositionError):
        parse_position(text)


def test_position_classmethods_use_these_readers() -> None:
    assert Position.parse(SAMPLES["gnubg"]) == OPENING_X
    assert Position.from_xgid(SAMPLES["xgid"]) == OPENING_X
    assert Position.from_gnubg_id(SAMPLES["gnubg"]) == OPENING_X
    assert Position.from_fibs(SAMPLES["fibs"]) == OPENING_X
    assert OPENING_X.xgid() == SAMPLES["xgid"]
    assert OPENING_X.gnubg_id() + ":" + OPENING_X.match_id() == SAMPLES["gnubg"]
    assert OPENING_X.fibs(names=("root", "gnubg")) == SAMPLES["fibs"]
    assert repr(OPENING_X) == f"Position.from_xgid({SAMPLES['xgid']!r})"
    assert str(OPENING_X).startswith(" GNU Backgammon  Position ID: 4HPwATDgc/ABMA")


COPIED = {  # the IDs as a user copies them out of GNU Backgammon (issue 28)
    "labels": "Position ID: 4HPwATDgc/ABMA Match ID: cAkAAAAAAAAA",
    "board-lines": " GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n"
    "                 Match ID   : cAkAAAAAAAAA\n",
    "blank": "4HPwATDgc/ABMA cAkAAAAAAAAA",
    "blank-reversed": "cAkAAAAAAAAA\t4HPwATDgc/ABMA",
}


@pytest.mark.parametrize("name", COPIED)
def test_ids_copied_from_gnubg_read_as_the_id_pair(name: str) -> None:
    assert sniff(COPIED[name]) == "gnubg"
    assert parse_position(COPIED[name]) == parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAA")


def test_a_fault_in_a_copied_id_is_placed_in_the_text_as_typed() -> None:
    text = "Position ID: 4HPwATDgc/ABMA Match ID: cAkAAAAAAAA!"
    with pytest.raises(NotationError) as err:
        parse_position(text)
    assert (err.value.line, err.value.column) == (1, 50)
    assert err.value.msg == "'!' is not a Base64 character (character 12 of 'cAkAAAAAAAA!')"
    with pytest.raises(NotationError) as short:
        parse_position("4HPwATDgc/ABMA cAkAAAAAAAA")
    assert short.value.column == 16
    assert short.value.msg.startswith("'cAkAAAAAAAA' has 11 characters")
    assert sniff("4HPwATDgc/ABMA and more") is None  # words are not an ID pair
