"""``bgkit hint``'s take point against GNU Backgammon's match equity table, at scores where
a result brings a player to 1-away (the next game is then the Crawford game, or, when a
player was 1-away already, a post-Crawford game).

gnubg's table (its default, Kazaross-XG2, and its post-Crawford rows) is read in a gnubg
process of its own; the take point is worked out from it here: the taker's share of
games won that makes taking as good as passing, with a dead cube and no gammons.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache

import pytest
from click.testing import CliRunner

from bgkit.position import Position

pytest.importorskip("gnubg")

LENGTH = 7

_TABLE = """
import json, gnubg
for c in ("set display off", "set sound enable off"):
    gnubg.command(c)
pre, post0, post1 = gnubg.met(%d)
print(json.dumps([pre, post0, post1]))
"""


@cache
def gnubg_table() -> tuple[list[list[float]], list[float]]:
    out = subprocess.run(
        [sys.executable, "-c", _TABLE % LENGTH], capture_output=True, text=True, check=True
    ).stdout
    pre, post0, _ = json.loads(out.strip().splitlines()[-1])
    return pre, post0


def _mwc(me: int, them: int, crawford_reached: bool) -> float:
    """gnubg's MWC of a player at score ``me`` against ``them`` before the next game."""
    if me >= LENGTH:
        return 1.0
    if them >= LENGTH:
        return 0.0
    pre, post = gnubg_table()
    a, b = LENGTH - me, LENGTH - them
    if crawford_reached and b == 1 and a > 1:
        return float(post[a - 1])
    if crawford_reached and a == 1 and b > 1:
        return 1.0 - float(post[b - 1])
    return float(pre[a - 1][b - 1])


def gnubg_take_point(score: tuple[int, int], cube: int) -> float:
    """Player 0 doubles to ``2 * cube``: player 1's take point."""
    reached = LENGTH - max(score) == 1
    passed = _mwc(score[1], score[0] + cube, reached)
    win = _mwc(score[1] + 2 * cube, score[0], reached)
    lose = _mwc(score[1], score[0] + 2 * cube, reached)
    return (passed - lose) / (win - lose)


#: (score, cube, cube owner): every one has a result that reaches 1-away
CASES = [
    ((5, 4), 1, None),
    ((4, 5), 1, None),
    ((5, 5), 1, None),
    ((5, 2), 1, None),
    ((2, 5), 1, None),
    ((3, 3), 1, None),
    ((4, 3), 1, None),
    ((1, 2), 2, 0),
    ((2, 4), 1, None),
]


@pytest.mark.parametrize(("score", "cube", "owner"), CASES)
def test_take_point_is_gnubgs_where_a_result_reaches_one_away(
    score: tuple[int, int], cube: int, owner: int | None
) -> None:
    from bgkit.cli import main

    pos = Position.initial(match_length=LENGTH, score=score)
    if owner is not None:
        from dataclasses import replace

        pos = replace(pos, cube=cube, cube_owner=owner)
    result = CliRunner().invoke(main, ["hint", pos.xgid(), "--plies", "0", "--json"])
    assert result.exit_code == 0, result.output
    mine = json.loads(result.output)["cube"]["take_point"]
    assert mine == pytest.approx(gnubg_take_point(score, cube), abs=1e-6)
