"""Read GNU Backgammon's text exports of games and matches (``export match text``,
``export game text``): as positions (``bgkit show``) and as the match they record
(``bgkit verify``, ``convert``, ``analyze``).

**As a match** (:func:`parse_gnubg_match`, :func:`read_gnubg_match`, and
:func:`bgkit.read_match`, which recognises the export by its first line): the games, their
moves, cube actions and results, with gnubg's analysis on the actions in bgkit's analysis
model (:func:`bgkit.formats.sgf_analysis.analysis_of`), so SGF and JSON keep it. gnubg
writes a match one game per file, ``x.txt``, ``x_002.txt``, ``x_003.txt``...: reading
``x.txt`` reads the files after it too (:func:`gnubg_series`), each game keeping its own
file for messages; a numbered file read alone is its game alone; in a folder
(:func:`bgkit.formats.find_records`) the numbered files are read with their first.

Such an export shows every position of a game: a ``Move number N:`` heading, the
Position ID and Match ID, the ASCII board with the score, dice and cube written right of
it, the pip counts, what was played (``* Llabba moves 8/4 6/4``) and, when the game was
analysed, the cube analysis and the candidate plays. The syntax lives in
``grammars/gnubg_text.lark``.

:func:`parse_gnubg_text` returns one :class:`~bgkit.formats.annotations.PositionExport`
per board, its position built from the **diagram and the texts beside it** (not from
the IDs), with the IDs as printed, the heading, the play made and the analysis.

>>> boards = read_gnubg_text(
...     "data/real/gnubg_txt/lassehjorthmadsen__bglab__0ply__BoardLord_-_Llabba_7pt_"
...     "Backgammon_Studio_2023_08_09_18_11_07.txt")
>>> first, second = boards[0], boards[1]
>>> first.heading, first.played
('Move number 1:  BoardLord to play 51', 'BoardLord moves 24/23 13/8')
>>> first.checker.candidates[0].play, first.checker.played
(Play('24/23 13/8'), 0)
>>> second.position == Position.from_gnubg_id(f"{second.position_id}:{second.match_id}")
True

**The first board of a game.** gnubg writes its Match ID with the game state "no game"
(0); the position read from the board is a game in play. Apart from that field, every
board of the real exports in ``data/real/gnubg_txt`` equals its IDs.

**What is read.** The board exactly as gnubg draws it (see :mod:`bgkit.ascii_board`):
X's points in fixed places, ``v``/``^`` on the bar line for X/O on roll, marks from the
edge and in the fifth row a count (``6``-``9``, ``A``-``F``) or a mark, bar checkers in the
middle column. Beside the board: ``N points`` (each side's score), ``Rolled 51`` (the dice),
``Cube offered at N`` (a pending double), ``resigns ...``, ``N points match`` with
``(Cube: N)`` or ``(Crawford game)``, and ``(Cube: N)`` after a name for the cube's owner.
The checker analysis (``Rolled 51:``: level, play, equity, chances; ``*`` marks the
play made) and the cube analysis (cubeless equity and chances, the three cubeful
equities, gnubg's proper action verbatim) attach to the board above them.

**What is rejected** (:class:`~bgkit.errors.NotationError` with line and column): a board
cell that is neither a mark nor a count, pip counts that disagree with the board, a
board whose texts are not gnubg's, a board that is no position. Other lines (the match
information, the statistics, alerts) are accepted and skipped. Read as a match, such a
board, or any line that cannot be read, is a :class:`~bgkit.records.ReadError` and the
rest of the export is read (:func:`parse_gnubg_match`); only an export whose first score
line cannot be read is refused.
"""

from __future__ import annotations

import array
import dataclasses
import functools
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, overload

from lark import Token, UnexpectedEOF, UnexpectedInput, UnexpectedToken, v_args

from bgkit._grammars import (
    SourceText,
    SourceTransformer,
    build,
    notation_error,
    parser,
)
from bgkit._play_grammar import with_plays
from bgkit.errors import BgkitError, InvalidPositionError, LimitError, NotationError
from bgkit.formats import source_text
from bgkit.formats._by_lines import MAX_FAULTS, parse_slice, too_many
from bgkit.formats._diagram import (
    DiagramError,
    board_error,
    full_lines,
    position_from_grid,
    read_grid,
)
from bgkit.formats._ratings import rating_key
from bgkit.formats.annotations import (
    ActionAnalysis,
    CandidatePlay,
    CheckerAnalysis,
    CubeAnalysis,
    PositionExport,
    Probabilities,
)
from bgkit.limits import (
    Limits,
    active,
    check_game_actions,
    check_games,
    check_integer,
    check_text,
)
from bgkit.play import Play, Step, _StepError, part_steps
from bgkit.position import Position
from bgkit.records import Action, Double, Drop, Game, Match, Move, ReadError, Result, Take

__all__ = [
    "Position",
    "gnubg_series",
    "join_matches",
    "parse_gnubg_match",
    "parse_gnubg_text",
    "read_gnubg_match",
    "read_gnubg_text",
    "sniff_gnubg_match",
    "sniff_gnubg_text",
]

_FIFTH_ROW = "     X6789ABCDEF"  # gnubg's fifth-row character for 5..15 checkers
# (matched on the text stripped: with ``\s*`` before the end, a name of many blanks
# took time quadratic in them, 5 s for 34,690 of them)
_NAME = re.compile(r"^(?P<side>[OX]): (?P<name>.*?)(?: \(Cube: (?P<cube>[0-9]+)\))?$")
_POINTS = re.compile(r"^(?P<n>[0-9]+) points?$")
_ROLLED = re.compile(r"Rolled (?P<d1>[1-6])(?P<d2>[1-6])")
_BOARD_ID = re.compile(r"GNU Backgammon[ \t]+Position ID:")  # (as the grammar's)
_LUCK = re.compile(r"Rolled [1-6][1-6] \((?P<luck>[-+][0-9]+\.[0-9]+)\):\s*$")
_OFFERED = re.compile(r"Cube offered at (?P<n>[0-9]+)")
_RESIGNS = re.compile(r"resigns (single game|gammon|backgammon)")
_MATCH = re.compile(r"(?P<n>[0-9]+) points? match")
_CUBE = re.compile(r"Cube: (?P<n>[0-9]+)")  # 1.07: "(Cube: 2)"; 0.16: "Cube: 2 (7 point match)"
_FRAME_END = 44  # the texts beside the board start after the frame's last column
_OFF_TRAY = re.compile(r"[ OX]*")  # borne-off checkers drawn between the frame and a text


def sniff_gnubg_text(text: str) -> bool:
    """True when ``text`` holds a GNU Backgammon board with its Position ID.

    >>> sniff_gnubg_text("Move number 1:  A to play 51\\n\\n GNU Backgammon  Position ID: 4HPw")
    True
    """
    return _BOARD_ID.search(text[:20_000]) is not None


def read_gnubg_text(
    source: str | os.PathLike[str] | IO[str] | IO[bytes], *, encoding: str | None = None
) -> tuple[PositionExport, ...]:
    """:func:`parse_gnubg_text` of a file path or an open file (text or binary).

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when a board of the export cannot be read.
    """
    text, name = source_text(source, encoding=encoding)
    return parse_gnubg_text(text, source_name=name)


def parse_gnubg_text(text: str, *, source_name: str | None = None) -> tuple[PositionExport, ...]:
    """Every board of a GNU Backgammon text export, in file order (see the module docstring).

    >>> parse_gnubg_text("Move number 1:\\n GNU Backgammon  Position ID: 4HPwATDgc/ABMA\\n")
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: 3:1: gnubg text export ends too early; expected match_id ...

    :raises NotationError: when a board of the export cannot be read.
    """
    grouper = _read(text, source_name)
    return tuple(grouper.export(g) for g in grouper.groups)


