"""Issue 28: ``bgkit show --from FORMAT`` and ``bgkit hint --from FORMAT``.

Without ``--from`` the two commands tell a position's format by its text; with it they
read the input as that format and no other, and an input that is not gets one line on
stderr (exit code 2). The inputs are real: a pair of notations gnubg printed for one
position (its XGID and its FIBS ``board:`` line, ``specs/position-ids.md`` 4.3), real
position exports of XG, BGBlitz and gnubg (``data/real``), and XG position files
(``data/fixtures/xg``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgkit.cli import main
from bgkit.formats.positions import POSITION_FORMATS, read_exports

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "data" / "real"
XGP = ROOT / "data" / "fixtures" / "xg" / "play.xgp"
XG_TEXT = REAL / "xg_txt" / "kevung__xgparser__01_checkerPosition_DE.txt"
BGBLITZ_TEXT = REAL / "bgblitz_txt" / "kevung__bgfparser__01_checkerPosition_DE.txt"
GNUBG_TEXT = (
    REAL / "gnubg_txt" / "lassehjorthmadsen__bglab__0ply__BoardLord_-_Llabba_7pt_Backgammon"
    "_Studio_2023_08_09_18_11_07.txt"
)
# gnubg 1.1.0a16's FIBS board line for this XGID (`set output rawboard on`)
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
FIBS = (
    "board:root:gnubg:7:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:5:2:5:2"
    ":1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1"
)
GNUBG_ID = "4HPwATDgc/ABMA:cAkAAAAAAAAA"

INPUTS = {
    "xgid": XGID,
    "gnubg-id": GNUBG_ID,
    "fibs-board": FIBS,
    "xg-text": str(XG_TEXT),
    "bgblitz-text": str(BGBLITZ_TEXT),
    "gnubg-text": str(GNUBG_TEXT),
    "xgp": str(XGP),
}


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def test_every_position_format_has_an_input_here() -> None:
    assert set(INPUTS) == set(POSITION_FORMATS)
    help_text = " ".join(run("show", "--help").stdout.split())
    assert "--from [xgid|gnubg-id|fibs-board|xg-text|bgblitz-text|gnubg-text|xgp]" in help_text
    assert "--from [xgid|gnubg-id" in " ".join(run("hint", "--help").stdout.split())


@pytest.mark.parametrize("fmt", list(INPUTS))
def test_show_from_reads_its_format_as_the_content_shows_it(fmt: str) -> None:
    by_content = run("show", INPUTS[fmt])
    assert by_content.exit_code == 0, by_content.stderr
    result = run("show", "--from", fmt, INPUTS[fmt])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == by_content.stdout


def test_the_notations_gnubg_printed_for_one_position_show_it_alike() -> None:
    def ids(text: str) -> list[str]:
        return [line for line in text.splitlines() if "ID" in line or line.startswith("XGID=")]

    xgid = run("show", "--from", "xgid", XGID).stdout
    fibs = run("show", "--from", "fibs-board", FIBS).stdout
    assert ids(fibs) == ids(xgid)
    assert XGID in ids(fibs)


def test_show_from_gnubg_text_gives_the_ids_gnubg_printed() -> None:
    result = run("show", "--from", "gnubg-text", str(GNUBG_TEXT))
    assert result.exit_code == 0, result.stderr
    shown = re.findall(r"Position ID: (\S+)", result.stdout)
    printed = [e.position_id for e in read_exports(GNUBG_TEXT)]
    assert len(shown) == len(printed) > 10
    assert shown == printed


@pytest.mark.parametrize(
    ("fmt", "argument", "line"),
    [
        (
            "xgid",
            GNUBG_ID,
            "<argument 1>:1:1: not an XGID: it starts with '4HPwATDgc/ABMA:cAkAAAAAAAAA'",
        ),
        (
            "gnubg-id",
            XGID,
            "<argument 1>:1:1: not a GNU Backgammon Position ID (with or without its Match ID):"
            " it starts with 'XGID=-b----E-C---eE---c-e----B...'",
        ),
        (
            "fibs-board",
            XGID,
            "<argument 1>:1:1: not a FIBS 'board:' line: it starts with"
            " 'XGID=-b----E-C---eE---c-e----B...'",
        ),
        (
            "xg-text",
            str(BGBLITZ_TEXT),
            f"{BGBLITZ_TEXT}:1:2: not an eXtreme Gammon position text export: it starts with"
            " '+13-14-15-16-17-18------19-20-...'",
        ),
        (
            "bgblitz-text",
            str(XG_TEXT),
            f"{XG_TEXT}:1:1: not a BGBlitz position text export: it starts with"
            " 'XGID=-B-CBBB---a---A---ABcbbbd...'",
        ),
        (
            "gnubg-text",
            str(XG_TEXT),
            f"{XG_TEXT}:1:1: not a GNU Backgammon text export: it starts with"
            " 'XGID=-B-CBBB---a---A---ABcbbbd...'",
        ),
        (
            "xgp",
            str(XG_TEXT),
            f"{XG_TEXT}:1:1: not an eXtreme Gammon position file (.xgp): it starts with"
            " b'XGID', not b'RGMH'",
        ),
        (
            "xg-text",
            str(XGP),
            f"{XGP}:1:1: not an eXtreme Gammon position text export: it is not text",
        ),
        ("gnubg-text", "nosuch.txt", "nosuch.txt: No such file or directory"),
    ],
)
def test_show_from_another_format_is_one_line_and_the_rest_is_shown(
    fmt: str, argument: str, line: str
) -> None:
    alone = run("show", "--from", fmt, argument)
    assert alone.exit_code == 2
    assert alone.stdout == ""
    assert alone.stderr == f"bgkit: {line}\n"
    # the arguments of that format are still shown
    mixed = run("show", "--from", fmt, argument, INPUTS[fmt])
    assert mixed.exit_code == 2
    assert mixed.stderr == f"bgkit: {line}\n"
    assert mixed.stdout == run("show", INPUTS[fmt]).stdout


def test_show_from_a_notation_reads_a_file_that_holds_one(tmp_path: Path) -> None:
    path = tmp_path / "position.txt"
    path.write_text(XGID + "\n")
    assert run("show", "--from", "xgid", str(path)).stdout == run("show", XGID).stdout
    refused = run("show", "--from", "fibs-board", str(path))
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"bgkit: {path}:1:1: not a FIBS 'board:' line: it starts with"
        " 'XGID=-b----E-C---eE---c-e----B...'\n"
    )


def test_show_from_reads_stdin() -> None:
    assert run("show", "--from", "gnubg-id", "-", stdin=GNUBG_ID + "\n").stdout == (
        run("show", GNUBG_ID).stdout
    )
    text = XG_TEXT.read_bytes()
    assert run("show", "--from", "xg-text", "-", stdin=text).stdout == (
        run("show", str(XG_TEXT)).stdout
    )
    refused = run("show", "--from", "xgid", "-", stdin=GNUBG_ID + "\n")
    assert refused.exit_code == 2
    assert refused.stderr == (
        "bgkit: -:1:1: not an XGID: it starts with '4HPwATDgc/ABMA:cAkAAAAAAAAA'\n"
    )


def test_hint_from_an_xgp_prints_xgs_analysis_and_refuses_another_format() -> None:
    by_content = run("hint", str(XGP))
    assert by_content.exit_code == 0, by_content.stderr
    assert "eXtreme Gammon's analysis, from the file:" in by_content.stdout
    assert run("hint", "--from", "xgp", str(XGP)).stdout == by_content.stdout
    # (refused before GNU Backgammon is asked anything)
    refused = run("hint", "--from", "gnubg-id", XGID)
    assert refused.exit_code == 2
    assert refused.stderr == (
        "bgkit: <argument 1>:1:1: not a GNU Backgammon Position ID (with or without its"
        " Match ID): it starts with 'XGID=-b----E-C---eE---c-e----B...'\n"
    )
    refused = run("hint", "--from", "xg-text", str(XGP))
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"bgkit: {XGP}:1:1: not an eXtreme Gammon position text export: it is not text\n"
    )


def test_hint_from_a_notation_asks_gnubg_as_without_it() -> None:
    pytest.importorskip("gnubg")
    plain = run("hint", "--json", "--plies", "0", XGID)
    assert plain.exit_code == 0, plain.stderr
    assert run("hint", "--json", "--plies", "0", "--from", "xgid", XGID).stdout == plain.stdout
    piped = run("hint", "--json", "--plies", "0", "--from", "fibs-board", "-", stdin=FIBS)
    assert piped.exit_code == 0, piped.stderr
    assert piped.stdout == plain.stdout  # (gnubg's own FIBS line of the same position)
