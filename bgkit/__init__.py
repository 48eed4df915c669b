"""bgkit: backgammon records, positions and rules.

Start here:

* :class:`Position` (``bgkit.position``): an immutable position with match state,
  the rules engine (:meth:`Position.legal_plays`, :meth:`Position.apply`,
  :meth:`Position.resolve`) and the notations (:meth:`Position.from_xgid`,
  :meth:`Position.from_gnubg_id`, :meth:`Position.from_fibs`).
* :class:`Play` and :class:`Step` (``bgkit.play``): checker plays in standard notation.
* errors (``bgkit.errors``): every error is a :class:`BgkitError` and a ``ValueError``.
"""

from __future__ import annotations

from bgkit.errors import (
    AmbiguousPlayError,
    BgkitError,
    IllegalActionError,
    IllegalPlayError,
    InvalidPositionError,
    NotationError,
)
from bgkit.play import BAR, OFF, Play, Step
from bgkit.position import GameState, Position, ResultKind, Status

__version__ = "0.1.0"

__all__ = [
    "BAR",
    "OFF",
    "AmbiguousPlayError",
    "BgkitError",
    "GameState",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidPositionError",
    "NotationError",
    "Play",
    "Position",
    "ResultKind",
    "Status",
    "Step",
    "__version__",
]
