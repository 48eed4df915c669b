"""Match-record formats: one module per format, and :func:`read_match` to pick the right one.

Each format module (``bgkit.formats.mat`` ...) exposes ``parse_<fmt>(text)``,
``read_<fmt>(path_or_handle)``, ``dumps_<fmt>(match)`` and ``write_<fmt>(match, path)``.
:func:`read_match` chooses the format from the file extension or, failing that, from the
text itself. A new format plugs in with one :class:`Format` entry in :data:`FORMATS`.

>>> read_match(text=" 0 point match\\n").is_money
True
"""

from __future__ import annotations

import codecs
import errno
import importlib
import io
import os
import re
import stat
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeAlias, overload

from bgkit._gc import without_gc
from bgkit.errors import DecodingWarning, LimitError, NotationError, UnsupportedFormatError, place
from bgkit.fileio import file_kind
from bgkit.limits import Limits, active, size_text, using

if TYPE_CHECKING:
    from bgkit.records import Match

__all__ = [
    "FORMATS",
    "RECORD_SUFFIXES",
    "SERIES_NAME",
    "WRITABLE",
    "Format",
    "RecordSource",
    "decode_bytes",
    "detect_format",
    "find_records",
    "read_file",
    "read_match",
    "read_streamed",
    "source_data",
    "source_text",
    "write_match",
]


@dataclass(frozen=True, slots=True)
class Format:
    """A record format :func:`read_match` knows.

    ``module`` is imported only when the format is used; it must define
    ``parse_<name>(text, *, source_name=None) -> Match``.
    """

    name: str
    """Short name, also the suffix of the module's functions (``mat`` -> ``parse_mat``)."""
    module: str
    """The module implementing it, e.g. ``"bgkit.formats.mat"``."""
    extensions: tuple[str, ...]
    """File name extensions (lower case, with the dot) that mean this format."""
    sniff: Callable[[str], bool]
    """True when a text looks like this format (used when the extension says nothing)."""
    binary: bool = False
    """``parse_<name>`` takes the file's bytes, not text (``.xg``); ``sniff`` is then
    given the bytes decoded as Latin-1 (one character per byte)."""
    function: str | None = None
    """The suffix of the module's functions when it is not :attr:`name` (a name with a
    ``-``: ``gnubg-text`` is read by ``parse_gnubg_match``)."""

    @without_gc
    def parse(self, text: str, *, source_name: str | None = None) -> Match:
        """Parse ``text`` with this format's ``parse_<name>`` (Python's cyclic garbage
        collector paused: :mod:`bgkit._gc`)."""
        module = importlib.import_module(self.module)
        parse: Callable[..., Match] = getattr(module, f"parse_{self.function or self.name}")
        return parse(text, source_name=source_name)

    @without_gc
    def parse_bytes(self, data: bytes, *, source_name: str | None = None) -> Match:
        """Parse a file's bytes: as they are for a binary format, else decoded first."""
        if not self.binary:
            return self.parse(decode_bytes(data, source_name=source_name), source_name=source_name)
        module = importlib.import_module(self.module)
        parse: Callable[..., Match] = getattr(module, f"parse_{self.function or self.name}")
        return parse(data, source_name=source_name)


_MAT_HEADER = re.compile(r"^[ \t]*[0-9]+[ \t]+points?[ \t]+match", re.IGNORECASE | re.MULTILINE)


def _looks_like_mat(text: str) -> bool:
    return _MAT_HEADER.search(text) is not None


def _looks_like_sgf(text: str) -> bool:
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    return head.startswith("(") and re.search(r"GM\s*\[\s*6\s*\]", head) is not None


def _looks_like_json(text: str) -> bool:
    head = text.lstrip("\ufeff \t\r\n")
    return head.startswith("{") and '"bgkit-match"' in head[:200]


def _looks_like_xg(text: str) -> bool:
    return text.startswith("RGMH")


def _looks_like_ogxm(text: str) -> bool:
    return text.startswith("OGXM")


