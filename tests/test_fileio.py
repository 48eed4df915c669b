"""bgkit.fileio.write_atomic: the one way bgkit writes a user's file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bgkit import fileio
from bgkit.fileio import write_atomic


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_writes_a_new_file(tmp_path: Path) -> None:
    target = tmp_path / "out.mat"
    write_atomic(target, b"record")
    assert target.read_bytes() == b"record"
    assert leftovers(tmp_path) == []


def test_never_overwrites_without_force(tmp_path: Path) -> None:
    target = tmp_path / "out.mat"
    target.write_bytes(b"the user's file")
    with pytest.raises(FileExistsError, match="use --force"):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"the user's file"
    assert leftovers(tmp_path) == []
    write_atomic(target, b"new", force=True)
    assert target.read_bytes() == b"new"


def test_a_failed_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.mat"
    target.write_bytes(b"old")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space"):
        write_atomic(target, b"new", force=True)
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


def test_without_hard_links_it_still_refuses_to_clobber(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(src: object, dst: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(fileio.os, "link", no_links)
    target = tmp_path / "out.mat"
    write_atomic(target, b"one")
    assert target.read_bytes() == b"one"
    with pytest.raises(FileExistsError):
        write_atomic(target, b"two")
    assert target.read_bytes() == b"one"
    assert leftovers(tmp_path) == []


def test_a_file_appearing_meanwhile_is_not_clobbered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.mat"
    real_fsync = os.fsync

    def someone_else_writes(fd: int) -> None:
        real_fsync(fd)
        target.write_bytes(b"theirs")

    monkeypatch.setattr(os, "fsync", someone_else_writes)
    with pytest.raises(FileExistsError):
        write_atomic(target, b"ours")
    assert target.read_bytes() == b"theirs"
    assert leftovers(tmp_path) == []


def test_a_missing_folder_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "no" / "such" / "out.mat", b"x")
