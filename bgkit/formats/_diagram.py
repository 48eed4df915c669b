"""Reading the ASCII board diagrams of XG, BGBlitz and GNU Backgammon text exports.

All three draw the board from X's side with the same grid: a frame line, five rows of
the upper half, the ``BAR`` line, five rows of the lower half, a frame line. A point's
checkers are a column of ``X``/``O`` marks, from the edge towards the middle, and the
fifth row may hold a count instead of a mark. The three writers differ only in what that
count means and where bar checkers go; :func:`read_grid` takes those as parameters.

The columns (0-based, the same for the three): the six points of the left half at
3, 6, ..., 18, the bar at 22, the six points of the right half at 26, 29, ..., 41.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from bgkit.errors import InvalidPositionError, NotationError

if TYPE_CHECKING:
    from bgkit.position import Position

__all__ = [
    "MAX_EXPORT_CHARS",
    "DiagramError",
    "Grid",
    "board_error",
    "check_export_size",
    "full_lines",
    "position_from_grid",
    "read_grid",
]

_LEFT = tuple(3 + 3 * k for k in range(6))
_RIGHT = tuple(26 + 3 * k for k in range(6))
_BAR = 22


@dataclass(frozen=True, slots=True)
class Grid:
    """Checkers read off a diagram, in X's numbering (XG's and gnubg's X = bgkit player 1).

    ``x[p]`` and ``o[p]`` count the checkers of X and O on X's point ``p`` (1-24); index 25
    holds each player's bar.
    """

    x: tuple[int, ...]
    o: tuple[int, ...]


class DiagramError(Exception):
    """A diagram cell that is not a checker mark (row index and column in the lines)."""

    def __init__(self, msg: str, row: int, column: int) -> None:
        super().__init__(msg)
        self.msg = msg
        self.row = row
        self.column = column


def read_grid(rows: Sequence[str], count: Callable[[str, int], int | None]) -> Grid:
    """Read the eleven rows between the frame lines (the ``BAR`` line is ``rows[5]``).

    ``count(text, marks)`` turns the text of a fifth-row cell that is not a mark into the
    point's total, given the marks below it (``None``: not a count).

    :raises DiagramError: for a cell that is neither blank, a mark nor a count.
    """
    x = [0] * 26
    o = [0] * 26
    top, bottom = rows[0:5], rows[10:5:-1]  # each listed from the edge to the middle
    # X's numbering: upper half 13..18 then 19..24, lower half 12..7 then 6..1
    columns = [(c, 13 + k) for k, c in enumerate(_LEFT)] + [
        (c, 19 + k) for k, c in enumerate(_RIGHT)
    ]
    lower = [(c, 12 - k) for k, c in enumerate(_LEFT)] + [(c, 6 - k) for k, c in enumerate(_RIGHT)]
    for half, cells, offset in ((top, columns, 0), (bottom, lower, 6)):
        for column, point in cells:
            marks = {"X": 0, "O": 0}
            for depth, line in enumerate(half):
                ch = line[column] if column < len(line) else " "
                row = depth if offset == 0 else 10 - depth
                if ch in marks:
                    marks[ch] += 1
                elif ch != " ":
                    text = _cell(line, column)
                    owner = "X" if marks["X"] else "O" if marks["O"] else None
                    total = count(text, marks["X"] + marks["O"]) if depth == 4 else None
                    if total is None or owner is None:
                        raise DiagramError(f"{text!r} is not a checker or a count", row, column)
                    marks[owner] = total
            if marks["X"] and marks["O"]:
                raise DiagramError(
                    f"X and O on one point ({point})", 0 if offset == 0 else 10, column
                )
            x[point] += marks["X"]
            o[point] += marks["O"]
    # bar checkers: any half, marks and counts of the bar column
    for half, offset in ((top, 0), (bottom, 6)):
        marks = {"X": 0, "O": 0}
        for depth, line in enumerate(half):
            ch = line[_BAR] if len(line) > _BAR else " "
            if ch in marks:
                marks[ch] += 1
            elif ch != " ":
                text = _cell(line, _BAR)
                owner = "X" if marks["X"] else "O" if marks["O"] else None
                total = count(text, marks["X"] + marks["O"])
                if total is None or owner is None:
                    row = depth if offset == 0 else 10 - depth
                    raise DiagramError(
                        f"{text!r} on the bar is not a checker or a count", row, _BAR
                    )
                marks[owner] = total
        x[25] += marks["X"]
        o[25] += marks["O"]
    return Grid(tuple(x), tuple(o))


def _cell(line: str, column: int) -> str:
    """The text of a cell: the character at ``column`` and a digit beside it, if any."""
    start, end = column, column + 1
    if column + 1 < len(line) and line[column + 1].isalnum():
        end += 1
    elif column > 0 and line[column - 1].isalnum():
        start -= 1
    return line[start:end]


def position_from_grid(grid: Grid, **fields: object) -> Position:
    """The :class:`~bgkit.position.Position` of a grid (X = player 1, O = player 0).

    ``fields`` go to the constructor (turn, dice, cube, score, ...); borne-off checkers
    are what is missing from 15.

    :raises InvalidPositionError: when the grid and fields describe no position.
    """
    from bgkit.position import Position

    player1 = [grid.x[p] for p in range(1, 25)] + [grid.x[25]]
    player0 = [grid.o[25 - p] for p in range(1, 25)] + [grid.o[25]]
    return Position.from_layout(player0, player1, **fields)


def board_error(
    err: DiagramError | InvalidPositionError,
    source: str,
    row_starts: Sequence[int],
    source_name: str | None,
) -> NotationError:
    """A NotationError at the diagram cell (or the diagram's first row) that is wrong.

    ``row_starts`` are the offsets in ``source`` where the eleven rows' lines start.
    """
    if isinstance(err, DiagramError):
        pos = row_starts[err.row] + err.column
        return NotationError(err.msg, source, pos, source_name=source_name)
    return NotationError(
        f"the diagram is no position: {err}", source, row_starts[0], source_name=source_name
    )


def full_lines(source: str, tokens: Sequence[Token]) -> tuple[list[str], list[int]]:
    """The whole source lines that hold ``tokens`` (leading blanks included) and their starts."""
    lines: list[str] = []
    starts: list[int] = []
    for token in tokens:
        at = token.start_pos or 0
        start = source.rfind("\n", 0, at) + 1
        end = source.find("\n", at)
        if end < 0:
            end = len(source)
        lines.append(source[start:end].rstrip("\r"))
        starts.append(start)
    return lines, starts


MAX_EXPORT_CHARS = 1 << 20
"""The most characters a one-position export (XG's, BGBlitz's) is read with: the real ones
are 1-2 KB, a board and its analysis; a megabyte holds thousands of candidate plays.
Reading a 16 MB one took 38 s and 1 GB (a candidate repeated), 10 s and 4 GB (blank
lines)."""


def check_export_size(text: str, what: str, source_name: str | None) -> None:
    """Refuse a one-position export longer than :data:`MAX_EXPORT_CHARS`, before it is read.

    >>> check_export_size("x" * (2 << 20), "XG position export", "a.txt")
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: a.txt:1:1: XG position export of 2,097,152 characters: more than ...
    """
    if len(text) > MAX_EXPORT_CHARS:
        raise NotationError(
            f"{what} of {len(text):,} characters: more than one position's export holds"
            f" (at most {MAX_EXPORT_CHARS:,})",
            "",
            0,
            source_name=source_name,
        )
