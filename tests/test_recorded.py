"""``bgkit.analysis.recorded.same_action``: whether gnubg's record of an action, read back
from the SGF it saved, is the action bgkit handed it (a season's match, a deeper
analysis's piece). The oracle is the rules engine: two plays are the same when they
leave the same position."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgkit.analysis.match import _replay
from bgkit.analysis.recorded import same_action
from bgkit.formats import read_match
from bgkit.play import Play
from bgkit.records import Double, Move
from bgkit.replay import ReplayStep

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample.mat"


@pytest.fixture(scope="module")
def steps() -> list[ReplayStep]:
    found, _ = _replay(read_match(SAMPLE))
    return list(found)


def test_a_play_written_otherwise_is_the_same_action(steps: list[ReplayStep]) -> None:
    """Steps in another order, a chain in hops or in one, a hit not marked: the same."""
    opening, reply, hit = steps[0], steps[2], steps[3]
    assert str(opening.play) == "24/16" and str(reply.play) == "16/15 13/8"
    assert str(hit.play) == "13/10* 6/5"
    assert same_action(opening, Move(1, (6, 2), Play("24/18 18/16")))
    assert same_action(reply, Move(1, (5, 1), Play("13/8 16/15")))
    assert same_action(hit, Move(0, (3, 1), Play("6/5 13/10")))


def test_another_play_roll_player_or_kind_is_not(steps: list[ReplayStep]) -> None:
    reply = steps[2]
    assert not same_action(reply, Move(1, (5, 1), Play("13/8 8/7")))  # another play
    assert not same_action(reply, Move(1, (6, 1), Play("16/15 13/8")))  # another roll
    assert not same_action(reply, Move(0, (5, 1), Play("16/15 13/8")))  # the other player
    assert not same_action(reply, Double(1, 2))
    assert not same_action(reply, Move(1, (5, 1), None))  # no play recorded
    assert not same_action(reply, Move(1, (5, 1), Play("6/1 6/5")))  # not legal here
