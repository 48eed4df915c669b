"""Issue 28: ``analyze`` reads a record whose own analysis has one damaged line.

A line of a record's analysis (gnubg's candidate plays in its text export, an ``A`` or
``DA`` value of its SGF) holds no part of the record: the actions are all read. Analysing
the match anew with GNU Backgammon does not need it (a note on stderr says where it is);
the record's own analysis (``--use-file-analysis``) is read without it, and the decision it
belonged to is listed at its line. The records are GNU Backgammon's own exports of
``handwritten_3pt.mat`` (``tests/data/gnubg_text/``), each damaged at one value.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bgkit.cli import main
from bgkit.formats import read_match
from bgkit.formats.sgf_analysis import analysis_fault
from bgkit.verify import IssueKind, verify

DATA = Path(__file__).resolve().parent / "data"
TEXT = DATA / "gnubg_text" / "handwritten_3pt_analysed.txt"
SGF = DATA / "gnubg_text" / "handwritten_3pt_analysed.sgf"
# the chances of gnubg's third candidate for Alice's opening 31 (line 33), one digit an x
CHANCES = "       0.497 0.125 0.005 - 0.503 0.135 0.004"


def damaged(path: Path, tmp_path: Path, old: str, new: str) -> tuple[Path, int, int]:
    """A copy of ``path`` with ``old`` replaced by ``new`` once, and the line and column
    of the first changed character."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    at = text.index(old) + next(i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b)
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    out = tmp_path / path.name
    out.write_text(text.replace(old, new), encoding="utf-8")
    return out, line, column


def analyze(path: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    result = CliRunner().invoke(main, ["analyze", str(path), *args, "--json", "-"])
    return result.exit_code, json.loads(result.stdout) if result.stdout else {}, result.stderr


def moves_but(doc: dict[str, Any], game: int, move: int, player: int) -> list[dict[str, Any]]:
    return [m for m in doc["moves"] if (m["game"], m["move"], m["player"]) != (game, move, player)]


def test_a_damaged_analysis_line_of_a_text_export_is_read_past(tmp_path: Path) -> None:
    path, line, column = damaged(TEXT, tmp_path, CHANCES, CHANCES.replace("0.125", "0.1x5"))
    assert (line, column) == (33, 17)
    match = read_match(path)
    (fault,) = match.read_errors
    assert (fault.line, fault.column, fault.record) == (33, 17, False)
    # verify notes the line (a part of the analysis, no rule broken), and every action is
    # verified
    report = verify(match)
    assert report.ok
    assert [(e.line, e.column, e.kind) for e in report.notes][:1] == [
        (33, 17, IssueKind.UNREADABLE_ANALYSIS)
    ]
    assert [str(n).split(": ", 1)[1] for n in report.notes[1:]] == [
        str(n).split(": ", 1)[1] for n in verify(read_match(TEXT)).notes
    ]
    assert report.actions_checked == verify(read_match(TEXT)).actions_checked
    code, doc, err = analyze(path, "--use-file-analysis")
    assert code == 0, err
    assert err == (
        f"{path}:33:17: note: unexpected 'x5' in gnubg text export; expected number"
        " (a part of the record's own analysis: that decision's analysis is read without it)\n"
    )
    _, whole, _ = analyze(TEXT, "--use-file-analysis")
    # every other decision reads as in the undamaged export (Alice's opening 31 lost the
    # third candidate's chances only)
    assert moves_but(doc, 1, 1, 0) == moves_but(whole, 1, 1, 0)
    assert len(doc["moves"]) == len(whole["moves"])


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        (CHANCES, CHANCES.replace("0.125", "0.1x5"), (33, 17), "expected number"),
        (  # the luck of Bob's 42 (was passed over in silence)
            "Rolled 42 (+0.045):",
            "Rolled 42 (+0.0x5):",
            (70, 1),
            "a line of gnubg's analysis that cannot be read: 'Rolled 42 (+0.0x5):'",
        ),
        (  # the cubeless equity before it (was read as -0.1 in silence)
            "0-ply cubeless equity -0.196 (Money: -0.159)",
            "0-ply cubeless equity -0.1x6 (Money: -0.159)",
            (62, 27),
            "the cubeless equity is not a number: '-0.1x6'",
        ),
    ],
)
def test_each_damaged_analysis_line_of_a_text_export_is_located(
    tmp_path: Path, old: str, new: str, where: tuple[int, int], message: str
) -> None:
    path, line, _ = damaged(TEXT, tmp_path, old, new)
    assert line == where[0]
    match = read_match(path)
    (fault,) = match.read_errors
    assert (fault.line, fault.column, fault.record) == (*where, False)
    assert message in fault.message
    whole = read_match(TEXT)
    assert [g.actions for g in match.games] == [g.actions for g in whole.games]
    code, doc, err = analyze(path, "--use-file-analysis")
    assert code == 0, err
    assert err.startswith(f"{path}:{where[0]}:{where[1]}: note: ")
    assert len(doc["moves"]) == sum(len(g.actions) for g in whole.games)


