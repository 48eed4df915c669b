"""The rules engine: :class:`Position`, an immutable backgammon position with match state.

Players are numbered as in GNU Backgammon: player 0 is the left column of a
``.mat`` record (SGF White, XG's top player "O"), player 1 the right column
(SGF Black, XG's bottom player "X").

``board[player]`` is a 26-tuple from that player's own side: index 0 holds the
checkers borne off, 1..24 the points, 25 the bar.

>>> pos = Position.initial()
>>> pos.pip_counts()
(167, 167)
>>> len(pos.legal_plays(3, 1))
16
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from bgkit.errors import (
    AmbiguousPlayError,
    IllegalActionError,
    IllegalPlayError,
    InvalidPositionError,
    excerpt,
)
from bgkit.movegen import Key, Side, _far, explain, generate, play_as_written, realize
from bgkit.play import BAR, OFF, Play, Step, format_steps

if TYPE_CHECKING:
    from bgkit.gnubgid import MatchState

_NEW = object.__new__
_SET_ATTR = object.__setattr__

__all__ = [
    "STANDARD_BOARD",
    "GameState",
    "Position",
    "ResultKind",
    "Side",
    "Status",
]


#: The standard starting layout of one side.
STANDARD_BOARD: Side = (
    0,
    0,
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
    0,
    5,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    2,
    0,
)
NACKGAMMON_BOARD: Side = (
    0,
    0,
    0,
    0,
    0,
    0,
    4,
    0,
    3,
    0,
    0,
    0,
    0,
    4,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    2,
    2,
    0,
)
HYPERGAMMON_BOARD: Side = (0,) * 22 + (1, 1, 1, 0)


class GameState(enum.IntEnum):
    """Where the game stands (the Match ID's game-state field)."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


_OVER, _PLAYING = GameState.OVER, GameState.PLAYING


class ResultKind(enum.IntEnum):
    """How a game was won; the value is the multiplier of the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


class Status(enum.IntFlag):
    """What is wrong with a position (empty = valid), as :meth:`Position.status` reports."""

    VALID = 0
    BAD_LAYOUT = enum.auto()
    TOO_MANY_CHECKERS = enum.auto()
    NEGATIVE_COUNT = enum.auto()
    BOTH_COLORS_ON_POINT = enum.auto()
    BOTH_ON_BAR_CLOSED = enum.auto()
    BAD_DICE = enum.auto()
    BAD_CUBE = enum.auto()
    BAD_SCORE = enum.auto()
    BAD_CRAWFORD = enum.auto()


@dataclass(frozen=True)  # (no slots: a copy with changes, _derive, is a dict update)
class Position:
    """An immutable position: checkers, player on roll, dice, cube and match state.

    Everything a GNU Position ID + Match ID or an XGID holds is here, and ``==``
    compares all of it. Build one with :meth:`initial`, :meth:`from_gnubg_id`,
    :meth:`from_xgid`, :meth:`from_fibs` or the constructor (the constructor
    checks the position and raises :class:`~bgkit.errors.InvalidPositionError`).
    """

    board: tuple[Side, Side]
    """``board[player]``: 26 counts from that player's side (0 = off, 25 = bar)."""
    turn: int = 0
    """The player on roll (0 or 1); during a pending double, the doubler."""
    dice: tuple[int, int] | None = None
    """The roll to play, in the order rolled, or ``None`` before rolling."""
    cube: int = 1
    """The cube value (1 when centred and never turned)."""
    cube_owner: int | None = None
    """The player who owns the cube, ``None`` when centred."""
    match_length: int = 0
    """Points to win the match; 0 for money play."""
    score: tuple[int, int] = (0, 0)
    """Points already won by players 0 and 1."""
    crawford: bool = False
    """This game is the Crawford game (no doubling)."""
    jacoby: bool = False
    """Money play: gammons count only once the cube is turned."""
    beavers: bool = False
    """Money play: beavers (and raccoons) are allowed."""
    game_state: GameState = GameState.PLAYING
    """Whether the game is running or how it ended."""
    doubled: bool = False
    """The player on roll has doubled and the opponent must take or drop."""
    resigned: int = 0
    """The player on roll offers to resign 1 (single), 2 (gammon) or 3 (backgammon) x cube."""
    cube_limit: int = 1024
    """The highest cube value allowed (XGID's last field, as a value); 1 = cubeless."""
    checkers: int = field(default=15, compare=True)
    """Checkers per side: 15, or 1-3 in hypergammon."""

    def __post_init__(self) -> None:
        status = self.status()
        if status:
            raise InvalidPositionError(_status_message(self, status), int(status))

    # ------------------------------------------------------------------ building

    @classmethod
    def initial(
        cls,
        *,
        turn: int = 0,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
        jacoby: bool = False,
        beavers: bool = False,
        variant: str = "standard",
    ) -> Position:
        """The starting position (``variant``: ``standard``, ``nackgammon`` or ``hypergammon``)."""
        layout = {
            "standard": STANDARD_BOARD,
            "nackgammon": NACKGAMMON_BOARD,
            "hypergammon": HYPERGAMMON_BOARD,
        }.get(variant.lower())
        if layout is None:
            raise ValueError(f"unsupported variant {variant!r}")
        n = sum(layout)
        return cls(
            (layout, layout),
            turn=turn,
            match_length=match_length,
            score=score,
            crawford=crawford,
            jacoby=jacoby,
            beavers=beavers,
            checkers=n,
        )

    @classmethod
    def from_layout(
        cls,
        player0: Sequence[int],
        player1: Sequence[int],
        **fields: object,
    ) -> Position:
        """Build from two 25-long lists (own points 1..24 then the bar), GNU Backgammon style.

        Borne-off counts are derived from ``checkers`` (15 unless given).
        """
        checkers = int(fields.get("checkers", 15))  # type: ignore[call-overload]
        sides = []
        for arr in (player0, player1):
            if len(arr) != 25:
                raise InvalidPositionError("a layout needs 25 counts (points 1-24, bar)")
            on_board = sum(arr)
            sides.append((checkers - on_board, *arr))
        return cls((sides[0], sides[1]), **fields)  # type: ignore[arg-type]

    @classmethod
    def from_gnubg_id(cls, text: str) -> Position:
        """Read a GNU Backgammon Position ID, optionally with its Match ID.

        ``"4HPwATDgc/ABMA"`` or ``"4HPwATDgc/ABMA:cAkAAAAAAAAE"`` (either order, as gnubg).

        :raises NotationError: when a character or field is wrong.
        :raises InvalidPositionError: when the ID decodes to an impossible position.
        """
        from bgkit import gnubgid

        return gnubgid.parse_gnubg_id(text)

    @classmethod
    def from_xgid(cls, text: str) -> Position:
        """Read an XGID (``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``)."""
        from bgkit import xgid

        return xgid.parse_xgid(text)

    @classmethod
    def from_fibs(cls, text: str) -> Position:
        """Read a FIBS ``board:`` string."""
        from bgkit import fibs

        return fibs.parse_fibs_board(text)

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read any notation bgkit knows: XGID, FIBS ``board:``, GNU Position[:Match] ID."""
        from bgkit import notation

        return notation.parse_position(text)

    def gnubg_id(self) -> str:
        """The 14-character GNU Backgammon Position ID (from the player on roll's view)."""
        from bgkit import gnubgid

        return gnubgid.position_id(self)

    def match_id(self) -> str:
        """The 12-character GNU Backgammon Match ID."""
        from bgkit import gnubgid

        return gnubgid.match_id(self)

    def xgid(self) -> str:
        """The XGID, ``XGID=`` prefix included."""
        from bgkit import xgid

        return xgid.format_xgid(self)

    def fibs(self, *, names: tuple[str, str] = ("player", "opponent")) -> str:
        """A FIBS ``board:`` string, written as GNU Backgammon writes it."""
        from bgkit import fibs

        return fibs.format_fibs_board(self, names=names)

    def __repr__(self) -> str:
        return f"Position.from_xgid({self.xgid()!r})"

    def __str__(self) -> str:
        from bgkit import ascii_board

        return ascii_board.render(self)

    def _repr_svg_(self) -> str:
        """The board as SVG, so a position shows itself in Jupyter (:mod:`bgkit.reports.svg`)."""
        from bgkit.reports import svg

        return svg.position(self)

    # ------------------------------------------------------------------ checks

    def status(self) -> Status:
        """The problems of this position, as flags (``Status.VALID`` when none)."""
        st = Status.VALID
        if (
            len(self.board) != 2
            or any(len(side) != 26 for side in self.board)
            or self.turn not in (0, 1)
        ):
            return Status.BAD_LAYOUT
        for side in self.board:
            if any(c < 0 for c in side):
                st |= Status.NEGATIVE_COUNT
            if sum(side) != self.checkers:
                st |= Status.TOO_MANY_CHECKERS
        if not 1 <= self.checkers <= 15:
            st |= Status.TOO_MANY_CHECKERS
        a, b = self.board
        for p in range(1, 25):
            if a[p] and b[25 - p]:
                st |= Status.BOTH_COLORS_ON_POINT
                break
        if a[25] and b[25] and _closed(a) and _closed(b):
            st |= Status.BOTH_ON_BAR_CLOSED
        if self.dice is not None and (
            len(self.dice) != 2 or not all(1 <= d <= 6 for d in self.dice)
        ):
            st |= Status.BAD_DICE
        if (
            self.cube < 1
            or self.cube & (self.cube - 1)
            or self.cube_owner not in (None, 0, 1)
            or (self.cube_owner is not None and self.cube == 1 and self.cube_limit > 1)
        ):
            st |= Status.BAD_CUBE
        if self.match_length < 0 or any(s < 0 for s in self.score):
            st |= Status.BAD_SCORE
        if (
            self.match_length
            and self.game_state == GameState.PLAYING
            and any(s >= self.match_length for s in self.score)
        ):
            st |= Status.BAD_SCORE
        if self.crawford and self.match_length == 0:
            st |= Status.BAD_CRAWFORD
        if self.doubled and self.dice is not None:
            st |= Status.BAD_DICE
        return st

    def is_valid(self) -> bool:
        """True when :meth:`status` finds nothing wrong (always, for a constructed Position)."""
        return not self.status()

    # ------------------------------------------------------------------ views

    @property
    def opponent(self) -> int:
        """The player not on roll."""
        return 1 - self.turn

    @property
    def is_match(self) -> bool:
        """True for match play, False for money."""
        return self.match_length > 0

    @property
    def post_crawford(self) -> bool:
        """A match game after the Crawford game: someone is 1-away and this is not Crawford."""
        return (
            self.is_match
            and not self.crawford
            and any(s == self.match_length - 1 for s in self.score)
        )

    def pip_counts(self) -> tuple[int, int]:
        """Pip counts of players 0 and 1 (the bar counts 25)."""
        return tuple(  # type: ignore[return-value]
            sum(i * c for i, c in enumerate(side)) for side in self.board
        )

    def phase(self) -> str:
        """The game phase for the player on roll, as players (and gnubg's position classes,
        coarsely) tell them apart: ``"contact"`` while checkers of the two sides must still
        pass each other, then ``"race"``, and ``"bear-off"`` once the player on roll has
        every checker left in its home board.

        >>> Position.initial().phase()
        'contact'
        >>> race = Position.parse("XGID=---EEE-----------e-ee-----:0:0:-1:00:0:0:0:0:10")
        >>> race.phase(), race.swap_turn().phase()
        ('race', 'bear-off')
        """
        me, them = self.board[self.turn], self.board[1 - self.turn]
        back, their_back = _far(me), _far(them)
        if back + their_back > 25:
            return "contact"
        return "bear-off" if back <= 6 else "race"

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off by players 0 and 1."""
        return (self.board[0][0], self.board[1][0])

    def signed_points(self, player: int = 1) -> tuple[int, ...]:
        """The 26-slot signed view from ``player``'s side (XGID order when player is 1).

        Index 0 = the other player's bar (negative), 1..24 = points (positive for
        ``player``), 25 = ``player``'s bar.
        """
        me, opp = self.board[player], self.board[1 - player]
        s = [0] * 26
        s[0] = -opp[25]
        s[25] = me[25]
        for p in range(1, 25):
            s[p] = me[p] - opp[25 - p]
        return tuple(s)

    # ------------------------------------------------------------------ game end

    def winner(self) -> int | None:
        """The player who has borne off every checker, if any."""
        for player in (0, 1):
            if self.board[player][0] == self.checkers:
                return player
        return None

    def result_kind(self, winner: int) -> ResultKind:
        """Single, gammon or backgammon for ``winner``, judged from the loser's checkers."""
        loser = self.board[1 - winner]
        if loser[0] > 0:
            return ResultKind.SINGLE
        if loser[25] or any(loser[19:25]):
            return ResultKind.BACKGAMMON
        return ResultKind.GAMMON

    def points_for(self, kind: ResultKind | int) -> int:
        """Points a win of ``kind`` is worth here: cube x kind, with the Jacoby rule in money."""
        mult = int(kind)
        if not self.is_match and self.jacoby and self.cube_owner is None and self.cube == 1:
            mult = 1
        return self.cube * mult

    def game_result(self) -> tuple[int, ResultKind, int] | None:
        """``(winner, kind, points)`` when a player has borne off all checkers, else ``None``."""
        w = self.winner()
        if w is None:
            return None
        kind = self.result_kind(w)
        return (w, kind, self.points_for(kind))

    # ------------------------------------------------------------------ cube

    def may_double(self, player: int | None = None) -> str | None:
        """Why ``player`` (default: the player on roll) may not double now; ``None`` if allowed."""
        player = self.turn if player is None else player
        if self.game_state != GameState.PLAYING:
            return "the game is over"
        if self.cube_limit <= 1:
            return "the game is played without a cube"
        if self.doubled:
            return "a double is already pending"
        if self.dice is not None:
            return "doubling comes before the roll"
        if self.crawford:
            return "no doubling in the Crawford game"
        if self.cube_owner is not None and self.cube_owner != player:
            return f"player {self.cube_owner} owns the cube"
        if self.cube * 2 > self.cube_limit:
            return f"the cube limit is {self.cube_limit}"
        if self.is_match and self.score[player] >= self.match_length:
            return "the match is over"
        return None

    def double(self) -> Position:
        """The player on roll offers a double.

        :raises IllegalActionError: when the rules forbid it (with the reason).
        """
        why = self.may_double()
        if why is not None:
            raise IllegalActionError(f"cannot double: {why}")
        return self._derive(doubled=True)  # (no dice, as may_double checked: still valid)

    def take(self) -> Position:
        """The opponent takes the pending double: cube doubles, the taker owns it."""
        if not self.doubled:
            raise IllegalActionError("cannot take: no double is pending")
        # (_derive: a power of two owned by a player stays a valid cube)
        return self._derive(doubled=False, cube=self.cube * 2, cube_owner=self.opponent)

    def drop(self) -> Position:
        """The opponent drops: the game ends, the doubler wins the cube value before the double."""
        if not self.doubled:
            raise IllegalActionError("cannot drop: no double is pending")
        return self._derive(doubled=False, game_state=GameState.DROPPED)

    def beaver(self) -> Position:
        """Money play: the taker of a pending double takes and at once redoubles.

        The cube goes to four times its value before the double, owned by the
        beaverer; the doubler's acceptance is implicit, as records write it (a
        drop of the beaver wins the beaverer half the new value).
        """
        if not self.doubled:
            raise IllegalActionError("cannot beaver: no double is pending")
        if self.is_match:
            raise IllegalActionError("cannot beaver: beavers are for money play only")
        if not self.beavers:
            raise IllegalActionError("cannot beaver: beavers are not allowed in this session")
        return self._derive(doubled=False, cube=self.cube * 4, cube_owner=self.opponent)

    def raccoon(self) -> Position:
        """Money play: after a beaver the doubler redoubles again (cube x2, his cube)."""
        if self.is_match or self.cube_owner != self.opponent or self.doubled:
            raise IllegalActionError("cannot raccoon: no beaver to answer")
        return self._derive(cube=self.cube * 2, cube_owner=self.turn)

    def drop_value(self) -> int:
        """Points the doubler wins when the pending double is dropped."""
        return self.cube

    # ------------------------------------------------------------------ turns

    def roll(self, d1: int, d2: int) -> Position:
        """The player on roll rolls ``d1 d2`` (order kept)."""
        if self.doubled:
            raise IllegalActionError("cannot roll: a double is pending")
        if self.dice is not None:
            raise IllegalActionError("cannot roll: the dice are already rolled")
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise IllegalActionError(f"dice must be 1-6: {d1}{d2}")
        return replace(self, dice=(d1, d2))

    def with_dice(self, d1: int | tuple[int, int] | str, d2: int | None = None) -> Position:
        """The same position with the player on roll holding the dice (replacing any).

        The roll is two numbers, a pair, or text (``"31"``, ``"3-1"``, ``"3 1"``):

        >>> pos = Position.initial()
        >>> pos.with_dice(3, 1).dice, pos.with_dice((3, 1)).dice, pos.with_dice("31").dice
        ((3, 1), (3, 1), (3, 1))

        :raises IllegalActionError: when a die is not 1-6, or the roll is not two dice.
        """
        if d2 is None:
            d1, d2 = _roll(d1)
        elif not isinstance(d1, int):
            raise IllegalActionError(f"dice: give two numbers, a pair or text, not {d1!r}, {d2!r}")
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise IllegalActionError(f"dice must be 1-6: {d1}{d2}")
        return self._derive(dice=(d1, d2), doubled=False)

    def swap_turn(self) -> Position:
        """The same position with the other player on roll and no dice."""
        return replace(self, turn=self.opponent, dice=None, doubled=False, resigned=0)

    def legal_plays(self, d1: int | None = None, d2: int | None = None) -> list[Play]:
        """Every distinct legal play for the roll (distinct by resulting position).

        Uses ``self.dice`` when no dice are given. The rules applied: enter from the
        bar first, no landing on a point held by two or more opposing checkers,
        doubles play four times, use as many dice as possible, the higher die when
        only one can be used, bear off only with all checkers home and with a
        larger die only from the highest point.

        When no play is possible the list is **empty** (as GNU Backgammon counts
        it); apply the empty play ``Play()`` to pass the turn. Each play lists its steps
        in the order ``str`` writes them (:meth:`Play.ordered`).
        """
        found = self.legal_results(d1, d2).values()
        return [play.ordered() for play in found]  # (the steps in the order str writes them)

    def legal_results(self, d1: int | None = None, d2: int | None = None) -> dict[Key, Play]:
        """``{(mover side, opponent side): play}`` for every distinct legal play.

        The plays' steps are in the order the move generator found them (the hot path of
        analysis); :meth:`legal_plays` gives them in the order ``str`` writes them.
        """
        return generate(self.board[self.turn], self.board[self.opponent], *self._dice(d1, d2))

    def _dice(self, d1: int | None, d2: int | None) -> tuple[int, int]:
        if d1 is None or d2 is None:
            if self.dice is None:
                raise IllegalActionError("no dice: roll first or pass the dice")
            return self.dice
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise IllegalActionError(f"dice must be 1-6: {d1}{d2}")
        return (d1, d2)

    def apply(self, play: Play | str, *, check: bool = True) -> Position:
        """The position after the player on roll makes ``play``; the opponent is then on roll.

        With ``check`` (default) the play is resolved against the dice and the rules
        (:meth:`resolve`); compact notation is accepted. Without dice, or with
        ``check=False``, the steps are applied as written with only the basic checks
        (a checker to move, no landing on a made point): for setting up positions.

        :raises IllegalPlayError: when the play is not legal, with the reason.
        :raises AmbiguousPlayError: when compact notation fits several results.
        """
        if isinstance(play, str):
            play = Play.parse(play)
        if check and self.dice is not None:
            return self.resolve_apply(play)[1]
        if self.game_state != GameState.PLAYING:
            raise IllegalPlayError("the game is over")
        me_l, opp_l = list(self.board[self.turn]), list(self.board[self.opponent])
        for s in play.steps:
            reason = _apply_written_step(me_l, opp_l, s)
            if reason:
                raise IllegalPlayError(reason)
        return self._after((tuple(me_l), tuple(opp_l)))

    def _after(self, key: Key) -> Position:
        me, opp = key
        new = _NEW(Position)  # (a _derive inlined: the verifier's hot path)
        values = self.__dict__.copy()  # (then set as the new one's: faster than update)
        turn = values["turn"]
        values["board"] = (opp, me) if turn == 1 else (me, opp)
        values["turn"] = 1 - turn
        values["dice"] = None
        values["doubled"] = False
        values["game_state"] = _OVER if me[0] == values["checkers"] else _PLAYING
        _SET_ATTR(new, "__dict__", values)
        return new

    def _derive(self, **changes: object) -> Position:
        """A copy with ``changes``, skipping the validity check.

        Only for transitions that keep a valid position valid (a legal play, new dice):
        the full check costs more than the move generation it would guard.
        """
        new = object.__new__(Position)
        values = new.__dict__  # (written directly: frozen only guards setattr)
        values.update(self.__dict__)
        values.update(changes)
        return new

    def resolve(self, play: Play | str) -> Play:
        """The legal one-step-per-die play that ``play`` (as written) stands for.

        The order of parts, compact hops (``24/14*`` with 64) and repeats are all
        accepted: the written play is compared with every legal play by its result.
        Where hops that span several dice leave the result open (which blot was hit
        on the way), the points the record writes decide, then its hit marks.

        :raises IllegalPlayError: when no legal play gives that result (with why).
        :raises AmbiguousPlayError: when several legal results still fit.
        """
        if isinstance(play, str):
            play = Play.parse(play)
        return self.resolve_apply(play)[0]

    def resolve_apply(self, play: Play) -> tuple[Play, Position]:
        """:meth:`resolve` and :meth:`apply` at once: the legal play and the position after."""
        resolved, after, _ = self._resolve_checked(play)
        return resolved, after

    def _resolve_checked(
        self, play: Play, dice: tuple[int, int] | None = None
    ) -> tuple[Play, Position, bool]:
        """:meth:`resolve_apply`, and whether the play can be made as written.

        The flag is false when the written stops cannot be played literally although
        the result is legal (:meth:`literal_results` is empty for it). ``dice`` stands
        for :meth:`with_dice` first (the verifier's hot path).
        """
        if self.game_state != GameState.PLAYING:
            raise IllegalPlayError("the game is over")
        d1, d2 = dice if dice else (None, None)
        if not (d1.__class__ is int and d2.__class__ is int and 0 < d1 < 7 and 0 < d2 < 7):
            d1, d2 = self._dice(d1, d2)  # (the roll checked, or the position's own dice)
        steps = play.steps
        turn, board = self.turn, self.board
        me0, opp0 = board[turn], board[1 - turn]
        if len(steps) > 4:  # each step takes a die at least: refuse before any search
            raise IllegalPlayError(
                f"{excerpt(play.spelled())} has {len(steps)} steps, but a play has at"
                " most four (one per die)"
            )
        if steps:
            # fast paths: a play that uses every die, hop by hop legally, with one possible
            # result is legal without generating the alternatives (no die was left unused;
            # play_as_written takes no step that does not move)
            plain = play_as_written(me0, opp0, d1, d2, play)
            if plain is not None:
                return plain[1], self._after(plain[0]), True
            if len(steps) < (4 if d1 == d2 else 2) and all(s.dst for s in steps):
                # fewer steps than dice, each of one die, none bearing off (a roll of which
                # one die only can be played): made in the written order, each step has
                # one result, the one the search below finds; legal when a legal play
                # gives it, and the only one that leaves the mover's checkers so
                part = play_as_written(me0, opp0, d1, d2, play, every_die=False)
                if part is not None:
                    key = part[0]
                    results = generate(me0, opp0, d1, d2)
                    if key in results and sum(k[0] == key[0] for k in results) == 1:
                        return results[key].ordered(), self._after(key), True
        idle = next((s for s in steps if s.src == s.dst), None)
        if idle is not None:  # (a record read as written may hold one: 6/6)
            raise IllegalPlayError(f"{play.spelled()}: {idle} does not move the checker")
        if steps:
            literal = realize(me0, opp0, d1, d2, play)
            if len(literal) == 1:
                ((key, hops),) = literal.items()
                if len(hops.steps) == (4 if d1 == d2 else 2):
                    return hops, self._after(key), True
        else:
            literal = {(me0, opp0): play}
        results = generate(me0, opp0, d1, d2)
        key = _match_written(me0, opp0, d1, d2, play, results)
        return results.get(key, Play()).ordered(), self._after(key), key in literal

    def literal_results(self, play: Play) -> dict[Key, Play]:
        """The results of playing ``play`` hop by hop exactly as written, in any order.

        Empty when the written stops cannot be played as written (a stop on a made
        point, say), even if another route gives a legal result.
        """
        d1, d2 = self._dice(None, None)
        return realize(self.board[self.turn], self.board[self.opponent], d1, d2, play)

    def explain(self, play: Play | str) -> str | None:
        """Why ``play`` is illegal for this position and its dice, or ``None`` when it is legal."""
        try:
            self.resolve(play)
        except IllegalPlayError as err:
            return err.reason
        except AmbiguousPlayError:
            return None
        return None

    # ------------------------------------------------------------------ state ids

    def match_state(self) -> MatchState:
        """The Match ID fields (for :mod:`bgkit.gnubgid`)."""
        from bgkit import gnubgid

        return gnubgid.MatchState.of(self)


def _match_written(
    me0: Side, opp0: Side, d1: int, d2: int, play: Play, results: dict[Key, Play]
) -> Key:
    """The legal result that the written ``play`` stands for (see :meth:`Position.resolve`)."""
    if not results:
        if not play.steps:
            return me0, opp0
        raise IllegalPlayError(
            f"no legal play with {d1}{d2}: the player must pass, but {play} was played"
        )
    if not play.steps:
        raise IllegalPlayError(
            f"no movement for {d1}{d2}, but {next(iter(results.values()))} was possible"
        )
    # the mover's own layout is fixed by the written steps; which blots were hit is not
    mine = list(me0)
    for s in play.steps:
        mine[s.src] -= 1
        mine[s.dst] += 1
    if any(c < 0 for c in mine):
        bad = next(p for p in range(26) if mine[p] < 0)
        where = "on the bar" if bad == BAR else f"on the {bad}-point"
        present = me0[bad]
        if not present:
            raise IllegalPlayError(f"there is no checker {where} to move")
        moved = present - mine[bad]
        raise IllegalPlayError(
            f"{format_steps(play.steps)} moves {moved} checkers from {where.split(' ', 1)[1]},"
            f" but only {present} {'is' if present == 1 else 'are'} there"
        )
    target = tuple(mine)
    fits = [key for key in results if key[0] == target]
    if not fits:
        raise IllegalPlayError(explain(me0, opp0, d1, d2, play, results))
    if len(fits) == 1:
        return fits[0]
    # several results: the stops the record writes decide which blots were hit ...
    literal = realize(me0, opp0, d1, d2, play)
    fits = [key for key in fits if key in literal] or fits
    if len(fits) == 1:
        return fits[0]
    # ... then its hit marks
    marked = play.hits()
    by_marks = [key for key in fits if results[key].hits() == marked]
    if len(by_marks) == 1:
        return by_marks[0]
    options = " or ".join(str(results[key]) for key in fits)
    raise AmbiguousPlayError(f"{format_steps(play.steps)} with {d1}{d2} is ambiguous: {options}")


def _roll(dice: object) -> tuple[int, int]:
    """``(3, 1)``, ``[3, 1]``, ``"31"``, ``"3-1"`` or ``"3 1"`` as two numbers."""
    if isinstance(dice, str):
        digits = [c for c in dice if not c.isspace() and c not in "-,"]
        if len(digits) == 2 and all(c in "123456" for c in digits):
            return int(digits[0]), int(digits[1])
    elif (
        isinstance(dice, tuple | list)
        and len(dice) == 2
        and all(isinstance(d, int) and not isinstance(d, bool) for d in dice)
    ):
        return dice[0], dice[1]
    raise IllegalActionError(f"dice must be two dice 1-6, such as (3, 1) or '31': {dice!r}")


def _closed(side: Side) -> bool:
    return all(side[p] >= 2 for p in range(1, 7))


def _status_message(pos: Position, status: Status) -> str:
    parts = []
    if status & Status.BAD_LAYOUT:
        parts.append("the board must be two sides of 26 counts and turn 0 or 1")
    if status & Status.NEGATIVE_COUNT:
        parts.append("a checker count is negative")
    if status & Status.TOO_MANY_CHECKERS:
        counts = [sum(s) for s in pos.board] if len(pos.board) == 2 else []
        parts.append(f"each side must have {pos.checkers} checkers, not {counts}")
    if status & Status.BOTH_COLORS_ON_POINT:
        a, b = pos.board
        p = next(p for p in range(1, 25) if a[p] and b[25 - p])
        parts.append(f"both players have checkers on player 0's {p}-point")
    if status & Status.BOTH_ON_BAR_CLOSED:
        parts.append("both players are on the bar against closed boards")
    if status & Status.BAD_DICE:
        parts.append(f"bad dice {pos.dice}")
    if status & Status.BAD_CUBE:
        parts.append(f"bad cube {pos.cube} owned by {pos.cube_owner}")
    if status & Status.BAD_SCORE:
        parts.append(f"bad score {pos.score} for a {pos.match_length}-point match")
    if status & Status.BAD_CRAWFORD:
        parts.append("the Crawford rule needs a match, not money play")
    return "impossible position: " + "; ".join(parts)


def _hit_points(play: Play) -> frozenset[int]:
    """The points where ``play`` hits, for comparing with written hit marks."""
    return frozenset(s.dst for s in play.steps if s.hit)


def _apply_written_step(me: list[int], opp: list[int], s: Step) -> str | None:
    """Apply one written step without dice (for setting up / editing); return a reason or None."""
    if me[s.src] <= 0:
        where = "on the bar" if s.src == BAR else f"on the {s.src}-point"
        return f"{s}: no checker {where} to move"
    if s.dst != OFF:
        held = opp[25 - s.dst]
        if held >= 2:
            return f"blocked: {s} lands on a point held by {held} opposing checkers"
        if held == 1:
            opp[25 - s.dst] = 0
            opp[BAR] += 1
    me[s.src] -= 1
    me[s.dst] += 1
    return None


def sides_of(players: Iterable[Sequence[int]]) -> tuple[Side, Side]:
    """Two 26-count sides as tuples (a convenience for tests and readers)."""
    a, b = (tuple(int(c) for c in side) for side in players)
    return (a, b)
