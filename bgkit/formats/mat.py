"""Read and write ``.mat`` match records (Jellyfish's format, as GNU Backgammon writes it).

The syntax lives in ``grammars/mat.lark``; this module turns the parse tree into
:mod:`bgkit.records` values and writes them back.

>>> match = parse_mat('''
...  3 point match
...
...  Game 1
...  Ann Lee : 0                    Bo : 0
...   1)                             31: 8/5 6/5
...   2) 52: 13/8 13/11              64: 24/14*
...   3)  Doubles => 2                Drops
...       Wins 1 point
... ''')
>>> match
<Match ('Ann Lee' vs. 'Bo', 3-pt, 1 game)>
>>> [type(a).__name__ + str(a.player) for a in match.games[0].actions]
['Move1', 'Move0', 'Move1', 'Double0', 'Drop1']
>>> match.games[0].actions[2].play
Play('24/14*')
>>> parse_mat(dumps_mat(match)) == match
True

**What is accepted.** Every dialect of the corpus in ``data/real/mat``: a UTF-8 BOM, CRLF
line ends, trailing blanks, tabs, ``; [Tag "value"]`` header tags and any other ``;`` or
``#`` comment lines (boxed banners, BGNJ's ``; [Game 1, Move 1: Dice set to ...]``,
trailing notes), ``N point match`` with or without a leading space (``0`` = money
session), names with spaces, empty names and GridGammon's ``name,rating``, move numbers
written any way, rolls in the order rolled (``14:``), plays with numbers or words for the
bar and off (``25/21``, ``bar/21``, ``6/0``, ``6/Off``), compact plays (``13/11(4)``,
``bar/15*(2)``, ``24/20*/16``, ``22/13`` for one checker moving both dice), parts
separated by commas, ``Cannot Move`` (or ``-``, ``(no move)``), ``???``/``????`` for an
unknown play, the cube words and their synonyms (``Redoubles``, ``Accepts``, ``Passes``,
``Rejects``, ``Refuses``, ``Beavers``, ``Raccoons``), ``Wins N point(s) [and the match]``
anywhere on a line, BackgammonGalaxy's ``Losses N point`` lines and its second move number
in mid-line, a ``Resigns`` cell in the column of the player who resigns (no action: it
tells who a ``Wins`` line in no column credits), a left column that overflows into the
right one, and XG's ``; Set Pos=`` lines. A step away from home (``6/8``) is kept as
written: it is a rule break, the verifier's to report.

**Comments.** Comment lines before ``N point match``, and after a game's result, are the
match's :attr:`~bgkit.records.Match.comments`. A comment line inside a game goes with the
action written just before it (before the first action: with the game), as SGF's ``C``
annotation (lines after the same action joined), and :func:`dumps_mat` writes it back
after that action's line, so comments keep their place through ``.mat``, SGF and JSON.

**How cells are given to players.** A move line holds at most one action per column.
When a line holds two actions, the first is the left player's and the second the right
player's, wherever they stand (so an overflowing left play is harmless). A lone action
belongs to the right player when it starts at or after the right column, else to the
left player. The right column starts where the score line's second name starts (clamped
to columns 8-33, so that a long first name or a wide XG layout cannot mislead);
columns are measured from the move number's ``)``, with tabs expanded to multiples of 8.
``Wins`` and ``Losses`` are placed by their column the same way; a ``Wins`` written at the
very start of a line (a JavaFIBS habit) goes to the player the record implies: the other
player after a ``Drops`` or an unknown play, else the player who acted last.

**What is not read**: a missing or broken score line (the game is left out), dice
outside 1-6, points above 25, a repeat count outside 1-4, more than two actions on one
line, a second ``Wins`` (or ``Losses``) line, a result in no column in a game without
actions, a misplaced or malformed ``; Set Pos=``, and any other text the grammar does not
know. Each such line is a :class:`~bgkit.records.ReadError` in
:attr:`~bgkit.records.Match.read_errors` (line, column, the reason, the move and the
player whose column it stands in), which the verifier reports, and the rest of the record
is read (``strict=True`` raises at the first instead), up to 1,000 such lines: then one
more error says that the rest of the file is not read. The record is rejected
(:class:`~bgkit.errors.NotationError` with file, line, column and the line shown with a
caret) when nothing of it is a record: anything before ``N point match`` that is not a
comment, or ``N point match`` itself broken; and when a number has more than nine digits
or another limit is passed (:mod:`bgkit.limits`: the games of a record too, counted at
each ``Game N`` line).

**What is left to the verifier.** Whether the plays, cube actions and results are legal:
the parser keeps what is written (a play that uses the wrong dice, a ``Wins`` that does
not match the cube) and only checks the notation.

:func:`dumps_mat` writes GNU Backgammon's layout exactly (its ``export match mat``),
so gnubg can import the output; see its docstring.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import IO, TYPE_CHECKING, Any, NoReturn, TypeVar, cast

from bgkit.errors import BgkitError, LimitError, NotationError
from bgkit.fileio import write_atomic
from bgkit.formats import source_text
from bgkit.formats._ratings import rating_tags
from bgkit.limits import (
    AS_READ,
    active,
    check_game_actions,
    check_games,
    check_integer,
    check_name,
    check_play_steps,
    check_text,
)
from bgkit.play import Play, Step, _StepError, part_steps
from bgkit.records import (
    Action,
    Annotations,
    Beaver,
    Double,
    Drop,
    Game,
    Match,
    Move,
    Raccoon,
    ReadError,
    Result,
    Take,
    new_move,
)

if TYPE_CHECKING:
    from lark import Lark, Token, UnexpectedInput

    from bgkit.position import Position

__all__ = ["dumps_mat", "parse_mat", "parse_set_pos", "read_mat", "write_mat"]

_T = TypeVar("_T")

# The right column's start is taken from the score line but kept in this range: left
# cells start right after the move number, right cells at column 33 (gnubg) or later.
_MIN_RIGHT_COLUMN = 8
_MAX_RIGHT_COLUMN = 33
# A result written before this column (relative to a move number's ")") has no column.
_FIRST_CELL_COLUMN = 4


# ---------------------------------------------------------------------------- reading


def parse_mat(text: str, *, source_name: str | None = None, strict: bool = False) -> Match:
    """Read a ``.mat`` record from a string.

    A line that cannot be read does not cost the rest: it becomes a located
    :class:`~bgkit.records.ReadError` in the match's
    :attr:`~bgkit.records.Match.read_errors` (which the verifier reports), and every other
    line is read.

    >>> match = parse_mat(" 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 27: 8/1\\n")
    >>> error, = match.read_errors
    >>> error.line, error.column, error.message, error.move, error.player
    (4, 6, "dice must be 1-6: '27'", 1, 0)

    :param source_name: the file name, used in error messages and kept on the match.
    :param strict: raise at the first line that cannot be read instead.
    :raises NotationError: when the text is not a ``.mat`` record: nothing up to its
        ``N point match`` line can be read (see the module docstring for what is
        accepted); with ``strict``, at the first line that cannot be read.

    >>> parse_mat(" 0 point match\\n").is_money
    True
    >>> parse_mat(" 3 pt match\\n", source_name="x.mat")
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: x.mat:1:4: expected 'N point match', found 'pt'
         3 pt match
           ^
    """
    source = _normalise(text)
    check_text(source, source_name)
    with _BUILDING:
        _BUILDER.start(source, source_name)
        try:
            fast = _read_fast(source)
            if fast is not None:
                return fast
            from lark import UnexpectedInput  # (a record of gnubg's lines needs no Lark)

            _BUILDER.start(source, source_name)
            try:
                match = parser("mat", transformer=_BUILDER).parse(source)
            except UnexpectedInput as err:
                first = _syntax_error(err, source, source_name)
            except _StepError as err:
                first = NotationError(err.msg, source, err.pos, source_name=source_name)
            except LimitError:
                raise
            except NotationError as err:
                first = err
            else:
                assert isinstance(match, Match)  # what the builder's "mat" rule returns
                return match
            if strict:
                raise first
            # a line the grammar cannot read: read the record again line by line
            _BUILDER.start(source, source_name, lenient=True)
            return _read_by_lines(source, first)
        finally:
            _BUILDER.start("", None)


def read_mat(
    source: str | os.PathLike[str] | IO[str] | IO[bytes],
    *,
    encoding: str | None = None,
    strict: bool = False,
) -> Match:
    """Read a ``.mat`` record from a file path or an open file (text or binary).

    Bytes are decoded as UTF-8 (a BOM is dropped); a file that is not valid UTF-8 is
    decoded as Windows-1252, the code page old Windows programs wrote names in, and
    failing that as Latin-1 (which never fails). Pass ``encoding`` to decode strictly
    with another codec instead.

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when the text is not a ``.mat`` record (with ``strict``: at
        the first line that cannot be read; see :func:`parse_mat`).
    :raises UnicodeDecodeError: when ``encoding`` is given and does not fit.
    """
    text, name = source_text(source, encoding=encoding)
    return parse_mat(text, source_name=name, strict=strict)


def _normalise(text: str) -> str:
    """Drop a BOM, turn CR LF (and lone CR) into LF, end with LF; offsets stay line-true."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.endswith("\n"):
        text += "\n"
    return text


