"""Match records as plain data: what a match file says happened, before any rules are applied.

A :class:`Match` holds :class:`Game` objects; a game holds its actions in time order:
:class:`Move` (a roll and the checker play written with it), :class:`Double`,
:class:`Take`, :class:`Drop`, :class:`Beaver` and :class:`Raccoon`; and its
:class:`Result` (the ``Wins`` line). Players are numbered as everywhere in bgkit:
0 is the left column of a ``.mat`` record, 1 the right column.

Nothing here checks the rules. A :class:`Move` keeps its play as written: ``24/14*``
with 64 is one step that covers both dice, and resolving it is the verifier's job.
Source positions (``line``, ``column``, the written move ``number``, ``source_name``) are
kept for messages but do not take part in ``==``, so a match read back from its own
output compares equal.

>>> from bgkit.play import Play
>>> opening = Move(1, (6, 6), Play("24/18(2) 13/7(2)"))
>>> game = Game(1, (0, 0), (opening, Double(0, 2), Drop(1)), Result(0, 1))
>>> game.winner
0
>>> match = Match(("Ann", "Bo"), 3, (game,))
>>> match
<Match ('Ann' vs. 'Bo', 3-pt, 1 game)>
>>> print(match.to_mat(), end="")
 3 point match
<BLANKLINE>
 Game 1
 Ann : 0                        Bo : 0
  1)                             66: 24/18 24/18 13/7 13/7
  2)  Doubles => 2                Drops
      Wins 1 point
<BLANKLINE>
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from html import escape as html_escape
from typing import TYPE_CHECKING, TypeAlias, overload

from bgkit.play import Play

if TYPE_CHECKING:
    from bgkit.position import Position

__all__ = [
    "Action",
    "Annotations",
    "Beaver",
    "Double",
    "Drop",
    "Game",
    "GameStream",
    "Match",
    "Move",
    "Raccoon",
    "ReadError",
    "Result",
    "Take",
]

Annotations: TypeAlias = tuple[tuple[str, tuple[str, ...]], ...]
"""Data a record format carries beyond the match itself, kept so that it is not lost:
``(key, values)`` pairs in source order, e.g. GNU Backgammon's SGF analysis
``(("A", ("0", "qtst E ver 3 ...")), ("LU", ("0.25042",)))``. Keys are the format's own
names (SGF property identifiers); ``==`` ignores annotations and the ``.mat`` writer does
not write them.
"""


@dataclass(frozen=True, slots=True)
class Move:
    """A roll and the checker play written with it.

    >>> Move(0, (6, 5), Play("24/18 18/13"))
    Move(player=0, dice=(6, 5), play=Play('24/18 18/13'))
    """

    player: int
    """The player who rolled: 0 (left column) or 1 (right column)."""
    dice: tuple[int, int]
    """The dice in the order written (``14:`` is ``(1, 4)``)."""
    play: Play | None
    """The steps as written (chains split into hops, ``(2)`` repeated); ``Play()`` when
    no movement is written (``52:`` alone or ``Cannot Move``); ``None`` when the play is
    unknown (XG's ``???``)."""
    line: int = field(default=0, compare=False, repr=False)
    """1-based source line (0 when not read from a file)."""
    column: int = field(default=0, compare=False, repr=False)
    """1-based source column of the roll."""
    number: int = field(default=0, compare=False, repr=False)
    """The move number written on the line (``4`` for ``"  4) 66: ..."``), 0 when none."""
    annotations: Annotations = field(default=(), compare=False, repr=False)
    """Extra data a record format carries (SGF analysis, comments...); see :data:`Annotations`."""


_NEW = object.__new__
_MOVE_SLOTS = tuple(
    Move.__dict__[name].__set__
    for name in ("player", "dice", "play", "line", "column", "number", "annotations")
)


def new_move(
    player: int,
    dice: tuple[int, int],
    play: Play | None,
    line: int,
    column: int,
    number: int,
    annotations: Annotations = (),
) -> Move:
    """``Move(player, dice, play, line, column, number, annotations)`` for the readers'
    hot paths: the values are the readers' own (checked as they read), so the slots are
    set directly, at under half the cost of the frozen dataclass's ``__init__`` (a long
    record holds millions of moves).

    >>> new_move(0, (6, 5), Play("24/13"), 4, 6, 2) == Move(0, (6, 5), Play("24/13"))
    True
    """
    move = _NEW(Move)
    set_player, set_dice, set_play, set_line, set_column, set_number, set_notes = _MOVE_SLOTS
    set_player(move, player)
    set_dice(move, dice)
    set_play(move, play)
    set_line(move, line)
    set_column(move, column)
    set_number(move, number)
    set_notes(move, annotations)
    return move


@dataclass(frozen=True, slots=True)
class Double:
    """``Doubles => value``: ``player`` offers the cube at ``value``."""

    player: int
    value: int
    """The cube value offered (2 for the first double)."""
    line: int = field(default=0, compare=False, repr=False)
    column: int = field(default=0, compare=False, repr=False)
    number: int = field(default=0, compare=False, repr=False)
    annotations: Annotations = field(default=(), compare=False, repr=False)
    """Extra data a record format carries (SGF analysis, comments...); see :data:`Annotations`."""


@dataclass(frozen=True, slots=True)
class Take:
    """``Takes``: ``player`` accepts the double."""

    player: int
    line: int = field(default=0, compare=False, repr=False)
    column: int = field(default=0, compare=False, repr=False)
    number: int = field(default=0, compare=False, repr=False)
    annotations: Annotations = field(default=(), compare=False, repr=False)
    """Extra data a record format carries (SGF analysis, comments...); see :data:`Annotations`."""


@dataclass(frozen=True, slots=True)
class Drop:
    """``Drops``: ``player`` refuses the double and loses the game."""

    player: int
    line: int = field(default=0, compare=False, repr=False)
    column: int = field(default=0, compare=False, repr=False)
    number: int = field(default=0, compare=False, repr=False)
    annotations: Annotations = field(default=(), compare=False, repr=False)
    """Extra data a record format carries (SGF analysis, comments...); see :data:`Annotations`."""


@dataclass(frozen=True, slots=True)
class Beaver:
    """``Beavers => value``: ``player`` takes and redoubles at once, keeping the cube."""

    player: int
    value: int
    line: int = field(default=0, compare=False, repr=False)
    column: int = field(default=0, compare=False, repr=False)
    number: int = field(default=0, compare=False, repr=False)
    annotations: Annotations = field(default=(), compare=False, repr=False)
    """Extra data a record format carries (SGF analysis, comments...); see :data:`Annotations`."""


@dataclass(frozen=True, slots=True)
class Raccoon:
    """``Raccoons => value``: the beavered player redoubles once more."""

    player: int
    value: int
    line: int = field(default=0, compare=False, repr=False)
    column: int = field(default=0, compare=False, repr=False)
    number: int = field(default=0, compare=False, repr=False)
    annotations: Annotations = field(default=(), compare=False, repr=False)
    """Extra data a record format carries (SGF analysis, comments...); see :data:`Annotations`."""


Action: TypeAlias = Move | Double | Take | Drop | Beaver | Raccoon
"""One entry of a game's time-ordered action list."""


@dataclass(frozen=True, slots=True)
class Result:
    """The ``Wins N point(s) [and the match]`` line of a game.

    A ``.mat`` file has no resignation token: when the game is still running at this
    line, the loser resigned. ``loser_points`` keeps BackgammonGalaxy's extra
    ``Losses N point`` line; it is informative only (the writer does not write it and
    ``==`` ignores it).
    """

    winner: int
    """The player credited with the points (0 = left, 1 = right)."""
    points: int
    """The points written on the line."""
    match_won: bool = False
    """The line says ``and the match``."""
    loser_points: int | None = field(default=None, compare=False)
    """The number on a Galaxy ``Losses`` line, if there was one."""
    line: int = field(default=0, compare=False, repr=False)
    column: int = field(default=0, compare=False, repr=False)
    number: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Game:
    """One game: its number, the score before it, its actions and its result.

    ``result`` is ``None`` when the record stops without a ``Wins`` line (an abandoned
    game). ``setup`` is the text after XG's ``; Set Pos=`` when the game starts from a
    set-up position (see :func:`bgkit.formats.mat.parse_set_pos`).
    """

    number: int
    """The number on the ``Game N`` line."""
    score: tuple[int, int]
    """Points of players 0 and 1 before this game (cumulative in money sessions)."""
    actions: tuple[Action, ...]
    """Rolls and cube actions in time order."""
    result: Result | None
    """The ``Wins`` line, or ``None``."""
    setup: str | None = None
    """XG's ``; Set Pos=`` text, kept verbatim, e.g. ``"-B-CBBB---a---A---ABcbbbd-/0"``."""
    line: int = field(default=0, compare=False, repr=False)
    """1-based line of the ``Game N`` line."""
    annotations: Annotations = field(default=(), compare=False, repr=False)
    """Extra data of the game's header (SGF: its root node's other properties)."""
    column: int = field(default=0, compare=False, repr=False)
    """1-based column of the ``Game`` word (0 when not read from a file)."""
    score_places: tuple[tuple[int, int], ...] = field(default=(), compare=False, repr=False)
    """``(line, column)`` of each player's number on the score line, when read from a file."""
    after_result: tuple[Action, ...] = field(default=(), compare=False, repr=False)
    """Actions written after the result line: a fault the verifier reports (writers drop
    them)."""
    source_name: str | None = field(default=None, compare=False, repr=False)
    """The file this game was read from when it is not the match's (a game of a gnubg
    text export series, one file per game); ``None``: the match's file."""

    @property
    def winner(self) -> int | None:
        """The player credited by the ``Wins`` line, or ``None``."""
        return None if self.result is None else self.result.winner

    @property
    def moves(self) -> tuple[Move, ...]:
        """The rolls only (no cube actions)."""
        return tuple(a for a in self.actions if isinstance(a, Move))

    @property
    def cube_turned_at_start(self) -> bool:
        """Whether the game starts from a :attr:`setup` whose cube is already turned."""
        if self.setup is None or "/" not in self.setup:
            return False
        return self.setup.rsplit("/", 1)[1].strip().lstrip("-") not in ("", "0")

    def _repr_html_(self) -> str:
        """A compact HTML summary for Jupyter (:func:`bgkit.reports.record_html.game_html`)."""
        from bgkit.reports.record_html import game_html

        return game_html(self)

    def __repr__(self) -> str:
        end = (
            "unfinished"
            if self.result is None
            else (f"player {self.result.winner} wins {self.result.points}")
        )
        return (
            f"<Game {self.number} ({self.score[0]}-{self.score[1]}, "
            f"{len(self.actions)} actions, {end})>"
        )


@dataclass(frozen=True, slots=True)
class ReadError:
    """A line of a record file that could not be read; the rest of the record was read.

    The verifier reports each as an error at its place (:mod:`bgkit.verify`).
    """

    line: int
    """1-based line of the fault."""
    column: int
    """1-based column of the first character that could not be read."""
    message: str
    """What is wrong, as :class:`~bgkit.errors.NotationError` would say it."""
    move: int = 0
    """The move number of the line (its own ``n)`` or the one before it), 0 when none."""
    player: int | None = None
    """The player whose column the fault stands in, ``None`` when it is in neither."""
    source_name: str | None = None
    """The file of the line, when it is not the match's (a record read from several
    files, as gnubg's export series); ``None``: the match's own."""
    record: bool = True
    """Whether the line held part of the record; ``False`` for a line of analysis beside
    it (gnubg's candidate plays...): the actions around it are all read, and verified."""
    analysis: bool = False
    """Whether the value is a part of the record's own analysis (gnubg's candidate plays,
    cube analysis or luck, XG's rollouts; never part of the record): the verifier notes
    it (``unreadable-analysis``), where another value it cannot read is an error."""


_TAGS_SCANNED = 64
"""Tags :meth:`Match.tag` looks through one by one; a record with more (a GMD record may
repeat its ``Rank`` and ``Location`` lines without end) is looked up in an index, so that
the verifier's few look-ups a game do not cost the tags each (issue 29: 40,000 ``Rank``
lines and 1,000 games took 5.9 s to verify, the 1,000 games alone 0.2 s)."""

_TAG_INDEXES: dict[int, tuple[tuple[tuple[str, str], ...], dict[str, str]]] = {}
"""The index of the last few long tag lists, by ``id`` (each kept with its list, so that
the ``id`` is not another's)."""


def _tag_index(tags: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """The first value of each key of ``tags`` (lower case), made once for a list."""
    kept = _TAG_INDEXES.get(id(tags))
    if kept is not None and kept[0] is tags:
        return kept[1]
    index: dict[str, str] = {}
    for k, v in tags:
        index.setdefault(k.lower(), v)
    if len(_TAG_INDEXES) >= 4:
        _TAG_INDEXES.pop(next(iter(_TAG_INDEXES)))
    _TAG_INDEXES[id(tags)] = (tags, index)
    return index


_VARIANTS = {
    "backgammon": "standard",
    "standard": "standard",
    "nackgammon": "nackgammon",
    "hypergammon": "hypergammon",
    "hypergammon (3)": "hypergammon",
    "hypergammon (2)": "hypergammon-2",
    "hypergammon (1)": "hypergammon-1",
    "longgammon": "longgammon",
}


@dataclass(frozen=True, slots=True)
class Match:
    """A match or money session: the players, the length, the games and the header.

    ``tags`` keeps every ``; [Key "value"]`` header line in file order; ``comments`` keeps
    every other ``;`` or ``#`` line (header banners, trailing notes) in file order, without
    the comment mark and one following space.

    >>> m = Match(("gnubg", "BGBlitz"), 7, (), tags=(("Variation", "NackGammon"),))
    >>> m.variant, m.is_money, m.tag("Variation"), m.tag("Site")
    ('nackgammon', False, 'NackGammon', None)
    """

    players: tuple[str, str]
    """Names of players 0 (left column) and 1 (right column), from the first score line."""
    length: int
    """Points to win the match; 0 for a money session."""
    games: tuple[Game, ...]
    tags: tuple[tuple[str, str], ...] = ()
    """Header tags ``(key, value)`` in file order (duplicates kept)."""
    comments: tuple[str, ...] = ()
    """Free-text comment lines in file order."""
    source_name: str | None = field(default=None, compare=False)
    """The file this match was read from, for messages."""
    annotations: Annotations = field(default=(), compare=False, repr=False)
    """Extra data of the whole match (SGF: the first root's ratings ``WR``/``BR``...)."""
    read_errors: tuple[ReadError, ...] = field(default=(), compare=False, repr=False)
    """The lines of the file that could not be read (the rest of the record was read),
    in file order; the verifier reports each."""

    @property
    def is_money(self) -> bool:
        """True for a money session (``0 point match``)."""
        return self.length == 0

    def tag(self, key: str, default: str | None = None) -> str | None:
        """The value of the first tag named ``key`` (case-insensitive), else ``default``."""
        wanted = key.lower()
        tags = self.tags
        if len(tags) > _TAGS_SCANNED:
            return _tag_index(tags).get(wanted, default)
        for k, v in tags:
            if k.lower() == wanted:
                return v
        return default

    @property
    def variant(self) -> str:
        """The game variant from the ``Variation`` tag.

        ``"standard"`` (also without a tag), ``"nackgammon"``, ``"hypergammon"`` (three
        checkers), ``"hypergammon-2"``, ``"hypergammon-1"`` or ``"longgammon"``; any other
        value is returned lower-cased.
        """
        value = (self.tag("Variation") or "Backgammon").strip()
        return _VARIANTS.get(value.lower(), value.lower())

    @property
    def crawford(self) -> bool:
        """The Crawford rule applies: a match without a ``Crawford "Off"`` tag."""
        return self.length > 0 and (self.tag("Crawford") or "On").lower() != "off"

    def rule(self, key: str) -> bool | None:
        """What the record says of the on/off rule ``key`` (a ``Jacoby``, ``Beaver`` or
        ``Crawford`` tag, as XG's ``.mat`` export and bgkit's readers of ``.xg`` and SGF
        write them): ``True`` for ``On``, ``False`` for ``Off``, ``None`` when it does not
        say.

        >>> Match(("A", "B"), 0, (), tags=(("Jacoby", "Off"),)).rule("jacoby")
        False
        """
        value = (self.tag(key) or "").strip().lower()
        return {"on": True, "off": False}.get(value)

    @property
    def jacoby(self) -> bool:
        """Money play with a ``Jacoby "On"`` tag."""
        return self.length == 0 and (self.tag("Jacoby") or "").lower() == "on"

    @property
    def beavers(self) -> bool:
        """Money play with a ``Beaver "On"`` tag."""
        return self.length == 0 and (self.tag("Beaver") or "").lower() == "on"

    @property
    def cube_limit(self) -> int:
        """The ``CubeLimit`` tag (1 means no cube), 1024 when absent or unreadable."""
        value = (self.tag("CubeLimit") or "").strip()
        return int(value) if value.isascii() and value.isdigit() and int(value) > 0 else 1024

    @property
    def score(self) -> tuple[int, int]:
        """The score at the end of the record: the last game's starting score plus the
        points its result line gives, capped at the match length (a match ends there).

        In a money session, the points each player won over the session. A record that
        stops in the middle of a game gives the score before that game.

        >>> from bgkit.formats import read_match
        >>> m = read_match("data/sample.mat")
        >>> m.players, m.length, m.score, m.winner
        (('gnubg', 'root'), 7, (7, 4), 0)
        """
        if not self.games:
            return (0, 0)
        counted = self.games[-1:] if self.length else self.games  # (money: some writers
        score = list(counted[0].score)  # head every game 0-0, so add up every result)
        for game in counted:
            if game.result is not None:
                score[game.result.winner] += game.result.points
        if self.length:
            score = [min(points, self.length) for points in score]
        return (score[0], score[1])

    @property
    def winner(self) -> int | None:
        """The player (0 or 1) who won the match: the one whose :attr:`score` reached the
        length, or whom the last result line says won it (``and the match``: a forfeit
        credits the points needed). In a money session, the player ahead at the end.
        ``None`` for a match that stops before its end, or a session that ends level.
        """
        first, second = self.score
        if self.length:
            if first >= self.length or second >= self.length:
                return 0 if first >= self.length else 1
            last = self.games[-1].result if self.games else None
            return last.winner if last is not None and last.match_won else None
        if first == second:
            return None
        return 0 if first > second else 1

    def crawford_game(self) -> int | None:
        """The index in :attr:`games` of the Crawford game, or ``None``.

        As GNU Backgammon decides it: the first game whose starting score has exactly
        one player at ``length - 1`` (only when :attr:`crawford` applies). When that game
        starts from a set-up position with the cube already turned (a record that begins
        after the Crawford game), the Crawford game is not in the record.
        """
        if not self.crawford:
            return None
        away = self.length - 1
        for i, game in enumerate(self.games):
            if (game.score[0] == away) != (game.score[1] == away):
                return None if game.cube_turned_at_start else i
        return None

    def initial_position(
        self,
        game: Game | int,
        *,
        score: tuple[int, int] | None = None,
        crawford: bool | None = None,
    ) -> Position:
        """The position at the start of ``game`` (a :class:`Game` of this match or its index).

        The board is the variant's starting layout or the game's ``; Set Pos=`` setup; the
        player on roll is the player of the game's first action (0 when it has none);
        score, length, Crawford, Jacoby, beavers and cube limit come from the record.

        :param score: start from this score instead of the game's (the score a verifier
            counted from the results before it).
        :param crawford: whether this is the Crawford game, instead of what
            :meth:`crawford_game` says (which looks at the games before it).
        :raises InvalidPositionError: when the record describes an impossible start
            (a score already past the match length, a bad setup).
        :raises NotationError: when the ``; Set Pos=`` text is malformed.
        """
        from bgkit.position import Position

        index = game if isinstance(game, int) else self.games.index(game)
        g = self.games[index]
        turn = g.actions[0].player if g.actions else 0
        fields: dict[str, object] = {
            "turn": turn,
            "match_length": self.length,
            "score": g.score if score is None else score,
            "crawford": index == self.crawford_game() if crawford is None else crawford,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
        }
        if g.setup is not None:
            from bgkit.formats.mat import parse_set_pos

            return parse_set_pos(g.setup, **fields, cube_limit=self.cube_limit)
        variant = self.variant
        if variant not in ("standard", "nackgammon", "hypergammon"):
            raise ValueError(f"no starting position for the variant {variant!r}")
        start = Position.initial(variant=variant, **fields)  # type: ignore[arg-type]
        if self.cube_limit != start.cube_limit:
            from dataclasses import replace

            start = replace(start, cube_limit=self.cube_limit)
        return start

    def to_mat(self) -> str:
        """This match as ``.mat`` text, in GNU Backgammon's layout.

        See :func:`bgkit.formats.mat.dumps_mat`.
        """
        from bgkit.formats.mat import dumps_mat

        return dumps_mat(self)

    def to_sgf(self) -> str:
        """This match as GNU Backgammon SGF text (:func:`bgkit.formats.sgf.dumps_sgf`)."""
        from bgkit.formats.sgf import dumps_sgf

        return dumps_sgf(self)

    def to_json(self) -> str:
        """This match as bgkit's lossless JSON (:func:`bgkit.formats.json_record.dumps_json`).

        >>> from bgkit.formats.json_record import parse_json
        >>> match = Match(("Ann", "Bo"), 3, ())
        >>> parse_json(match.to_json()) == match
        True
        """
        from bgkit.formats.json_record import dumps_json

        return dumps_json(self)

    def _repr_html_(self) -> str:
        """For Jupyter: the summary (:func:`~bgkit.reports.record_html.match_html`) and the match
        viewer (:func:`~bgkit.reports.viewer.viewer_html`: one board to step through every
        action; a game that breaks the rules up to its fault, where the viewer says why it
        stops)."""
        from bgkit.reports.record_html import match_html
        from bgkit.reports.viewer import viewer_html

        summary = match_html(self)
        try:
            return summary + viewer_html(self)
        except ValueError as err:  # (every BgkitError): the rules engine cannot replay it
            reason = str(err).splitlines()[0] if str(err) else type(err).__name__
            return summary + f"<p>No viewer: {html_escape(reason)}</p>"

    def __repr__(self) -> str:
        length = "money" if self.length == 0 else f"{self.length}-pt"
        n = len(self.games)
        return (
            f"<Match ({self.players[0]!r} vs. {self.players[1]!r}, {length}, "
            f"{n} game{'' if n == 1 else 's'})>"
        )


def read_error_slot(starts: Sequence[tuple[int, int]], err: ReadError) -> int:
    """Which place a line that could not be read belongs to, given the ``(line, column)``
    where each game starts, in file order: 0 before the first game, ``k + 1`` from the
    start of game ``k`` to the next game's (a fault of a binary record, with no line,
    stands first). :func:`bgkit.replay.unread_lines` places faults so."""
    if not err.line:
        return 0
    return bisect.bisect_right(starts, (err.line, err.column))


class GameStream(Sequence[Game]):
    """The games of a record, read one at a time as they are gone through (once, in
    order), for a caller that only checks each in turn: memory holds a game or two, not
    the whole record (a 64 MiB SGF holds 5 million moves). Made by
    :func:`bgkit.formats.read_streamed` where the format allows it (SGF).

    Besides going through the games, it answers what the verifier asks on the way:
    ``stream[i]`` for the game being gone through and those read ahead; ``stream[-1]``,
    once read to the end, the last game (before, the last game read ahead);
    ``len(stream)`` the number of games read so far (the record's, once at the end):
    while game ``k`` is being gone through, the next one is already read, so ``len``
    tells whether ``k`` is the last; :meth:`unread` the faults of the reading by place
    (as :func:`bgkit.replay.unread_lines`), and :meth:`any_game` reads ahead until a game
    fits.
    """

    def __init__(self, games: Iterator[Game], faults: list[ReadError]) -> None:
        self._games = games
        self._faults = faults  # (the reader appends to it as it reads)
        self._seen = 0  # faults taken from it
        self._pending: list[ReadError] = []  # faults whose place is not known yet
        self._slots: dict[int, list[ReadError]] = {}
        self._starts: list[tuple[int, int]] = []  # where each game read starts
        self._ahead: deque[Game] = deque()  # read, not yet gone through
        self._current: tuple[int, Game] | None = None
        self._done = False
        self._iterated = False

    def _read(self) -> bool:
        """Read one more game into :attr:`_ahead` (``False`` at the end)."""
        if self._done:
            return False
        game = next(self._games, None)
        if game is None:
            self._done = True
        else:
            self._ahead.append(game)
            self._starts.append((game.line, game.column))
        faults = self._faults
        if self._seen < len(faults):
            self._pending.extend(faults[self._seen :])
            self._seen = len(faults)
        if self._pending:
            waiting = []
            for err in self._pending:
                slot = read_error_slot(self._starts, err)
                if slot < len(self._starts) or self._done:
                    self._slots.setdefault(slot, []).append(err)
                else:  # (a later game may still start before it)
                    waiting.append(err)
            self._pending = waiting
        return game is not None

    def __iter__(self) -> Iterator[Game]:
        if self._iterated:
            raise RuntimeError("a GameStream is gone through once")
        self._iterated = True
        index = 0
        while self._ahead or self._read():
            game = self._ahead.popleft()
            if not self._ahead:
                self._read()  # (the next game, read ahead: whether this one is the last)
            self._current = (index, game)
            yield game
            index += 1

    def any_game(self, fits: Callable[[Game], bool]) -> bool:
        """Whether a game fits, reading ahead (and keeping what it reads) until one does."""
        if self._current is not None and fits(self._current[1]):
            return True
        if any(fits(game) for game in self._ahead):
            return True
        while self._read():
            if fits(self._ahead[-1]):
                return True
        return False

    def unread(self, slot: int) -> list[ReadError]:
        """The faults of place ``slot`` (0 before the first game, ``k + 1`` game ``k``'s),
        in file order: known for the game being gone through and the one before it."""
        return sorted(self._slots.get(slot, ()), key=lambda err: (err.line, err.column))

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> Game: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Game]: ...

    def __getitem__(self, index: int | slice) -> Game | Sequence[Game]:
        if isinstance(index, slice):
            raise TypeError("a GameStream cannot be sliced")
        if index < 0:
            index += len(self._starts)
        if self._current is not None and index == self._current[0]:
            return self._current[1]
        first_ahead = len(self._starts) - len(self._ahead)
        if first_ahead <= index < len(self._starts):
            return self._ahead[index - first_ahead]
        raise IndexError(f"game {index} of a GameStream is not held (gone through, or ahead)")
