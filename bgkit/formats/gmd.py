"""Read GMD match dumps, the format Gibbon (a GTK client for FIBS) saves matches in.

The syntax lives in ``grammars/gmd.lark``. White is bgkit's player 0, Black player 1.
White's points are its own; Black's are written in White's numbers (Black moves from 1
towards 24) and are turned round here, so every :class:`~bgkit.records.Move` holds the
mover's own numbers as everywhere in bgkit.

>>> match = parse_gmd('''GMD-2 # Created by Gibbon version 0.2.0
... Length: 3
... Player:W: Snow White
... Player:B: Joe Black
... Rule: Crawford
... Game:
... Roll:-:: 4 2
... Move:W:: 8/4 6/4
... Roll:B:: 5 2
... Move:B:: 1/6 12/14
... Double:W:
... Drop:B:
... ''')
>>> match
<Match ('Snow White' vs. 'Joe Black', 3-pt, 1 game)>
>>> for action in match.games[0].actions:
...     print(action)
Move(player=0, dice=(4, 2), play=Play('8/4 6/4'))
Move(player=1, dice=(5, 2), play=Play('24/19 13/11'))
Double(player=0, value=2)
Drop(player=1)
>>> match.games[0].result
Result(winner=0, points=1, match_won=False, loser_points=None)

**What is accepted.** ``GMD-1`` and ``GMD-2`` files as Gibbon writes them: ``Length``
(a number, ``unlimited`` or ``money``), ``Player``, ``Rank``, ``Location``, ``Rule``,
``#`` comments, ``Game:`` lines (with ``Scores{}``, ``Points{}``, ``Cube{}``,
``May-Double{}``, ``Dice{}``, ``Turn{}`` for a set-up position), and the actions
``Roll``, ``Move``, ``Double``, ``Take``, ``Drop``, ``Resign``, ``Accept``, ``Reject``
with or without a timestamp; ``/`` or ``-`` between points, ``bar``, ``off`` or ``home``.

**How actions become records.** A ``Roll`` and the ``Move`` after it make one
:class:`~bgkit.records.Move`; the opening roll (colour ``-``) goes to the player who moves
next (an opening double is rerolled, so it is dropped). A roll that no move follows is a
move with an unknown play (``None``). A resignation that is accepted ends the game with a
:class:`~bgkit.records.Result` for its points; a rejected one leaves no trace (records
have no resignation action). GMD writes no scores or results: a drop gives the doubler the
cube's value, and a game played to the end is replayed with bgkit's rules to score it
(single, gammon or backgammon times the cube); each game's score is the sum before it.
A set-up position becomes the game's :attr:`~bgkit.records.Game.setup` (XG's
``Set Pos`` text), the cube owned by the one player who may double.

**What is rejected** (:class:`~bgkit.errors.NotationError` with line and column): a file
that does not start with ``GMD-n``, unknown keywords, points outside 1-24, a ``Points{}``
of other than 26 numbers, an action before the first ``Game:``, a move with more than
four steps. Only the first line costs the file; any other such line is a
:class:`~bgkit.records.ReadError` and the rest is read. A ``Game:`` line that cannot be
read still starts its game (its actions are kept, and left unverified), and so does any
line that cannot be read between a game's end and the actions after it. A step away from
home (``8/14`` for White) is kept as written: the verifier reports it as the player's
illegal play.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import IO, Any

from lark import Token, v_args

from bgkit._grammars import SourceTransformer
from bgkit.errors import BgkitError, NotationError
from bgkit.formats import source_text
from bgkit.formats._by_lines import (
    NOTHING,
    LineAssembler,
    LostGameLines,
    fast_dice,
    fast_number,
    keep_fault,
    no_fast_line,
    read_lines,
    step_reader,
)
from bgkit.limits import active, check_play_steps
from bgkit.play import BAR, OFF, Play, Step
from bgkit.records import Action, Double, Drop, Game, Match, Move, ReadError, Result, Take

__all__ = ["parse_gmd", "read_gmd", "sniff_gmd"]


def sniff_gmd(text: str) -> bool:
    """True when ``text`` starts like a GMD file (``GMD-2``).

    >>> sniff_gmd("GMD-2 # Created by Gibbon"), sniff_gmd(" 7 point match")
    (True, False)
    """
    return text.lstrip("\ufeff \t\r\n").startswith("GMD-")


def read_gmd(
    source: str | os.PathLike[str] | IO[str] | IO[bytes],
    *,
    encoding: str | None = None,
    strict: bool = False,
) -> Match:
    """Read a GMD file from a path or an open file (text or binary).

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when the text is not a GMD file (see :func:`parse_gmd`).
    """
    text, name = source_text(source, encoding=encoding)
    return parse_gmd(text, source_name=name, strict=strict)


def parse_gmd(text: str, *, source_name: str | None = None, strict: bool = False) -> Match:
    """Read a GMD match dump from a string (see the module docstring).

    A line that cannot be read is a :class:`~bgkit.records.ReadError` of the match's
    :attr:`~bgkit.records.Match.read_errors` (the verifier reports it), and the rest is
    read:

    >>> text = "GMD-2\\nLength: 7\\nGame:\\nRoll:W:: 4 2\\nMove:W:: 8/4 6/x\\n"
    >>> [(e.line, e.column, e.message) for e in parse_gmd(text).read_errors]
    [(5, 16, "unexpected 'x' in GMD record; expected 'bar', a number, 'off'")]
    >>> parse_gmd(text, strict=True)
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: 5:16: unexpected 'x' in GMD record; expected 'bar', a number, 'off'
        Move:W:: 8/4 6/x
                       ^

    :param strict: raise at the first line that cannot be read.
    :raises NotationError: when the text is not a GMD file (its first line cannot be
        read), or with ``strict`` at the first line that cannot be read.
    """
    source = text[1:] if text.startswith("\ufeff") else text
    builder = _GmdBuilder(source, source_name)
    fast = _fast_line if active().max_integer_digits >= 3 else no_fast_line
    reading = read_lines("gmd", source, builder, "GMD record", source_name, fast, strict=strict)
    return _Assembler(source, source_name, None if strict else []).assemble(reading, _GAME_LINE)


# ---------------------------------------------------------------------------- tree


@dataclass(slots=True)
class _Line:
    """One line of the file: its keyword, the place of its token (the colour's, or the
    keyword's or value's where there is no colour: line, column and offset), its colour
    (0 white, 1 black, None) and values (a move's: ``(from, to, offset)`` per step)."""

    kind: str
    line: int
    column: int
    pos: int
    color: int | None = None
    values: tuple[Any, ...] = ()


def _line(kind: str, token: Token, color: int | None = None, values: tuple[Any, ...] = ()) -> _Line:
    return _Line(kind, token.line or 0, token.column or 0, token.start_pos or 0, color, values)


_COLORS = {"w": 0, "b": 1, "-": None}


@v_args(inline=True)
class _GmdBuilder(SourceTransformer[list[_Line]]):
    def gmd(self, magic: Token, _comment: Token | None, *lines: _Line | None) -> list[_Line]:
        return [line for line in lines if line is not None]

    def gmd_line(self, line: _Line | None) -> _Line | None:
        return line

    def comment(self, token: Token) -> _Line:
        return _line("comment", token, values=(str(token)[1:].strip(),))

    def length(self, value: Token) -> _Line:
        number = 0 if value.type == "UNLIMITED" else self._int(value)
        return _line("length", value, values=(number,))

    def player(self, color: Token, text: Token | None) -> _Line:
        return _line("player", color, _COLORS[color.lower()], (_text(text),))

    def rank(self, color: Token, text: Token | None) -> _Line:
        return _line("rank", color, _COLORS[color.lower()], (_text(text),))

    def location(self, text: Token | None) -> _Line | None:
        return None if text is None else _line("location", text, values=(_text(text),))

    def rule(self, text: Token | None) -> _Line | None:
        return None if text is None else _line("rule", text, values=(_text(text),))

    def setup(self, name: Token, *numbers: Token) -> tuple[str, int, tuple[int, ...]]:
        return (str(name).lower(), name.start_pos or 0, tuple(self._int(n) for n in numbers))

    def game(self, keyword: Token, *setups: tuple[str, int, tuple[int, ...]]) -> _Line:
        return _line("game", keyword, values=setups)

    def roll(self, color: Token, _time: Token | None, d1: Token, d2: Token) -> _Line:
        dice = (self._int(d1), self._int(d2))
        if not all(1 <= d <= 6 for d in dice):
            raise self._fail(f"dice must be 1-6: {dice[0]} {dice[1]}", d1)
        return _line("roll", color, _COLORS[color.lower()], dice)

    def point_number(self, token: Token) -> tuple[int, Token]:
        value = self._int(token)
        if not 1 <= value <= 24:
            raise self._fail(f"a point must be 1-24 (or bar, off): {value}", token)
        return (value, token)

    def bar(self, token: Token) -> tuple[int, Token]:
        return (-1, token)

    def off(self, token: Token) -> tuple[int, Token]:
        return (-2, token)

    def movement(self, src: tuple[int, Token], dst: tuple[int, Token]) -> tuple[int, int, int]:
        return (src[0], dst[0], src[1].start_pos or 0)

    def move(self, color: Token, _time: Token | None, *steps: tuple[int, int, int]) -> _Line:
        if len(steps) > 4:
            raise NotationError(
                "a move has at most four steps",
                self.source,
                steps[4][2],
                source_name=self.source_name,
            )
        return _line("move", color, _COLORS[color.lower()], steps)

    def _simple(self, kind: str, color: Token) -> _Line:
        return _line(kind, color, _COLORS[color.lower()])

    def double(self, color: Token, _time: Token | None) -> _Line:
        return self._simple("double", color)

    def take(self, color: Token, _time: Token | None) -> _Line:
        return self._simple("take", color)

    def drop(self, color: Token, _time: Token | None) -> _Line:
        return self._simple("drop", color)

    def reject(self, color: Token, _time: Token | None) -> _Line:
        return self._simple("reject", color)

    def accept(self, color: Token, _time: Token | None) -> _Line:
        return self._simple("accept", color)

    def resign(self, color: Token, _time: Token | None, value: Token) -> _Line:
        points = self._int(value)
        if points < 1:
            raise self._fail("a resignation must offer at least 1 point", value)
        return _line("resign", color, _COLORS[color.lower()], (points,))


def _text(token: Token | None) -> str:
    return "" if token is None else str(token).strip()


# ---------------------------------------------------------------------------- fast path
# The lines of a game (Game: without a set-up, Roll, Move, Double, Take, Drop, Resign,
# Accept, Reject), Game: with a set-up (Scores{3 2} Points{...}) and Length, Player,
# Rank, Location, Rule and comment lines, with blanks, in any case and with numbers of
# any digits (08/04) as the grammar reads them, are read here without Lark, each as
# _GmdBuilder makes it of the grammar's parse (the same _Line); any other line, or one
# that breaks a rule the builder checks, is left to Lark (issue 29: Lark's parse of
# every line was 37 s of a 16 MB record, and is about 40 µs a line).
# tests/test_line_readers.py compares both readings.

_W = r"[ \t]*"  # (blanks between two tokens, which the grammar ignores)
_POINT = r"(?:[0-9]+(?![0-9])|(?i:bar|off))"  # (a number is all its digits, as INT)
_TIME = rf"{_W}(?:[0-9]+{_W})?:"  # (a timestamp, maybe empty, and its colon)
_COLOR = r"([WwBb-])"
_SETUP = r"[A-Za-z][A-Za-z-]*[ \t]*\{(?:[ \t]*-?[0-9]+(?![0-9]))*[ \t]*\}"  # (Scores{3 2})
_FAST_LINE = re.compile(
    rf"{_W}(?:(?i:(roll)){_W}:{_W}{_COLOR}{_W}:{_TIME}{_W}([0-9]+)[ \t]+([0-9]+)"
    rf"|(?i:(move)){_W}:{_W}{_COLOR}{_W}:{_TIME}((?:{_W}{_POINT}{_W}[/-]{_W}{_POINT})*)"
    rf"|(?i:(double|take|drop|accept|reject)){_W}:{_W}{_COLOR}{_W}:?{_W}(?:[0-9]+)?"
    rf"|(?i:(resign)){_W}:{_W}{_COLOR}{_W}:{_TIME}{_W}([0-9]+)"
    rf"|(?i:(game)){_W}:((?:{_W}{_SETUP})*)"
    rf"|(?i:(length)){_W}:{_W}(?:([0-9]+)|((?i:unlimited|money))))"
    r"[ \t]*(?:\r?\n)?\Z"
    # (lines whose text runs to the line end: TEXT and COMMENT take a CR)
    rf"|{_W}(?:(?i:(player|rank)){_W}:{_W}{_COLOR}{_W}:{_W}([^ \t\n][^\n]*)?|(#[^\n]*)"
    rf"|(?i:(location|rule)){_W}:{_W}([^ \t\n][^\n]*)?)\n?\Z"
)
_FAST_STEP = re.compile(r"([0-9]+|(?i:bar|off))[ \t]*[/-][ \t]*([0-9]+|(?i:bar|off))")
_FAST_POINTS = {"bar": -1, "off": -2, **{str(n): n for n in range(1, 25)}}
_FAST_COLORS = {"W": 0, "w": 0, "B": 1, "b": 1, "-": None}


def _fast_line(source: str, start: int, end: int, line: int) -> Any:
    """Line ``line`` (``source[start:end]``) as _GmdBuilder makes it (a _Line or
    ``NOTHING``), or ``None`` when it is not one of the lines read here (see above)."""
    m = _FAST_LINE.match(source, start, end)
    if m is None:
        return None
    if m[1] is not None:
        dice = fast_dice(m[3], m[4])
        if dice is None:
            return None
        return _at(m, "roll", start, line, 2, _FAST_COLORS[m[2]], dice)
    if m[5] is not None:
        steps = _fast_steps(m[7])
        if steps is None:
            return None
        at = m.start(7)
        values = tuple([(a, b, at + offset) for a, b, offset in steps])
        return _at(m, "move", start, line, 6, _FAST_COLORS[m[6]], values)
    if m[8] is not None:  # double, take, drop, accept, reject
        return _at(m, m[8].lower(), start, line, 9, _FAST_COLORS[m[9]])
    if m[10] is not None:
        points = fast_number(m[12])
        if not points:
            return None  # (no points offered: the builder refuses it; or a limit passed)
        return _at(m, "resign", start, line, 11, _FAST_COLORS[m[11]], (points,))
    if m[13] is not None:
        if not m[14]:
            return _at(m, "game", start, line, 13)
        setups = _fast_setups(m[14])
        if setups is None:
            return None
        at = m.start(14)
        placed = tuple([(name, at + offset, numbers) for name, offset, numbers in setups])
        return _at(m, "game", start, line, 13, None, placed)
    if m[15] is not None:
        if m[16] is None:  # unlimited, money
            return _at(m, "length", start, line, 17, None, (0,))
        length = fast_number(m[16])
        if length is None:
            return None
        return _at(m, "length", start, line, 16, None, (length,))
    if m[18] is not None:
        text = "" if m[20] is None else m[20].strip()
        return _at(m, m[18].lower(), start, line, 19, _FAST_COLORS[m[19]], (text,))
    if m[21] is not None:
        return _at(m, "comment", start, line, 21, None, (m[21][1:].strip(),))
    if m[23] is None:
        return NOTHING  # (a Location or Rule line without its text)
    return _at(m, m[22].lower(), start, line, 23, None, (m[23].strip(),))


_FAST_SETUP = re.compile(r"([A-Za-z][A-Za-z-]*)[ \t]*\{([^}]*)\}")
_FAST_SIGNED = re.compile(r"-?[0-9]+")


def _read_setups(text: str, digits: int) -> tuple[tuple[str, int, tuple[int, ...]], ...] | None:
    """The set-ups of a Game: line as written (`` Scores{3 2} Cube{2}``): ``(name in lower
    case, its offset in text, its numbers)`` each; ``None`` when a number has more than
    ``digits`` digits (the limit ``max_integer_digits``, which Lark's reading raises)."""
    setups = []
    for m in _FAST_SETUP.finditer(text):
        numbers = _FAST_SIGNED.findall(m[2])
        if any(len(n) > 3 and len(n.lstrip("-")) > digits for n in numbers):
            return None
        setups.append((m[1].lower(), m.start(1), tuple(map(int, numbers))))
    return tuple(setups)


_cached_setups = functools.lru_cache(maxsize=1 << 10)(_read_setups)


def _fast_setups(text: str) -> tuple[tuple[str, int, tuple[int, ...]], ...] | None:
    """:func:`_read_setups` under the active limit (cached for a text of at most 400
    characters: a record repeats its set-ups)."""
    digits = active().max_integer_digits
    return _cached_setups(text, digits) if len(text) <= 400 else _read_setups(text, digits)


def _at(
    m: re.Match[str],
    kind: str,
    start: int,
    line: int,
    group: int,
    color: int | None = None,
    values: tuple[Any, ...] = (),
) -> _Line:
    """The _Line of ``kind`` (line ``line``, which starts at ``start``) whose token is
    group ``group`` of ``m``."""
    pos = m.start(group)
    return _Line(kind, line, pos - start + 1, pos, color, values)


_fast_steps = step_reader(_FAST_STEP, _FAST_POINTS)
"""The steps of a move as written (`` 8/4 6/4``), with their offsets in the text."""


# ---------------------------------------------------------------------------- match


@dataclass(slots=True)
class _Placed:
    """An action's place as a line's (:class:`~bgkit.formats._by_lines.PlacedLine`)."""

    line: int
    column: int
    pos: int

    @classmethod
    def of(cls, source: str, action: Action) -> _Placed:
        """The place of ``action`` in ``source`` (found from its line: once, for an error)."""
        pos = NotationError.at("", source, action.line or 0, action.column or 0).pos
        return cls(action.line or 0, action.column or 0, pos)


@dataclass(slots=True)
class _GameState:
    setup: str | None = None
    score: tuple[int, int] | None = None
    actions: list[Action] = field(default_factory=list)
    result: Result | None = None
    cube: int = 1
    roll: tuple[int | None, tuple[int, int], tuple[int, int]] | None = None  # (its place)
    resign: tuple[int, int] | None = None
    line: int = 0
    column: int = 0


class _Assembler(LineAssembler):
    """Turns the lines into a Match (the module docstring says how).

    With a list of ``faults``, an action line that cannot be one (a move without a roll,
    an action before the first game...) is recorded there and left out, instead of raised.
    """

    def __init__(
        self, source: str, source_name: str | None, faults: list[ReadError] | None = None
    ) -> None:
        super().__init__(source, source_name)
        self.faults = faults
        self.after_lost = False  # the line before the one being read could not be read
        self.made: dict[tuple[Any, ...], Play] = {}  # the plays made, by colour and steps

    def match(self, lines: Iterable[_Line], lost: LostGameLines) -> Match:
        """The match of ``lines``; ``lost`` has the lines that could not be read."""
        names = ["", ""]
        tags: list[tuple[str, str]] = []
        comments: list[str] = []
        length = 0
        crawford = False
        games: list[_GameState] = []
        failed = False  # the line before could not be used
        for line in lines:
            kind = line.kind
            for fault in lost.before(line.line):
                # a Game: line that could not be read starts its game all the same
                self.game_starts(len(games) + 1, None, fault.line)
                if games:
                    self.finish(games)
                games.append(_GameState(line=fault.line, column=1))
            self.after_lost = lost.pending is not None or failed
            failed = False
            if self.after_lost and games and games[-1].roll is not None:
                games[-1].roll = None  # (its move was on the line that could not be read)
            if kind not in _HEADER_KINDS and lost.pending is not None:
                if not games or games[-1].result is not None or _played_out(games[-1]):
                    # actions after a game's end (or before any game) and a line that
                    # could not be read before them: that line was their Game: line
                    self.game_starts(len(games) + 1, None, lost.pending.line)
                    if games:
                        self.finish(games)
                    games.append(_GameState(line=lost.pending.line, column=1))
                lost.pending = None
            if kind == "comment":
                comments.append(line.values[0])
            elif kind == "length":
                length = line.values[0]
            elif kind == "player" and line.color is not None:
                names[line.color] = line.values[0]
            elif kind == "rank" and line.color is not None:
                tags.append((f"Player {line.color + 1} Rank", line.values[0]))
            elif kind == "location":
                tags.append(("Site", line.values[0]))
            elif kind == "rule":
                crawford = crawford or line.values[0].lower() == "crawford"
            elif kind == "game":
                self.game_starts(len(games) + 1, line.pos, line.line)
                if games:
                    self.finish(games)
                lost.pending = None
                try:
                    games.append(self.new_game(line))
                except NotationError as err:
                    # its set-up cannot be read: the game is kept, not replayed (the
                    # verifier leaves the actions after an unread line unverified)
                    keep_fault(self.faults, err)
                    games.append(_GameState(line=line.line, column=1))
            else:
                try:
                    if not games:
                        msg = f"'{kind.capitalize()}' before the first 'Game:' line"
                        raise self._fail_at(msg, line.pos, line)
                    self.action(games[-1], line)
                    self.counted(games)
                except NotationError as err:
                    keep_fault(self.faults, err)
                    failed = True
        lost.before(len(self.source) + 1)  # (lines after the last one read)
        if lost.pending is not None and games and games[-1].roll is not None:
            games[-1].roll = None  # (its move was on the line that could not be read)
        if games:
            self.finish(games)
        tags = [("Player 1", names[0]), ("Player 2", names[1]), *tags]
        if length:
            tags.append(("Crawford", "On" if crawford else "Off"))
        return Match(
            (names[0], names[1]),
            length,
            tuple(self.games(games, length)),
            tuple(tags),
            tuple(comments),
            source_name=self.source_name,
        )

    def games(self, states: list[_GameState], length: int) -> list[Game]:
        """Number the games and give each its score (the set-up score or the running sum)."""
        out: list[Game] = []
        score = (0, 0)
        for i, state in enumerate(states):
            if state.score is not None:
                score = state.score
            result = state.result
            if result is not None and length:
                won = score[result.winner] + result.points >= length
                result = replace(result, match_won=won)
            out.append(
                Game(
                    i + 1,
                    score,
                    tuple(state.actions),
                    result,
                    state.setup,
                    line=state.line,
                    column=state.column,
                )
            )
            if result is not None:
                s = list(score)
                s[result.winner] += result.points
                score = (s[0], s[1])
        return out

    def new_game(self, line: _Line) -> _GameState:
        state = _GameState(line=line.line, column=line.column)
        setups = {name: (pos, values) for name, pos, values in line.values}
        if "scores" in setups:
            pos, values = setups["scores"]
            if len(values) != 2 or min(values) < 0:
                raise self._fail_at("Scores{} needs two numbers", pos, line)
            state.score = (values[0], values[1])
        cube = 1
        if "cube" in setups:
            pos, values = setups["cube"]
            if len(values) != 1 or values[0] < 1 or values[0] & (values[0] - 1):
                raise self._fail_at("Cube{} needs one power of two", pos, line)
            cube = values[0]
        state.cube = cube
        if "points" in setups or cube > 1:
            state.setup = self.setup(setups, cube, line)
        return state

    def setup(self, setups: dict[str, tuple[int, tuple[int, ...]]], cube: int, line: _Line) -> str:
        """XG's ``Set Pos`` text: index i is White's point i (25 its bar, 0 Black's bar)."""
        pos, values = setups.get("points", (0, ()))
        if not values:  # the standard start with a turned cube
            values = (
                0,
                -2,
                0,
                0,
                0,
                0,
                5,
                0,
                3,
                0,
                0,
                0,
                -5,
                5,
                0,
                0,
                0,
                -3,
                0,
                -5,
                0,
                0,
                0,
                0,
                2,
                0,
            )
        if len(values) != 26:
            raise self._fail_at(f"Points{{}} needs 26 numbers, not {len(values)}", pos, line)
        cells = [0] * 26
        for i in range(1, 25):
            cells[i] = values[i]
        for bar in (values[0], values[25]):  # Gibbon's bar[0], bar[1]: the sign tells whose
            if bar > 0:
                cells[25] += bar
            elif bar < 0:
                cells[0] += bar
        letters = []
        for count in cells:
            if abs(count) > 15:
                raise self._fail_at(
                    f"Points{{}} puts {abs(count)} checkers on one point", pos, line
                )
            letters.append(
                "-" if not count else chr((ord("A") if count > 0 else ord("a")) + abs(count) - 1)
            )
        owner = 0
        if cube > 1:
            may = setups.get("may-double", (pos, (1, 1)))[1]
            if len(may) == 2 and may[0] != may[1]:
                owner = -1 if may[0] else 1  # only player 0 may double: player 0 owns it
        exponent = cube.bit_length() - 1
        return "".join(letters) + f"/{owner * exponent}"

    def action(self, game: _GameState, line: _Line) -> None:
        if game.result is not None:
            raise self._fail_at(
                f"'{line.kind.capitalize()}' after the game has ended", line.pos, line
            )
        color = line.color
        where: dict[str, Any] = {"line": line.line, "column": line.column}
        if line.kind == "roll":
            self.pending_roll(game)
            if color is None and line.values[0] == line.values[1]:
                return  # an opening double is rerolled
            game.roll = (color, line.values, (line.line, line.column))  # (values: the dice)
            return
        if color is None:
            raise self._fail_at(
                f"'{line.kind.capitalize()}' needs a colour, W or B", line.pos, line
            )
        if line.kind == "move":
            dice: tuple[int, int] | None = None
            if game.roll is not None and game.roll[0] in (None, color):
                dice = game.roll[1]
                game.roll = None
            if dice is None and self.after_lost:
                return  # its roll was on the line before, which could not be read
            if dice is None:
                raise self._fail_at("a move without a roll before it", line.pos, line)
            game.actions.append(Move(color, dice, self.play(color, line), **where))
            return
        if line.kind in ("double", "take", "drop"):
            self.pending_roll(game)
        # a resignation may come between a roll and its move
        if line.kind == "double":
            game.cube = self.doubled(game.cube, line)
            game.actions.append(Double(color, game.cube, **where))
        elif line.kind == "take":
            game.actions.append(Take(color, **where))
        elif line.kind == "drop":
            game.actions.append(Drop(color, **where))
            game.result = Result(
                1 - color, game.cube // 2 or 1, line=where["line"], column=where["column"]
            )
        elif line.kind == "resign":
            game.resign = (color, line.values[0])
        elif line.kind == "reject":
            game.resign = None
        elif line.kind == "accept" and game.resign is not None:
            loser, points = game.resign
            game.result = Result(1 - loser, points, line=where["line"], column=where["column"])
            game.resign = None

    def pending_roll(self, game: _GameState) -> None:
        """A roll that no move follows: a move whose play is unknown."""
        if game.roll is not None and game.roll[0] is not None:
            color, dice, (at, column) = game.roll
            assert color is not None
            game.actions.append(Move(color, dice, None, line=at, column=column))
        game.roll = None

    def play(self, color: int, line: _Line) -> Play:
        """The play of a move line, one :class:`Play` for every move written alike."""
        if line.values:
            first = line.values[0][2]
            check_play_steps(len(line.values), self.source, first, self.source_name)
        key = (color, *[(src, dst) for src, dst, _pos in line.values])
        play = self.made.get(key)
        if play is None:
            play = self.made[key] = self._play(color, line)
        return play

    def _play(self, color: int, line: _Line) -> Play:
        steps = []
        for src, dst, _token in line.values:
            a = BAR if src == -1 else OFF if src == -2 else src
            b = BAR if dst == -1 else OFF if dst == -2 else dst
            if color == 1:  # Black's points are White's numbers
                a = a if a in (BAR, OFF) else 25 - a
                b = b if b in (BAR, OFF) else 25 - b
            # (a step away from home is kept as written: the verifier reports it, a rule
            # break of the player, not a line that cannot be read)
            steps.append(Step(a, b))
        return Play(steps)

    def counted(self, games: list[_GameState]) -> None:
        """Refuse the last game of ``games`` when it has more actions than
        ``max_game_actions``, at the first past it (each action line is counted as it
        is read, and a roll without a move when the next line makes it an action).

        :raises LimitError: naming ``max_game_actions``.
        """
        actions, most = games[-1].actions, active().max_game_actions
        if len(actions) > most:
            line = _Placed.of(self.source, actions[most])
            self.game_acts(most + 1, len(games), line)

    def finish(self, games: list[_GameState]) -> None:
        """End the last game of ``games``: its roll without a move, its result."""
        game = games[-1]
        self.pending_roll(game)
        self.counted(games)
        if game.result is None:
            game.result = _played_out(game)


_HEADER_KINDS = frozenset({"comment", "length", "player", "rank", "location", "rule", "game"})
_GAME_LINE = re.compile(r"[ \t]*game\b", re.IGNORECASE)


def _played_out(game: _GameState) -> Result | None:
    """The result of a game played to the last checker, by replaying it; else ``None``."""
    from bgkit.formats.mat import parse_set_pos
    from bgkit.position import Position

    moves = [a for a in game.actions if isinstance(a, Move)]
    if not moves or moves[-1].play is None:
        return None
    try:
        turn = game.actions[0].player
        if game.setup is not None:
            pos = parse_set_pos(game.setup, turn=turn)
        else:
            pos = Position.initial(turn=turn)
        for action in game.actions:
            if isinstance(action, Move):
                if pos.turn != action.player:
                    pos = pos.swap_turn()
                assert action.play is not None
                pos = pos.with_dice(*action.dice).apply(action.play)
            elif isinstance(action, Double):
                pos = pos.double() if pos.turn == action.player else pos.swap_turn().double()
            elif isinstance(action, Take):
                pos = pos.take()
        result = pos.game_result()
    except (BgkitError, AssertionError):
        return None
    if result is None:
        return None
    winner, _kind, points = result
    return Result(winner, points)
