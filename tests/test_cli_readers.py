"""Issue 28, "read every record a player has", on the command line: the forms of input
``show``, ``verify``, ``convert`` and ``analyze`` accept, each on a small fixture written
from its description, with the exact lines and exit codes."""

from __future__ import annotations

import codecs
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
            " BGBlitz or GNU Backgammon text, or an eXtreme Gammon .xgp)\n",
        ),
    ],
)
def test_show_dash_with_bad_input_says_so_in_one_line(stdin: str, message: str) -> None:
    result = run("show", "-", stdin=stdin)
    assert result.exit_code == 2
    assert result.stderr == message


XG_MOBILE = (  # an XG Mobile text record, as a user saved it with the .xg extension
    '; [Site "XG Mobile"]\n'
    "\n"
    " 3 point match\n"
    "\n"
    " Game 1\n"
    " Alice : 0                      Bob : 0\n"
    "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    "  2)  Doubles => 2                Drops\n"
    "      Wins 1 point\n"
)


def test_the_content_decides_when_the_extension_lies(tmp_path: Path) -> None:
    record = tmp_path / "mobile.xg"
    record.write_text(XG_MOBILE)
    summary = (
        "1 file(s), 1 game(s), 4 action(s) checked: 1 clean, 0 with errors, 0 unreadable;"
        " 0 error(s), 1 note(s)\n"
    )
    result = run("verify", str(record))
    assert result.exit_code == 0
    assert result.stderr == (
        f"{record}:9:7: note: the match stops at 1-0 of 3 (game 1, move 1)\n{summary}"
    )
    piped = run("verify", "-", stdin=XG_MOBILE)
    assert piped.stderr == result.stderr.replace(str(record), "-")
    converted = tmp_path / "mobile.sgf"
    assert run("convert", str(record), str(converted)).exit_code == 0
    # an .xg file that is neither XG's nor any text record gets XG's own message
    junk = tmp_path / "junk.xg"
    junk.write_bytes(b"junk")
    refused = run("verify", str(junk))
    assert refused.exit_code == 2
    assert refused.stderr.splitlines()[0] == (
        f"{junk}:1:1: error: not an .xg file: it starts with b'junk', not b'RGMH'"
    )


def test_from_names_the_format_of_every_command(tmp_path: Path) -> None:
    record = tmp_path / "mobile.xg"
    record.write_text(XG_MOBILE)
    verified = run("verify", "--from", "sgf", str(record))
    assert verified.exit_code == 2
    assert verified.stderr.splitlines()[0] == (
        f"{record}:1:1: error: expected '(' to start a game tree, found ';'"
    )
    assert run("verify", "--from", "mat", str(record)).exit_code == 0
    analysed = run("analyze", "--from", "sgf", str(record))
    assert analysed.exit_code == 2
    assert analysed.stderr == (
        f"bgkit: {record}:1:1: expected '(' to start a game tree, found ';'\n"
    )
    converted = run("convert", "--from", "sgf", str(record), str(tmp_path / "x.json"))
    assert converted.exit_code == 2
    assert converted.stderr.startswith(f"bgkit: {record}:1:1: expected '('")
    pytest.importorskip("pandas")  # (audit's findings are a DataFrame)
    audited = run("audit", "--from", "sgf", str(record))
    assert audited.exit_code == 2
    assert audited.stderr.startswith(f"{record}:1:1: error: expected '(' to start a game tree")
    assert run("audit", "--from", "mat", str(record)).exit_code == 0
    assert run("audit", str(record)).exit_code == 0  # (by its content, as verify reads it)
    season = run("analyze", "--from", "mat", str(tmp_path))
    assert season.exit_code == 2
    assert season.stderr == (
        "bgkit: a folder is analysed as a season: --sgf, --candidates, --from, --jacoby,"
        " --beavers and --use-file-analysis are for one match\n"
    )


RATED = (  # GridGammon writes each player's rating after the name
    " 3 point match\n"
    "\n"
    " Game 1\n"
    " BlueNote,1780 : 0              Red,1650.5 : 0\n"
    "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    "  2)  Doubles => 2                Drops\n"
    "      Wins 1 point\n"
    "\n"
    " Game 2\n"
    " BlueNote,1780 : 1              Red,1650.5 : 0\n"
    "  1) 21: 13/11 6/5               63: 24/18 13/10\n"
)


