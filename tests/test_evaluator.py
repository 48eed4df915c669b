"""The evaluator interface and its GNU Backgammon back-end.

The back-end reads some figures two ways: structured from ``gnubg.findbestmoves``
(fast) and from gnubg's ``eval``/``hint`` commands (printed with six decimals). The
tests check the shortcuts against the commands, and both against the worked vectors of
the analysis-metrics spec.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from bgkit.analysis.evaluator import CachedEvaluator, Candidate, CubeDecision, Evaluator
from bgkit.analysis.metrics import ROLLS
from bgkit.errors import EngineLimitError
from bgkit.formats.mat import read_mat
from bgkit.play import Play
from bgkit.position import Position
from bgkit.replay import replay

pytest.importorskip("gnubg")

import bgkit.analysis.gnubg as gnubg_evaluator
from bgkit.analysis.gnubg import (
    MADE_UP_TRIES,
    GnubgEvaluator,
    _after,
    _entering_turn,
    _made_up_turns,
    _parse,
    _predecessor,
    _result,
)

SAMPLE = "data/fixtures/selfplay_7pt_noisy.mat"


@pytest.fixture
def ev() -> GnubgEvaluator:
    """An evaluator with gnubg's cache empty (deeper searches earlier would answer)."""
    evaluator = GnubgEvaluator()
    evaluator.clear_cache()
    return evaluator


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    """The positions before every roll of a 7-point match (contact, races, bear-offs, bar)."""
    return [s.before for s in replay(read_mat(SAMPLE)) if s.kind == "move"]


def slow_evaluate(ev: GnubgEvaluator, pos: Position, plies: int = 0) -> tuple[object, ...]:
    """The evaluation and cube decision as gnubg's ``eval`` command prints them."""
    return _parse(ev._eval_text(pos, plies), plies)


def test_is_an_evaluator(ev: GnubgEvaluator) -> None:
    assert isinstance(ev, Evaluator)
    assert isinstance(CachedEvaluator(ev), Evaluator)
    assert ev.name.startswith("GNU Backgammon 1.")


def test_plies_are_keyword_only(ev: GnubgEvaluator) -> None:
    # ev.plays(pos, dice, 2) would read as dice and plies, or as something else: say so
    start = Position.initial(match_length=3, turn=1)
    for call in (
        lambda e: e.plays(start, (3, 1), 2),
        lambda e: e.evaluate(start, 2),
        lambda e: e.cube_decision(start, 2),
        lambda e: e.best_equity(start, (3, 1), 2),
        lambda e: e.best_equities(start, 2),
    ):
        for evaluator in (ev, CachedEvaluator(ev)):
            with pytest.raises(TypeError, match="positional argument"):
                call(evaluator)


def test_spec_opening_vectors(ev: GnubgEvaluator) -> None:
    """Spec sections 3 and 4: 3-point match, Black opens 31 (8/5 6/5), White rolls 52."""
    start = Position.initial(match_length=3, turn=1)
    plays = ev.plays(start, (3, 1))
    assert len(plays) == 16 and str(plays[0].play) == "8/5 6/5"
    after = start.with_dice(3, 1).apply("8/5 6/5")
    plays = ev.plays(after, (5, 2))
    best = plays[0]
    played = next(c for c in plays if str(c.play) == "13/11 13/8")
    assert str(best.play) == "24/22 13/8"
    assert best.equity == pytest.approx(-0.332822, abs=2e-6)
    assert played.equity == pytest.approx(-0.406609, abs=2e-6)
    assert ev.best_equity(after, (5, 2)) == best.equity
    values = ev.best_equities(after)
    assert values[(5, 2)] == best.equity
    mean = sum(v * (1 if r[0] == r[1] else 2) for r, v in values.items() if v is not None) / 36
    assert mean == pytest.approx(-0.25629, abs=1e-5)
    assert values[(5, 2)] - mean == pytest.approx(-0.07653, abs=1e-5)


