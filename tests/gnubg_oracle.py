"""GNU Backgammon's move generator (``gnubg_nn``) as an independent oracle for bgkit.

This is a helper for the tests and benchmarks, not a test module.

Boards here are in ``gnubg_nn`` order: ``(opponent, mover)``, two 25-tuples of counts
from each player's own side (index 0..23 = points 1..24, index 24 = the bar), with the
player on roll second. A bgkit side is a 26-tuple (0 = borne off, 1..24, 25 = bar), so
a gnubg 25-list is simply ``side[1:]``.

Positions for differential testing come from random games (:func:`random_positions`):
both players pick uniformly among ``gnubg_nn.moves`` results, so the games are full of
hits, dances and bear-offs against contact. A share of "runner" games prefers plays
that bring the back checkers home, reaching the race and bear-off quickly; from those
only the no-contact positions are kept, so bear-offs are well covered.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeAlias

import gnubg_nn

from bgkit import Position
from bgkit.position import HYPERGAMMON_BOARD, NACKGAMMON_BOARD, STANDARD_BOARD, Side

Half: TypeAlias = tuple[int, ...]
"""One player's 25 counts in gnubg order (points 1..24, then the bar)."""
Board: TypeAlias = tuple[Half, Half]
"""``(opponent, mover)``: a gnubg_nn board with the player on roll second."""

#: The 21 distinct rolls, higher die first: 11, 21, 22, 31, 32, 33, ... 66.
ROLLS: tuple[tuple[int, int], ...] = tuple(
    (d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)
)

#: Starting layout of one side per variant, as a bgkit side.
VARIANTS: dict[str, Side] = {
    "standard": STANDARD_BOARD,
    "nackgammon": NACKGAMMON_BOARD,
    "hypergammon": HYPERGAMMON_BOARD,
}


# ---------------------------------------------------------------------- conversions


def half_of(side: Side) -> Half:
    """A bgkit side (26 counts) as a gnubg half-board (25 counts, no borne-off slot)."""
    return tuple(side[1:])


def side_of(half: Half, checkers: int = 15) -> Side:
    """A gnubg half-board as a bgkit side; the borne-off count makes up ``checkers``."""
    return (checkers - sum(half), *half)


def board_of(pos: Position) -> Board:
    """The gnubg_nn board of ``pos`` (the player on roll second)."""
    return (half_of(pos.board[pos.opponent]), half_of(pos.board[pos.turn]))


def position_of(board: Board, checkers: int = 15, *, turn: int = 0) -> Position:
    """A bgkit :class:`Position` for ``board`` with player ``turn`` on roll."""
    opp, me = board
    p0, p1 = (me, opp) if turn == 0 else (opp, me)
    return Position.from_layout(p0, p1, turn=turn, checkers=checkers)


def result_board(key: tuple[Side, Side]) -> Board:
    """A key of :meth:`Position.legal_results` (mover side, opponent side) as a board."""
    me, opp = key
    return (opp[1:], me[1:])


def bgkit_results(pos: Position, d1: int, d2: int) -> set[Board]:
    """The boards bgkit says the player on roll can reach with ``d1 d2``."""
    return {(opp[1:], me[1:]) for me, opp in pos.legal_results(d1, d2)}


def gnubg_results(board: Board, d1: int, d2: int) -> set[Board]:
    """The boards GNU Backgammon says the player on roll (``board[1]``) can reach."""
    from_key = gnubg_nn.board_from_position_key
    return {from_key(key) for key in gnubg_nn.moves(_lists(board), d1, d2)}


def gnubg_count(board: Board, d1: int, d2: int) -> int:
    """How many distinct plays (resulting boards) GNU Backgammon finds; 0 for a dance."""
    return len(gnubg_nn.moves(_lists(board), d1, d2))


def gnubg_dice_used(board: Board, d1: int, d2: int) -> int:
    """How many dice GNU Backgammon's legal plays use (0 when no play is possible)."""
    found = gnubg_nn.moves(_lists(board), d1, d2, 1)
    return max((len(steps) for _key, steps in found), default=0)


def position_id(board: Board) -> str:
    """The 14-character GNU Backgammon Position ID of ``board`` (as gnubg_nn writes it)."""
    return str(gnubg_nn.position_id(_lists(board)))


def board_from_id(pid: str) -> Board:
    """The board of a GNU Backgammon Position ID (decoded by gnubg_nn)."""
    opp, me = gnubg_nn.board_from_position_id(pid)
    return (tuple(opp), tuple(me))


def swap(board: Board) -> Board:
    """The same board with the other player on roll."""
    return (board[1], board[0])


def has_contact(board: Board) -> bool:
    """True while some checker of one player still has to pass a checker of the other."""
    opp, me = board
    back_me = max((i for i, n in enumerate(me) if n), default=-1)
    back_opp = max((i for i, n in enumerate(opp) if n), default=-1)
    return back_me >= 0 and back_opp >= 0 and back_me + back_opp >= 24


