"""Read eXtreme Gammon's binary match files (``.xg``).

An ``.xg`` file is a 8232-byte ``RGMH`` header (UTF-16 names and comments, an optional
JPEG thumbnail after it), then a ZLibArchive: the compressed files ``temp.xg`` (the
match), ``temp.xgi``, ``temp.xgr`` (rollouts) and ``temp.xgc`` (comments), a file
registry and a 36-byte trailer at the very end. ``temp.xg`` is a sequence of 2560-byte
records: a match header, then per game a game header, a cube record before every roll
(the decision not to double, or a double and its answer), a move record per roll and a
game footer, then a match footer. The layouts are XG's published ``xg_format.pas``
structures (as described by Michael Petch's xgdatatools); every offset used is checked
against the bytes present, so a short or damaged file raises
:class:`~bgkit.errors.NotationError` naming the byte offset (``line`` 1, ``column`` =
offset + 1), never a ``struct.error``.

What becomes of it:

* XG's player 1 (the left column of its ``.mat`` export) is bgkit's player 0.
* Every roll becomes a :class:`~bgkit.records.Move` with the dice in XG's order and one
  step per die as XG stores them, with hit marks worked out from XG's board before the
  move; a roll that could not be played has the empty play.
* ``Double`` / ``Take`` / ``Drop`` / ``Beaver`` / ``Raccoon`` as recorded; a cube record
  that only says "no double" becomes no action (its analysis goes to the next move).
* The game footer becomes the :class:`~bgkit.records.Result`: winner and points as XG
  scored them (a resignation is a result written while the game is still running).
* Header data becomes tags as XG's own ``.mat`` export writes them (``Site``, ``Event``,
  ``Round``, ``Player 1``/``Player 2``, ``EventDate``, ``EventTime``, ``Variation``,
  ``Crawford``, ``Jacoby``, ``Beaver``, ``CubeLimit``, ``Transcriber``).
* A comment on an action is also kept in its ``annotations`` as ``("C", (text,))``.
* XG's analysis, where the file holds it, is kept by :func:`parse_xg_record` as
  :class:`~bgkit.formats.annotations.ActionAnalysis` per action: the candidate plays
  with equities and chances, the played move's error and luck, the cube equities and
  the cube and take errors, and the comments (RTF turned into plain text). Each figure
  carries XG's level by the name XG gives it (:data:`LEVELS`: ``"3-ply"``, ``"XG
  Roller++"``, ``"Rollout"``...).
* XG's rollouts (``temp.xgr``, one 2184-byte ``TRolloutContext`` per rollout, which a
  candidate or cube decision at level 100 points to) become
  :class:`~bgkit.formats.annotations.Rollout`: the trials, the truncation, XG's 95%
  confidence half-width and the standard error (that divided by 1.96), the levels the
  trials were played at, variance reduction and the seed; a cube rollout has one per
  line (no double, double/take).

An XG position file (``.xgp``) is the same container holding one position: the match and
game headers, the cube record and, when the dice are rolled, the move record, no footer.
:func:`parse_xgp` reads it (the position with XG's analysis and rollouts of it, as a
:class:`~bgkit.formats.annotations.PositionExport`, XG's player 1 as X, bgkit's player 1,
as in an XGID); reading one as a match raises :class:`~bgkit.errors.NotationError`
saying it holds a position. (A match saved after its first roll has the same shape: it
reads as a match unless its name ends in ``.xgp``.)

>>> cube = read_xgp("data/fixtures/xg/cube_rollout.xgp").cube
>>> cube.level, round(cube.no_double, 3), cube.proper_action
('Rollout', 1.171, 'too good, take')
>>> cube.rollout.trials, round(cube.rollout.confidence, 4), cube.rollout.cube_level
(1296, 0.0088, 'XG Roller')

>>> record = read_xg_record("data/real/xg/kevung__gbf__test.xg")
>>> record.match
<Match ('Kévin Unger' vs. 'Maxence Job', 7-pt, 7 games)>
>>> first = record.match.games[0].actions[0]
>>> first.dice, first.play
((5, 1), Play('13/8 24/23'))
>>> best = record.analysis[0][0].checker.best
>>> best.play, round(best.equity, 3)
(Play('24/23 13/8'), 0.007)
"""

from __future__ import annotations

import functools
import os
import re
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import IO, Any

from bgkit.errors import BgkitError, LimitError, NotationError
from bgkit.formats import source_data
from bgkit.formats.annotations import (
    ActionAnalysis,
    CandidatePlay,
    CheckerAnalysis,
    CubeAnalysis,
    PositionExport,
    Probabilities,
    Rollout,
)
from bgkit.formats.sgf_analysis import annotate_match
from bgkit.limits import active, check_game_actions, check_games, size_text
from bgkit.play import Play, Step
from bgkit.position import Position
from bgkit.records import (
    Action,
    Beaver,
    Double,
    Drop,
    Game,
    Match,
    Move,
    Raccoon,
    ReadError,
    Result,
    Take,
)

__all__ = [
    "LEVELS",
    "XgRecord",
    "parse_xg",
    "parse_xg_record",
    "parse_xgp",
    "read_xg",
    "read_xg_record",
    "read_xgp",
    "sniff_xg",
]

MAGIC = b"RGMH"
"""The first four bytes of every ``.xg`` file."""

_HEADER_SIZE = 8232
_TRAILER_SIZE = 36
_REGISTRY_ENTRY = 532
_RECORD_SIZE = 2560
_NOT_ANALYSED = -1000.0
_MONEY_LENGTH = 99999

_HEADER_MATCH, _HEADER_GAME, _CUBE, _MOVE, _FOOTER_GAME, _FOOTER_MATCH = range(6)

_VARIATIONS = ("Backgammon", "Nackgammon", "Hypergammon", "Longgammon")

