"""gnubg's own analysed SGF, read by bgkit, against gnubg's ``show statistics match``.

The references (``tests/data/sgf_analysis``, made by ``tests/make_sgf_references.py``) are
matches and money sessions GNU Backgammon played, analysed (0-ply and 2-ply) and saved
itself, with the statistics table it printed in the same session: ``analysis_from_file``
on the SGF must give every per-player figure of that table within its printed decimals.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from debian_gnubg import debian_gnubg, run_commands
from gnubg_reference import parse_stats_text

from bgkit.analysis.match import Analysis, analysis_from_file
from bgkit.formats.sgf import parse_sgf

DATA = Path(__file__).parent / "data" / "sgf_analysis"
REFERENCES = sorted(p.name[: -len(".sgf.gz")] for p in DATA.glob("*.sgf.gz"))
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def load(name: str) -> tuple[Analysis, dict[str, dict[str, list[str]]]]:
    text = gzip.decompress((DATA / f"{name}.sgf.gz").read_bytes()).decode("utf-8")
    match = parse_sgf(text, source_name=f"{name}.sgf")
    table = parse_stats_text((DATA / f"{name}.stats.txt").read_text(), list(match.players))
    return analysis_from_file(match), table


def numbers(cell: str) -> list[float]:
    return [float(x) for x in _NUMBER.findall(cell)]


def close(mine: float, printed: str, scale: float = 1.0) -> bool:
    """``mine`` (times ``scale``) is the number gnubg printed, to its last decimal."""
    decimals = len(printed.partition(".")[2]) if "." in printed else 0
    return abs(round(mine * scale, 9) - float(printed)) <= 0.5 * 10**-decimals + 1e-9


# gnubg's row -> bgkit's players column, or (count column, EMG column) for a cube error row
COUNTS = {
    ("Chequerplay statistics", "Total moves"): "total_moves",
    ("Chequerplay statistics", "Unforced moves"): "unforced_moves",
    ("Chequerplay statistics", "Moves marked doubtful"): "doubtful",
    ("Chequerplay statistics", "Moves marked bad"): "bad",
    ("Chequerplay statistics", "Moves marked very bad"): "very_bad",
    ("Luck statistics", "Rolls marked very lucky"): "very_lucky",
    ("Luck statistics", "Rolls marked lucky"): "lucky",
    ("Luck statistics", "Rolls marked unlucky"): "unlucky",
    ("Luck statistics", "Rolls marked very unlucky"): "very_unlucky",
    ("Cube statistics", "Total cube decisions"): "cube_decisions",
    ("Cube statistics", "Close or actual cube decisions"): "close_cube_decisions",
    ("Cube statistics", "Doubles"): "doubles",
    ("Cube statistics", "Takes"): "takes",
    ("Cube statistics", "Passes"): "passes",
}
CUBE_ERRORS = {
    "Missed doubles below CP": "missed_doubles_below_cp",
    "Missed doubles above CP": "missed_doubles_above_cp",
    "Wrong doubles below DP": "wrong_doubles_below_dp",
    "Wrong doubles above TG": "wrong_doubles_above_tg",
    "Wrong takes": "wrong_takes",
    "Wrong passes": "wrong_passes",
}
TOTALS = {  # (section, row start) -> (EMG column, MWC-or-points column)
    ("Chequerplay statistics", "Error total"): ("checker_error_emg", "checker_error_mwc"),
    ("Luck statistics", "Luck total"): ("luck_emg", "luck_mwc"),
    ("Cube statistics", "Error total"): ("cube_error_emg", "cube_error_mwc"),
    ("Overall statistics", "Error total"): ("error_emg", "error_mwc"),
}


def differences(result: Analysis, table: dict[str, dict[str, list[str]]]) -> list[str]:
    """Every figure of gnubg's table that bgkit's analysis does not give, as text."""
    return json_differences(result.to_dict(), table)


def json_differences(result: dict[str, Any], table: dict[str, dict[str, list[str]]]) -> list[str]:
    """The same, from the analysis as JSON (``Analysis.to_dict``, ``analyze --json``)."""
    wrong: list[str] = []
    money = not result["match"]["length"]
    rows = result["moves"]
    for p, row in enumerate(result["players"]):
        checks: list[tuple[str, float, str, float]] = []  # what, mine, printed, scale
        for (section, label), column in COUNTS.items():
            checks.append((label, row[column], table[section][label][p], 1.0))
        for label, column in CUBE_ERRORS.items():
            key = next(k for k in table["Cube statistics"] if k.startswith(label))
            printed = _NUMBER.findall(table["Cube statistics"][key][p])
            checks.append((label, row[column], printed[0], 1.0))
            if len(printed) > 1:  # "1 (-0.035 ( -0.035))": the count, EMG, MWC or points
                kind = label.lower().replace("doubles", "double").replace("takes", "take")
                kind = kind.replace("passes", "pass").replace(" cp", " CP").replace(" dp", " DP")
                kind = kind.replace(" tg", " TG")
                mine = sum(
                    r["cube_error_emg"]
                    for r in rows
                    if r["player"] == p and r["cube_error_kind"] == kind
                )
                checks.append((f"{label} EMG", -mine, printed[1], 1.0))
        for (section, start), (emg, other) in TOTALS.items():
            key = next(k for k in table[section] if k.startswith(start))
            cell = _NUMBER.findall(table[section][key][p])
            sign = 1.0 if section == "Luck statistics" else -1.0
            checks.append((f"{section}: {key} EMG", sign * row[emg], cell[0], 1.0))
            unit, scale = ("points", 1.0) if money else ("MWC %", 100.0)
            checks.append((f"{section}: {key} {unit}", sign * row[other], cell[1], scale))
        key = next(k for k in table["Overall statistics"] if k.startswith("Error rate"))
        rate = _NUMBER.findall(table["Overall statistics"][key][p])[0]
        checks.append(("overall error rate mEMG", -row["error_rate_memg"], rate, 1.0))
        for what, mine, printed, scale in checks:
            if not close(float(mine), printed, scale):
                wrong.append(f"{row['name']}: {what}: bgkit {mine!r}, gnubg {printed}")
    return wrong


@pytest.mark.parametrize("name", REFERENCES)
def test_file_analysis_gives_gnubgs_statistics(name: str) -> None:
    result, table = load(name)
    assert differences(result, table) == []


def test_references_cover_both_kinds_and_depths() -> None:
    assert {n.split(".")[0][:5] for n in REFERENCES} == {"match", "money"}
    assert {n.split(".")[1] for n in REFERENCES} == {"0ply", "2ply"}


@pytest.mark.parametrize("name", ["match7.0ply", "money.0ply"])
def test_the_command_line_json_gives_gnubgs_statistics(name: str, tmp_path: Path) -> None:
    """``bgkit analyze X.sgf --use-file-analysis --json -``."""
    import json

    from click.testing import CliRunner

    from bgkit.cli import main

    path = tmp_path / f"{name}.sgf"
    path.write_bytes(gzip.decompress((DATA / f"{name}.sgf.gz").read_bytes()))
    run = CliRunner().invoke(main, ["analyze", str(path), "--use-file-analysis", "--json", "-"])
    assert run.exit_code == 0, run.output
    result = json.loads(run.output)
    names = result["match"]["players"]
    table = parse_stats_text((DATA / f"{name}.stats.txt").read_text(), names)
    assert json_differences(result, table) == []


@pytest.mark.parametrize("name", ["money.0ply", "match5.0ply"])
def test_bgkits_own_analysis_of_the_same_record_gives_gnubgs_statistics(name: str) -> None:
    """The record alone, analysed by bgkit with gnubg at the reference's depth: the same
    table (money: Jacoby from the SGF's rules, a beaver taken, the beaverer's cube after
    it counted as gnubg's statistics count it)."""
    from bgkit.analysis.match import analyze

    _, table = load(name)
    text = gzip.decompress((DATA / f"{name}.sgf.gz").read_bytes()).decode("utf-8")
    match = parse_sgf(text, source_name=f"{name}.sgf")
    assert differences(analyze(match, plies=0, jobs=1), table) == []


def test_bgkits_2_ply_luck_is_gnubgs_on_the_rolls_of_a_match() -> None:
    """The luck of every roll, bgkit's 2-ply analysis of the record (gnubg's own ``analyse
    move``, action by action) against the LU[] gnubg wrote (five decimals). gnubg wrote
    this file in the session that played the match, whose cache held the play's searches:
    game 2's 65 of Alice has 0.00734 there and 0.00733 in gnubg's one-thread analysis of
    the record alone, which bgkit's is; so one unit of the fifth decimal may part them."""
    from bgkit.analysis.match import analyze

    name = "match3.2ply"
    text = gzip.decompress((DATA / f"{name}.sgf.gz").read_bytes()).decode("utf-8")
    match = parse_sgf(text, source_name=f"{name}.sgf")
    theirs = [
        r
        for r in analysis_from_file(match).rows
        if r["action"] == "move" and r["luck_emg"] is not None
    ]
    mine = [
        r
        for r in analyze(match, plies=2, jobs=1).rows
        if r["action"] == "move" and r["luck_emg"] is not None
    ]
    assert len(mine) == len(theirs) == 205
    for a, b in zip(mine, theirs, strict=True):
        assert (a["game"], a["player"], a["dice"]) == (b["game"], b["player"], b["dice"])
        assert a["luck_emg"] == pytest.approx(b["luck_emg"], abs=1.01e-5), a  # (five decimals)


@pytest.mark.skipif(
    debian_gnubg() is None, reason="GNU Backgammon (Debian's gnubg) is not installed"
)
def test_a_roll_gnubg_lists_one_play_for_is_forced_as_gnubg_counts_it(tmp_path: Path) -> None:
    """gnubg's statistics take its list of the roll's plays (``A``) for the plays there
    were: a move is unforced when the list has more than one (``updateStatisticsMove``).
    A record whose list of a roll with 21 legal plays holds the play made alone: gnubg
    loads it and counts that move forced, its error nowhere; so does bgkit."""
    text = gzip.decompress((DATA / "match5.0ply.sgf.gz").read_bytes()).decode("utf-8")
    found = re.search(r"A\[([1-9][0-9]*)\]((?:\[[^\]]*\]){6,})", text)
    assert found is not None
    played = re.findall(r"\[([^\]]*)\]", found[2])[int(found[1])]
    edited = tmp_path / "edited.sgf"
    edited.write_text(f"{text[: found.start()]}A[0][{played}]{text[found.end() :]}")
    shown = run_commands(
        ["set display off", "set sound enable off", f"load match {edited}",
         "show statistics match"]
    ).stdout  # fmt: skip
    match = parse_sgf(edited.read_text(), source_name="edited.sgf")
    table = parse_stats_text(shown, list(match.players))
    before = parse_stats_text((DATA / "match5.0ply.stats.txt").read_text(), list(match.players))
    unforced = ("Chequerplay statistics", "Unforced moves")
    assert table[unforced[0]][unforced[1]] != before[unforced[0]][unforced[1]]
    # (gnubg loading an SGF sums each roll's luck as written, five decimals: Bob's
    # +9.538% MWC where its session printed +9.537%, the sum bgkit reads from GS)
    wrong = differences(analysis_from_file(match), table)
    assert [w for w in wrong if "Luck total" not in w] == []
