"""bgkit's exception hierarchy: every problem bgkit raises is a :class:`BgkitError`.

:class:`BgkitError` is a :class:`ValueError`, so code that already catches
``ValueError`` keeps working.

* :class:`NotationError`: text that does not parse (a record, an ID, a play).
  It knows where: ``source_name``, ``line``, ``column`` (both 1-based) and
  renders the source line with a caret.
* :class:`InvalidPositionError`: a well-formed ID that describes an impossible
  position (16 checkers, both colours on one point, ...).
* :class:`IllegalPlayError`: a well-formed play that the rules forbid for the
  position and dice.
* :class:`AmbiguousPlayError`: a compact play (``24/14*`` with 64) that fits
  several legal plays with different results.
* :class:`IllegalActionError`: a cube action or turn that the rules forbid.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for annotations only: errors.py imports nothing of bgkit at run time
    from bgkit.verify import Issue

__all__ = [
    "AmbiguousPlayError",
    "AnalysisError",
    "BatchError",
    "BatchNote",
    "BgkitError",
    "BgkitNote",
    "DecodingWarning",
    "EngineCrashError",
    "EngineLimitError",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidPositionError",
    "LimitError",
    "NotationError",
    "UnsupportedFormatError",
    "error_line",
    "excerpt",
    "first_line",
    "place",
    "visible",
]

EXCERPT_CHARS = 80
"""The most characters of offending text an error message quotes."""

MESSAGE_CHARS = 300
"""The most characters of an error's message (longer ones are cut in the middle)."""


def place(source_name: str | None, line: int | None, column: int | None = None) -> str:
    """Where a message is about, as compilers write it: ``file:line:col``, ``line:col``
    without a file name, ``file:line`` without a column, the file name alone for a
    record without lines (XG's binary files place by game and move: line 0), ``""``
    when nothing is known. Every located message of bgkit is written so.

    >>> place("a.mat", 12, 5), place(None, 12, 5), place("a.xg", 0, 0), place(None, None)
    ('a.mat:12:5', '12:5', 'a.xg', '')
    """
    where = "" if not line else f"{line}:{column}" if column else str(line)
    if source_name:
        return f"{source_name}:{where}" if where else source_name
    return where


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for error messages.

    >>> excerpt("24/20 " * 30)
    '24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20 24/20...'
    >>> excerpt("Alice")
    'Alice'
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


class BgkitError(ValueError):
    """Base class of every error bgkit raises on purpose (a ``ValueError``: bad input)."""


_BLANKS_TO_END = re.compile(r"\s*\Z")
_NOT_BLANK = re.compile(r"\S")


