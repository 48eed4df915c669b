"""What a record shaped to cost the most per byte costs: ``bgkit verify`` of hostile shapes.

    python benchmarks/bench_shapes.py [--size 4M] [--formats mat,gmd,...] [--shapes NAME,...]
                                      [--seconds 120] [--folder DIR] [--keep] [--list]

``bench_large.py`` measures valid records of real games. This one builds, for each
reader, records of plausible but hostile shapes of ``--size`` bytes at most (each as
close under it as whole units of the shape allow), e.g. many tiny games, one game that
never ends (legal plays, the same checkers hit back and forth), a fault of another kind on
every line, many comments or analysis lines, long names, deep SGF variations, unknown
(``???``) plays, long runs of blank lines or of blanks, faulty game headers; see
:data:`SHAPES` (``--list`` prints them). Each record is verified by ``bgkit verify -q -j
1 --max-size SIZE FILE`` as a whole process started by ``launch.py`` (as
``bench_large.py`` does: CPU from ``wait4``, peak resident memory ``ru_maxrss``), killed
after ``--seconds`` of wall time (then ``late`` in the table). Its standard output and
error go to files in the folder (one line per issue: hundreds of thousands for a 16 MiB
record of faults). Prints a Markdown table, one row per record: format, shape, bytes,
games and actions (from verify's summary line), exit code, wall and CPU seconds, CPU µs
per byte, peak MB, bytes of memory per byte of record, the first issue line and the
summary line.

Which shapes are costly: more than 2 µs of CPU or 30 bytes of memory per byte, or cost
that grows faster than the size (run it at two sizes: ``--size 1M`` then ``--size 4M``).
Records go to ``--folder`` (default a temporary folder, removed unless ``--keep``); an
existing record of the same name is reused. ``PYTHONPATH`` picks the bgkit measured (the
records are built by the bgkit this script imports).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_large import (
    LAUNCH,
    ROOT,
    ogxm_session,
    parse_size,
    real_session,
    session,
    xg_session,
)

from bgkit.play import BAR, OFF, Play
from bgkit.records import Action, Double, Drop, Game, Match, Move, Result

Build = Callable[[int], bytes]
"""Makes a record of at most the given number of bytes."""

NAMES = ("Ann", "Bo")
LONG_NAMES = ("A" * 190 + "nn", "B" * 190 + "o")  # (under max_name_chars, 200)
GNUBG_TEXT = next((ROOT / "data" / "real" / "gnubg_txt").glob("*0ply__BoardLord*"))
"""gnubg's text export of a 7-point match, analysed at 0-ply."""
ANALYSED_SGF = (
    ROOT / "data" / "real" / "sgf" / "lassehjorthmadsen__gnubg-scripts__test-match01_analyzed.sgf"
)


# ---------------------------------------------------------------- filling a size


def fill(size: int, head: str, unit: Callable[[int], str], tail: str = "") -> bytes:
    """``head``, then ``unit(0)``, ``unit(1)``... as many as fit in ``size`` bytes with
    ``tail`` (ASCII units: a character is a byte)."""
    parts, used, i = [head], len(head) + len(tail), 0
    while True:
        piece = unit(i)
        if used + len(piece) > size:
            break
        parts.append(piece)
        used += len(piece)
        i += 1
    parts.append(tail)
    return "".join(parts).encode("utf-8")


def scaled(size: int, make: Callable[[int], bytes], probe: int = 50) -> bytes:
    """``make(n)`` for the largest ``n`` whose record fits in ``size`` (estimated from
    what ``probe`` more units add, then trimmed), ``b""`` when one unit does not fit."""
    base = len(make(1))
    if base > size:
        return b""
    per = max(1.0, (len(make(probe + 1)) - base) / probe)
    n = 1 + int((size - base) / per)
    data = make(n)
    while len(data) > size:
        n = max(1, n - max(1, int((len(data) - size) / per) + 1))
        data = make(n)
    return data


# ---------------------------------------------------------------- a game that never ends


