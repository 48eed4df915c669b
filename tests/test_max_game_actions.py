"""Every reader keeps ``max_game_actions`` as it reads (issue 29, item 6).

A reader holds a game's raw parse state until the game ends (Lark tokens and cells in
``.mat``, each move's line in JavaFIBS...), some 800 bytes an action: one game that never
ends cost 30 to 45 bytes of memory per byte, 2 to 3 GB at ``--max-size 64M``. Each
reader counts the actions (rolls with their plays, cube actions) of the game it reads
and refuses the first past the limit at its token; the longest game of the project's
real and self-play records has 138, the limit is 10,000. Each reader is tried here on a
record of two games made by the test (the count starts again at each game), under a
small limit: the game of exactly the limit reads, one action more is refused at that
action's line and column (a count off by one, not started again, or placed at another
action fails). Then whole commands, under time and memory caps: the costly records of
``benchmarks/bench_shapes.py`` at 16 MiB are refused in a second.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bounded import BGKIT, GIB, run

from bgkit.errors import LimitError
from bgkit.formats import read_match, read_streamed
from bgkit.formats.gmd import parse_gmd
from bgkit.formats.gnubg_text import parse_gnubg_match
from bgkit.formats.javafibs import parse_javafibs
from bgkit.formats.json_record import parse_json
from bgkit.formats.mat import parse_mat
from bgkit.formats.ogxm_record import parse_ogxm
from bgkit.formats.sgf import parse_sgf
from bgkit.limits import DEFAULT_LIMITS, Limits, using
from bgkit.records import Match

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "data" / "real"
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_shapes import SHAPES  # noqa: E402  (the records it measures)


def message(count: int, game: int, most: int) -> str:
    return (
        f"action {count:,} of game {game:,}, more than the limit of {most:,} actions a game"
        " (max_game_actions)"
    )


def place(text: str, line: int, token: str) -> str:
    """``line:column`` of the first ``token`` on line ``line`` of ``text``."""
    return f"{line}:{text.splitlines()[line - 1].index(token) + 1}"


def assert_limit(read: Callable[[], Any], places: list[str], name: str, game: int = 2) -> None:
    """``read()`` reads the second game's ``len(places)`` actions under a limit of as many,
    and under each smaller limit ``n`` refuses action ``n + 1`` at ``places[n]``."""
    with using(Limits(max_game_actions=len(places))):
        assert len(read().games[game - 1].actions) == len(places)
    for most in range(1, len(places)):
        with using(Limits(max_game_actions=most)), pytest.raises(LimitError) as caught:
            read()
        err = caught.value
        assert err.limit == "max_game_actions"
        expected = f"{name}:{places[most]}: {message(most + 1, game, most)}"
        assert str(err).splitlines()[0] == expected


def test_the_default() -> None:
    """Far above the longest real game (138 actions), not raised by ``--max-size``."""
    assert DEFAULT_LIMITS.max_game_actions == 10_000
    assert DEFAULT_LIMITS.with_max_size(64 << 20).max_game_actions == 10_000


# ---------------------------------------------------------------------------- .mat

MAT_HEAD = " 0 point match\n\n"
MAT_GAME_1 = " Game 1\n a : 0                              b : 0\n  1) 31: 8/5 6/5\n"
MAT_GAME_2 = (
    "\n Game 2\n a : 0                              b : 0\n"
    "  1) 31: 8/5 6/5                     42: 8/4 6/4\n"
    "  2)  Doubles => 2                   Takes\n"
    "  3) 64: 24/18 13/9                  61: 13/7 8/7\n"
)


def mat(reading: str) -> str:
    head = "; made by\tthe test\n" + MAT_HEAD if reading == "lark" else MAT_HEAD
    first = MAT_GAME_1 + ("  2) 27: 8/1\n" if reading == "by-lines" else "")
    return head + first + MAT_GAME_2


@pytest.mark.parametrize(
    ("reading", "strict"),
    # the fast path (no Lark), Lark's whole parse (a tab keeps the fast path off), line by
    # line (a line of game 1 cannot be read; a strict reading raises it instead)
    [("fast", False), ("fast", True), ("lark", False), ("lark", True), ("by-lines", False)],
)
def test_mat(reading: str, strict: bool) -> None:
    text = mat(reading)
    rows = [n for n, line in enumerate(text.splitlines(), 1) if re.match(r"  [123]\) ", line)]
    rows = rows[-3:]  # (game 2's)
    places = [
        place(text, rows[0], "31:"),
        place(text, rows[0], "42:"),
        place(text, rows[1], "Doubles"),
        place(text, rows[1], "Takes"),
        place(text, rows[2], "64:"),
        place(text, rows[2], "61:"),
    ]
    assert_limit(lambda: parse_mat(text, source_name="x.mat", strict=strict), places, "x.mat")
    with using(Limits(max_game_actions=6)):
        assert bool(parse_mat(text).read_errors) == (reading == "by-lines")  # (its reading)


def test_mat_unknown_plays() -> None:
    """XG's ``???`` plays count as the moves they are."""
    text = MAT_HEAD + MAT_GAME_1 + MAT_GAME_2.split("  2)")[0].replace("8/5 6/5", "???")
    text = text.replace("8/4 6/4", "???")
    rows = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith("  1) 31: ???")]
    places = [place(text, rows[0], "31:"), place(text, rows[0], "42:")]
    assert_limit(lambda: parse_mat(text, source_name="x.mat"), places, "x.mat")