def test_gnubg_analyses_a_text_export_with_a_damaged_analysis_line(tmp_path: Path) -> None:
    pytest.importorskip("gnubg")
    path, _, _ = damaged(TEXT, tmp_path, CHANCES, CHANCES.replace("0.125", "0.1x5"))
    code, doc, err = analyze(path, "--plies", "0", "--jobs", "1")
    assert code == 0, err
    assert err.startswith(f"{path}:33:17: note: unexpected 'x5' in gnubg text export;")
    assert err.endswith("(a part of the record's own analysis: GNU Backgammon analyses the"
                        " match anew without it)\n")  # fmt: skip
    _, whole, _ = analyze(TEXT, "--plies", "0", "--jobs", "1")
    assert doc["players"] == whole["players"] and doc["moves"] == whole["moves"]


def test_a_damaged_value_of_an_sgf_is_listed_and_the_rest_read(tmp_path: Path) -> None:
    old = "hefe E ver 3 0.550952"
    path, line, _ = damaged(SGF, tmp_path, old, "hefe E ver 3 0.55x952")
    assert line == 2
    code, doc, err = analyze(path, "--use-file-analysis")
    assert code == 0, err
    (entry,) = doc["skipped"]
    assert (entry["game"], entry["move"], entry["name"], entry["dice"], entry["line"]) == (
        1,
        1,
        "Alice",
        "31",
        2,
    )
    assert entry["reason"] == (
        "the record's analysis of it cannot be read: gnubg's candidate play"
        " A[hefe E ver 3 0.55x952 0....] holds '0.55x952', not a number"
    )
    _, whole, _ = analyze(SGF, "--use-file-analysis")
    assert moves_but(doc, 1, 1, 0) == moves_but(whole, 1, 1, 0)
    summary = CliRunner().invoke(main, ["analyze", str(path), "--use-file-analysis"])
    assert summary.exit_code == 0
    assert summary.stdout.splitlines()[-1] == (
        "not analysed: game 1 move 1 (Alice, 31, line 2): the record's analysis of it cannot"
        " be read: gnubg's candidate play A[hefe E ver 3 0.55x952 0....] holds '0.55x952',"
        " not a number"
    )


# gnubg's values of the SGF, each damaged: the value, what it becomes, the fault named
DAMAGED_VALUES = [
    ("LU[0.24330]", "LU[0.2433x]", "gnubg's luck of the roll LU[0.2433x] is not a number"),
    ("A[0][hefe", "A[x][hefe", "gnubg's candidate plays A[x]: the play made is not a number"),
    (  # a digit to str.isdigit, not to int(): it was an internal error
        "A[0][hefe",
        "A[\u00b2][hefe",
        "gnubg's candidate plays A[\u00b2]: the play made is not a number",
    ),
    ("A[0][hefe", "A[99][hefe", "gnubg's candidate plays A[99]: the play made is not among them"),
    (  # the cube decision before Bob's 42
        "DA[E ver 3 0C 1 0.000000 1 0.449048",
        "DA[E ver 3 0C 1 0.000000 1 0.44x048",
        "gnubg's cube analysis DA[E ver 3 0C 1 0.000000 1 ...] holds '0.44x048', not a number",
    ),
    (
        "hefe E ver 3 0.550952",
        "hefe E ver",
        "gnubg's candidate play A[hefe E ver 0.173708 0.01...] is cut short",
    ),
]


@pytest.mark.parametrize(("old", "new", "fault"), DAMAGED_VALUES)
def test_each_damaged_gnubg_value_is_named(old: str, new: str, fault: str) -> None:
    text = SGF.read_text(encoding="utf-8")
    assert old in text
    match = read_match(text=text.replace(old, new, 1), format="sgf")
    faults = [analysis_fault(a) for g in match.games for a in g.actions]
    assert [f for f in faults if f] == [fault]


def test_no_undamaged_gnubg_analysis_is_called_damaged(tmp_path: Path) -> None:
    # gnubg's own SGFs at 0 and 2 plies, money and match, with rollouts of cube decisions
    for gz in sorted((DATA / "sgf_analysis").glob("*.sgf.gz")):
        path = tmp_path / gz.name.removesuffix(".gz")
        path.write_bytes(gzip.decompress(gz.read_bytes()))
        match = read_match(path)
        assert not [a for g in match.games for a in g.actions if analysis_fault(a)], gz.name