def _read(text: str, source_name: str | None, *, lenient: bool = False) -> _Grouper:
    """The boards of an export. ``lenient``: a line the grammar cannot read is a
    :class:`~bgkit.records.ReadError` (with the whole board when it stands in one) and
    is read as blank, and so is a board that cannot be made a position; else the first
    such line raises.

    The export is read a block at a time, each block by the fast path when its lines are
    of the shapes gnubg writes, else by the grammar, and its items are grouped as soon as
    it is read (what a block held is let go then). Read whole, the grammar reads the same
    items: a lenient reading is :func:`_block_items`, a strict one :func:`_strict_items`,
    which raises the error the grammar raises reading the whole export, from the block
    where it stands."""
    source = text[1:] if text.startswith("\ufeff") else text
    check_text(source, source_name)
    grouper = _Grouper(source, source_name)
    if lenient:
        read_faults: list[ReadError] = []
        grouper.faults, grouper.read_faults = [], read_faults
        grouper.run(_block_items(source, source_name, read_faults, grouper))
        grouper.faults, grouper.read_faults = read_faults + grouper.faults, []
        return grouper
    items = _strict_items(source, source_name)
    try:
        grouper.run(items)
    except BgkitError:
        # (the grammar reads and builds the whole export before its lines are grouped: a
        # fault of the blocks after this one comes first)
        for _ in items:
            pass
        raise
    return grouper


# where a block of an export starts: a position's heading or a game's score line
_BLOCK_START = re.compile(r"^(?:Move number [0-9]+:|The score \(after )", re.MULTILINE)


def _blocks(source: str) -> tuple[list[int], list[int]]:
    """Where each block of ``source`` starts (from one heading to the next), and ends."""
    starts = [0, *(m.start() for m in _BLOCK_START.finditer(source) if m.start())]
    return starts, [*starts[1:], len(source)]


def _game_block(
    source: str, start: int, games: int, source_name: str | None, limits: Limits
) -> int:
    """The games of an export read so far, ``games`` before the block at offset
    ``start``, and that block when its score line starts a game: past ``max_games`` it is
    refused before it is read, and so are the blocks after it (the builder counts the
    games again, score lines written otherwise too).

    :raises LimitError: naming ``max_games``, at the score line.
    """
    if not source.startswith("The score (after ", start):
        return games
    games += 1
    if games > limits.max_games:
        check_games(games, source, start, source_name, limits)
    return games


def _strict_items(source: str, source_name: str | None) -> Iterator[Any]:
    """The items of an export read strictly, a block at a time (as :func:`_block_items`),
    raising the error that the grammar raises reading the whole export, in the time and
    memory of a lenient reading (Lark reading the whole of a 16 MB export with a fault
    near its end: 13 s of CPU and 491 MiB for ``bgkit show``; now 1.9 s and 110 MiB).

    Why a block's error is the whole export's: a block starts a line with ``Move
    number`` or ``The score``, never a blank, so where the blocks before it have been read
    the grammar reads it from the state it reads a new line in, as it reads a block
    alone: the same tokens and the same first syntax error. A block that ends too early
    (inside a board, or the Position ID's two lines) is read again with the block after
    it, as the whole text goes on. The grammar parses the whole export before it builds
    any line: a fault of a line's value (a pip count too large, a play that breaks a
    rule) is raised once the blocks after it are found free of syntax errors, the first
    of which comes before it."""
    starts, ends = _blocks(source)
    lark: Any = None
    line = 1
    held: BgkitError | None = None  # the first fault of a line's value
    index = 0
    limits = active()
    games = 0
    while index < len(starts):
        start, end = starts[index], ends[index]
        games = _game_block(source, start, games, source_name, limits)
        fast = _fast_block(source, start, end, line)
        if fast is not None:
            if held is None:
                yield from fast
            line += source.count("\n", start, end)
            index += 1
            continue
        if lark is None:
            lark = parser("gnubg_text")
        while True:
            block = source[start:end]
            try:
                tree = _block_tree(lark, block, start, line)
                break
            except UnexpectedInput as found:
                early = isinstance(found, UnexpectedEOF) or (
                    isinstance(found, UnexpectedToken) and found.token.type == "$END"
                )
                if early and index + 1 < len(starts):  # (read on into the next block)
                    index += 1
                    end = ends[index]
                    games = _game_block(source, starts[index], games, source_name, limits)
                    continue
                raise _block_error(found, block, start, line, source, source_name) from None
        if held is None:
            try:
                part: list[Any] = build(
                    with_plays(_LineBuilder(source, source_name)),
                    tree,
                    source,
                    source_name=source_name,
                )
            except BgkitError as err:
                held = err
            else:
                yield from part
        line += block.count("\n")
        index += 1
    if held is not None:
        raise held


def _block_tree(lark: Any, block: str, start: int, line: int) -> Any:
    """The grammar's tree of ``block``, the text from offset ``start`` (line ``line``) of
    an export, its tokens placed in the whole text.

    :raises UnexpectedInput: where it cannot be parsed."""
    tree = parse_slice(lark, block, 0, len(block), line, "gnubg_text")
    for token in tree.scan_values(lambda v: isinstance(v, Token)):
        token.start_pos = (token.start_pos or 0) + start
        token.end_pos = (token.end_pos or 0) + start
    return tree


def _block_error(
    found: UnexpectedInput,
    block: str,
    start: int,
    line: int,
    source: str,
    source_name: str | None,
) -> NotationError:
    """The grammar's error ``found`` in ``block`` (the text from offset ``start``, line
    ``line``, of ``source``) as the whole text's, placed without counting the lines
    before the block."""
    local = notation_error(found, block, "gnubg text export", source_name=source_name)
    return NotationError(
        local.msg, source, start + local.pos, source_name=source_name, line=line + local.line - 1
    )


def _block_items(
    source: str, source_name: str | None, faults: list[ReadError], grouper: _Grouper
) -> Iterator[Any]:
    """The items of an export, read a block at a time (from one heading to the next): by
    the fast path (:func:`_fast_block`) when it can, else by the grammar. A line of a
    block that the grammar cannot read is kept in ``faults`` and blanked (with its board
    when it stands in one), and the block is read again; so the work is bounded by the
    block's size, not the file's. Once all is read, ``grouper.source`` is the text with
    those lines blanked (positions unchanged; while reading, what the grouper reads of it
    is the same either way: the lines of the boards and the tokens that were read).

    :raises LimitError: at the score line of a game past ``max_games``, before its block
        is read (:func:`_game_block`).
    """
    starts, ends = _blocks(source)
    lark: Any = None
    line = 1
    replaced: list[tuple[int, str]] = []  # (the blocks with lines blanked)
    limits = active()
    games = 0
    for start, end in zip(starts, ends, strict=True):
        games = _game_block(source, start, games, source_name, limits)
        fast = _fast_block(source, start, end, line)
        if fast is not None:
            yield from fast
            line += source.count("\n", start, end)
            continue
        if lark is None:
            lark = parser("gnubg_text")
        # the block is read (and its lost lines blanked) in a copy of its own, so that a
        # fault costs the block, not the text; the blanked blocks replace theirs at the end
        block = source[start:end]
        spans = _Spans(block, 0, len(block))
        blanked: set[int] = set()
        while True:
            try:
                err = None
                part: list[Any] = build(
                    with_plays(_LineBuilder(source, source_name)),
                    _block_tree(lark, block, start, line),
                    source,
                    source_name=source_name,
                )
            except UnexpectedInput as found:
                err = _block_error(found, block, start, line, source, source_name)
            except NotationError as found:
                err = found
            if err is None:
                yield from part
                break
            if isinstance(err, LimitError):
                raise err
            if len(faults) >= MAX_FAULTS:
                faults.append(too_many(err.line))
                _blank(grouper, source, [*replaced, (start, block)])
                return
            lost = _lost_span(block, spans, err.line - line, err.pos >= end)
            if lost is None or blanked.issuperset(lost):
                lost = range(len(spans))  # (no progress: the whole block is lost)
                if blanked.issuperset(lost):
                    break
            index = min(lost[0], len(spans) - 1)
            text = block[spans[index][0] : spans[index][1]]
            if err.pos < end:
                at, column = err.line, err.column
            else:  # (the block ends too early: at the end of its last line)
                at = line + max(i for i in range(len(spans)) if block[slice(*spans[i])].strip())
                column = 1
            record = not (len(lost) == 1 and _ANALYSIS_LINE.match(text))
            faults.append(ReadError(at, column, err.msg, record=record, analysis=not record))
            first, last = spans[lost[0]][0], spans[min(lost[-1], len(spans) - 1)][1]
            block = block[:first] + re.sub(r"[^\n]", " ", block[first:last]) + block[last:]
            blanked.update(lost)
        if blanked:
            replaced.append((start, block))
        line += len(spans) - 1
    _blank(grouper, source, replaced)


