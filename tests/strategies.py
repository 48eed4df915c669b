"""Hypothesis strategies for bgkit values, for any test module to reuse.

``positions()`` draws random *legal* :class:`~bgkit.Position` values: checkers anywhere
(on the bar and borne off included, never both colours on one point), either player on
roll, dice or none, a cube of any size with or without an owner, money play (with the
Jacoby and beaver rules) or a match (with scores and the Crawford game), pending doubles
and resignations. The defaults (15 checkers, a game in play, no pending resignation,
the Jacoby and beaver rules only in money play) give positions that an XGID holds
exactly; widen or narrow them with the keyword arguments.

>>> from hypothesis import find
>>> find(positions(), lambda p: p.board[0][25] > 0).board[0][25]
1
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import assume
from hypothesis import strategies as st

from bgkit import GameState, InvalidPositionError, Position

__all__ = ["boards", "positions"]

_MAX_CUBE_EXPONENT = 12  # gnubg's largest cube, 4096


@st.composite
def boards(draw: st.DrawFn, checkers: int = 15) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two sides of ``checkers`` each, spread over off (0), the points and the bar (25).

    Player 1 only uses points that player 0 leaves empty, so no point is shared.
    """
    slots0 = draw(st.lists(st.integers(0, 25), min_size=checkers, max_size=checkers))
    side0 = [0] * 26
    for slot in slots0:
        side0[slot] += 1
    free = [0, 25] + [p for p in range(1, 25) if not side0[25 - p]]
    slots1 = draw(st.lists(st.sampled_from(free), min_size=checkers, max_size=checkers))
    side1 = [0] * 26
    for slot in slots1:
        side1[slot] += 1
    return (tuple(side0), tuple(side1))


@st.composite
def positions(
    draw: st.DrawFn,
    *,
    checkers: int | None = 15,
    match: bool | None = None,
    game_states: Sequence[GameState] = (GameState.PLAYING,),
    doubles: bool = True,
    resignations: bool = False,
    cubeless: bool = True,
) -> Position:
    """A random legal position.

    :param checkers: checkers per side; ``None`` draws 1-15.
    :param match: ``True`` for match play (1-64 points), ``False`` for money, ``None``
        for either.
    :param game_states: the game states to draw from.
    :param doubles: allow a pending double (dice are then not rolled).
    :param resignations: allow a pending resignation.
    :param cubeless: allow a cube limit of 1 (cubeless play); other limits are 2**1..2**15.
    """
    n = draw(st.integers(1, 15)) if checkers is None else checkers
    board = draw(boards(n))
    turn = draw(st.integers(0, 1))
    is_match = draw(st.booleans()) if match is None else match
    length = draw(st.integers(1, 64)) if is_match else 0
    if length:
        score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    else:
        score = (draw(st.integers(0, 50)), draw(st.integers(0, 50)))
    one_away = [s == length - 1 for s in score].count(True) == 1 if length > 1 else False
    crawford = one_away and draw(st.booleans())
    jacoby = beavers = False
    if not length:
        jacoby, beavers = draw(st.booleans()), draw(st.booleans())

    limit_exp = draw(st.sampled_from([10, *range(0 if cubeless else 1, 16)]))
    cube_exp = 0 if crawford else draw(st.integers(0, min(limit_exp, _MAX_CUBE_EXPONENT)))
    owner = draw(st.sampled_from([None, 0, 1])) if cube_exp else None

    dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    doubled = False
    if doubles and dice is None and not crawford and owner in (None, turn):
        doubled = draw(st.booleans())
    resigned = 0
    if resignations and not doubled:
        resigned = draw(st.integers(0, 3))
    state = draw(st.sampled_from(list(game_states)))
    try:
        return Position(
            board,
            turn=turn,
            dice=dice,
            cube=1 << cube_exp,
            cube_owner=owner,
            match_length=length,
            score=score,
            crawford=crawford,
            jacoby=jacoby,
            beavers=beavers,
            game_state=state,
            doubled=doubled,
            resigned=resigned,
            cube_limit=1 << limit_exp,
            checkers=n,
        )
    except InvalidPositionError:  # both on the bar against closed boards: rare
        assume(False)
        raise
