"""Following the checkers of a record game step by step, for the writers that store plays
one step per die (SGF, OGXM).

A ``.mat`` record may write ``24/14*`` for a 64, or ``13/11(4)``; formats that keep one
step per die need the steps the rules make of it. :func:`game_steps` works them out for
one game, in an order a checker can follow, and says which plays those steps do not give
back as written (the writer then keeps the written form in a property of its own).

Nothing here judges a record: a play the position cannot resolve is written as its own
steps when each covers one die, and refused (``ValueError``) otherwise.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from bgkit.errors import AmbiguousPlayError, IllegalPlayError, InvalidPositionError, NotationError
from bgkit.play import BAR, OFF, Play, Step
from bgkit.position import HYPERGAMMON_BOARD, NACKGAMMON_BOARD, STANDARD_BOARD, Position
from bgkit.records import Game, Match, Move


@functools.cache
def _step(src: int, dst: int, hit: bool) -> Step:
    """One shared :class:`Step` per move (they are frozen): a long record holds millions
    of steps, and a new object for each cost 56 bytes."""
    return Step(src, dst, hit)


@functools.lru_cache(maxsize=1 << 16)
def shared_play(steps: tuple[Step, ...]) -> Play:
    """One shared :class:`Play` per play seen lately (frozen too): a long record repeats
    its plays, and each cost about 100 bytes."""
    return Play(steps)


@functools.cache
def shared_dice(d1: int, d2: int) -> tuple[int, int]:
    """One shared tuple per roll (as :func:`_step`, for the dice of every move)."""
    return (d1, d2)


__all__ = ["Board", "GameSteps", "count_letter", "game_steps", "set_pos_sides", "variant_board"]


def variant_board(variant: str) -> tuple[int, ...]:
    """One side's starting layout (index 0 off .. 25 bar) for a variant name of Match.variant."""
    if variant == "nackgammon":
        return NACKGAMMON_BOARD
    if variant == "hypergammon":
        return HYPERGAMMON_BOARD
    if variant == "hypergammon-2":
        return (0,) * 23 + (1, 1, 0)
    if variant == "hypergammon-1":
        return (0,) * 24 + (1, 0)
    return STANDARD_BOARD


def count_letter(count: int) -> str:
    """XG's letter for ``count`` checkers on a point (``a`` = 1)."""
    if count > 16:
        raise ValueError(f"{count} checkers on one point")
    return chr(ord("a") + count - 1)


def set_pos_sides(setup: str) -> tuple[list[int], list[int]]:
    """The two sides of a Set Pos text, read as far as it goes (for broken setups)."""
    sides = [[0] * 26, [0] * 26]
    for i, ch in enumerate(setup.split("/")[0][:26]):
        if ch.isalpha():
            n = ord(ch.lower()) - ord("a") + 1
            if ch.isupper():
                sides[0][i if i else 25] += n
            else:
                sides[1][25 - i if i < 25 else 25] += n
    for side in sides:
        side[0] = max(0, 15 - sum(side))
    return sides[0], sides[1]


class Board:
    """Checkers of both players (own numbering: 0 off, 1-24, 25 bar), followed step by step.

    It applies steps as written, without the rules: only to mark hits when reading and to
    know the position when writing.
    """

    __slots__ = ("checkers", "sides")

    def __init__(self, side0: Sequence[int], side1: Sequence[int]) -> None:
        self.sides = [list(side0), list(side1)]
        self.checkers = sum(side0)

    @classmethod
    def start(cls, variant: str, setup: str | None) -> Board:
        if setup is not None:
            try:
                from bgkit.formats.mat import parse_set_pos

                pos = parse_set_pos(setup, checkers=sum(variant_board(variant)))
                return cls(pos.board[0], pos.board[1])
            except (NotationError, InvalidPositionError):
                pass  # a broken setup: follow the checkers from the layout as well as we can
            return cls(*set_pos_sides(setup))
        board = variant_board(variant)
        return cls(board, board)

    def copy(self) -> Board:
        return Board(self.sides[0], self.sides[1])

    def can_play(self, player: int, steps: Sequence[Step]) -> bool:
        """True when every step moves a checker that is there and lands on no made point."""
        me, opp = list(self.sides[player]), list(self.sides[1 - player])
        for s in steps:
            if me[s.src] <= 0 or (s.dst != OFF and opp[25 - s.dst] >= 2):
                return False
            if s.dst != OFF and opp[25 - s.dst] == 1:
                opp[25 - s.dst] = 0
            me[s.src] -= 1
            me[s.dst] += 1
        return True

    def play_hits(self, player: int, steps: Iterable[Step]) -> int:
        """:meth:`play`, returning which steps hit as bits (1 << k for step k): what
        a reader needs, without a list of steps for each play."""
        me, opp = self.sides[player], self.sides[1 - player]
        hits = 0
        for k, s in enumerate(steps):
            src, dst = s.src, s.dst
            if dst != OFF and opp[25 - dst] == 1:
                opp[25 - dst] = 0
                opp[BAR] += 1
                hits |= 1 << k
            if me[src] > 0:
                me[src] -= 1
            me[dst] += 1
        return hits

    def play(self, player: int, steps: Iterable[Step]) -> list[Step]:
        """Apply ``steps``; return them with the hits marked."""
        me, opp = self.sides[player], self.sides[1 - player]
        out = []
        for s in steps:
            hit = s.dst != OFF and opp[25 - s.dst] == 1
            if hit:
                opp[25 - s.dst] = 0
                opp[BAR] += 1
            if me[s.src] > 0:
                me[s.src] -= 1
            me[s.dst] += 1
            out.append(_step(s.src, s.dst, hit))
        return out

    def borne_off(self, player: int) -> bool:
        """Whether ``player`` has no checker left on the board."""
        return self.sides[player][OFF] >= self.checkers

    def set_pos(self, cube: int, owner: int | None) -> str:
        """XG's ``Set Pos`` text for these checkers and the cube (ValueError if impossible)."""
        chars = ["-"] * 26
        for p in range(1, 26):
            count = self.sides[0][p]
            if count:
                chars[p] = count_letter(count).upper()
        for p in range(1, 26):
            count = self.sides[1][p]
            if count:
                i = 25 - p
                if chars[i] != "-":
                    raise ValueError(f"both players have checkers on White's {i}-point")
                chars[i] = count_letter(count)
        exponent = max(cube, 1).bit_length() - 1
        value = "0" if owner is None else str(-exponent if owner == 0 else exponent)
        return "".join(chars) + "/" + value