@functools.cache
def _cycle() -> tuple[tuple[tuple[int, tuple[int, int], Play], ...], int]:
    """The plies of a game that never ends: from the initial position, each player rolls
    the roll whose play leaves most of the other's checkers on the bar and the most pips
    to go for both (hitting back and forth), until a position comes back; returns the
    plies up to the repeat and where the cycle starts. Deterministic (the rolls in a fixed
    order), so it repeats for ever."""
    from bgkit.position import Position

    rolls = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]
    pos = Position.initial()
    seen: dict[object, int] = {}
    plies: list[tuple[int, tuple[int, int], Play]] = []
    while (pos.board, pos.turn) not in seen:
        seen[(pos.board, pos.turn)] = len(plies)
        best: tuple[tuple[int, int], tuple[int, int], Play] | None = None
        for dice in rolls if plies else [r for r in rolls if r[0] != r[1]]:
            for (me, opp), play in pos.legal_results(*dice).items():
                pips = sum(i * c for i, c in enumerate(me)) + sum(i * c for i, c in enumerate(opp))
                score = (opp[BAR], pips)
                if best is None or score > best[0]:
                    best = (score, dice, play)
        assert best is not None
        _, dice, play = best
        plies.append((pos.turn, dice, play.ordered()))
        pos = pos.with_dice(*dice).apply(play)
    return tuple(plies), seen[(pos.board, pos.turn)]


def long_plies(n: int) -> Iterator[tuple[int, tuple[int, int], Play]]:
    """The first ``n`` plies of the game of :func:`_cycle`."""
    plies, start = _cycle()
    cycle = plies[start:]
    assert len(cycle) % 2 == 0
    for i in range(n):
        yield plies[i] if i < len(plies) else cycle[(i - len(plies)) % len(cycle)]


def long_match(n: int, length: int = 0) -> Match:
    actions: tuple[Action, ...] = tuple(Move(p, d, play) for p, d, play in long_plies(n))
    return Match(NAMES, length, (Game(1, (0, 0), actions, None),))


def tiny_game(i: int, score: tuple[int, int]) -> Game:
    """Game ``i + 1``: one roll, a double and a drop (the shortest game a record holds)."""
    actions = (Move(0, (3, 1), Play("8/5 6/5")), Double(1, 2), Drop(0))
    return Game(i + 1, score, actions, Result(1, 1))


def tiny_match(n: int, names: tuple[str, str] = NAMES) -> Match:
    return Match(names, 0, tuple(tiny_game(i, (0, i)) for i in range(n)))


def _with_notes(match: Match, notes: tuple[tuple[str, tuple[str, ...]], ...]) -> Match:
    games = []
    for game in match.games:
        actions = tuple(dataclasses.replace(a, annotations=notes) for a in game.actions)
        games.append(dataclasses.replace(game, actions=actions))
    return dataclasses.replace(match, games=tuple(games))


@functools.cache
def _analysed() -> Match:
    import bgkit

    return bgkit.read_match(ANALYSED_SGF)


def analysed_session(n: int) -> Match:
    """A money session of the analysed SGF's games (gnubg's ``A``, ``DA``, ``LU``... on
    every action), over and over, each headed 0-0 (BgMatchFormat's convention)."""
    source = _analysed()
    games = []
    for i in range(n):
        game = source.games[i % len(source.games)]
        result = game.result
        if result is not None:
            result = dataclasses.replace(result, match_won=False)
        games.append(dataclasses.replace(game, number=i + 1, score=(0, 0), result=result))
    return Match(source.players, 0, tuple(games))


def one_move_analysed(n: int) -> Match:
    """One game whose first move carries ``n`` analysed alternatives (gnubg's ``A``
    property, its first move's list over and over)."""
    source = _analysed().games[0]
    first = source.actions[0]
    notes = dict(first.annotations)
    alternatives = notes["A"][1:]
    many = ("0", *(alternatives[i % len(alternatives)] for i in range(n)))
    move = dataclasses.replace(first, annotations=(("A", many),))
    game = dataclasses.replace(source, actions=(move, *source.actions[1:]), score=(0, 0))
    return Match(_analysed().players, 0, (game,))


# ---------------------------------------------------------------- .mat


def _mat_game_head(n: int, score: tuple[int, int], names: tuple[str, str] = NAMES) -> str:
    left = f" {names[0]} : {score[0]}"
    return f"\n Game {n}\n{left.ljust(31)}{names[1]} : {score[1]}\n"


def mat_faults(size: int) -> bytes:
    """Games of five lines, each line a fault of another kind: a wrong score in the header,
    an illegal play and an unreadable play, a cube offered at 3, a roll with no move
    where there is one, a line that cannot be read, a win of the wrong number of points."""

    def game(i: int) -> str:
        return (
            _mat_game_head(i + 1, (7, i))
            + "  1) 31: 8/4 6/5                 21: 13/11 6/qq\n"
            + "  2) 53: 13/8 13/10               Doubles => 3\n"
            + "  3)  Takes                       64:\n"
            + "  4) %%%% this line means nothing %%%%\n"
            + "      Wins 5 points\n"
        )

    return fill(size, " 0 point match\n", game)