def test_an_xg_match_whose_analysis_points_past_its_rollouts_is_analysed(
    tmp_path: Path,
) -> None:
    # a real XG match whose tenth roll's second candidate points to a rollout the file
    # does not hold (no temp.xgr): a part of XG's analysis, the match read without it
    from make_xg_fixtures import archive, real_records, rich_header, with_rolled_out_second

    records = real_records()
    move = [i for i, r in enumerate(records) if r[8] == 3][9]
    records[move] = with_rolled_out_second(records[move])
    path = tmp_path / "r.xg"
    path.write_bytes(rich_header("") + archive({"temp.xg": b"".join(records)}))
    code, doc, err = analyze(path, "--use-file-analysis")
    assert code == 0, err
    assert err == (
        f"{path}: note: game 1: the analysis points to rollout 1, but 'temp.xgr' holds 0"
        f" (record {move + 1} of 'temp.xg', byte 2348) (a part of the record's own analysis:"
        " that decision's analysis is read without it)\n"
    )
    _, whole, _ = analyze(DATA.parent.parent / "data" / "real" / "xg" / "kevung__gbf__test.xg",
                          "--use-file-analysis")  # fmt: skip
    assert doc["players"] == whole["players"]  # (the candidate's rollout counts nowhere)
    assert len(doc["moves"]) == len(whole["moves"])


@pytest.mark.parametrize(("old", "new", "message"), DAMAGED_VALUES)
def test_verify_notes_a_damaged_gnubg_value_at_its_property(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    # a director validating gnubg's SGF learns that its analysis is damaged there: a note
    # (the moves are all read and verified, no rule is broken) at the property's place
    text = SGF.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    key = message.split("[")[0].split()[-1]  # (the property: A, DA or LU)
    at = text.rfind(key + "[", 0, text.index(new) + len(key) + 1)
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    path = tmp_path / "damaged.sgf"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", "--json", str(path)])
    assert result.exit_code == 0, result.output
    whole = CliRunner().invoke(main, ["verify", "--json", str(SGF)])
    rows = [json.loads(row) for row in result.stdout.splitlines()]
    (note,) = [
        r
        for r in rows
        if r not in [{**json.loads(w), "file": str(path)} for w in whole.stdout.splitlines()]
    ]
    assert len(rows) == len(whole.stdout.splitlines()) + 1
    assert (note["line"], note["column"], note["kind"], note["severity"]) == (
        line,
        column,
        "unreadable-analysis",
        "note",
    )
    assert note["message"] == (
        f"{message} (a part of the record's own analysis: every action is read and verified)"
    )
    report = verify(read_match(path))
    assert report.actions_checked == verify(read_match(SGF)).actions_checked


def test_verify_notes_nothing_in_undamaged_gnubg_analysis(tmp_path: Path) -> None:
    paths = [SGF]
    for gz in sorted((DATA / "sgf_analysis").glob("*.sgf.gz")):
        path = tmp_path / gz.name.removesuffix(".gz")
        path.write_bytes(gzip.decompress(gz.read_bytes()))
        paths.append(path)
    for path in paths:
        match = read_match(path)
        assert not match.read_errors, path.name
        assert IssueKind.UNREADABLE_ANALYSIS not in {i.kind for i in verify(match).issues}


class _Counted:
    """``_analysis_faults._CANDIDATES`` counting the lists of candidates it checks."""

    def __init__(self, pattern: Any) -> None:
        self.pattern, self.checked = pattern, 0

    def fullmatch(self, text: str) -> Any:
        self.checked += 1
        return self.pattern.fullmatch(text)


@pytest.mark.parametrize("damage", [None, ("hefe E ver 3 0.550952", "hefe E ver 3 0.55x952")])
def test_a_rolls_candidates_are_checked_once_when_read_and_summed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: tuple[str, str] | None
) -> None:
    """Reading gnubg's SGF and summing its analysis up within ``remembered`` (as a
    season's worker does) checks each roll's list of candidates once: the reader for
    faults, ``analysis_of`` before it keeps the best, the summing up for damaged parts
    (three times, 14 µs each, before; twice without it: the summing up remembers its own),
    with the same analysis and the same damaged part found."""
    from bgkit.analysis.match import analysis_from_file
    from bgkit.formats import _analysis_faults
    from bgkit.formats.sgf import parse_sgf

    path = SGF if damage is None else damaged(SGF, tmp_path, *damage)[0]
    text = path.read_text(encoding="utf-8")
    lists = text.count("]A[")  # (gnubg writes A after the play: ...]A[i][...])
    pattern = _analysis_faults._CANDIDATES

    def read_and_sum() -> tuple[dict[str, Any], list[dict[str, Any]], int]:
        counted = _Counted(pattern)
        monkeypatch.setattr(_analysis_faults, "_CANDIDATES", counted)
        result = analysis_from_file(parse_sgf(text, source_name=path.name), candidates=1)
        return {**result.to_dict(), "seconds": None}, result.skipped, counted.checked

    alone = read_and_sum()
    with _analysis_faults.remembered():
        together = read_and_sum()
    assert together[:2] == alone[:2]
    assert len(together[1]) == (damage is not None)
    assert lists >= 10 and together[2] == lists and alone[2] == 2 * lists
    assert _analysis_faults._VERDICTS.get() is None  # (forgotten after)
