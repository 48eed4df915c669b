"""Read JavaFIBS's internal match files (``.match``, "JavaFIBS internal match representation").

The syntax lives in ``grammars/javafibs.lark``: one ``code:player:data`` line per event.
The local player ``You`` is bgkit's player 0 (named from the score lines when they give
the real name), the opponent player 1.

>>> match = parse_javafibs('''JavaFIBS internal match representation v1.1
... 8:JoeBlack:3
... 13:JoeBlack:
... 6:You:JoeBlack
... 11:You:4 2
... 1:You:17-21 19-21
... 0:JoeBlack:3 2
... 1:JoeBlack:24-22 13-10
... 2:You:
... 5:JoeBlack:
... 7:You:1
... 14:SnowWhite-1:JoeBlack-0
... ''')
>>> match
<Match ('SnowWhite' vs. 'JoeBlack', 3-pt, 1 game)>
>>> for action in match.games[0].actions[:2]:
...     print(action)
Move(player=0, dice=(4, 2), play=Play('8/4 6/4'))
Move(player=1, dice=(3, 2), play=Play('24/22 13/10'))

**What is accepted.** Every code Gibbon's JavaFIBS writer uses: 0 roll, 1 move,
2 double, 3 resign, 4 take, 5 drop, 6 the players of a game, 7 a game won, 8 the match
start (opponent and length, 9999 for unlimited), 9 the match won, 11 the opening roll,
12 a rejected resignation, 13 a game start, 14 the score, 15 a roll that cannot be
played. CR LF or LF line ends.

**Points.** JavaFIBS writes a move in the numbers of either side (the board is turned
round from one game to the next, never within one). Which way a player goes in a game is
what most of the game's moves say (a step up, ``17-21``, an entry on 1-6 or a bear-off
from 19-24 means the other side's numbers, which are turned round: ``25 - n``); so every
:class:`~bgkit.records.Move` holds the mover's own numbers. A step against that way is
kept as written: the verifier reports it as the player's illegal play.

**Results and scores.** A ``7`` line gives the game's :class:`~bgkit.records.Result`
(the drop or resignation before it is how the game ended); a ``9`` line marks the match
won. Each game's score is the sum of the results before it.

**What is rejected** (:class:`~bgkit.errors.NotationError` with line and column): a
missing prolog, unknown codes, dice outside 1-6, points outside 1-24, a move with more
than four steps or without a roll, a move whose steps go both ways as many times in a
game whose other moves do not say which way the player goes, and a player who is neither
``You`` nor the opponent named in the ``8`` line. Only the first line costs the file; any
other such line is a :class:`~bgkit.records.ReadError` and the rest is read. A game start
(``13:``) that cannot be read still starts its game (kept, and left unverified), and so
does any line that cannot be read between a game's end and the actions after it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import IO, Any

from lark import Token, v_args

from bgkit._grammars import SourceTransformer
from bgkit.errors import NotationError
from bgkit.formats import source_text
from bgkit.formats._by_lines import (
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

__all__ = ["parse_javafibs", "read_javafibs", "sniff_javafibs"]

PROLOG = "JavaFIBS internal match representation"
"""The first words of every JavaFIBS match file."""

_UNLIMITED = 9999


def sniff_javafibs(text: str) -> bool:
    """True when ``text`` starts with JavaFIBS's prolog.

    >>> sniff_javafibs("JavaFIBS internal match representation v1.1\\r\\n")
    True
    """
    return text.lstrip("\ufeff \t\r\n").startswith(PROLOG)


def read_javafibs(
    source: str | os.PathLike[str] | IO[str] | IO[bytes],
    *,
    encoding: str | None = None,
    strict: bool = False,
) -> Match:
    """Read a JavaFIBS match file from a path or an open file (text or binary).

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when the text is not a JavaFIBS match file (see
        :func:`parse_javafibs`).
    """
    text, name = source_text(source, encoding=encoding)
    return parse_javafibs(text, source_name=name, strict=strict)


def parse_javafibs(text: str, *, source_name: str | None = None, strict: bool = False) -> Match:
    """Read a JavaFIBS match file from a string (see the module docstring).

    >>> text = "JavaFIBS internal match representation v1.1\\n8:Bo:3\\n0:You:7 1\\n"
    >>> parse_javafibs(text, strict=True)
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: 3:7: dice must be 1-6: 7 1
        0:You:7 1
              ^

    A line that cannot be read (the example above, read without ``strict``) is a
    :class:`~bgkit.records.ReadError` of the match's
    :attr:`~bgkit.records.Match.read_errors`, which the verifier reports, and the rest
    is read.

    :param strict: raise at the first line that cannot be read.
    :raises NotationError: when the text is not a JavaFIBS match file (its first line
        cannot be read), or with ``strict`` at the first line that cannot be read.
    """
    source = text[1:] if text.startswith("\ufeff") else text
    builder = _Builder(source, source_name)
    fast = _fast_line if active().max_integer_digits >= 4 else no_fast_line
    reading = read_lines(
        "javafibs", source, builder, "JavaFIBS record", source_name, fast, strict=strict
    )
    return _Assembler(source, source_name, None if strict else []).assemble(
        reading, _GAME_START_LINE
    )


@dataclass(slots=True)
class _Line:
    """One line: its kind, the player's name as written (the first score entry on a score
    line) and its place (line, column, offset), and its values (a move's: ``(from, to,
    offset)`` per step)."""

    kind: str
    name: str
    line: int
    column: int
    pos: int
    values: tuple[Any, ...] = ()


def _line(kind: str, name: Token, values: tuple[Any, ...] = ()) -> _Line:
    return _Line(kind, str(name), name.line or 0, name.column or 0, name.start_pos or 0, values)


@v_args(inline=True)
class _Builder(SourceTransformer[list[_Line]]):
    def javafibs(self, _prolog: Token, *lines: _Line) -> list[_Line]:
        return list(lines)

    def javafibs_line(self, line: _Line) -> _Line:
        return line

    def _dice(self, kind: str, name: Token, d1: Token, d2: Token) -> _Line:
        dice = (self._int(d1), self._int(d2))
        if not all(1 <= d <= 6 for d in dice):
            raise self._fail(f"dice must be 1-6: {dice[0]} {dice[1]}", d1)
        return _line(kind, name, dice)

    def roll(self, name: Token, d1: Token, d2: Token) -> _Line:
        return self._dice("roll", name, d1, d2)

    def opening(self, name: Token, d1: Token, d2: Token) -> _Line:
        return self._dice("roll", name, d1, d2)

    def point_number(self, token: Token) -> tuple[int, Token]:
        value = self._int(token)
        if not 1 <= value <= 24:
            raise self._fail(f"a point must be 1-24 (or bar, off): {value}", token)
        return (value, token)

    def bar(self, token: Token) -> tuple[int, Token]:
        return (BAR, token)

    def off(self, token: Token) -> tuple[int, Token]:
        return (OFF, token)

    def movement(self, src: tuple[int, Token], dst: tuple[int, Token]) -> tuple[int, int, int]:
        return (src[0], dst[0], src[1].start_pos or 0)

    def move(self, name: Token, *steps: tuple[int, int, int]) -> _Line:
        if len(steps) > 4:
            raise NotationError(
                "a move has at most four steps",
                self.source,
                steps[4][2],
                source_name=self.source_name,
            )
        return _line("move", name, steps)

    def cannot_move(self, name: Token) -> _Line:
        return _line("move", name, ())

    def double(self, name: Token) -> _Line:
        return _line("double", name)

    def take(self, name: Token) -> _Line:
        return _line("take", name)

    def drop(self, name: Token) -> _Line:
        return _line("drop", name)

    def reject(self, name: Token) -> _Line:
        return _line("reject", name)

    def resign(self, name: Token, value: Token) -> _Line:
        return _line("resign", name, (self._int(value),))

    def game_won(self, name: Token, value: Token) -> _Line:
        return _line("game_won", name, (self._int(value),))

    def match_won(self, name: Token, value: Token) -> _Line:
        return _line("match_won", name, (self._int(value),))

    def match_start(self, name: Token, value: Token) -> _Line:
        return _line("match_start", name, (self._int(value),))

    def game_start(self, name: Token) -> _Line:
        return _line("game_start", name)

    def players(self, name: Token, other: Token) -> _Line:
        return _line("players", name, (str(other).strip(),))

    def score(self, first: Token, second: Token) -> _Line:
        entries = []
        for token in (first, second):
            who, _, points = str(token).strip().rpartition("-")
            entries.append((who.strip(), self._int(Token("INT", points))))
        return _line("score", first, tuple(entries))


# ---------------------------------------------------------------------------- fast path
# Every code's line, with blanks and numbers of any digits (08-04) as the grammar reads
# them, is read here without Lark,
# each as _Builder makes it of the grammar's parse (the same _Line); any other line, or
# one that breaks a rule the builder checks, is left to Lark (issue 29: Lark's parse of
# every line was most of the 36 s a 16 MB record took, and is about 40 µs a line).
# tests/test_line_readers.py compares both readings.

_W = r"[ \t]*"  # (blanks between two tokens, which the grammar ignores)
_NAME = r"([^:\s][^:\r\n]*)"
_POINT = r"(?:[0-9]+(?![0-9])|(?i:bar|off))"  # (a number is all its digits, as INT)
_SCORE = r"([^:\s][^:\r\n]*-[0-9]+)"
_FAST_LINE = re.compile(
    rf"{_W}(?:(0|11):{_W}{_NAME}:{_W}([0-9]+)[ \t]+([0-9]+)"
    rf"|1:{_W}{_NAME}:((?:{_W}{_POINT}{_W}-{_W}{_POINT})+)"
    rf"|(15|2|4|5|12|13):{_W}{_NAME}:"
    rf"|([3789]):{_W}{_NAME}:{_W}([0-9]+)"
    rf"|6:{_W}{_NAME}:{_W}{_NAME}"
    rf"|14:{_W}{_SCORE}{_W}:{_W}{_SCORE})[ \t]*(?:\r?\n)?\Z"
)
_FAST_STEP = re.compile(r"([0-9]+|(?i:bar|off))[ \t]*-[ \t]*([0-9]+|(?i:bar|off))")
_FAST_POINTS = {"bar": BAR, "off": OFF, **{str(n): n for n in range(1, 25)}}
_FAST_KINDS = {
    "15": "move",
    "2": "double",
    "4": "take",
    "5": "drop",
    "12": "reject",
    "13": "game_start",
    "3": "resign",
    "7": "game_won",
    "8": "match_start",
    "9": "match_won",
}


def _fast_line(source: str, start: int, end: int, line: int) -> _Line | None:
    """Line ``line`` (``source[start:end]``) as _Builder makes it, or ``None`` when it is
    not one of the lines read here (see above)."""
    m = _FAST_LINE.match(source, start, end)
    if m is None:
        return None
    if m[1] is not None:  # a roll or the opening roll
        dice = fast_dice(m[3], m[4])
        if dice is None:
            return None
        return _named(m, "roll", start, line, 2, dice)
    if m[5] is not None:  # a move
        steps = _fast_steps(m[6])
        if steps is None:
            return None
        at = m.start(6)
        values = tuple([(a, b, at + offset) for a, b, offset in steps])
        return _named(m, "move", start, line, 5, values)
    if m[7] is not None:  # a line of a code and a name
        return _named(m, _FAST_KINDS[m[7]], start, line, 8)
    if m[9] is not None:  # a code, a name and a number
        number = fast_number(m[11])
        if number is None:
            return None
        return _named(m, _FAST_KINDS[m[9]], start, line, 10, (number,))
    if m[12] is not None:  # the players of a game
        return _named(m, "players", start, line, 12, (m[13].strip(),))
    entries = []
    for entry in (m[14], m[15]):
        who, _, digits = entry.strip().rpartition("-")
        points = fast_number(digits)
        if points is None:
            return None  # (a limit on its digits: the builder checks it)
        entries.append((who.strip(), points))
    return _named(m, "score", start, line, 14, tuple(entries))


def _named(
    m: re.Match[str], kind: str, start: int, line: int, group: int, values: tuple[Any, ...] = ()
) -> _Line:
    """The _Line of ``kind`` (line ``line``, which starts at ``start``) whose token, the
    player's name, is group ``group`` of ``m``."""
    pos = m.start(group)
    return _Line(kind, m[group], line, pos - start + 1, pos, values)


