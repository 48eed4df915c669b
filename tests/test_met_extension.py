"""Matches longer than a match equity table: GNU Backgammon extends its table to 64 points
(``matchequity.c``), and so does bgkit (:meth:`bgkit.analysis.met.MatchEquityTable.extended`).

The oracles: what Debian's gnubg prints with ``show matchequitytable`` (made once by
``tests/make_met_reference.py``, committed as ``tests/data/met/gnubg_extended.json``, and
checked against the installed gnubg when there is one), the table the PyPI ``gnubg`` module
holds in memory, and gnubg's own analysis of a 31-point match: its text export (cube
equities in EMG) and its SGF of the same analysis (``DA``: match winning chances), both
written by Debian's gnubg (``tests/make_gnubg_text_data.py``).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from debian_gnubg import debian_gnubg
from make_met_reference import SHOWN, reference

import bgkit
from bgkit.analysis.met import MAX_LENGTH, MET_NAMES, MatchEquityTable, shipped_met
from bgkit.cli import main
from bgkit.formats.annotations import CubeAnalysis
from bgkit.formats.sgf_analysis import analysis_of
from bgkit.position import Position
from bgkit.records import Action, Double, Move

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "data" / "met" / "gnubg_extended.json"
TEXT = ROOT / "tests" / "data" / "gnubg_text"
#: gnubg prints percentages with four decimals; its figures are single-precision floats
PRINTED = 0.00005 + 0.00001


def _printed(
    table: MatchEquityTable, shown: dict[str, list[str]]
) -> list[tuple[str, float, float]]:
    """(where, bgkit's figure in percent, gnubg's printed figure) for every entry shown."""
    out = []
    for i, row in enumerate(shown["pre"]):
        for j, text in enumerate(row.split()):
            out.append(
                (f"pre {i + 1}-away {j + 1}-away", 100 * table.mwc(i + 1, j + 1), float(text))
            )
    for player in (0, 1):
        for j, text in enumerate(shown[f"post{player}"][0].split()):
            if j:  # (1-away, 1-away: no post-Crawford score)
                figure = 100 * _post_crawford(table, player, j + 1)
                out.append((f"post{player} {j + 1}-away", figure, float(text)))
    return out


def _post_crawford(table: MatchEquityTable, player: int, away: int) -> float:
    """MWC of ``player`` needing ``away`` against a 1-away leader after the Crawford game
    (gnubg's ``getMEAtScore`` in a match of ``away + 1`` points)."""
    length = away + 1
    score = (length - 1, 1) if player else (1, length - 1)
    return table.at_score(score, length, player=player)


def test_the_reference_holds_what_it_says() -> None:
    data = json.loads(REFERENCE.read_text())
    assert data["gnubg"].startswith("GNU Backgammon 1.07")
    for name, lengths in SHOWN.items():
        for n in lengths:
            shown = data["tables"][name][str(n)]
            assert len(shown["pre"]) == n and all(len(r.split()) == n for r in shown["pre"])
            assert len(shown["post0"][0].split()) == len(shown["post1"][0].split()) == n


@pytest.mark.parametrize(
    ("name", "length"), [(name, n) for name, lengths in SHOWN.items() for n in lengths]
)
def test_the_extended_table_is_what_gnubg_prints(name: str, length: int) -> None:
    shown = json.loads(REFERENCE.read_text())["tables"][name][str(length)]
    table = shipped_met(name)
    assert table.length < length <= table.max_length == MAX_LENGTH
    entries = _printed(table, shown)
    worst = max(entries, key=lambda e: abs(e[1] - e[2]))
    assert abs(worst[1] - worst[2]) <= PRINTED, worst
    # the table's own figures are kept, the rest is gnubg's extension
    assert table.mwc(3, 5) == table.pre[2][4]
    assert len(entries) == length * length + 2 * (length - 1)


@pytest.mark.skipif(debian_gnubg() is None, reason="Debian's gnubg is not installed")
def test_the_reference_is_what_the_installed_gnubg_prints() -> None:
    program = debian_gnubg()
    assert program is not None
    made = reference(program)
    assert made["tables"] == json.loads(REFERENCE.read_text())["tables"]


_MODULE_TABLES = """
import json, sys
import gnubg
from bgkit.analysis.met import MET_NAMES, met_path
out = {}
for name in MET_NAMES:
    gnubg.command(f'set matchequitytable "{met_path(name)}"')
    out[name] = gnubg.met(64)
sys.stderr.write("TABLES" + json.dumps(out))
"""


@pytest.mark.skipif(importlib.util.find_spec("gnubg") is None, reason="gnubg is not installed")
def test_every_shipped_table_is_extended_as_gnubgs_module_extends_it() -> None:
    """gnubg's table in memory, in a process of its own (a table loaded changes gnubg)."""
    run = subprocess.run(
        [sys.executable, "-c", _MODULE_TABLES],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    tables = json.loads(run.stderr.split("TABLES", 1)[1])
    for name in MET_NAMES:
        pre, post0, post1 = tables[name]
        mine = shipped_met(name).extended()
        assert mine.length == MAX_LENGTH and shipped_met(name).length in (15, 24, 25)
        cells = [
            (a, b) for r, s in zip(mine.pre, pre, strict=True) for a, b in zip(r, s, strict=True)
        ]
        cells += list(zip(mine.post[0], post0, strict=True))
        cells += list(zip(mine.post[1], post1, strict=True))
        worst = max(abs(a - b) for a, b in cells)
        assert worst < 2e-7, name  # (gnubg's single-precision floats)


def test_a_table_as_long_as_gnubgs_is_not_extended() -> None:
    table = shipped_met().extended()
    assert table.extended() is table and table.max_length == MAX_LENGTH
    assert table == MatchEquityTable(table.name, table.pre, table.post)
    with pytest.raises(ValueError, match="covers matches up to 64 points"):
        table.mwc(65, 3)


# ---------------------------------------------------------------------- a 31-point match


_Decision = tuple[CubeAnalysis, CubeAnalysis, tuple[float, float], Position, Action]


def _cube_pairs() -> list[_Decision]:
    """Per cube decision of gnubg's 31-point export: the text's cube analysis, the SGF's
    (in EMG), the SGF's ``DA`` (no double and double/take in MWC), the position before it
    and the text's action (with the ``DA`` bgkit made of the text's figures)."""
    text = bgkit.read_match(TEXT / "selfplay_0021_31pt_analysed.txt")
    sgf = bgkit.read_match(TEXT / "selfplay_0021_31pt_analysed.sgf")
    assert text.length == sgf.length == 31
    out: list[_Decision] = []
    steps = list(bgkit.replay(sgf))
    flat = [a for g in text.games for a in g.actions]
    assert len(flat) == len(steps)
    for action, step in zip(flat, steps, strict=True):
        note = analysis_of(action)
        if note is None or note.cube is None or not isinstance(action, (Move, Double)):
            continue
        oracle = analysis_of(step.action, step.before)
        assert oracle is not None and oracle.cube is not None
        da = dict(step.action.annotations)["DA"][0].split()
        out.append((note.cube, oracle.cube, (float(da[13]), float(da[20])), step.before, action))
    return out


def test_a_31_point_matchs_cube_equities_are_gnubgs() -> None:
    """gnubg's MWC (its SGF) turned into EMG with the extended table is the EMG gnubg
    printed in its text export (three decimals), and the EMG read from the text turned
    into MWC is gnubg's ``DA``."""
    pairs = _cube_pairs()
    assert len(pairs) >= 30
    table = shipped_met()
    emg_worst = mwc_worst = 0.0
    for mine, theirs, (nd_mwc, dt_mwc), before, action in pairs:
        assert mine.no_double is not None and mine.double_take is not None
        assert theirs.no_double is not None and theirs.double_take is not None
        emg_worst = max(
            emg_worst,
            abs(mine.no_double - theirs.no_double),
            abs(mine.double_take - theirs.double_take),
        )
        # bgkit's DA, written from the text's EMG, against gnubg's
        da = dict(action.annotations)["DA"][0].split()
        win, lose = table.cube_range(before)
        scale = (win - lose) / 2  # (MWC of one EMG: the text's rounding, in MWC)
        assert scale < 0.1  # (far from the end of a 31-point match)
        for written, gnubgs in ((float(da[13]), nd_mwc), (float(da[20]), dt_mwc)):
            mwc_worst = max(mwc_worst, abs(written - gnubgs) / scale)
    # every decision is past the table's own 25 points: gnubg's extension alone
    assert all(31 - max(b.score) > 25 for _, _, _, b, _ in pairs)
    assert emg_worst <= 0.0005 + 1e-6, emg_worst
    assert mwc_worst <= 0.0005 + 1e-4, mwc_worst


# ---------------------------------------------------------------------- no crash, any length


def _at_length(tmp_path: Path, length: int) -> Path:
    """gnubg's analysed export of a 5-point match, said to be of ``length`` points."""
    text = (TEXT / "selfplay_0021_analysed.txt").read_text(encoding="utf-8")
    text = text.replace("(match to 5 points)", f"(match to {length} points)")
    text = text.replace(" 5 points match ", f" {length} points match ")
    path = tmp_path / f"m{length}.txt"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("length", [26, 31, 40, 64, 65, 99])
def test_any_match_length_verifies_converts_and_reports(tmp_path: Path, length: int) -> None:
    """The record that made ``bgkit verify`` fail with an internal error (exit 3)."""
    path = _at_length(tmp_path, length)
    runner = CliRunner()
    verified = runner.invoke(main, ["verify", str(path)])
    assert verified.exit_code == 0, verified.output
    out = tmp_path / "out.sgf"
    converted = runner.invoke(main, ["convert", str(path), str(out)])
    assert converted.exit_code == 0, converted.output
    das = out.read_text().count("DA[")
    # gnubg's figures up to its 64 points; past them bgkit's own property keeps the analysis
    assert (das > 0) == (length <= MAX_LENGTH)
    assert analysis_of(bgkit.read_match(out).games[0].actions[1]) is not None
    report = runner.invoke(main, ["analyze", "--use-file-analysis", str(path)])
    if length <= MAX_LENGTH:
        assert report.exit_code == 0, report.output
        assert "Alice" in report.output
    else:
        assert report.exit_code == 2, report.output
        assert "covers matches up to 64 points, not" in report.output


@pytest.mark.skipif(importlib.util.find_spec("gnubg") is None, reason="gnubg is not installed")
@pytest.mark.parametrize(("length", "code"), [(40, 0), (64, 0), (65, 2)])
def test_hint_at_any_match_length(length: int, code: int) -> None:
    """``bgkit hint``'s cube decision and take point at 3-5 of a long match (gnubg's own
    table, 64 points long); past 64 points one line, exit 2."""
    xgid = f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:5:0:{length}:10"
    result = CliRunner().invoke(main, ["hint", xgid, "--plies", "0", "--json"])
    assert result.exit_code == code, result.output
    if code == 0:
        assert 0.0 < json.loads(result.output)["cube"]["take_point"] < 0.5
    else:
        assert "stop at 64 points" in result.output and result.output.count("\n") == 1