_DICE = {f"{d1}{d2}": (d1, d2) for d1 in range(1, 7) for d2 in range(1, 7)}
_TAG = re.compile(r';[ \t]*\[(?P<key>[^"]*)"(?P<value>.*)"\][ \t]*$')
_SET_POS = re.compile(r";[ \t]*set[ \t]+pos[ \t]*=(?P<value>.*)$", re.IGNORECASE)
_SET_POS_VALUE = re.compile(r"(?P<board>[-A-Pa-p]{26})/(?P<cube>-?[0-9]{1,2})")


# Longer digit runs are no numbers a record can mean (and int() refuses > 4300 digits).


_RESULTS = frozenset({"wins", "losses", "resigns"})
"""The kinds of :class:`_Cell` that end a game (the others are its actions)."""


@dataclass(slots=True)
class _Cell:
    """An action before its player is known."""

    kind: str
    args: tuple[Any, ...]
    token: Token
    column: int  # 0-based visual column, shifted so that ")" stands at column 3

    @property
    def is_result(self) -> bool:
        return self.kind in ("wins", "losses")


@dataclass(slots=True)
class _Segment:
    """A move number and the actions after it (``number`` is None on a continuation).

    A line of plays read at once (:meth:`_MatBuilder.plays`) has its moves built already:
    ``ready`` holds them (in column order, each with its player) and ``value`` the number.
    """

    number: Token | None
    cells: list[_Cell]
    ready: list[Action] | None = None
    value: int = 0


@dataclass(slots=True)
class _ScoreLine:
    names: tuple[str, str]
    scores: tuple[int, int]
    right_column: int
    places: tuple[tuple[int, int], ...]


@dataclass(slots=True)
class _SetPos:
    value: str
    token: Token


@dataclass(slots=True)
class _Comment:
    text: str
    line: int = 0


@dataclass(slots=True)
class _GameItem:
    game: Game
    comments: list[_Comment]
    names: tuple[str, str]


@dataclass(slots=True)
class _GameHead:
    """A ``Game N`` line read on its own (line by line)."""

    word: Token
    number: Token


class _LineFault(Exception):
    """A fault in one line, raised by the builder while the record is read line by line."""

    def __init__(self, msg: str, line: int, column: int) -> None:
        super().__init__(msg)
        self.msg, self.line, self.column = msg, line, column


@dataclass(slots=True)
class _Tag:
    key: str
    value: str


def _inline_rules(cls: type[_T]) -> type[_T]:
    """Lark's ``v_args(inline=True)`` without Lark: the parser, given an object as its
    transformer, calls each rule's method with the rule's children as arguments when the
    method's ``visit_wrapper`` says so; the fast path calls the same methods directly."""
    for name, value in vars(cls).items():
        if callable(value) and not name.startswith("_"):
            value.visit_wrapper = _children_inline
    return cls


def _children_inline(method: Any, _rule: str, children: list[Any], _meta: Any) -> Any:
    return method(*children)