# Byte offsets inside one 2560-byte record of temp.xg (xg_format.pas, packed as XG writes
# it). Byte 8 holds the record kind in every record.
_MATCH_FIELDS = "<41B41BxllBBBBddlld129BxxxlllBBB129BlB129BxxllLl2lBBBxllBxxxfflfll"  # at 9
_MATCH_V8 = 612  # CubeLimit, AutoDoubleMax (version >= 8)
_MATCH_V24 = 620  # Transcribed, then Event, Player1, Player2, Location, Round in UTF-16
_MATCH_V30 = 1960  # Transcriber in UTF-16
_MATCH_MAGIC = 0x494C4D44  # "DMLI"
_CUBE_ANALYSIS = 64  # EngineStructDoubleAction (132 bytes)
_CUBE_ERR_DOUBLE = 200
_CUBE_ERR_TAKE = 216
_CUBE_COMMENT = 292
_MOVE_ANALYSIS = 124  # EngineStructBestMove (2184 bytes)
_BEST_N_MOVES = _MOVE_ANALYSIS + 64
_BEST_MOVES = _MOVE_ANALYSIS + 900  # 32 x 8 signed bytes
_BEST_LEVELS = _MOVE_ANALYSIS + 1156  # 32 x (int16 level, bool is_double, pad)
_BEST_EVALS = _MOVE_ANALYSIS + 1284  # 32 x 7 floats
_MOVE_PLAYED = 2308  # Played, pad, ErrMove, ErrLuck
_MOVE_ROLLOUTS = 2344  # RolloutIndexM: 32 x int32, one per candidate (-1: none)
_MOVE_COMMENT = 2524
_CUBE_ROLLOUT = 224  # RolloutIndexD (-1: none)
_ROLLOUT_SIZE = 2184  # one TRolloutContext of temp.xgr
# TRolloutContext (xg_format.pas): the settings, then Rolled at 84, Error1/Error2 at 2020,
# Rolled2 at 2140 (the per-first-roll sums and deviations between them are not kept).
_ROLLOUT_SETTINGS = "<??xxllxxxxdllll???xllLlll?xxxfl???xl"
_ROLLOUT_ERRORS = 2020
_ROLLOUT_ROLLED2 = 2140
_CONFIDENCE_Z = 1.96  # XG's confidence interval is at 95%


@dataclass(frozen=True, slots=True)
class XgRecord:
    """An ``.xg`` file read in full: the match and XG's analysis of it.

    ``analysis[g][a]`` belongs to ``match.games[g].actions[a]`` (``None`` where XG has
    nothing to say); ``game_analysis[g]`` is the cube analysis of a decision that has no
    action of its own (a game ended by a resignation keeps none).
    """

    match: Match
    analysis: tuple[tuple[ActionAnalysis | None, ...], ...]
    title: str = ""
    """The game name in the file header (often empty)."""
    comments: tuple[str, ...] = ()
    """Every comment of the file (``temp.xgc``), as plain text, in file order."""
    version: int = 0
    """XG's file format version (32 for XG 2.x)."""


def sniff_xg(data: bytes) -> bool:
    """True when ``data`` starts like an ``.xg`` file.

    >>> sniff_xg(b"RGMH\\x01\\x00\\x00\\x00"), sniff_xg(b" 7 point match")
    (True, False)
    """
    return data[:4] == MAGIC


def parse_xg(data: bytes, *, source_name: str | None = None) -> Match:
    """The match of an ``.xg`` file's bytes (see :func:`parse_xg_record` for the analysis).

    :raises NotationError: when the bytes are not an ``.xg`` file or are damaged.
    """
    return parse_xg_record(data, source_name=source_name).match


def read_xg(source: str | os.PathLike[str] | IO[bytes]) -> Match:
    """The match of an ``.xg`` file (a path or a binary file opened for reading).

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when the file is not an ``.xg`` file or is damaged.
    """
    return read_xg_record(source).match


def read_xg_record(source: str | os.PathLike[str] | IO[bytes]) -> XgRecord:
    """:func:`parse_xg_record` of a file path or a binary file opened for reading.

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when the file is not an ``.xg`` file or is damaged.
    """
    data, name = source_data(source)
    if isinstance(data, str):
        raise TypeError("an .xg file must be opened in binary mode")
    return parse_xg_record(data, source_name=name)


def read_xgp(source: str | os.PathLike[str] | IO[bytes]) -> PositionExport:
    """:func:`parse_xgp` of a file path or a binary file opened for reading.

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when the file is not an XG position file or is damaged.
    """
    data, name = source_data(source)
    if isinstance(data, str):
        raise TypeError("an .xgp file must be opened in binary mode")
    return parse_xgp(data, source_name=name)


def parse_xgp(data: bytes, *, source_name: str | None = None) -> PositionExport:
    """The position of an XG position file (``.xgp``) and XG's analysis of it.

    An ``.xgp`` is an ``.xg`` container whose ``temp.xg`` holds one position: the match
    and game headers, then the cube record (the position, the player on roll, the cube
    and, for a cube decision, XG's analysis of it) and, when dice were rolled, a move
    record (the dice and XG's candidate plays). The position is XG's player 1 as X
    (bgkit's player 1, as in an XGID); :attr:`~PositionExport.names` are players 0 and
    1, :attr:`~PositionExport.heading` the file's save name ("Position: 5 point match
    3-1"). Rolled-out figures come with their :class:`~bgkit.formats.annotations.Rollout`.

    :raises NotationError: when the bytes are not an XG position file (a match file says
        so) or are damaged.
    """
    return _Reader(data, source_name).position()


def parse_xg_record(data: bytes, *, source_name: str | None = None) -> XgRecord:
    """Read an ``.xg`` file's bytes: the match, XG's analysis and the comments.

    >>> parse_xg_record(b"RGMH" + bytes(20), source_name="x.xg")
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: x.xg:1:1: not an .xg file: 24 bytes, the header alone needs 8232

    :raises NotationError: when the bytes are not an ``.xg`` file or are damaged, with the
        byte offset as the column (``line`` is 1).
    """
    return _Reader(data, source_name).record()


