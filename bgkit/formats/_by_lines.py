"""Reading a line-based record line by line, after a parse of the whole record failed.

One line that cannot be read must not cost the rest of the file: each reader parses the
whole record first (the fast path), and where that fails it reads each line alone with a
start rule of its grammar, keeping a :class:`~bgkit.records.ReadError` for each line it
cannot read. Each line is parsed once, its tokens placed in the whole text.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.lexer import LexerState, LexerThread, LineCounter
from lark.utils import TextSlice

from bgkit._grammars import build, notation_error, parse_tree, parser
from bgkit.errors import LimitError, NotationError
from bgkit.records import ReadError

__all__ = [
    "LostGameLines",
    "keep_fault",
    "line_starts",
    "parse_lines",
    "parse_slice",
    "read_by_lines",
]

MAX_FAULTS = 1000
"""Lines that cannot be read, at most, before the rest of a file is left unread (a fault's
message costs a count over the text before it)."""


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
            faults.append(
                ReadError(
                    index + 1,
                    1,
                    f"more than {MAX_FAULTS} lines could not be read:"
                    " the rest of the file is not read",
                )
            )
            break
        try:
            tree = parse_slice(lark, source, start, end, index + 1, rule)
            items.append(build(builder, tree, source, source_name=source_name))
        except UnexpectedInput as err:
            fault = notation_error(err, source, what)
            if fault.pos >= len(source):  # the line ends too early (Lark's end is the file's)
                text = source[start:end].rstrip()
                faults.append(ReadError(index + 1, len(text) + 1, fault.msg))
            else:
                faults.append(ReadError(fault.line, fault.column, fault.msg))
        except LimitError:
            raise
        except NotationError as err:
            faults.append(ReadError(err.line, err.column, err.msg))
    return items, faults


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
        self, source: str, faults: list[ReadError] | None, game_line: re.Pattern[str]
    ) -> None:
        self.faults = sorted(faults or (), key=lambda f: f.line)
        self.index = 0
        self.pending: ReadError | None = None
        self.game_line = game_line
        self.lines = source.split("\n") if self.faults else []

    def before(self, line: int) -> list[ReadError]:
        """The game lines among the unread lines before ``line`` (others: :attr:`pending`)."""
        games: list[ReadError] = []
        while self.index < len(self.faults) and self.faults[self.index].line < line:
            fault = self.faults[self.index]
            self.index += 1
            text = self.lines[fault.line - 1] if fault.line <= len(self.lines) else ""
            if self.game_line.match(text):
                games.append(fault)
                self.pending = None
            else:
                self.pending = fault
        return games
