"""bgkit.ascii_board: GNU Backgammon's ASCII board, with pip counts and the XGID."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from real_ids import REAL, GnubgBoard, gnubg_boards
from strategies import positions

from bgkit import GameState, Position
from bgkit.ascii_board import render
from bgkit.gnubgid import parse_gnubg_id
from bgkit.xgid import format_xgid

BOARDS = gnubg_boards()


@pytest.mark.skipif(not BOARDS, reason=f"no gnubg exports in {REAL}")
@pytest.mark.parametrize("board", BOARDS, ids=[f"{b.source[-30:]}:{b.header}" for b in BOARDS])
def test_real_gnubg_exports_line_for_line(board: GnubgBoard) -> None:
    pos = parse_gnubg_id(f"{board.position_id}:{board.match_id}")
    lines = render(pos, names=board.names).split("\n")
    assert lines[:16] == list(board.lines)  # trailing spaces included
    assert lines[16] == format_xgid(pos)
    assert len(lines) == 17


def lines_of(pos: Position, **kwargs: Any) -> list[str]:
    return render(pos, **kwargs).split("\n")


def test_layout_of_the_opening() -> None:
    lines = lines_of(Position.initial(turn=1))
    assert lines[0] == " GNU Backgammon  Position ID: 4HPwATDgc/ABMA"
    assert lines[1] == "                 Match ID   : cAkAAAAAAAAE"
    assert lines[2] == " +13-14-15-16-17-18------19-20-21-22-23-24-+     O: player 0"
    assert lines[8] == "v|                  |BAR|                  |     (Cube: 1)"
    assert lines[12].endswith("X              O |     On roll")
    assert lines[14] == " +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: player 1"
    assert lines[15] == "Pip counts: O 167, X 167"
    assert lines[16] == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_player_0_on_roll_numbers_the_points_from_its_side() -> None:
    lines = lines_of(Position.initial(turn=0))
    assert lines[2].startswith(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")
    assert lines[8].startswith("^|")
    assert lines[4].endswith("On roll")  # O's second line


def test_tall_points_bar_and_borne_off() -> None:
    # X: 15 on its 6-point; O: 6 on its 1-point, 3 on the bar, 6 borne off
    x = [0] * 25
    x[5] = 15
    o = [0] * 25
    o[0], o[24] = 6, 3
    lines = lines_of(Position.from_layout(o, x, turn=1))
    assert lines[3:10] == [
        " |                  | O |                O | OO  0 points",
        " |                  | O |                O | O   ",
        " |                  | O |                O | O   ",
        " |                  |   |                O | O   ",
        " |                  |   |                6 | O  ",
        "v|                  |BAR|                  |     (Cube: 1)",
        " |                  |   | F                |    ",
    ]
    assert lines[15] == "Pip counts: O 81, X 90"
    assert lines[16] == "XGID=c-----O-----------------f-:0:0:1:00:0:0:0:0:10"


def test_cube_texts() -> None:
    owned = replace(Position.initial(match_length=7, score=(2, 3), turn=1), cube=4, cube_owner=1)
    lines = lines_of(owned, names=("Ann", "Bo"))
    assert lines[14].endswith("X: Bo (Cube: 4)")
    assert lines[8].endswith("|     7 points match")
    assert lines[3].endswith("2 points") and lines[13].endswith("3 points")
    crawford = Position.initial(match_length=7, score=(6, 3), crawford=True)
    assert lines_of(crawford)[8].endswith("7 points match (Crawford game)")
    one_point = Position.initial(match_length=1)
    assert lines_of(one_point)[8].endswith("|     1 point match")
    assert lines_of(replace(one_point, score=(0, 0)))[3].endswith("0 points")
    assert lines_of(Position.initial(match_length=3, score=(1, 0)))[3].endswith("1 point")


def test_pending_double_and_resignation() -> None:
    doubled = Position.initial(turn=1).double()
    lines = lines_of(doubled)
    assert lines[4].endswith("Cube offered at 2")  # O must answer
    assert lines[8] == "v|                  |BAR|                  |     "
    resigning = replace(Position.initial(turn=0).roll(5, 2), resigned=3)
    assert lines_of(resigning)[4].endswith("Rolled 52, resigns backgammon")
    assert lines_of(replace(Position.initial(), resigned=1))[4].endswith(
        "On roll, resigns single game"
    )


def test_game_over_shows_no_on_roll() -> None:
    start = Position.initial(turn=1)
    won = replace(start, board=(start.board[0], (15,) + (0,) * 25), game_state=GameState.OVER)
    lines = lines_of(won)
    assert lines[12] == " | O                |   |                O | XXX "
    assert lines[15] == "Pip counts: O 167, X 0"


# ---------------------------------------------------------------------- GNU Backgammon oracle


@given(pos=positions(resignations=True))
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_gnubg_draws_the_same_board(gnubg: Any, pos: Position) -> None:
    import gnubg_session

    assume(gnubg_session.holds(pos))
    names = gnubg_session.names()
    if not gnubg_session.set_position(pos):  # gnubg refused the double or resignation
        pos = replace(pos, doubled=False, resigned=0)
    dice = None if pos.dice is None else (max(pos.dice), min(pos.dice))  # gnubg sorts them
    expected = render(replace(pos, dice=dice), names=names).split("\n")[:15]
    assert gnubg_session.show_board() == expected