class NotationError(BgkitError, ValueError):
    """Text that does not parse.

    :param msg: what is wrong, in words a person understands.
    :param source: the whole text that was parsed (used to show the line).
    :param pos: 0-based offset into ``source`` where the problem is.
    :param source_name: a file name or other label, or ``None``.
    :param byte_offset: for binary input (``.xg``): the 0-based offset of the bad byte,
        reported as line 1, column ``byte_offset + 1`` (``source`` is then empty).
    :param line: the 1-based line of ``pos``, when the caller knows it (a token's): the
        lines before it are then not counted (a reader placing thousands of faults in a
        64 MB text would count them over and over).
    """

    msg: str
    source: str
    pos: int
    source_name: str | None
    line: int
    column: int
    byte_offset: int | None

    def __init__(
        self,
        msg: str,
        source: str = "",
        pos: int = 0,
        *,
        source_name: str | None = None,
        byte_offset: int | None = None,
        line: int | None = None,
    ) -> None:
        pos = max(0, min(pos, len(source)))
        if len(msg) > MESSAGE_CHARS:  # a message quoting a huge token: keep both ends
            half = (MESSAGE_CHARS - 5) // 2
            msg = f"{msg[:half]} ... {msg[-half:]}"
        self.msg = msg
        self.source = source
        self.pos = pos
        self.source_name = source_name
        self.byte_offset = byte_offset
        if byte_offset is not None:  # binary data has no lines: the column is the byte
            self.line, self.column = 1, byte_offset + 1
        else:  # (a caller that knows the line of pos spares a count over the text before it)
            self.line = source.count("\n", 0, pos) + 1 if line is None else line
            self.column = pos - (source.rfind("\n", 0, pos) + 1) + 1
        super().__init__(self._render())

    @classmethod
    def at(
        cls,
        msg: str,
        source: str,
        line: int,
        column: int,
        *,
        source_name: str | None = None,
    ) -> NotationError:
        """Build the error from a 1-based ``line`` and ``column`` instead of an offset."""
        start = 0
        for _ in range(line - 1):
            nl = source.find("\n", start)
            if nl < 0:
                break
            start = nl + 1
        return cls(msg, source, start + max(column, 1) - 1, source_name=source_name)

    @property
    def location(self) -> str:
        """``file:line:col`` (or ``line:col`` when there is no file name)."""
        return place(self.source_name, self.line, self.column)

    @property
    def source_line(self) -> str:
        """The line of ``source`` that holds the error, without its line end."""
        start = self.source.rfind("\n", 0, self.pos) + 1
        end = self.source.find("\n", self.pos)
        if end < 0:
            end = len(self.source)
        return self.source[start:end].rstrip("\r")

    def _render(self) -> str:
        head = f"{self.location}: {self.msg}"
        if not self.source:
            return head
        # (only blanks from pos on, in a text that is not all blank: scanned, not copied,
        # so that each fault in a 64 MB text costs no copy of it)
        if _BLANKS_TO_END.match(self.source, self.pos) and _NOT_BLANK.search(self.source):
            head = f"{self.location}: {self.msg} (at end of input)"
        text = self.source_line
        if not text.strip():
            return head
        shown = text.expandtabs(1)
        col = self.column - 1
        if len(shown) > EXCERPT_CHARS:  # a window of the line around the column
            start = max(0, min(col - EXCERPT_CHARS // 2, len(shown) - EXCERPT_CHARS))
            end = start + EXCERPT_CHARS
            window = shown[start:end]
            if start:
                window, col = "..." + window[3:], col - start
            if end < len(shown):
                window = window[:-3] + "..."
            shown = window
        caret = " " * col + "^"
        return f"{head}\n    {shown}\n    {caret}"

    def one_line(self) -> str:
        """The message as one line: ``file:line:col: message``."""
        return f"{self.location}: {self.msg}"

    def with_source_name(self, source_name: str | None) -> NotationError:
        """The same error attributed to ``source_name`` (the outer layer knows the file)."""
        return type(self)(
            self.msg, self.source, self.pos, source_name=source_name, byte_offset=self.byte_offset
        )


class LimitError(NotationError):
    """Input larger than one of bgkit's explicit limits (:mod:`bgkit.limits`).

    ``limit`` names the limit exceeded (a field of :class:`bgkit.limits.Limits`, such as
    ``"max_line_chars"``), so a caller can say which option raises it. Like every
    :class:`NotationError` it knows where: ``file:line:col``.
    """

    limit: str

    def __init__(
        self,
        msg: str,
        source: str = "",
        pos: int = 0,
        *,
        source_name: str | None = None,
        byte_offset: int | None = None,
        limit: str = "",
    ) -> None:
        self.limit = limit
        super().__init__(msg, source, pos, source_name=source_name, byte_offset=byte_offset)

    def with_source_name(self, source_name: str | None) -> LimitError:
        return type(self)(
            self.msg,
            self.source,
            self.pos,
            source_name=source_name,
            byte_offset=self.byte_offset,
            limit=self.limit,
        )


class InvalidPositionError(BgkitError, ValueError):
    """An ID or layout that describes an impossible position.

    ``status`` holds the :class:`bgkit.position.Status` flags that were found.
    """

    def __init__(self, msg: str, status: int = 0) -> None:
        self.status = status
        super().__init__(msg)


class IllegalPlayError(BgkitError, ValueError):
    """A well-formed play that the rules forbid for this position and roll.

    ``reason`` is the plain explanation, for example
    ``"blocked: 13/7 lands on a point held by 3 opposing checkers"``.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class AmbiguousPlayError(BgkitError, ValueError):
    """A compact play that fits several legal plays with different results."""


class IllegalActionError(BgkitError, ValueError):
    """A cube action, resignation or turn that the rules forbid here."""


class AnalysisError(BgkitError, ValueError):
    """A record that cannot be analysed (an illegal or unknown play, a broken turn order).

    ``issue`` is the verifier's :class:`~bgkit.verify.Issue` when it found the problem;
    the message starts with ``file:line:col:``.
    """

    def __init__(self, message: str, issue: Issue | None = None) -> None:
        super().__init__(message)
        self.issue = issue


class EngineLimitError(BgkitError, ValueError):
    """A position, search depth or figure GNU Backgammon does not support (a match past
    64 points, a hypergammon board, an equity that is not a number): refused before the
    engine, by :mod:`bgkit.analysis.engine_gate`, with gnubg's bound in the message."""


class EngineCrashError(BgkitError, ValueError):
    """GNU Backgammon's process died while evaluating (a crash in its C code): the
    evaluation ran in a worker, and only that worker was lost."""


class BgkitNote(UserWarning):
    """A fact worth knowing that is no error, from where no report can carry it (a
    reader, a batch's output): the ``bgkit`` commands print it as one ``note:`` line."""


class BatchNote(BgkitNote):
    """About a batch's ``--output``: a part of an earlier run set aside, unreadable."""


class DecodingWarning(BgkitNote):
    """A record's text is not UTF-8 and was decoded by a guess (Windows-1252, Latin-1, or
    UTF-8 with the other bytes read as Windows-1252): its names may read wrong. The
    message is ``file:line:col: ...`` of the first byte that is not UTF-8; ``bgkit
    verify`` reports it as a note, the other commands as a ``note:`` line."""

    def __init__(self, where: str, reason: str, line: int = 0, column: int = 0) -> None:
        super().__init__(f"{where}: {reason}")
        self.reason = reason
        self.line = line
        self.column = column


class UnsupportedFormatError(BgkitError, ValueError):
    """A format bgkit cannot write (or read) here, or one it cannot tell from a name."""


class BatchError(BgkitError, ValueError):
    """A batch that cannot run: an output file bgkit cannot use, a cluster out of reach."""


#: Characters that change how the text around them is shown: the bidirectional controls
#: (a right-to-left override shows "boB" as "Bob") and the line and paragraph separators.
_INVISIBLE = frozenset("\u061c\u200e\u200f\u2028\u2029") | frozenset(
    chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
)
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _shown(ch: str) -> str:
    if ch in _SHORT:
        return _SHORT[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control character (line breaks, escape, bell, backspace, NUL...)
    and every bidirectional control written as an escape (``\\n``, ``\\x1b``, ``\\u202e``):
    a name or file name printed to a terminal can then neither forge lines, nor move the
    cursor, nor show itself as another name. Other text is left as it is.

    >>> print(visible("Bob\\nfake.mat:1:1: note: all checked\\x1b[2K \\u202eecilA"))
    Bob\\nfake.mat:1:1: note: all checked\\x1b[2K \\u202eecilA
    >>> visible("Kévin Ünal, 日本")
    'Kévin Ünal, 日本'
    """
    if text.isprintable() and not _INVISIBLE.intersection(text):
        return text
    return "".join(
        _shown(ch) if ch in _INVISIBLE or unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
        for ch in text
    )


def error_line(err: BgkitError | OSError, *, source: str | None = None) -> str:
    """One line for an error: ``file:line:col: reason`` or ``source: reason``."""
    if isinstance(err, NotationError):
        if source and not err.source_name:
            err = err.with_source_name(source)
        return err.one_line()
    if isinstance(err, OSError):
        where = err.filename if err.filename else source
        reason = err.strerror or str(err)
        return f"{where}: {reason}" if where else reason
    text = first_line(err)
    return f"{source}: {text}" if source else text


def first_line(err: BaseException) -> str:
    """The first line of any exception's message, or its type's name when it has none."""
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


class OffsetError(Exception):
    """An error a Lark transformer raises knowing only an offset into the source (``pos``);
    :func:`bgkit._grammars.build` turns it into a :class:`NotationError` there. Internal:
    it never reaches a caller of bgkit."""

    def __init__(self, msg: str, pos: int) -> None:
        self.msg = msg
        self.pos = pos
        super().__init__(msg)