def mat_bad_headers(size: int) -> bytes:
    """Games whose headers are each wrong another way (a score that does not follow, a
    name that changes, a number out of order, a garbled score line), with one good roll."""

    def game(i: int) -> str:
        kind = i % 4
        head = {
            0: _mat_game_head(i + 1, (i + 5, 0)),
            1: _mat_game_head(i + 1, (0, i), ("Cy", "Bo")),
            2: _mat_game_head(i * 3 + 7, (0, i)),
            3: f"\n Game {i + 1}\n Ann ; {i}   Bo : x{i}\n",
        }[kind]
        return (
            head
            + "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Drops\n"
            + ("                                  Wins 1 point\n")
        )

    return fill(size, " 0 point match\n", game)


def mat_unknown(size: int) -> bytes:
    """One game of unknown plays (XG's ``???``, BgBlitz's ``????``): the position is lost
    at the first, so every later roll is unverifiable."""

    def line(i: int) -> str:
        return f"{i + 1:>4}) 31: ???                     53: ????\n"

    return fill(size, " 0 point match\n" + _mat_game_head(1, (0, 0)), line)


def mat_unknown_games(size: int) -> bytes:
    """Games of one known and one unknown play each (a note for each game)."""

    def game(i: int) -> str:
        return (
            _mat_game_head(i + 1, (0, i))
            + "  1) 31: 8/5 6/5                  21: ???\n"
            + "                                  Wins 1 point\n"
        )

    return fill(size, " 0 point match\n", game)