def _blank(grouper: _Grouper, source: str, replaced: list[tuple[int, str]]) -> None:
    """``grouper.source``: ``source`` with the blocks ``replaced`` (their offset and their
    text with the lost lines blanked), made once."""
    if not replaced:
        return
    pieces, at = [], 0
    for start, block in replaced:
        pieces += [source[at:start], block]
        at = start + len(block)
    grouper.source = "".join([*pieces, source[at:]])


class _Spans(Sequence[tuple[int, int]]):
    """The lines of a block: ``(offset, end)`` each (without its line end), from an array
    of their starts (8 bytes a line: a block of a million blank lines costs 8 MB)."""

    def __init__(self, source: str, start: int, end: int) -> None:
        self.end = end
        self.starts = array.array("q", [start])
        at = source.find("\n", start, end)
        while at >= 0:
            self.starts.append(at + 1)
            at = source.find("\n", at + 1, end)

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, int]]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self.starts)
        stop = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else self.end
        return (self.starts[index], stop)


def _lost_span(
    source: str, spans: Sequence[tuple[int, int]], index: int, early: bool
) -> range | None:
    """The lines of a block (indexes in ``spans``) lost with its line ``index``: the
    whole board when the line stands in one (between its frames, 13 lines), else the
    line alone; when the block ends too early, from its last board's top frame (or its
    last line) to its end."""

    def frame(i: int) -> bool:
        return 0 <= i < len(spans) and _FRAME_LINE.match(source[slice(*spans[i])]) is not None

    if early:
        tops = [i for i in range(len(spans)) if frame(i)]
        last = max((i for i in range(len(spans)) if source[slice(*spans[i])].strip()), default=0)
        first = tops[-1] if tops and len(tops) % 2 != 0 else last
        return range(first, len(spans))
    if not 0 <= index < len(spans):
        return None
    for top in range(index, max(index - 13, -1), -1):
        if frame(top) and frame(top + 12) and top + 12 >= index:
            return range(top, top + 13)
        if frame(top) and top < index:
            break
    return range(index, index + 1)


# a line of gnubg's analysis beside the record: a candidate or cube option ("1. ...",
# "*    1. ..."), a row of chances, a cubeless equity, the proper cube action, the luck of
# a roll ("Rolled 42 (+0.045):")
_ANALYSIS_LINE = re.compile(
    r"[ \t]*(?:\*[ \t]+)?(?:(?:[0-9]+\.|\?\?)[ \t]|[-+]?[0-9]+[.@,][0-9@])"
    r"|[ \t]*(?:[0-9]+-ply|Rollout) cubeless|[ \t]*Proper cube action"
    r"|Rolled [1-6][1-6] \("
)
_FRAME_LINE = re.compile(r"[ \t]*\+1[23]-[-0-9]+\+")


# ---------------------------------------------------------------------------- fast path

# The lines gnubg writes, read without Lark (issue 29: Lark took 2 ms and 63 KB an action
# of a 16 MB export). A block (from one heading to the next) whose every line has one of
# the shapes below is read here into the items the grammar's builder makes, with tokens at
# the same places; any other block (a line of another shape, a fault, a tab, a carriage
# return not ending a line...) is left to the grammar, which reads or reports it as ever.
# The terminals are gnubg_text.lark's as Lark compiles them (tests/test_gnubg_text_fast.py
# checks that); each shape is matched from a line's first character that is not a blank.

_TERM_HEADING = "Move number [0-9]+:[^\n]*"
_TERM_POSITION_ID = "GNU Backgammon[ \t]+Position ID:"
_TERM_MATCH_ID = "Match ID[ \t]*:"
_TERM_GNUBG_ID = "[A-Za-z0-9+\\/]+"
_TERM_FRAME = "\\+1[23]-[-0-9]+\\+[^\n]*"
_TERM_ROW = "[ v^]?\\|[^|\n]{18}\\|[^|\n]{3}\\|[^|\n]{18}\\|[^\n]*"
_TERM_PIP_COUNTS = "Pip counts:"
_TERM_PLAYED = "\\* [^\\s][^\n]*"
_TERM_STAR = "\\*"
_TERM_RANK = "[0-9]+\\.|\\?\\?"
_TERM_LEVEL = "Cubeful [0-9]+-ply|Cubeless [0-9]+-ply|Rollout|[0-9]+-ply"
_TERM_EQ = "Eq\\.:"
_TERM_CANNOT = "Cannot move"
_TERM_NUMBER = "[-+]?[0-9]+\\.[0-9]+"
_TERM_DIFF = "\\([-+][0-9]+\\.[0-9]+\\)"
_TERM_CUBELESS = "[0-9]+-ply cubeless equity|Rollout cubeless equity"
_TERM_OPTION = "No (re)?double|(Re)?[Dd]ouble, (pass|take|beaver)"
_TERM_PROPER = "Proper cube action:[^\n]*"

_END = r"[ \t]*\r?\Z"  # (the line's end: blanks, and the carriage return of a CRLF)
# a part of a play as gnubg writes it ("24/20*/16", "13/11(2)", "bar/22"): no blanks inside
_PART = r"(?:[0-9]+|(?i:bar|off))(?:/(?:[0-9]+|(?i:bar|off))\*?)+(?:\([0-9]+\))?"
_PLAY = rf"{_PART}(?:(?:[ \t]+|,[ \t]*){_PART})*"
_FAST_PART = re.compile(_PART)
_FAST_WHOLE_PLAY = re.compile(rf"{_PLAY}\Z")

# any terminal of priority 2 (the grammar's line kinds): a line none of them starts is TEXT
_FAST_ANY = re.compile(
    "|".join(
        f"(?:{t})"
        for t in (
            _TERM_HEADING, _TERM_POSITION_ID, _TERM_MATCH_ID, _TERM_FRAME, _TERM_ROW,
            _TERM_PIP_COUNTS, _TERM_PLAYED, _TERM_STAR, _TERM_RANK, _TERM_LEVEL, _TERM_EQ,
            _TERM_CANNOT, _TERM_NUMBER, _TERM_DIFF, _TERM_CUBELESS, _TERM_OPTION, _TERM_PROPER,
        )
    )
)  # fmt: skip
_FAST_HEADING = re.compile(_TERM_HEADING)
_FAST_POSITION_ID = re.compile(rf"{_TERM_POSITION_ID}[ \t]*({_TERM_GNUBG_ID}){_END}")
_FAST_MATCH_ID = re.compile(rf"[ \t]*{_TERM_MATCH_ID}[ \t]*({_TERM_GNUBG_ID}){_END}")
_FAST_FRAME = re.compile(_TERM_FRAME)
_FAST_ROW = re.compile(_TERM_ROW)
_FAST_PIPS = re.compile(
    rf"{_TERM_PIP_COUNTS}[ \t]*O[ \t]*([0-9]+)[ \t]*,[ \t]*X[ \t]*([0-9]+){_END}"
)
_FAST_PLAYED = re.compile(_TERM_PLAYED)
_FAST_PROPER = re.compile(_TERM_PROPER)
_FAST_CANDIDATE = re.compile(
    rf"(\*[ \t]*)?(?:[0-9]+\.|\?\?)[ \t]+({_TERM_LEVEL})[ \t]+({_PLAY})[ \t]*{_TERM_EQ}[ \t]*"
    rf"({_TERM_NUMBER})(?:[ \t]*{_TERM_DIFF})?{_END}"
)
_FAST_UNANALYSED = re.compile(rf"\*[ \t]*({_PLAY}){_END}")
_FAST_CANNOT = re.compile(rf"(\*[ \t]*)?{_TERM_CANNOT}{_END}")
_FAST_CHANCES = re.compile(
    rf"({_TERM_NUMBER})[ \t]+({_TERM_NUMBER})[ \t]+({_TERM_NUMBER})[ \t]+-[ \t]+"
    rf"({_TERM_NUMBER})[ \t]+({_TERM_NUMBER})[ \t]+({_TERM_NUMBER}){_END}"
)
_FAST_CUBELESS = re.compile(rf"({_TERM_CUBELESS})[ \t]*({_TERM_NUMBER})(?:[ \t]*\([^\n]*)?{_END}")
_FAST_OPTION = re.compile(
    rf"[0-9]+\.[ \t]+(?P<option>{_TERM_OPTION})[ \t]+(?P<equity>{_TERM_NUMBER})"
    rf"(?:[ \t]*{_TERM_DIFF})?{_END}"
)


