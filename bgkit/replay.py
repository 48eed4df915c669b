"""Replay a match record action by action: the position before and after each action.

:func:`replay` walks every game of a :class:`~bgkit.records.Match` with the rules
engine and yields one :class:`ReplayStep` per recorded action, with the position
before it (for a roll: the player to roll, the cube as it stands, no dice yet) and
the position after it. It is the common ground of everything that needs the
positions of a record (analysis, reports); it expects a record that plays legally
and raises at the first action that does not (:func:`bgkit.verify.verify` is the
tool that collects and explains every problem).

The record is read as GNU Backgammon reads it: the first roll of a game decides who
is on roll; a roll recorded without a play while a play existed, as the last action
of a finished game, is a roll followed by a resignation (the step's ``after`` is the
rolled position and its ``play`` is ``None``); a beaver is a take and a redouble at
once, and the doubler's answer to it (or the beaverer's answer to a raccoon) ends
the exchange.

>>> from bgkit.formats.mat import parse_mat
>>> match = parse_mat('''
...  3 point match
...
...  Game 1
...  Ann : 0                        Bo : 0
...   1)                             31: 8/5 6/5
...   2) 52: 13/8 13/11              Doubles => 2
...   3)  Drops
...       Wins 1 point
... ''')
>>> for step in replay(match):
...     print(step.kind, step.player, step.before.pip_counts(), step.play)
move 1 (167, 167) 8/5 6/5
move 0 (167, 163) 13/11 13/8
double 1 (160, 163) None
drop 0 (160, 163) None
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import overload

from bgkit.errors import IllegalActionError, IllegalPlayError, place
from bgkit.play import Play
from bgkit.position import GameState, Position
from bgkit.records import (
    Action,
    Beaver,
    Double,
    Drop,
    Game,
    GameStream,
    Match,
    Move,
    Raccoon,
    ReadError,
    Take,
)

__all__ = ["ReplayStep", "move_number", "replay", "replay_game", "unread_lines"]

_KINDS: dict[type, str] = {
    Move: "move",
    Double: "double",
    Take: "take",
    Drop: "drop",
    Beaver: "beaver",
    Raccoon: "raccoon",
}


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One recorded action with the positions around it."""

    game_index: int
    """0-based index of the game in :attr:`Match.games <bgkit.records.Match.games>`."""
    game: Game
    action_index: int
    """0-based index of the action in :attr:`Game.actions <bgkit.records.Game.actions>`."""
    action: Action
    turn: int
    """1-based count of the rolls of the game up to this one (a cube action counts
    with the roll that follows it)."""
    move_number: int
    """The record's move number (a ``.mat`` line number ``n)``), as the verifier counts it."""
    before: Position
    """The position before the action. For a roll: the roller on turn, no dice."""
    after: Position
    """The position after the action (after a drop: the game is over)."""
    play: Play | None = None
    """For a roll: the legal play (one step per die), ``Play()`` for a dance,
    ``None`` when the roll was not played (the player resigned after rolling)."""

    @property
    def kind(self) -> str:
        """``"move"``, ``"double"``, ``"take"``, ``"drop"``, ``"beaver"`` or ``"raccoon"``."""
        return _KINDS[type(self.action)]

    @property
    def player(self) -> int:
        """The player who acted (0 = left column, 1 = right column)."""
        return self.action.player

    @property
    def rolled(self) -> Position:
        """For a roll: the position with the dice rolled, before the play.

        :raises TypeError: for a cube action.
        """
        if not isinstance(self.action, Move):
            raise TypeError(f"a {self.kind} has no roll")
        return self.before.with_dice(*self.action.dice)


def move_number(turn: int, actions: tuple[Action, ...]) -> int:
    """The record's move number of the ``turn``-th roll of a game (1-based).

    Each ``.mat`` line holds one turn of the left player and then one of the right;
    when the right player opens, line 1 holds only his.

    >>> move_number(1, (Move(1, (3, 1), None),)), move_number(2, (Move(1, (3, 1), None),))
    (1, 2)
    """
    right_opened = bool(actions) and actions[0].player == 1
    return (turn + int(right_opened) + 1) // 2


