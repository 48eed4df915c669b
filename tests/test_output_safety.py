"""Issue 29, items 2 and 3: output that cannot be forged, writes that never follow a link.

Each reproducer is made here and run as a whole command under resource limits
(:mod:`bounded`): exit code, the line printed, time.
"""

from __future__ import annotations

import json
import warnings
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


# ---------------------------------------------------------------------- item 2: names


def test_a_name_cannot_forge_lines_or_reach_the_terminal_raw(tmp_path: Path) -> None:
    source = evil_json(tmp_path)
    ran = run([*BGKIT, "verify", str(source)], seconds=30, memory=2 * GIB)
    assert ran.code == 0, ran.stderr
    assert len(ran.lines) == 4  # three notes and the summary: nothing forged
    assert not any(line.startswith("fake.mat") for line in ran.lines)
    assert not any(ch in ran.stderr for ch in "\x1b\x07\x08\x00")
    escaped = "gnubg\\nfake.mat:1:1: note: all checked\\x1b[2K\\x07\\x08\\x00"
    assert f"resigns (game 4, move 47, {escaped})" in ran.lines[1]
    # JSON keeps the name as data
    ran = run([*BGKIT, "verify", "--json", str(source)], seconds=30, memory=2 * GIB)
    players = {json.loads(line)["player"] for line in ran.stdout.splitlines()}
    assert FORGED in players


def test_a_file_name_cannot_forge_lines(tmp_path: Path) -> None:
    illegal = SAMPLE.parent / "fixtures" / "handwritten_3pt_illegal1.mat"
    name = "x\nfake.mat:1:1: note: all checked\r\x1b[1A.mat"
    (tmp_path / name).write_bytes(illegal.read_bytes())
    ran = run([*BGKIT, "verify", name], seconds=30, memory=2 * GIB, cwd=tmp_path)
    assert ran.code == 1
    shown = "x\\nfake.mat:1:1: note: all checked\\r\\x1b[1A.mat"
    assert ran.lines[0].startswith(f"{shown}:8:34: error: illegal play 24/18")
    assert all(line.startswith(f"{shown}:") for line in ran.lines[:-1])  # 1 error, 1 note
    assert len(ran.lines) == 3 and ran.lines[-1].startswith("1 file(s)")
    ran = run([*BGKIT, "convert", name, "out.sgf"], seconds=30, memory=2 * GIB, cwd=tmp_path)
    assert ran.code == 1 and len(ran.lines) == 2
    assert ran.lines[1].startswith(f"bgkit: {shown}: 1 issue(s); not converted")


def test_a_right_to_left_override_shows_itself(tmp_path: Path) -> None:
    """U+202E would show "\\u202eboB" as "Bob": in the terminal and in the HTML report it
    is shown as an escape, and the HTML isolates names in <bdi>."""
    pytest.importorskip("gnubg")
    source = evil_json(tmp_path, "\u202eboB")
    ran = run(
        [*BGKIT, "analyze", "--plies", "0", str(source), "--html", str(tmp_path / "r.html")],
        seconds=60,
        memory=3 * GIB,
    )
    assert ran.code == 0, ran.stderr
    page = (tmp_path / "r.html").read_text("utf-8")
    assert "\u202e" not in page
    assert "<h1><bdi>\\u202eboB</bdi> vs. <bdi>root</bdi>, 7-point match</h1>" in page
    ran = run([*BGKIT, "analyze", "--plies", "0", str(source)], seconds=60, memory=3 * GIB)
    assert ran.code == 0 and "\u202e" not in ran.stdout
    assert "\\u202eboB" in ran.stdout.splitlines()[1]


# ---------------------------------------------------------------------- item 5: $$$


@pytest.mark.parametrize("name", ["$$$", "$x^{$"])
def test_a_name_matplotlib_would_read_as_math(tmp_path: Path, name: str) -> None:
    pytest.importorskip("gnubg")
    source = evil_json(tmp_path, name)
    ran = run(
        [*BGKIT, "analyze", "--plies", "0", str(source), "--html", str(tmp_path / "r.html")],
        seconds=60,
        memory=3 * GIB,
    )
    assert ran.code == 0, ran.stderr
    assert f"<bdi>{name}</bdi> vs." in (tmp_path / "r.html").read_text("utf-8")


def test_text_decoded_by_a_guess_says_so(tmp_path: Path) -> None:
    """A file pieced together from a UTF-8 writer and a Latin-1 one: each name reads as
    written (no mojibake), and the guess is a note at the first byte that is not UTF-8."""
    data = SAMPLE.read_bytes().replace(b"gnubg", "Kévin".encode(), 1)
    (tmp_path / "mixed.mat").write_bytes(data.replace(b"root", b"Andr\xe9", 1))
    ran = run([*BGKIT, "verify", "mixed.mat"], seconds=30, memory=2 * GIB, cwd=tmp_path)
    assert ran.code == 0
    assert ran.lines[0] == (
        "mixed.mat:6:38: note: not UTF-8 (byte 0xE9): the bytes that are not UTF-8 are read"
        " as Windows-1252, the rest as UTF-8; names may read wrong"
    )
    assert "André resigns" in ran.stderr and "Ã" not in ran.stderr
    ran = run([*BGKIT, "verify", "--json", "mixed.mat"], seconds=30, cwd=tmp_path)
    first = json.loads(ran.stdout.splitlines()[0])
    assert (first["kind"], first["severity"], first["line"]) == ("encoding", "note", 6)
    ran = run([*BGKIT, "convert", "mixed.mat", "m.json"], seconds=30, cwd=tmp_path)
    assert ran.code == 0 and ran.lines[0].startswith("bgkit: note: mixed.mat:6:38: not UTF-8")
    assert json.loads((tmp_path / "m.json").read_text("utf-8"))["players"] == ["Kévin", "André"]
    with pytest.warns(bgkit.errors.DecodingWarning, match="Windows-1252"):
        assert bgkit.read_match(tmp_path / "mixed.mat").players == ("Kévin", "André")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bgkit.read_match(SAMPLE)  # UTF-8: no word