class _Place(str):
    """A token made by the fast path: its text, terminal and place, as Lark's ``Token``
    gives them to the builder."""

    __slots__ = ("column", "line", "start_pos", "type")
    type: str
    start_pos: int
    line: int
    column: int


def _place(kind: str, text: str, start: int, line: int, column: int) -> Token:
    token = _Place(text)
    token.type, token.start_pos, token.line, token.column = kind, start, line, column
    return token  # type: ignore[return-value]  # (read as a Token: text and place)


@functools.lru_cache(maxsize=1 << 14)
def _fast_play(text: str) -> Play | None:
    """The play of a candidate line (``_PLAY``) as the grammar's builder makes it, or
    ``None`` when a part breaks a rule (the grammar then reports it). Exports repeat
    their plays: one :class:`Play` serves each."""
    steps: list[Step] = []
    for part in _FAST_PART.finditer(text):
        try:
            steps += part_steps(part[0])
        except _StepError:
            return None
    return Play(steps)


_BIG_BLOCK = 1 << 16
"""A block longer than this (gnubg's are 1-4 KB) is read twice by the fast path, so that
its items are never all held at once: once to know that it can, once as it is used."""


def _fast_block(source: str, start: int, end: int, line: int) -> Iterable[Any] | None:
    """The items of the block ``source[start:end]`` (starting at 1-based ``line``) as the
    grammar and its builder make them, or ``None`` when a line is not of the shapes read
    here."""
    try:
        if end - start <= _BIG_BLOCK:
            return list(_fast_items(source, start, end, line))
        for _ in _fast_items(source, start, end, line):
            pass
    except _NotFast:
        return None
    return _fast_items(source, start, end, line)


class _NotFast(Exception):
    """A line the fast path does not read: the grammar reads its block."""


def _fast_items(source: str, start: int, end: int, line: int) -> Iterator[Any]:
    """The items of :func:`_fast_block`, made as they are used.

    :raises _NotFast: at a line not of the shapes read here.
    """
    cr = source.find("\r", start, end)
    while cr >= 0:  # (a carriage return ends a line or the grammar reads the block)
        if source.startswith("\r\n", cr):
            cr = source.find("\r", cr + 2, end)
        else:
            raise _NotFast
    at = start
    board: list[Token] | None = None  # the lines of a board being read
    ids: tuple[str, int] | None = None  # a Position ID waiting for its Match ID line
    while at < end:
        stop = source.find("\n", at, end)
        if stop < 0:
            stop = end
        p = at
        while p < stop and source[p] in " \t":
            p += 1
        if ids is not None:  # (the line after a Position ID: its Match ID)
            m = _FAST_MATCH_ID.match(source, at, stop)
            if m is None:
                raise _NotFast
            yield ("ids", ids[0], m[1], ids[1])
            ids = None
        elif board is not None:  # (a board's rows, then its bottom frame)
            if len(board) < 12:
                m = _FAST_ROW.match(source, p, stop)
                if m is None:
                    raise _NotFast
                board.append(_place("ROW", source[p:stop], p, line, p - at + 1))
            else:
                if _FAST_FRAME.match(source, p, stop) is None:
                    raise _NotFast
                bottom = _place("FRAME", source[p:stop], p, line, p - at + 1)
                yield ("board", (board[0], tuple(board[1:]), bottom))
                board = None
        elif p < stop and not (p + 1 == stop and source[p] == "\r"):
            if source[p].isspace():
                raise _NotFast  # (a blank of another kind: no TEXT starts with it)
            item = _fast_line(source, p, stop, line, p - at + 1)
            if item is None:
                raise _NotFast
            if isinstance(item, list):  # (a board's top frame)
                board = item
            elif isinstance(item, tuple) and item[0] == "position id":
                ids = (item[1], line)
            elif item is not _NOTHING:
                yield item
        at = stop + 1
        line += 1
    if ids is not None or board is not None:
        raise _NotFast  # (the block ends inside a board)


_NOTHING = ("nothing",)  # what an unanalysed play makes (the "* ... moves" line says it)


def _fast_line(source: str, p: int, stop: int, line: int, column: int) -> Any:
    """The item of the line from ``p`` (its first character that is not a blank) to
    ``stop``: a value of the builder, a board's top frame (a list of its tokens so far),
    a Position ID waiting for its Match ID (``("position id", id)``), or ``None``."""
    char = source[p]
    if _FAST_ANY.match(source, p, stop) is None:
        return ("text", _place("TEXT", source[p:stop], p, line, column))
    if char == "*":
        if _FAST_PLAYED.match(source, p, stop) is not None:
            token = _place("PLAYED", source[p:stop], p, line, column)
            return ("played", token[1:].strip(), token)
        m = _FAST_CANDIDATE.match(source, p, stop)
        if m is not None:
            return _fast_candidate(m)
        m = _FAST_UNANALYSED.match(source, p, stop)
        if m is not None:
            return None if _fast_play(m[1]) is None else _NOTHING
        m = _FAST_CANNOT.match(source, p, stop)
        return None if m is None else _Candidate(True, "", Play(), 0.0)
    if char.isdigit() or char in "+-?":
        m = _FAST_CHANCES.match(source, p, stop)
        if m is not None:
            return tuple(float(m[k]) for k in range(1, 7))
        m = _FAST_CANDIDATE.match(source, p, stop)
        if m is not None:
            return _fast_candidate(m)
        m = _FAST_OPTION.match(source, p, stop)
        if m is not None:
            words = m["option"].lower()
            kind = "nd" if words.startswith("no") else "dp" if words.endswith("pass") else "dt"
            return _CubeOption(kind, float(m["equity"]))
        if _FAST_FRAME.match(source, p, stop) is not None:
            return [_place("FRAME", source[p:stop], p, line, column)]
        m = _FAST_CUBELESS.match(source, p, stop)
        return None if m is None else ("cubeless", m[1].split(" cubeless")[0], float(m[2]))
    if char == "M":
        m = _FAST_HEADING.match(source, p, stop)
        return None if m is None else ("heading", source[p:stop].strip())
    if char == "G":
        m = _FAST_POSITION_ID.match(source, p, stop)
        return None if m is None else ("position id", m[1])
    if char == "P":
        m = _FAST_PIPS.match(source, p, stop)
        if m is not None:
            o, x = m[1], m[2]
            if len(o) > 4 or len(x) > 4:
                return None  # (the builder refuses it: the grammar places the fault)
            at = m.start(1)
            return ("pips", (int(o), int(x)), _place("INT", o, at, line, column + at - p))
        m = _FAST_PROPER.match(source, p, stop)
        return None if m is None else ("proper", source[p:stop].split(":", 1)[1].strip())
    if char == "C":
        m = _FAST_CANNOT.match(source, p, stop)
        return None if m is None else _Candidate(False, "", Play(), 0.0)
    if char == "R":
        m = _FAST_CUBELESS.match(source, p, stop)
        return None if m is None else ("cubeless", m[1].split(" cubeless")[0], float(m[2]))
    return None


def _fast_candidate(m: re.Match[str]) -> _Candidate | None:
    play = _fast_play(m[3])
    return None if play is None else _Candidate(m[1] is not None, m[2], play, float(m[4]))


# ---------------------------------------------------------------------------- lines


@dataclass(slots=True)
class _Board:
    position: Position
    names: tuple[str, str]
    position_id: str
    match_id: str
    line: int


@dataclass(slots=True)
class _Candidate:
    chosen: bool
    level: str
    play: Play
    equity: float


