"""Issue 29, item 7: a resumable ``--output`` survives a power loss and remembers the
settings its rows were made under.

A power loss leaves what was not synced as an empty file: the reproducer writes a 0-byte
part where an interrupted run's would be. A file refused under ``--max-size 2K`` must be
read again once the limit is raised.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from bounded import BGKIT, GIB, run

from bgkit import batch
from bgkit.batch import output as batch_output

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

DATA = Path(__file__).resolve().parent.parent / "data"
SAMPLE = DATA / "sample.mat"


@pytest.mark.parametrize("suffix", ["parquet", "csv"])
def test_an_empty_part_is_set_aside_and_its_files_done_again(tmp_path: Path, suffix: str) -> None:
    for i in range(3):
        shutil.copyfile(SAMPLE, tmp_path / f"m{i}.mat")
    parts = tmp_path / f"out.{suffix}.parts"
    parts.mkdir()
    (parts / f"part-000001.{suffix}").write_bytes(b"")  # what a power loss leaves
    for _ in range(2):  # every later run works, not only the first
        ran = run([*BGKIT, "verify", "-q", "-j", "1", "-o", f"out.{suffix}", "."],
                  seconds=60, memory=2 * GIB, cwd=tmp_path)  # fmt: skip
        assert ran.code == 0, ran.stderr
    first = run([*BGKIT, "verify", "-q", "-j", "1", "-o", "again." + suffix, "."], cwd=tmp_path)
    assert first.code == 0
    out = tmp_path / f"out.{suffix}"
    table = pd.read_parquet(out) if suffix == "parquet" else pd.read_csv(out)
    assert sorted(table["file"].unique()) == ["m0.mat", "m1.mat", "m2.mat"]
    assert (parts / f"part-000001.{suffix}.broken").exists() or not parts.exists()


def test_the_note_about_a_broken_part(tmp_path: Path) -> None:
    shutil.copyfile(SAMPLE, tmp_path / "m.mat")
    parts = tmp_path / "out.parquet.parts"
    parts.mkdir()
    (parts / "part-000001.parquet").write_bytes(b"")
    ran = run([*BGKIT, "verify", "-j", "1", "-o", "out.parquet", "m.mat"], cwd=tmp_path)
    assert ran.code == 0, ran.stderr
    assert ran.lines[0].startswith(
        "bgkit: note: out.parquet.parts/part-000001.parquet: a part of an earlier run that"
        " cannot be read (0 bytes: "
    )
    assert ran.lines[0].endswith(
        "set aside as part-000001.parquet.broken, its files are done again"
    )


def test_the_output_remembers_the_limits_of_its_rows(tmp_path: Path) -> None:
    """A file refused under --max-size 2K stayed refused after the limit was raised."""
    shutil.copyfile(SAMPLE, tmp_path / "m.mat")
    ran = run([*BGKIT, "verify", "-q", "--max-size", "2K", "-o", "out.csv", "m.mat"],
              cwd=tmp_path)  # fmt: skip
    assert ran.code == 2 and "max_file_bytes" in ran.stderr
    table = pd.read_csv(tmp_path / "out.csv")
    assert table["settings"].tolist() == ["max_file_bytes=2048"]
    ran = run([*BGKIT, "verify", "-q", "-o", "out.csv", "m.mat"], cwd=tmp_path)
    assert ran.code == 0, ran.stderr  # read again, under the default limits
    table = pd.read_csv(tmp_path / "out.csv")
    assert "unreadable" not in set(table["kind"]) and set(table["settings"]) == {"defaults"}
    stamp = (tmp_path / "out.csv").stat().st_mtime_ns
    ran = run([*BGKIT, "verify", "-q", "-o", "out.csv", "m.mat"], cwd=tmp_path)
    assert ran.code == 0
    assert (tmp_path / "out.csv").stat().st_mtime_ns != stamp  # (rewritten, rows reused)


def test_parts_are_synced_before_they_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every part and the output are fsynced before they take their name."""
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(batch_output, "CHECKPOINT_ROWS", 1)
    files = [str(SAMPLE), str(DATA / "fixtures" / "handwritten_3pt.mat")]
    batch.verify_files(files, jobs=1, progress=False, output=tmp_path / "out.parquet")
    names = [Path(p).name for p in synced]
    assert sum(n.startswith(".part-") and n.endswith(".tmp") for n in names) >= 2
    assert any(n.startswith(".out.parquet.") for n in names)