def test_mat_a_real_record() -> None:
    """A real record: its longest game is refused at its last action under a limit of
    one less (the action found here in the text, a roll or a cube action per cell)."""
    path = REAL / "mat" / "kevung__gbf__test.mat"
    lines = path.read_text("utf-8").splitlines()
    games: list[list[tuple[int, int]]] = []
    for n, line in enumerate(lines, 1):
        if re.fullmatch(r" *Game [0-9]+ *", line):
            games.append([])
        elif games and re.match(r" *[0-9]+\)", line):
            cells = re.finditer(r"[1-6][1-6]:|Doubles|Takes|Drops", line)
            games[-1] += [(n, m.start() + 1) for m in cells]
    longest = max(range(len(games)), key=lambda k: len(games[k]))
    count = len(games[longest])
    line, column = games[longest][-1]
    with pytest.raises(LimitError) as caught:
        read_match(path, limits=Limits(max_game_actions=count - 1))
    expected = f"{path}:{line}:{column}: {message(count, longest + 1, count - 1)}"
    assert str(caught.value).splitlines()[0] == expected
    read_match(path, limits=Limits(max_game_actions=count))


# ---------------------------------------------------------------------------- GMD, JavaFIBS

GMD = (
    "GMD-2 # Created by Gibbon version 0.2.0\nLength: 0\nRule: Crawford\n"
    "Game:\nRoll:W:: 4 2\nMove:W:: 8/4 6/4\n"
    "Game:\nRoll:W:: 4 2\nMove:W:: 8/4 6/4\nDouble:B:\nTake:W:\nRoll:B:: 3 1\nMove:B:: 8/5 6/5\n"
)


# rolls without moves (each a move whose play is unknown: the last as its game ends)
GMD_ROLLS = GMD.split("Double")[0].replace("Move:W:: 8/4 6/4\nGame:", "Game:")
GMD_ROLLS = GMD_ROLLS.replace("Move:W:: 8/4 6/4\n", "Roll:B:: 3 1\nRoll:W:: 5 2\nGame:\n")