@_inline_rules
class _MatBuilder:
    """Builds :class:`Match` from the tree; rule and alias names as in ``mat.lark`` (the
    parser's transformer: it runs the rules as it parses)."""

    def __init__(self) -> None:
        self.start("", None)

    def start(self, source: str, source_name: str | None, *, lenient: bool = False) -> None:
        """Get ready to build the record in ``source`` (the parser calls the rules).

        :param lenient: a fault in a line is recorded (:attr:`faults`) instead of raised,
            for the line-by-line reading; a game-wide fault (a second ``Wins`` line...)
            drops what it concerns and the game is built from the rest.
        """
        self.source = source
        self.source_name = source_name
        # (columns are counted with tabs expanded, from the line's text before a token)
        self._tabs = "\t" in source
        self._max_steps = active().max_play_steps  # (check_play_steps says why it refuses)
        self._limits = active()
        self.started = 0  # the games started so far (their Game lines)
        self._pending = False  # a Game line counted whose score line is still to come
        self._ordinal = 0  # the game whose actions are being counted (its ordinal)
        self._actions = 0  # the actions of that game read so far (max_game_actions)
        self._max_actions = self._limits.max_game_actions
        self.ratings: dict[str, str] = {}  # (GridGammon's "name,rating": rating_tags)
        self.faults: list[ReadError] | None = [] if lenient else None
        self.right = _MAX_RIGHT_COLUMN  # the right column of the game being read
        self.numbers: dict[int, int] = {}  # (lenient) line -> the move number it is under
        self.line_starts: list[int] = []  # (lenient) the offset of each line

    # -- helpers

    def _fail(self, msg: str, token: Token) -> NoReturn:
        if self.faults is not None:
            raise _LineFault(msg, token.line or 0, token.column or 0)
        raise NotationError(msg, self.source, token.start_pos or 0, source_name=self.source_name)

    def _complain(self, msg: str, token: Token) -> None:
        """A fault of a game built from its lines: raised, or recorded when lenient (the
        caller then drops what it concerns)."""
        if self.faults is None:
            self._fail(msg, token)
        self.fault(msg, token.line or 0, token.column or 0)

    def fault(self, msg: str, line: int, column: int) -> None:
        """Record a fault at ``line`` and ``column`` (1-based), with its move and player."""
        assert self.faults is not None
        start = self._line_start(line)
        text = self.source[start : self.source.find("\n", start)] if line else ""
        move, player = _place(text, column, self.right, self.numbers.get(line, 0))
        self.faults.append(ReadError(line, column, msg, move, player))

    def _begin_game(self, word: Token) -> None:
        """Count the game whose ``Game`` word is ``word``, refusing it past ``max_games``
        (each reading calls it as a game starts, so that the games past the limit are
        not read).

        :raises LimitError: naming ``max_games``, at ``word``.
        """
        self.started += 1
        self._pending = True
        if self.started > self._limits.max_games:
            check_games(
                self.started, self.source, word.start_pos or 0, self.source_name, self._limits
            )

    def _act(self, pos: int) -> None:
        """Count an action of the game being read (its token at ``pos``), refusing it past
        ``max_game_actions`` (as each is read: a game's cells are held until it ends).

        :raises LimitError: naming ``max_game_actions``, at the action.
        """
        self._actions += 1
        if self._actions > self._max_actions:
            check_game_actions(
                self._actions, self._ordinal, self.source, pos, self.source_name, self._limits
            )

    def _line_start(self, line: int) -> int:
        return self.line_starts[line - 1] if 0 < line <= len(self.line_starts) else 0

    def _column(self, token: Token) -> int:
        """0-based visual column of ``token`` (tabs expanded to multiples of 8)."""
        col = (token.column or 1) - 1
        start = token.start_pos
        if not self._tabs or start is None:
            return col
        before = self.source[start - col : start]  # (the line up to the token: the whole
        # text split into lines held 20 bytes per byte of a record of blank lines)
        return len(before.expandtabs(8)) if "\t" in before else col

    def _int(self, token: Token, digits: str | None = None) -> int:
        """The number ``digits`` (default: the token's text), refusing absurd lengths."""
        text = str(token) if digits is None else digits
        check_integer(text, self.source, token.start_pos or 0, self.source_name)
        return int(text)

    def _cell(self, kind: str, token: Token, *args: Any) -> _Cell:
        if kind not in _RESULTS:
            self._act(token.start_pos or 0)
        return _Cell(kind, args, token, self._column(token))

    # -- header

    def tag(self, token: Token) -> _Tag:
        m = _TAG.match(str(token))
        assert m is not None  # the TAG terminal has this shape
        return _Tag(m["key"].strip(), m["value"])

    def comment(self, token: Token) -> _Comment:
        text = str(token)[1:]
        if text.startswith(" "):
            text = text[1:]
        return _Comment(text.rstrip(), token.line or 0)

    def match_length(self, number: Token, _points: Token, _match: Token) -> int:
        return self._int(number)

    # -- games

    def player(self, name: Token | None, rating: Token | None) -> tuple[str, Token | None]:
        # as GNU Backgammon: surrounding blanks go, tabs inside become spaces
        text = "" if name is None else str(name).strip().replace("\t", " ")
        if name is not None:
            check_name(text, self.source, name.start_pos or 0, self.source_name)
        if rating is not None:
            self.ratings.setdefault(text, str(rating)[1:].strip())
        return (text, name)

    def score_line(
        self,
        player0: tuple[str, Token | None],
        _colon0: Token,
        score0: Token,
        player1: tuple[str, Token | None],
        colon1: Token,
        score1: Token,
    ) -> _ScoreLine:
        name_token = player1[1]
        right = self._column(name_token) if name_token is not None else self._column(colon1) - 1
        right = max(_MIN_RIGHT_COLUMN, min(_MAX_RIGHT_COLUMN, right))
        self.right = right
        # the game's actions are counted from here (the Lark parse counts a game as it ends)
        self._ordinal = self.started if self._pending else self.started + 1
        self._pending, self._actions = False, 0
        places = tuple((t.line or 0, t.column or 0) for t in (score0, score1))
        return _ScoreLine(
            (player0[0], player1[0]), (self._int(score0), self._int(score1)), right, places
        )

    def set_pos(self, token: Token) -> _SetPos:
        m = _SET_POS.match(str(token))
        assert m is not None  # the SET_POS terminal has this shape
        value = m["value"].strip()
        if not _SET_POS_VALUE.fullmatch(value):
            self._fail(
                "a '; Set Pos=' line needs 26 position characters (-, A-P, a-p), '/' and "
                f"the cube: {value!r}",
                token,
            )
        return _SetPos(value, token)

    def _dice(self, token: Token) -> tuple[int, int]:
        dice = _DICE.get(token[:2])
        if dice is None:
            self._fail(f"dice must be 1-6: '{token[:2]}'", token)
        return dice

    def move(self, dice: Token, *parts: Token) -> _Cell:
        return self._move(dice, [(str(part), part.start_pos or 0) for part in parts])

    def _move(self, dice: Token, parts: Sequence[tuple[str, int]]) -> _Cell:
        """The cell of a roll and its play's parts (each with its offset in the source)."""
        steps: list[Step] = []
        # each part is at least one step: refuse a long play before expanding it
        if len(parts) > self._max_steps:
            check_play_steps(len(parts), self.source, parts[0][1], self.source_name)
        for part, pos in parts:
            try:
                steps += part_steps(part)
            except _StepError as err:
                try:  # a hop away from home ("6/8") is a rule break, for the verifier
                    steps += part_steps(part, backwards=True)
                except _StepError:
                    raise _StepError(err.msg, pos + err.pos) from None
        if len(steps) > self._max_steps:  # a repeat count can make one part several steps
            check_play_steps(len(steps), self.source, parts[0][1], self.source_name)
        self._act(dice.start_pos or 0)
        return _Cell("move", (self._dice(dice), Play(steps)), dice, self._column(dice))

    def cannot_move(self, dice: Token, _words: Token) -> _Cell:
        return self._cell("move", dice, self._dice(dice), Play())

    def unknown_move(self, dice: Token, _marks: Token) -> _Cell:
        return self._cell("move", dice, self._dice(dice), None)

    def double(self, word: Token, value: Token) -> _Cell:
        return self._cell("double", word, self._int(value))

    def take(self, word: Token) -> _Cell:
        return self._cell("take", word)

    def drop(self, word: Token) -> _Cell:
        return self._cell("drop", word)

    def beaver(self, word: Token, value: Token) -> _Cell:
        return self._cell("beaver", word, self._int(value))

    def raccoon(self, word: Token, value: Token) -> _Cell:
        return self._cell("raccoon", word, self._int(value))

    def wins(self, word: Token, points: Token, _unit: Token, match: Token | None) -> _Cell:
        return self._cell("wins", word, self._int(points), match is not None)

    def losses(self, word: Token, points: Token, _unit: Token) -> _Cell:
        return self._cell("losses", word, self._int(points))

    def resigns(self, word: Token) -> _Cell:
        return self._cell("resigns", word)

    def numbered(self, written: Token, *cells: _Cell) -> _Segment:
        return self._numbered(_strip_blanks(written), cells)

    def _numbered(self, number: Token, cells: Sequence[_Cell]) -> _Segment:
        """The segment of a move number (without the blanks after it) and its cells."""
        # Measure the cells from the number's ")", which gnubg writes at column 3.
        shift = self._column(number) + len(number) - 1 - 3
        if shift:
            for cell in cells:
                cell.column -= shift
        return _Segment(number, list(cells))

    def row(self, *segments: _Segment) -> list[_Segment]:
        return list(segments)

    def plays(self, rows: Token) -> list[_Segment]:
        """Lines of plays read as one token: a segment per line, as :meth:`numbered` makes.

        Most of a record is such lines, so each is taken apart with one regular expression
        (:data:`_ROW_CELLS`), and each play's text becomes its :class:`Play` once per
        record (:func:`_play_of`); a line that does not fit (none should: the token is
        made of the same terminals) is read piece by piece (:meth:`_plays_by_pieces`).
        """
        start = rows.start_pos or 0
        line = rows.line or 1
        line_start = start - (rows.column or 1) + 1  # offset of the line's first character
        segments: list[_Segment] = []
        max_steps = self._max_steps
        tabs = self._tabs
        right = self.right
        at, end = 0, len(rows)
        counted = self._actions
        while at < end:
            m = _ROW_CELLS.match(rows, at)
            if m is None:
                self._actions = counted  # (counted again piece by piece)
                return self._plays_by_pieces(rows)
            if not tabs and len(m[1]) <= 10:  # (a number of at most 9 digits, and its ")")
                ready = self._ready_row(m, start, line, line_start, right)
                if ready is not None:
                    segments.append(ready)
                    newlines = m[6]
                    line += newlines.count("\n")
                    line_start = start + m.start(6) + newlines.rindex("\n") + 1
                    at = m.end()
                    continue
            cells: list[_Cell] = []
            for group in (2, 4):
                dice_text = m[group]
                if dice_text is None:
                    break
                where = start + m.start(group)
                column = where - line_start + 1
                dice = _token("DICE", dice_text, where, line, column)
                written = m[group + 1].rstrip(" \t")
                play = _play_of(written) if len(written) <= _SHORT_PLAY else None
                if play is None or len(play.steps) > max_steps:
                    # a part that cannot be read, or a long play: part by part
                    parts = self._parts(rows, m.start(group + 1), m.end(group + 1), start)
                    cell = self._move(dice, parts)
                else:
                    roll = _DICE.get(dice_text[:2])
                    if roll is None:
                        self._fail(f"dice must be 1-6: '{dice_text[:2]}'", dice)
                    visual = self._column(dice) if tabs else column - 1
                    self._act(where)
                    cell = _Cell("move", (roll, play), dice, visual)
                cells.append(cell)
            where = start + at
            number = _token("LINENO", m[1], where, line, where - line_start + 1)
            segments.append(self._numbered(number, cells))
            newlines = m[6]
            line += newlines.count("\n")
            line_start = start + m.start(6) + newlines.rindex("\n") + 1
            at = m.end()
        return segments

    def _ready_row(
        self, m: re.Match[str], start: int, line: int, line_start: int, right: int
    ) -> _Segment | None:
        """The segment of a line of plays matched by :data:`_ROW_CELLS` (at ``start`` in the
        source, on ``line``, whose first character is at ``line_start``) with its moves
        built, as :meth:`numbered` and :meth:`_assign` would build them, or ``None`` when
        the line needs them (a play that is not cached, dice outside 1-6: faults to place).
        Only for lines without tabs, whose columns are the source's."""
        played: list[tuple[tuple[int, int], Play, int]] = []
        for group in (2, 4):
            dice_text = m[group]
            if dice_text is None:
                break
            written = m[group + 1].rstrip(" \t")
            play = _play_of(written) if len(written) <= _SHORT_PLAY else None
            roll = _DICE.get(dice_text[:2])
            if play is None or roll is None or len(play.steps) > self._max_steps:
                return None
            played.append((roll, play, start + m.start(group) - line_start + 1))
        number = int(m[1][:-1])
        for _roll, _play, column in played:
            self._act(line_start + column - 1)
        if len(played) == 2:
            (roll0, play0, column0), (roll1, play1, column1) = played
            ready: list[Action] = [
                new_move(0, roll0, play0, line, column0, number),
                new_move(1, roll1, play1, line, column1, number),
            ]
        else:
            ((roll, play, column),) = played
            # the cell's column measured from the number's ")" (gnubg writes it at column 3)
            shift = start + m.start(1) - line_start + len(m[1]) - 4
            player = 1 if column - 1 - shift >= right else 0
            ready = [new_move(player, roll, play, line, column, number)]
        return _Segment(None, [], ready, number)

    def _parts(self, rows: str, begin: int, end: int, offset: int) -> list[tuple[str, int]]:
        """The PART terminals in ``rows[begin:end]``, each with its offset in the source."""
        return [
            (piece[3], offset + begin + piece.start())
            for piece in _PLAYS_PIECES.finditer(rows[begin:end])
            if piece[3] is not None
        ]

    def _plays_by_pieces(self, rows: Token) -> list[_Segment]:
        """:meth:`plays` one terminal at a time (LINENO, DICE, PART, _NL)."""
        start = rows.start_pos or 0
        line = rows.line or 1
        line_start = start - (rows.column or 1) + 1  # offset of the line's first character
        number: Token | None = None
        dice: Token | None = None
        parts: list[tuple[str, int]] = []
        cells: list[_Cell] = []
        segments: list[_Segment] = []
        for piece in _PLAYS_PIECES.finditer(rows):
            at = start + piece.start()
            if piece[3] is not None:
                parts.append((piece[3], at))
            elif piece[2] is not None:
                if dice is not None:
                    cells.append(self._move(dice, parts))
                    parts = []
                dice = _token("DICE", piece[2], at, line, at - line_start + 1)
            elif piece[1] is not None:
                number = _token("LINENO", piece[1].rstrip(" \t"), at, line, at - line_start + 1)
            elif piece[4] is not None:  # the end of a line (and blank lines after it)
                if dice is not None:
                    cells.append(self._move(dice, parts))
                assert number is not None  # each line starts with a LINENO
                segments.append(self._numbered(number, cells))
                number, dice, parts, cells = None, None, [], []
                newlines = piece[4].count("\n")
                line += newlines
                line_start = at + piece[4].rindex("\n") + 1
        return segments

    def continuation(self, *cells: _Cell) -> list[_Segment]:
        return [_Segment(None, list(cells))]

    # -- one line at a time (mat.lark's line_* start rules, for _read_by_lines)

    def game_head(self, word: Token, number: Token) -> _GameHead:
        return _GameHead(word, number)

    def line_head(self, item: Any) -> Any:
        return item

    line_top = line_score = line_game = line_head

    def game(self, word: Token, number: Token, *items: Any) -> _GameItem:
        """The game rule of a whole-record parse (Lark's: its game is counted as it ends,
        its lines read; the other readings count a game at its ``Game`` line)."""
        self._begin_game(word)
        self._pending = False  # (its actions were counted from its score line)
        return self._game(word, number, *items)

    def _game(self, word: Token, number: Token, *items: Any) -> _GameItem:
        comments: list[_Comment] = []
        score: _ScoreLine | None = None
        setup: _SetPos | None = None
        segments: list[_Segment] = []
        for item in items:
            if isinstance(item, _Comment):
                comments.append(item)
            elif isinstance(item, _ScoreLine):
                score = item
            elif isinstance(item, _SetPos):
                if setup is not None:
                    self._complain("a second '; Set Pos=' line in one game", item.token)
                elif any(s.cells or s.ready for s in segments):
                    self._complain(
                        "'; Set Pos=' must come before the first move of the game", item.token
                    )
                else:
                    setup = item
            else:
                segments.extend(item)
        assert score is not None  # the grammar requires the score line
        actions, result, after = self._assign(segments, score.right_column)
        ended = result.line if result is not None and result.line else None
        after_end = [c for c in comments if ended is not None and c.line > ended]
        inside = [c for c in comments if ended is None or c.line <= ended]
        actions, notes = _place_comments(actions, inside)
        game = Game(
            self._int(number),
            score.scores,
            tuple(actions),
            result,
            None if setup is None else setup.value,
            line=word.line or 0,
            column=word.column or 0,
            annotations=notes,
            score_places=score.places,
            after_result=tuple(after),
        )
        return _GameItem(game, after_end, score.names)  # (after the result: the match's)

    def _assign(
        self, segments: Sequence[_Segment], right: int
    ) -> tuple[list[Action], Result | None, list[Action]]:
        """Give each cell its player (see the module docstring) and build the actions.

        Returns the actions before the result line, the result, and any actions written
        after it (a fault in the record, which the verifier reports).
        """
        actions: list[Action] = []
        after: list[Action] = []
        results: dict[str, tuple[_Cell, int | None]] = {}  # "wins"/"losses": (cell, side)
        resigned: int | None = None  # the player of a "Resigns" cell
        number = 0  # the last move number written: continuation lines keep it
        for segment in segments:
            if segment.ready is not None:  # (a line of plays, its moves built: most lines)
                number = segment.value
                (after if results else actions).extend(segment.ready)
                continue
            if segment.number is not None:
                number = self._int(segment.number, segment.number[:-1])
            plain = [c for c in segment.cells if not c.is_result]
            if len(plain) > 2:
                self._complain(
                    "more than two actions on one move line (one per column)", plain[2].token
                )
                continue  # (lenient: whose the actions are cannot be told)
            for cell in segment.cells:
                if cell.is_result:
                    if cell.kind in results:
                        word = "Wins" if cell.kind == "wins" else "Losses"
                        self._complain(f"a second '{word}' line in one game", cell.token)
                        continue
                    side: int | None = None  # at the very start of a line: no column
                    if cell.column >= right:
                        side = 1
                    elif cell.column >= _FIRST_CELL_COLUMN or segment.number is not None:
                        side = 0
                    results[cell.kind] = (cell, side)
                    continue
                if len(plain) == 2:
                    player = 0 if cell is plain[0] else 1
                else:
                    player = 1 if cell.column >= right else 0
                if cell.kind == "resigns":  # a mark, no action: the Wins line follows
                    resigned = player
                    continue
                (after if results else actions).append(_action(cell, player, number))
        return actions, self._result(actions, results, resigned), after

    def _result(
        self,
        actions: Sequence[Action],
        results: dict[str, tuple[_Cell, int | None]],
        resigned: int | None,
    ) -> Result | None:
        """The game's Result from its ``Wins`` line and/or Galaxy's ``Losses`` line."""
        if not results:
            return None
        cell, winner = results.get("wins") or results["losses"]
        if "wins" not in results and winner is not None:
            winner = 1 - winner  # only a Losses line: its side lost
        if winner is None:
            other = results.get("losses")
            if "wins" in results and other is not None and other[1] is not None:
                winner = 1 - other[1]
            elif resigned is not None:
                winner = 1 - resigned
            elif not actions:
                self._complain("cannot tell who wins: the result stands in no column", cell.token)
                return None
            else:
                winner = self._implied_winner(actions, cell)
        losses = results.get("losses")
        return Result(
            winner,
            cell.args[0],
            cell.kind == "wins" and cell.args[1],
            loser_points=None if losses is None else losses[0].args[0],
            line=cell.token.line or 0,
            column=cell.token.column or 0,
        )

    def _implied_winner(self, actions: Sequence[Action], cell: _Cell) -> int:
        """Who a result written in no column credits: the record's last action tells."""
        last = actions[-1]  # (a game without actions: see _result)
        if isinstance(last, Drop) or (isinstance(last, Move) and last.play is None):
            return 1 - last.player
        return last.player

    def mat(self, *items: Any) -> Match:
        tags: list[tuple[str, str]] = []
        comments: list[str] = []
        games: list[Game] = []
        length = 0
        players: tuple[str, str] | None = None
        for item in items:
            if isinstance(item, _Tag):
                tags.append((item.key, item.value))
            elif isinstance(item, _Comment):
                comments.append(item.text)
            elif isinstance(item, int):
                length = item
            else:
                assert isinstance(item, _GameItem)
                games.append(item.game)
                comments.extend(c.text for c in item.comments)
                if players is None:
                    players = item.names
        if players is None:
            found = dict(tags)
            # as a score line's names (see ``player``): blanks around go, tabs become spaces
            one, two = (found.get(f"Player {n}", "").strip().replace("\t", " ") for n in (1, 2))
            players = (one, two)
        return Match(
            players,
            length,
            tuple(games),
            tuple(rating_tags(players, self.ratings, tags)),
            tuple(comments),
            source_name=self.source_name,
        )