def test_plays_are_the_legal_plays(ev: GnubgEvaluator, positions: list[Position]) -> None:
    for pos in positions[::7]:
        for roll in ((6, 5), (2, 2), (4, 1)):
            plays = ev.plays(pos, roll)
            assert {c.key for c in plays} == set(pos.legal_results(*roll))
            assert [c.equity for c in plays] == sorted((c.equity for c in plays), reverse=True)
            for cand in plays[:3]:
                assert pos.with_dice(*roll).apply(cand.play).board[pos.turn] == cand.key[0]


def test_bear_off_plays_match_gnubgs_hint(ev: GnubgEvaluator) -> None:
    """gnubg's move tuples stop at a checker borne off: bgkit scores each result instead."""
    home = [2, 2, 3, 3, 2, 2] + [0] * 19  # 14 checkers home, one borne off
    race = [0] * 5 + [3, 2, 5] + [0] * 4 + [5] + [0] * 12
    pos = Position.from_layout(home, race, match_length=7)
    for roll in ((6, 1), (4, 2), (3, 3), (5, 5)):
        plays = ev.plays(pos, roll)
        assert plays and {c.key for c in plays} == set(pos.legal_results(*roll))
        hint = {key: equity for key, equity, _, _ in ev._hint(pos, roll, 0)}
        for cand in plays:
            assert cand.equity == pytest.approx(hint[cand.key], abs=2e-6)


def test_no_legal_play(ev: GnubgEvaluator) -> None:
    on_bar = [0] * 5 + [5, 0, 3, 0, 0, 0, 2, 4] + [0] * 11 + [1]
    closed = [2] * 6 + [0, 3] + [0] * 17
    pos = Position.from_layout(on_bar, closed, match_length=5)
    assert ev.plays(pos, (3, 1)) == [] and ev.best_equity(pos, (3, 1)) is None
    assert set(ev.best_equities(pos)) == set(ROLLS)
    assert all(v is None for v in ev.best_equities(pos).values())


def test_fast_evaluation_matches_gnubgs_eval(ev: GnubgEvaluator, positions: list[Position]) -> None:
    """0-ply cubeful equities read from a made-up previous play equal ``eval``'s figures."""
    checked = 0
    for pos in positions[::5] + [replace(p, turn=p.opponent) for p in positions[3::11]]:
        if _predecessor(pos) is None:
            continue
        fast = ev.evaluate(pos)
        slow, cube = slow_evaluate(ev, pos)
        assert fast.cubeful == pytest.approx(slow.cubeful, abs=2e-6)  # type: ignore[attr-defined]
        assert fast.cubeless == pytest.approx(slow.cubeless, abs=2e-6)  # type: ignore[attr-defined]
        assert fast.probabilities == pytest.approx(slow.probabilities, abs=2e-6)  # type: ignore[attr-defined]
        decision = ev.cube_decision(pos)
        assert decision.available == cube.available  # type: ignore[attr-defined]
        assert decision.no_double == pytest.approx(cube.no_double, abs=2e-5)  # type: ignore[attr-defined]
        if decision.available:
            assert decision.double_take == pytest.approx(cube.double_take, abs=2e-5)  # type: ignore[attr-defined]
        checked += 1
    assert checked > 50


def test_predecessor_makes_a_legal_turn_into_the_position(positions: list[Position]) -> None:
    made = 0
    for pos in positions:
        found = _predecessor(pos)
        if found is None:
            continue
        before, dice = found
        target = (pos.board[before.turn], pos.board[pos.turn])
        assert target in before.legal_results(*dice)
        made += 1
    assert made > 0.8 * len(positions)


