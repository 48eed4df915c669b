"""The ``bgkit`` command line: output, exit codes, and no traceback on any input."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgkit.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "data" / "fixtures"
CLEAN = FIXTURES / "handwritten_3pt.mat"
ILLEGAL = FIXTURES / "handwritten_3pt_illegal1.mat"
SYNTAX = FIXTURES / "handwritten_3pt_syntax3.mat"  # (its header cannot be read)
BAD_LINE = FIXTURES / "handwritten_3pt_syntax2.mat"  # (one line cannot be read)
REAL = sorted((ROOT / "data" / "real" / "mat").iterdir())


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_verify_clean_record() -> None:
    result = run("verify", str(CLEAN))
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == (
        f"{CLEAN}:12:7: note: the match stops at 1-0 of 3 (game 1, move 6)\n"
        "1 file(s), 1 game(s), 14 action(s) checked: 1 clean, 0 with errors, 0 unreadable;"
        " 0 error(s), 1 note(s)\n"
    )
    quiet = run("verify", "-q", str(CLEAN))
    assert quiet.exit_code == 0
    assert quiet.stderr == result.stderr.splitlines(keepends=True)[-1]  # notes hidden


def test_verify_reports_file_line_column() -> None:
    result = run("verify", str(ILLEGAL))
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    assert first == (
        f"{ILLEGAL}:8:34: error: illegal play 24/18 18/12 13/7 10/4 for 66: blocked: 18/12 lands"
        " on a point held by 2 opposing checkers (game 1, move 4, Bob)"
    )


def test_verify_syntax_error_is_one_line_and_exit_2() -> None:
    result = run("verify", str(SYNTAX))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == f"{SYNTAX}:1:4: error: expected 'N point match', found 'pt'"
    assert "Traceback" not in result.stderr


def test_verify_a_line_that_cannot_be_read_is_one_error_and_exit_1() -> None:
    """The rest of the record is read and verified: the line is an error at its place."""
    result = run("verify", str(BAD_LINE))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == f"{BAD_LINE}:9:6: error: dice must be 1-6: '27' (game 1, move 5, Alice)"
    assert lines[1].startswith(f"{BAD_LINE}:10:6: note: 4 later action(s) of game 1 not verified")


def test_verify_missing_file() -> None:
    result = run("verify", "no/such/file.mat")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == "no/such/file.mat: error: No such file or directory"


def test_verify_json_lines() -> None:
    result = run("verify", "--json", str(ILLEGAL))
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[0]["kind"] == "illegal-play"
    for key in ("file", "line", "column", "game", "move", "player", "kind", "message"):
        assert key in rows[0]
    assert (rows[0]["line"], rows[0]["column"], rows[0]["player"]) == (8, 34, "Bob")


SHAPE = ["file", "line", "column", "game", "move", "player", "kind", "severity", "message"]


def test_verify_json_lines_have_one_shape_for_every_record() -> None:
    result = run("verify", "--json", str(CLEAN), str(ILLEGAL), str(SYNTAX))
    assert result.exit_code == 2
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(list(row) == SHAPE for row in rows)
    severities = [(row["kind"], row["severity"]) for row in rows]
    assert severities[0] == ("unfinished-match", "note")
    assert ("illegal-play", "error") in severities
    unreadable = rows[-1]
    assert unreadable == {
        "file": str(SYNTAX),
        "line": 1,
        "column": 4,
        "game": None,
        "move": None,
        "player": None,
        "kind": "unreadable",
        "severity": "error",
        "message": "expected 'N point match', found 'pt'",
    }


def test_verify_strict_summary_adds_up(tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"{i}.mat").write_bytes(ILLEGAL.read_bytes())
    result = run("verify", "--strict", str(tmp_path))
    assert result.stderr.splitlines()[-1] == (
        "3 file(s), 1 game(s), 8 action(s) checked: 0 clean, 1 with errors, 0 unreadable;"
        " 1 error(s), 1 note(s); 2 not checked (--strict stopped at the first error)"
    )


def test_verify_folder_recursively(tmp_path: Path) -> None:
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    (sub / "one.mat").write_bytes(CLEAN.read_bytes())
    (tmp_path / "two.mat").write_bytes(ILLEGAL.read_bytes())
    (tmp_path / "notes.pdf").write_bytes(b"%PDF")
    result = run("verify", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1].endswith(
        ": 1 clean, 1 with errors, 0 unreadable; 1 error(s), 2 note(s)"
    )
    assert result.stderr.splitlines()[-1].startswith("2 file(s), 2 game(s), ")


def test_verify_strict_stops_at_first_issue(tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"{i}.mat").write_bytes(ILLEGAL.read_bytes())
    result = run("verify", "--strict", str(tmp_path))
    assert result.exit_code == 1
    issue_lines = [line for line in result.stderr.splitlines() if ": illegal play" in line]
    assert len(issue_lines) == 1


def test_show_prints_every_notation() -> None:
    result = run("show", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
    assert result.exit_code == 0
    assert "4HPwATDgc/ABMA" in result.stdout
    assert "cInqAAAAAAAE" in result.stdout
    assert "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10" in result.stdout
    assert "board:" in result.stdout


def test_moves_lists_every_play() -> None:
    result = run("moves", "4HPwATDgc/ABMA", "31")
    assert result.exit_code == 0
    plays = result.stdout.splitlines()
    assert len(plays) == 16
    assert "8/5 6/5" in plays


def test_moves_json() -> None:
    result = run("moves", "--json", "4HPwATDgc/ABMA", "6-6")
    data = json.loads(result.stdout)
    assert data["count"] == len(data["plays"]) == 11  # as gnubg-nn counts them
    assert {"play", "steps", "xgid"} <= set(data["plays"][0])


def test_moves_dance() -> None:
    # player on roll has 2 checkers on the bar against a closed board
    closed = "XGID=bBBBBBBC----------------m-:0:0:-1:00:0:0:0:0:10"
    result = run("moves", closed, "66")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("no legal play for 66")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("show", "garbage"), "bgkit: <argument 1>:1:1: unknown position notation"),
        (("moves", "4HPwATDgc/ABMA", "37"), "bgkit: dice:1:1: dice must be two digits 1-6: '37'"),
        (("moves", "4HPwATDgc/ABMA"), "bgkit: no dice given and the position has none"),
    ],
)
def test_bad_input_is_one_line(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert len(result.stderr.splitlines()) == 1


def test_python_dash_m() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bgkit", "moves", "4HPwATDgc/ABMA", "21"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "13/11 6/5" in out.stdout.splitlines()


def _mutate(data: bytes, rng: random.Random) -> bytes:
    """Damage a record: flip bytes, cut it, drop or repeat lines, or re-encode it."""
    kind = rng.randrange(5)
    if kind == 0 and data:
        buf = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        return bytes(buf)
    if kind == 1:
        return data[: rng.randrange(len(data) + 1)]
    lines = data.splitlines(keepends=True)
    if kind == 2 and lines:
        del lines[rng.randrange(len(lines))]
        return b"".join(lines)
    if kind == 3 and lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[rng.randrange(len(lines))])
        return b"".join(lines)
    return data.decode("utf-8", "replace").encode("utf-16")


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1), index=st.integers(0, len(REAL) - 1))
def test_damaged_records_never_crash_verify(tmp_path: Path, seed: int, index: int) -> None:
    rng = random.Random(seed)
    path = tmp_path / f"damaged{REAL[index].suffix}"
    original = _mutate(REAL[index].read_bytes(), rng)
    path.write_bytes(original)
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1, 2)
    assert "Traceback" not in result.stderr
    assert path.read_bytes() == original  # never changes the user's file


# ---------------------------------------------------------------- convert


def test_convert_mat_to_sgf_to_json_and_back(tmp_path: Path) -> None:
    from bgkit.formats import read_match

    sgf, js, back = tmp_path / "m.sgf", tmp_path / "m.json", tmp_path / "back.mat"
    assert run("convert", str(CLEAN), str(sgf)).exit_code == 0
    assert run("convert", str(sgf), str(js)).exit_code == 0
    result = run("convert", str(js), str(back))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.strip().endswith("1 game(s) as mat")
    assert read_match(back) == read_match(CLEAN)


def test_convert_refuses_to_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "out.mat"
    target.write_text("keep me")
    result = run("convert", str(CLEAN), str(target))
    assert result.exit_code == 2
    assert result.stderr == f"bgkit: {target}: exists; use --force to overwrite it\n"
    assert target.read_text() == "keep me"
    assert run("convert", "--force", str(CLEAN), str(target)).exit_code == 0
    from bgkit.formats import read_match

    assert target.read_text().startswith(" 3 point match\n")
    assert read_match(target) == read_match(CLEAN)


def test_convert_refuses_a_record_that_fails_verification(tmp_path: Path) -> None:
    target = tmp_path / "out.sgf"
    result = run("convert", str(ILLEGAL), str(target))
    assert result.exit_code == 1
    assert "not converted (use --force" in result.stderr
    assert not target.exists()
    forced = run("convert", "--force", str(ILLEGAL), str(target))
    assert forced.exit_code == 0
    assert forced.stderr.startswith("warning: ")
    assert target.exists()


def test_convert_unknown_output_format(tmp_path: Path) -> None:
    result = run("convert", str(CLEAN), str(tmp_path / "out.pdf"))
    assert result.exit_code == 2
    assert "cannot tell the output format" in result.stderr
    assert not list(tmp_path.iterdir())


def test_convert_with_explicit_formats(tmp_path: Path) -> None:
    source = tmp_path / "record.dat"
    source.write_bytes(CLEAN.read_bytes())
    target = tmp_path / "record.out"
    result = run("convert", "--from", "mat", "--to", "json", str(source), str(target))
    assert result.exit_code == 0, result.stderr
    document = json.loads(target.read_text())
    assert document["format"] == "bgkit-match"
    assert document["players"] == ["Alice", "Bob"]


def test_convert_broken_input_leaves_no_file(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    result = run("convert", str(SYNTAX), str(target))
    assert result.exit_code == 2
    assert result.stderr == f"bgkit: {SYNTAX}:1:4: expected 'N point match', found 'pt'\n"
    assert not target.exists()


def test_quiet_hides_notes_from_json_too() -> None:
    loud = [json.loads(line) for line in run("verify", "--json", str(ILLEGAL)).stdout.splitlines()]
    quiet = run("verify", "-q", "--json", str(ILLEGAL))
    rows = [json.loads(line) for line in quiet.stdout.splitlines()]
    assert {row["severity"] for row in loud} == {"error", "note"}
    assert rows == [row for row in loud if row["severity"] == "error"]
    assert quiet.exit_code == 1