# Where each line of a record stands, and the start rule (mat.lark) that reads such a line.
_HEAD, _TOP, _SCORE, _GAME = "line_head", "line_top", "line_score", "line_game"
_NUMBER = re.compile(r"[ \t]*([0-9]{1,9})\)")


def _read_by_lines(source: str, first: NotationError) -> Match:
    """Read ``source`` line by line after a whole-record parse failed with ``first``: each
    line that cannot be read becomes a :class:`ReadError` of the match, and the rest is
    read as the whole-record parse would. Each line is parsed once.

    The record is unreadable (``first`` is raised) when its lines up to ``N point match``
    cannot be read: then nothing of it is a record. A game whose score line cannot be read
    is left out, with one error (its lines belong to no players). After
    :data:`~bgkit.formats._by_lines.MAX_FAULTS` lines that cannot be read, the rest of the
    record is not read (one more error says so), as in every text reader.
    """
    from lark import UnexpectedInput

    from bgkit.formats._by_lines import MAX_FAULTS, line_starts, too_many

    builder = _BUILDER
    assert builder.faults is not None
    starts = line_starts(source)[:-1]  # (the source ends with a line end)
    builder.line_starts = starts
    items: list[Any] = []  # the match's, in file order
    game: list[Any] | None = None  # the items of the game being read, from its Game line
    place = _HEAD
    number = 0
    previous = 0  # the last line read that is not blank
    unread = 0  # the lines that could not be read
    stopped: int | None = None  # the line where reading stopped after too many of them
    for index in range(len(starts) - 1):
        start, end = starts[index], starts[index + 1]
        text = source[start : end - 1]
        if not text.strip():
            continue
        line = index + 1
        written = _NUMBER.match(text)
        if written is not None:
            number = int(written[1])
        builder.numbers[line] = number
        if place == _TOP and game is not None and not _GAME_LINE.match(text):
            continue  # in a game whose score line could not be read
        if unread >= MAX_FAULTS:  # (each costs Lark's reading of its line: a record of
            # unreadable lines took 11 s for 4 MiB)
            stopped = line
            break
        try:
            item = _parse_line(source, start, end, line, place)
        except (UnexpectedInput, _LineFault, _StepError) as err:
            if place == _HEAD:
                raise first from None
            unread += 1
            if isinstance(err, UnexpectedInput):
                at, msg = _line_syntax(err, text, start)
                builder.fault(msg, line, at + 1)
            elif isinstance(err, _LineFault):
                builder.fault(err.msg, err.line, err.column)
            else:
                builder.fault(err.msg, line, err.pos - start + 1)
            if place == _SCORE:  # the game is lost: skip to the next Game line
                place = _TOP
            elif (
                place == _GAME
                and game is not None
                and len(builder.faults) > 1
                and builder.faults[-2].line == previous
                and _lost_game(source, start, end, line)
            ):
                # a score line after a line that could not be read: that was the Game line
                # of a new game, lost with it (one fault), up to the next Game line
                builder.faults.pop()
                unread -= 1
                items.append(_end_game(game))
                game, place = [], _TOP
            previous = line
            continue
        previous = line
        if isinstance(item, _GameHead):
            builder._begin_game(item.word)
            if game is not None and place == _GAME:
                items.append(_end_game(game))
            game, place, number = [item], _SCORE, 0
        elif isinstance(item, int):  # " N point match"
            items.append(item)
            place = _TOP
        elif game is None or place == _TOP:
            items.append(item)
        else:
            if isinstance(item, _ScoreLine):
                place = _GAME
            game.append(item)
    if place == _HEAD:
        raise first
    if game is not None:
        if place == _SCORE and stopped is None:  # a Game line and no score line before the end
            head = game[0]
            builder.fault(
                "expected a score line 'name : score   name : score', found the end of the file",
                head.word.line or 0,
                head.word.column or 0,
            )
        elif place == _GAME:
            items.append(_end_game(game))
    if stopped is not None:
        builder.faults.append(too_many(stopped))
    match = builder.mat(*items)
    return replace(match, read_errors=tuple(builder.faults))


