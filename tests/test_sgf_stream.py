"""An SGF record verified game by game reads and verifies as the whole record does
(issue 29: a 64 MiB record in a constant memory per game).

``bgkit verify`` reads an SGF record's games as it verifies them
(:func:`bgkit.formats.read_streamed`, :class:`bgkit.records.GameStream`), so that a game's
moves are let go once it is verified. The reference is the record read whole
(:func:`bgkit.formats.read_match`): every SGF record under ``data/`` and texts with
faults between, inside and across games must give the same report, issue for issue
(place, message, player, game, move), the same counts, or the same error.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from bgkit.errors import BgkitError
from bgkit.formats import read_match, read_streamed
from bgkit.formats.sgf import parse_sgf
from bgkit.records import GameStream
from bgkit.replay import unread_lines
from bgkit.verify import verify

DATA = Path(__file__).resolve().parent.parent / "data"
SGF_FILES = sorted(p for p in DATA.rglob("*.sgf") if p.is_file())
ROOT = "(;GM[6]MI[length:{length}][game:{game}][ws:{ws}][bs:{bs}]{names}{result}\n"
PLAYED = ";W[31hefe]\n;B[64xroo]\n;W[double]\n;B[drop])\n"

FAULTY = [
    # a node that cannot be read in the first game, a lost line in the second
    ROOT.format(length=3, game=0, ws=0, bs=0, names="PW[a]PB[b]", result="RE[W+1]")
    + ";W[31hefe]\n;B[7]\n;W[double]\n;B[drop])\n"
    + ROOT.format(length=3, game=1, ws=1, bs=0, names="PW[a]PB[b]", result="RE[B+2]")
    + ";W[31hefe]\n;B[64xroo] ~ lost\n;W[double]\n;B[take]\n;W[52mhmk]\n;B[resign:2])\n",
    # a game tree lost before the last game, a root that cannot be read, a wrong score
    ROOT.format(length=5, game=0, ws=0, bs=0, names="PW[a]PB[b]", result="RE[W+1]")
    + PLAYED
    + "(;GM[6]MI[length:5][game:1]PW[a]PB[b]\n;W[31hefe\n"
    + "(;GM[7]MI[length:5][game:2]PW[a]PB[b]\n;W[31hefe])\n"
    + ROOT.format(length=5, game=3, ws=0, bs=3, names="PW[a]PB[b]", result="RE[W+1]")
    + PLAYED,
    # the players named only in the second root; two games on one line; no last result
    ROOT.format(length=3, game=0, ws=0, bs=0, names="", result="RE[W+1]").rstrip("\n")
    + PLAYED.replace("\n", "")
    + ROOT.format(length=3, game=1, ws=1, bs=0, names="PW[Ann]PB[Bo]", result="")
    + ";W[31hefe]\n;B[64xroo])\n",
    # a money session, a beaver, the last game "and the match"
    ROOT.format(length=0, game=0, ws=0, bs=0, names="PW[a]PB[b]", result="RE[W+4]")
    + ";W[31hefe]\n;B[double]\n;W[double]\n;B[drop])\n"
    + ROOT.format(length=0, game=1, ws=4, bs=0, names="PW[a]PB[b]", result="RE[B+1]BE[1]")
    + PLAYED.replace("W[double]\n;B[drop]", "W[double]\n;B[take]\n;W[resign:1]"),
    # a single-game session with a gammon on one cube (the Jacoby pattern)
    ROOT.format(length=16, game=0, ws=0, bs=0, names="PW[a]PB[b]", result="RE[W+1]")
    + ";W[31hefe])\n",
    # a limit past in a later game's root (the whole record is refused)
    ROOT.format(length=0, game=0, ws=0, bs=0, names="PW[a]PB[b]", result="RE[W+1]")
    + PLAYED
    + ROOT.format(length=0, game=99999999999, ws=0, bs=0, names="", result="RE[W+1]")
    + PLAYED,
    # no game at all, and a text that is no SGF
    "(;GM[7]PW[a])\n",
    "not an SGF text\n",
]


def _report(read: Any, path: Path) -> Any:
    try:
        match = read(path)
        report = verify(match)
    except BgkitError as err:
        return f"{type(err).__name__}: {err}"
    issues = [issue.to_dict() for issue in report.issues]
    return report.games, report.actions_checked, report.ok, issues


@pytest.mark.parametrize(
    "path",
    [*SGF_FILES, *range(len(FAULTY))],
    ids=[*(p.name for p in SGF_FILES), *map("faulty-{}".format, range(len(FAULTY)))],
)
def test_verified_game_by_game_as_whole(path: Path | int, tmp_path: Path) -> None:
    if isinstance(path, int):
        text = FAULTY[path]
        path = tmp_path / f"faulty{path}.sgf"
        path.write_text(text, encoding="utf-8")
    streamed = _report(read_streamed, path)
    assert streamed == _report(read_match, path)


def test_the_stream_holds_a_game_or_two(tmp_path: Path) -> None:
    """Going through the games, a game gone through is no longer held; the places of
    the faults are those of the whole record, known as the games are reached."""
    text = "".join(
        ROOT.format(length=0, game=k, ws=0, bs=0, names="PW[a]PB[b]", result="RE[W+1]")
        + (";W[31hefe]\n;B[7]\n;W[double]\n;B[drop])\n" if k % 3 else PLAYED)
        for k in range(12)
    )
    whole = parse_sgf(text)
    places = unread_lines(whole)
    path = tmp_path / "session.sgf"
    path.write_text(text, encoding="utf-8")
    match = read_streamed(path)
    stream = match.games
    assert isinstance(stream, GameStream)
    assert len(stream) == 1  # (the first game, read for the header)
    streamed_places = unread_lines(match)
    for k, game in enumerate(stream):
        assert game == whole.games[k] and stream[k] is game
        assert streamed_places[k] == places[k] and streamed_places[k + 1] == places[k + 1]
        assert len(stream) == (k + 1 if k == 11 else k + 2)
        assert stream[-1] is (game if k == 11 else stream[k + 1])
        if k:
            with pytest.raises(IndexError):
                stream[k - 1]
    assert len(stream) == 12 and stream[-1] == whole.games[-1]
    with pytest.raises(RuntimeError):
        iter(stream).__next__()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
