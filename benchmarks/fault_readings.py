"""How many faults the verifier invents after one, and how many it finds after one (#28).

Each clean record of ``data/selfplay`` (the first 30) and ``data/real/mat`` gets plays
changed as a transcriber might: one step written the wrong way round, or one point
written one lower (a seeded choice of 15 plays a record).

* ``one``: one play changed; a run *cascades* when the verifier reports an error anywhere
  but at the changed play (an error that follows from it, not a fault of the record).
* ``two``: one play changed in the first half of a game, and a later play one point lower
  where that alone is an error (a genuine fault); the run counts whether that second fault
  is still reported at its place.
* the same two with the first play erased (the roll recorded with no move, a play lost
  from the record) instead of changed.

``PYTHONPATH=OTHER_TREE`` measures another bgkit. Measured when it was added, seeds 1-3:
runs that cascade, 323, 348 and 350 of 1,095 before the legal readings, 0, 1 and 2 with
them; the second fault found 249 of 808, 268 of 804 and 272 of 829 times before, every
time with them (about 1.4 times the CPU). A play lost, seeds 1-3: runs that cascade, 776,
801 and 776 of 1,095 before the dance's legal readings, 0 with them; a later fault found
324 of 812, 329 of 825 and 333 of 817 times before, every time with them (about 2.5 times
the CPU of those faulty records)::

    python benchmarks/fault_readings.py --seed 1
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

from bgkit.formats import read_match
from bgkit.play import BAR, OFF, Play, Step
from bgkit.records import Action, Match, Move
from bgkit.verify import Report, verify

ROOT = Path(__file__).resolve().parent.parent


def records() -> list[Match]:
    paths = sorted((ROOT / "data" / "selfplay").glob("*.mat"))[:30]
    paths += sorted((ROOT / "data" / "real" / "mat").glob("*.mat"))
    matches = [read_match(p) for p in paths]
    return [m for m in matches if verify(m).ok]


def changed(action: Move, kind: str, rng: random.Random) -> Move:
    assert action.play is not None
    steps = list(action.play.steps)
    k = rng.randrange(len(steps))
    s = steps[k]
    if kind == "reverse" and s.dst != OFF and s.src != BAR:
        steps[k] = Step(s.dst, s.src)
    else:
        steps[k] = Step(s.src, max(OFF, s.dst - 1))
    return replace(action, play=Play(steps))


def with_actions(match: Match, game: int, actions: Sequence[Action]) -> Match:
    games = list(match.games)
    games[game] = replace(games[game], actions=tuple(actions))
    return replace(match, games=tuple(games))


def move(action: Action) -> Move:
    assert isinstance(action, Move)
    return action


def at(report: Report, action: Move) -> bool:
    return any((e.line, e.column) == (action.line, action.column) for e in report.errors)


def pick(match: Match, rng: random.Random) -> tuple[int, list[Action], list[int]]:
    """A game of ``match`` at random, its actions, and the indices of its plays of two
    steps or more."""
    g = rng.randrange(len(match.games))
    actions = list(match.games[g].actions)
    plays = [
        i
        for i, a in enumerate(actions)
        if isinstance(a, Move) and a.play and len(a.play.steps) >= 2
    ]
    return g, actions, plays


def spoiled(action: Move, lost: bool, rng: random.Random) -> Move:
    """The first fault of a run: the play changed as a transcriber might, or with ``lost``
    erased (the roll recorded with no move: a play lost from the record)."""
    if lost:
        return replace(action, play=Play())
    return changed(action, rng.choice(["reverse", "lower"]), rng)


def one(matches: list[Match], rng: random.Random, lost: bool = False) -> str:
    runs = cascades = 0
    for match in matches:
        for _ in range(15):
            g, actions, plays = pick(match, rng)
            if not plays:
                continue
            i = rng.choice(plays)
            new = spoiled(move(actions[i]), lost, rng)
            actions[i] = new
            report = verify(with_actions(match, g, actions))
            runs += 1
            cascades += any((e.line, e.column) != (new.line, new.column) for e in report.errors)
    what = "one play lost" if lost else "one change"
    return f"{what}: {cascades} of {runs} runs report an error elsewhere"


def two(matches: list[Match], rng: random.Random, lost: bool = False) -> str:
    runs = found = 0
    for match in matches:
        for _ in range(15):
            g, original, plays = pick(match, rng)
            if len(plays) < 4:
                continue
            first = rng.choice(plays[: len(plays) // 2])
            second = rng.choice([i for i in plays if i > first + 1])
            actions = list(original)
            actions[first] = spoiled(move(actions[first]), lost, rng)
            fault = changed(move(original[second]), "lower", rng)
            alone = list(original)
            alone[second] = fault
            if not at(verify(with_actions(match, g, alone)), fault):
                continue  # (not a fault of its own)
            actions[second] = fault
            runs += 1
            found += at(verify(with_actions(match, g, actions)), fault)
    what = "one play lost and a later fault" if lost else "two changes"
    return f"{what}: the second fault found in {found} of {runs} runs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    matches = records()
    for measure in (one, two, partial(one, lost=True), partial(two, lost=True)):
        started = time.process_time()
        line = measure(matches, random.Random(args.seed))
        print(f"{line} ({time.process_time() - started:.1f} CPU s)")


if __name__ == "__main__":
    main()