def test_made_up_turns_are_legal_turns_into_the_play(positions: list[Position]) -> None:
    """Each made-up turn a play is searched in (``_made_up_turns``) is the same player's,
    with the same cube and score, and by the rules engine the play's result is one of
    its legal results. After :func:`_predecessor`'s, each moves one checker back by a
    roll that is not a double, those that leave a blot where the play makes a point
    first (checked on ten plays of a roll at every tenth position of a 7-point match)."""
    turns = plays = 0
    for i, pos in enumerate(positions[::10]):
        for key in list(pos.legal_results(*ROLLS[(3 * i) % len(ROLLS)]))[:10]:
            plays += 1
            found = list(_made_up_turns(pos, key))
            assert len(found) == len(set(found))
            for before, dice in found:
                assert before.turn == pos.turn and before.dice is None
                assert replace(before, board=pos.board) == pos
                assert key in before.legal_results(*dice)
            turns += len(found)
            rest = found[1:] if _predecessor(_after(pos, key)) is not None else found
            for before, dice in rest:
                mover = before.board[pos.turn]
                moved = [p for p in range(26) if mover[p] != key[0][p]]
                assert dice[0] != dice[1] and moved[1] - moved[0] == sum(dice)
            flags = [_makes_point(before, key) for before, _ in rest]
            assert flags == sorted(flags, reverse=True)
    assert turns > 20 * plays


def _makes_point(before: Position, key: Any) -> bool:
    """Whether the checker moved back left a blot where the play makes a point of two."""
    mover = before.board[before.turn]
    return any(key[0][p] == 2 and mover[p] == 1 for p in range(1, 25))


def test_cube_decision_when_doubling_is_right(ev: GnubgEvaluator) -> None:
    race = Position.from_xgid("XGID=-BBBBB-C---------bbbbbbb--:0:0:1:00:0:0:0:0:10")
    decision = ev.cube_decision(race)
    assert decision.action == "double, pass"
    assert decision.no_double == pytest.approx(0.961991, abs=2e-6)
    assert ev.evaluate(race).cubeful == pytest.approx(1.0)  # the optimal equity
    slow_decision = slow_evaluate(ev, race)[1]
    assert decision == slow_decision


def test_cube_not_available(ev: GnubgEvaluator) -> None:
    pos = replace(Position.initial(match_length=7, score=(4, 2)), cube=2, cube_owner=1)
    decision = ev.cube_decision(pos)
    assert not decision.available and decision.action == "cube not available"
    assert decision.no_double == pytest.approx(ev.evaluate(pos).cubeful)


def test_money_jacoby_rule(ev: GnubgEvaluator) -> None:
    gammonish = Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    plain = ev.plays(gammonish, (6, 4))[0].equity
    jacoby = ev.plays(replace(gammonish, jacoby=True), (6, 4))[0].equity
    assert plain != jacoby


def test_deeper_search_keeps_the_play_made(ev: GnubgEvaluator) -> None:
    pos = Position.initial(match_length=7)
    worst = ev.plays(pos, (4, 4))[-1]
    plays = ev.plays(pos, (4, 4), plies=1, keep=worst.key)
    kept = next(c for c in plays if c.key == worst.key)
    assert kept.plies == 1
    assert kept.equity == pytest.approx(-ev.evaluate(_after(pos, worst.key), plies=1).cubeful)
    assert plays[0].plies == 1 and plays[0].equity >= kept.equity
    assert any(c.plies == 0 for c in plays)  # the filter stops weak plays at 0-ply


def test_hypergammon_is_not_supported(ev: GnubgEvaluator) -> None:
    pos = Position.initial(variant="hypergammon")
    with pytest.raises(EngineLimitError, match="15 checkers"):
        ev.plays(pos, (3, 1))


def test_result_of_a_gnubg_move() -> None:
    me = Position.initial().board[0]
    opp = (0,) * 24 + (1, 14)[:1] + (0,)
    key = _result(me, opp, [(24, 18), (13, 11)])
    assert key[0][18] == 1 and key[0][24] == 1 and key[0][11] == 1


def test_cached_evaluator_remembers(ev: GnubgEvaluator) -> None:
    cached = CachedEvaluator(ev)
    pos = Position.initial(match_length=5)
    first = cached.plays(pos, (4, 2))
    assert cached.best_equity(pos, (2, 4)) == first[0].equity  # from the plays, either order
    assert cached.plays(pos, (4, 2)) == first
    assert cached.evaluate(pos) == cached.evaluate(pos)
    assert cached.cube_decision(pos) == cached.cube_decision(pos)
    assert cached.best_equities(pos) == cached.best_equities(pos)
    assert cached.hits >= 5 and cached.misses == 4
    assert cached.match_equity_table() is ev.match_equity_table()


