"""A record's own analysis as the evaluator's answers (internal to :mod:`bgkit.analysis`).

gnubg's SGF and XG's files keep an analysis beside each action
(:func:`bgkit.formats.sgf_analysis.analysis_of` reads it); :func:`file_figures` makes of it
what an evaluator's search gives for the action (:class:`~bgkit.analysis.tasks.Figures`),
for :func:`~bgkit.analysis.match.analysis_from_file` and for a deeper analysis gnubg made
itself (:mod:`bgkit.analysis.gnubg_moves`). :func:`same_action` says whether gnubg's
record of an action, read back from the SGF it saved, is the one bgkit gave it (there and
for a season's match, :mod:`bgkit.analysis.gnubg_match`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgkit.analysis.evaluator import CubeDecision
from bgkit.analysis.tasks import Figures
from bgkit.play import Play
from bgkit.records import Move

if TYPE_CHECKING:
    from bgkit.formats.annotations import ActionAnalysis
    from bgkit.records import Action
    from bgkit.replay import ReplayStep

__all__ = ["file_figures", "gnubgs", "plays_listed", "same_action"]


def file_figures(step: ReplayStep, note: ActionAnalysis | None) -> Figures | None:
    """A recorded analysis as the evaluator's answers for one action."""
    if note is None:
        return None
    cube = None
    c = note.cube
    if c is not None and c.no_double is not None and c.double_take is not None:
        cube = CubeDecision(
            c.no_double, c.double_take, 1.0 if c.double_pass is None else c.double_pass
        )
    k = note.checker
    if not isinstance(step.action, Move) or k is None:
        return Figures(cube) if cube is not None else None
    if not k.candidates:  # a dance (no legal play), or a roll with its luck alone
        return Figures(cube, k.luck, None, 0) if step.play == Play() else Figures(cube, k.luck)
    best = k.candidates[0].equity
    if k.played is not None:
        played = k.candidates[k.played].equity
    elif k.error is not None:
        played = best + k.error
    else:
        return Figures(cube, k.luck)
    legal = plays_listed(step)
    if legal is None:
        legal = len(step.before.with_dice(*step.action.dice).legal_results())
    rank = k.played + 1 if k.played is not None else len(k.candidates) + 1
    return Figures(
        cube, k.luck, None, legal, str(k.candidates[0].play), best, played, rank, k.candidates
    )


def plays_listed(step: ReplayStep) -> int | None:
    """How many plays gnubg's own analysis of the roll lists (its ``A``: every legal play,
    as its analysis keeps them), ``None`` when the analysis is not gnubg's. gnubg's
    statistics take that list for the roll's plays: a move is forced when it lists one
    (``updateStatisticsMove``)."""
    if not gnubgs(step):
        return None
    return next((len(values) - 1 for key, values in step.action.annotations if key == "A"), None)


def gnubgs(step: ReplayStep) -> bool:
    """The analysis of ``step`` is gnubg's own SGF properties (not bgkit's, nor XG's)."""
    from bgkit.formats.sgf_analysis import PROPERTY

    keys = {key for key, _ in step.action.annotations}
    return PROPERTY not in keys and bool(keys & {"A", "DA", "LU"})


def same_action(step: ReplayStep, action: Action) -> bool:
    """gnubg's action at the step's place is the step's: the same kind, player and roll,
    and the same play (which of two checkers landing on a blot hits it depends on the
    order a record wrote them: not compared; a play written otherwise, its steps in
    another order, is the same when it leaves the same position)."""
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
