"""Issue 29, items 2 and 3: output that cannot be forged, writes that never follow a link.

Each reproducer is made here and run as a whole command under resource limits
(:mod:`bounded`): exit code, the line printed, time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bounded import BGKIT, GIB, run

import bgkit
from bgkit.fileio import write_atomic

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample.mat"
FORGED = "gnubg\nfake.mat:1:1: note: all checked\x1b[2K\x07\x08\x00"


def evil_json(tmp_path: Path, name: str = FORGED, file: str = "evil.json") -> Path:
    data = json.loads(bgkit.read_match(SAMPLE).to_json())
    data["players"][0] = name
    path = tmp_path / file
    path.write_text(json.dumps(data), "utf-8")
    return path


# ---------------------------------------------------------------------- item 3: links


@pytest.mark.parametrize("force", [False, True])
def test_convert_never_writes_through_a_dangling_link(tmp_path: Path, force: bool) -> None:
    link = tmp_path / "out.sgf"
    link.symlink_to(tmp_path / "victim.sgf")
    ran = run(
        [*BGKIT, "convert", str(SAMPLE), str(link), *(["--force"] if force else [])],
        seconds=30,
        memory=2 * GIB,
    )
    assert ran.code == 2
    assert ran.lines == [
        f"bgkit: {link}: a symbolic link (to '{tmp_path / 'victim.sgf'}'); bgkit never"
        " writes through a link: name the file itself"
    ]
    assert not (tmp_path / "victim.sgf").exists()
    assert link.is_symlink()


def test_a_link_to_a_file_is_not_followed_either(tmp_path: Path) -> None:
    victim = tmp_path / "victim.mat"
    victim.write_bytes(b"precious")
    link = tmp_path / "out.mat"
    link.symlink_to(victim)
    with pytest.raises(OSError, match="never writes through a link"):
        write_atomic(link, b"new", force=True)
    assert victim.read_bytes() == b"precious" and link.is_symlink()
    write_atomic(victim, b"new", force=True)  # the file itself, named: written
    assert victim.read_bytes() == b"new"


def test_sgf_never_writes_a_name_as_lines(tmp_path: Path) -> None:
    """A line break in a name would be a line of the SGF file the attacker chooses."""
    source = evil_json(tmp_path)
    target = tmp_path / "out.sgf"
    ran = run([*BGKIT, "convert", str(source), str(target)], seconds=30, memory=2 * GIB)
    assert ran.code == 2
    assert len(ran.lines) == 1
    assert "an SGF file cannot hold the player name" in ran.lines[0]
    assert "(line break U+000A)" in ran.lines[0]
    assert not target.exists()


def test_batch_output_is_never_a_link(tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    (tmp_path / "out.csv").symlink_to(tmp_path / "elsewhere.csv")
    ran = run(
        [*BGKIT, "verify", str(SAMPLE), "--output", str(tmp_path / "out.csv")],
        seconds=30,
        memory=2 * GIB,
    )
    assert ran.code == 2, ran.stderr
    assert ran.lines == [
        f"bgkit: {tmp_path / 'out.csv'}: a symbolic link; bgkit never writes through a link:"
        " name the file itself"
    ]
    assert not (tmp_path / "elsewhere.csv").exists()