def unread_lines(match: Match) -> Sequence[list[ReadError]]:
    """The lines of the file that could not be read (:attr:`Match.read_errors
    <bgkit.records.Match.read_errors>`), by place: those before the first game, then
    those of each game (from its ``Game`` line to the next), in file order.

    >>> from bgkit.formats.mat import parse_mat
    >>> match = parse_mat(" 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 27: 8/1\\n")
    >>> [[(e.line, e.message) for e in place] for place in unread_lines(match)]
    [[], [(4, "dice must be 1-6: '27'")]]

    Of a match whose games are a :class:`~bgkit.records.GameStream`, the places are the
    stream's :meth:`~bgkit.records.GameStream.unread`, known as its games are gone through.
    """
    if isinstance(match.games, GameStream):
        return _StreamedPlaces(match.games)
    out: list[list[ReadError]] = [[] for _ in range(len(match.games) + 1)]
    if any(err.source_name is not None for err in match.read_errors):
        return _unread_by_file(match, out)
    index = 0
    for err in match.read_errors:
        # (by line, then column: a record of one line, JSON, has all its games on it)
        while index < len(match.games) and _starts_before(match.games[index], err):
            index += 1
        out[index].append(err)
    return out


class _StreamedPlaces(Sequence[list[ReadError]]):
    """:func:`unread_lines` of a :class:`~bgkit.records.GameStream`."""

    def __init__(self, games: GameStream) -> None:
        self.games = games

    def __len__(self) -> int:
        return len(self.games) + 1

    @overload
    def __getitem__(self, index: int) -> list[ReadError]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[list[ReadError]]: ...

    def __getitem__(self, index: int | slice) -> list[ReadError] | Sequence[list[ReadError]]:
        if isinstance(index, slice):
            raise TypeError("the places of a GameStream cannot be sliced")
        return self.games.unread(index)


def _starts_before(game: Game, err: ReadError) -> bool:
    if not err.line:  # (a fault of a binary record: no line places it, it stands first)
        return False
    return game.line < err.line or (game.line == err.line and game.column <= err.column)


def _unread_by_file(match: Match, out: list[list[ReadError]]) -> list[list[ReadError]]:
    """:func:`unread_lines` of a match read from several files: each line goes with the
    last game of its own file that starts above it (or before the file's first game)."""
    name = match.source_name
    for err in match.read_errors:
        where = err.source_name or name
        first: int | None = None
        index: int | None = None
        for k, game in enumerate(match.games):
            if (game.source_name or name) != where:
                continue
            first = k if first is None else first
            if game.line <= err.line:
                index = k + 1
        out[index if index is not None else first if first is not None else 0].append(err)
    return out


def replay(match: Match) -> Iterator[ReplayStep]:
    """Every action of every game of ``match``, in record order.

    :raises IllegalPlayError: at a play the rules forbid (or an unknown play ``???``), and
        where a line of the game could not be read (the record does not say what
        happened there).
    :raises AmbiguousPlayError: at compact notation that fits several legal plays.
    :raises IllegalActionError: at a cube action or a turn the rules forbid.
    :raises InvalidPositionError: when a game cannot be set up (a score past the length).
    """
    unread = unread_lines(match) if match.read_errors else None
    for index in range(len(match.games)):
        yield from _replay_game(match, index, unread[index + 1] if unread else [])


def replay_game(match: Match, index: int) -> Iterator[ReplayStep]:
    """The actions of game ``index`` of ``match`` (see :func:`replay`)."""
    unread = unread_lines(match)[index + 1] if match.read_errors else []
    return _replay_game(match, index, unread)


