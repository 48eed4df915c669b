"""Parsers are analysed once per installation and kept in a private cache folder
(issue 15): a later process loads them, with the same results, and a cache that cannot be
trusted (a shared folder, a damaged file) is never used."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# a record with tabs: mat.py's fast path leaves it to the parser, which is what is cached
SAMPLE = ROOT / "data" / "dialects" / "tabs.mat"

READ = """
import sys
from bgkit.formats.mat import read_mat
print(read_mat(sys.argv[1]).to_json())
"""


def read_with(cache: str | None, **more: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "BGKIT_CACHE_DIR"} | more
    if cache is not None:
        env["BGKIT_CACHE_DIR"] = cache
    run = subprocess.run(
        [sys.executable, "-c", READ, str(SAMPLE)],
        capture_output=True, text=True, env=env, check=True, timeout=120,
    )  # fmt: skip
    return run.stdout


def test_a_second_process_loads_the_parser_with_the_same_result(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    built = read_with(str(cache))
    files = sorted(cache.iterdir())
    assert [f.name.split("-")[0] for f in files] == ["mat"]
    assert oct(cache.stat().st_mode & 0o777) == "0o700"
    stamp = files[0].stat().st_mtime_ns
    loaded = read_with(str(cache))
    assert loaded == built
    assert files[0].stat().st_mtime_ns == stamp  # read, not written again
    uncached = read_with("")
    assert uncached == built


def test_the_default_folder_and_no_cache_when_asked(tmp_path: Path) -> None:
    read_with(None, XDG_CACHE_HOME=str(tmp_path / "xdg"))
    assert [f.name[:4] for f in (tmp_path / "xdg" / "bgkit").iterdir()] == ["mat-"]
    read_with("", XDG_CACHE_HOME=str(tmp_path / "none"))
    assert not (tmp_path / "none").exists()


def test_a_shared_folder_is_not_used(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    read_with(str(shared))
    assert list(shared.iterdir()) == []


def test_a_damaged_cache_file_is_rebuilt(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    good = read_with(str(cache))
    (cached,) = cache.iterdir()
    cached.write_bytes(cached.read_bytes()[:100])
    again = read_with(str(cache))
    assert again == good


def test_the_cache_name_follows_the_grammars(monkeypatch: pytest.MonkeyPatch) -> None:
    from bgkit import _grammars

    name = _grammars._cache_file("mat", "mat")
    assert isinstance(name, str) and _grammars._grammars_hash() in name
    _grammars._grammars_hash.cache_clear()
    monkeypatch.setattr("lark.__version__", "0.0.0")
    try:
        assert _grammars._cache_file("mat", "mat") != name  # another Lark, another file
    finally:
        _grammars._grammars_hash.cache_clear()