_fast_steps = step_reader(_FAST_STEP, _FAST_POINTS)
"""The steps of a move as written (``17-21 19-21``), with their offsets in the text."""


@dataclass(slots=True)
class _GameState:
    actions: list[Action] = field(default_factory=list)
    result: Result | None = None
    cube: int = 1
    roll: tuple[int, tuple[int, int]] | None = None
    line: int = 0
    number: int = 0  # its ordinal in the record


class _Assembler(LineAssembler):
    """Turns the lines into a Match. With a list of ``faults``, an action line that cannot
    be one (a move without a roll, an action before the first game...) is recorded there
    and left out, instead of raised."""

    def __init__(
        self, source: str, source_name: str | None, faults: list[ReadError] | None = None
    ) -> None:
        super().__init__(source, source_name)
        self.opponent = ""
        self.faults = faults
        # the moves whose plays are not yet made (see plays): those of the games so far,
        # made when the next game starts (at the end with a strict reading, which raises
        # at the first line that cannot be read as a whole reading finds it)
        self.moves: list[tuple[_GameState, int, _Line]] = []
        self.made: dict[tuple[Any, ...], Play] = {}  # the plays made, by direction and steps
        self.after_lost = False  # the line before the one being read could not be read

    def player(self, line: _Line) -> int:
        who = line.name.strip()
        if who == "You":
            return 0
        if who == self.opponent:
            return 1
        raise self._fail_at(
            f"{who!r} is neither 'You' nor the opponent {self.opponent!r} of the '8:' line",
            line.pos,
            line,
        )

    def match(self, lines: Iterable[_Line], lost: LostGameLines) -> Match:
        """The match of ``lines``; ``lost`` has the lines that could not be read."""
        you = "You"
        length = 0
        games: list[_GameState] = []
        failed = False  # the line before could not be used
        for line in lines:
            kind = line.kind
            for fault in lost.before(line.line):
                self.start(games, _GameState(line=fault.line), None)  # a '13:' that is unread
            self.after_lost = lost.pending is not None or failed
            failed = False
            if kind in _ACTION_KINDS and lost.pending is not None:
                if not games or games[-1].result is not None:
                    # actions after a game's end (or before any game) and a line that
                    # could not be read before them: that line was their '13:' line
                    self.start(games, _GameState(line=lost.pending.line), None)
                lost.pending = None
            if kind == "match_start":
                self.opponent = line.name.strip()
                length = 0 if line.values[0] >= _UNLIMITED else line.values[0]
                continue
            if kind == "score":
                for who, _points in line.values:
                    if who != self.opponent:
                        you = who
                continue
            if kind == "players":
                continue
            if kind == "game_start":
                lost.pending = None
                self.start(games, _GameState(line=line.line), line.pos - line.column + 1)
                if self.opponent and line.name.strip() != self.opponent:
                    # (the game is kept, and left unverified after its unread line)
                    err = self._fail_at(f"the game is against {self.opponent!r}", line.pos, line)
                    keep_fault(self.faults, err)
                continue
            try:
                if not games:
                    raise self._fail_at(
                        "an action before the first game ('13:' line)", line.pos, line
                    )
                self.action(games[-1], line, self.player(line))
            except NotationError as err:
                keep_fault(self.faults, err)
                failed = True
        self.plays()
        out: list[Game] = []
        score = (0, 0)
        for i, state in enumerate(games):
            out.append(Game(i + 1, score, tuple(state.actions), state.result, line=state.line))
            if state.result is not None:
                s = list(score)
                s[state.result.winner] += state.result.points
                score = (s[0], s[1])
        return Match(
            (you, self.opponent),
            length,
            tuple(out),
            (("Player 1", you), ("Player 2", self.opponent)),
            source_name=self.source_name,
        )

    def action(self, game: _GameState, line: _Line, who: int) -> None:
        kind = line.kind
        where: dict[str, Any] = {"line": line.line, "column": line.column}
        if kind == "match_won":
            if game.result is None or game.result.winner != who:
                raise self._fail_at(
                    "the match is won by the winner of its last game", line.pos, line
                )
            r = game.result
            game.result = Result(r.winner, r.points, True, line=r.line)
            return
        if game.result is not None and kind != "game_won":
            raise self._fail_at("an action after the game has ended", line.pos, line)
        if kind in _COUNTED:
            self.game_acts(len(game.actions) + 1, game.number, line)
        if kind == "roll":
            game.roll = (who, line.values)
        elif kind == "move":
            if game.roll is None or game.roll[0] != who:
                if self.after_lost:
                    return  # its roll was on the line before, which could not be read
                raise self._fail_at(
                    "a move without a roll of the same player before it", line.pos, line
                )
            self.moves.append((game, len(game.actions), line))  # (its play: see plays)
            game.actions.append(Move(who, game.roll[1], _NO_PLAY, **where))
            game.roll = None
        elif kind == "double":
            game.cube = self.doubled(game.cube, line)
            game.actions.append(Double(who, game.cube, **where))
        elif kind == "take":
            game.actions.append(Take(who, **where))
        elif kind == "drop":
            game.actions.append(Drop(who, **where))
        elif kind == "game_won":
            game.result = Result(who, line.values[0], line=where["line"], column=where["column"])
        # resign / reject: a resignation shows in the result ('7:') that follows

    def start(self, games: list[_GameState], game: _GameState, pos: int | None) -> None:
        """Start ``game`` (at offset ``pos`` when its line was read, else at its line's
        start): the plays of the games before it are made (and their lines let go),
        unless the reading is strict.

        :raises LimitError: past ``max_games``.
        """
        self.game_starts(len(games) + 1, pos, game.line)
        game.number = len(games) + 1
        if self.faults is not None:
            self.plays()
        games.append(game)

    def plays(self) -> None:
        """Each move's play in the mover's numbers. Which way a player goes in a game is
        what most of the game's moves say (the player's, and the opponent's turned round:
        the board is turned round between games, never within one); a step against it is
        kept as written, for the verifier to report as the player's illegal play."""
        votes: dict[tuple[int, str], int] = {}
        for game, _index, line in self.moves:
            total = sum(_vote(src, dst) for src, dst, _token in line.values)
            if total:
                for who in (line.name.strip(), ""):
                    key = (id(game), who)
                    votes[key] = votes.get(key, 0) + (1 if total > 0 else -1)
        lost: list[tuple[_GameState, int]] = []
        for game, index, line in self.moves:
            key = (id(game), line.name.strip())
            mine = votes.get(key, 0)
            lean = mine - (votes.get((id(game), ""), 0) - mine)  # (theirs turned round)
            try:
                action = game.actions[index]
                assert isinstance(action, Move)
                game.actions[index] = replace(action, play=self.play(line, lean))
            except NotationError as err:
                keep_fault(self.faults, err)
                lost.append((game, index))
        for game, index in reversed(lost):
            del game.actions[index]
        self.moves = []

    def play(self, line: _Line, lean: int) -> Play:
        """The play of a move line, up (the other side's numbers, turned round) when
        ``lean`` is above 0, down below; at 0 as its own steps say."""
        if lean == 0:
            lean = sum(_vote(src, dst) for src, dst, _token in line.values)
            if lean == 0 and any(_vote(src, dst) for src, dst, _token in line.values):
                pos = line.values[-1][2]
                raise self._fail_at("the steps of one move go in both directions", pos, line)
        up = lean > 0
        if line.values:
            first = line.values[0][2]
            check_play_steps(len(line.values), self.source, first, self.source_name)
        key = (up, *[(src, dst) for src, dst, _pos in line.values])
        play = self.made.get(key)
        if play is None:  # (one Play for every move written alike)
            steps = []
            for src, dst, _pos in line.values:
                a = src if src in (BAR, OFF) or not up else 25 - src
                b = dst if dst in (BAR, OFF) or not up else 25 - dst
                steps.append(Step(a, b))
            play = self.made[key] = Play(steps)
        return play


_NO_PLAY = Play()  # (a move's play until plays makes it)
_ACTION_KINDS = frozenset({"roll", "move", "double", "take", "drop", "resign", "reject"})
_COUNTED = frozenset({"move", "double", "take", "drop"})  # (the lines that are actions)
_GAME_START_LINE = re.compile(r"[ \t]*13:")


def _vote(src: int, dst: int) -> int:
    """+1 when a written step goes up (the other side's numbers), -1 down, 0 when it
    cannot tell (a step from off, to the bar, or to its own point)."""
    if src not in (BAR, OFF) and dst not in (BAR, OFF):
        return (src < dst) - (src > dst)
    if src == BAR and dst not in (BAR, OFF):
        return 1 if dst <= 6 else -1
    if dst == OFF and src not in (BAR, OFF):
        return 1 if src >= 19 else -1
    return 0