@dataclass(frozen=True, slots=True)
class GameSteps:
    """What :func:`game_steps` found for one game."""

    steps: dict[int, list[Step]]
    """Per action index (plays only): one step per die, in an order a checker can follow."""
    written: dict[int, str]
    """Per action index: the written play (``24/14*``), where ``steps`` with the hits they
    make do not give it back."""
    board: Board
    """The checkers after the last action."""


def game_steps(match: Match, game: Game, fail: Callable[[str], NoReturn]) -> GameSteps:
    """One step per die for every play of ``game``; ``fail`` is called with the reason
    when a play cannot be written so (``"cannot ..."``, for the format's name in front;
    it must raise)."""
    board = Board.start(match.variant, game.setup)
    steps: dict[int, list[Step]] = {}
    written: dict[int, str] = {}
    for k, action in enumerate(game.actions):
        if isinstance(action, Move) and action.play is not None:
            these = _steps_of(board, action, fail)
            marked = board.play(action.player, these)
            steps[k] = these
            if Play(marked) != action.play:  # (what the steps alone give back)
                written[k] = " ".join(
                    f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in action.play.steps
                )
    return GameSteps(steps, written, board)


def per_die(steps: Sequence[Step], dice: tuple[int, int]) -> bool:
    """True when each step covers exactly one die (a bear-off may use a larger one)."""
    d1, d2 = dice
    pool = (d1,) * 4 if d1 == d2 else (d1, d2)
    if len(steps) > len(pool):
        return False
    return any(
        all(
            s.pips == d or (s.dst == OFF and 0 < s.pips < d)
            for s, d in zip(steps, dies, strict=True)
        )
        for dies in set(itertools.permutations(pool, len(steps)))
    )


def _steps_of(board: Board, move: Move, fail: Callable[[str], NoReturn]) -> list[Step]:
    """The steps to write for ``move``: one per die, in an order a checker can follow."""
    assert move.play is not None
    if move.player not in (0, 1):
        fail(f"cannot hold player {move.player}: {move!r}")
    if not all(1 <= d <= 6 for d in move.dice):
        fail(f"cannot hold the dice {move.dice}")
    steps = list(move.play.steps)
    for s in steps:
        if not (0 <= s.dst < s.src <= 25):
            fail(f"cannot hold the step {s} in {move!r}")
    each_die = per_die(steps, move.dice)
    if each_die:
        # the record's own steps, in the first order a checker can follow them
        # (12/10 13/12 is written 13/12 12/10, not re-split as 13/11 11/10)
        for order in itertools.permutations(steps):
            if board.can_play(move.player, order):
                return list(order)
    resolved = _resolve(board, move)
    if resolved is not None:
        return resolved
    if not each_die:
        fail(
            f"cannot write {move.play} with {move.dice[0]}{move.dice[1]} as one step"
            " per die: the position does not resolve it"
        )
    return steps


def _resolve(board: Board, move: Move) -> list[Step] | None:
    """The legal one-step-per-die play a written play stands for, if the rules say."""
    assert move.play is not None
    sides = board.sides
    try:
        pos = Position(
            (tuple(sides[0]), tuple(sides[1])),
            turn=move.player,
            dice=move.dice,
            checkers=board.checkers,
        )
        return list(pos.resolve(move.play).steps)
    except (IllegalPlayError, AmbiguousPlayError, InvalidPositionError):
        return None