@dataclass(slots=True)
class _CubeOption:
    kind: str
    equity: float


@dataclass(slots=True)
class _Group:
    board: _Board
    heading: str | None
    played: str | None = None
    played_token: Token | None = None
    candidates: list[tuple[_Candidate, tuple[float, ...] | None]] = field(default_factory=list)
    chosen: int | None = None
    cubeless: float | None = None
    cube_level: str | None = None
    cube_chances: tuple[float, ...] | None = None
    options: dict[str, float] = field(default_factory=dict)
    proper: str | None = None
    expect_cube_chances: bool = False
    luck: float | None = None
    comment: list[str] = field(default_factory=list)


@v_args(inline=True)
class _LineBuilder(SourceTransformer[list[Any]]):
    """Turns each line into a value; method names are the rules of ``gnubg_text.lark``."""

    def gnubg_text(self, *items: Any) -> list[Any]:
        return [
            ("text", item) if isinstance(item, Token) else item
            for item in items
            if item is not None and (not isinstance(item, Token) or item.type == "TEXT")
        ]

    def heading(self, token: Token) -> tuple[str, str]:
        return ("heading", str(token).strip())

    def ids(self, position_id: Token, match_id: Token) -> tuple[str, str, str, int]:
        return ("ids", str(position_id), str(match_id), position_id.line or 0)

    def pips(self, o: Token, x: Token) -> tuple[str, tuple[int, int], Token]:
        if len(o) > 4 or len(x) > 4:
            raise self._fail("pip count too large", o)
        return ("pips", (int(o), int(x)), o)

    def played(self, token: Token) -> tuple[str, str, Token]:
        return ("played", str(token)[1:].strip(), token)

    def play(self, *parts: list[Step]) -> Play:
        return Play([s for part in parts for s in part])

    def candidate(
        self,
        star: Token | None,
        _rank: Token,
        level: Token,
        play: Play,
        equity: Token,
        _diff: Token | None,
    ) -> _Candidate:
        return _Candidate(star is not None, str(level), play, float(equity))

    def unanalysed(self, _star: Token, _play: Play) -> None:
        return None  # (the "* ... moves" line above says it)

    def cannot_move(self, star: Token | None, _token: Token) -> _Candidate:
        return _Candidate(star is not None, "", Play(), 0.0)

    def chances(self, *numbers: Token) -> tuple[float, ...]:
        return tuple(float(n) for n in numbers)

    def cubeless(self, level: Token, equity: Token, rest: Token | None) -> tuple[str, str, float]:
        if rest is not None and not rest.startswith("("):  # ("-0.1x6": not "-0.1", "x6")
            word = f"{equity}{rest.split()[0]}"
            raise self._fail(f"the cubeless equity is not a number: {word[:16]!r}", rest)
        return ("cubeless", str(level).split(" cubeless")[0], float(equity))

    def cube_option(
        self, _rank: Token, option: Token, equity: Token, _diff: Token | None
    ) -> _CubeOption:
        words = str(option).lower()
        kind = "nd" if words.startswith("no") else "dp" if words.endswith("pass") else "dt"
        return _CubeOption(kind, float(equity))

    def proper(self, token: Token) -> tuple[str, str]:
        return ("proper", str(token).split(":", 1)[1].strip())

    def board(self, top: Token, *rest: Token) -> tuple[str, Any]:
        return ("board", (top, rest[:11], rest[11]))