JAVAFIBS = (
    "JavaFIBS internal match representation v1.1\n8:JoeBlack:3\n"
    "13:JoeBlack:\n11:You:4 2\n1:You:17-21 19-21\n"
    "13:JoeBlack:\n11:You:4 2\n1:You:17-21 19-21\n2:JoeBlack:\n5:You:\n"
    "0:JoeBlack:3 1\n1:JoeBlack:24-21 13-10\n"
)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize(
    ("parse", "text", "places", "name"),
    [
        # (an action is placed at its colour in .gmd, at its player's name in JavaFIBS,
        # as each reader places the action)
        (parse_gmd, GMD, ["9:6", "10:8", "11:6", "13:6"], "x.gmd"),
        (parse_gmd, GMD_ROLLS, ["7:6", "8:6", "9:6"], "x.gmd"),
        (parse_javafibs, JAVAFIBS, ["8:3", "9:3", "10:3", "12:3"], "x.match"),
    ],
)
def test_gmd_and_javafibs(
    parse: Callable[..., Match], text: str, places: list[str], name: str, strict: bool
) -> None:
    assert_limit(lambda: parse(text, source_name=name, strict=strict), places, name)


# ---------------------------------------------------------------------------- SGF

SGF = (
    "(;FF[4]GM[6]MI[length:0]PW[a]PB[b]\n;W[31hefe])\n"
    "(;FF[4]GM[6]MI[length:0]PW[a]PB[b]\n;W[31hefe]\n;B[64xroo]\n;W[double]\n;B[take]"
    "\n;W[42mqmo]\n;B[31hfgf])\n"
)


@pytest.mark.parametrize("strict", [False, True])
def test_sgf(strict: bool) -> None:
    """Plain move nodes (read in runs) and cube actions (node by node), at the node's
    property."""
    places = [f"{line}:2" for line in range(4, 10)]
    assert_limit(lambda: parse_sgf(SGF, source_name="x.sgf", strict=strict), places, "x.sgf")


# ---------------------------------------------------------------------------- JSON


def test_json() -> None:
    """The actions array is refused before an action of it is built, at the first one
    too many (an action a line, at column 5)."""
    move = json.dumps({"type": "move", "player": 0, "dice": [3, 1], "play": [[8, 5, False]]})
    games = [
        f'  {{"number": {k}, "score": [0, 0], "result": null, "actions": [\n'
        + ",\n".join(["    " + move] * actions)
        + "\n  ]}"
        for k, actions in ((1, 1), (2, 4))
    ]
    head = '{"format": "bgkit-match", "version": 1, "players": ["a", "b"], "length": 0'
    text = head + ', "games": [\n' + ",\n".join(games) + "\n]}\n"
    lines = text.splitlines()
    second = next(n for n, line in enumerate(lines, 1) if '"number": 2' in line)
    places = [f"{second + k}:5" for k in range(1, 5)]
    assert_limit(lambda: parse_json(text, source_name="x.json"), places, "x.json")


# ---------------------------------------------------------------------------- gnubg text


def test_gnubg_text() -> None:
    """A real export: its first game's last action line refused under a limit of one
    less (the action lines found here in the text: ``* name moves/doubles/...``)."""
    path = sorted((REAL / "gnubg_txt").iterdir())[0]
    text = path.read_text("utf-8")
    lines = text.splitlines()
    scores = [n for n, line in enumerate(lines, 1) if line.lstrip().startswith("The score")]
    scores.append(len(lines) + 1)  # (the end of the last game)
    acts = [
        n
        for n, line in enumerate(lines, 1)
        if scores[0] < n < scores[1]
        and re.match(r"\* .* (moves|cannot move|doubles|accepts|rejects)", line)
    ]
    count = len(acts)
    for strict in (False, True):
        with pytest.raises(LimitError) as caught, using(Limits(max_game_actions=count - 1)):
            parse_gnubg_match(text, source_name="x.txt", strict=strict)
        assert (
            str(caught.value).splitlines()[0]
            == f"x.txt:{acts[-1]}:1: {message(count, 1, count - 1)}"
        )
        with using(Limits(max_game_actions=count)):
            assert len(parse_gnubg_match(text, strict=strict).games[0].actions) == count


# ---------------------------------------------------------------------------- XG, OGXM