def test_ratings_written_in_names_become_rating_tags(tmp_path: Path) -> None:
    from bgkit.formats import read_match
    from bgkit.formats.json_record import parse_json

    match = read_match(text=RATED)
    assert match.players == ("BlueNote", "Red")
    assert match.tags == (("Player 1 Elo", "1780"), ("Player 2 Elo", "1650.5"))
    assert match.to_mat().startswith('; [Player 1 Elo "1780"]\n; [Player 2 Elo "1650.5"]\n')
    assert parse_json(match.to_json()).tags == match.tags
    assert read_match(text=match.to_sgf()).tags == match.tags
    record = tmp_path / "rated.mat"
    record.write_text(RATED)
    for target in ("rated.ogxm", "rated.sgf", "rated.json", "again.mat"):
        assert run("convert", str(record), str(tmp_path / target)).exit_code == 0
        assert read_match(tmp_path / target).tags == match.tags, target
    # a rating tag the record has already wins over the one in the name
    tagged = read_match(text='; [Player 2 Elo "1700/120"]\n' + RATED)
    assert tagged.tags == (("Player 2 Elo", "1700/120"), ("Player 1 Elo", "1780"))


def test_utf16_records_are_read(tmp_path: Path) -> None:
    text = XG_MOBILE.replace("Alice", "Jérôme")
    (tmp_path / "notepad.txt").write_bytes(text.encode("utf-16"))  # with its BOM (LE)
    (tmp_path / "big-endian.mat").write_bytes(codecs.BOM_UTF16_BE + text.encode("utf-16-be"))
    # and without a BOM (a zero byte beside every character tells it and its byte order)
    (tmp_path / "no-bom.txt").write_bytes(text.encode("utf-16-le"))
    (tmp_path / "no-bom-be.mat").write_bytes(text.encode("utf-16-be"))
    result = run("verify", str(tmp_path))
    assert result.exit_code == 0
    stops = ":9:7: note: the match stops at 1-0 of 3 (game 1, move 1)\n"
    names = ("big-endian.mat", "no-bom-be.mat", "no-bom.txt", "notepad.txt")
    assert result.stderr == "".join(f"{tmp_path / name}{stops}" for name in names) + (
        "4 file(s), 4 game(s), 16 action(s) checked: 4 clean, 0 with errors, 0 unreadable;"
        " 0 error(s), 4 note(s)\n"
    )
    from bgkit.formats import read_match

    assert read_match(tmp_path / "notepad.txt").players == ("Jérôme", "Bob")
    assert read_match(tmp_path / "no-bom-be.mat").players == ("Jérôme", "Bob")


def test_convert_writes_gammonviews_gvab(tmp_path: Path) -> None:
    gvformat = pytest.importorskip("gvformat")
    from bgkit.formats import read_match

    sample = ROOT / "data" / "sample.mat"
    target = tmp_path / "sample.gvab"
    result = run("convert", str(sample), str(target))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"{sample} -> {target}: 5 game(s) as ogxm\n"
    assert target.read_bytes()[:4] == b"OGXM"
    doc = gvformat.read_gvab(target.read_bytes())  # GammonView's own codec reads it
    match = read_match(sample)
    assert (doc["player_white"], doc["player_black"]) == match.players
    assert [(g["winner"], g["points_won"]) for g in doc["games"]] == [
        (g.result.winner, g.result.points) for g in match.games if g.result is not None
    ]
    assert read_match(target) == match
    again = run("convert", str(sample), str(target))
    assert again.exit_code == 2
    assert again.stderr == f"bgkit: {target}: exists; use --force to overwrite it\n"


def test_hint_takes_the_ids_as_copied_from_gnubg() -> None:
    pytest.importorskip("gnubg")
    plain = run("hint", "--json", "--dice", "31", "4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert plain.exit_code == 0, plain.stderr
    for copied in (
        "Position ID: 4HPwATDgc/ABMA Match ID: cAkAAAAAAAAA",
        "4HPwATDgc/ABMA cAkAAAAAAAAA",
    ):
        result = run("hint", "--json", "--dice", "31", copied)
        assert result.exit_code == 0, result.stderr
        assert result.stdout == plain.stdout
