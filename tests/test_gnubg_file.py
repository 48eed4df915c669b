"""The files gnubg's ``import`` and ``save`` commands read and write
(:func:`bgkit.analysis.gnubg_process.gnubg_file`): in memory where the system has such
files, else in a temporary directory; nothing is left behind either way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bgkit.analysis.gnubg_process import gnubg_file


def _round_trip() -> tuple[str, bytes, bytes]:
    with gnubg_file("match.mat", b" 1 point match\n") as source:
        given = Path(source.path).read_bytes()  # (as gnubg opens it: by its path)
        with open(source.path, "ab") as out:  # (as gnubg writes a file it saves)
            out.write(b"more")
        return source.path, given, source.read()


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="no files in memory here")
def test_in_memory_where_the_system_has_such_files() -> None:
    path, given, read = _round_trip()
    assert path.startswith("/proc/self/fd/")
    assert given == b" 1 point match\n" and read == b" 1 point match\nmore"
    assert not Path(path).exists()  # (closed at the end)


def test_else_in_a_temporary_directory_removed_at_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "memfd_create", raising=False)
    path, given, read = _round_trip()
    assert Path(path).name == "match.mat"
    assert given == b" 1 point match\n" and read == b" 1 point match\nmore"
    assert not Path(path).parent.exists()


def test_a_file_gnubg_did_not_write_reads_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "memfd_create", raising=False)
    with gnubg_file("match.sgf") as sgf:
        assert sgf.read() == b""