# a line that starts a game (the line-by-line reading skips to it after a lost score line)
_GAME_LINE = re.compile(r"[ \t]*game[ \t]+[0-9]", re.IGNORECASE)


def _lost_game(source: str, start: int, end: int, line: int) -> bool:
    """Whether the line that could not be read as a game's line is a score line."""
    from lark import UnexpectedInput

    try:
        return isinstance(_parse_line(source, start, end, line, _SCORE), _ScoreLine)
    except (UnexpectedInput, _LineFault, _StepError):
        return False


def _end_game(items: list[Any]) -> _GameItem:
    head = items[0]
    return _BUILDER._game(head.word, head.number, *items[1:])


def _parse_line(source: str, start: int, end: int, line: int, rule: str) -> Any:
    """Parse the line ``source[start:end]`` (with its line end) with mat.lark's start rule
    ``rule``, its tokens placed in ``source``."""
    from bgkit.formats._by_lines import parse_slice

    return parse_slice(
        parser("mat", start=rule, transformer=_BUILDER), source, start, end, line, rule
    )


def _line_syntax(err: UnexpectedInput, text: str, start: int) -> tuple[int, str]:
    """The 0-based column in the line ``text`` (starting at ``start`` in the source) and the
    message of a syntax error in it."""
    pos, expected = _error_place(err, text, start)
    return _syntax_message(pos - start, expected, text + "\n")


def _place(text: str, column: int, right: int, number: int) -> tuple[int, int | None]:
    """The move number and the player (by column, as the reader gives cells to players) of
    a fault at the 1-based ``column`` of the line ``text``."""
    written = _NUMBER.match(text)
    shift = 0
    if written is not None:
        number = int(written[1])
        shift = len(text[: written.end()].expandtabs(8)) - 1 - 3  # ")" at column 3
    at = len(text[: column - 1].expandtabs(8)) - shift
    if written is not None and column <= written.end():
        return number, None  # the move number itself
    if at >= right:
        return number, 1
    return number, 0 if at >= _FIRST_CELL_COLUMN or written is not None else None


def _place_comments(
    actions: list[Action], comments: Sequence[_Comment]
) -> tuple[list[Action], Annotations]:
    """A game's comment lines on the action written just before each (as SGF's ``C``, one
    text per action, lines joined), or on the game when no action comes before. (Comment
    lines after the game's result stay the match's comments.)"""
    on_game: list[str] = []
    on_action: dict[int, list[str]] = {}
    if not comments:
        return list(actions), ()
    # the last action written on a line before each comment's: one sweep over both in
    # line order (a scan of the actions for each comment was quadratic in a long game)
    placed = sorted((a.line, k) for k, a in enumerate(actions) if a.line > 0)
    last_before: dict[int, int] = {}
    i, last = 0, -1
    for c in sorted(range(len(comments)), key=lambda c: comments[c].line):
        while i < len(placed) and placed[i][0] < comments[c].line:
            last = max(last, placed[i][1])
            i += 1
        last_before[c] = last
    for c, comment in enumerate(comments):
        if last_before[c] >= 0:
            on_action.setdefault(last_before[c], []).append(comment.text)
        else:
            on_game.append(comment.text)
    out = list(actions)
    for k, texts in on_action.items():
        out[k] = replace(out[k], annotations=(*out[k].annotations, ("C", ("\n".join(texts),))))
    return out, (("C", ("\n".join(on_game),)),) if on_game else ()


def _strip_blanks(token: Token) -> Token:
    """``token`` without the blanks its terminal takes after it (mat.lark: LINENO)."""
    return _token(token.type, token.rstrip(" \t"), token.start_pos, token.line, token.column)


class _Place(str):
    """A token made by this module (the fast path, a line of plays taken apart): its text,
    terminal and place, as the parser's tokens (Lark's ``Token``) give them."""

    __slots__ = ("column", "line", "start_pos", "type")
    type: str
    start_pos: int | None
    line: int | None
    column: int | None


def _token(kind: str, text: str, start: int | None, line: int | None, column: int | None) -> Token:
    """A token of terminal ``kind`` at offset ``start``, ``line`` and ``column``, without Lark
    (a record read by the fast path never loads Lark)."""
    token = _Place(text)
    token.type, token.start_pos, token.line, token.column = kind, start, line, column
    return cast("Token", token)


def parser(name: str, start: str | None = None, **options: Any) -> Lark:
    """:func:`bgkit._grammars.parser`, imported (with Lark) on first use."""
    from bgkit._grammars import parser as build

    return build(name, start, **options)


# The parser runs the builder's rules as it goes (no tree); records are read one at a time.
_BUILDER = _MatBuilder()
_BUILDING = threading.Lock()


# mat.lark's terminals that the fast path and the pieces of a PLAYS_ROWS token match, as
# Lark's parser compiles them (tests/test_mat_rows.py checks that they are the grammar's):
# reading a record of gnubg's lines needs no Lark.
_TERM_LINENO = "[0-9]+\\)[ \t]*"
_TERM_DICE = "[0-9][0-9]:[ \t]*"
_TERM_PART = (
    "(?i:(?:[0-9]+|bar|off)(?:[ \t]*\\/[ \t]*(?:[0-9]+|bar|off)(?:[ "
    "\t]*\\*)?)+(?:[ \t]*\\([ \t]*[0-9]+[ \t]*\\))?[ \t]*)"
)
_TERM_NL = "(?:\r?\n[ \t]*+)++"
_TERM_WHOLE_PART = _TERM_PART + "(?:(?<![0-9])|(?![0-9]))"
_ROWS_AT_ONCE = 64
"""Lines of plays one PLAYS_ROWS token holds at most (mat.lark's ``~1..64``): a game's
lines are read in runs of these, by the parser and the fast path alike."""
_TERM_PLAYS_ROWS = (
    f"(?:{_TERM_LINENO}(?:{_TERM_DICE}(?:{_TERM_WHOLE_PART}"
    f"(?:(?:,[ \t]*)?{_TERM_WHOLE_PART})*)?){{1,2}}{_TERM_NL}){{1,{_ROWS_AT_ONCE}}}"
)
_TERM_TAG = ';[ \t]*\\[[^\\]"\n]*"[^\n]*"\\][ \t]*(?=\n)'
_TERM_COMMENT = "[;#][^\n]*"
_TERM_SET_POS = "(?i:;[ \t]*Set[ \t]+Pos[ \t]*=[^\n]*)"
_TERM_NAME = "[^\\s:,;#](?:[^:\n,]|,(?![ \t]*[0-9]))*"


_PLAYS_PIECES = re.compile(
    "|".join(f"({piece})" for piece in (_TERM_LINENO, _TERM_DICE, _TERM_PART, _TERM_NL))
    + r"|,[ \t]*"
)
"""The terminals a PLAYS_ROWS token is made of (mat.lark), matched one after another:
LINENO (group 1), DICE (2), PART (3), _NL (4) or the comma between two parts."""


