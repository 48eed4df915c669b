"""The explicit limits every reader keeps, so that work is bounded per byte of input.

Real records are small: a long match in ``.mat`` is a few hundred kilobytes, an XG file
inflates to a few megabytes, a player name is a few dozen characters and a play has at
most four steps. Input past a limit is refused with a :class:`~bgkit.errors.LimitError`
that names the limit and the place, before the work it would cause.

:data:`DEFAULT_LIMITS` holds the defaults; the ``bgkit`` commands raise the file size
with ``--max-size``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_LIMITS", "Limits", "excerpt"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Upper bounds on what one record may hold."""

    max_file_bytes: int = 64 * 1024 * 1024
    """Size of one record file (64 MiB: the largest real ones are a few MB)."""
    max_line_chars: int = 100_000
    """Characters in one line of a text record."""
    max_name_chars: int = 200
    """Characters in a player name."""
    max_nesting: int = 1_000
    """Depth of nested structures (SGF variations, JSON arrays and objects)."""
    max_play_steps: int = 8
    """Steps written in one play (a play has at most four; chains like ``24/20/16`` split
    into hops, and some writers repeat a hop with ``(2)``, so eight leaves room)."""
    max_inflated_bytes: int = 64 * 1024 * 1024
    """Size of the data an XG file inflates to (real matches inflate to a few MB)."""
    max_integer_digits: int = 9
    """Digits in any number a record gives (scores, lengths, cube values, counts)."""


DEFAULT_LIMITS = Limits()
"""The limits in force unless a caller passes others."""

EXCERPT_CHARS = 80
"""The most characters of offending text an error message quotes."""


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for error messages.

    >>> excerpt("24/20 " * 30)
    '24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20...'
    >>> excerpt("Alice")
    'Alice'
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."