def test_cube_decision_type() -> None:
    assert CubeDecision(0.5, 0.7).double_pass == 1.0


# ---------------------------------------------------------------------- speed-ups


def test_listed_plays_score_the_positions_they_lead_to(positions: list[Position]) -> None:
    """A play's score is bit for bit minus the optimal equity a made-up turn reads for
    the position it leads to (once gnubg's net has met that position)."""
    ev = GnubgEvaluator()
    ev.clear_cache()
    checked = 0
    for pos in positions[::9]:
        for cand in ev.plays(pos, (6, 4))[:5]:
            after = _after(pos, cand.key)
            if _predecessor(after) is not None:
                assert ev._optimal(after) == -cand.equity
                assert ev._optimals  # kept
                checked += 1
    assert checked > 20


def test_cache_of_another_size(ev: GnubgEvaluator) -> None:
    """A worker of several analyses with a smaller gnubg cache: the same plays, the same
    figures (here: nothing was let go)."""
    pos = Position.initial(match_length=3)
    before = ev.plays(pos, (3, 1))
    try:
        ev.clear_cache(1 << 12)
        assert ev.plays(pos, (3, 1)) == before
    finally:
        ev.clear_cache()


def _no_made_up_turn() -> Position:
    """A position no turn of the opponent leads to (he is on the bar, nothing entered)."""
    on_bar = [0] * 5 + [5, 0, 3, 0, 0, 0, 2, 4] + [0] * 11 + [1]
    closed = [2] * 6 + [0, 3] + [0] * 17
    pos = Position.from_layout(on_bar, closed, match_length=5, turn=1)
    assert _predecessor(pos) is None
    return pos


def test_eval_asked_once_per_position(ev: GnubgEvaluator, monkeypatch: pytest.MonkeyPatch) -> None:
    pos = _no_made_up_turn()
    asked: list[str] = []
    run = gnubg_evaluator._Capture.run

    def counting(self: gnubg_evaluator._Capture, gnubg: object, command: str) -> str:
        asked.append(command)
        return run(self, gnubg, command)

    monkeypatch.setattr(gnubg_evaluator._Capture, "run", counting)
    first = ev.evaluate(pos)
    assert ev.evaluate(pos) == first
    assert ev.cube_decision(pos) == slow_evaluate(ev, pos)[1]
    assert asked.count("eval") == 2  # once for both answers, once for slow_evaluate
    assert first == slow_evaluate(ev, pos)[0]