# A line of a PLAYS_ROWS token: LINENO (1) without its blanks, a DICE (2) and its parts (3),
# maybe a second DICE (4) and its parts (5), each part with the blanks after it, and the line
# end with the blank lines and the next line's leading blanks (6). The token is made of
# mat.lark's terminals, so a play's text holds no ":" and the first "NN:" after a roll is
# the second roll (the greedy parts give back its two digits).
_ROW_CELLS = re.compile(
    r"([0-9]+\))[ \t]*([0-9][0-9]:[ \t]*)([^:\n]*)"
    r"(?:([0-9][0-9]:[ \t]*)([^:\n]*))?(\n[\n \t]*)"
)


# ---------------------------------------------------------------------------- fast path
# A record whose every line is of the few kinds gnubg writes is read without Lark (not
# even imported): each line is matched here with mat.lark's own terminals (_TERM_*) and
# handed to the builder's rules in the order the parser would call them, with tokens
# at the same places. Any other line (a tab, a rating, a Set Pos line, a continuation
# that is not a lone Wins, a cell the parser might read otherwise...) or any fault the
# builder finds sends the whole record to the parser, which reads or reports it as ever.


@dataclass(frozen=True, slots=True)
class _Fast:
    """The patterns of the lines :func:`_read_fast` reads, each matched at a line's first
    non-blank character."""

    rows: re.Pattern[str]  # PLAYS_ROWS: lines of plays (and the blanks after them), at
    # most _ROWS_AT_ONCE of them: Python's regular expressions keep several KB of
    # backtracking state for each repeat of the group, so a game of 100,000 lines matched
    # at once took 740 MB (its segments are the same, read in runs)
    tag: re.Pattern[str]  # TAG
    comment: re.Pattern[str]  # COMMENT, not a Set Pos line
    length: re.Pattern[str]  # INT POINTS MATCH
    game: re.Pattern[str]  # GAME INT
    score: re.Pattern[str]  # NAME COLON INT NAME COLON INT (no rating, no empty name)
    number: re.Pattern[str]  # LINENO
    cell: re.Pattern[str]  # DICE [PART...], DOUBLES _TO INT, TAKES, DROPS, WINS INT POINTS
    wins: re.Pattern[str]  # WINS INT POINTS [AND_THE_MATCH], alone on its line


_FAST_END = r"[ ]*(?=\n)"  # (no tabs: _read_fast leaves a record with tabs to the parser)
_FAST = _Fast(
    rows=re.compile(_TERM_PLAYS_ROWS),  # (mat.lark's PLAYS_ROWS: _ROWS_AT_ONCE lines at most)
    tag=re.compile(_TERM_TAG),
    comment=re.compile(f"(?!{_TERM_SET_POS}){_TERM_COMMENT}"),
    length=re.compile(rf"([0-9]+)[ ]*(points?)[ ]*(match){_FAST_END}", re.IGNORECASE),
    game=re.compile(rf"(game)[ ]*([0-9]+){_FAST_END}", re.IGNORECASE),
    score=re.compile(f"({_TERM_NAME})(:)[ ]*([0-9]+)[ ]+({_TERM_NAME})(:)[ ]*([0-9]+){_FAST_END}"),
    number=re.compile(_TERM_LINENO),
    cell=re.compile(
        f"(?:({_TERM_DICE})((?:{_TERM_WHOLE_PART}(?:(?:,[ ]*)?{_TERM_WHOLE_PART})*)?)"
        r"|((?:re)?doubles)[ ]*(=>)[ ]*([0-9]+)(?![0-9])"
        r"|(takes|accepts)|(drops|passes|rejects|refuses)"
        r"|(wins)[ ]*([0-9]+)[ ]*(points?)(?:[ ]*(and[ ]+the[ ]+match))?)[ ]*",
        re.IGNORECASE,
    ),
    wins=re.compile(
        rf"(wins)[ ]*([0-9]+)[ ]*(points?)(?:[ ]*(and[ ]+the[ ]+match))?{_FAST_END}",
        re.IGNORECASE,
    ),
)
_HEAD_PLACE, _TOP_PLACE, _SCORE_PLACE, _GAME_PLACE = range(4)


def _read_fast(source: str) -> Match | None:
    """``source`` read as the parser would read it (see above), or ``None`` when a line is
    not of the kinds read here: the parser then reads the record. The builder must have
    been started on ``source`` (not lenient)."""
    if "\t" in source or "\r" in source:
        return None
    try:
        return _fast_lines(source)
    except LimitError as err:
        if err.limit in AS_READ:  # (see _begin_game, _act: the parser would raise it at
            # the same token)
            raise
        return None  # (the parser meets the limit again and places it)
    except (BgkitError, _StepError):  # (the parser meets the fault again and places it)
        return None


def _fast_lines(source: str) -> Match | None:
    fast, new, builder = _FAST, _token, _BUILDER
    items: list[Any] = []
    game: list[Any] = []
    head: tuple[Token, Token] | None = None
    place = _HEAD_PLACE
    pos, line, line_start, size = 0, 1, 0, len(source)
    while True:
        while pos < size and source[pos] in " \n":  # blanks and blank lines (mat.lark: _NL)
            if source[pos] == "\n":
                line += 1
                line_start = pos + 1
            pos += 1
        if pos >= size:
            break
        column = pos - line_start + 1
        if place == _GAME_PLACE:
            m = fast.rows.match(source, pos)
            if m is not None:
                text = m[0]
                game.append(builder.plays(new("PLAYS_ROWS", text, pos, line, column)))
                line += text.count("\n")
                line_start = pos + text.rindex("\n") + 1
                pos = m.end()
                continue
        m = fast.comment.match(source, pos)
        if m is not None:
            if place == _HEAD_PLACE:
                tag = fast.tag.match(source, pos)
                if tag is not None:
                    items.append(builder.tag(new("TAG", tag[0], pos, line, column)))
                    pos = tag.end()
                    continue
            comment = builder.comment(new("COMMENT", m[0], pos, line, column))
            (items if place in (_HEAD_PLACE, _TOP_PLACE) else game).append(comment)
            pos = m.end()
            continue
        if place == _HEAD_PLACE:
            m = fast.length.match(source, pos)
            if m is None:
                return None
            number = new("INT", m[1], pos, line, column)
            items.append(builder.match_length(number, cast("Token", m[2]), cast("Token", m[3])))
            place, pos = _TOP_PLACE, m.end()
            continue
        m = fast.game.match(source, pos)
        if m is not None:
            if place == _SCORE_PLACE:
                return None
            if head is not None:
                items.append(builder._game(*head, *game))
            head = (
                new("GAME", m[1], pos, line, column),
                _fast_token("INT", m, 2, line_start, line),
            )
            builder._begin_game(head[0])
            game, place, pos = [], _SCORE_PLACE, m.end()
            continue
        if place == _SCORE_PLACE:
            m = fast.score.match(source, pos)
            if m is None:
                return None
            t = [_fast_token("", m, k, line_start, line) for k in range(1, 7)]
            game.append(
                builder.score_line(
                    builder.player(t[0], None), t[1], t[2], builder.player(t[3], None), t[4], t[5]
                )
            )
            place, pos = _GAME_PLACE, m.end()
            continue
        if place != _GAME_PLACE:
            return None
        m = fast.wins.match(source, pos)
        if m is not None:
            t = [_fast_token("", m, k, line_start, line) for k in range(1, 5)]
            game.append(builder.continuation(builder.wins(t[0], t[1], t[2], t[3])))
            pos = m.end()
            continue
        row = _fast_row(source, pos, line, line_start)
        if row is None:
            return None
        game.append(row[0])
        pos = row[1]
    if place in (_HEAD_PLACE, _SCORE_PLACE):
        return None
    if head is not None:
        items.append(builder._game(*head, *game))
    match = builder.mat(*items)
    assert isinstance(match, Match)
    return match


def _fast_row(
    source: str, pos: int, line: int, line_start: int
) -> tuple[list[_Segment], int] | None:
    """A move line of cube actions and plays (``  9)  Takes      31: 14/11* 14/13``) as
    mat.lark's ``row`` with one ``numbered`` (its segments) and where it ends, or None."""
    builder, fast = _BUILDER, _FAST
    number = fast.number.match(source, pos)
    if number is None:
        return None
    cells: list[_Cell] = []
    at = number.end()
    while source[at] != "\n":
        m = fast.cell.match(source, at)
        if m is None:
            return None
        if m[1] is not None:  # a roll and its parts
            dice = _fast_token("DICE", m, 1, line_start, line)
            offset = m.start(2)
            parts = [
                (piece[3], offset + piece.start())
                for piece in _PLAYS_PIECES.finditer(m[2])
                if piece[3] is not None
            ]
            cells.append(builder._move(dice, parts))
        elif m[3] is not None:
            word, value = (_fast_token("", m, k, line_start, line) for k in (3, 5))
            cells.append(builder.double(word, value))
        elif m[6] is not None:
            cells.append(builder.take(_fast_token("TAKES", m, 6, line_start, line)))
        elif m[7] is not None:
            cells.append(builder.drop(_fast_token("DROPS", m, 7, line_start, line)))
        else:
            word, points, unit, whole = (
                _fast_token("", m, k, line_start, line) for k in range(8, 12)
            )
            cells.append(builder.wins(word, points, unit, whole))
        at = m.end()
    written = _token("LINENO", number[0], pos, line, pos - line_start + 1)
    return builder.row(builder.numbered(written, *cells)), at


