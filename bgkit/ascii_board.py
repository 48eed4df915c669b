"""An ASCII board, drawn as GNU Backgammon's ``show board`` draws it.

The 15 lines from ``GNU Backgammon  Position ID:`` to the bottom frame are exactly what
gnubg prints (``drawboard.c: DrawBoardStd`` with the labels of ``ShowBoard``), trailing
spaces included, so they can be compared with gnubg's output and its text exports.
They are followed by the pip counts, written as gnubg's text export writes them, and
the XGID.

Player 0 is O and player 1 is X, as in gnubg. X's checkers are always drawn from
the bottom right; the point numbers along the frame are those of the player on roll,
and the ``v``/``^`` at the left of the bar line points to the on-roll player's side
(``v``: X is on roll). A point with more than five checkers shows the count in the
fifth row (``6``-``9``, ``A``-``F`` for 10-15). The columns right of the board show
the checkers borne off, in columns of five.
"""

from __future__ import annotations

from collections.abc import Sequence

from bgkit.gnubgid import match_id, position_id
from bgkit.position import Position
from bgkit.xgid import format_xgid

__all__ = ["render"]

_FIFTH_ROW = "     X6789ABCDEF"  # index = count; used in the fifth row of a point
_RESULTS = ("single game", "gammon", "backgammon")
_TOP_ON_ROLL_X = " +13-14-15-16-17-18------19-20-21-22-23-24-+     "
_TOP_ON_ROLL_O = " +12-11-10--9--8--7-------6--5--4--3--2--1-+     "
_BAR = "|                  |BAR|                  |     "


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _labels(pos: Position, names: Sequence[str]) -> list[str | None]:
    """gnubg's seven side texts: 0 O's name, 1-2 O's lines, 3 the bar line, 4-5 X's, 6 X's name."""
    texts: list[str | None] = [None] * 7
    texts[0] = f"O: {names[0]}"
    texts[6] = f"X: {names[1]}"
    texts[1] = _points(pos.score[0])
    texts[5] = _points(pos.score[1])
    if pos.doubled:
        texts[4 if pos.opponent == 1 else 2] = f"Cube offered at {pos.cube * 2}"
        return texts
    if pos.dice is not None:
        status = f"Rolled {pos.dice[0]}{pos.dice[1]}"
    elif pos.winner() is None:
        status = "On roll"
    else:
        status = ""
    if pos.resigned:
        status += f", resigns {_RESULTS[pos.resigned - 1]}"
    texts[4 if pos.turn == 1 else 2] = status
    match = f"{_points(pos.match_length)} match" if pos.is_match else None
    if pos.cube_owner is None:
        if match is None:
            texts[3] = f"(Cube: {pos.cube})"
        elif pos.match_length == 1:  # gnubg shows no cube in a 1-point match
            texts[3] = match
        elif pos.crawford:
            texts[3] = f"{match} (Crawford game)"
        else:
            texts[3] = f"{match} (Cube: {pos.cube})"
    else:
        owner = pos.cube_owner
        texts[6 if owner == 1 else 0] = f"{'XO'[1 - owner]}: {names[owner]} (Cube: {pos.cube})"
        texts[3] = match
    return texts


def _gnubg_board(pos: Position, names: Sequence[str]) -> list[str]:
    """The lines of gnubg's ``show board`` (``DrawBoardStd``)."""
    o = pos.board[0][1:26]  # gnubg's anBoard[0]: O's points 1..24 and bar
    x = pos.board[1][1:26]  # anBoard[1]: X's
    off_o, off_x = pos.board[0][0], pos.board[1][0]
    texts = _labels(pos, names)
    x_on_roll = pos.turn == 1

    def cell(point: int, row: int) -> str:
        if row == 4:
            if x[point]:
                return _FIFTH_ROW[x[point]]
            return _FIFTH_ROW[o[23 - point]].replace("X", "O")
        if x[point] > row:
            return "X"
        return "O" if o[23 - point] > row else " "

    def cells(points: range, row: int) -> str:
        return "".join(f" {cell(p, row)} " for p in points)

    def bar(count: int, mark: str, row: int) -> str:
        if row == 4:
            return _FIFTH_ROW[count].replace("X", mark)
        return mark if count > row else " "

    def off(count: int, mark: str, row: int) -> str:
        return "".join(mark if count > 5 * col + row else " " for col in range(3))

    def text(i: int) -> str:
        return texts[i] or ""

    lines = [
        f" GNU Backgammon  Position ID: {position_id(pos)}",
        f"                 Match ID   : {match_id(pos)}",
        (_TOP_ON_ROLL_X if x_on_roll else _TOP_ON_ROLL_O) + text(0),
    ]
    top_left, top_right = range(12, 18), range(18, 24)
    for row in range(5):
        line = f" |{cells(top_left, row)}| {bar(o[24], 'O', row)} |{cells(top_right, row)}| "
        line += off(off_o, "O", row)
        if row < 4:
            line += " " + (text(row + 1) if row < 2 else "")
        lines.append(line)
    lines.append(("v" if x_on_roll else "^") + _BAR + text(3))
    bottom_left, bottom_right = range(11, 5, -1), range(5, -1, -1)
    for row in range(4, -1, -1):
        line = f" |{cells(bottom_left, row)}| {bar(x[24], 'X', row)} |{cells(bottom_right, row)}| "
        line += off(off_x, "X", row)
        if row < 4:
            line += " " + (text(5 - row) if row < 2 else "")
        lines.append(line)
    lines.append((_TOP_ON_ROLL_O if x_on_roll else _TOP_ON_ROLL_X) + text(6))
    return lines


def render(pos: Position, *, names: tuple[str, str] = ("player 0", "player 1")) -> str:
    """An ASCII board of ``pos`` as GNU Backgammon draws it, with pip counts and the XGID.

    Shows both IDs, the checkers (on the bar and borne off too), the cube and its owner,
    the dice or "On roll", a pending double or resignation, and the score.

    :param names: the names of players 0 (O, drawn at the top) and 1 (X).

    >>> board = render(Position.initial(match_length=7).roll(5, 1), names=("BoardLord", "Llabba"))
    >>> print("\\n".join(line.rstrip() for line in board.splitlines()))
     GNU Backgammon  Position ID: 4HPwATDgc/ABMA
                     Match ID   : MIHmAAAAAAAE
     +12-11-10--9--8--7-------6--5--4--3--2--1-+     O: BoardLord
     | X           O    |   | O              X |     0 points
     | X           O    |   | O              X |     Rolled 51
     | X           O    |   | O                |
     | X                |   | O                |
     | X                |   | O                |
    ^|                  |BAR|                  |     7 points match (Cube: 1)
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    |   | X              O |
     | O           X    |   | X              O |     0 points
     +13-14-15-16-17-18------19-20-21-22-23-24-+     X: Llabba
    Pip counts: O 167, X 167
    XGID=-b----E-C---eE---c-e----B-:0:0:-1:51:0:0:0:7:10
    """
    o_pips, x_pips = pos.pip_counts()
    lines = _gnubg_board(pos, names)
    lines.append(f"Pip counts: O {o_pips}, X {x_pips}")
    lines.append(format_xgid(pos))
    return "\n".join(lines)
