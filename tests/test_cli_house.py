"""The command line as a new user meets it (issue 30): a folder converted into a folder,
``--to`` in any case, help that says FOLDER, a resumed ``verify -o`` that says what it
reused, an interrupted season that says what was kept, stdin's place said once, ``show``
that names an argument by its place, shows the good ones before a bad one, and names the
players, and ``--version``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import bgkit
from bgkit.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "data" / "fixtures"
CLEAN = FIXTURES / "handwritten_3pt.mat"
ILLEGAL = FIXTURES / "handwritten_3pt_illegal1.mat"
SYNTAX = FIXTURES / "handwritten_3pt_syntax3.mat"  # nothing of it is a record
XG = ROOT / "data" / "real" / "xg" / "kevung__gbf__test.xg"
OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    records = tmp_path / "records"
    (records / "club").mkdir(parents=True)
    for path in (CLEAN, ILLEGAL, SYNTAX):
        shutil.copy(path, records / path.name)
    shutil.copy(XG, records / "club" / XG.name)
    (records / "notes.txt").write_text("not a record\n")
    return records


def test_convert_a_folder_into_a_folder(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "as sgf"
    result = run("convert", str(folder), str(out), "--to", "SGF", "--jobs", "2")
    assert result.exit_code == 2  # one record does not read
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert written == ["club/kevung__gbf__test.sgf", "handwritten_3pt.sgf"]  # names kept
    lines = result.stderr.splitlines()
    assert lines[-1] == f"{folder} -> {out}: 2 of 4 record(s) converted as sgf, 2 not converted"
    refusals = [line for line in lines if line.startswith("bgkit: ")]
    assert len(refusals) == 2  # one line per record refused
    assert refusals[0].startswith(f"bgkit: {folder / ILLEGAL.name}:8:34: error: illegal play")
    assert refusals[0].endswith("not converted (1 error(s); --force converts it)")
    assert refusals[1] == f"bgkit: {folder / SYNTAX.name}:1:4: expected 'N point match', found 'pt'"
    # each file is what converting it alone writes
    for name, source in [("handwritten_3pt.sgf", CLEAN), ("club/kevung__gbf__test.sgf", XG)]:
        alone = tmp_path / "alone.sgf"
        assert run("convert", "--force", str(source), str(alone)).exit_code == 0
        assert (out / name).read_bytes() == alone.read_bytes(), name
    # a rerun refuses every existing file, one line each, and changes nothing
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*.sgf")}
    again = run("convert", str(folder), str(out), "--to", "sgf", "--jobs", "1")
    assert again.exit_code == 2
    assert sum("exists; use --force" in line for line in again.stderr.splitlines()) == 2
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.sgf")} == before


def test_convert_a_folder_needs_to_and_never_writes_over_its_records(folder: Path) -> None:
    result = run("convert", str(folder), str(folder.parent / "out"))
    assert result.exit_code == 2
    assert result.stderr == f"bgkit: {folder} is a folder: give --to (json, mat, ogxm, sgf)\n"
    to_stdout = run("convert", str(folder), "-", "--to", "json")
    assert to_stdout.exit_code == 2 and "not to stdout" in to_stdout.stderr
    original = (folder / CLEAN.name).read_bytes()
    onto = run("convert", "--force", str(folder), str(folder), "--to", "mat", "--jobs", "1")
    assert onto.exit_code == 2
    assert "would replace a record being converted" in onto.stderr
    assert (folder / CLEAN.name).read_bytes() == original


def test_to_takes_any_case_like_the_extension(tmp_path: Path) -> None:
    for to in ("SGF", "Sgf", "sgf"):
        target = tmp_path / f"{to}.out"
        result = run("convert", "--to", to, str(CLEAN), str(target))
        assert result.exit_code == 0, result.stderr
        assert target.read_text().startswith("(;FF[4]")
    assert run("convert", str(CLEAN), str(tmp_path / "upper.SGF")).exit_code == 0


def test_help_says_folder_where_a_folder_is_taken() -> None:
    for command in ("convert", "analyze"):
        usage = run(command, "--help").stdout.splitlines()[0]
        assert "FILE|FOLDER" in usage, usage


def test_a_resumed_verify_says_what_it_reused(folder: Path, tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    output = tmp_path / "results.csv"
    first = run("verify", "-q", "-o", str(output), "--jobs", "1", str(folder / CLEAN.name))
    assert "done before" not in first.stderr
    again = run("verify", "-q", "-o", str(output), "--jobs", "1", str(folder))
    summary = again.stderr.splitlines()[-1]
    assert (
        f"; 1 of the files were done before and are unchanged: their results come from"
        f" {output}, 3 checked now" in summary
    )


def test_an_interrupted_season_says_what_was_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("gnubg")
    pd = pytest.importorskip("pandas")
    import bgkit.season

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(bgkit.season, "analyze_season", interrupted)
    output = tmp_path / "season.csv"
    pd.DataFrame({"file": ["a.mat", "a.mat", "b.mat"], "pr": [1.0, 2.0, 3.0]}).to_csv(output)
    kept = run("analyze", str(FIXTURES), "-o", str(output))
    assert kept.exit_code == 130
    assert kept.stderr.splitlines() == [
        f"bgkit: 2 file(s) analysed so far are kept in {output}; rerun the same command to go"
        " on from there",
        "bgkit: interrupted",
    ]
    lost = run("analyze", str(FIXTURES))
    assert lost.exit_code == 130
    assert "nothing is kept: with --output FILE" in lost.stderr


def test_stdin_is_named_once() -> None:
    result = run("verify", "-", stdin="garbage here\n")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        "-:1:1: error: not a match record bgkit can read (known formats: mat, sgf, json, xg,"
        " ogxm, gmd, javafibs, gnubg-text)"
    )


def test_show_names_a_bad_notation_by_its_place_and_shows_the_good_ones() -> None:
    bad = OPENING[:-2] + "1:49:"
    result = run("show", OPENING, bad)
    assert result.exit_code == 2
    assert "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10" in result.stdout  # GOOD
    assert (
        result.stderr == "bgkit: <argument 2>:1:51: unexpected ':' in XGID; expected end of input\n"
    )
    both_bad = run("show", "nonsense", OPENING, bad)
    assert both_bad.exit_code == 2
    assert [line.split(":")[0] for line in both_bad.stderr.splitlines()] == ["bgkit"] * 2
    assert OPENING in both_bad.stdout
    missing = run("show", "exports/missing.txt")
    assert missing.stderr == (
        "bgkit: exports/missing.txt: no such file (and not a position notation)\n"
    )


def test_show_names_the_players_when_the_input_does() -> None:
    fibs = (
        "board:Ann:Bob:7:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:5:2:5:2:1"
        ":1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1"
    )
    text = run("show", fibs).stdout
    assert "O: Bob" in text and "X: Ann" in text  # FIBS' "player" is X, as in gnubg
    export = ROOT / "data" / "real" / "gnubg_txt"
    path = next(p for p in sorted(export.iterdir()) if p.suffix == ".txt")
    from bgkit.formats.positions import read_exports

    names = read_exports(path)[0].names
    shown = run("show", str(path)).stdout
    assert f"O: {names[0]}" in shown and f"X: {names[1]}" in shown
    assert "player 0" in run("show", OPENING).stdout  # an XGID names nobody


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"bgkit, version {bgkit.__version__}\n"
    assert bgkit.__version__.count(".") == 2
