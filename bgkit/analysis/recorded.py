"""A record's own analysis as the evaluator's answers (internal to :mod:`bgkit.analysis`).

gnubg's SGF and XG's files keep an analysis beside each action
(:func:`bgkit.formats.sgf_analysis.analysis_of` reads it); :func:`file_figures` makes of it
what an evaluator's search gives for the action (:class:`~bgkit.analysis.tasks.Figures`),
for :func:`~bgkit.analysis.match.analysis_from_file` and for a deeper analysis gnubg made
itself (:mod:`bgkit.analysis.gnubg_moves`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgkit.analysis.evaluator import CubeDecision
from bgkit.analysis.tasks import Figures
from bgkit.play import Play
from bgkit.records import Move

if TYPE_CHECKING:
    from bgkit.formats.annotations import ActionAnalysis
    from bgkit.replay import ReplayStep

__all__ = ["file_figures", "gnubgs", "plays_listed"]


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