def _fast_token(kind: str, m: re.Match[str], group: int, line_start: int, line: int) -> Token:
    """Group ``group`` of ``m`` as a token at its place (``None`` for a group not matched)."""
    text = m[group]
    if text is None:
        return None  # type: ignore[return-value]  # (an optional part: the rule's None)
    at = m.start(group)
    return _token(kind, text, at, line, at - line_start + 1)


_SHORT_PLAY = 80
"""Plays written in at most this many characters are cached (a legal play of four steps
takes at most 47, ``bar/22* 22/18* 18/14* 14/10*``); a longer one is read part by part,
its number of steps checked first."""


@functools.lru_cache(maxsize=1 << 14)
def _play_of(text: str) -> Play | None:
    """The play written ``text`` (the PART terminals of one cell, mat.lark), or ``None``
    when a part cannot be read (the caller reads it again to place the fault). Records
    repeat their plays, so one :class:`Play` serves every move written the same way."""
    steps: list[Step] = []
    for piece in _PLAYS_PIECES.finditer(text):
        part = piece[3]
        if part is None:
            continue
        try:
            steps += part_steps(part)
        except _StepError:
            try:  # a hop away from home ("6/8") is a rule break, for the verifier
                steps += part_steps(part, backwards=True)
            except _StepError:
                return None
    return Play(steps)


def _action(cell: _Cell, player: int, number: int) -> Action:
    token, kind, args = cell.token, cell.kind, cell.args
    if kind == "move":  # (most actions: no keyword arguments)
        return Move(player, args[0], args[1], token.line or 0, token.column or 0, number)
    where: dict[str, Any] = {"line": token.line or 0, "column": token.column or 0, "number": number}
    if kind == "double":
        return Double(player, args[0], **where)
    if kind == "take":
        return Take(player, **where)
    if kind == "drop":
        return Drop(player, **where)
    if kind == "beaver":
        return Beaver(player, args[0], **where)
    assert kind == "raccoon"
    return Raccoon(player, args[0], **where)


# ---------------------------------------------------------------------------- errors

_WORDS = {
    "play__INT": "a point number",
    "INT": "a number",
    "play__BAR": "'bar'",
    "play__OFF": "'off'",
    "play__HIT": "'*'",
    "SLASH": "'/'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "COLON": "':'",
    "NAME": "a player name",
    "RATING": "a rating",
    "DICE": "a roll like '31:'",
    "LINENO": "a move number like '12)'",
    "POINTS": "'point'",
    "MATCH": "'match'",
    "AND_THE_MATCH": "'and the match'",
    "GAME": "'Game N'",
    "DOUBLES": "'Doubles'",
    "TAKES": "'Takes'",
    "DROPS": "'Drops'",
    "BEAVERS": "'Beavers'",
    "RACCOONS": "'Raccoons'",
    "WINS": "'Wins'",
    "LOSSES": "'Losses'",
    "CANNOT_MOVE": "'Cannot Move'",
    "UNKNOWN": "'???'",
    "_TO": "'=>'",
    "TAG": "a '; [Tag \"value\"]' line",
    "COMMENT": "a ';' comment",
    "SET_POS": "'; Set Pos='",
    "_NL": "the end of the line",
    "$END": "the end of the file",
}


def _found(source: str, pos: int) -> str:
    if source[pos] == "\n":
        return "the end of the line"
    word = re.match(r"[^\s/:()*,]+|.", source[pos:])
    assert word is not None
    return repr(word[0][:20])


def _expected(expected: set[str], before: str) -> str:
    """Say in words what the parser wanted, from the terminals it accepts and the line so far."""
    if expected == {"POINTS"} and re.search(r"(?i)(wins|losses)[ \t]+[0-9]+[ \t]*$", before):
        return "'point' or 'points' after the number"
    if expected & {"POINTS", "MATCH"} or ("INT" in expected and "TAG" in expected):
        return "'N point match'"
    if expected & {"NAME", "COLON"} and "DICE" not in expected:
        return "a score line 'name : score   name : score'"
    if "_TO" in expected:
        return "'=> N' (the new cube value) after the cube word"
    if expected and expected <= {"GAME", "COMMENT", "$END"}:
        return "'Game N'"
    if expected == {"SLASH"}:
        return "'/' in a checker play (steps are written 13/8)"
    if expected & {"play__INT", "play__BAR"} and not expected & {"DICE", "_NL"}:
        return "a point (1-25, bar or off) in a checker play"
    if expected & {"LINENO", "DICE"}:
        return "a move line like '  1) 31: 8/5 6/5', a cube action, 'Wins N points' or 'Game N'"
    words = sorted({_WORDS.get(name, name) for name in expected})
    if not words:
        return "nothing more"
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def _syntax_error(err: UnexpectedInput, source: str, source_name: str | None) -> NotationError:
    """Turn a Lark error into a NotationError that says what the record should hold."""
    pos, msg = _syntax_message(*_error_place(err, source), source)
    return NotationError(msg, source, pos, source_name=source_name)


def _syntax_message(pos: int, expected: set[str], source: str) -> tuple[int, str]:
    """Where in ``source`` the syntax error at ``pos`` stands and what it says, from the
    terminals the parser accepted there."""
    from lark import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    if "PART" in expected and _PLAY_START.match(source, pos):
        # a broken play: mat.lark takes a part as one token, so play.lark finds the spot
        line = source[pos : source.find("\n", pos)]
        try:
            parser("play").parse(line)
        except UnexpectedInput as play_err:
            at, wanted = _error_place(play_err, line)
            if isinstance(play_err, UnexpectedCharacters):
                # the lexer's set is wide; the parser, stopped just there, knows better
                try:
                    parser("play").parse(line[:at])
                except UnexpectedToken as end:
                    wanted = set(end.accepts) - {"$END"} or wanted
            pos += at
            expected = {f"play__{name}" if name in _PLAY_TERMINALS else name for name in wanted}
    before = source[source.rfind("\n", 0, pos) + 1 : pos]
    msg = f"expected {_expected(expected, before)}"
    if pos < len(source.rstrip()):
        msg += f", found {_found(source, pos)}"
    return pos, msg


# what may start a play, and play.lark's terminals that _WORDS knows as "play__*"
_PLAY_START = re.compile(r"[0-9]|bar|off", re.IGNORECASE)
_PLAY_TERMINALS = frozenset({"INT", "BAR", "OFF", "HIT"})


def _error_place(err: UnexpectedInput, text: str, start: int = 0) -> tuple[int, set[str]]:
    """Where Lark's error stands (an offset in the text parsed, whose part ``text`` from
    offset ``start`` on was given to Lark), and the terminals it would have accepted."""
    from lark import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    pos: int
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream or 0
        expected: set[str] = set(err.allowed or ())
    elif isinstance(err, UnexpectedToken):
        pos = err.token.start_pos if err.token.start_pos is not None else len(text)
        if err.token.type == "$END":
            pos = start + len(text.rstrip())  # just after the last character
        # ``accepts`` asks the parser itself; ``expected`` may hold a wider lexer set.
        expected = set(err.accepts or err.expected or ())
    elif isinstance(err, UnexpectedEOF):  # pragma: no cover - LALR reports $END tokens
        pos = start + len(text.rstrip())
        expected = set(err.expected or ())
    else:  # pragma: no cover - Lark raises only the three kinds above
        pos, expected = 0, set()
    expected.discard("WS_INLINE")
    return pos, expected


# ---------------------------------------------------------------------------- Set Pos


def parse_set_pos(text: str, **fields: Any) -> Position:
    """The position of an XG ``; Set Pos=`` line (the text after ``=``).

    As GNU Backgammon reads it: the 26 characters use the XGID alphabet with upper-case
    letters for player 0 (the left column; index ``i`` is that player's point ``i``, 25 its
    bar) and lower-case letters for player 1 (its point ``25 - i``, index 0 its bar). After
    ``/`` comes the cube: ``0`` centred, ``n`` a ``2**n`` cube owned by player 1, ``-n``
    owned by player 0. ``fields`` go to the :class:`~bgkit.position.Position` constructor
    (``turn``, ``match_length``, ``score``, ...).

    >>> pos = parse_set_pos("-b----E-C---eE---c-e----B-/0")
    >>> pos.pip_counts(), pos.cube, pos.cube_owner
    ((167, 167), 1, None)

    :raises NotationError: when the text is not a position and cube.
    :raises InvalidPositionError: when it describes an impossible position.
    """
    from bgkit.position import Position

    m = _SET_POS_VALUE.fullmatch(text.strip())
    if m is None:
        raise NotationError(
            "expected 26 position characters (-, A-P, a-p), '/' and the cube", text, 0
        )
    left = [0] * 25
    right = [0] * 25
    for i, ch in enumerate(m["board"]):
        if ch == "-":
            continue
        count = ord(ch.lower()) - ord("a") + 1
        if ch.isupper():  # player 0: index i is its point i, 25 its bar
            if i == 0:
                raise NotationError("index 0 is player 1's bar: use a lower-case letter", text, i)
            left[i - 1] += count
        else:  # player 1: index i is its point 25 - i, 0 its bar
            if i == 25:
                raise NotationError("index 25 is player 0's bar: use an upper-case letter", text, i)
            right[24 - i] += count
    cube_exp = int(m["cube"])
    owner = None if cube_exp == 0 else (0 if cube_exp < 0 else 1)
    fields.setdefault("cube", 2 ** abs(cube_exp))
    fields.setdefault("cube_owner", owner)
    return Position.from_layout(left, right, **fields)


