"""How an analysis's workers send their figures back (``bgkit.analysis.tasks``): each
frozen dataclass as its fields' values, through the workers' own pickler only
(``tasks._dumps``)."""

from __future__ import annotations

import pickle
import pickletools

import pytest

from bgkit.analysis.evaluator import CubeDecision
from bgkit.analysis.tasks import Figures, _dumps
from bgkit.formats.annotations import CandidatePlay, Probabilities
from bgkit.play import Play, Step

CHANCES = (0.52, 0.15, 0.008, 0.13, 0.007)


def figures() -> Figures:
    probs = Probabilities(*CHANCES)
    return Figures(
        CubeDecision(0.096, -0.233, 1.0, available=False),
        0.021,
        -0.635,
        4,
        "bar/23 11/5*",
        -0.614,
        -0.946,
        2,
        (
            CandidatePlay(Play("bar/23 11/5*"), -0.614, probs, "Cubeful 0-ply"),
            CandidatePlay(Play("6/off 5/off(3)"), -0.946, None, None, 0.41),
            CandidatePlay(Play(()), -1.0),
        ),
        CHANCES,
    )


@pytest.mark.parametrize(
    "value",
    [figures(), Figures(), Figures(luck=0.5, luck_mean=0.1), Step(25, 23, hit=True)],
    ids=["whole", "empty", "luck only", "step"],
)
def test_figures_come_back_equal(value: object) -> None:
    back = pickle.loads(_dumps(value))
    assert back == value and repr(back) == repr(value)
    assert type(back) is type(value)


def opcodes(data: bytes) -> set[str]:
    return {op.name for op, _, _ in pickletools.genops(data)}


def test_the_workers_pickler_sends_fields_and_a_users_pickle_is_pythons() -> None:
    """Fields through the constructor (REDUCE), not Python's state of each object
    (BUILD), which looks up the class's fields again for every object."""
    sent = opcodes(_dumps(figures()))
    assert "BUILD" not in sent and "REDUCE" in sent
    assert "BUILD" in opcodes(pickle.dumps(figures(), pickle.HIGHEST_PROTOCOL))