class _Grouper(SourceText):
    """Attaches headings, plays and analyses to the boards they belong to."""

    groups: list[_Group]
    texts: list[tuple[int, Token]]
    """The other lines (headers, results, statistics), each with the number of boards
    above it."""

    faults: list[ReadError] | None = None
    """Where a board that cannot be read is kept (its play and analysis are lost with
    it); ``None``: raise."""

    read_faults: list[ReadError] = []  # noqa: RUF012  (never changed: replaced)
    """The lines that could not be read, while :meth:`run` reads the items (they come
    before :attr:`faults` once read)."""

    def _fail(self, msg: str, token: Token) -> NotationError:
        """A NotationError at ``token``, placed on its line without counting the lines
        before it (an export with a fault on each of its 9,000 boards took 28 s)."""
        return NotationError(
            msg, self.source, token.start_pos or 0, source_name=self.source_name, line=token.line
        )

    def run(self, items: Iterable[Any]) -> None:
        groups: list[_Group] = []
        self.groups, self.texts = groups, []
        heading: str | None = None
        ids: tuple[str, str, int] | None = None
        board: tuple[Token, tuple[Token, ...], Token] | None = None
        current: _Group | None = None  # the board the lines below it belong to
        comment_at = 0  # the last line of an annotation being read (0: none)
        for item in items:
            tag = item[0] if isinstance(item, tuple) and isinstance(item[0], str) else None
            if tag == "text":
                comment_at = self.text(item[1], comment_at, current)
                continue
            comment_at = 0
            if tag in ("heading", "ids", "board"):
                current = None  # (the lines below a board are its own until the next one)
            if tag == "heading":
                self.incomplete(ids, board)
                heading, ids, board = item[1], None, None
            elif tag == "ids":
                self.incomplete(ids, board)
                ids, board = (item[1], item[2], item[3]), None
            elif tag == "board":
                if board is not None:
                    self.incomplete(ids, board)
                    ids = None
                board = item[1]
            elif tag == "pips":
                if board is None or ids is None:
                    self.incomplete(ids, board, item[2])
                    heading, ids, board = None, None, None
                    continue
                before = groups[-1].board.position if groups else None
                try:
                    made = self.board(board, ids, item[1], item[2], before)
                except NotationError as err:
                    if self.faults is None or isinstance(err, LimitError):
                        raise
                    self.faults.append(ReadError(err.line, err.column, err.msg))
                else:
                    current = _Group(made, heading)
                    groups.append(current)
                heading, ids, board = None, None, None
            elif current is not None:
                self.attach(current, item, tag)
        self.incomplete(ids, board)

    def incomplete(
        self,
        ids: tuple[str, str, int] | None,
        board: tuple[Token, tuple[Token, ...], Token] | None,
        pips: Token | None = None,
    ) -> None:
        """A fault for the parts of a board that came without the rest (a line of it
        could not be read), unless a fault is already kept in its lines."""
        if ids is None and board is None and pips is None:
            return
        if board is not None and ids is None:
            token, msg = board[0], "a board without the 'Position ID:' and 'Match ID' above it"
        elif board is not None:
            token, msg = board[2], "a board without 'Pip counts: O n, X n' below it"
        elif ids is not None:
            token = Token("ID", "", start_pos=_line_start(self.source, ids[2]), line=ids[2])
            msg = "a 'Position ID:' without its board below it"
        else:
            assert pips is not None
            token, msg = pips, "'Pip counts:' without a board above it"
        if self.faults is None:
            raise self._fail(msg, token)
        first = ids[2] if ids is not None else (token.line or 0) - 13
        last = (pips.line if pips is not None else token.line) or 0
        if board is None and pips is None:
            last += 3  # (the board's top frame follows the 'Match ID' line)
        if any(first <= f.line <= last + 1 for f in (*self.read_faults, *self.faults)):
            return
        where = self._fail(msg, token)
        self.faults.append(ReadError(where.line, where.column, where.msg))

    def text(self, token: Token, comment_at: int, current: _Group | None = None) -> int:
        """A line of no kind of its own: the luck of a roll (``Rolled 31 (+0.243):``), an
        annotation (``Annotation:`` and the lines below it up to a blank one, the comment
        on the action above), or another line (kept in :attr:`texts`). Returns the line
        of the annotation being read, or 0."""
        line, groups = str(token).rstrip(), self.groups
        if comment_at and token.line == comment_at + 1 and current is not None:
            current.comment.append(line)
            return comment_at + 1
        luck = _LUCK.match(line)
        if luck is not None and groups:
            if current is not None:
                current.luck = float(luck["luck"])
        elif line == "Annotation:" and groups:
            return token.line or 0
        elif current is not None and self.faults is not None and _ANALYSIS_LINE.match(line):
            # a line of the analysis below a board that the grammar could not read as one
            where = self._fail(
                f"a line of gnubg's analysis that cannot be read: {line[:40]!r}", token
            )
            self.faults.append(
                ReadError(where.line, where.column, where.msg, record=False, analysis=True)
            )
        elif _may_tell(line):  # (a line the match is told nothing by is let go)
            self.texts.append((len(groups), token))
        return 0

    def attach(self, group: _Group, item: Any, tag: str | None) -> None:
        if tag == "played":
            group.played, group.played_token = item[1], item[2]
        elif tag == "cubeless":
            group.cube_level, group.cubeless = item[1], item[2]
            group.expect_cube_chances = True
        elif tag == "proper":
            group.proper = item[1]
        elif isinstance(item, _Candidate):
            if item.chosen:
                group.chosen = len(group.candidates)
            group.candidates.append((item, None))
        elif isinstance(item, _CubeOption):
            group.options[item.kind] = item.equity
        elif isinstance(item, tuple) and all(isinstance(x, float) for x in item):
            if group.expect_cube_chances:
                group.cube_chances = item
                group.expect_cube_chances = False
            elif group.candidates and group.candidates[-1][1] is None:
                group.candidates[-1] = (group.candidates[-1][0], item)

    def export(self, group: _Group) -> PositionExport:
        checker = None
        if group.candidates:
            checker = CheckerAnalysis(
                tuple(
                    CandidatePlay(c.play, c.equity, _probabilities(p), c.level or None)
                    for c, p in group.candidates
                ),
                played=group.chosen,
                luck=group.luck,
            )
        cube = None
        if group.options or group.cubeless is not None:
            cube = CubeAnalysis(
                no_double=group.options.get("nd"),
                double_take=group.options.get("dt"),
                double_pass=group.options.get("dp"),
                probabilities=_probabilities(group.cube_chances),
                cubeless_equity=group.cubeless,
                level=group.cube_level,
                verdict=group.proper,
            )
        b = group.board
        return PositionExport(
            b.position,
            b.names,
            position_id=b.position_id,
            match_id=b.match_id,
            checker=checker,
            cube=cube,
            heading=group.heading,
            played=group.played,
            line=b.line,
        )

    def board(
        self,
        board: tuple[Token, tuple[Token, ...], Token],
        ids: tuple[str, str, int],
        pips: tuple[int, int],
        pips_token: Token,
        before: Position | None,
    ) -> _Board:
        """The board's position; ``before`` is the board above it in the file.

        While a double is pending gnubg writes neither the match length nor the cube's
        owner beside the board: they are those of the board before.
        """
        top, rows, bottom = board
        lines, starts = full_lines(self.source, rows)
        frames, _ = full_lines(self.source, (top, bottom))
        names: dict[str, str] = {}
        owner: int | None = None
        cube = 1
        for frame, token in zip(frames, (top, bottom), strict=True):
            m = _NAME.match(frame[_FRAME_END:].strip())
            if m is None:
                raise self._fail("expected 'O: name' or 'X: name' right of the frame", token)
            names[m["side"]] = m["name"]
            if m["cube"]:
                owner, cube = (0 if m["side"] == "O" else 1), _small(m["cube"], self, token)
        if set(names) != {"O", "X"}:
            raise self._fail("the frames must name O and X", top)
        texts = [_beside(line) for line in lines]
        fields: dict[str, Any] = {"turn": 1 if lines[5][:1] == "v" else 0}
        scores = []
        for i in (0, 10):
            m = _POINTS.match(texts[i])
            if m is None:
                raise self._fail(f"expected 'N points' beside the board, not {texts[i]!r}", rows[i])
            scores.append(_small(m["n"], self, rows[i]))
        fields["score"] = (scores[0], scores[1])
        bar = texts[5]
        match = _MATCH.search(bar)
        fields["match_length"] = _small(match["n"], self, rows[5]) if match else 0
        fields["crawford"] = "Crawford game" in bar
        centred = _CUBE.search(bar)
        if centred is not None and owner is None:
            cube = _small(centred["n"], self, rows[5])
        for i in (1, 9):
            rolled = _ROLLED.search(texts[i])
            if rolled is not None:
                fields["dice"] = (int(rolled["d1"]), int(rolled["d2"]))
            offered = _OFFERED.search(texts[i])
            if offered is not None:
                fields["doubled"] = True
                cube = _small(offered["n"], self, rows[i]) // 2
            resigns = _RESIGNS.search(texts[i])
            if resigns is not None:
                fields["resigned"] = ("single game", "gammon", "backgammon").index(resigns[1]) + 1
        if fields.get("doubled") and before is not None:
            if not match:
                fields["match_length"] = before.match_length
            if owner is None and before.cube == cube:
                owner = before.cube_owner
        fields["cube"], fields["cube_owner"] = cube, owner
        try:
            grid = read_grid(lines, _gnubg_count)
            position = position_from_grid(grid, **fields)
        except (DiagramError, InvalidPositionError) as err:
            raise board_error(err, self.source, starts, self.source_name) from None
        if position.pip_counts() != pips:
            raise self._fail(
                f"the pip counts O {pips[0]}, X {pips[1]} disagree with the board"
                f" (O {position.pip_counts()[0]}, X {position.pip_counts()[1]})",
                pips_token,
            )
        return _Board(position, (names["O"], names["X"]), ids[0], ids[1], ids[2])


def _beside(row: str) -> str:
    """The text gnubg writes right of a board row: after the frame and the borne-off
    checkers it draws there. gnubg 1.07 starts it in column 50; gnubg 0.16 wrote it
    closer to the frame, right after the borne-off checkers."""
    rest = row[_FRAME_END:]
    return rest[_OFF_TRAY.match(rest).end() :].strip()  # type: ignore[union-attr]


def _small(text: str, grouper: _Grouper, token: Token) -> int:
    if len(text) > 5:
        raise grouper._fail(f"number too large: {text[:12]}", token)
    return int(text)


def _gnubg_count(text: str, _marks: int) -> int | None:
    """gnubg's fifth row: ``6``-``9`` and ``A``-``F`` for 6-15 checkers."""
    return _FIFTH_ROW.index(text) if len(text) == 1 and text in _FIFTH_ROW[6:] else None


def _probabilities(values: tuple[float, ...] | None) -> Probabilities | None:
    if values is None:
        return None
    win, win_g, win_bg, _lose, lose_g, lose_bg = values
    return Probabilities(win, win_g, win_bg, lose_g, lose_bg)


# ---------------------------------------------------------------------------- the match

_SCORE_LINE = re.compile(
    r"The score \(after (?P<games>[0-9]+) games?\) is: (?P<one>.*) (?P<s1>[0-9]+),"
    r" (?P<two>.*?) (?P<s2>[0-9]+)(?: \(match to (?P<length>[0-9]+) points?\))?"
    r"(?P<rest>[^0-9]*)$"
)
_WINS = re.compile(r"(?P<name>.*) wins (?P<points>[0-9]+) points?\s*$")
_RATING = re.compile(r"(?P<name>.*)'s rating: (?P<rating>.*)$")
_INFO_TAGS = {
    "Date": "Date",
    "Event": "Event",
    "Round": "Round",
    "Place": "Site",
    "Annotator": "Annotator",
    "Comments": "Comment",
}
"""gnubg's ``Match Information:`` lines, and the tag (as gnubg's ``.mat`` names it) each
becomes. The date stays as gnubg printed it, in the locale of the machine that exported."""


def _may_tell(line: str) -> bool:
    """Whether :meth:`_MatchBuilder.text` can make something of ``line`` (stripped at
    its end): a score line, a result, a rating, a line of the match information."""
    return (
        line.startswith("The score")
        or line.partition(": ")[0] in _INFO_TAGS
        or _WINS.match(line) is not None
        or _RATING.match(line) is not None
    )


def sniff_gnubg_match(text: str) -> bool:
    """True when ``text`` is a GNU Backgammon match or game export (``export match text``):
    its score line first, then the boards.

    >>> sniff_gnubg_match("The score (after 0 games) is: A 0, B 0 (match to 3 points)\\n")
    True
    """
    from bgkit.formats import _looks_like_gnubg_text

    return _looks_like_gnubg_text(text)


