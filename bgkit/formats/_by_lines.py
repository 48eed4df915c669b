"""Reading a line-based record line by line.

One line that cannot be read must not cost the rest of the file: :func:`parse_lines`
parses the whole record first, and where that fails it reads each line alone with a
start rule of its grammar, keeping a :class:`~bgkit.records.ReadError` for each line it
cannot read. Each line is parsed once, its tokens placed in the whole text.

:func:`read_lines` reads as :func:`parse_lines` does, in time and memory linear in the
record's size (issue 29): a reader's own function reads the lines its writers write
(a regular expression each, no Lark), Lark reads any other line alone, and the lines are
handed on as they are read, so that a reader can let each go once it has used it.
:func:`parse_lines` stays the reference (the tests compare both over real records).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, Protocol

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.lexer import LexerState, LexerThread, LineCounter
from lark.utils import TextSlice

from bgkit._grammars import SourceText, build, notation_error, parse_tree, parser
from bgkit.errors import LimitError, NotationError
from bgkit.limits import (
    AS_READ,
    active,
    check_game_actions,
    check_games,
    check_integer,
    check_names,
    check_text,
)
from bgkit.records import Match, ReadError

__all__ = [
    "NOTHING",
    "FastLine",
    "LineAssembler",
    "LineReading",
    "LostGameLines",
    "PlacedLine",
    "fast_dice",
    "fast_number",
    "keep_fault",
    "line_starts",
    "no_fast_line",
    "parse_lines",
    "parse_slice",
    "read_by_lines",
    "read_line",
    "read_lines",
    "reference_lines",
    "step_reader",
    "too_many",
]

MAX_FAULTS = 1000
"""Lines that cannot be read, at most, before the rest of a file is left unread (a fault's
message costs a count over the text before it)."""


_BLANK_LINES = re.compile(r"(?:[ \t\r]*+\n)++")
"""A run of blank lines (of blanks and CR: what a line's ``strip()`` empties, as far as
the grammars' blanks go), which the readers skip at once."""

_GRAMMAR_BLANKS = re.compile(r"[ \t]*+(?:\r?\n[ \t]*+)*+")
"""What the line-based grammars read as blank before a record's first line (``_NL`` and
the blanks they ignore)."""


def line_starts(source: str) -> list[int]:
    """The offset of each line of ``source``, and ``len(source) + 1`` after the last."""
    starts = [0]
    at = source.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = source.find("\n", at + 1)
    starts.append(len(source) + 1)
    return starts


def parse_slice(lark: Lark, source: str, start: int, end: int, line: int, rule: str) -> Any:
    """Parse ``source[start:end]`` (a line, with its line end) with ``lark``'s start rule
    ``rule``, its tokens placed in ``source`` (Lark counts lines from the start we give)."""
    counter = LineCounter("\n")  # type: ignore[no-untyped-call]
    counter.char_pos = counter.line_start_pos = start
    counter.line = line
    state = LexerState(TextSlice(source, start, end), counter)
    frontend = lark.parser
    return frontend.parser.parse(LexerThread(frontend.lexer, state), rule)


def read_by_lines(
    name: str,
    rule: str,
    source: str,
    first: NotationError,
    builder: Transformer[Token, Any],
    what: str,
    source_name: str | None,
) -> tuple[list[Any], list[ReadError]]:
    """What ``builder`` makes of the header line (the first line that is not blank, read
    with the whole grammar of ``grammars/<name>.lark``) and of each later line read alone
    with its start rule ``rule``; a :class:`ReadError` for each line that cannot be read.

    :raises NotationError: ``first`` (the whole-record parse's error) when it stands in the
        header line or before it: then nothing of the text is a record.
    """
    starts = line_starts(source)
    blank = [not source[starts[k] : starts[k + 1] - 1].strip() for k in range(len(starts) - 1)]
    header = blank.index(False) if False in blank else None
    if header is None or first.line <= header + 1:
        raise first
    head_end = min(starts[header + 1], len(source))
    try:
        items: list[Any] = list(build(builder, parser(name).parse(source[:head_end]), source))
    except UnexpectedInput:
        raise first from None
    faults: list[ReadError] = []
    lark = parser(name, rule)
    for index in range(header + 1, len(starts) - 1):
        start, end = starts[index], min(starts[index + 1], len(source))
        if not source[start:end].strip():
            continue
        if len(faults) >= MAX_FAULTS:
            faults.append(too_many(index + 1))
            break
        item = read_line(lark, builder, source, start, end, index + 1, rule, what, source_name)
        if isinstance(item, ReadError):
            faults.append(item)
        else:
            items.append(item)
    return items, faults


def too_many(line: int) -> ReadError:
    """The fault at line ``line``, where reading stops after :data:`MAX_FAULTS` faults
    (every text reader's)."""
    message = f"more than {MAX_FAULTS} lines could not be read: the rest of the file is not read"
    return ReadError(line, 1, message)


def read_line(
    lark: Lark,
    builder: Transformer[Token, Any],
    source: str,
    start: int,
    end: int,
    line: int,
    rule: str,
    what: str,
    source_name: str | None,
) -> Any:
    """What ``builder`` makes of line ``line`` (``source[start:end]``) read alone with
    ``lark``'s start rule ``rule``, or a :class:`ReadError` where it cannot be read.

    :raises LimitError: a limit passed (it costs the file).
    """
    try:
        tree = parse_slice(lark, source, start, end, line, rule)
        return build(builder, tree, source, source_name=source_name)
    except UnexpectedInput as err:
        fault = notation_error(err, source, what)
        if fault.pos >= len(source):  # the line ends too early (Lark's end is the file's)
            text = source[start:end].rstrip()
            return ReadError(line, len(text) + 1, fault.msg)
        return ReadError(fault.line, fault.column, fault.msg)
    except LimitError:
        raise
    except NotationError as err:
        return ReadError(err.line, err.column, err.msg)


def parse_lines(
    name: str,
    source: str,
    builder: Transformer[Token, Any],
    what: str,
    source_name: str | None,
    *,
    strict: bool,
) -> tuple[list[Any], list[ReadError]]:
    """The lines ``builder`` makes of a record of ``grammars/<name>.lark`` (whose top rule
    returns a list of them, and whose ``<name>_line`` rule reads one line), and the lines
    that cannot be read: none when the whole record parses, else as :func:`read_by_lines`.

    :raises NotationError: with ``strict``, at the first line that cannot be read.
    """
    try:
        tree = parse_tree(name, source, what, source_name=source_name)
        return list(build(builder, tree, source, source_name=source_name)), []
    except LimitError:
        raise
    except NotationError as err:
        if strict:
            raise
        found, faults = read_by_lines(name, f"{name}_line", source, err, builder, what, source_name)
    lines = [line for item in found for line in (item if isinstance(item, list) else [item])]
    return [line for line in lines if line is not None], faults


FastLine = Callable[[str, int, int, int], Any]
"""A reader's own reading of one line: ``fast(source, start, end, line)`` is what the
reader's builder makes of ``source[start:end]`` (line ``line``, with its line end),
:data:`NOTHING` where the builder makes nothing of it, or ``None`` when it leaves the
line to Lark (a line of another shape, or one with a fault: Lark reads it again and
places the fault)."""

NOTHING = object()
"""What a :data:`FastLine` returns for a line its builder makes nothing of."""


@dataclass(frozen=True, slots=True)
class LineReading:
    """A record's lines, as :func:`read_lines` hands them on."""

    items: Iterable[Any]
    """The lines read, in file order: an iterator that reads as it is consumed."""
    faults: list[ReadError]
    """The lines that cannot be read: those before the item last taken from
    :attr:`items`, all of them once it is exhausted."""
    unread: dict[int, int] | None
    """The offset of each line of :attr:`faults` (filled as they are met); ``None`` when
    :attr:`faults` is complete from the start."""

    def lost(self, source: str, game_line: re.Pattern[str]) -> LostGameLines:
        """The :class:`LostGameLines` of :attr:`faults`, following them as they are met."""
        return LostGameLines(source, self.faults, game_line, unread=self.unread)

    def read_to_end(self) -> None:
        """Read the lines not yet taken (for a reader whose own check of a line passed a
        limit: a line after it that passes one is what :func:`parse_lines`, which reads
        every line first, raises)."""
        for _ in self.items:
            pass


def read_lines(
    name: str,
    source: str,
    builder: Transformer[Token, Any],
    what: str,
    source_name: str | None,
    fast: FastLine,
    *,
    strict: bool,
) -> LineReading:
    """The lines of a record of ``grammars/<name>.lark`` as :func:`parse_lines` reads
    them: the same items and faults, each line read by ``fast`` where it can and alone
    with Lark's ``<name>_line`` rule where it cannot. The header line (the first that is
    not blank) is read with the whole grammar; where it cannot be read, or with
    ``strict`` where a line cannot be read, the record is left to :func:`parse_lines`
    (which raises its error).

    :raises NotationError: as :func:`parse_lines`.
    """
    check_text(source, source_name)

    def reference() -> LineReading:
        return reference_lines(name, source, builder, what, source_name, fast, strict=strict)

    size = len(source)
    start = 0
    line = 1
    while True:  # the header line: the first that is not blank
        blanks = _BLANK_LINES.match(source, start)  # (a run of them at once)
        if blanks is not None and blanks.end() < size:
            start, line = blanks.end(), line + source.count("\n", start, blanks.end())
        end = source.find("\n", start)
        end = size if end < 0 else end + 1
        if source[start:end].strip() or end >= size:
            break
        start, line = end, line + 1
    try:
        if _GRAMMAR_BLANKS.fullmatch(source, 0, start):  # (read from its own line: Lark
            # took 6 s over 16 MiB of blank lines before it)
            tree = parse_slice(parser(name), source, start, end, line, name)
        else:  # (blanks the grammar refuses: Lark places the fault)
            tree = parser(name).parse(source[:end])
        header = build(builder, tree, source)
    except (UnexpectedInput, NotationError):
        return reference()
    faults: list[ReadError] = []
    unread: dict[int, int] = {}
    items = _read_after(
        name, source, builder, what, source_name, fast, end, line + 1, faults, unread
    )
    if strict:
        try:
            found = [*_flat([header]), *items]
        except LimitError:  # (Lark's parse of the whole record may fail before the limit
            # is met, at a line before or after it: the reference says which it raises)
            return reference()
        if faults:
            return reference()
        return LineReading(found, faults, unread)
    return LineReading(_chain(header, items), faults, unread)


def reference_lines(
    name: str,
    source: str,
    builder: Transformer[Token, Any],
    what: str,
    source_name: str | None,
    _fast: FastLine,
    *,
    strict: bool,
) -> LineReading:
    """:func:`parse_lines`' reading as a :class:`LineReading` (``_fast`` is not used): what
    :func:`read_lines` falls back on, and the tests' reference."""
    items, faults = parse_lines(name, source, builder, what, source_name, strict=strict)
    return LineReading(items, faults, None)


def _chain(header: Any, items: Iterator[Any]) -> Iterator[Any]:
    yield from _flat([header])
    yield from items


def _flat(items: Iterable[Any]) -> Iterator[Any]:
    """The lines of ``items`` (a builder returns a list for the header line, ``None`` for
    a line that makes nothing), as :func:`parse_lines` lists them."""
    for item in items:
        if isinstance(item, list):
            yield from (line for line in item if line is not None)
        elif item is not None:
            yield item


def _read_after(
    name: str,
    source: str,
    builder: Transformer[Token, Any],
    what: str,
    source_name: str | None,
    fast: FastLine,
    start: int,
    line: int,
    faults: list[ReadError],
    unread: dict[int, int],
) -> Iterator[Any]:
    """The lines from offset ``start`` (line ``line``) on, as :func:`read_by_lines`
    reads them; a fault goes to ``faults`` (its offset to ``unread``) as it is met."""
    size = len(source)
    rule = f"{name}_line"
    lark: Lark | None = None
    find = source.find
    while start < size:
        if source[start] in " \t\r\n":  # (a run of blank lines, which Lark skips, at once)
            blanks = _BLANK_LINES.match(source, start)
            if blanks is not None:
                line += source.count("\n", start, blanks.end())
                start = blanks.end()
                continue
        end = find("\n", start)
        end = size if end < 0 else end + 1
        if len(faults) >= MAX_FAULTS and source[start:end].strip():
            faults.append(too_many(line))
            unread[line] = start
            return
        item = fast(source, start, end, line)
        if item is None:
            if not source[start:end].strip():
                start, line = end, line + 1
                continue
            lark = lark or parser(name, rule)
            item = read_line(lark, builder, source, start, end, line, rule, what, source_name)
            if isinstance(item, ReadError):
                faults.append(item)
                unread[item.line] = start
                item = None
        if item is not None and item is not NOTHING:
            if isinstance(item, list):
                yield from _flat(item)
            else:
                yield item
        start, line = end, line + 1


def no_fast_line(source: str, start: int, end: int, line: int) -> None:
    """A :data:`FastLine` that leaves every line to Lark (for a reader whose limits are
    tighter than its fast path's numbers)."""
    return None


def fast_number(digits: str) -> int | None:
    """The number ``digits`` (an optional ``-`` and ASCII digits, as a grammar's ``INT`` or
    ``SIGNED``) writes, or ``None`` when it has more digits than ``max_integer_digits``
    (Lark's reading raises the limit). A reader's fast path is taken only under a limit of
    at least three digits, so that a number of three digits at most is read at once."""
    if len(digits) > 3 and len(digits.lstrip("-")) > active().max_integer_digits:
        return None
    return int(digits)


_DICE = {(str(a), str(b)): (a, b) for a in range(1, 7) for b in range(1, 7)}  # (one tuple each)


def fast_dice(first: str, second: str) -> tuple[int, int] | None:
    """The dice ``first`` and ``second`` write (ASCII digits each: ``4``, ``04``), or
    ``None`` when one is not 1-6 or has more digits than ``max_integer_digits`` (faults
    that Lark places)."""
    dice = _DICE.get((first, second))
    if dice is not None:
        return dice
    a, b = fast_number(first), fast_number(second)
    if a is None or b is None:
        return None
    return _DICE.get((str(a), str(b)))


def step_reader(
    step: re.Pattern[str], points: dict[str, int]
) -> Callable[[str], tuple[tuple[int, int, int], ...] | None]:
    """A fast path's reading of a move's steps: ``steps(text)`` is, for each match of
    ``step`` in ``text`` (its groups 1 and 2 the points as written), ``(from, to, offset
    in text)`` with the points as ``points`` has them (keys in lower case; a number
    written with zeros before it, ``08``, as its value); ``None`` when a point is not in
    ``points``, has more digits than ``max_integer_digits`` or there are more than four
    steps (faults that Lark places). Cached for a text of at most 80 characters (records
    repeat their moves; four steps take at most 31 as the writers write them), so that
    the cache holds little whatever the record (the limit on digits, which may change
    from one reading to the next, is checked outside it)."""

    def point(text: str) -> tuple[int | None, int]:
        """The point ``text`` writes and its digits (0 for ``bar``, ``off``)."""
        value = points.get(text.lower())
        if value is not None or not text.startswith("0"):
            return value, 0
        return points.get(text.lstrip("0")), len(text)

    def read(text: str) -> tuple[tuple[tuple[int, int, int], ...], int] | None:
        found = []
        width = 0  # (the most digits of a point)
        for m in step.finditer(text):
            (a, wide_a), (b, wide_b) = point(m[1]), point(m[2])
            if a is None or b is None:
                return None
            found.append((a, b, m.start(1)))
            width = max(width, wide_a, wide_b)
        return (tuple(found), width) if len(found) <= 4 else None

    cached = functools.lru_cache(maxsize=1 << 12)(read)

    def steps(text: str) -> tuple[tuple[int, int, int], ...] | None:
        got = cached(text) if len(text) <= 80 else read(text)
        if got is None:
            return None
        found, width = got
        if width > 3 and width > active().max_integer_digits:
            return None
        return found

    return steps


class PlacedLine(Protocol):
    """A line as a reader's builder makes it: where its token stands."""

    line: int
    column: int
    pos: int


class LineAssembler(SourceText):
    """What turns a reader's lines into a match (``match``), with the faults of the lines
    it cannot use (``None`` in a strict reading: it raises them)."""

    faults: list[ReadError] | None

    def match(self, lines: Iterable[Any], lost: LostGameLines) -> Match:
        raise NotImplementedError

    def doubled(self, cube: int, line: PlacedLine) -> int:
        """``cube`` doubled by the double of ``line``. The records write no cube value,
        each double is one more doubling: a value of more digits than
        ``max_integer_digits`` is refused as a value written so would be (a 16 MiB record
        of doubles and takes made numbers of half a million bits, gigabytes in all).

        :raises LimitError: naming ``max_integer_digits``, at ``line``'s token.
        """
        value = cube * 2
        check_integer(str(value), self.source, line.pos, self.source_name)
        return value

    def game_starts(self, count: int, pos: int | None, line: int) -> None:
        """Refuse the ``count``-th game of the record past ``max_games``: it starts at
        offset ``pos``, or where ``pos`` is not known (a line that could not be read) at
        the start of line ``line``.

        :raises LimitError: naming ``max_games``.
        """
        if count > active().max_games:
            if pos is None:  # (found from the line: once, for the error)
                pos = NotationError.at("", self.source, line, 1).pos
            check_games(count, self.source, pos, self.source_name)

    def game_acts(self, count: int, game: int, line: PlacedLine) -> None:
        """Refuse the ``count``-th action of the ``game``-th game past ``max_game_actions``
        (an assembler calls it as it takes each action: a game's lines are held until it
        ends), at ``line``'s token.

        :raises LimitError: naming ``max_game_actions``.
        """
        if count > active().max_game_actions:
            check_game_actions(count, game, self.source, line.pos, self.source_name)

    def _fail_at(self, msg: str, pos: int, line: PlacedLine) -> NotationError:
        """The error at offset ``pos`` of ``line`` (for the caller to raise, or for
        :func:`keep_fault` to record), placed on ``line`` without counting the lines
        before it (so that a record of a million faults is read in linear time); a ``pos``
        before the line is placed by that count."""
        known = line.line if pos >= line.pos - line.column + 1 else None
        return NotationError(msg, self.source, pos, source_name=self.source_name, line=known)

    def assemble(self, reading: LineReading, game_line: re.Pattern[str]) -> Match:
        """The match of ``reading``'s lines (``game_line``: how the line that starts a game
        starts, for the lines that cannot be read), with every fault found."""
        try:
            match = self.match(reading.items, reading.lost(self.source, game_line))
        except LimitError as err:
            if err.limit not in AS_READ:  # (a record past it is refused either way)
                reading.read_to_end()
            raise
        check_names(match.players, self.source, self.source_name)
        faults = reading.faults + (self.faults or [])
        if faults:
            match = replace(match, read_errors=tuple(sorted(faults, key=lambda f: f.line)))
        return match


def keep_fault(faults: list[ReadError] | None, err: NotationError) -> None:
    """Record ``err`` (at a line an assembler cannot use) in ``faults``, or raise it when
    there is no list (a strict reading) or it is a limit passed."""
    if faults is None or isinstance(err, LimitError):
        raise err
    faults.append(ReadError(err.line, err.column, err.msg))


class LostGameLines:
    """The lines of a record that could not be read, met in file order by an assembler:
    one that ``game_line`` matches (it starts like the line that starts a game) starts a
    game all the same; another is :attr:`pending` until the next line read (an assembler
    starts a game there when that line acts after a game's end)."""

    def __init__(
        self,
        source: str,
        faults: list[ReadError] | None,
        game_line: re.Pattern[str],
        *,
        unread: dict[int, int] | None = None,
    ) -> None:
        """With ``unread`` (the offset of each line of ``faults``), ``faults`` is followed
        as it grows (in line order, as :func:`read_lines` fills it); without, it is taken
        as it is now."""
        self.unread = unread
        self.source = source
        if unread is None:
            self.faults = sorted(faults or (), key=lambda f: f.line)
        else:
            self.faults = [] if faults is None else faults  # (the same list, as it grows)
        self.index = 0
        self.pending: ReadError | None = None
        self.game_line = game_line
        self.lines = source.split("\n") if self.faults and unread is None else []

    def _text(self, line: int) -> str:
        """The text of line ``line`` (one of the faults')."""
        if self.unread is None:
            return self.lines[line - 1] if line <= len(self.lines) else ""
        start = self.unread.get(line)
        if start is None:
            return ""
        end = self.source.find("\n", start)
        return self.source[start : end if end >= 0 else len(self.source)]

    def before(self, line: int) -> list[ReadError]:
        """The game lines among the unread lines before ``line`` (others: :attr:`pending`)."""
        games: list[ReadError] = []
        while self.index < len(self.faults) and self.faults[self.index].line < line:
            fault = self.faults[self.index]
            self.index += 1
            if self.game_line.match(self._text(fault.line)):
                games.append(fault)
                self.pending = None
            else:
                self.pending = fault
        return games
