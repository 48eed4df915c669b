"""Every reader keeps ``max_games`` as it reads (issue 29, item 6).

A record of empty games costs far more per byte than a real one: 16 MiB of ``Game:``
lines is 2.8 million ``.gmd`` games, and verifying it took 87 s of CPU and 3.5 GB. Each
reader counts the games as they start (a ``Game N`` line, a ``Game:`` line, an SGF game
tree, a JSON game object...) and refuses the first one past the limit, located at its
start, before it reads the rest: the work is bounded by the games allowed, not by the
file. Each reader is tried here on a record made by the test, with a limit of 3: a
fourth game is refused at its own line and column, three games read (a check off by
one, or placed at another game, fails). Then whole commands, under time and memory
caps: 16 MiB of empty games in three formats, refused in a second or two.
"""

from __future__ import annotations

import json
import re
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bounded import BGKIT, GIB, run
from test_limits_xg import BASE, _entries

from bgkit.errors import LimitError, NotationError
from bgkit.formats import read_match, read_streamed
from bgkit.formats.gmd import parse_gmd
from bgkit.formats.gnubg_text import parse_gnubg_match
from bgkit.formats.javafibs import parse_javafibs
from bgkit.formats.json_record import parse_json
from bgkit.formats.mat import parse_mat
from bgkit.formats.ogxm_record import parse_ogxm
from bgkit.formats.sgf import parse_sgf
from bgkit.limits import Limits, check_games, using

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "data" / "real"
MOST = 3
LIMITS = Limits(max_games=MOST)


def message(count: int, most: int = MOST) -> str:
    return (
        f"game {count} of the record, more than the limit of {most:,} games"
        " (max_games; raise it with --max-size)"
    )


def assert_refused(read: Callable[[], Any], place: str, count: int = MOST + 1) -> None:
    """``read()`` under a limit of 3 games raises the limit at ``place`` (``name:line:col``)."""
    with using(LIMITS), pytest.raises(LimitError) as caught:
        read()
    err = caught.value
    assert err.limit == "max_games"
    assert str(err).splitlines()[0] == f"{place}: {message(count)}"


def games_read(read: Callable[[], Any]) -> int:
    with using(LIMITS):
        return len(read().games)


# ---------------------------------------------------------------------------- .mat

MAT_HEAD = " 0 point match\n\n"


def mat(games: int, *, head: str = MAT_HEAD, fault: bool = False) -> str:
    """``games`` games of four lines each (the last blank); ``fault``: a line of the first
    game cannot be read (dice 27), so that the record is read line by line."""
    out = [head]
    for k in range(1, games + 1):
        out.append(f" Game {k}\n a : 0                    b : 0\n  1) 31: 8/5 6/5\n")
        out.append("  2) 27: 8/1\n" if fault and k == 1 else "\n")
    return "".join(out)


# the fast path (no Lark), Lark's whole parse (a tab keeps the fast path off), line by line
MAT_READINGS: dict[str, tuple[dict[str, Any], int]] = {
    "fast": ({}, 15),
    "lark": ({"head": "; made by\tthe test\n" + MAT_HEAD}, 16),
    "by-lines": ({"fault": True}, 15),
}


@pytest.mark.parametrize(
    ("reading", "strict"),
    # (a strict reading raises the line that cannot be read: it never reads line by line)
    [("fast", False), ("fast", True), ("lark", False), ("lark", True), ("by-lines", False)],
)
def test_mat(reading: str, strict: bool) -> None:
    shape, line = MAT_READINGS[reading]
    text = mat(MOST + 1, **shape)
    assert f" Game {MOST + 1}\n" in text.splitlines(keepends=True)[line - 1]
    assert_refused(lambda: parse_mat(text, source_name="x.mat", strict=strict), f"x.mat:{line}:2")
    with using(LIMITS):
        match = parse_mat(mat(MOST, **shape), strict=strict)
    assert len(match.games) == MOST
    assert bool(match.read_errors) == (reading == "by-lines")  # (the reading it names)


@pytest.mark.parametrize("strict", [False, True])
def test_mat_the_game_past_the_limit_is_not_read(strict: bool) -> None:
    """A fault in game 4 is not met: its ``Game`` line is refused first (a strict
    reading of that fault raises it)."""
    text = mat(MOST + 1) + "  2) 27: 8/1\n"
    with pytest.raises(NotationError, match="dice must be 1-6"):
        parse_mat(text, strict=True)
    assert_refused(lambda: parse_mat(text, source_name="x.mat", strict=strict), "x.mat:15:2")