def gnubg_series(path: str | os.PathLike[str]) -> tuple[Path, ...]:
    """The files of the export series ``path`` starts: gnubg's ``export match text x.txt``
    writes game 1 to ``x.txt``, game 2 to ``x_002.txt`` and so on; the series is ``path``
    and the files ``_002``, ``_003``... next to it, up to the first one missing (so a
    numbered file, ``x_002.txt``, is a series of one: there is no ``x_002_002.txt``).

    >>> [p.name for p in gnubg_series("data/sample.mat")]
    ['sample.mat']
    """
    first = Path(path)
    files = [first]
    for n in range(2, 10_000):
        sibling = first.with_name(f"{first.stem}_{n:03d}{first.suffix}")
        if not sibling.is_file():
            break
        files.append(sibling)
    return tuple(files)


def read_gnubg_match(
    source: str | os.PathLike[str] | IO[str] | IO[bytes] | Sequence[str | os.PathLike[str]],
    *,
    series: bool = True,
    encoding: str | None = None,
) -> Match:
    """A GNU Backgammon text export read as the match it records (see
    :func:`parse_gnubg_match`).

    ``source`` is a path, an open file, or a sequence of paths read as one match in
    the order given. With ``series`` (the default) a path that starts an export series
    (``x.txt`` with ``x_002.txt``... next to it: :func:`gnubg_series`) is read with the
    rest of its series, each game from its own file; :func:`bgkit.read_match` does the
    same. Each game keeps the name of the file it is in, so a fault in game 3 is placed
    in ``x_003.txt``.

    :raises NotationError: when a file is not such an export, or does not parse.
    """
    if isinstance(source, (str, os.PathLike)):
        paths: Sequence[str | os.PathLike[str]] = gnubg_series(source) if series else (source,)
    elif isinstance(source, Sequence):
        paths = source
    else:
        text, name = source_text(source, encoding=encoding)
        return parse_gnubg_match(text, source_name=name)
    if not paths:
        raise ValueError("read_gnubg_match needs at least one file")
    return join_matches([_parse_file(p, encoding) for p in paths])


def parse_gnubg_series(text: str, path: str, *, encoding: str | None = None) -> Match:
    """The match of the export series whose first file, at ``path``, has the text
    ``text`` (already read): the rest of the series is read from the files next to it
    (:func:`gnubg_series`)."""
    first = parse_gnubg_match(text, source_name=path)
    rest = gnubg_series(path)[1:]
    return join_matches([first, *(_parse_file(p, encoding) for p in rest)]) if rest else first


def _parse_file(path: str | os.PathLike[str], encoding: str | None) -> Match:
    from bgkit.formats import decode_bytes, read_file

    text = decode_bytes(read_file(path), encoding=encoding, source_name=str(path))
    return parse_gnubg_match(text, source_name=str(path))


def join_matches(parts: Sequence[Match]) -> Match:
    """The games of ``parts`` (matches of the same players, read from one series) as one
    match, with the first part's name, length and tags (and the tags of the later parts
    that the first lacks)."""
    first = parts[0]
    tags = list(first.tags)
    for part in parts[1:]:
        if part.players != first.players or part.length != first.length:
            raise NotationError(
                f"not the same match as {first.source_name}: {part.players[0]} vs."
                f" {part.players[1]}, {part.length}-point, not {first.players[0]} vs."
                f" {first.players[1]}, {first.length}-point",
                "",
                0,
                source_name=part.source_name,
            )
        tags += [tag for tag in part.tags if tag not in tags and tag[0] != "Crawford"]
    games = tuple(
        game if part is first else dataclasses.replace(game, source_name=part.source_name)
        for part in parts
        for game in part.games
    )
    unread = tuple(
        err if part is first else dataclasses.replace(err, source_name=part.source_name)
        for part in parts
        for err in part.read_errors
    )
    return dataclasses.replace(first, games=games, tags=tuple(tags), read_errors=unread)


def parse_gnubg_match(text: str, *, source_name: str | None = None, strict: bool = False) -> Match:
    """One GNU Backgammon text export (``export match text``, ``export game text``) as a
    :class:`~bgkit.records.Match`: its games, their actions and results, with gnubg's
    analysis on the actions (:func:`bgkit.formats.sgf_analysis.analysis_of` reads it).

    What each part of the export becomes:

    - ``The score (after 2 games) is: Ann 1, Bo 0 (match to 5 points)``: a game numbered
      3, at 1-0, of a 5-point match (no ``match to``: a money session); when the first
      game's line ends ``post-Crawford play`` the record starts after the Crawford game,
      which is then not in it: the tag ``Crawford`` ``Off`` says so (the rule has
      nothing left to forbid), so that a player at one point away may double;
    - ``Match Information:``: the tags ``Event``, ``Round``, ``Site`` (gnubg's ``Place``),
      ``Annotator``, ``Comment``, ``Date`` (as printed), and ``Ann's rating: 1780``
      the tag ``Player 1 Elo`` (``Player 2 Elo`` for the second player);
    - ``* Ann moves 8/5 6/5`` a :class:`~bgkit.records.Move` with the dice of the board
      above it (``Rolled 31``) and ``* Ann cannot move`` one without steps; ``* Ann
      doubles``, ``* Bo accepts`` and ``* Bo rejects`` a double (to twice the board's
      cube), a take and a drop; a board without such a line (gnubg's hint on the last
      position) gives no action;
    - ``Ann wins 2 points`` the game's result (before the end of the game: a resignation,
      as in a ``.mat`` file); a game without one is unfinished;
    - the analysis (``Cube analysis`` and the candidate plays of ``Rolled 31:``) goes to
      the move made on that board (the cube decision before the roll and the play), the
      double, and the take or drop (the double's decision, from the doubler's side as
      bgkit's model has it; gnubg prints it again from the taker's side).

    Lines and columns: a move, a double or a cube answer is placed at what follows the
    player's name on its ``*`` line; a result at its line.

    A line that cannot be read is a :class:`~bgkit.records.ReadError` of the match's
    :attr:`~bgkit.records.Match.read_errors` (the verifier reports it, and leaves the
    game's later actions unverified), and the rest is read; a line of a board costs the
    board (its position, play and analysis). A play with a step away from home
    (``13/7 6/8``) is kept as written, for the verifier to report as the player's
    illegal play.

    :param strict: raise at the first line that cannot be read.
    :raises NotationError: when the text is not such an export (no score line), or with
        ``strict`` at the first line that cannot be read.
    """
    grouper = _read(text, source_name, lenient=not strict)
    return _MatchBuilder(grouper).build()