def mat_comments(size: int) -> bytes:
    """A short valid match, then comment and tag lines (``;``), a few in each game."""
    head = " 0 point match\n"

    def unit(i: int) -> str:
        return f'; [Tag{i} "{"comment " * 8}{i}"]\n; a comment between games {i}\n'

    text = fill(size // 2, head, unit).decode()
    body = tiny_match(1).to_mat().split("\n", 2)[2]
    return fill(size, text + body, lambda i: f"; a comment {'x' * 60} {i}\n")


def mat_game_comments(size: int) -> bytes:
    """The game of ``long-game`` with a comment line after each of its lines (each goes
    on the action before it, as SGF's ``C``)."""

    def make(n: int) -> bytes:
        text = long_match(n).to_mat()
        return re.sub(r"(?m)^( *[0-9]+\).*\n)", r"\1; a comment\n", text).encode()

    return scaled(size, make, probe=200)


def mat_blank_lines(size: int) -> bytes:
    """A valid game cut by empty lines: ``size`` lines of one byte."""
    text = tiny_match(1).to_mat()
    cut = text.index("  1)")
    return fill(size, text[:cut], lambda i: "\n", text[cut:])


def mat_tab_blank_lines(size: int) -> bytes:
    """``blank-lines`` with one tab, in a comment at its top: off the fast path, the
    blank lines are Lark's to skip (mat.lark's ``_NL``)."""
    return b"; a\tcomment\n" + mat_blank_lines(size - 12)


def mat_blank_runs(size: int) -> bytes:
    """A valid game cut by lines of 99,000 blanks (under ``max_line_chars``)."""
    text = tiny_match(1).to_mat()
    cut = text.index("  1)")
    return fill(size, text[:cut], lambda i: " " * 99_000 + "\n", text[cut:])


def _mat_session(n: int) -> str:
    """bench_large's money session of the sample's games (valid, every game headed 0-0)."""
    return session(n).to_mat()


def mat_crlf(size: int) -> bytes:
    """bench_large's valid session of real games, with Windows line ends (CR LF), as
    Windows programs write them."""
    return scaled(size, lambda n: _mat_session(n).replace("\n", "\r\n").encode())


def mat_one_tab(size: int) -> bytes:
    """bench_large's valid session of real games with one tab, in a comment at its top."""
    return scaled(size, lambda n: ("; a\tcomment\n" + _mat_session(n)).encode())


STUDIO = next((ROOT / "data" / "real" / "mat").glob("*BoardLord_-_Llabba_7pt*"))
"""A real Backgammon Studio ``.mat`` record, one of the real records bgkit's ``.mat``
fast path does not read (a third of ``data/real/mat``): Lark reads it."""


def mat_studio(size: int) -> bytes:
    """:data:`STUDIO`'s games over and over as a money session, each headed 0-0 (the
    writer's lines kept, only the numbers of games and scores changed)."""
    text = STUDIO.read_text(encoding="utf-8").replace("\r\n", "\n")
    head, _, rest = text.partition("\n Game 1\n")
    head = re.sub(r"(?m)^ *[0-9]+ point match", "0 point match", head)
    blocks = re.split(r"\n Game [0-9]+\n", "\n Game 1\n" + rest)[1:]
    zeroed = [
        re.sub(r"^( .*? : )[0-9]+( +.*? : )[0-9]+", r"\g<1>0\g<2>0", b).replace(
            " and the match", ""
        )
        for b in blocks
    ]

    def unit(i: int) -> str:
        return f"\n Game {i + 1}\n" + zeroed[i % len(zeroed)].rstrip("\n") + "\n"

    return fill(size, head, unit)


def mat_long_tab(size: int) -> bytes:
    """The game of ``long-game`` with one tab, in a comment at its top: the ``.mat`` fast
    path reads no record with a tab (nor with a ``???`` play, nor a third of the real
    records), and Lark's parse holds a game's tokens until its end."""
    return scaled(size, lambda n: ("; a\tcomment\n" + long_match(n).to_mat()).encode(), 200)


def mat_numbers(size: int) -> bytes:
    """The game of ``long-game`` with every move number of nine digits, the most a
    number may have (``max_integer_digits``)."""

    def make(n: int) -> bytes:
        text = long_match(n).to_mat()
        return re.sub(r"(?m)^ *[0-9]+\)", " 999999999)", text).encode()

    return scaled(size, make, probe=200)


# ---------------------------------------------------------------- GMD and JavaFIBS


def _gmd_steps(player: int, play: Play) -> str:
    def point(p: int) -> str:
        if p == BAR:
            return "bar"
        if p == OFF:
            return "off"
        return str(p if player == 0 else 25 - p)

    return " ".join(f"{point(s.src)}/{point(s.dst)}" for s in play.steps)


GMD_HEAD = "GMD-2 # Created by Gibbon version 0.2.0\nLength: unlimited\n"


def _gmd_head(names: tuple[str, str] = NAMES) -> str:
    return GMD_HEAD + f"Player:W: {names[0]}\nPlayer:B: {names[1]}\nRule: Crawford\n"


def gmd_tiny(size: int, names: tuple[str, str] = NAMES) -> bytes:
    unit = "Game:\nRoll:W:: 3 1\nMove:W:: 8/5 6/5\nDouble:B:\nDrop:W:\n"
    return fill(size, _gmd_head(names), lambda i: unit)


def gmd_long(size: int) -> bytes:
    plies = long_plies(10**9)

    def ply(i: int) -> str:
        p, d, play = next(plies)
        c = "WB"[p]
        return f"Roll:{c}:: {d[0]} {d[1]}\nMove:{c}:: {_gmd_steps(p, play)}\n"

    return fill(size, _gmd_head() + "Game:\n", ply)


def gmd_faults(size: int) -> bytes:
    """Games of faults: a move that is not the roll's, an unreadable line, a double at
    the wrong time, a take with no double, a move with no roll, a roll with no move."""
    unit = (
        "Game:\nRoll:W:: 3 1\nMove:W:: 8/4 6/5\nRoll:B:: 5 3\nMove:B:: 1/qq\n"
        "Take:W:\nMove:W:: 13/10\nDouble:W:\nDouble:W:\nRoll:B:: 6 4\nRoll:W:: 2 1\n"
        "%%%% nothing %%%%\nDrop:B:\n"
    )
    return fill(size, _gmd_head(), lambda i: unit)


def gmd_bad_headers(size: int) -> bytes:
    """Games whose ``Game:`` lines set up positions that are wrong each another way."""
    points = "0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0"

    def unit(i: int) -> str:
        setup = [
            f"Game: Scores{{{i} 2}} Points{{{points} 9}} Cube{{3}}",
            "Game: Scores{x}",
            f"Game: Points{{{points.replace('5', '6')}}} Dice{{7 1}}",
            "Game: Cube{-2} May-Double{2 2} Turn{5}",
        ][i % 4]
        return setup + "\nRoll:W:: 3 1\nMove:W:: 8/5 6/5\nDouble:B:\nDrop:W:\n"

    return fill(size, _gmd_head(), unit)


def gmd_blank_lines(size: int) -> bytes:
    return fill(size, _gmd_head() + "Game:\nRoll:W:: 3 1\n", lambda i: "\n", "Move:W:: 8/5 6/5\n")


FIBS_HEAD = "JavaFIBS internal match representation v1.1\n8:Bo:9999\n"


def fibs_tiny(size: int) -> bytes:
    def unit(i: int) -> str:
        return (
            f"13:Bo:\n6:You:Bo\n11:You:3 1\n1:You:8-5 6-5\n2:Bo:\n5:You:\n7:Bo:1\n"
            f"14:You-0:Bo-{i + 1}\n"
        )

    return fill(size, FIBS_HEAD, unit)


def fibs_long(size: int) -> bytes:
    plies = long_plies(10**9)

    def ply(i: int) -> str:
        p, d, play = next(plies)
        who = ("You", "Bo")[p]
        code = 11 if i == 0 else 0
        steps = _gmd_steps(p, play).replace("/", "-")  # (one numbering in a game: You's)
        return f"{code}:{who}:{d[0]} {d[1]}\n1:{who}:{steps}\n"

    return fill(size, FIBS_HEAD + "13:Bo:\n6:You:Bo\n", ply)


def fibs_faults(size: int) -> bytes:
    """Games of faults: an illegal move, an unreadable move, a code no writer uses, a
    take with no double, a drop by the wrong player, a win of the wrong points."""

    def unit(i: int) -> str:
        return (
            "13:Bo:\n6:You:Bo\n11:You:3 1\n1:You:8-4 6-5\n0:Bo:5 3\n1:Bo:1-qq\n"
            "99:Bo:what\n4:You:\n0:You:6 4\n0:You:6 4\n2:Bo:\n5:Bo:\n7:Bo:5\n"
            f"14:You-7:Bo-{i}\n"
        )

    return fill(size, FIBS_HEAD, unit)


def fibs_blank_lines(size: int) -> bytes:
    return fill(
        size, FIBS_HEAD + "13:Bo:\n6:You:Bo\n11:You:3 1\n", lambda i: "\n", "1:You:8-5 6-5\n"
    )


# ---------------------------------------------------------------- SGF


SGF_ROOT = (
    "(;FF[4]GM[6]CA[UTF-8]AP[bgkit:0.1.0]MI[length:0][game:{n}][ws:0][bs:{b}]PW[{w}]PB[{k}]RU[]"
)


def sgf_variations(size: int) -> bytes:
    """Games whose main line (one roll, a double, a drop) has beside it, after the roll, a
    chain of variations nested 990 deep (under ``max_nesting``), each one comment node."""
    depth = 990

    def game(i: int) -> str:
        root = SGF_ROOT.format(n=i, b=i + 1, w=NAMES[0], k=NAMES[1])
        chain = "(;C[v]" * depth + ")" * depth
        return root + f"RE[B+1]\n;W[31hefe](;B[double];W[drop]){chain})\n"

    return fill(size, "", game)


def sgf_comments(size: int) -> bytes:
    """One game of a few moves, each with a comment of up to 64 KiB (``C``), over and
    over (the comment's text is kept with its move)."""
    note = "a comment " * 6000

    def game(i: int) -> str:
        root = SGF_ROOT.format(n=i, b=i + 1, w=NAMES[0], k=NAMES[1])
        return (
            root + f"RE[B+1]C[{note}]\n;W[31hefe]C[{note}];B[double]C[{note}];W[drop]C[{note}])\n"
        )

    return fill(size, "", game)


def sgf_blanks(size: int) -> bytes:
    """A valid game with a run of blanks and line ends between two of its nodes."""
    text = tiny_match(1).to_sgf()
    cut = text.index(";", 2)
    return fill(size, text[:cut], lambda i: " " * 79 + "\n", text[cut:])


def sgf_faults(size: int) -> bytes:
    """Games of faults: a wrong score in the root, an illegal move, an unreadable move, a
    move out of turn, a take of no double, a double out of turn, a property with an
    unknown name, a wrong result."""

    def game(i: int) -> str:
        root = SGF_ROOT.format(n=i, b=i + 7, w=NAMES[0], k=NAMES[1])
        return (
            root + "RE[W+9]\n;W[31hdfe];B[53zz];B[64xrxt];W[take];B[double];B[double]"
            ";ZZ[x];W[drop])\n"
        )

    return fill(size, "", game)


# ---------------------------------------------------------------- gnubg's text export


def _export_blocks() -> tuple[str, list[str]]:
    text = GNUBG_TEXT.read_text(encoding="utf-8")
    head, _, rest = text.partition("\nMove number 1:")
    blocks = ("\nMove number 1:" + rest).split("\nMove number ")
    return head, ["\nMove number " + b for b in blocks if b]


def gnubg_analysis(size: int) -> bytes:
    """One move whose analysis lists alternatives over and over (rank numbers going up)."""
    head, blocks = _export_blocks()
    first = blocks[0]
    top, _, rest = first.partition("\n*    1.")
    line2 = rest.split("\n")[1]
    alt = "     {n}. Cubeful 0-ply    24/18                        Eq.: -0.035 (-0.037)\n"

    def unit(i: int) -> str:
        return alt.format(n=i + 2) + line2 + "\n"

    return fill(size, head + top + "\n*    1." + rest.split("\n")[0] + "\n" + line2 + "\n", unit)


def gnubg_blank_lines(size: int) -> bytes:
    head, blocks = _export_blocks()
    return fill(size, head + blocks[0], lambda i: "\n", "".join(blocks[1:4]))


def gnubg_repeated(size: int) -> bytes:
    """The moves of the real export over and over in one game (their numbers going on)."""
    head, blocks = _export_blocks()

    def unit(i: int) -> str:
        block = blocks[i % len(blocks)]
        return re.sub(r"^\nMove number [0-9]+:", f"\nMove number {i + 1}:", block)

    return fill(size, head, unit)


# ---------------------------------------------------------------- JSON


def json_deep_whitespace(size: int) -> bytes:
    """A valid record whose JSON is indented by runs of blanks."""
    text = tiny_match(1).to_json()
    cut = text.index('"games"')
    return fill(size, text[:cut], lambda i: " " * 79 + "\n", text[cut:])


def json_faults(size: int) -> bytes:
    """Games whose actions are each wrong another way (an illegal play, dice out of
    range, a cube value never offered, a player who is not on roll, an unknown type)."""
    game = json.loads(tiny_match(1).to_json())["games"][0]
    bad = [
        {"type": "move", "player": 0, "dice": [3, 1], "play": [[8, 4, False], [6, 5, False]]},
        {"type": "move", "player": 1, "dice": [9, 1], "play": [[24, 23, False]]},
        {"type": "double", "player": 1, "value": 3},
        {"type": "move", "player": 1, "dice": [6, 4], "play": [[24, 14, False]]},
        {"type": "wave", "player": 0},
        {"type": "take", "player": 0},
    ]
    base = json.loads(tiny_match(1).to_json())

    def make(n: int) -> bytes:
        games = [dict(game, number=i + 1, score=[7, i], actions=bad) for i in range(n)]
        return json.dumps(dict(base, games=games)).encode()

    return scaled(size, make)


# ---------------------------------------------------------------- the shapes


def _w(fmt: str, match_of: Callable[[int], Match]) -> Build:
    """A builder of the largest record ``match_of(n)`` written in ``fmt`` that fits."""

    def build(size: int) -> bytes:
        def make(n: int) -> bytes:
            m = match_of(n)
            return {"mat": m.to_mat, "sgf": m.to_sgf, "json": m.to_json}[fmt]().encode()

        return scaled(size, make, probe=200)

    return build


def _long(fmt: str) -> Build:
    return _w(fmt, lambda n: long_match(n))


def _tiny(fmt: str, names: tuple[str, str] = NAMES) -> Build:
    return _w(fmt, lambda n: tiny_match(n, names))


def _xg(size: int) -> bytes:
    """:func:`bench_large.xg_session` (real games, deflated) of at most ``size`` bytes,
    its match file inflating to at most ``max_inflated_bytes``."""
    from bgkit.limits import DEFAULT_LIMITS

    inflated = min(DEFAULT_LIMITS.with_max_size(size).max_inflated_bytes, size * 12)
    while True:
        try:
            return xg_session(size, inflated)
        except SystemExit:
            inflated = inflated * 4 // 5


def _or_nothing(build: Build, size: int) -> bytes:
    """``build(size)``, or nothing when the shape cannot be made that small."""
    try:
        return build(size)
    except SystemExit:
        return b""


def _comment_notes(fmt: str) -> Build:
    note = (("C", ("a comment " * 400,)),)
    return _w(fmt, lambda n: _with_notes(long_match(n), note))


def _written(fmt: str) -> dict[str, tuple[str, Build]]:
    """The shapes of a format bgkit writes (SGF, JSON), made by its writer."""
    return {
        "tiny-games": (fmt, _tiny(fmt)),
        "long-game": (fmt, _long(fmt)),
        "analysed-games": (fmt, _w(fmt, analysed_session)),
        "one-move-analysis": (fmt, _w(fmt, one_move_analysed)),
        "comment-per-move": (fmt, _comment_notes(fmt)),
    }


SHAPES: dict[str, dict[str, tuple[str, Build]]] = {
    "mat": {
        "real-games": ("mat", lambda size: scaled(size, lambda n: _mat_session(n).encode())),
        "crlf-games": ("mat", mat_crlf),
        "studio-games": ("mat", mat_studio),
        "one-tab": ("mat", mat_one_tab),
        "tiny-games": ("mat", _tiny("mat")),
        "long-game": ("mat", _long("mat")),
        "long-game-tab": ("mat", mat_long_tab),
        "faults": ("mat", mat_faults),
        "bad-headers": ("mat", mat_bad_headers),
        "unknown-plays": ("mat", mat_unknown),
        "unknown-games": ("mat", mat_unknown_games),
        "comments": ("mat", mat_comments),
        "game-comments": ("mat", mat_game_comments),
        "long-names": ("mat", _tiny("mat", LONG_NAMES)),
        "blank-lines": ("mat", mat_blank_lines),
        "tab-blank-lines": ("mat", mat_tab_blank_lines),
        "blank-runs": ("mat", mat_blank_runs),
        "big-numbers": ("mat", mat_numbers),
    },
    "gmd": {
        "tiny-games": ("gmd", gmd_tiny),
        "long-game": ("gmd", gmd_long),
        "faults": ("gmd", gmd_faults),
        "bad-headers": ("gmd", gmd_bad_headers),
        "blank-lines": ("gmd", gmd_blank_lines),
        "real-games": ("gmd", lambda size: scaled(size, lambda n: real_session("gmd", n))),
    },
    "javafibs": {
        "tiny-games": ("match", fibs_tiny),
        "long-game": ("match", fibs_long),
        "faults": ("match", fibs_faults),
        "blank-lines": ("match", fibs_blank_lines),
    },
    "sgf": {
        **_written("sgf"),
        "comments": ("sgf", sgf_comments),
        "variations": ("sgf", sgf_variations),
        "long-names": ("sgf", _tiny("sgf", LONG_NAMES)),
        "faults": ("sgf", sgf_faults),
        "blanks": ("sgf", sgf_blanks),
    },
    "json": {
        **_written("json"),
        "faults": ("json", json_faults),
        "whitespace": ("json", json_deep_whitespace),
    },
    "gnubg-text": {
        "real-moves": ("txt", gnubg_repeated),
        "analysis-lines": ("txt", gnubg_analysis),
        "blank-lines": ("txt", gnubg_blank_lines),
    },
    "xg": {
        "real-games": ("xg", _xg),
    },
    "ogxm": {
        "codec-max": ("ogxm", lambda size: _or_nothing(ogxm_session, size)),
    },
}
"""Per format, its shapes: ``name: (file suffix, builder)``."""

SAY = {
    "real-games": "a valid session of a real record's games, over and over (bench_large's)",
    "tiny-games": "many games of one roll, a double and a drop (the shortest a record holds)",
    "long-game": "one game that never ends: legal plays, checkers hit back and forth",
    "long-names": "tiny games whose players have names of 191 and 192 characters",
    "blank-lines": "a valid game cut by empty lines: one line a byte",
    "analysed-games": "a session of gnubg's analysed SGF games (A, DA, LU on every action)",
    "one-move-analysis": "one move with gnubg's list of analysed plays (A) over and over",
    "comment-per-move": "the game that never ends with a comment of 4 KB on every action",
    "codec-max": "the largest session the OGXM codec writes (its limits on games and plies)",
}
"""What the shapes whose builders have no docstring are."""


# ---------------------------------------------------------------- measuring


@dataclasses.dataclass
class Row:
    fmt: str
    shape: str
    size: int
    code: int
    wall: float
    cpu: float
    max_rss: int
    late: bool
    first: str
    summary: str

    def numbers(self) -> tuple[int, int] | None:
        m = re.search(r"([0-9]+) game\(s\), ([0-9]+) action\(s\)", self.summary)
        return (int(m[1]), int(m[2])) if m else None


def measure(path: Path, seconds: float) -> Row:
    """``bgkit verify -q -j 1`` of ``path`` as a whole process, its output to files."""
    size = path.stat().st_size
    args = [sys.executable, "-m", "bgkit", "verify", "-q", "-j", "1"]
    args += ["--max-size", str(max(size, 1 << 20)), str(path)]
    out, err = path.with_suffix(path.suffix + ".out"), path.with_suffix(path.suffix + ".err")
    report = path.with_suffix(path.suffix + ".cost")
    spec = json.dumps({"args": args, "report": str(report), "seconds": seconds})
    with out.open("wb") as o, err.open("wb") as e:
        subprocess.run(  # (in the record's folder: ``-m`` puts the folder first on the path,
            # so that PYTHONPATH, not a bgkit tree the script runs from, says which bgkit)
            [sys.executable, str(LAUNCH), spec],
            stdout=o,
            stderr=e,
            check=True,
            cwd=path.parent,
        )
    code, wall, cpu, max_rss, late = json.loads(report.read_text())
    first, summary = _first_and_last(err)
    return Row("", "", size, code, wall, cpu, max_rss, late, first, summary)


def _first_and_last(path: Path) -> tuple[str, str]:
    """The first issue line and the last line of a (possibly huge) output file."""
    with path.open("rb") as f:
        first = f.readline().decode("utf-8", "replace").rstrip("\n")
        f.seek(max(0, path.stat().st_size - 4096))
        tail = f.read().decode("utf-8", "replace").rstrip("\n").splitlines()
    last = tail[-1] if tail else ""
    if first == last:  # (only the summary)
        first = ""
    return first, last


def _short(text: str, path: Path, n: int = 110) -> str:
    text = text.replace(str(path), "F").replace("|", "\\|")
    return text if len(text) <= n else text[: n - 1] + "…"


def print_row(row: Row, path: Path) -> None:
    counts = row.numbers()
    games, actions = (f"{counts[0]:,}", f"{counts[1]:,}") if counts else ("?", "?")
    code = f"{row.code} late" if row.late else str(row.code)
    print(
        f"| {row.fmt} | {row.shape} | {row.size:,} | {games} | {actions} | {code}"
        f" | {row.wall:.1f} | {row.cpu:.1f} | {row.cpu / row.size * 1e6:.2f}"
        f" | {row.max_rss / 1e6:.0f} | {row.max_rss / row.size:.1f}"
        f" | {_short(row.first, path)} | {_short(row.summary, path)} |",
        flush=True,
    )


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--size", type=parse_size, default=4 << 20)
    cli.add_argument("--formats", default=",".join(SHAPES))
    cli.add_argument("--shapes", default="", help="names of shapes (all when empty)")
    cli.add_argument("--seconds", type=float, default=120.0, help="wall time cap per run")
    cli.add_argument("--folder", type=Path)
    cli.add_argument("--keep", action="store_true")
    cli.add_argument("--list", action="store_true", help="print the shapes and stop")
    args = cli.parse_args()
    wanted = set(filter(None, args.shapes.split(",")))
    if args.list:
        for fmt, shapes in SHAPES.items():
            for name, (_, build) in shapes.items():
                doc = (build.__doc__ or SAY.get(name, "")).strip().split("\n")[0]
                print(f"{fmt:10} {name:18} {doc}")
        return
    folder = args.folder or Path(tempfile.mkdtemp(prefix="bgkit-shapes-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"# bgkit verify -q -j 1 on hostile records of at most {args.size:,} bytes ({folder})")
    which = [sys.executable, "-c", "import bgkit; print(bgkit.__file__)"]
    measured = subprocess.run(which, capture_output=True, text=True, cwd=folder).stdout.strip()
    print(f"# bgkit measured: {os.path.dirname(measured)}")
    print(
        "| format | shape | bytes | games | actions | exit | wall s | CPU s | CPU µs/byte"
        " | peak MB | bytes/byte | first issue | summary |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    try:
        for fmt in args.formats.split(","):
            for name, (suffix, build) in SHAPES[fmt].items():
                if wanted and name not in wanted:
                    continue
                path = folder / f"{fmt}-{name}-{args.size}.{suffix}"
                if not path.exists():
                    data = build(args.size)
                    path.write_bytes(data if len(data) <= args.size else b"")
                if path.stat().st_size == 0:
                    print(f"| {fmt} | {name} | 0 | (one unit of the shape is larger than --size) |")
                    continue
                row = measure(path, args.seconds)
                row.fmt, row.shape = fmt, name
                print_row(row, path)
    finally:
        if args.folder is None and not args.keep:
            shutil.rmtree(folder)


if __name__ == "__main__":
    main()