# ---------------------------------------------------------------------------- bytes


class _Bytes:
    """Checked little-endian reads: every problem is a NotationError at a byte offset."""

    def __init__(
        self, data: bytes | memoryview, source_name: str | None, base: int = 0, what: str = ""
    ) -> None:
        self.data = data
        self.source_name = source_name
        self.base = base  # offset of data[0] in the file, for messages
        self.what = what

    def fail(self, msg: str, offset: int) -> NotationError:
        if self.what:  # inside a decompressed file: name the record and the byte there
            return _error(f"{msg} ({self.what}, byte {offset})", self.base, self.source_name)
        return _error(msg, self.base + offset, self.source_name)

    def unpack(self, fmt: str, offset: int) -> tuple[Any, ...]:
        size = struct.calcsize(fmt)
        if offset < 0 or offset + size > len(self.data):
            raise self.fail(
                f"the file ends too early: {size} bytes needed at byte {offset},"
                f" {max(0, len(self.data) - offset)} left",
                offset,
            )
        return struct.unpack_from(fmt, self.data, offset)


def _error(msg: str, offset: int, source_name: str | None) -> NotationError:
    """A NotationError on "line" 1 at column ``offset + 1`` (binary files have no lines).

    Nothing is allocated by the size of ``offset``: a damaged file may claim any offset.
    """
    return NotationError(msg, source_name=source_name, byte_offset=offset)


def _too_big(what: str, size: int, offset: int, source_name: str | None) -> LimitError:
    limit = active().max_inflated_bytes
    return LimitError(
        f"{what} inflates to {size_text(size)}, more than any XG match: the limit is"
        f" {size_text(limit)} (max_inflated_bytes; raise it with --max-size)",
        source_name=source_name,
        byte_offset=offset,
        limit="max_inflated_bytes",
    )


def _check_games(count: int, header: _Bytes) -> None:
    """:func:`~bgkit.limits.check_games` for the ``count``-th game, whose game header is
    the record ``header``: placed as that record's faults are (a binary file has no line).

    :raises LimitError: naming ``max_games``.
    """
    _placed(functools.partial(check_games, count, "", 0, header.source_name), header)


def _check_actions(count: int, game: int, rec: _Bytes) -> None:
    """:func:`~bgkit.limits.check_game_actions` for the ``count``-th action of the
    ``game``-th game, the record ``rec``, placed as :func:`_check_games` places a game.

    :raises LimitError: naming ``max_game_actions``.
    """
    if count > active().max_game_actions:
        _placed(functools.partial(check_game_actions, count, game, "", 0, rec.source_name), rec)


def _placed(check: Callable[[], None], rec: _Bytes) -> None:
    """Run ``check`` (a limit's), placing the error it raises at the record ``rec``.

    :raises LimitError: as ``check``.
    """
    try:
        check()
    except LimitError as err:
        placed = rec.fail(err.msg, 8)
        raise LimitError(
            placed.msg,
            source_name=placed.source_name,
            byte_offset=placed.byte_offset,
            limit=err.limit,
        ) from None


def _utf16(units: Sequence[int]) -> str:
    chars: list[str] = []
    for unit in units:
        if unit == 0:
            break
        chars.append(chr(unit))
    text = "".join(chars)
    # lone surrogates (a damaged name) would break printing: let Python pair or replace them
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _short_string(raw: Sequence[int]) -> str:
    """A Delphi ShortString (a length byte, then Windows-1252 bytes)."""
    length = min(raw[0], len(raw) - 1)
    return bytes(raw[1 : length + 1]).decode("cp1252", "replace")


def _delphi_datetime(value: float) -> datetime | None:
    """A Delphi TDateTime (days since 1899-12-30), or ``None`` when it is not a sane date."""
    if not (1.0 <= value <= 2958465.0):  # up to the year 9999
        return None
    return datetime(1899, 12, 30) + timedelta(days=value)


# ---------------------------------------------------------------------------- archive


def _archive(data: bytes, source_name: str | None) -> dict[str, bytes]:
    """The files of the ZLibArchive after the header: ``{"temp.xg": bytes, ...}``."""
    b = _Bytes(data, source_name)
    if len(data) < _HEADER_SIZE + _TRAILER_SIZE:
        raise _error(
            f"not an .xg file: {len(data)} bytes, the header alone needs {_HEADER_SIZE}",
            0,
            source_name,
        )
    (header_size, thumb_offset, thumb_size) = b.unpack("<iqI", 8)
    end = len(data) - _TRAILER_SIZE
    crc, count, _version, registry_size, archive_size, compressed = b.unpack("<Iiiiii", end)
    start = end - registry_size - archive_size
    archive_min = header_size + max(thumb_offset, 0) + thumb_size if header_size > 0 else 0
    if registry_size < 0 or archive_size < 0 or not (archive_min <= start <= end):
        raise _error(
            f"the archive trailer is damaged (registry {registry_size} bytes,"
            f" archive {archive_size} bytes)",
            end,
            source_name,
        )
    if zlib.crc32(memoryview(data)[start:end]) != crc:
        raise _error("the archive fails its CRC check: the file is damaged", start, source_name)
    registry = data[end - registry_size : end]
    if compressed:
        registry = _inflate(registry, end - registry_size, source_name, "the file registry")
    if count < 0 or count * _REGISTRY_ENTRY > len(registry):
        raise _error(f"the file registry is damaged ({count} entries)", end, source_name)
    files: dict[str, bytes] = {}
    reg = _Bytes(registry, source_name, end - registry_size, "the file registry")
    budget = active().max_inflated_bytes  # for all the files of the archive together
    for i in range(count):
        at = i * _REGISTRY_ENTRY
        name = _short_string(reg.unpack("<256B", at))
        osize, csize, offset, file_crc, stored, _level = reg.unpack("<iiiIBB", at + 512)
        lo, hi = start + offset, start + offset + csize
        if csize < 0 or offset < 0 or hi > end - registry_size:
            where = min(max(lo, 0), len(data))
            raise _error(
                f"the archive entry of {name!r} points outside the file (offset {offset},"
                f" {csize} bytes)",
                where,
                source_name,
            )
        if osize > budget:  # refuse what the registry declares before inflating anything
            raise _too_big(f"the file claims {name!r}", osize, lo, source_name)
        raw = data[lo:hi]
        body = raw if stored else _inflate(raw, lo, source_name, repr(name), budget)
        budget -= len(body)
        if zlib.crc32(body) != file_crc:
            raise _error(f"{name!r} fails its CRC check: the file is damaged", lo, source_name)
        files[name] = body
    return files