# ---------------------------------------------------------------------------- writing


def dumps_mat(match: Match) -> str:
    """The match as ``.mat`` text, laid out exactly as GNU Backgammon's ``export match mat``.

    The header holds the tags as ``; [Key "value"]`` lines in order, then a blank line
    and the comments as ``; text`` lines; then ``" N point match"``, and per game
    ``" Game N"``, the score line (``" %-31s%s : %d"``), a ``; Set Pos=`` line when the game
    has a setup, and the move lines: ``"%3d) "`` and the left cell padded to 27 characters
    and a space, then the right cell. Plays are written step by step as stored, with 25
    for the bar, 0 for off, ``*`` after a hit and a space after each of the first three
    steps, as gnubg does (a compact step such as ``24/14*`` stays compact, which gnubg
    reads). An unknown play is written ``???``. ``Wins k point(s)`` goes to column 6
    (left winner) or 34 (right winner), on the line of a left cell when it can;
    ``and the match`` is kept when the record had it. Galaxy's ``Losses`` lines are not
    written.

    :raises ValueError: when the match holds text a ``.mat`` file cannot carry so that it
        reads back the same: a player name with ``:``, a line break, surrounding blanks, a
        leading ``;``, ``#`` or ``,`` or a ``,`` before a digit (a GridGammon rating); a tag
        key with ``"`` or ``]``; a line break in a tag or comment; a comment with trailing
        blanks; a setup that is not XG's ``; Set Pos=`` text; dice outside 1-6, a step
        from or to a point outside 0-25, a player other than 0 and 1, or a negative
        number. (A step away from home, ``6/8``, is written as it was read: the verifier
        reports it.)
    """
    _check_writable(match)
    out: list[str] = [f'; [{key} "{value}"]\n' for key, value in match.tags]
    if match.comments:
        if match.tags:
            out.append("\n")
        out.extend(_comment_line(text) for text in match.comments)
    if out:
        out.append("\n")
    out.append(f" {match.length} point match\n\n")
    for game in match.games:
        _write_game(out, match.players, game)
    return "".join(out)


_TAG_TEXT = re.compile(r'\[[^\]"\n]*".*"\][ \t]*$')
_RATING_IN_NAME = re.compile(r",[ \t]*[0-9]")
_SET_POS_TEXT = re.compile(r"[ \t]*Set[ \t]+Pos[ \t]*=", re.IGNORECASE)


def _comment_line(text: str) -> str:
    if not text:
        return ";\n"
    # "; [Key "value"]" would read back as a tag, "; Set Pos=..." as a setup: "#" keeps
    # them comments (gnubg reads both)
    special = _TAG_TEXT.match(text) or _SET_POS_TEXT.match(text)
    return f"# {text}\n" if special else f"; {text}\n"


def _check_writable(match: Match) -> None:
    for name in match.players:
        if name and (
            name != name.strip()
            or any(ch in name for ch in ":\n\r\t")
            or name[0] in ";#,"
            or _RATING_IN_NAME.search(name)
        ):
            raise ValueError(f"a .mat file cannot hold the player name {name!r}")
    for key, value in match.tags:
        if (
            key != key.strip()
            or any(ch in key for ch in '"]\n\r')
            or any(ch in value for ch in "\n\r")
        ):
            raise ValueError(f"a .mat file cannot hold the tag {key!r}: {value!r}")
    for text in match.comments:
        if text != text.rstrip() or "\n" in text or "\r" in text:
            raise ValueError(f"a .mat file cannot hold the comment {text!r}")
    numbers = [match.length]
    for game in match.games:
        if game.setup is not None and not _SET_POS_VALUE.fullmatch(game.setup):
            raise ValueError(f"game {game.number}: not a '; Set Pos=' setup: {game.setup!r}")
        numbers += [game.number, *game.score]
        if game.result is not None:
            numbers.append(game.result.points)
            if game.result.winner not in (0, 1):
                raise ValueError(f"game {game.number}: no player {game.result.winner}")
        for action in game.actions:
            if action.player not in (0, 1):
                raise ValueError(f"game {game.number}: no player {action.player}: {action!r}")
            if isinstance(action, (Double, Beaver, Raccoon)):
                numbers.append(action.value)
            elif isinstance(action, Move) and not (
                all(1 <= d <= 6 for d in action.dice)
                and all(0 <= s.dst <= 25 and 0 <= s.src <= 25 for s in action.play or ())
            ):
                raise ValueError(f"game {game.number}: a .mat file cannot hold {action!r}")
    if any(n < 0 for n in numbers):
        raise ValueError("a .mat file cannot hold negative numbers")


def _play_text(move: Move) -> str:
    text = f"{move.dice[0]}{move.dice[1]}: "
    if move.play is None:
        return text + "???"
    parts = [f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in move.play.steps]
    text += " ".join(parts)
    if 0 < len(parts) < 4:
        text += " "
    return text


def _cell_text(action: Action) -> str:
    if isinstance(action, Move):
        return _play_text(action)
    if isinstance(action, Double):
        return f" Doubles => {action.value}"
    if isinstance(action, Take):
        return " Takes"
    if isinstance(action, Drop):
        return " Drops"
    if isinstance(action, Beaver):
        return f" Beavers => {action.value}"
    return f" Raccoons => {action.value}"


def _write_game(out: list[str], players: tuple[str, str], game: Game) -> None:
    pending: list[str] = []  # the comments of the actions on the line being written

    def emit(text: str) -> None:
        """Write ``text``; once it ends a line, the pending comments after it."""
        out.append(text)
        if text.endswith("\n"):
            out.extend(_comment_line(c) for c in pending)
            pending.clear()

    emit(f" Game {game.number}\n")
    left = f"{players[0]} : {game.score[0]}"
    gap = "" if len(left) < 31 else " "
    emit(f" {left:<31}{gap}{players[1]} : {game.score[1]}\n")
    if game.setup is not None:
        emit(f"; Set Pos={game.setup}\n")
    out.extend(_comment_line(c) for c in _comments_of(game.annotations))
    result = game.result
    wins = ""
    if result is not None:
        wins = f"Wins {result.points} point{'s' if result.points > 1 else ''}"
        if result.match_won:
            wins += " and the match"
    slot = 0  # even: the next cell is a left cell on a new line; odd: the right cell
    last = len(game.actions) - 1
    for k, action in enumerate(game.actions):
        text = _cell_text(action)
        number = slot // 2 + 1
        if action.player == 0:
            if slot % 2:  # a left cell after a left cell: leave the right cell empty
                emit("\n")
                slot += 1
                number = slot // 2 + 1
            pending.extend(_comments_of(action.annotations))  # (after this action's line)
            if k == last and isinstance(action, Drop) and result is not None and result.winner:
                text += " " * 23 + wins  # gnubg writes the winner on the drop's line
                result = None
                emit(f"{number:3d}) {text:<27} \n")
                slot += 2
                continue
            emit(f"{number:3d}) {text:<27} ")
            slot += 1
        else:
            pending.extend(_comments_of(action.annotations))
            if slot % 2 == 0:
                emit(f"{number:3d}) {'':<27} ")
                slot += 1
            emit(f"{text}\n")
            slot += 1
    if result is not None:
        if slot % 2:
            emit(f" {wins}\n" if result.winner else f"\n      {wins}\n")
        else:
            emit(f"{' ' * 34}{wins}\n" if result.winner else f"      {wins}\n")
    elif slot % 2:
        emit("\n")
    out.extend(_comment_line(c) for c in pending)
    emit("\n")


def _comments_of(annotations: Annotations) -> list[str]:
    """The comment lines of an action or game: its ``C`` texts, line by line, without the
    blanks at their ends (which a ``.mat`` line cannot keep)."""
    return [
        line.rstrip()
        for key, values in annotations
        if key == "C"
        for v in values
        for line in v.split("\n")
    ]


def write_mat(match: Match, path: str | os.PathLike[str], *, force: bool = False) -> None:
    """Write :func:`dumps_mat` output to ``path`` (UTF-8, LF line ends), atomically.

    The text goes to a temporary file in the same directory, which then replaces
    ``path`` in one step, so readers never see a half-written file.

    :param force: overwrite ``path`` when it exists.
    :raises FileExistsError: when ``path`` exists and ``force`` is false.
    """
    write_atomic(path, dumps_mat(match).encode("utf-8"), force=force)
