"""A deeper analysis's piece made by GNU Backgammon's own ``analyse move`` (issue 31).

Internal to :mod:`bgkit.analysis`. A worker of a deeper analysis of a match
(:class:`~bgkit.analysis.tasks.Runner`) hands gnubg the record as the ``.mat`` text bgkit
wrote from it (gnubg's importer never sees the user's file), goes to the piece's first
action and runs gnubg's ``analyse move`` on each action in turn: the code gnubg's
``analyse match`` runs for each (``AnalyzeMove``), so each action's figures are gnubg's
own, in gnubg's own order, at gnubg's own cost. A piece within a game first analyses the
actions before it again from an empty cache, as many as the search is deep, for what they
leave in gnubg's cache (measured, ``benchmarks/gnubg_moves.py``: every move node of each
piece is then the one-thread ``analyse match``'s SGF byte for byte). gnubg then saves the
match as SGF and the figures are read from it as a record's own analysis is
(:func:`bgkit.formats.sgf_analysis.analysis_of`).

Each roll's luck is gnubg's, as its SGF writes it (``LU``: five decimals), and so are the
cube decisions and the candidate plays (six). What gnubg does not write is bgkit's: the
roller's equity before the roll (:attr:`Figures.luck_mean`, the luck's reference) is the
rolled roll's best 0-ply equity less gnubg's luck (for a roll that dances, the mean the
other rolls and the luck make: :func:`_mean`), the equities asked of gnubg after the
piece from an empty cache, not between two of its ``analyse move`` (see :func:`_rolls`):
so it may stand some 1e-3 EMG off the reference gnubg's luck took where its cache held
deeper figures.

``None`` (the worker then searches the piece itself, as for a money session) when gnubg's
reading of the record is not bgkit's: another action, player, roll or play at a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bgkit.analysis.evaluator import Chances, CubeDecision, Evaluator
from bgkit.position import Position
from bgkit.records import Move

if TYPE_CHECKING:
    from bgkit.analysis.gnubg_process import _Session
    from bgkit.analysis.tasks import Figures, Task, _Shares
    from bgkit.formats.annotations import ActionAnalysis
    from bgkit.records import Action, Match
    from bgkit.replay import ReplayStep

__all__ = ["Record", "analyse_piece"]

_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))


@dataclass(frozen=True)
class Record:
    """What a worker needs to have gnubg analyse a match's actions itself."""

    mat: str
    """The match as ``.mat`` text, as bgkit writes it."""
    steps: Sequence[ReplayStep]
    """Each task's action with its positions (the tasks' order)."""


def analyse_piece(
    ev: Evaluator,
    record: Record,
    tasks: Sequence[Task],
    start: int,
    stop: int,
    lead: int,
    slot: int | None,
    shares: _Shares | None,
) -> list[Figures] | None:
    """The figures of ``tasks[start:stop]``, gnubg's ``analyse move`` after ``tasks[lead:
    start]`` (see the module docstring), or ``None`` when gnubg read the record otherwise.
    ``slot`` and ``shares`` as for :func:`~bgkit.analysis.tasks.run_piece`: the piece ends
    before the task its stop names when another worker took the rest."""
    from bgkit.analysis.gnubg_process import _searching, _session, gnubg_module
    from bgkit.analysis.tasks import _forget

    gnubg = gnubg_module()
    session = _session()
    plies = tasks[lead].plies
    _import(gnubg, session, record.mat)
    _searching(plies)
    for kind in ("chequerplay", "cubedecision"):
        session.run(gnubg, f"set analysis {kind} evaluation plies {plies}")
    here: tuple[int, int] | None = None  # (game, action) of gnubg's current move
    end = lead
    for i in range(lead, stop):
        if shares is not None and slot is not None:
            if i >= start and i >= shares.stop(slot):  # (the rest went to another worker)
                break
            shares.begin(slot, i)
        step = record.steps[i]
        game, action = step.game_index, step.action_index
        if i == lead or tasks[i].first:
            _forget(ev)  # (a game, or a piece, from an empty cache)
            _go(gnubg, session, game, action)
        elif here is not None and here[0] == game and action > here[1]:
            with session.one_cpu():
                session.run(gnubg, f"next {action - here[1]}")
        else:  # pragma: no cover (tasks are in record order)
            _go(gnubg, session, game, action)
        here = (game, action)
        with session.one_cpu():  # (gnubg's threads answer sooner so: the pieces' waits)
            session.run(gnubg, "analyse move")
        end = i + 1
    back = _saved(gnubg, session)
    if back is None:
        return None
    _forget(ev)  # (the rolls' equities at 0-ply whatever the piece left: see _rolls)
    from bgkit.formats.sgf_analysis import analysis_of

    out = []
    for i in range(start, end):
        step = record.steps[i]
        try:
            theirs = back.games[step.game_index].actions[step.action_index]
        except IndexError:
            return None
        if not _same(step, theirs):
            return None
        note = analysis_of(theirs, step.before, candidates=tasks[i].candidates)
        rolls = _rolls(ev, tasks[i].position) if tasks[i].dice is not None else None
        out.append(_figures(tasks[i], step, note, rolls))
    return out


def _import(gnubg: Any, session: _Session, mat: str) -> None:
    """gnubg's match: ``mat``, imported from a file in memory (at each piece: the
    evaluator's questions between pieces set gnubg's board to their positions)."""
    from bgkit.analysis.gnubg_process import gnubg_file

    with gnubg_file("match.mat", mat.encode("utf-8")) as source, session.one_cpu():
        session.run(gnubg, f"import mat {source.path}")
    session.forget()  # (an import sets the match's rules)