def _inflate(
    raw: bytes, offset: int, source_name: str | None, what: str, most: int | None = None
) -> bytes:
    """``raw`` decompressed, stopping as soon as it passes ``most`` bytes (default: the
    ``max_inflated_bytes`` limit): a small file must not inflate into gigabytes."""
    most = active().max_inflated_bytes if most is None else most
    try:
        out = zlib.decompressobj()
        body = out.decompress(raw, most + 1)
    except zlib.error as err:
        raise _error(f"{what} does not decompress: {err}", offset, source_name) from None
    if len(body) > most:
        raise _too_big(what, len(body), offset, source_name)
    if not out.eof:
        raise _error(f"{what} is cut short", offset, source_name)
    return body


# ---------------------------------------------------------------------------- comments

_RTF_TOKEN = re.compile(
    r"\\'([0-9a-fA-F]{2})|\\u(-?\d+) ?\??|\\([a-z]+)(-?\d+)? ?|\\(.)|([{}])|([^\\{}]+)"
)
_RTF_SKIP = ("fonttbl", "colortbl", "stylesheet", "info", "generator", "pict", "*")


def _rtf_text(rtf: str) -> str:
    """Plain text of XG's RTF comments (``\\par`` -> line break, ``\\'e0`` -> ``à``)."""
    out: list[str] = []
    depth = 0
    skip_below: int | None = None
    pending = bytearray()

    def flush() -> None:
        if pending:
            out.append(pending.decode("cp1252", "replace"))
            pending.clear()

    for m in _RTF_TOKEN.finditer(rtf.replace("\x01\x02", "")):
        hexa, uni, word, _arg, symbol, brace, text = m.groups()
        if brace == "{":
            depth += 1
            continue
        if brace == "}":
            if skip_below is not None and depth <= skip_below:
                skip_below = None
            depth -= 1
            continue
        if word in _RTF_SKIP or symbol == "*":
            if skip_below is None:
                skip_below = depth
            continue
        if skip_below is not None:
            continue
        if hexa is not None:
            pending.append(int(hexa, 16))
            continue
        flush()
        if uni is not None:
            out.append(chr(int(uni) % 0x10000))
        elif word in ("par", "line"):
            out.append("\n")
        elif word == "tab":
            out.append("\t")
        elif symbol is not None and symbol in "\\{}":
            out.append(symbol)
        elif text is not None:
            out.append(text.replace("\r", "").replace("\n", ""))
    flush()
    return "".join(out).strip()


def _comments(raw: bytes) -> tuple[str, ...]:
    if not raw:
        return ()
    text = raw.decode("cp1252", "replace")
    return tuple(_rtf_text(line) for line in text.split("\r\n")[:-1])


# ---------------------------------------------------------------------------- records


@dataclass(slots=True)
class _Header:
    players: tuple[str, str]
    length: int
    tags: list[tuple[str, str]]
    version: int
    comment: int


@dataclass(slots=True)
class _GameBuild:
    number: int
    score: tuple[int, int]
    setup: str | None
    actions: list[Action]
    analysis: list[ActionAnalysis | None]
    pending_cube: CubeAnalysis | None = None
    pending_comment: str | None = None
    result: Result | None = None
    cube: int = 1