def _replay_game(match: Match, index: int, unread: list[ReadError]) -> Iterator[ReplayStep]:
    game = match.games[index]
    pos = match.initial_position(index)
    actions = game.actions
    started = False
    exchange: str | None = None  # "double", "beaver" or "raccoon" within a cube exchange
    turn = 0
    result = game.result
    end = result.line if result is not None else None
    lost = next((e for e in unread if e.record and (end is None or e.line < end)), None)
    for i, action in enumerate(actions):
        if lost is not None and lost.line < action.line:
            _unread(match, lost)
        if pos.game_state != GameState.PLAYING:
            raise IllegalActionError(f"{_where(match, game, action)}the game is already over")
        if isinstance(action, Move):
            turn += 1
            number = move_number(turn, actions)
            if not started:
                started = True
                if game.setup is None and pos.turn != action.player:
                    pos = replace(pos, turn=action.player)
            exchange = None
            if action.player != pos.turn or pos.doubled:
                raise IllegalActionError(f"{_where(match, game, action)}roll out of turn")
            before = pos
            play, pos = _play(match, game, action, pos, last=i == len(actions) - 1)
            yield ReplayStep(index, game, i, action, turn, number, before, pos, play)
            continue
        number = move_number(turn + 1, actions)
        if not started:
            started = True
            pos = replace(pos, turn=action.player)
        before = pos
        try:
            pos, exchange = _cube(pos, action, exchange)
        except IllegalActionError as err:
            raise IllegalActionError(f"{_where(match, game, action)}{err}") from None
        yield ReplayStep(index, game, i, action, turn + 1, number, before, pos)
    if lost is not None:
        _unread(match, lost)


def _unread(match: Match, err: ReadError) -> None:
    where = place(match.source_name, err.line, err.column)
    raise IllegalPlayError(f"{where}: the line could not be read: {err.message}")


def _play(
    match: Match, game: Game, action: Move, pos: Position, *, last: bool
) -> tuple[Play | None, Position]:
    rolled = pos.with_dice(*action.dice)
    if action.play is None:
        raise IllegalPlayError(f"{_where(match, game, action)}the play is not recorded")
    if not action.play:
        results = rolled.legal_results()
        if results and last and game.result is not None:
            return None, rolled  # rolled, then resigned (as GNU Backgammon reads it)
        if results:
            raise IllegalPlayError(
                f"{_where(match, game, action)}no play recorded for"
                f" {action.dice[0]}{action.dice[1]},"
                f" but {next(iter(results.values()))} was possible"
            )
        return Play(), rolled.apply(Play())
    try:
        return rolled.resolve_apply(action.play)
    except IllegalPlayError as err:
        raise IllegalPlayError(f"{_where(match, game, action)}{err.reason}") from None


def _cube(pos: Position, action: Action, exchange: str | None) -> tuple[Position, str | None]:
    """The position after a cube action, and the state of the cube exchange."""
    who = action.player
    if isinstance(action, Raccoon) or (
        isinstance(action, Beaver) and exchange == "beaver" and who == pos.turn
    ):
        if exchange != "beaver" or who != pos.turn:
            raise IllegalActionError("a raccoon without a beaver")
        return pos.raccoon(), "raccoon"
    if exchange in ("beaver", "raccoon"):
        answerer = pos.turn if exchange == "beaver" else pos.opponent
        if who != answerer or not isinstance(action, Take | Drop):
            raise IllegalActionError("out of turn in a beaver exchange")
        if isinstance(action, Drop):
            return replace(pos, game_state=GameState.DROPPED), None
        return pos, None
    if isinstance(action, Double):
        if who != pos.turn:
            raise IllegalActionError("a double out of turn")
        return pos.double(), "double"
    if who == pos.turn:
        raise IllegalActionError("the doubler cannot answer his own double")
    if isinstance(action, Take):
        return pos.take(), None
    if isinstance(action, Drop):
        return pos.drop(), None
    return pos.beaver(), "beaver"


def _where(match: Match, game: Game, action: Action) -> str:
    """``file:line:col: `` of ``action`` to begin a message with (``""`` when nothing
    places it; the file name alone for a record without lines, XG's)."""
    where = place(game.source_name or match.source_name, action.line, action.column)
    return f"{where}: " if where else ""