def layout(me: dict[int, int], opp: dict[int, int], opp_bar: int = 0) -> Board:
    """A board from ``{point: count}`` maps, both in the mover's numbering (25 = bar).

    ``opp`` places the opponent's checkers on the points as the mover counts them,
    so ``{13: 2}`` blocks the mover's 13-point (the opponent's 12-point). Checkers
    not placed are borne off.
    """
    mine = [0] * 25
    theirs = [0] * 25
    for point, n in me.items():
        mine[point - 1] += n
    for point, n in opp.items():
        theirs[24 - point] += n  # the mover's point p is the opponent's point 25 - p
    theirs[24] = opp_bar
    return (tuple(theirs), tuple(mine))


#: Building blocks for :func:`layout`. 14 checkers on the mover's 1-point cannot move
#: while the 15th is outside the home board, so only that one plays.
PARKED: dict[int, int] = {1: 14}
#: An opponent racing home, as the mover sees it: no contact with a mover who is home.
RACING_OPP: dict[int, int] = {23: 2, 22: 2, 21: 3, 20: 3, 19: 3, 13: 2}


def _lists(board: Board) -> list[list[int]]:
    # gnubg_nn wants lists, not tuples
    return [list(board[0]), list(board[1])]


# ---------------------------------------------------------------------- random games


@dataclass(frozen=True, slots=True)
class GamePosition:
    """A position reached in a game: the board (player on roll second) and checkers a side."""

    board: Board
    checkers: int = 15

    def position(self, *, turn: int = 0) -> Position:
        """The bgkit :class:`Position` (player ``turn`` on roll)."""
        return position_of(self.board, self.checkers, turn=turn)

    @property
    def position_id(self) -> str:
        """The GNU Backgammon Position ID."""
        return position_id(self.board)


#: Default shares of runner games and of nackgammon/hypergammon games.
RUNNER_SHARE = 0.3
VARIANT_SHARE = 0.1


def _forwardness(half: Half) -> int:
    """Smaller when the mover's checkers are further forward (back checkers weigh most)."""
    return sum(n * (i + 1) ** 2 for i, n in enumerate(half))


def play_game(
    rng: random.Random,
    *,
    variant: str = "standard",
    runner: bool = False,
    max_plies: int = 2000,
) -> Iterator[Board]:
    """Play one game with random dice and yield the board before each roll.

    Each player picks uniformly among GNU Backgammon's legal results; a ``runner``
    picks, four times in five, a result that moves its checkers furthest forward
    (weighted towards the back checkers), so the game soon becomes a race. The
    opening roll is never a double. The game ends when a player has borne off all.
    """
    start = half_of(VARIANTS[variant])
    board: Board = (start, start)
    for ply in range(max_plies):
        yield board
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while ply == 0 and d1 == d2:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        keys = gnubg_nn.moves(_lists(board), d1, d2)
        if keys:
            results = [gnubg_nn.board_from_position_key(k) for k in keys]
            if runner and rng.random() < 0.8:
                best = min(_forwardness(r[1]) for r in results)
                results = [r for r in results if _forwardness(r[1]) == best]
            board = rng.choice(results)
            if not any(board[1]):
                return
        board = swap(board)


def _pick_game(
    rng: random.Random, *, runner_share: float, variant_share: float
) -> tuple[str, bool]:
    """Draw a game's variant and whether it is a runner game."""
    variant = "standard"
    if rng.random() < variant_share:
        variant = rng.choice(("nackgammon", "hypergammon"))
    return variant, rng.random() < runner_share


def game_position(seed: int) -> GamePosition:
    """One position from one random game: a uniform pick among the game's positions.

    The variant and the runner policy are drawn from ``seed`` too, with the default
    shares of :func:`random_positions`.
    """
    rng = random.Random(seed)
    variant, runner = _pick_game(rng, runner_share=RUNNER_SHARE, variant_share=VARIANT_SHARE)
    boards = list(play_game(rng, variant=variant, runner=runner))
    return GamePosition(rng.choice(boards), sum(VARIANTS[variant]))


def random_positions(
    count: int,
    seed: int = 2024,
    *,
    keep: float = 0.35,
    runner_share: float = RUNNER_SHARE,
    variant_share: float = VARIANT_SHARE,
) -> list[GamePosition]:
    """``count`` distinct positions from random games, reproducible from ``seed``.

    Each position of a game is kept with probability ``keep``. A ``runner_share`` of
    the games are runner games, of which only the no-contact positions (race and
    bear-off) are kept. A ``variant_share`` of the games are nackgammon or
    hypergammon (3 checkers a side).
    """
    rng = random.Random(seed)
    seen: set[Board] = set()
    out: list[GamePosition] = []
    while len(out) < count:
        variant, runner = _pick_game(rng, runner_share=runner_share, variant_share=variant_share)
        checkers = sum(VARIANTS[variant])
        for board in play_game(rng, variant=variant, runner=runner):
            if runner and has_contact(board):
                continue
            if board in seen or rng.random() >= keep:
                continue
            seen.add(board)
            out.append(GamePosition(board, checkers))
            if len(out) == count:
                break
    return out
