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
* :func:`verify`: replay a match (or the record at a path, or a record's text) with the
  rules; a :class:`~bgkit.verify.Report` of :class:`Issue` s (errors and notes), each
  with file, line, column, game, move, reason and position. Ask ``report.ok``: a report
  has no truth value.
* :func:`replay` (``bgkit.replay``): a legal match as (position, action) steps.
* :func:`analyze` (``bgkit.analysis``, loaded on first use): errors, luck and
  cube decisions with GNU Backgammon's evaluator, as pandas DataFrames, with the
  candidate plays of every roll; :func:`hint` (``bgkit.analysis.hints``) the ranked plays
  or the cube decision of one position (a :class:`Position` or its notation);
  ``bgkit.reports`` turns them into figures and tables, ``bgkit.reports.svg`` draws boards.
* errors (``bgkit.errors``): every error is a :class:`BgkitError` and a ``ValueError``
  (:class:`VerificationError`, raised by :meth:`Report.raise_for_issues`, groups them);
  on an install without an extra, what needs it raises :class:`MissingExtraError`.
"""

from __future__ import annotations

from bgkit import _moved
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
from bgkit.extras import MissingExtraError
from bgkit.formats import RecordSource, read_match, write_match
from bgkit.play import BAR, OFF, Play, Step
from bgkit.position import GameState, Position, ResultKind, Status
from bgkit.records import Beaver, Double, Drop, Game, Match, Move, Raccoon, Result, Take
from bgkit.replay import ReplayStep, replay
from bgkit.verify import Issue, IssueKind, Report, Severity, VerificationError
from bgkit.verify import verify as _verify_match

_moved.install()  # the modules of bgkit 0.1 that moved still import, with a warning

__version__ = "0.1.0"
"""bgkit's version: the one place it is written (``pyproject.toml`` reads it from here)."""


def verify(
    match: Match | RecordSource | bytes, *, stop_at_first: bool = False, jacoby: bool = False
) -> Report:
    """Replay every game of a match with the rules and report every problem found.

    ``match`` is a :class:`Match`, or what :func:`read_match` reads: a path, an open file,
    or a record's text (a ``str`` of more than one line, or ``bytes``), which is read
    first. Problems in the record are returned in the :class:`~bgkit.verify.Report`; only a record
    that cannot be read raises.

    >>> verify("data/fixtures/handwritten_3pt.mat").ok
    True

    :param stop_at_first: stop at the first error (``bgkit verify --strict``).
    :param jacoby: the record is scored with the Jacoby rule (see
        :func:`bgkit.verify.verify`, which takes a :class:`Match` only).
    :raises NotationError: when the record does not parse (see :func:`read_match`).
    :raises OSError: when the file cannot be read.
    """
    if not isinstance(match, Match):
        match = _read(match)
    return _verify_match(match, stop_at_first=stop_at_first, jacoby=jacoby)


def _read(source: RecordSource | bytes) -> Match:
    """A record from a path, an open file, or its text (a multi-line ``str`` or ``bytes``)."""
    if isinstance(source, bytes | bytearray) or (isinstance(source, str) and "\n" in source):
        return read_match(text=bytes(source) if isinstance(source, bytearray) else source)
    return read_match(source)


_LAZY = ("analyze", "audit", "hint", "svg")
"""Names loaded on first use: analysis needs gnubg and pandas (the ``analysis`` extra);
``bgkit.audit`` (the package, callable) and its batch machinery double the import time;
``bgkit.svg`` is the module :mod:`bgkit.reports.svg` (``from bgkit import reports, svg``)."""


def __getattr__(name: str) -> object:
    if name == "analyze":
        from bgkit.analysis.match import analyze

        return analyze
    if name == "audit":  # the package bgkit.audit, callable as its function audit()
        import bgkit.audit

        return bgkit.audit
    if name == "hint":
        from bgkit.analysis.hints import hint

        return hint
    if name == "svg":
        from bgkit.reports import svg

        return svg
    raise AttributeError(f"module 'bgkit' has no attribute {name!r}")


def __dir__() -> list[str]:
    """Every public name, the lazy ones too (so that Jupyter completes ``bgkit.ana``)."""
    return sorted({*globals(), *_LAZY})


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
    "MissingExtraError",
    "Move",
    "NotationError",
    "Play",
    "Position",
    "Raccoon",
    "RecordSource",
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
    "svg",
    "verify",
    "write_match",
]
