"""The explicit limits every reader keeps, so that work is bounded per byte of input.

Real records are small: a long match in ``.mat`` is a few hundred kilobytes, an XG file
inflates to a few megabytes, a player name is a few dozen characters and a play has at
most four steps. Input past a limit is refused with a :class:`~bgkit.errors.LimitError`
that names the limit and the place, before the work it would cause.

:data:`DEFAULT_LIMITS` holds the defaults; the ``bgkit`` commands raise the file size
with ``--max-size``.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bgkit.errors import LimitError, excerpt

__all__ = [
    "AS_READ",
    "DEFAULT_LIMITS",
    "Limits",
    "active",
    "check_game_actions",
    "check_games",
    "check_integer",
    "check_name",
    "check_names",
    "check_nesting",
    "check_notation",
    "check_play_steps",
    "check_text",
    "excerpt",
    "json_loads",
    "size_text",
    "using",
]


@dataclass(frozen=True, slots=True)
class Limits:
    """Upper bounds on what one record may hold."""

    max_file_bytes: int = 16 * 1024 * 1024
    """Size of one record file (16 MiB: the largest real ones are a few hundred KB, a
    25-point match in ``.mat`` about 100 KB; a file this size verifies in well under a
    minute and under 1 GB, as the README's limits table says; ``--max-size`` raises it,
    at 0.2 to 0.75 µs of CPU and 7 to 14 bytes of memory per byte: a 64 MiB SGF, the
    costliest, took 47.5 s and 860 MB)."""
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
    max_notation_chars: int = 1_000
    """Characters in one position notation (an XGID, a GNU ID, a FIBS board line)."""
    max_games: int = 100_000
    """Games in one record (a long match has a few dozen, a long money session a few
    hundred; a real game takes several hundred bytes, so a record at ``max_file_bytes``
    holds some 20,000). ``--max-size`` raises it in proportion to the file size."""
    max_game_actions: int = 10_000
    """Actions (rolls with their plays, cube actions) in one game: a reader counts them as
    it reads, so that the state it holds for a game while reading it stays bounded (some
    800 bytes an action: one game of 10,000 costs a few MB while it is read). The longest
    game of the project's real and self-play records has 138. Not raised by
    ``--max-size``: a game does not grow with its file."""
    max_errors: int = 1_000
    """Errors :func:`bgkit.verify.verify` reports for one record: at the next, the rest of
    the record is left unchecked, with one ``unverified`` note at that place (each error
    costs the search for what the player may have meant: a record of errors alone would
    take minutes)."""
    max_notes: int = 10_000
    """Notes :func:`bgkit.verify.verify` lists for one record: the record is checked to its
    end, and one last note counts those not listed."""

    def with_max_size(self, max_bytes: int | None) -> Limits:
        """These limits with the file size set to ``max_bytes`` (``--max-size``), the XG
        inflated size raised to it when it is lower, and the games in proportion. Lines
        keep their limit: a line of megabytes is never a record's.

        >>> Limits().with_max_size(200 << 20).max_inflated_bytes
        209715200
        >>> Limits().with_max_size(64 << 20).max_games
        400000
        """
        if max_bytes is None:
            return self
        return replace(
            self,
            max_file_bytes=max_bytes,
            max_inflated_bytes=max(self.max_inflated_bytes, max_bytes),
            max_games=max(self.max_games, self.max_games * max_bytes // self.max_file_bytes),
        )


DEFAULT_LIMITS = Limits()
"""The limits in force unless a caller passes others."""

AS_READ = frozenset({"max_games", "max_game_actions"})
"""The limits a reader keeps as it reads (a game as it starts, an action as it is read):
past one, the rest of the record is not read, which is what they bound. Past another
limit a reader may read on, so that the error raised is the first a whole reading finds."""

_ACTIVE: contextvars.ContextVar[Limits] = contextvars.ContextVar("bgkit_limits")


def active() -> Limits:
    """The limits in force: those of the innermost :func:`using`, else :data:`DEFAULT_LIMITS`."""
    return _ACTIVE.get(DEFAULT_LIMITS)


@contextlib.contextmanager
def using(limits: Limits | None) -> Iterator[Limits]:
    """Make ``limits`` the ones every reader keeps inside the ``with`` block.

    >>> with using(Limits(max_name_chars=10)):
    ...     active().max_name_chars
    10
    >>> active().max_name_chars
    200
    """
    if limits is None:
        yield active()
        return
    token = _ACTIVE.set(limits)
    try:
        yield limits
    finally:
        _ACTIVE.reset(token)


def size_text(n: int) -> str:
    """A size in bytes for a message: ``"64 MiB"``, ``"12 KiB"``, ``"300 bytes"``.

    >>> size_text(64 * 1024 * 1024), size_text(5000), size_text(12)
    ('64 MiB', '4.9 KiB', '12 bytes')
    """
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            value = n / scale
            digits = 0 if value >= 10 or value.is_integer() else 1
            return f"{value:.{digits}f} {unit}"
    return f"{n} bytes"


def check_text(
    text: str,
    source_name: str | None = None,
    limits: Limits | None = None,
    *,
    lines: bool = True,
) -> None:
    """Refuse a record's text that is larger than the file limit or has a line that is too long.

    Cheap for real records: a text shorter than ``max_line_chars`` is not scanned.

    :param lines: check the length of lines (formats whose syntax is not line by line,
        SGF and JSON, pass false: gnubg writes a move and its analysis on one line).

    >>> check_text("x" * 20, "a.mat", Limits(max_line_chars=10))
    Traceback (most recent call last):
    ...
    bgkit.errors.LimitError: a.mat:1:1: line 1 has 20 characters, more than the limit of 10 ...

    :raises LimitError: naming ``max_file_bytes`` or ``max_line_chars``.
    """
    limits = limits or active()
    if len(text) > limits.max_file_bytes:
        raise LimitError(
            f"the text has {size_text(len(text))}, more than the limit of"
            f" {size_text(limits.max_file_bytes)} (max_file_bytes; raise it with --max-size)",
            "",
            0,
            source_name=source_name,
            limit="max_file_bytes",
        )
    if not lines or len(text) <= limits.max_line_chars:
        return
    # a line start followed by more characters than the limit, found without splitting
    # the text into lines (16 MiB of short lines held 176 MB as strings; the search tries
    # each line once)
    long_line = re.compile(rf"^[^\n]{{{limits.max_line_chars + 1}}}", re.MULTILINE)
    found = long_line.search(text)
    if found is None:
        return
    offset = found.start()
    end = text.find("\n", offset)
    length = (len(text) if end < 0 else end) - offset
    raise LimitError(
        f"line {text.count(chr(10), 0, offset) + 1} has {length} characters, more than the"
        f" limit of {limits.max_line_chars} (max_line_chars)",
        text,
        offset,
        source_name=source_name,
        limit="max_line_chars",
    )


def check_name(
    name: str, text: str, pos: int, source_name: str | None = None, limits: Limits | None = None
) -> None:
    """Refuse a player name (written at ``pos`` in ``text``) longer than ``max_name_chars``.

    :raises LimitError: naming ``max_name_chars``.
    """
    limits = limits or active()
    if len(name) > limits.max_name_chars:
        raise LimitError(
            f"a player name of {len(name)} characters, more than the limit of"
            f" {limits.max_name_chars} (max_name_chars): {excerpt(name, 40)!r}",
            text,
            pos,
            source_name=source_name,
            limit="max_name_chars",
        )


def check_names(
    names: Sequence[str], text: str, source_name: str | None = None, limits: Limits | None = None
) -> None:
    """:func:`check_name` for names read from ``text`` without their place: the error
    points at the first occurrence of the name's start in ``text``.
    """
    for name in names:
        if len(name) > (limits or active()).max_name_chars:
            check_name(name, text, max(text.find(name[:40]), 0), source_name, limits)


def check_integer(
    digits: str, text: str, pos: int, source_name: str | None = None, limits: Limits | None = None
) -> None:
    """Refuse a number written with more than ``max_integer_digits`` digits.

    :raises LimitError: naming ``max_integer_digits``.
    """
    limits = limits or active()
    if len(digits.lstrip("-+")) > limits.max_integer_digits:
        raise LimitError(
            f"a number of {len(digits.lstrip('-+'))} digits, more than the limit of"
            f" {limits.max_integer_digits} (max_integer_digits): {excerpt(digits, 20)!r}",
            text,
            pos,
            source_name=source_name,
            limit="max_integer_digits",
        )


def check_games(
    count: int,
    text: str,
    pos: int,
    source_name: str | None = None,
    limits: Limits | None = None,
) -> None:
    """Refuse the ``count``-th game of a record (it starts at ``pos`` in ``text``) past
    ``max_games``: a reader calls it as each game starts, so that a record of a million
    empty games costs no more than the games it may hold.

    >>> check_games(3, "Game 1\\nGame 2\\nGame 3\\n", 14, "a.mat", Limits(max_games=2))
    Traceback (most recent call last):
    ...
    bgkit.errors.LimitError: a.mat:3:1: game 3 of the record, more than the limit of 2 games ...
    ...

    :raises LimitError: naming ``max_games``.
    """
    limits = limits or active()
    if count > limits.max_games:
        raise LimitError(
            f"game {count} of the record, more than the limit of {limits.max_games:,} games"
            " (max_games; raise it with --max-size)",
            text,
            pos,
            source_name=source_name,
            limit="max_games",
        )


def check_game_actions(
    count: int,
    game: int,
    text: str,
    pos: int,
    source_name: str | None = None,
    limits: Limits | None = None,
) -> None:
    """Refuse the ``count``-th action of the ``game``-th game of a record (its token is at
    ``pos`` in ``text``) past ``max_game_actions``: a reader calls it as it reads each
    action, so that a game of a million plays costs no more than the actions it may hold.

    >>> text = "Game 2\\n 1) 31: 8/5 6/5\\n"
    >>> check_game_actions(3, 2, text, 11, "a.mat", Limits(max_game_actions=2))
    Traceback (most recent call last):
    ...
    bgkit.errors.LimitError: a.mat:2:5: action 3 of game 2, more than the limit of 2 actions ...
    ...
    >>> check_game_actions(2, 2, "", 0, "a.mat", Limits(max_game_actions=2))

    :raises LimitError: naming ``max_game_actions``.
    """
    limits = limits or active()
    if count > limits.max_game_actions:
        raise LimitError(
            f"action {count:,} of game {game:,}, more than the limit of"
            f" {limits.max_game_actions:,} actions a game (max_game_actions)",
            text,
            pos,
            source_name=source_name,
            limit="max_game_actions",
        )


#: What opens and closes a level in JSON (strings skipped: their brackets do not count).
JSON_BRACKETS = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"|[][{}]')
#: The most levels of nesting :func:`json_loads` makes room for on Python's stack (each
#: level of ``json.loads`` is a C call; a deeper limit is refused as too deep).
_MAX_JSON_ROOM = 20_000


def json_loads(
    text: str, source_name: str | None = None, limits: Limits | None = None, **kwargs: Any
) -> Any:
    """``json.loads(text, **kwargs)``, nested no deeper than ``max_nesting``.

    The nesting is checked first (:func:`check_nesting`), then the parser is given room
    for it on Python's stack: ``json.loads`` recurses once per level, and 995 levels,
    under the default limit of 1,000, exceeded Python's recursion limit in a caller a
    few dozen calls deep (a ``RecursionError``, not an answer).

    :raises LimitError: naming ``max_nesting``.
    :raises json.JSONDecodeError: (a ``ValueError``) when the text is not JSON.
    """
    limits = limits or active()
    check_nesting(text, JSON_BRACKETS, source_name, limits)
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(before + min(limits.max_nesting, _MAX_JSON_ROOM) + 100)
    try:
        return json.loads(text, **kwargs)
    except RecursionError:
        raise LimitError(
            f"nested too deep for Python's JSON parser (max_nesting {limits.max_nesting})",
            source_name=source_name,
            limit="max_nesting",
        ) from None
    finally:
        sys.setrecursionlimit(before)


def check_nesting(
    text: str,
    tokens: re.Pattern[str],
    source_name: str | None = None,
    limits: Limits | None = None,
) -> None:
    """Refuse text whose brackets nest deeper than ``max_nesting``, before a parser recurses.

    ``tokens`` matches the opening and closing brackets and, so that brackets inside
    them do not count, the strings or values that may hold brackets; a match whose
    text starts with one of ``([{`` opens a level, one that is one of ``)]}`` closes
    one, anything else is skipped.

    >>> sgf = re.compile(r"\\[[^]\\\\]*+(?:\\\\.[^]\\\\]*+)*+\\]|[()]")
    >>> check_nesting("(;B[((]" + "(" * 5, sgf, "deep.sgf", Limits(max_nesting=3))
    Traceback (most recent call last):
    ...
    bgkit.errors.LimitError: deep.sgf:1:10: nested more than 3 levels deep (max_nesting)
        (;B[((](((((
                 ^

    :raises LimitError: naming ``max_nesting``.
    """
    limits = limits or active()
    if text.count("(") + text.count("[") + text.count("{") <= limits.max_nesting:
        return
    depth = 0
    for token in tokens.finditer(text):
        if token.end() - token.start() != 1:  # a string or value: its brackets do not count
            continue
        if token.group() in ")]}":
            depth = max(depth - 1, 0)
            continue
        depth += 1
        if depth > limits.max_nesting:
            raise LimitError(
                f"nested more than {limits.max_nesting} levels deep (max_nesting)",
                text,
                token.start(),
                source_name=source_name,
                limit="max_nesting",
            )


def check_play_steps(
    count: int,
    text: str,
    pos: int | Callable[[], int],
    source_name: str | None = None,
    limits: Limits | None = None,
) -> None:
    """Refuse a play written with more than ``max_play_steps`` steps, before any search.

    ``pos`` is the play's offset in ``text``, or a function that finds it (called only
    when the play is refused, so that finding it costs nothing on good input).

    :raises LimitError: naming ``max_play_steps``.
    """
    limits = limits or active()
    if count > limits.max_play_steps:
        raise LimitError(
            f"a play written with {count} steps, more than the limit of"
            f" {limits.max_play_steps} (max_play_steps; a play has at most four)",
            text,
            pos if isinstance(pos, int) else pos(),
            source_name=source_name,
            limit="max_play_steps",
        )


def check_notation(text: str, what: str, limits: Limits | None = None) -> None:
    """Refuse a one-line notation (a play, an XGID...) longer than ``max_notation_chars``.

    :raises LimitError: naming ``max_notation_chars``.
    """
    limits = limits or active()
    if len(text) > limits.max_notation_chars:
        raise LimitError(
            f"a {what} of {len(text)} characters, more than the limit of"
            f" {limits.max_notation_chars} (max_notation_chars)",
            text,
            limits.max_notation_chars,
            limit="max_notation_chars",
        )