def _looks_like_gmd(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("GMD-")


def _looks_like_javafibs(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("JavaFIBS internal match representation")


_GNUBG_SCORE_LINE = re.compile(
    r"The score \(after [0-9]+ games?\) is: .* [0-9]+, .* [0-9]+"
    r"(?: \(match to [0-9]+ points?\))?[^0-9\n]*$"
)


def _looks_like_gnubg_text(text: str) -> bool:
    """GNU Backgammon's ``export match text``: its first line is the score line."""
    first = text.lstrip("\ufeff \t\r\n")[:400].split("\n", 1)[0].rstrip("\r")
    return _GNUBG_SCORE_LINE.match(first) is not None


FORMATS: tuple[Format, ...] = (
    Format("mat", "bgkit.formats.mat", (".mat",), _looks_like_mat),
    Format("sgf", "bgkit.formats.sgf", (".sgf",), _looks_like_sgf),
    Format("json", "bgkit.formats.json_record", (".json",), _looks_like_json),
    Format("xg", "bgkit.formats.xg", (".xg",), _looks_like_xg, binary=True),
    Format("ogxm", "bgkit.formats.ogxm_record", (".ogxm", ".gvab"), _looks_like_ogxm, binary=True),
    Format("gmd", "bgkit.formats.gmd", (".gmd",), _looks_like_gmd),
    Format("javafibs", "bgkit.formats.javafibs", (".match",), _looks_like_javafibs),
    Format(
        "gnubg-text", "bgkit.formats.gnubg_text", (), _looks_like_gnubg_text, function="gnubg_match"
    ),
)
"""The formats :func:`read_match` tries, in order."""


#: A well-formed UTF-8 sequence of two to four bytes (text that has one is UTF-8 in part).
_UTF8_MULTIBYTE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)


def _cp1252_bytes(err: UnicodeError) -> tuple[str, int]:
    """Codec error handler: bytes that are not UTF-8 read as Windows-1252 (Latin-1 for
    the five bytes it leaves undefined)."""
    assert isinstance(err, UnicodeDecodeError)
    bad = err.object[err.start : err.end]
    return "".join(_CP1252[byte] for byte in bad), err.end


_CP1252 = [
    bytes([b]).decode("cp1252", "ignore") or bytes([b]).decode("latin-1") for b in range(256)
]


codecs.register_error("bgkit-cp1252", _cp1252_bytes)


def decode_bytes(
    data: bytes, *, encoding: str | None = None, source_name: str | None = None, note: bool = True
) -> str:
    """Decode a record file's bytes.

    UTF-16 when the bytes start with its BOM (as Windows' Notepad saves "Unicode" text;
    a broken tail becomes U+FFFD, for the reader to place), or when they hold a zero byte
    beside every character (UTF-16 saved without its BOM); else UTF-8 first (a BOM is
    dropped). Text that is not UTF-8 is a guess, and says so with a
    :class:`~bgkit.errors.DecodingWarning` (``file:line:col`` of the first byte that is
    not UTF-8; ``note=False``: no warning): text with well-formed UTF-8 sequences
    elsewhere (a file pieced together from two writers) keeps them, each other byte read
    as Windows-1252; other text is read as Windows-1252, the code page old Windows programs
    wrote, and failing that as Latin-1, which accepts any byte. With ``encoding`` the bytes
    are decoded with that codec only.

    >>> decode_bytes("K\\u00e9vin".encode("utf-8-sig")), decode_bytes(b"K\\xe9vin", note=False)
    ('Kévin', 'Kévin')
    >>> decode_bytes("K\\u00e9vin".encode("utf-16"))  # (with its BOM)
    'Kévin'
    >>> decode_bytes("Kévin ".encode() + b"Andr\\xe9", note=False)
    'Kévin André'

    :raises UnicodeDecodeError: only when ``encoding`` is given and does not fit.
    """
    if encoding is not None:
        return data.decode(encoding)
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return data.decode("utf-16", errors="replace")
    order = _utf16_order(data)
    if order is not None:
        return data.decode(order, errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        first = err.start
    if _UTF8_MULTIBYTE.search(data):
        text = data.decode("utf-8-sig", "bgkit-cp1252")
        how = "read as Windows-1252, the rest as UTF-8"
    else:
        try:
            text, how = data.decode("cp1252"), "read as Windows-1252"
        except UnicodeDecodeError:
            text, how = data.decode("latin-1"), "read as Latin-1"
    if note:
        line = data.count(b"\n", 0, first) + 1
        column = first - (data.rfind(b"\n", 0, first) + 1) + 1
        where = place(source_name, line, column)
        warnings.warn(
            DecodingWarning(
                where,
                f"not UTF-8 (byte 0x{data[first]:02X}): the bytes that are not UTF-8 are"
                f" {how}; names may read wrong",
                line,
                column,
            ),
            stacklevel=2,
        )
    return text


def _utf16_order(data: bytes) -> str | None:
    """``"utf-16-le"`` or ``"utf-16-be"`` for UTF-16 text saved without its BOM, by its
    head: a text record of Latin script has a zero byte beside every character, on the
    same side (text in UTF-8 or a code page has no zero byte at all).

    >>> _utf16_order(" 3 point match".encode("utf-16-le")), _utf16_order(b" 3 point match")
    ('utf-16-le', None)
    """
    head = data[: min(len(data), 512) & ~1]
    if len(head) < 8 or b"\0" not in head:
        return None
    even, odd = head[0::2], head[1::2]
    for order, zeros, chars in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if zeros.count(0) >= 0.9 * len(zeros) and chars.count(0) == 0:
            return order
    return None


RecordSource: TypeAlias = "str | os.PathLike[str] | IO[str] | IO[bytes]"
"""What the ``read_<fmt>`` functions take: a file path, or a file open for reading."""


_CHUNK = 1 << 20


@overload
def read_at_most(handle: IO[bytes], most: int) -> bytes: ...
@overload
def read_at_most(handle: IO[str], most: int) -> str: ...
def read_at_most(handle: IO[Any], most: int) -> bytes | str:
    """What ``handle`` holds, up to ``most`` + 1 bytes or characters (one more tells a
    caller the input is past its limit), read a megabyte at a time: memory grows with
    what is there, not with the limit (``handle.read(most + 1)`` set aside the whole
    limit first: ``--max-size 5G`` failed on any file under a 4 GB cap).
    """
    parts: list[bytes | str] = []
    left = most + 1
    while left > 0:
        chunk: bytes | str = handle.read(min(left, _CHUNK))
        if not chunk:
            parts.append(chunk)  # (b"" or "", as the handle reads)
            break
        parts.append(chunk)
        left -= len(chunk)
    if isinstance(parts[0], bytes):
        return b"".join(p for p in parts if isinstance(p, bytes))
    return "".join(p for p in parts if isinstance(p, str))


def read_file(path: str | os.PathLike[str], limits: Limits | None = None) -> bytes:
    """The bytes of the record file at ``path``, refusing what no record can be.

    The file is opened without blocking and must be a regular file (a FIFO, device or
    socket would never end, or block until someone writes to it), no larger than
    ``max_file_bytes``. A file that grows while it is read is cut off at the limit.

    :raises OSError: when the file cannot be opened, or is not a regular file.
    :raises LimitError: when it is larger than ``max_file_bytes`` (``--max-size``).
    """
    limits = limits or active()
    name = os.fspath(path)
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(
                errno.EINVAL,
                f"not a regular file ({file_kind(info.st_mode)}); bgkit reads records only"
                " from regular files",
                name,
            )
        size = info.st_size
        data = b"" if size > limits.max_file_bytes else read_at_most(handle, limits.max_file_bytes)
    size = max(size, len(data))
    if size > limits.max_file_bytes:
        raise LimitError(
            f"the file has {size:,} bytes, more than the limit of"
            f" {size_text(limits.max_file_bytes)} (max_file_bytes; raise it with --max-size)",
            source_name=name,
            limit="max_file_bytes",
        )
    return data


def source_data(
    source: RecordSource, limits: Limits | None = None
) -> tuple[str | bytes, str | None]:
    """The content of a path (as bytes, :func:`read_file`) or of an open file, and a name
    for messages. An open file is read up to ``max_file_bytes`` (and refused past it)."""
    if isinstance(source, (str, os.PathLike)):
        return read_file(source, limits), str(source)
    raw_name = getattr(source, "name", None)
    name = raw_name if isinstance(raw_name, str) else None
    most = (limits or active()).max_file_bytes
    data = read_at_most(source, most)
    if len(data) > most:
        raise LimitError(
            f"the input has more than the limit of {size_text(most)} (max_file_bytes;"
            " raise it with --max-size)",
            source_name=name,
            limit="max_file_bytes",
        )
    return data, name


def source_text(source: RecordSource, *, encoding: str | None = None) -> tuple[str, str | None]:
    """:func:`source_data` decoded with :func:`decode_bytes` when it is bytes."""
    data, name = source_data(source)
    text = (
        decode_bytes(data, encoding=encoding, source_name=name) if isinstance(data, bytes) else data
    )
    return text, name


def detect_format(text: str, name: str | None = None) -> Format:
    """The format of a record: the one its content shows, else the extension of ``name``.

    The extension decides when the content fits its format, or fits no format (so that
    a broken record gets its format's own message); a record whose content is another
    format's (an XG Mobile ``.mat`` text saved as ``.xg``) is read as what it is.

    >>> detect_format(" 5 point match\\n", "game.xg").name
    'mat'

    :raises NotationError: when no format recognises the text.
    """
    suffix = Path(name).suffix.lower() if name is not None else ""
    by_name = next((fmt for fmt in FORMATS if suffix in fmt.extensions), None)
    if by_name is not None and by_name.sniff(text):
        return by_name
    by_content = next((fmt for fmt in FORMATS if not fmt.binary and fmt.sniff(text)), None)
    if by_content is not None:
        return by_content
    if by_name is not None:
        return by_name
    known = ", ".join(fmt.name for fmt in FORMATS)
    raise NotationError(
        f"not a match record bgkit can read (known formats: {known})",
        text,
        0,
        source_name=name,
    )


def read_match(
    source: RecordSource | None = None,
    *,
    text: str | bytes | None = None,
    format: str | None = None,
    encoding: str | None = None,
    limits: Limits | None = None,
) -> Match:
    """Read a match record, in any format bgkit knows, from a path, an open file or its text.

    ``source`` is a path (``str`` or :class:`~os.PathLike`) or a file open for reading
    (text or binary); a record already in memory is given as ``text=`` (``str``, or the
    ``bytes`` of a file). The format is ``format`` (a name in :data:`FORMATS`: ``"mat"``,
    ``"sgf"``, ``"json"``, ``"xg"``, ``"gmd"``, ``"javafibs"``) when given, else the file
    extension when it is a known one, else the content (``.txt`` exports are recognised
    by it). A binary format (``.xg``, or bytes that start with ``RGMH``) is given the bytes.

    >>> read_match(text=" 0 point match\\n").is_money
    True
    >>> read_match(" 0 point match\\n")
    Traceback (most recent call last):
    ...
    TypeError: read_match(source) takes a path or an open file; give a record's text as ...

    Every reader keeps ``limits`` (default: :func:`bgkit.limits.active`, normally
    :data:`~bgkit.limits.DEFAULT_LIMITS`): input past one is refused before the work it
    would cause.

    :raises FileNotFoundError: when the path does not exist.
    :raises OSError: when the path is not a regular file (a FIFO, a device...).
    :raises LimitError: when the input is larger than a limit (the file, a line, a name...).
    :raises UnsupportedFormatError: when ``format`` names no format bgkit reads.
    :raises NotationError: when the text is not a record of a known format, or does not
        parse as one.
    """
    if (source is None) == (text is None):
        raise TypeError("read_match takes a source (a path or an open file) or text=, not both")
    if isinstance(source, bytes | bytearray | memoryview):
        raise TypeError(
            "read_match(source) takes a path or an open file; give a record's bytes as"
            " read_match(text=...)"
        )
    if isinstance(source, str) and "\n" in source:
        raise TypeError(
            "read_match(source) takes a path or an open file; give a record's text as"
            " read_match(text=...)"
        )
    with using(limits):
        # (the bytes read are handed on without a name here: _parse lets them go once
        # decoded, so that a long record is not held twice while it is parsed)
        if text is not None:  # each format's reader checks its size and lines
            return _parse(text, None, format, encoding)
        if isinstance(source, (str, os.PathLike)):
            return _parse(read_file(source), os.fspath(source), format, encoding, path=True)
        assert source is not None
        return _parse(*source_data(source), format, encoding)


def read_streamed(
    source: RecordSource, *, format: str | None = None, limits: Limits | None = None
) -> Match:
    """:func:`read_match` for a caller that goes through the games once, in order (the
    verifier): where the format allows (SGF), the match's ``games`` is a
    :class:`~bgkit.records.GameStream`, each game read as it is reached and let go after,
    so that memory holds a game or two of a long record; other formats are read whole.
    Text that cannot be read at all is refused here, as by :func:`read_match`; a limit
    past in a later game is raised while going through the games."""
    with using(limits):
        if isinstance(source, (str, os.PathLike)):
            name = os.fspath(source)  # (the bytes are not held here: _parse lets them go)
            return _parse(read_file(source), name, format, None, path=True, stream=True)
        return _parse(*source_data(source), format, None, stream=True)


def _parse(
    data: str | bytes,
    name: str | None,
    format: str | None,
    encoding: str | None,
    *,
    path: bool = False,
    stream: bool = False,
) -> Match:
    """Pick the format (named, else by extension, else by content) and parse ``data``;
    ``path``: ``name`` is the file's path (a gnubg export series is read from it)."""
    suffix = Path(name).suffix.lower() if name else ""
    if format is not None:
        fmt = next((f for f in FORMATS if f.name == format), None)
        if fmt is None:
            known = ", ".join(f.name for f in FORMATS)
            raise UnsupportedFormatError(f"unknown format {format!r} (bgkit reads {known})")
    else:  # a binary format when the bytes show it, or the name does and no text does
        head = data[:64] if isinstance(data, str) else data[:64].decode("latin-1")
        fmt = next((f for f in FORMATS if f.binary and f.sniff(head)), None)
        named = next((f for f in FORMATS if f.binary and suffix in f.extensions), None)
        if fmt is None and named is not None:
            text = data if isinstance(data, str) else _decoded(data, encoding)
            if text is None or not any(f.sniff(text) for f in FORMATS if not f.binary):
                fmt = named
    if fmt is not None and fmt.binary:
        raw = data if isinstance(data, bytes) else data.encode("latin-1", "replace")
        return fmt.parse_bytes(raw, source_name=name)
    decoded = (
        data if isinstance(data, str) else decode_bytes(data, encoding=encoding, source_name=name)
    )
    del data  # (the bytes, once decoded: not held while the text is parsed)
    fmt = fmt or detect_format(decoded, name)
    if path and name is not None and fmt.name == "gnubg-text":
        from bgkit.formats.gnubg_text import parse_gnubg_series

        return parse_gnubg_series(decoded, name, encoding=encoding)
    if stream and fmt.name == "sgf":
        from bgkit.formats.sgf import stream_sgf

        return stream_sgf(decoded, source_name=name)
    return fmt.parse(decoded, source_name=name)


def _decoded(data: bytes, encoding: str | None) -> str | None:
    """:func:`decode_bytes`, or ``None`` when ``encoding`` does not fit the bytes."""
    try:
        return decode_bytes(data, encoding=encoding, note=False)  # (sniffing: said once, later)
    except (UnicodeDecodeError, LookupError):
        return None


RECORD_SUFFIXES = (".mat", ".txt", ".sgf", ".json", ".xg", ".ogxm", ".gvab", ".gmd", ".match")
"""File endings :func:`find_records` (and so ``bgkit verify``) picks up in a folder."""


SERIES_NAME = re.compile(r"(?P<stem>.*)_(?P<n>[0-9]{3,})(?P<suffix>\.[^./\\]*)$")
"""The name of a later file of a gnubg export series: ``x_002.txt`` (game 2 of ``x.txt``)."""


def find_records(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[Path], list[Path]]:
    """The files named, and the record files inside the folders named (recursively, sorted).

    Returns ``(records, skipped)``: in folders, a ``.txt`` file is taken only when its
    text looks like a match record (``.txt`` also holds position exports and notes);
    files named explicitly are always taken. In a folder, the later files of a GNU
    Backgammon export series (``x_002.txt``... next to ``x.txt``) are not listed: reading
    ``x.txt`` reads them (see :func:`read_match`).
    """
    found: list[Path] = []
    skipped: list[Path] = []
    for name in paths:
        path = Path(name)
        if not path.is_dir():
            found.append(path)
            continue
        for p in sorted(path.rglob("*")):
            if not p.is_file() or p.suffix.lower() not in RECORD_SUFFIXES:
                continue
            if p.suffix.lower() != ".txt":
                found.append(p)
                continue
            kind = _record_kind(p)
            if kind is None:
                skipped.append(p)
            elif kind != "gnubg-text" or not _later_in_series(p):
                found.append(p)
    return found, skipped


def _record_kind(path: Path) -> str | None:
    """The format a ``.txt`` file's text looks like (``"?"`` when it cannot be read: the
    reader reports it), or ``None``."""
    try:
        with path.open("rb") as handle:
            head = decode_bytes(handle.read(1 << 16), note=False)
    except OSError:
        return "?"  # let the reader report it
    return next((fmt.name for fmt in FORMATS if not fmt.binary and fmt.sniff(head)), None)


def _later_in_series(path: Path) -> bool:
    """A numbered gnubg export (``x_002.txt``) whose series' first file is a gnubg export
    too: reading the first file reads this one."""
    m = SERIES_NAME.match(path.name)
    if m is None:
        return False
    first = path.with_name(m["stem"] + m["suffix"])
    return first.is_file() and _record_kind(first) == "gnubg-text"


WRITABLE: dict[str, str] = {
    ".mat": "mat",
    ".sgf": "sgf",
    ".json": "json",
    ".ogxm": "ogxm",
    ".gvab": "ogxm",
}
"""The formats bgkit writes, by file extension (the others are read-only); GammonView's
``.gvab`` is OGXM (written without analysis, which GammonView adds when it analyses)."""

_WRITERS = {"mat": "mat", "sgf": "sgf", "json": "json_record", "ogxm": "ogxm_record"}
"""The module of each written format (``bgkit.formats.<module>``)."""


def write_match(
    match: Match,
    target: str | os.PathLike[str] | IO[str] | IO[bytes],
    format: str | None = None,
    *,
    force: bool = False,
) -> None:
    """Write ``match`` to a file path or an open file, as ``.mat``, SGF, JSON or OGXM.

    A path is written atomically and never over an existing file unless ``force``
    (:func:`bgkit.fileio.write_atomic`); an open file gets the text (OGXM, a binary
    format, wants a binary file, or a text stream with a ``buffer`` such as
    ``sys.stdout``). The format is ``format`` (``"mat"``, ``"sgf"``, ``"json"`` or
    ``"ogxm"``), else the path's extension.

    >>> import io, bgkit
    >>> out = io.StringIO()
    >>> write_match(bgkit.read_match("data/sample.mat"), out, "json")
    >>> out.getvalue().startswith("{")
    True

    :raises UnsupportedFormatError: for a format bgkit does not write, or a path whose
        extension names none (``.xg`` is read-only; ``.txt`` could be anything).
    :raises FileExistsError: when the path exists and ``force`` is false.
    """
    name = format
    if name is None:
        if not isinstance(target, (str, os.PathLike)):
            raise UnsupportedFormatError(
                "writing to an open file needs format= (mat, sgf, json, ogxm)"
            )
        suffix = Path(target).suffix.lower()
        name = WRITABLE.get(suffix)
        if name is None:
            raise UnsupportedFormatError(_unwritable(str(target), suffix))
    if name not in WRITABLE.values():
        raise UnsupportedFormatError(_unwritable(str(target), f".{name}"))
    module = importlib.import_module(f"bgkit.formats.{_WRITERS[name]}")
    if isinstance(target, (str, os.PathLike)):
        getattr(module, f"write_{name}")(match, target, force=force)
        return
    content = getattr(module, f"dumps_{name}")(match)
    if isinstance(content, bytes) and isinstance(target, io.TextIOBase):
        raw = getattr(target, "buffer", None)  # a text stream over bytes (sys.stdout)
        if raw is None:
            raise UnsupportedFormatError(
                f"{name} is a binary format: write it to a path or a file open in binary mode"
            )
        target.flush()
        raw.write(content)
        raw.flush()
    else:
        target.write(content)


def _unwritable(target: str, suffix: str) -> str:
    known = ", ".join(WRITABLE)
    if any(suffix in fmt.extensions for fmt in FORMATS):
        return f"{target}: {suffix} is read-only here; bgkit writes {known}"
    what = suffix or "a name without an extension"
    return f"{target}: cannot tell the format from {what}; bgkit writes {known} (give the format)"
