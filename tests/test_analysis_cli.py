"""``bgkit analyze``: outputs, refusal to overwrite, one-line errors with exit code 2."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgkit.analysis.match import MOVE_COLUMNS
from bgkit.cli.analyze import analyze

pytest.importorskip("gnubg")

ROOT = Path(__file__).resolve().parent.parent
RECORD = str(ROOT / "tests" / "data" / "analysis" / "example_a.mat")


def run(*args: str) -> tuple[int, str, str]:
    """``bgkit analyze ARGS --jobs 1``, a quick look (0-ply) unless a depth is given."""
    quick = [] if {"--plies", "--strength"} & set(args) else ["--plies", "0"]
    result = CliRunner().invoke(analyze, [*args, *quick, "--jobs", "1"])
    return result.exit_code, result.stdout, result.stderr


def test_json_to_stdout() -> None:
    code, out, err = run(RECORD, "--json", "-")
    assert code == 0, err
    doc = json.loads(out)
    ann, bo = doc["players"]
    assert (ann["name"], bo["name"]) == ("Ann Lee", "Bo")
    assert ann["unforced_moves"] == 6
    assert ann["checker_error_emg"] == pytest.approx(0.186, abs=5e-4)
    assert ann["checker_error_rate_memg"] == pytest.approx(30.9, abs=0.05)
    assert bo["cube_error_emg"] == pytest.approx(1.526, abs=5e-4)
    assert ann["luck_emg"] == pytest.approx(0.391, abs=5e-4)
    assert len(doc["moves"]) == 19 and doc["moves"][0]["dice"] == "31"
    assert doc["settings"]["checker_plies"] == 0


def test_json_has_a_move_a_line_and_the_analysis_data() -> None:
    from bgkit.analysis.match import analyze as analyse_match
    from bgkit.formats import read_match

    code, out, err = run(RECORD, "--json", "-")
    assert code == 0, err
    lines = out.splitlines()
    doc = json.loads(out)
    assert len(lines) == 2 + len(doc) + sum(
        len(v) + 1 for v in doc.values() if isinstance(v, list) and v
    )  # "{", a key a line, a list's items a line each and its "]", "}"
    at = lines.index(' "moves": [') + 1
    listed = [json.loads(line.strip().rstrip(",")) for line in lines[at : at + len(doc["moves"])]]
    assert listed == doc["moves"] and lines[at + len(listed)] in (" ],", " ]")  # a move a line
    expected = analyse_match(read_match(RECORD), 0, jobs=1).to_dict()
    expected.pop("seconds"), doc.pop("seconds")
    assert doc == json.loads(json.dumps(expected))  # what json.dumps(indent=1) wrote


def test_json_holds_the_candidates_and_cube_decisions() -> None:
    code, out, err = run(RECORD, "--json", "-", "--candidates", "3")
    assert code == 0, err
    moves = json.loads(out)["moves"]
    rolls = [m for m in moves if m.get("candidates")]
    assert len(rolls) >= 10
    for m in rolls:
        listed = m["candidates"]
        assert 1 <= len(listed) <= 4  # three best, and the play made after them
        assert sum(c["played"] for c in listed) == 1
        assert listed[0]["difference"] == 0.0 and len(listed[0]["probabilities"]) == 5
        assert all(c["level"] == "Cubeful 0-ply" for c in listed)
        played = next(c for c in listed if c["played"])
        assert played["equity"] == pytest.approx(m["equity_played"])
    cubes = [m["cube_decision"] for m in moves if "cube_decision" in m]
    assert cubes and all(c["proper_action"] for c in cubes)
    assert {"No double, take", "Double, pass"} & {c["proper_action"] for c in cubes}


def test_sgf_is_written(tmp_path: Path) -> None:
    code, _, err = run(RECORD, "--sgf", str(tmp_path / "a.sgf"))
    assert code == 0, err
    assert "A[" in (tmp_path / "a.sgf").read_text() and "DA[" in (tmp_path / "a.sgf").read_text()


def test_strength_names_a_depth() -> None:
    code, out, err = run(RECORD, "--strength", "expert", "--json", "-")
    assert code == 0, err
    assert json.loads(out)["settings"]["checker_plies"] == 0
    code, _, err = run(RECORD, "--strength", "world-class", "--plies", "2")
    assert code == 2 and "give --plies or --strength, not both" in err


def test_thresholds_change_the_marks() -> None:
    def marks(*args: str) -> int:
        code, out, err = run(RECORD, "--json", "-", *args)
        assert code == 0, err
        return sum(1 for m in json.loads(out)["moves"] if m["skill"] or m["cube_skill"])

    assert marks("--thresholds", "0.001,0.002,0.004") > marks() > marks("--thresholds", "1,2,3")
    code, _, err = run(RECORD, "--thresholds", "0.1,0.05")
    assert code == 2 and "three numbers, such as 0.03,0.06,0.12" in err


def test_money_sessions_report_points_per_game() -> None:
    code, out, err = run(str(ROOT / "data" / "dialects" / "money.mat"))
    assert code == 0, err
    assert "points per game" in out and "luck adjusted per game" in out


def test_summary_table() -> None:
    code, out, _ = run(RECORD)
    assert code == 0
    assert "Ann Lee" in out and "Intermediate" in out and "Grandmaster" in out
    assert "checker error rate mEMG" in out and "30.9" in out and "174.9" in out


def test_files_are_written_once_unless_forced(tmp_path: Path) -> None:
    target_json, target_csv = tmp_path / "a.json", tmp_path / "a.csv"
    code, out, err = run(RECORD, "--json", str(target_json), "--csv", str(target_csv))
    assert code == 0 and out == "", err
    assert json.loads(target_json.read_text())["players"][1]["name"] == "Bo"
    rows = list(csv.DictReader(io.StringIO(target_csv.read_text())))
    assert list(rows[0]) == list(MOVE_COLUMNS) and len(rows) == 19
    target_json.write_text("keep me")
    code, _, err = run(RECORD, "--json", str(target_json))
    assert code == 2 and "exists; use --force" in err
    assert target_json.read_text() == "keep me"
    code, _, _ = run(RECORD, "--json", str(target_json), "--force")
    assert code == 0 and json.loads(target_json.read_text())["moves"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "a.json"]  # no temp files


def test_csv_to_stdout() -> None:
    code, out, _ = run(RECORD, "--csv", "-")
    assert code == 0
    assert out.splitlines()[0].split(",")[:3] == ["game", "move", "turn"]


@pytest.mark.parametrize(
    ("fixture", "where", "reason"),
    [
        ("handwritten_3pt_illegal1.mat", ":8:34: ", "cannot analyse: illegal play 24/18 18/12"),
        ("handwritten_3pt_syntax1.mat", ":10:11: ", "expected '/' in a checker play"),
        ("handwritten_3pt_syntax3.mat", ":1:4: ", "expected 'N point match'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(fixture: str, where: str, reason: str) -> None:
    path = str(ROOT / "data" / "fixtures" / fixture)
    code, out, err = run(path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"bgkit: {path}{where}")
    assert reason in err


def test_missing_file() -> None:
    code, _, err = run("no/such.mat")
    assert code == 2 and err == "bgkit: no/such.mat: No such file or directory\n"


def test_no_noise_at_pool_shutdown() -> None:
    # Two analyses at once on two cores: the worker pool's shutdown raced the
    # interpreter's exit and printed "OSError: [Errno 9] Bad file descriptor" in about
    # one run in three under such load.
    import subprocess
    import sys

    sample = str(ROOT / "data" / "sample.mat")
    command = [sys.executable, "-m", "bgkit", "analyze", sample, "--plies", "0"]
    for _ in range(3):
        runs = [
            subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        for proc in runs:
            _, err = proc.communicate(timeout=120)
            assert proc.returncode == 0
            assert err == "", err


def test_met_names_the_match_equity_table() -> None:
    code, out, err = run(RECORD, "--met", "WOOLSEY", "--json", "-")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["settings"]["met"] == "woolsey"
    assert "woolsey match equity table" in doc["settings"]["description"]
    _, default, _ = run(RECORD, "--json", "-")
    assert json.loads(default)["settings"]["met"] == "Kazaross-XG2"
    mwc = [p["luck_mwc"] for p in doc["players"]]
    assert mwc != [p["luck_mwc"] for p in json.loads(default)["players"]]
    code, _, err = run(RECORD, "--met", "zadeh")
    assert code == 2 and "no match equity table 'zadeh': choose one of Kazaross-XG2," in err
    code, _, err = run(RECORD, "--met", "woolsey", "--use-file-analysis")
    assert code == 2 and err.count("\n") == 1 and "--met is for GNU Backgammon's analysis" in err
