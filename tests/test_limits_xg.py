"""``.xg`` files that lie: decompression bombs and offsets past the end (issue 13, 2-3).

The hostile files are rebuilt from a real one by the test: its archive gets a new
``temp.xg`` (512 MB of zeros, compressed to about half a megabyte, as the reported
bomb) or a registry entry whose numbers are false, with every CRC made right so that
only the sizes are wrong.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest
from test_limits import assert_one_line, bgkit_run

from bgkit.errors import LimitError, NotationError
from bgkit.formats.xg import parse_xg
from bgkit.limits import Limits, using

REAL = Path(__file__).resolve().parent.parent / "data" / "real" / "xg"
BASE = REAL / "kevung__gbf__ronde3-UngerHarmand-HuyckLarsen.xg"
TRAILER = 36  # crc, count, version, registry size, archive size, compressed (+ padding)
ENTRY = 532  # a registry entry: a ShortString name in 256 bytes, then sizes at +512


def _entries(data: bytes) -> tuple[int, list[tuple[bytes, tuple[int, ...]]]]:
    """The start of the archive and its registry: ``(name, (osize, csize, offset, crc,
    stored, level))`` per file."""
    end = len(data) - TRAILER
    _crc, count, _version, registry_size, archive_size, compressed = struct.unpack_from(
        "<Iiiiii", data, end
    )
    registry = data[end - registry_size : end]
    if compressed:
        registry = zlib.decompress(registry)
    entries = []
    for i in range(count):
        at = i * ENTRY
        name = registry[at + 1 : at + 1 + registry[at]]
        entries.append((name, struct.unpack_from("<iiiIBB", registry, at + 512)))
    return end - registry_size - archive_size, entries


def rebuild(temp_xg: bytes, *, declared: int | None = None, offset: int | None = None) -> bytes:
    """``BASE`` with ``temp_xg`` (already compressed) as its match data; ``declared`` and
    ``offset`` replace the registry's claims about it."""
    data = BASE.read_bytes()
    start, entries = _entries(data)
    body = {name: data[start + e[2] : start + e[2] + e[1]] for name, e in entries}
    body[b"temp.xg"] = temp_xg
    archive = b""
    registry = b""
    for name, (osize, _csize, _offset, crc, stored, level) in entries:
        raw = body[name]
        if name == b"temp.xg":
            osize = declared if declared is not None else osize
            crc = zlib.crc32(zlib.decompress(raw)) if len(raw) < 1 << 20 else crc
        at = len(archive) if offset is None or name != b"temp.xg" else offset
        entry = bytes([len(name)]) + name
        entry = entry.ljust(512, b"\0") + struct.pack(
            "<iiiIBB", osize, len(raw), at, crc, stored, level
        )
        registry += entry.ljust(ENTRY, b"\0")
        archive += raw
    packed = zlib.compress(registry)
    tail = archive + packed
    trailer = struct.pack(
        "<Iiiiii", zlib.crc32(tail), len(entries), 1, len(packed), len(archive), 1
    )
    return data[:start] + tail + trailer.ljust(TRAILER, b"\0")


def zeros_compressed(size: int) -> bytes:
    """``size`` zero bytes, deflated without ever holding them all in memory."""
    out = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    parts = [out.compress(chunk) for _ in range(size >> 20)]
    return b"".join(parts) + out.flush()


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """512 MB of match data in a file of about 0.5 MB; the registry declares the real size
    of the original temp.xg, so only inflating can tell."""
    return rebuild(zeros_compressed(512 << 20))


def test_the_rebuilt_file_reads_as_the_original() -> None:
    start, entries = _entries(BASE.read_bytes())
    temp = next(e for name, e in entries if name == b"temp.xg")
    original = BASE.read_bytes()[start + temp[2] : start + temp[2] + temp[1]]
    assert parse_xg(rebuild(original)) == parse_xg(BASE.read_bytes())


def test_a_bomb_stops_at_the_limit(bomb: bytes) -> None:
    assert len(bomb) < 1 << 20
    with pytest.raises(LimitError) as info:
        parse_xg(bomb, source_name="bomb.xg")
    assert info.value.limit == "max_inflated_bytes"
    assert "'temp.xg' inflates to 64 MiB, more than any XG match" in info.value.msg
    assert info.value.location.startswith("bomb.xg:1:")


def test_a_declared_size_past_the_limit_is_refused_before_inflating() -> None:
    start, entries = _entries(BASE.read_bytes())
    temp = next(e for name, e in entries if name == b"temp.xg")
    original = BASE.read_bytes()[start + temp[2] : start + temp[2] + temp[1]]
    claims = rebuild(original, declared=2**31 - 1)
    with pytest.raises(LimitError, match=r"the file claims 'temp.xg' inflates to 2.0 GiB"):
        parse_xg(claims)
    with using(Limits(max_inflated_bytes=900_000)), pytest.raises(LimitError):
        parse_xg(BASE.read_bytes())  # 960,000 bytes of match data


def test_the_bomb_as_a_command_in_bounded_memory(tmp_path: Path, bomb: bytes) -> None:
    (tmp_path / "bomb.xg").write_bytes(bomb)
    run = bgkit_run("verify", "bomb.xg", cwd=tmp_path)
    assert_one_line(run, 2, "bomb.xg:1:", "more than any XG match", "max_inflated_bytes")
    assert run.seconds < 10 and run.peak_mb < 400, (run.seconds, run.peak_mb)
    (tmp_path / "real.xg").write_bytes(BASE.read_bytes())
    lowered = bgkit_run("verify", "--max-size", "50k", "real.xg", cwd=tmp_path)
    assert_one_line(lowered, 2, "real.xg", "more than the limit of 50 KiB (max_file_bytes")


@pytest.mark.parametrize("offset", [2**31 - 1, -5, 10**6])
def test_offsets_that_lie_are_one_short_error(tmp_path: Path, offset: int) -> None:
    start, entries = _entries(BASE.read_bytes())
    temp = next(e for name, e in entries if name == b"temp.xg")
    original = BASE.read_bytes()[start + temp[2] : start + temp[2] + temp[1]]
    lying = rebuild(original, offset=offset)
    with pytest.raises(NotationError, match="points outside the file") as info:
        parse_xg(lying, source_name="lie.xg")
    assert len(str(info.value)) < 200
    (tmp_path / "lie.xg").write_bytes(lying)
    run = bgkit_run("verify", "lie.xg", cwd=tmp_path)
    assert_one_line(run, 2, "lie.xg:1:", "points outside the file")
    assert run.seconds < 10 and run.peak_mb < 300, (run.seconds, run.peak_mb)