def _go(gnubg: Any, session: _Session, game: int, action: int) -> None:
    """Make action ``action`` of game ``game`` gnubg's current move."""
    with session.one_cpu():
        run = session.run
        run(gnubg, "first game")
        for _ in range(game):
            run(gnubg, "next game")
        run(gnubg, "first move")
        if action:
            run(gnubg, f"next {action}")


def _saved(gnubg: Any, session: _Session) -> Match | None:
    """gnubg's match with its analysis, saved as SGF and read back (``None``: unreadable)."""
    from bgkit._gc import paused
    from bgkit.analysis.gnubg_process import gnubg_file
    from bgkit.errors import BgkitError
    from bgkit.formats._analysis_faults import remembered
    from bgkit.formats.sgf import parse_sgf

    with gnubg_file("match.sgf") as sgf:
        with session.one_cpu():
            session.run(gnubg, f"save match {sgf.path}")
        text = sgf.read().decode("utf-8", "replace")
    try:
        with remembered(), paused():
            return parse_sgf(text, source_name="match.sgf")
    except BgkitError:
        return None


def _same(step: ReplayStep, action: Action) -> bool:
    """gnubg's action at the step's place is the step's: the same kind, player and roll,
    and the same play (which of two checkers landing on a blot hits it depends on the
    order a record wrote them: not compared)."""
    mine = step.action
    if type(action) is not type(mine) or action.player != mine.player:
        return False
    if not isinstance(mine, Move):
        return True
    assert isinstance(action, Move)
    if action.dice != mine.dice:
        return False
    theirs = None if action.play is None else str(action.play).replace("*", "")
    ours = None if step.play is None else str(step.play).replace("*", "")
    # (gnubg's play as it wrote it; ours as the replay resolved it: compared as positions)
    if theirs == ours:
        return True
    if action.play is None or step.play is None:
        return False
    try:
        return step.before.with_dice(*mine.dice).apply(action.play).board == step.after.board
    except ValueError:
        return False


def _figures(
    task: Task,
    step: ReplayStep,
    note: ActionAnalysis | None,
    rolls: dict[tuple[int, int], float | None] | None,
) -> Figures:
    """A task's figures from gnubg's analysis of its action, with the equity before the
    roll (:func:`_mean`) from ``rolls``, the best 0-ply equity of each roll (``None``: it
    dances)."""
    from bgkit.analysis.recorded import file_figures
    from bgkit.analysis.tasks import Figures

    fig = file_figures(step, note) or Figures()
    if fig.rank is not None and len(fig.candidates) > task.candidates:
        # the best ``task.candidates`` and the play made, as the worker's searches keep them
        kept = fig.candidates[: task.candidates]
        if fig.rank > task.candidates and fig.rank <= len(fig.candidates):
            kept += (fig.candidates[fig.rank - 1],)
        fig = replace(fig, candidates=kept)
    chances: Chances | None = None
    if note is not None and note.cube is not None and note.cube.probabilities is not None:
        p = note.cube.probabilities
        chances = (p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon)
    cube: CubeDecision | None = fig.cube if task.cube else None
    if cube is None:
        chances = None
    mean = None
    if task.dice is not None and fig.luck is not None and rolls is not None:
        mean = _mean(rolls, task.dice, fig.luck)
    return replace(fig, cube=cube, luck_mean=mean, cube_chances=chances)


def _rolls(ev: Evaluator, pos: Position) -> dict[tuple[int, int], float | None]:
    """The best 0-ply equity of each roll (``None``: it dances); when every roll dances,
    the position's 0-ply equity for the opponent on roll, negated, for each (as
    :func:`~bgkit.analysis.tasks.roll_values` takes a dance). Asked after the piece, from
    an empty cache (so the same however the match was cut in pieces): any evaluation
    between two of gnubg's ``analyse move`` changes the state its net evaluates the next
    positions from, and so, rarely, a figure (measured: asked after each, two lucks of
    4,879 moved, by 3e-4 and 9e-4 EMG)."""
    best: dict[tuple[int, int], float | None] = dict(ev.best_equities(pos, plies=0))
    if any(e is not None for e in best.values()):
        return best
    stay = -ev.evaluate(replace(pos, turn=pos.opponent, dice=None), plies=0).cubeful
    return dict.fromkeys(_ROLLS, stay)


def _mean(
    rolls: dict[tuple[int, int], float | None], dice: tuple[int, int], luck: float
) -> float | None:
    """The roller's equity before the roll, as gnubg's luck analysis took it: the rolled
    roll's equity less its luck (an opening roll's too: gnubg's ``LuckFirst`` takes the
    luck against a mean over the openings); for a roll that dances, whose equity gnubg
    read from its cache, the mean the other rolls and the luck make (with ``S`` the
    weighted sum of the rolls that play and ``W`` the weight of those that dance, the
    dance's equity is ``mean + luck`` and ``36 mean = S + W (mean + luck)``)."""
    roll = (max(dice), min(dice))
    equity = rolls.get(roll)
    if equity is not None:
        return equity - luck
    weight = {r: 1 if r[0] == r[1] else 2 for r in rolls}
    played = sum(weight[r] * e for r, e in rolls.items() if e is not None)
    dances = sum(weight[r] for r, e in rolls.items() if e is None)
    if dances >= 36:  # pragma: no cover (:func:`_rolls` gives every roll an equity then)
        return None
    return (played + dances * luck) / (36 - dances)