def test_mat_a_real_record() -> None:
    """A real record of 7 games: refused at its 7th ``Game`` line under a limit of 6."""
    path = REAL / "mat" / "kevung__gbf__test.mat"
    lines = path.read_text("utf-8").splitlines()
    starts = [
        (n, line.index("Game"))
        for n, line in enumerate(lines, 1)
        if re.fullmatch(r" *Game [0-9]+ *", line)
    ]
    assert len(starts) == 7
    line, column = starts[-1]
    with pytest.raises(LimitError) as caught:
        read_match(path, limits=Limits(max_games=6))
    assert str(caught.value).splitlines()[0] == f"{path}:{line}:{column + 1}: {message(7, 6)}"
    assert len(read_match(path, limits=Limits(max_games=7)).games) == 7


# ---------------------------------------------------------------------------- GMD, JavaFIBS

GMD_HEAD = "GMD-2 # Created by Gibbon version 0.2.0\nLength: 0\nRule: Crawford\n"
GMD_GAME = "Game:\nRoll:W:: 4 2\nMove:W:: 8/4 6/4\n"


@pytest.mark.parametrize("strict", [False, True])
def test_gmd(strict: bool) -> None:
    text = GMD_HEAD + GMD_GAME * (MOST + 1)  # (game 4 on line 3 + 9 + 1)
    assert_refused(lambda: parse_gmd(text, source_name="x.gmd", strict=strict), "x.gmd:13:1")
    assert games_read(lambda: parse_gmd(GMD_HEAD + GMD_GAME * MOST, strict=strict)) == MOST


def test_gmd_the_lines_after_are_not_read() -> None:
    """A line after the limit that passes another limit is not read (it would raise
    its own)."""
    long_number = "Roll:W:: 4 2\nResign:W:: 1" + "0" * 60 + "\n"
    with pytest.raises(LimitError, match="max_integer_digits"):
        parse_gmd(GMD_HEAD + GMD_GAME * MOST + long_number)
    text = GMD_HEAD + GMD_GAME * (MOST + 1) + long_number
    assert_refused(lambda: parse_gmd(text, source_name="x.gmd"), "x.gmd:13:1")


def test_gmd_a_game_line_that_cannot_be_read_starts_a_game() -> None:
    lost = GMD_GAME.replace("Game:", "Game: ???")
    text = GMD_HEAD + GMD_GAME * MOST + lost
    assert_refused(lambda: parse_gmd(text, source_name="x.gmd"), "x.gmd:13:1")
    with using(Limits(max_games=MOST + 1)):
        assert len(parse_gmd(text).read_errors) == 1  # (the line cannot be read)


JAVAFIBS_HEAD = "JavaFIBS internal match representation v1.1\n8:JoeBlack:3\n"
JAVAFIBS_GAME = "13:JoeBlack:\n11:You:4 2\n1:You:17-21 19-21\n"


@pytest.mark.parametrize("strict", [False, True])
def test_javafibs(strict: bool) -> None:
    text = JAVAFIBS_HEAD + JAVAFIBS_GAME * (MOST + 1)  # (game 4 on line 2 + 9 + 1)
    assert_refused(
        lambda: parse_javafibs(text, source_name="x.match", strict=strict), "x.match:12:1"
    )
    games = games_read(lambda: parse_javafibs(JAVAFIBS_HEAD + JAVAFIBS_GAME * MOST, strict=strict))
    assert games == MOST


def test_javafibs_a_game_line_that_cannot_be_read_starts_a_game() -> None:
    lost = JAVAFIBS_GAME.replace("13:JoeBlack:", "13:JoeBlack:x")
    text = JAVAFIBS_HEAD + JAVAFIBS_GAME * MOST + lost
    assert_refused(lambda: parse_javafibs(text, source_name="x.match"), "x.match:12:1")
    with using(Limits(max_games=MOST + 1)):
        assert len(parse_javafibs(text).read_errors) == 1


# ---------------------------------------------------------------------------- SGF

SGF_GAME = "  (;FF[4]GM[6]MI[length:0]PW[a]PB[b];W[31hefe];B[64xroo])\n"


@pytest.mark.parametrize("strict", [False, True])
def test_sgf(strict: bool) -> None:
    text = SGF_GAME * (MOST + 1)  # (a game tree a line, its '(' at column 3)
    assert_refused(lambda: parse_sgf(text, source_name="x.sgf", strict=strict), "x.sgf:4:3")
    assert games_read(lambda: parse_sgf(SGF_GAME * MOST, strict=strict)) == MOST