class _MatchBuilder:
    def __init__(self, grouper: _Grouper) -> None:
        self.g = grouper
        self.names: tuple[str, str] = ("", "")
        self.tags: list[tuple[str, str]] = []
        self.games: list[Game] = []
        self.notes: list[list[ActionAnalysis | None]] = []
        self.length = 0
        self.started = 0  # the games started so far (their score lines)
        self.limits = active()

    def build(self) -> Match:
        g = self.g
        texts = iter(g.texts)
        pending = next(texts, None)
        game: _GameDraft | None = None
        for index in range(len(g.groups) + 1):
            while pending is not None and pending[0] == index:
                game = self.kept(self.text, pending[1], game)
                pending = next(texts, None)
            if index < len(g.groups):
                if game is None and g.faults:
                    # the score line could not be read: nothing of the export is a match
                    first = g.faults[0]
                    at = _line_start(g.source, first.line) + first.column - 1
                    raise NotationError(first.message, g.source, at, source_name=g.source_name)
                if game is None:
                    line = g.groups[0].board.line
                    raise NotationError(
                        "expected the score line ('The score (after N games) is: ...')"
                        " before the first board",
                        g.source,
                        _line_start(g.source, line),
                        source_name=g.source_name,
                    )
                self.kept(self.board, g.groups[index], game)
                g.groups[index] = None  # type: ignore[call-overload]  # (let go once read)
        self.finish(game)
        if not self.games and game is None:
            raise NotationError(
                "not a GNU Backgammon match export: no score line ('The score (after N"
                " games) is: ...')",
                g.source,
                0,
                source_name=g.source_name,
            )
        from bgkit.formats.sgf_analysis import annotate_match

        match = Match(
            self.names,
            self.length,
            tuple(self.games),
            tuple(self.tags),
            source_name=g.source_name,
            read_errors=tuple(sorted(g.faults or (), key=lambda f: (f.line, f.column))),
        )
        return annotate_match(match, self.notes)

    def kept(self, read: Any, item: Any, game: _GameDraft | None) -> Any:
        """``read(item, game)``; with the grouper's faults, a line it cannot use is kept
        there and leaves ``game`` as it was."""
        try:
            return read(item, game)
        except NotationError as err:
            if self.g.faults is None or isinstance(err, LimitError):
                raise
            self.g.faults.append(ReadError(err.line, err.column, err.msg))
            return game

    def text(self, token: Token, game: _GameDraft | None) -> _GameDraft | None:
        line = str(token).rstrip()
        m = _SCORE_LINE.match(line)
        if m is not None and "(match to" in m["two"]:  # (its length cannot be read)
            at = (token.start_pos or 0) + line.index("(match to", m.start("two"))
            err = NotationError(
                "expected '(match to N points)' in the score line",
                self.g.source,
                at,
                source_name=self.g.source_name,
            )
            if game is None or self.g.faults is None:
                raise err
            # a later game's score line: that game is lost with it (one error)
            self.begin(token)
            self.g.faults.append(ReadError(err.line, err.column, err.msg))
            self.finish(game)
            return _GameDraft(0, (0, 0), token, lost=True)
        if m is not None:
            self.begin(token)
            self.finish(game)
            one, two = m["one"], m["two"]
            if not self.games:
                self.names = (one, two)
                self.length = int(m["length"]) if m["length"] else 0
                if "post-Crawford" in m["rest"]:  # (the Crawford game is not in the record)
                    self.tag("Crawford", "Off")
            number = int(m["games"]) + 1
            score = (_number(self.g, m["s1"], token), _number(self.g, m["s2"], token))
            return _GameDraft(number, score, token)
        if game is None:
            return None
        wins = _WINS.match(line)
        if wins is not None and game.result is None and wins["name"] in self.names:
            winner = self.names.index(wins["name"])
            points = _number(self.g, wins["points"], token)
            game.result = Result(  # (gnubg writes no "and the match")
                winner, points, line=token.line or 0, column=token.column or 0
            )
            return game
        rating = _RATING.match(line)
        if rating is not None and rating["name"] in self.names:
            self.tag(rating_key(self.names.index(rating["name"])), rating["rating"].strip())
            return game
        key, colon, value = line.partition(": ")
        if colon and key in _INFO_TAGS and not game.actions:
            self.tag(_INFO_TAGS[key], value.strip())
        return game

    def begin(self, token: Token) -> None:
        """Count the game whose score line is ``token``, refusing it past ``max_games``.

        :raises LimitError: naming ``max_games``, at the score line.
        """
        self.started += 1
        if self.started > self.limits.max_games:
            g = self.g
            check_games(self.started, g.source, token.start_pos or 0, g.source_name, self.limits)

    def tag(self, key: str, value: str) -> None:
        if all(k != key for k, _ in self.tags):
            self.tags.append((key, value))

    def board(self, group: _Group, game: _GameDraft) -> None:
        token = group.played_token
        if group.played is None or token is None or game.result is not None or game.lost:
            return  # (gnubg's hint on the last position of a match: no action)
        if len(game.actions) >= self.limits.max_game_actions:  # (as each is read)
            g = self.g
            count = len(game.actions) + 1
            at = token.start_pos or 0
            check_game_actions(count, self.started, g.source, at, g.source_name, self.limits)
        who, rest, offset = self.player(group.played, token)
        pos = group.board.position
        line, column = token.line or 0, (token.column or 0) + offset
        exported = self.g.export(group)
        note: ActionAnalysis | None = None
        action: Action
        if rest.startswith("moves "):
            if pos.dice is None:
                raise self.g._fail("a move on a board without 'Rolled NN' beside it", token)
            start = offset + len("moves ")
            play_text = rest[len("moves ") :].strip()
            try:
                play = _written_play(play_text)
            except NotationError as err:
                at = (token.start_pos or 0) + start + err.pos
                raise NotationError(
                    err.msg, self.g.source, at, source_name=self.g.source_name
                ) from None
            action = Move(who, pos.dice, play, line, (token.column or 0) + start)
            note = _note(exported.cube, exported.checker)
        elif rest == "cannot move":
            if pos.dice is None:
                raise self.g._fail("a move on a board without 'Rolled NN' beside it", token)
            action = Move(who, pos.dice, Play(), line, column)
            note = _note(exported.cube, None)  # ("Cannot move" has no figure of gnubg's)
        elif rest == "doubles":
            action = Double(who, pos.cube * 2, line, column)
            note = _note(exported.cube, None)
            game.double_note = note
        elif rest in ("accepts", "rejects"):
            action = (Take if rest == "accepts" else Drop)(who, line, column)
            note = game.double_note  # (the doubler's side of the decision)
        else:
            raise self.g._fail(
                f"expected 'moves', 'cannot move', 'doubles', 'accepts' or 'rejects' after"
                f" the player's name, found {rest!r}",
                token,
            )
        if group.comment:  # (as SGF's C, which analysis_of reads as the comment)
            action = dataclasses.replace(action, annotations=(("C", ("\n".join(group.comment),)),))
        game.actions.append(action)
        game.notes.append(note)

    def player(self, played: str, token: Token) -> tuple[int, str, int]:
        """Who acts on a ``*`` line, what follows the name, and its offset in the token."""
        found = [
            (len(name), i) for i, name in enumerate(self.names) if played.startswith(name + " ")
        ]
        if not found:
            raise self.g._fail(
                f"the line names neither player ({self.names[0]!r}, {self.names[1]!r})", token
            )
        size, who = max(found)
        rest = played[size + 1 :]
        lead = len(str(token)) - len(str(token)[1:].lstrip())  # "* " before the name
        return who, rest.strip(), lead + size + 1

    def finish(self, game: _GameDraft | None) -> None:
        if game is None or game.lost:
            return
        token = game.token
        self.games.append(
            Game(
                game.number,
                game.score,
                tuple(game.actions),
                game.result,
                line=token.line or 0,
                column=token.column or 0,
            )
        )
        self.notes.append(game.notes)


@dataclass(slots=True)
class _GameDraft:
    number: int
    score: tuple[int, int]
    token: Token
    actions: list[Action] = field(default_factory=list)
    notes: list[ActionAnalysis | None] = field(default_factory=list)
    result: Result | None = None
    double_note: ActionAnalysis | None = None
    lost: bool = False
    """Its score line could not be read: the game is left out."""


def _written_play(text: str) -> Play:
    """The play of a ``* ... moves`` line as written: a step away from home (``6/8``) is
    kept, for the verifier to report as the player's illegal play."""
    if _FAST_WHOLE_PLAY.match(text) is not None:  # (as gnubg writes them: no grammar)
        play = _fast_play(text)
        limits = active()
        if (
            play is not None
            and len(text) <= limits.max_notation_chars
            and len(play.steps) <= limits.max_play_steps
        ):
            return play
    try:
        return Play(text)
    except NotationError as err:
        if "away from its home" not in err.msg:
            raise
        steps = [step for part in text.split() for step in part_steps(part, backwards=True)]
        return Play(steps)


def _note(cube: CubeAnalysis | None, checker: CheckerAnalysis | None) -> ActionAnalysis | None:
    return None if cube is None and checker is None else ActionAnalysis(cube, checker)


def _line_start(source: str, line: int) -> int:
    """The offset of 1-based ``line`` in ``source``."""
    at = 0
    for _ in range(line - 1):
        at = source.index("\n", at) + 1
    return at


def _number(grouper: _Grouper, text: str, token: Token) -> int:
    """A number on the line ``token``, refused past ``max_integer_digits``."""
    at = (token.start_pos or 0) + str(token).find(text)
    check_integer(text, grouper.source, at, grouper.source_name)
    return int(text)
