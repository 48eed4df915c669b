"""A deeper analysis's piece made by GNU Backgammon's own ``analyse move`` (issue 31).

Internal to :mod:`bgkit.analysis`. A worker of a deeper analysis of a match or a money
session (:class:`~bgkit.analysis.tasks.Runner`) hands gnubg the record as the ``.mat``
text bgkit wrote from it (gnubg's importer never sees the user's file), with the
analysis's match equity table or the session's rules set, goes to the piece's first
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
roller's equity before the roll (:attr:`Figures.luck_mean`) is the 0-ply mean over the
rolls (:func:`_equity_before`), a 0-ply analysis's. gnubg's luck at a deeper analysis
takes its reference from what its searches left in its cache, deeper figures for some
rolls: the two stood up to 0.041 EMG apart (median 0.002, three self-play matches), so
the equity before a roll plus its luck is not the rolled roll's equity there.

``None`` (the worker then searches the piece itself, with bgkit's searches) when gnubg's
reading of the record is not bgkit's (another action, player, roll or play at a place),
or when it left a roll without its luck or a double without its cube decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bgkit.analysis.evaluator import Chances, CubeDecision, Evaluator

if TYPE_CHECKING:
    from bgkit.analysis.gnubg_process import _Session
    from bgkit.analysis.tasks import Figures, Task, _Shares
    from bgkit.formats.annotations import ActionAnalysis
    from bgkit.records import Match
    from bgkit.replay import ReplayStep

__all__ = ["Record", "analyse_piece"]


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
    from bgkit.analysis.recorded import same_action
    from bgkit.analysis.tasks import _forget

    # the analysis's match equity table, loaded in gnubg (its default, or ``--met``'s):
    # gnubg's analysis and the match winning chances of its SGF are by it
    table = ev.match_equity_table()
    gnubg = gnubg_module()
    session = _session()
    plies = tasks[lead].plies
    # a money session's Jacoby rule and beavers, before the import: gnubg's import takes
    # its settings for the session (set after it, they change nothing of its analysis)
    session.set_rules(gnubg, record.steps[lead].before)
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
    _forget(ev)  # (the equities before the rolls at 0-ply, whatever the piece left)
    from bgkit.formats.sgf_analysis import analysis_of

    out = []
    for i in range(start, end):
        step = record.steps[i]
        try:
            theirs = back.games[step.game_index].actions[step.action_index]
        except IndexError:
            return None
        if not same_action(step, theirs):
            return None
        note = analysis_of(theirs, step.before, candidates=tasks[i].candidates, met=table)
        fig = _figures(tasks[i], step, note)
        if (fig.luck is None) if tasks[i].dice is not None else (fig.cube is None):
            return None  # (gnubg left the action unanalysed: not taken for its figures)
        if tasks[i].dice is not None:
            fig = replace(fig, luck_mean=_equity_before(ev, tasks[i]))
        out.append(fig)
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


def _figures(task: Task, step: ReplayStep, note: ActionAnalysis | None) -> Figures:
    """A task's figures from gnubg's analysis of its action (the equity before the roll
    is not gnubg's: :func:`_equity_before`)."""
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
    return replace(fig, cube=cube, cube_chances=chances)


def _equity_before(ev: Evaluator, task: Task) -> float:
    """The roller's equity before the roll at 0-ply: the mean over the rolls of each
    one's best 0-ply equity (a roll that dances: the position's, the opponent on roll),
    an opening's over the openings of both sides, as
    :func:`~bgkit.analysis.tasks.roll_luck` takes it. Asked
    after the piece, from an empty cache: any evaluation between two of gnubg's
    ``analyse move`` changes the state its net evaluates the next positions from, and
    so, rarely, a figure (measured: asked after each, two lucks of 4,879 moved, by 3e-4
    and 9e-4 EMG)."""
    from bgkit.analysis.tasks import roll_luck

    return roll_luck(ev, task)[1]