def test_sgf_streamed(tmp_path: Path) -> None:
    """Read a game at a time (as ``bgkit verify`` reads SGF), the limit holds as the
    games are gone through, with the limits given when the record was opened."""
    path = tmp_path / "x.sgf"
    path.write_text(SGF_GAME * (MOST + 1), encoding="utf-8")
    match = read_streamed(path, limits=LIMITS)
    with pytest.raises(LimitError) as caught:
        for _ in match.games:
            pass
    assert caught.value.limit == "max_games"
    assert str(caught.value).splitlines()[0] == f"{path}:4:3: {message(MOST + 1)}"
    path.write_text(SGF_GAME * MOST, encoding="utf-8")
    assert sum(1 for _ in read_streamed(path, limits=LIMITS).games) == MOST


# ---------------------------------------------------------------------------- JSON


def json_record(games: int) -> str:
    """A JSON record with a game a line (game k on line k + 1)."""
    each = [
        json.dumps({"number": k, "score": [0, 0], "actions": [], "result": None})
        for k in range(1, games + 1)
    ]
    head = {"format": "bgkit-match", "version": 1, "players": ["a", "b"], "length": 0}
    return json.dumps(head)[:-1] + ', "games": [\n' + ",\n".join(each) + "\n]}\n"


def test_json() -> None:
    text = json_record(MOST + 1)
    assert_refused(lambda: parse_json(text, source_name="x.json"), "x.json:5:1")
    assert games_read(lambda: parse_json(json_record(MOST))) == MOST


# ---------------------------------------------------------------------------- gnubg text


def gnubg_text(games: int) -> str:
    """Score lines of a gnubg text export, a game each (game k on line 2k - 1)."""
    return "".join(
        f"The score (after {k} games) is: Ann {k}, Bo 0 (match to 9 points)\n\n"
        for k in range(games)
    )


@pytest.mark.parametrize("strict", [False, True])
def test_gnubg_text(strict: bool) -> None:
    text = gnubg_text(MOST + 1)
    assert_refused(lambda: parse_gnubg_match(text, source_name="x.txt", strict=strict), "x.txt:7:1")
    assert games_read(lambda: parse_gnubg_match(gnubg_text(MOST), strict=strict)) == MOST


def test_gnubg_text_the_blocks_after_are_not_read() -> None:
    """The export is read a block at a time: the block of game 4's score line is not
    read, nor any after it (a strict reading of the board after would raise its fault)."""
    board = (
        "Move number 1:  Ann to play 31\n\n"
        " GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n"
        "                 Match ID   : !!!\n"
    )
    with pytest.raises(NotationError, match="unexpected '!!!'"):
        parse_gnubg_match(gnubg_text(MOST) + board, strict=True)
    text = gnubg_text(MOST + 1) + board
    assert_refused(lambda: parse_gnubg_match(text, source_name="x.txt", strict=True), "x.txt:7:1")


def test_gnubg_text_score_lines_written_otherwise_count_too() -> None:
    text = gnubg_text(MOST + 1).replace("The score", "  The score")
    assert_refused(lambda: parse_gnubg_match(text, source_name="x.txt"), "x.txt:7:3")


# ---------------------------------------------------------------------------- XG, OGXM


def test_xg() -> None:
    """A real ``.xg`` of 4 games, refused at its 4th game header record: a binary file
    has no lines, so the record is named as for its other faults."""
    data = BASE.read_bytes()
    start, entries = _entries(data)
    ((_osize, size, offset, *_),) = [e for name, e in entries if name == b"temp.xg"]
    body = zlib.decompress(data[start + offset : start + offset + size])
    kinds = [body[n + 8] for n in range(0, len(body), 2560)]  # (byte 8: the record's kind)
    headers = [n + 1 for n, kind in enumerate(kinds) if kind == 1]  # (a game header)
    assert len(headers) == 4
    with pytest.raises(LimitError) as caught:
        read_match(BASE, limits=LIMITS)
    assert caught.value.limit == "max_games"
    where = f" (record {headers[3]} of 'temp.xg', byte 8)"
    assert str(caught.value) == f"{BASE}:1:1: {message(4)}{where}"
    assert len(read_match(BASE, limits=Limits(max_games=4)).games) == 4


def test_ogxm() -> None:
    """An OGXM file GammonView's ``gvformat`` writes from a real record of 7 games."""
    pytest.importorskip("ogxm")
    gvformat = pytest.importorskip("gvformat")
    path = REAL / "mat" / "kevung__gbf__test.mat"
    assert len(re.findall(r"(?m)^ *Game [0-9]+$", path.read_text("utf-8"))) == 7
    data = gvformat.write_gvab(gvformat.convert_mat(str(path)))
    with pytest.raises(LimitError) as caught, using(Limits(max_games=6)):
        parse_ogxm(data, source_name="x.ogxm")
    assert caught.value.limit == "max_games"
    assert str(caught.value) == f"x.ogxm:1:1: {message(7, 6)}"
    with using(Limits(max_games=7)):
        assert len(parse_ogxm(data).games) == 7


