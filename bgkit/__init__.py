"""bgkit: backgammon records, positions and rules.

Start here:

* :class:`Position` (``bgkit.position``): an immutable position with match state,
  the rules engine (:meth:`Position.legal_plays`, :meth:`Position.apply`,
  :meth:`Position.resolve`) and the notations (:meth:`Position.from_xgid`,
  :meth:`Position.from_gnubg_id`, :meth:`Position.from_fibs`).
* :class:`Play` and :class:`Step` (``bgkit.play``): checker plays in standard notation.
* :func:`read_match` and :func:`write_match` (``bgkit.formats``): read a match record in
  any format bgkit knows into a :class:`Match` of :class:`Game` s and actions
  (``bgkit.records``), and write one as ``.mat``, SGF or JSON.
* :func:`verify` (``bgkit.verify``): replay a match with the rules; a :class:`Report`
  of :class:`Issue` s (errors and notes), each with file, line, column, game, move,
  reason and position.
* :func:`replay` (``bgkit.replay``): a legal match as (position, action) steps.
* :func:`analyze` (``bgkit.analysis``, loaded on first use): errors, luck and
  cube decisions with GNU Backgammon's evaluator, as pandas DataFrames, with the
  candidate plays of every roll; :func:`hint` (``bgkit.hints``) the ranked plays or the
  cube decision of one position;
  ``bgkit.reports`` turns them into figures and tables, ``bgkit.svg`` draws boards.
* errors (``bgkit.errors``): every error is a :class:`BgkitError` and a ``ValueError``
  (:class:`VerificationError`, raised by :meth:`Report.raise_for_issues`, groups them).
"""

from __future__ import annotations

from bgkit.errors import (
    AmbiguousPlayError,
    AnalysisError,
    BatchError,
    BgkitError,
    IllegalActionError,
    IllegalPlayError,
    InvalidPositionError,
    LimitError,
    NotationError,
    UnsupportedFormatError,
)
from bgkit.formats import read_match, write_match
from bgkit.play import BAR, OFF, Play, Step
from bgkit.position import GameState, Position, ResultKind, Status
from bgkit.records import Beaver, Double, Drop, Game, Match, Move, Raccoon, Result, Take
from bgkit.replay import ReplayStep, replay
from bgkit.verify import Issue, IssueKind, Report, Severity, VerificationError, verify

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # analysis needs gnubg and pandas: load them only when it is asked for
    if name == "analyze":
        from bgkit.analysis import analyze

        return analyze
    if name == "audit":  # the package bgkit.audit, callable as its function audit()
        import bgkit.audit

        return bgkit.audit
    if name == "hint":
        from bgkit.hints import hint

        return hint
    raise AttributeError(f"module 'bgkit' has no attribute {name!r}")


__all__ = [
    "BAR",
    "OFF",
    "AmbiguousPlayError",
    "AnalysisError",
    "BatchError",
    "Beaver",
    "BgkitError",
    "Double",
    "Drop",
    "Game",
    "GameState",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidPositionError",
    "Issue",
    "IssueKind",
    "LimitError",
    "Match",
    "Move",
    "NotationError",
    "Play",
    "Position",
    "Raccoon",
    "ReplayStep",
    "Report",
    "Result",
    "ResultKind",
    "Severity",
    "Status",
    "Step",
    "Take",
    "UnsupportedFormatError",
    "VerificationError",
    "__version__",
    "analyze",
    "audit",
    "hint",
    "read_match",
    "replay",
    "verify",
    "write_match",
]
