"""Issue 28, "read every record a player has", on the command line: the forms of input
``show``, ``verify``, ``convert`` and ``analyze`` accept, each on a small fixture written
from its description, with the exact lines and exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgkit.cli import main

ROOT = Path(__file__).resolve().parent.parent
XG_TEXT = sorted((ROOT / "data" / "real" / "xg_txt").glob("*.txt"))[0]


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


OPENING_X = run("show", "4HPwATDgc/ABMA:cAkAAAAAAAAA").stdout


@pytest.mark.parametrize(
    "copied",
    [
        "Position ID: 4HPwATDgc/ABMA Match ID: cAkAAAAAAAAA",
        "4HPwATDgc/ABMA cAkAAAAAAAAA",
    ],
)
def test_show_takes_the_ids_as_copied_from_gnubg(copied: str) -> None:
    result = run("show", copied)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == OPENING_X
    assert " GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n" in result.stdout


def test_show_dash_reads_a_notation_from_stdin() -> None:
    result = run("show", "-", stdin="Position ID: 4HPwATDgc/ABMA Match ID: cAkAAAAAAAAA\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == OPENING_X
    two_lines = (
        " GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n                 Match ID   : cAkAAAAAAAAA\n"
    )
    assert run("show", "-", stdin=two_lines).stdout == OPENING_X


def test_show_dash_reads_an_export_from_stdin() -> None:
    from_file = run("show", str(XG_TEXT))
    from_stdin = run("show", "-", stdin=XG_TEXT.read_bytes())
    assert from_stdin.exit_code == 0, from_stdin.stderr
    assert from_stdin.stdout == from_file.stdout


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (
            "",
            "bgkit: -:1:1: empty text: expected an XGID, a FIBS board: line or a GNU"
            " Backgammon Position ID\n",
        ),
        (
            "junk\n",
            "bgkit: -:1:1: unknown position notation: expected an XGID, a FIBS board:"
            " line or a GNU Backgammon Position ID\n",
        ),
        (
            "a\nb\nc\n",
            "bgkit: -:1:1: not a position export bgkit can read (eXtreme Gammon,"
            " BGBlitz or GNU Backgammon text)\n",
        ),
    ],
)
def test_show_dash_with_bad_input_says_so_in_one_line(stdin: str, message: str) -> None:
    result = run("show", "-", stdin=stdin)
    assert result.exit_code == 2
    assert result.stderr == message