# ---------------------------------------------------------------------------- --max-size


def test_max_size_raises_the_games_in_proportion() -> None:
    """``--max-size 64M`` lets a record of 300,000 games through (the largest session of
    ``benchmarks/bench_large.py`` at 64 MiB has 87,489), and a reader keeps the raised
    limit: 3 games a 16 MiB record are 12 at 64 MiB."""
    check_games(300_000, "", 0, None, Limits().with_max_size(64 << 20))
    with pytest.raises(LimitError):
        check_games(400_001, "", 0, None, Limits().with_max_size(64 << 20))
    raised = LIMITS.with_max_size(64 << 20)
    with using(raised):
        assert len(parse_gmd(GMD_HEAD + GMD_GAME * 12).games) == 12
        with pytest.raises(LimitError, match=r"^x\.gmd:40:1: game 13 "):
            parse_gmd(GMD_HEAD + GMD_GAME * 13, source_name="x.gmd")


# ---------------------------------------------------------------------------- whole commands

SIZE = (16 << 20) - 4096  # (just under the default max_file_bytes)
Place = Callable[[int], tuple[int, int]]
# a record's head, one empty game, and where game k starts (line, column)
EMPTY: dict[str, tuple[str, str, Place]] = {
    "gmd": (GMD_HEAD, "Game:\n", lambda k: (3 + k, 1)),
    "mat": (" 0 point match\n\n", " Game 1\n a : 0  b : 0\n", lambda k: (1 + 2 * k, 2)),
    "sgf": ("", "(;FF[4]GM[6]PB[a]PW[b])", lambda k: (1, 1 + 23 * (k - 1))),
}


@pytest.mark.parametrize(
    ("fmt", "megabytes"),
    # (measured .gmd 70 MB: 270 MB while check_text split the text into its 2.8 million
    # lines to find the longest; .mat 110 MB, SGF 76 MB)
    [("gmd", 150), ("mat", 200), ("sgf", 150)],
)
def test_a_record_of_empty_games_is_refused_at_once(
    tmp_path: Path, fmt: str, megabytes: int
) -> None:
    """16 MiB of empty games (2.8 million in ``.gmd``, 760,000 in ``.mat``, 730,000 in
    SGF) is refused at game 100,001 in one line, exit code 2, in a second or two and
    little memory. Before the limit: ``.gmd`` 87 s of CPU and 3.5 GB, ``.mat`` 26 s and
    980 MB, SGF 26 s and 930 MB."""
    head, game, place = EMPTY[fmt]
    path = tmp_path / f"empty.{fmt}"
    path.write_text(head + game * ((SIZE - len(head)) // len(game)), encoding="utf-8")
    ran = run([*BGKIT, "verify", "-q", "-j", "1", str(path)], seconds=60, memory=2 * GIB)
    line, column = place(100_001)
    assert ran.code == 2, ran.stderr
    assert ran.lines[0] == f"{path}:{line}:{column}: error: {message(100_001, 100_000)}"
    assert len(ran.lines) == 2 and ran.lines[1].startswith("1 file(s), 0 game(s)")
    assert ran.seconds < 15, ran.seconds
    assert ran.max_rss < megabytes << 20, ran.max_rss


# ---------------------------------------------------------------------------- .mat faults


def test_mat_stops_after_1000_lines_that_cannot_be_read() -> None:
    """As every other text reader: 1,000 lines that cannot be read, then one more error,
    and the rest is not read (each costs Lark's reading of its line: 4 MiB of them made
    102,299 errors in 11.4 s). The game read so far is kept; no other error is made up
    at the end of the file."""
    bad = " 1) ???: ???   ???: ???\n"
    text = " 0 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5\n" + bad * 2000
    started = time.process_time()
    match = parse_mat(text, source_name="x.mat")
    took = time.process_time() - started
    errors = match.read_errors
    assert len(errors) == 1001
    assert [e.line for e in errors[:1000]] == list(range(6, 1006))
    last = errors[-1]
    assert (last.line, last.column) == (1006, 1)
    assert last.message == (
        "more than 1000 lines could not be read: the rest of the file is not read"
    )
    assert len(match.games) == 1 and len(match.games[0].actions) == 1
    assert took < 5, took