_ONE_CPU = """
import os
import gnubg
from bgkit.analysis.gnubg import GnubgEvaluator, _predecessor, _session
from bgkit.position import Position
on_bar = [0] * 5 + [5, 0, 3, 0, 0, 0, 2, 4] + [0] * 11 + [1]
closed = [2] * 6 + [0, 3] + [0] * 17
pos = Position.from_layout(on_bar, closed, match_length=5, turn=1)
assert _predecessor(pos) is None  # gnubg's eval answers
ev, mine = GnubgEvaluator(), os.sched_getaffinity(0)
ev.evaluate(pos)
session = _session()
assert len(session.threads) == 2, session.threads
seen = []
command = gnubg.command
def watching(text):
    seen.append((text, [os.sched_getaffinity(t) for t in (0, *session.threads)]))
    return command(text)
gnubg.command = watching
ev.clear_cache()
for plies in (0, 1, 2, 3):
    ev.evaluate(pos, plies=plies)
ev.plays(Position.initial(match_length=5), (6, 5), plies=2)
gnubg.command = command
evals = [cpus for text, cpus in seen if text == "eval"]
(cache,) = [cpus for text, cpus in seen if text == "set cache 0"]
(plays,) = [cpus for text, cpus in seen if text.startswith("hint ")]
def pinned(cpus):
    return len(cpus[0]) == 1 and all(c == cpus[0] for c in cpus)
assert len(evals) == 4 and pinned(cache), seen
assert all(pinned(cpus) for cpus in evals[:3]), seen  # cube decisions of 0 to 2 plies
assert all(cpus == mine for cpus in evals[3]), seen  # 3-ply: free
assert all(cpus == mine for cpus in plays), seen  # a 2-ply search of the plays: free
assert all(os.sched_getaffinity(t) == mine for t in (0, *session.threads))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="CPU affinity: Linux")
def test_short_commands_run_on_one_cpu() -> None:
    """The caller and gnubg's threads are on the caller's CPU for 0-ply commands and cube
    decisions of up to 2 plies (gnubg's answer is then there when it first looks), free
    for deeper ones and for searches of the plays; the caller's own CPU set is as it was
    after each. (In a process of its own: other tests here change gnubg's
    threads, and then the evaluator leaves them alone.)"""
    subprocess.run([sys.executable, "-c", _ONE_CPU], check=True)


#: Two workers of a pool whose parent ran on the last CPU, each moved to the first CPU
#: before its gnubg session starts (as when both are forked onto one), report the CPUs
#: of gnubg's threads after a short command.
_OWN_CPUS = """
import os
from bgkit.workers import Forked
cpus = sorted(os.sched_getaffinity(0))
def serve(request):
    os.sched_setaffinity(0, {cpus[0]})
    os.sched_setaffinity(0, set(cpus))  # (this thread now runs on the first CPU)
    from bgkit.analysis.gnubg_process import _session
    session = _session()
    with session.one_cpu():
        pass
    return [sorted(os.sched_getaffinity(t)) for t in session.threads]
pinned = []
for number in range(2):
    worker = Forked.start(serve, number=number, first_cpu=cpus[-1])
    worker.send(None)
    ok, threads = worker.receive()
    worker.stop(now=False)
    assert ok and len(threads) == 2, threads
    pinned.append(threads)
assert pinned == [[[cpus[-1]]] * 2, [[cpus[0]]] * 2], pinned
"""


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2,
    reason="CPU affinity: Linux, two CPUs",
)
def test_each_worker_of_a_pool_keeps_gnubgs_threads_on_a_cpu_of_its_own() -> None:
    """Workers forked together put their short commands and gnubg's threads on CPUs of
    their own, from the one their parent ran on, wherever they happened to run when their
    session started: pinned where each ran, two workers of a deeper analysis shared one
    CPU for whole pieces in some runs (in a process of its own: gnubg's threads do not
    survive a fork)."""
    subprocess.run([sys.executable, "-c", _OWN_CPUS], check=True, timeout=120)


_COMPLAINTS = """
import sys
from bgkit.analysis.gnubg_process import _session, gnubg_module
gnubg, session = gnubg_module(), _session()
for command in (f"import mat {sys.argv[1]}", "first game", "first move"):
    session.run(gnubg, command)
for _ in range(40):  # (every record of the game, then past its end)
    session.run(gnubg, "analyse move")
    session.run(gnubg, "next")
"""


def test_gnubgs_complaints_do_not_reach_the_terminal() -> None:
    """What gnubg writes to standard error while bgkit runs its commands ("Please use
    `hint' on unfinished moves" past a game's end; "Please use 'analyse move' on the
    double decision" on a take) is dropped, as its standard output is read: bgkit says
    what it could not do, and a user's terminal gets no line of gnubg's among bgkit's
    (26 such lines here before)."""
    record = os.path.join(
        os.path.dirname(__file__), "..", "data", "fixtures", "handwritten_3pt.mat"
    )
    done = subprocess.run(
        [sys.executable, "-c", _COMPLAINTS, os.path.abspath(record)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stderr == ""


def test_a_command_runs_on_the_workers_cpu_else_where_the_caller_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bgkit.analysis import gnubg_process

    monkeypatch.setattr(gnubg_process, "current_cpu", lambda allowed: -7)
    monkeypatch.setattr(gnubg_process, "worker_cpu", lambda allowed: 3)
    assert gnubg_process._own_cpu({5, 3}) == 3
    monkeypatch.setattr(gnubg_process, "worker_cpu", lambda allowed: None)
    assert gnubg_process._own_cpu({5, 3}) == -7


def test_an_entering_turn_has_one_legal_play_into_the_position(positions: list[Position]) -> None:
    """The made-up turn that scores a play alone (``_entering_turn``): by the rules
    engine, its one legal play ends where the play does (checked on every play of a roll
    at every third position of a 7-point match, where the turn can be made)."""
    made = plays = 0
    for i, pos in enumerate(positions[::3]):
        for key in pos.legal_results(*ROLLS[i % len(ROLLS)]):
            plays += 1
            mover, other = key
            found = _entering_turn(mover, other)
            if found is None:
                assert sum(1 for p in range(19, 25) if mover[p] and not other[25 - p]) < 2
                continue
            side, dice = found
            board = (other, side) if pos.turn == 1 else (side, other)
            before = replace(pos, board=board, dice=None)
            assert list(before.legal_results(*dice)) == [key]
            assert sum(side) == sum(mover) and side[25] == mover[25] + 2
            made += 1
    assert made > 0.3 * plays


def searched_both_ways(
    ev: GnubgEvaluator,
    pos: Position,
    dice: tuple[int, int],
    key: Any,
    rank: int,
    search: Callable[[], Candidate | None],
) -> tuple[Candidate, Candidate] | None:
    """``search()`` from an empty cache, then the roll's own search of its plays ranked
    down to ``key`` (``rank``) from an empty one; ``None`` when ``search`` gives none or
    the roll's search leaves the play short of 2-ply (plays of equal figures ranked
    otherwise)."""
    ev.clear_cache()
    found = search()
    if found is None:
        return None
    ev.clear_cache()
    legal = pos.legal_results(*dice)
    in_roll = ev._hint_through(pos, dice, legal, 2, (0, rank + 3, 10.0))[key]
    return None if in_roll.plies != 2 else (found, in_roll)


def test_a_play_scored_alone_is_the_play_searched_with_those_above_it(
    ev: GnubgEvaluator, positions: list[Position]
) -> None:
    """A play made that 2-ply's move filters drop is searched again, as deep as the best
    plays, as gnubg's analysis does after its search. Alone, as the one play of a made-up
    turn, it has the figures (equity, depth, chances) it has in a search of the plays
    ranked down to it, which searches the same position after it."""
    compared = 0
    for i, pos in enumerate(positions[4:60:4]):
        dice = ROLLS[(5 * i) % len(ROLLS)]
        legal = pos.legal_results(*dice)
        ranks = sorted(ev._ranks(pos, dice).items(), key=lambda item: item[1])
        for key, rank in ranks[6:8]:  # (plays the filters usually drop)
            search = partial(ev._scored_alone, pos, legal[key], key, 2)
            both = searched_both_ways(ev, pos, dice, key, rank, search)
            if both is None:
                continue
            alone, with_others = both
            assert alone.plies == 2
            # (six printed decimals; the nets add up in another order: a unit apart at most)
            assert alone.equity == pytest.approx(with_others.equity, abs=1.01e-6)
            assert alone.probabilities == pytest.approx(with_others.probabilities, abs=1.01e-6)
            compared += 1
    assert compared >= 5


def made_up_searches(
    ev: GnubgEvaluator,
    positions: Sequence[Position],
    step: int,
    ranked: slice,
    wanted: Callable[[Position, Any], bool] = lambda pos, key: True,
    before: Callable[[], object] = lambda: None,
) -> Iterator[tuple[Play, Candidate, Candidate]]:
    """For each position (the ``step``-th roll of :data:`ROLLS` after the last), its
    first play ranked within ``ranked`` at 0-ply that no entering turn scores and
    ``wanted`` accepts, searched both ways (:func:`searched_both_ways`): the play, its
    ``_searched_made_up`` figures and the roll's. ``before()`` runs before each search."""
    for i, pos in enumerate(positions):
        dice = ROLLS[(step * i) % len(ROLLS)]
        legal = pos.legal_results(*dice)
        for key, rank in sorted(ev._ranks(pos, dice).items(), key=lambda item: item[1])[ranked]:
            if _entering_turn(*key) is not None or not wanted(pos, key):
                continue
            before()
            search = partial(ev._searched_made_up, pos, legal[key], key, 2, rank)
            both = searched_both_ways(ev, pos, dice, key, rank, search)
            if both is not None:
                yield legal[key], *both
                break


def same_figures(play: Play, found: Candidate, in_roll: Candidate) -> None:
    """``found`` is ``play`` searched 2-ply, with the figures of the roll's search (the
    nets meet the turn's plays in another order than the roll's, and add up in float32:
    a few units of the sixth decimal, against 1e-5 in the analysis)."""
    assert found.play == play and found.plies == 2
    assert found.equity == pytest.approx(in_roll.equity, abs=5e-6)
    assert found.probabilities == pytest.approx(in_roll.probabilities, abs=5e-6)


def test_a_play_searched_in_a_made_up_turn_is_the_play_searched_in_its_roll(
    ev: GnubgEvaluator, positions: list[Position]
) -> None:
    """Where no entering turn scores a play alone, a made-up turn that ranks it higher
    than its roll does (``_searched_made_up``) searches fewer plays for the same figures:
    it searches the same position after the play. (31 plays of this match compared:
    equities 2e-6 apart at most, chances 1e-6; six here.)"""
    found = list(itertools.islice(made_up_searches(ev, positions[2::3], 7, slice(4, 12)), 6))
    for play, made_up, in_roll in found:
        same_figures(play, made_up, in_roll)
    assert len(found) == 6


def test_a_play_a_made_up_turn_ranks_first_is_searched_alone(
    ev: GnubgEvaluator, positions: list[Position], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where one of the first made-up turns ranks a play first at 0-ply, the play is
    searched there alone (one play to 2-ply, as gnubg's analysis scores the play made),
    with the figures it has in the roll's search of the plays ranked down to it."""
    deep: list[int] = []
    hint = GnubgEvaluator._hint

    def counted(self: GnubgEvaluator, *args: Any, **kwargs: Any) -> list[Any]:
        found = hint(self, *args, **kwargs)
        deep.append(sum(1 for _, _, plies, _ in found if plies == 2))
        return found

    def ranked_first(pos: Position, key: Any) -> bool:
        turns = itertools.islice(_made_up_turns(pos, key), MADE_UP_TRIES)
        return any(ev._ranks(before, dice).get(key) == 0 for before, dice in turns)

    monkeypatch.setattr(GnubgEvaluator, "_hint", counted)
    compared = 0
    searches = made_up_searches(ev, positions[1::4], 5, slice(5, 9), ranked_first, deep.clear)
    for play, alone, in_roll in itertools.islice(searches, 4):
        assert deep[0] == 1  # (then the roll's search, for the comparison)
        same_figures(play, alone, in_roll)
        compared += 1
    assert compared == 4


def test_a_made_up_turn_ranks_a_play_its_roll_ranks_105th_8th(ev: GnubgEvaluator) -> None:
    """The case that made a 2-ply analysis 6x gnubg's: a 1-1 of 277 plays, the play made
    ranked 105th, one of the mover's checkers in the opponent's home board (no entering
    turn). Its roll's search took 276 plays to 2-ply (5.4 s); the made-up turn's, 10."""
    pos = Position.from_xgid("XGID=---A-BDAB-AA----A-ccc-ccB-:1:1:1:00:0:0:0:3:10")
    ranks = ev._ranks(pos, (1, 1))
    assert len(pos.legal_results(1, 1)) == len(ranks) == 277
    key = next(k for k, r in ranks.items() if r == 105)
    assert _entering_turn(*key) is None
    made_up = _predecessor(_after(pos, key))
    assert made_up is not None
    before, dice = made_up
    assert ev._ranks(before, dice)[key] == 7
