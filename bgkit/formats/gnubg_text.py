"""Read GNU Backgammon's text exports of games and matches (``export game text``).

Such an export shows every position of a game: a ``Move number N:`` heading, the
Position ID and Match ID, the ASCII board with the score, dice and cube written right of
it, the pip counts, what was played (``* Llabba moves 8/4 6/4``) and, when the game was
analysed, the cube analysis and the candidate plays. The syntax lives in
``grammars/gnubg_text.lark``.

:func:`parse_gnubg_text` returns one :class:`~bgkit.formats.annotations.PositionExport`
per board, its position built from the **diagram and the texts beside it** (not from
the IDs), with the IDs as printed, the heading, the play made and the analysis.

>>> boards = read_gnubg_text(
...     "data/real/gnubg_txt/lassehjorthmadsen__bglab__0ply__BoardLord_-_Llabba_7pt_"
...     "Backgammon_Studio_2023_08_09_18_11_07.txt")
>>> first, second = boards[0], boards[1]
>>> first.heading, first.played
('Move number 1:  BoardLord to play 51', 'BoardLord moves 24/23 13/8')
>>> first.checker.candidates[0].play, first.checker.played
(Play('24/23 13/8'), 0)
>>> second.position == Position.from_gnubg_id(f"{second.position_id}:{second.match_id}")
True

**The first board of a game.** gnubg writes its Match ID with the game state "no game"
(0); the position read from the board is a game in play. Apart from that field, every
board of the real exports in ``data/real/gnubg_txt`` equals its IDs.

**What is read.** The board exactly as gnubg draws it (see :mod:`bgkit.ascii_board`):
X's points in fixed places, ``v``/``^`` on the bar line for X/O on roll, marks from the
edge and in the fifth row a count (``6``-``9``, ``A``-``F``) or a mark, bar checkers in the
middle column. Beside the board: ``N points`` (each side's score), ``Rolled 51`` (the dice),
``Cube offered at N`` (a pending double), ``resigns ...``, ``N points match`` with
``(Cube: N)`` or ``(Crawford game)``, and ``(Cube: N)`` after a name for the cube's owner.
The checker analysis (``Rolled 51:``: level, play, equity, chances; ``*`` marks the
play made) and the cube analysis (cubeless equity and chances, the three cubeful
equities, gnubg's proper action verbatim) attach to the board above them.

**What is rejected** (:class:`~bgkit.errors.NotationError` with line and column): a board
cell that is neither a mark nor a count, pip counts that disagree with the board, a
board whose texts are not gnubg's, a board that is no position. Other lines (the match
information, the statistics, alerts) are accepted and skipped.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import IO, Any

from lark import Token, v_args

from bgkit._grammars import SourceText, SourceTransformer, build, parse_tree
from bgkit._play_grammar import with_plays
from bgkit.errors import InvalidPositionError
from bgkit.formats import source_text
from bgkit.formats._diagram import (
    DiagramError,
    board_error,
    full_lines,
    position_from_grid,
    read_grid,
)
from bgkit.formats.annotations import (
    CandidatePlay,
    CheckerAnalysis,
    CubeAnalysis,
    PositionExport,
    Probabilities,
)
from bgkit.play import Play, Step
from bgkit.position import Position

__all__ = ["Position", "parse_gnubg_text", "read_gnubg_text", "sniff_gnubg_text"]

_FIFTH_ROW = "     X6789ABCDEF"  # gnubg's fifth-row character for 5..15 checkers
_NAME = re.compile(r"^(?P<side>[OX]): (?P<name>.*?)(?: \(Cube: (?P<cube>[0-9]+)\))?\s*$")
_POINTS = re.compile(r"^(?P<n>[0-9]+) points?$")
_ROLLED = re.compile(r"Rolled (?P<d1>[1-6])(?P<d2>[1-6])")
_OFFERED = re.compile(r"Cube offered at (?P<n>[0-9]+)")
_RESIGNS = re.compile(r"resigns (single game|gammon|backgammon)")
_MATCH = re.compile(r"(?P<n>[0-9]+) points? match")
_CUBE = re.compile(r"\(Cube: (?P<n>[0-9]+)\)")
_TEXT_COLUMN = 49


def sniff_gnubg_text(text: str) -> bool:
    """True when ``text`` holds a GNU Backgammon board with its Position ID.

    >>> sniff_gnubg_text("Move number 1:  A to play 51\\n\\n GNU Backgammon  Position ID: 4HPw")
    True
    """
    return "GNU Backgammon  Position ID:" in text[:4000]


def read_gnubg_text(
    source: str | os.PathLike[str] | IO[str] | IO[bytes], *, encoding: str | None = None
) -> tuple[PositionExport, ...]:
    """:func:`parse_gnubg_text` of a file path or an open file (text or binary).

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when a board of the export cannot be read.
    """
    text, name = source_text(source, encoding=encoding)
    return parse_gnubg_text(text, source_name=name)


def parse_gnubg_text(text: str, *, source_name: str | None = None) -> tuple[PositionExport, ...]:
    """Every board of a GNU Backgammon text export, in file order (see the module docstring).

    >>> parse_gnubg_text("Move number 1:\\n GNU Backgammon  Position ID: 4HPwATDgc/ABMA\\n")
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: 3:1: gnubg text export ends too early; expected match_id ...

    :raises NotationError: when a board of the export cannot be read.
    """
    source = text[1:] if text.startswith("\ufeff") else text
    tree = parse_tree("gnubg_text", source, "gnubg text export", source_name=source_name)
    items: list[Any] = build(
        with_plays(_LineBuilder(source, source_name)), tree, source, source_name=source_name
    )
    return _Grouper(source, source_name).run(items)


# ---------------------------------------------------------------------------- lines


@dataclass(slots=True)
class _Board:
    position: Position
    names: tuple[str, str]
    position_id: str
    match_id: str
    line: int


@dataclass(slots=True)
class _Candidate:
    chosen: bool
    level: str
    play: Play
    equity: float


@dataclass(slots=True)
class _CubeOption:
    kind: str
    equity: float


@dataclass(slots=True)
class _Group:
    board: _Board
    heading: str | None
    played: str | None = None
    candidates: list[tuple[_Candidate, tuple[float, ...] | None]] = field(default_factory=list)
    chosen: int | None = None
    cubeless: float | None = None
    cube_level: str | None = None
    cube_chances: tuple[float, ...] | None = None
    options: dict[str, float] = field(default_factory=dict)
    proper: str | None = None
    expect_cube_chances: bool = False


@v_args(inline=True)
class _LineBuilder(SourceTransformer[list[Any]]):
    """Turns each line into a value; method names are the rules of ``gnubg_text.lark``."""

    def gnubg_text(self, *items: Any) -> list[Any]:
        return [item for item in items if item is not None and not isinstance(item, Token)]

    def heading(self, token: Token) -> tuple[str, str]:
        return ("heading", str(token).strip())

    def ids(self, position_id: Token, match_id: Token) -> tuple[str, str, str, int]:
        return ("ids", str(position_id), str(match_id), position_id.line or 0)

    def pips(self, o: Token, x: Token) -> tuple[str, tuple[int, int], Token]:
        if len(o) > 4 or len(x) > 4:
            raise self._fail("pip count too large", o)
        return ("pips", (int(o), int(x)), o)

    def played(self, token: Token) -> tuple[str, str]:
        return ("played", str(token)[1:].strip())

    def play(self, *parts: list[Step]) -> Play:
        return Play([s for part in parts for s in part])

    def candidate(
        self,
        star: Token | None,
        _rank: Token,
        level: Token,
        play: Play,
        equity: Token,
        _diff: Token | None,
    ) -> _Candidate:
        return _Candidate(star is not None, str(level), play, float(equity))

    def cannot_move(self, star: Token | None, _token: Token) -> _Candidate:
        return _Candidate(star is not None, "", Play(), 0.0)

    def chances(self, *numbers: Token) -> tuple[float, ...]:
        return tuple(float(n) for n in numbers)

    def cubeless(self, level: Token, equity: Token, _rest: Token | None) -> tuple[str, str, float]:
        return ("cubeless", str(level).split(" cubeless")[0], float(equity))

    def cube_option(
        self, _rank: Token, option: Token, equity: Token, _diff: Token | None
    ) -> _CubeOption:
        words = str(option).lower()
        kind = "nd" if words.startswith("no") else "dp" if words.endswith("pass") else "dt"
        return _CubeOption(kind, float(equity))

    def proper(self, token: Token) -> tuple[str, str]:
        return ("proper", str(token).split(":", 1)[1].strip())

    def board(self, top: Token, *rest: Token) -> tuple[str, Any]:
        return ("board", (top, rest[:11], rest[11]))


class _Grouper(SourceText):
    """Attaches headings, plays and analyses to the boards they belong to."""

    def run(self, items: list[Any]) -> tuple[PositionExport, ...]:
        groups: list[_Group] = []
        heading: str | None = None
        ids: tuple[str, str, int] | None = None
        board: tuple[Token, tuple[Token, ...], Token] | None = None
        for item in items:
            tag = item[0] if isinstance(item, tuple) and isinstance(item[0], str) else None
            if tag == "heading":
                heading = item[1]
            elif tag == "ids":
                ids = (item[1], item[2], item[3])
            elif tag == "board":
                board = item[1]
            elif tag == "pips":
                if board is None or ids is None:
                    continue
                before = groups[-1].board.position if groups else None
                groups.append(_Group(self.board(board, ids, item[1], item[2], before), heading))
                heading, ids, board = None, None, None
            elif not groups:
                continue
            else:
                self.attach(groups[-1], item, tag)
        return tuple(self.export(g) for g in groups)

    def attach(self, group: _Group, item: Any, tag: str | None) -> None:
        if tag == "played":
            group.played = item[1]
        elif tag == "cubeless":
            group.cube_level, group.cubeless = item[1], item[2]
            group.expect_cube_chances = True
        elif tag == "proper":
            group.proper = item[1]
        elif isinstance(item, _Candidate):
            if item.chosen:
                group.chosen = len(group.candidates)
            group.candidates.append((item, None))
        elif isinstance(item, _CubeOption):
            group.options[item.kind] = item.equity
        elif isinstance(item, tuple) and all(isinstance(x, float) for x in item):
            if group.expect_cube_chances:
                group.cube_chances = item
                group.expect_cube_chances = False
            elif group.candidates and group.candidates[-1][1] is None:
                group.candidates[-1] = (group.candidates[-1][0], item)

    def export(self, group: _Group) -> PositionExport:
        checker = None
        if group.candidates:
            checker = CheckerAnalysis(
                tuple(
                    CandidatePlay(c.play, c.equity, _probabilities(p), c.level or None)
                    for c, p in group.candidates
                ),
                played=group.chosen,
            )
        cube = None
        if group.options or group.cubeless is not None:
            cube = CubeAnalysis(
                no_double=group.options.get("nd"),
                double_take=group.options.get("dt"),
                double_pass=group.options.get("dp"),
                probabilities=_probabilities(group.cube_chances),
                cubeless_equity=group.cubeless,
                level=group.cube_level,
                verdict=group.proper,
            )
        b = group.board
        return PositionExport(
            b.position,
            b.names,
            position_id=b.position_id,
            match_id=b.match_id,
            checker=checker,
            cube=cube,
            heading=group.heading,
            played=group.played,
            line=b.line,
        )

    def board(
        self,
        board: tuple[Token, tuple[Token, ...], Token],
        ids: tuple[str, str, int],
        pips: tuple[int, int],
        pips_token: Token,
        before: Position | None,
    ) -> _Board:
        """The board's position; ``before`` is the board above it in the file.

        While a double is pending gnubg writes neither the match length nor the cube's
        owner beside the board: they are those of the board before.
        """
        top, rows, bottom = board
        lines, starts = full_lines(self.source, rows)
        frames, _ = full_lines(self.source, (top, bottom))
        names: dict[str, str] = {}
        owner: int | None = None
        cube = 1
        for frame, token in zip(frames, (top, bottom), strict=True):
            m = _NAME.match(frame[_TEXT_COLUMN:].strip())
            if m is None:
                raise self._fail("expected 'O: name' or 'X: name' right of the frame", token)
            names[m["side"]] = m["name"]
            if m["cube"]:
                owner, cube = (0 if m["side"] == "O" else 1), _small(m["cube"], self, token)
        if set(names) != {"O", "X"}:
            raise self._fail("the frames must name O and X", top)
        texts = [line[_TEXT_COLUMN:].strip() for line in lines]
        fields: dict[str, Any] = {"turn": 1 if lines[5][:1] == "v" else 0}
        scores = []
        for i in (0, 10):
            m = _POINTS.match(texts[i])
            if m is None:
                raise self._fail(f"expected 'N points' beside the board, not {texts[i]!r}", rows[i])
            scores.append(_small(m["n"], self, rows[i]))
        fields["score"] = (scores[0], scores[1])
        bar = texts[5]
        match = _MATCH.search(bar)
        fields["match_length"] = _small(match["n"], self, rows[5]) if match else 0
        fields["crawford"] = "Crawford game" in bar
        centred = _CUBE.search(bar)
        if centred is not None and owner is None:
            cube = _small(centred["n"], self, rows[5])
        for i in (1, 9):
            rolled = _ROLLED.search(texts[i])
            if rolled is not None:
                fields["dice"] = (int(rolled["d1"]), int(rolled["d2"]))
            offered = _OFFERED.search(texts[i])
            if offered is not None:
                fields["doubled"] = True
                cube = _small(offered["n"], self, rows[i]) // 2
            resigns = _RESIGNS.search(texts[i])
            if resigns is not None:
                fields["resigned"] = ("single game", "gammon", "backgammon").index(resigns[1]) + 1
        if fields.get("doubled") and before is not None:
            if not match:
                fields["match_length"] = before.match_length
            if owner is None and before.cube == cube:
                owner = before.cube_owner
        fields["cube"], fields["cube_owner"] = cube, owner
        try:
            grid = read_grid(lines, _gnubg_count)
            position = position_from_grid(grid, **fields)
        except (DiagramError, InvalidPositionError) as err:
            raise board_error(err, self.source, starts, self.source_name) from None
        if position.pip_counts() != pips:
            raise self._fail(
                f"the pip counts O {pips[0]}, X {pips[1]} disagree with the board"
                f" (O {position.pip_counts()[0]}, X {position.pip_counts()[1]})",
                pips_token,
            )
        return _Board(position, (names["O"], names["X"]), ids[0], ids[1], ids[2])


def _small(text: str, grouper: _Grouper, token: Token) -> int:
    if len(text) > 5:
        raise grouper._fail(f"number too large: {text[:12]}", token)
    return int(text)


def _gnubg_count(text: str, _marks: int) -> int | None:
    """gnubg's fifth row: ``6``-``9`` and ``A``-``F`` for 6-15 checkers."""
    return _FIFTH_ROW.index(text) if len(text) == 1 and text in _FIFTH_ROW[6:] else None


def _probabilities(values: tuple[float, ...] | None) -> Probabilities | None:
    if values is None:
        return None
    win, win_g, win_bg, _lose, lose_g, lose_bg = values
    return Probabilities(win, win_g, win_bg, lose_g, lose_bg)