def test_xg() -> None:
    """A real ``.xg`` whose game 3 has 55 actions: refused at 54 (a binary file has no
    lines: the record is named as for its other faults), read at 55."""
    path = REAL / "xg" / "kevung__gbf__charlot1-charlot2_7p_2025-11-08-2305.xg"
    with pytest.raises(LimitError) as caught:
        read_match(path, limits=Limits(max_game_actions=54))
    assert caught.value.limit == "max_game_actions"
    first = str(caught.value).splitlines()[0]
    assert first.startswith(f"{path}:1:1: {message(55, 3, 54)} (record "), first
    assert first.endswith(" of 'temp.xg', byte 8)"), first
    assert (
        max(len(g.actions) for g in read_match(path, limits=Limits(max_game_actions=55)).games)
        == 55
    )


def test_ogxm() -> None:
    """An OGXM file GammonView's ``gvformat`` writes from a real ``.mat``: its longest game
    (as read without the limit: the codec's projection drops a game's last cube action
    or so, and has no places) refused under a limit of one less, read under its own."""
    pytest.importorskip("ogxm")
    gvformat = pytest.importorskip("gvformat")
    data = gvformat.write_gvab(gvformat.convert_mat(str(REAL / "mat" / "kevung__gbf__test.mat")))
    counts = [len(game.actions) for game in parse_ogxm(data).games]
    count = max(counts)
    assert count > 100
    with pytest.raises(LimitError) as caught, using(Limits(max_game_actions=count - 1)):
        parse_ogxm(data, source_name="x.ogxm")
    assert caught.value.limit == "max_game_actions"
    game = counts.index(count) + 1
    assert str(caught.value) == f"x.ogxm:1:1: {message(count, game, count - 1)}"
    with using(Limits(max_game_actions=count)):
        parse_ogxm(data)


# ---------------------------------------------------------------------------- commands


@pytest.mark.parametrize(
    ("fmt", "shape", "line"),
    # (before, at 16 MiB, load about 1: exit 0, 658 MB and 11.2 s CPU; 460 MB, 4.7 s;
    # 474 MB, 8.3 s. After: 55 MB, 0.4 s; 119 MB, 0.3 s; 54 MB, 0.3 s)
    [
        ("mat", "unknown-plays", 5005),
        ("mat", "long-game-tab", 5006),
        ("javafibs", "long-game", 20006),
    ],
)
def test_one_long_game_is_refused_at_16_mib(
    tmp_path: Path, fmt: str, shape: str, line: int
) -> None:
    suffix, build = SHAPES[fmt][shape]
    path = tmp_path / f"{shape}.{suffix}"
    path.write_bytes(build(16 << 20))
    ran = run([*BGKIT, "verify", "-q", "-j", "1", str(path)], seconds=60, memory=2 * GIB)
    assert ran.code == 2, ran.stderr[-2000:]
    assert len(ran.lines) == 2, ran.lines
    first = ran.lines[0]
    assert first.startswith(f"{path}:{line}:"), first
    assert first.endswith(f": error: {message(10_001, 1, 10_000)}"), first
    assert ran.lines[-1].startswith("1 file(s), 0 game(s), "), ran.lines[-1]
    assert ran.max_rss < 150 << 20, (ran.max_rss >> 20, ran.seconds)
    assert ran.seconds < 10, (ran.max_rss >> 20, ran.seconds)


def test_sgf_streamed(tmp_path: Path) -> None:
    """Read a game at a time (as ``bgkit verify`` reads SGF, after the reading's
    ``using`` block), the limit given when the record was opened holds."""
    path = tmp_path / "x.sgf"
    path.write_text(SGF, encoding="utf-8")
    match = read_streamed(path, limits=Limits(max_game_actions=5))
    with pytest.raises(LimitError) as caught:
        for _ in match.games:
            pass
    assert str(caught.value).splitlines()[0] == f"{path}:9:2: {message(6, 2, 5)}"
    games = read_streamed(path, limits=Limits(max_game_actions=6)).games
    assert [len(game.actions) for game in games] == [1, 6]