class _Reader:
    def __init__(self, data: bytes, source_name: str | None) -> None:
        self.data = data
        self.source_name = source_name
        self.comments: tuple[str, ...] = ()
        self.rollouts: tuple[tuple[Rollout, Rollout], ...] = ()
        self.faults: list[ReadError] | None = None
        """Reading a match: the parts of XG's analysis that cannot be read (the match is
        read without them); ``None``: such a part refuses the file (a position file)."""
        self.building: _GameBuild | None = None
        """The game whose record is being read (for the message of a fault)."""

    def record(self) -> XgRecord:
        game = self.open()
        named = (self.source_name or "").lower().endswith(".xgp")
        if _holds_a_position(game) and (named or not _a_match_begun(game)):
            raise _error(
                "an eXtreme Gammon position file (.xgp) holds one position, not a match:"
                " read it with `bgkit show` or `bgkit hint`",
                0,
                self.source_name,
            )
        self.faults = []
        match, analysis, version = self.match(game)
        match = annotate_match(match, analysis)  # (XG's analysis travels with the actions)
        if self.faults:
            match = replace(match, read_errors=tuple(self.faults))
        return XgRecord(match, analysis, self.title, self.comments, version)

    def open(self) -> bytes:
        """Check the header, read the archive; ``temp.xg``'s bytes."""
        data, name = self.data, self.source_name
        if not sniff_xg(data):
            raise _error(f"not an .xg file: it starts with {data[:4]!r}, not {MAGIC!r}", 0, name)
        if len(data) < _HEADER_SIZE:
            raise _error(
                f"not an .xg file: {len(data)} bytes, the header alone needs {_HEADER_SIZE}",
                0,
                name,
            )
        self.title = _utf16(_Bytes(data, name).unpack("<1024H", 40))
        self.save_name = _utf16(_Bytes(data, name).unpack("<1024H", 40 + 2048))
        files = _archive(data, name)
        game = files.get("temp.xg")
        if game is None:
            raise _error("the archive holds no 'temp.xg' (the match)", 0, name)
        self.comments = _comments(files.get("temp.xgc", b""))
        self.rollouts = _rollouts(files.get("temp.xgr", b""), name)
        return game

    def records(self, body: bytes) -> list[_Bytes]:
        if len(body) % _RECORD_SIZE or not body:
            raise _error(
                f"'temp.xg' is {len(body)} bytes, not a whole number of {_RECORD_SIZE}-byte"
                " records",
                0,
                self.source_name,
            )
        view = memoryview(body)  # (slices of a view: no copy of a 64 MiB match file)
        return [
            _Bytes(
                view[n * _RECORD_SIZE : (n + 1) * _RECORD_SIZE],
                self.source_name,
                0,
                f"record {n + 1} of 'temp.xg'",
            )
            for n in range(len(body) // _RECORD_SIZE)
        ]

    def position(self) -> PositionExport:
        """The one position of an ``.xgp`` file (see :func:`parse_xgp`)."""
        body = self.open()
        if not _holds_a_position(body):
            raise _error(
                "an eXtreme Gammon match file, not a position file (.xgp): `bgkit verify`,"
                " `convert` and `analyze` read it",
                0,
                self.source_name,
            )
        recs = self.records(body)
        if recs[0].unpack("<B", 8)[0] != _HEADER_MATCH:
            raise recs[0].fail("the file starts with no match header", 8)
        header = self.header_match(recs[0])
        found: dict[int, _Bytes] = {}
        for rec in recs[1:]:
            found.setdefault(rec.unpack("<B", 8)[0], rec)
        if _HEADER_GAME not in found or _CUBE not in found:
            raise recs[-1].fail("the position file holds no game header and cube record", 8)
        game, cube = found[_HEADER_GAME], found[_CUBE]
        score1, score2, crawford = game.unpack("<ll?", 12)
        active, double, take, _beaver, _raccoon, cube_b = cube.unpack("<6l", 12)
        board = cube.unpack("<26b", 36)
        dice = "D" if double == 1 and take not in (0, 1, 2) else "00"  # (a double to answer)
        checker = None
        move = found.get(_MOVE)
        if move is not None:
            d = move.unpack("<26b26bxxxl8l2l", 9)
            board, active = d[0:26], d[52]
            if not all(1 <= x <= 6 for x in d[61:63]):
                raise move.fail(f"the dice are {d[61]} and {d[62]}", 100)
            dice = f"{d[61]}{d[62]}"
            checker = self.checker_analysis(move, None)
        where = cube if move is None else move  # (the record the board and turn are from)
        if active not in (1, -1):
            raise where.fail(
                f"the player on roll is {active}, not 1 or -1", 12 if move is None else 64
            )
        if any(abs(n) > 15 for n in board):
            raise where.fail(
                f"the board {list(board)} is not a backgammon position's", 36 if move is None else 9
            )
        if abs(cube_b) > 15:
            raise cube.fail(f"the cube is 2 to the power {abs(cube_b)}", 32)
        tags = dict(header.tags)
        if header.length:
            rules = int(crawford)
        else:  # (an XGID's money score is 0-0)
            rules = int(tags.get("Jacoby") == "On") | int(tags.get("Beaver") == "On") << 1
            score1 = score2 = 0
        limit = int(tags.get("CubeLimit", "1024")).bit_length() - 1
        owner = (cube_b > 0) - (cube_b < 0)
        xgid = (
            f"XGID={_xgid_board(board)}:{abs(cube_b)}:{owner}:{active}:{dice}:{score1}:{score2}"
            f":{rules}:{header.length}:{limit}"
        )
        try:
            position = Position.from_xgid(xgid)
        except BgkitError as err:
            reason = err.msg if isinstance(err, NotationError) else str(err)
            raise where.fail(f"the position is not one bgkit can play: {reason}", 8) from None
        return PositionExport(
            position,
            (header.players[1], header.players[0]),
            checker=checker,
            cube=self.cube_analysis(cube),
            heading=self.save_name or self.title or None,
        )

    def comment(self, index: int) -> str | None:
        return self.comments[index] if 0 <= index < len(self.comments) else None

    def rollout(self, rec: _Bytes, at: int) -> tuple[Rollout, Rollout] | None:
        """The rollout (no-double or play line, double/take line) a record's index at byte
        ``at`` points to, or ``None`` for ``-1``."""
        (index,) = rec.unpack("<l", at)
        if index < 0:
            return None
        if index >= len(self.rollouts):
            err = rec.fail(
                f"the analysis points to rollout {index + 1}, but 'temp.xgr' holds"
                f" {len(self.rollouts)}",
                at,
            )
            if self.faults is None:
                raise err
            # a part of XG's analysis: the match is read, the analysis without that rollout
            # (line 0: a binary record has no line to place it at, nor a game's)
            game = f"game {self.building.number}: " if self.building is not None else ""
            self.faults.append(ReadError(0, 0, game + err.msg, record=False, analysis=True))
            return None
        return self.rollouts[index]

    def match(
        self, body: bytes
    ) -> tuple[Match, tuple[tuple[ActionAnalysis | None, ...], ...], int]:
        header: _Header | None = None
        games: list[Game] = []
        analysis: list[tuple[ActionAnalysis | None, ...]] = []
        current: _GameBuild | None = None
        match_comments: list[str] = []
        for n, rec in enumerate(self.records(body)):
            (kind,) = rec.unpack("<B", 8)
            if n == 0 and kind != _HEADER_MATCH:
                raise rec.fail(f"the match file starts with a record of kind {kind}", 8)
            if kind == _HEADER_MATCH:
                if header is not None:
                    raise rec.fail("a second match header", 8)
                header = self.header_match(rec)
                text = self.comment(header.comment)
                if text:
                    match_comments.append(text)
            elif kind == _HEADER_GAME:
                if current is not None:
                    raise rec.fail("a game starts before the last one ended", 8)
                _check_games(len(games) + 1, rec)
                current = self.header_game(rec, len(games) + 1)
            elif kind in (_CUBE, _MOVE):
                if current is None:
                    raise rec.fail("a cube or move record outside a game", 8)
                _check_actions(len(current.actions) + 1, len(games) + 1, rec)
                if kind == _CUBE:
                    self.cube(rec, current)
                else:
                    self.move(rec, current)
            elif kind == _FOOTER_GAME:
                if current is None:
                    raise rec.fail("a game footer outside a game", 8)
                assert header is not None
                self.footer_game(rec, current, header)
                games.append(
                    Game(
                        current.number,
                        current.score,
                        tuple(current.actions),
                        current.result,
                        current.setup,
                    )
                )
                analysis.append(tuple(current.analysis))
                current = None
            elif kind == _FOOTER_MATCH:
                break
            # other kinds (XG's unused comment and "missing" records) carry no play
        if current is not None:  # a match saved while a game was running
            games.append(
                Game(current.number, current.score, tuple(current.actions), None, current.setup)
            )
            analysis.append(tuple(current.analysis))
        assert header is not None
        match = Match(
            header.players,
            header.length,
            tuple(games),
            tuple(header.tags),
            tuple(match_comments),
            source_name=self.source_name,
        )
        return match, tuple(analysis), header.version

    # -- match header

    def header_match(self, rec: _Bytes) -> _Header:
        d = rec.unpack(_MATCH_FIELDS, 9)
        if d[490] != _MATCH_MAGIC:
            raise rec.fail("the match header lacks XG's mark 'DMLI'", 9 + 555)
        (length, variation, crawford, jacoby, beaver, _auto) = d[82:88]
        date = _delphi_datetime(d[92])
        event = _short_string(d[93:222])
        location = _short_string(d[228:357])
        round_ = _short_string(d[359:488])
        version = d[489]
        names = (_short_string(d[0:41]), _short_string(d[41:82]))
        cube_limit = 10
        transcriber = ""
        if version >= 8:
            cube_limit = rec.unpack("<l", _MATCH_V8)[0]
        if version >= 24:
            u = rec.unpack("<Bx645H", _MATCH_V24)
            transcribed = bool(u[0])
            texts = [_utf16(u[1 + 129 * i : 130 + 129 * i]) for i in range(5)]
            event, names, location, round_ = (
                texts[0] or event,
                (texts[1] or names[0], texts[2] or names[1]),
                texts[3] or location,
                texts[4] or round_,
            )
            if version >= 30:
                transcriber = _utf16(rec.unpack("<129H", _MATCH_V30))
            elif transcribed:
                transcriber = "yes"
        money = length >= _MONEY_LENGTH or length <= 0
        tags: list[tuple[str, str]] = []
        for key, value in (("Site", location), ("Event", event), ("Round", round_)):
            if value:
                tags.append((key, value))
        tags += [("Player 1", names[0]), ("Player 2", names[1])]
        if date is not None:
            tags.append(("EventDate", date.strftime("%Y.%m.%d")))
            tags.append(("EventTime", date.strftime("%H.%M")))
        tags.append(("Variation", _VARIATIONS[variation] if 0 <= variation < 4 else str(variation)))
        if money:
            tags += [("Jacoby", "On" if jacoby else "Off"), ("Beaver", "On" if beaver else "Off")]
        else:
            tags.append(("Crawford", "On" if crawford else "Off"))
        if 0 <= cube_limit <= 15:
            tags.append(("CubeLimit", str(2**cube_limit)))
        if transcriber:
            tags.append(("Transcriber", transcriber))
        return _Header(names, 0 if money else length, tags, version, d[497])

    # -- games

    def header_game(self, rec: _Bytes, index: int) -> _GameBuild:
        d = rec.unpack("<ll?26bxl", 12)
        score = (d[0], d[1])
        board = d[3:29]
        number = d[29] if d[29] > 0 else index
        setup = None
        if any(board):
            setup = _set_pos(board, 0)
        return _GameBuild(number, score, setup, [], [])

    def cube(self, rec: _Bytes, game: _GameBuild) -> None:
        active, double, take, beaver, raccoon, cube_b = rec.unpack("<6l", 12)
        player = 0 if active == 1 else 1
        self.building = game
        analysis = self.cube_analysis(rec)
        (comment_index,) = rec.unpack("<l", _CUBE_COMMENT)
        comment = self.comment(comment_index)
        game.cube = 2 ** abs(cube_b) if abs(cube_b) < 16 else game.cube
        if double != 1:  # 0 no double, -2 no decision possible (opening roll, cube dead)
            game.pending_cube = analysis
            game.pending_comment = comment
            return
        value = game.cube * 2
        note = ActionAnalysis(cube=analysis, comment=comment)
        self.add(game, Double(player, value), note)
        if take == 2:  # beaver: take and redouble at once
            self.add(game, Beaver(1 - player, value * 2), note)
            if raccoon == 2:
                self.add(game, Raccoon(player, value * 4), note)
            elif raccoon == 0:
                self.add(game, Drop(player), note)
            elif beaver == 1 or raccoon == 1:
                self.add(game, Take(player), note)
        elif take == 1:
            self.add(game, Take(1 - player), note)
        elif take == 0:
            self.add(game, Drop(1 - player), note)

    def cube_analysis(self, rec: _Bytes) -> CubeAnalysis | None:
        d = rec.unpack("<26bxxl2llllhhhh7ffffhh7f", _CUBE_ANALYSIS)
        level = d[26]
        nd_probs = d[36:43]
        equ_nd, equ_dt, equ_dp = d[43], d[44], d[45]
        (err_cube,) = rec.unpack("<d", _CUBE_ERR_DOUBLE)
        (err_take,) = rec.unpack("<d", _CUBE_ERR_TAKE)
        if not any(nd_probs) and equ_nd == 0.0 and equ_dt == 0.0:
            return None
        lines = self.rollout(rec, _CUBE_ROLLOUT) if level == 100 else None
        return CubeAnalysis(
            no_double=equ_nd,
            double_take=equ_dt,
            double_pass=equ_dp,
            probabilities=_probabilities(nd_probs),
            cubeless_equity=nd_probs[6],
            level=_level_name(level),
            error_double=None if err_cube <= _NOT_ANALYSED else err_cube,
            error_take=None if err_take <= _NOT_ANALYSED else err_take,
            rollout=None if lines is None else lines[0],
            double_rollout=None if lines is None else lines[1],
        )

    def move(self, rec: _Bytes, game: _GameBuild) -> None:
        d = rec.unpack("<26b26bxxxl8l2l", 9)
        board, active, steps_raw, dice = d[0:26], d[52], d[53:61], (d[61], d[62])
        if not all(1 <= x <= 6 for x in dice):
            raise rec.fail(f"the dice of a move are {dice[0]} and {dice[1]}", 100)
        player = 0 if active == 1 else 1
        (made,) = rec.unpack("<?", _MOVE_PLAYED)
        if not made:  # rolled, then the game ended (a resignation) before the play
            game.pending_cube = None
            return
        # PositionI is seen from XG's player 1; the steps from the mover's side
        view = board if active == 1 else tuple(-board[25 - i] for i in range(26))
        play = _play(steps_raw, view)
        if play is None:
            raise rec.fail(f"the move {list(steps_raw)} is not a checker play", 68)
        self.building = game
        checker = self.checker_analysis(rec, play)
        (comment_index,) = rec.unpack("<l", _MOVE_COMMENT)
        comment = self.comment(comment_index) or game.pending_comment
        note = ActionAnalysis(cube=game.pending_cube, checker=checker, comment=comment)
        game.pending_cube = None
        game.pending_comment = None
        self.add(game, Move(player, dice, play), note)

    def checker_analysis(self, rec: _Bytes, made: Play | None) -> CheckerAnalysis | None:
        (n_moves,) = rec.unpack("<l", _BEST_N_MOVES)
        if not 0 < n_moves <= 32:
            return None
        board = rec.unpack("<26b", _MOVE_ANALYSIS)
        candidates: list[CandidatePlay] = []
        for i in range(n_moves):
            play = _play(rec.unpack("<8b", _BEST_MOVES + 8 * i), board)
            (level,) = rec.unpack("<h", _BEST_LEVELS + 4 * i)
            probs = rec.unpack("<7f", _BEST_EVALS + 28 * i)
            lines = self.rollout(rec, _MOVE_ROLLOUTS + 4 * i) if level == 100 else None
            if play is not None:
                candidates.append(
                    CandidatePlay(
                        play,
                        probs[6],
                        _probabilities(probs),
                        _level_name(level),
                        rollout=None if lines is None else lines[0],
                    )
                )
        played_flag, err_move, err_luck = rec.unpack("<?xxxdd", _MOVE_PLAYED)
        made_result = None if made is None else _result(made)
        played = next((i for i, c in enumerate(candidates) if _result(c.play) == made_result), None)
        return CheckerAnalysis(
            tuple(candidates),
            played=played,
            error=None if err_move <= _NOT_ANALYSED or not played_flag else err_move,
            luck=None if err_luck <= _NOT_ANALYSED else err_luck,
        )

    def footer_game(self, rec: _Bytes, game: _GameBuild, header: _Header) -> None:
        score1, score2, _crawford, winner, points, _termination = rec.unpack("<ll?xxxlll", 12)
        if winner not in (1, -1) or points <= 0:
            return  # an unfinished game
        side = 0 if winner == 1 else 1
        after = (score1, score2)
        match_won = bool(header.length) and max(after) >= header.length
        game.result = Result(side, points, match_won)

    def add(self, game: _GameBuild, action: Action, note: ActionAnalysis | None) -> None:
        if note is not None and note.comment:  # comments travel with the action, as SGF's C[]
            action = replace(action, annotations=(("C", (note.comment,)),))
        game.actions.append(action)
        empty = note is None or (note.cube is None and note.checker is None and not note.comment)
        game.analysis.append(None if empty else note)


def _holds_a_position(body: bytes) -> bool:
    """``temp.xg`` has an ``.xgp``'s shape: one game, one cube record, at most one move
    record, no footer (what XG saves from its position editor or from one decision of a
    match)."""
    kinds = [body[n * _RECORD_SIZE + 8] for n in range(len(body) // _RECORD_SIZE)]
    return (
        kinds.count(_HEADER_GAME) == 1
        and kinds.count(_CUBE) == 1
        and kinds.count(_MOVE) <= 1
        and _FOOTER_GAME not in kinds
        and _FOOTER_MATCH not in kinds
    )


_OPENING = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)
"""The starting position as XG's PositionEngine holds it (a game header's ``PosInit`` is
all zeros for it)."""


def _a_match_begun(body: bytes) -> bool:
    """``temp.xg`` (of an ``.xgp``'s shape) is a match saved after its first roll: the
    play is made (XG's ``Played``) from the position the game starts at. A decision XG
    saved from a match keeps its ``Played`` flag, but not the game's start."""
    records = [body[at : at + _RECORD_SIZE] for at in range(0, len(body), _RECORD_SIZE)]
    game = next(r for r in records if r[8] == _HEADER_GAME)
    start = struct.unpack_from("<26b", game, 21)
    start = start if any(start) else _OPENING
    cube = next(r for r in records if r[8] == _CUBE)
    move = next((r for r in records if r[8] == _MOVE), None)
    played = move is not None and bool(move[_MOVE_PLAYED])
    return played and struct.unpack_from("<26b", cube, 36) == start


def _xgid_board(board: Sequence[int]) -> str:
    """XG's PositionEngine (from XG's player 1, X) as an XGID's 26 letters."""
    return "".join(
        chr(ord("A") + n - 1) if n > 0 else chr(ord("a") - n - 1) if n < 0 else "-" for n in board
    )


def _rollouts(raw: bytes, source_name: str | None) -> tuple[tuple[Rollout, Rollout], ...]:
    """Every rollout of ``temp.xgr``: per record, the no-double (or play) line and the
    double/take line."""
    if len(raw) % _ROLLOUT_SIZE:
        raise _error(
            f"'temp.xgr' is {len(raw)} bytes, not a whole number of {_ROLLOUT_SIZE}-byte rollouts",
            0,
            source_name,
        )
    out = []
    for n in range(len(raw) // _ROLLOUT_SIZE):
        rec = _Bytes(
            raw[n * _ROLLOUT_SIZE : (n + 1) * _ROLLOUT_SIZE],
            source_name,
            0,
            f"rollout {n + 1} of 'temp.xgr'",
        )
        d = rec.unpack(_ROLLOUT_SETTINGS, 0)
        truncated, truncate = d[0], d[2]
        level1, level2, cut, variance, cubeless = d[6:11]
        level1c, level2c, seed, rolled = d[12], d[13], d[17], d[24]
        error1, error2 = rec.unpack("<ff", _ROLLOUT_ERRORS)
        (rolled2,) = rec.unpack("<l", _ROLLOUT_ROLLED2)
        late = cut > 0 and (level2, level2c) != (level1, level1c)
        common = Rollout(
            trials=rolled,
            truncation=truncate if truncated else None,
            checker_level=_level_name(level1),
            cube_level=None if cubeless else _level_name(level1c),
            late_checker_level=_level_name(level2) if late else None,
            late_cube_level=_level_name(level2c) if late and not cubeless else None,
            late_from=cut if late else None,
            variance_reduction=variance,
            cubeful=not cubeless,
            seed=seed,
        )
        out.append(
            (
                replace(common, confidence=error1, standard_error=error1 / _CONFIDENCE_Z),
                replace(
                    common,
                    trials=rolled2,
                    confidence=error2,
                    standard_error=error2 / _CONFIDENCE_Z,
                ),
            )
        )
    return tuple(out)


def _result(play: Play) -> tuple[frozenset[tuple[int, int]], frozenset[int]]:
    """What a play does, whatever its intermediate points: the net change of the mover's
    checkers per point, and the points where it hits (``7/3 3/2`` and ``7/5 5/2`` are
    one play)."""
    net: dict[int, int] = {}
    for step in play.steps:
        net[step.src] = net.get(step.src, 0) - 1
        net[step.dst] = net.get(step.dst, 0) + 1
    hits = frozenset(step.dst for step in play.steps if step.hit)
    return frozenset((point, n) for point, n in net.items() if n), hits


def _probabilities(values: Sequence[float]) -> Probabilities | None:
    """XG's 7 floats: lose BG, lose G, lose, win, win G, win BG, equity."""
    if not any(values[:6]):
        return None
    return Probabilities(values[3], values[4], values[5], values[1], values[0])


LEVELS = {
    0: "1-ply",
    1: "2-ply",
    2: "3-ply",
    12: "3-ply red",
    3: "4-ply",
    4: "5-ply",
    5: "6-ply",
    6: "7-ply",
    100: "Rollout",
    998: "Book",
    999: "Book",
    1000: "XG Roller",
    1001: "XG Roller+",
    1002: "XG Roller++",
}
"""XG's analysis levels by code, as XG names them (``PLAYERLEVEL`` in ``xg_format.pas``);
998 and 999, which XG writes for plays of its opening book but the published table does
not name, are ``"Book"``. Any other code reads as ``"level N"``."""


def _level_name(level: int) -> str:
    return LEVELS.get(level, f"level {level}")


def _play(raw: Sequence[int], board: Sequence[int]) -> Play | None:
    """XG's (from, to) pairs, 0-based (24 = bar, negative = off), as a Play with hits.

    ``board`` is XG's view of the mover: index 1-24 its points (positive = its checkers,
    negative = the opponent's), 25 its bar, 0 the opponent's bar. ``None`` when the pairs
    are not checker steps.
    """
    cells = list(board)
    steps: list[Step] = []
    for i in range(0, 8, 2):
        src, dst = raw[i], raw[i + 1]
        if src == -1:
            break
        src_point = src + 1
        dst_point = max(dst + 1, 0)
        if not (1 <= src_point <= 25 and 0 <= dst_point < src_point):
            return None
        hit = 1 <= dst_point <= 24 and cells[dst_point] == -1
        if hit:
            cells[dst_point] = 0
            cells[0] -= 1
        if len(cells) == 26:
            cells[src_point] -= 1
            if dst_point:
                cells[dst_point] += 1
        steps.append(Step(src_point, dst_point, hit))
    return Play(steps)


def _set_pos(board: Sequence[int], cube: int) -> str:
    """XG's ``; Set Pos=`` text of a board seen from XG's player 1 (bgkit's player 0)."""
    letters = []
    for count in board:
        if count > 0:
            letters.append(chr(ord("A") + min(count, 16) - 1))
        elif count < 0:
            letters.append(chr(ord("a") + min(-count, 16) - 1))
        else:
            letters.append("-")
    return "".join(letters) + f"/{cube}"
