"""Every record bgkit reads, through every format it writes and back (issue 18).

For each match record under ``data/`` (real files of nine writer programs, the
self-play matches, the dialect and convention fixtures) and each writable format, and
each pair of them one after the other: the record read back is equal to the original
(players, length, tags, comments, every action as written, results), the positions after
every action are the same, and the annotations (analysis, SGF properties, comments on
actions) are kept by SGF and JSON; OGXM keeps all but the analysis (gnubg's ``A``, ``DA``,
``LU`` and bgkit's ``BK``); ``.mat`` keeps the comments (a ``;`` line after the action's
line) but has no place for the rest (``bgkit convert`` says so when it drops an
analysis).
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest

from bgkit import Match, read_match, replay, write_match
from bgkit.errors import BgkitError
from bgkit.formats.ogxm_record import ANALYSIS_KEYS

DATA = Path(__file__).resolve().parent.parent / "data"
WRITABLE = ("mat", "sgf", "json", "ogxm")

# what cannot be written, and why (each refused with a ValueError naming it)
UNWRITABLE = {
    ("gitGNU__gnu_gibbon__initial.gmd", "sgf"): "a match without a game has none",
    # illegal plays written compactly: no legal per-die play stands for them
    ("halheinrich__BgMatchFormat_Lib__dance.mat", "sgf"): "the position does not resolve it",
    ("handwritten_3pt_illegal2.mat", "sgf"): "the position does not resolve it",
    ("handwritten_3pt_illegal3.mat", "sgf"): "the position does not resolve it",
    ("halheinrich__BgMatchFormat_Lib__dance.mat", "ogxm"): "the position does not resolve it",
    ("handwritten_3pt_illegal2.mat", "ogxm"): "the position does not resolve it",
    ("handwritten_3pt_illegal3.mat", "ogxm"): "the position does not resolve it",
    # records with faults (issue 28): illegal plays, a step away from home (JSON holds it
    # as the reader reads it; SGF and OGXM need one step per die), a line not read
    ("one_bad_line_illegal_play_text.mat", "sgf"): "the position does not resolve it",
    ("one_bad_line_illegal_play_text.mat", "ogxm"): "the position does not resolve it",
    ("one_bad_line_result_in_no_column.mat", "sgf"): "the position does not resolve it",
    ("one_bad_line_result_in_no_column.mat", "ogxm"): "the position does not resolve it",
    ("three_illegal_plays.mat", "sgf"): "the position does not resolve it",
    ("three_illegal_plays.mat", "ogxm"): "the position does not resolve it",
    ("step_away_from_home.mat", "sgf"): "the step 6/8",
    ("step_away_from_home.mat", "ogxm"): "the step 6/8",
    ("illegal_play_then_dance.mat", "sgf"): "the step 4/6",
    ("illegal_play_then_dance.mat", "ogxm"): "the step 4/6",
    ("illegal_bear_off.mat", "sgf"): "the position does not resolve it",
    ("illegal_bear_off.mat", "ogxm"): "the position does not resolve it",
    # OGXM's codec takes a match's first game at 6-5 of 7 for the Crawford game
    ("resumed-after-crawford.mat", "ogxm"): "turn order",
    # OGXM opens a set-up game with its opening roll
    ("gitGNU__gnu_gibbon__win-by-double.gmd", "ogxm"): "starts with a cube action",
    ("gitGNU__gnu_gibbon__win-by-double-complete.gmd", "ogxm"): "starts with a cube action",
}


def _records() -> list[Path]:
    found = []
    for path in sorted(p for p in DATA.rglob("*") if p.is_file()):
        if path.suffix in (".md", ".json") or path.name.startswith("."):
            continue
        try:
            read_match(path)
        except (BgkitError, ValueError):
            continue  # position exports, syntax fixtures
        found.append(path)
    return found


RECORDS = _records()


def _convert(match: Match, fmt: str) -> Match:
    if fmt == "ogxm":  # binary
        data = io.BytesIO()
        write_match(match, data, fmt)
        return read_match(io.BytesIO(data.getvalue()), format=fmt)
    out = io.StringIO()
    write_match(match, out, fmt)
    return read_match(io.StringIO(out.getvalue()), format=fmt)


def _annotations(match: Match, *, analysis: bool = True) -> list[object]:
    def kept(annotations: tuple[tuple[str, tuple[str, ...]], ...]) -> object:
        return (
            annotations if analysis else tuple(a for a in annotations if a[0] not in ANALYSIS_KEYS)
        )

    return [match.annotations] + [
        (g.annotations, [kept(a.annotations) for a in g.actions]) for g in match.games
    ]


def _comments(match: Match) -> list[list[str]]:
    """The comments of every game and action (``C``), line by line, without end blanks."""
    return [
        [
            line.rstrip()
            for item in (game, *game.actions)
            for key, values in item.annotations
            if key == "C"
            for value in values
            for line in value.split("\n")
        ]
        for game in match.games
    ]


def _positions(match: Match) -> list[str] | None:
    try:
        return [step.after.xgid() for step in replay(match)]
    except (BgkitError, ValueError):
        return None  # a record that breaks the rules: compared as written only


def test_the_corpus_is_all_there() -> None:
    formats = {p.suffix for p in RECORDS}
    assert len(RECORDS) >= 150
    assert {".mat", ".sgf", ".xg", ".gmd", ".match", ".txt"} <= formats


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_format_and_pair_gives_the_record_back(path: Path) -> None:
    match = read_match(path)
    positions = _positions(match)
    for route in [(f,) for f in WRITABLE] + list(itertools.permutations(WRITABLE, 2)):
        if any((path.name, fmt) in UNWRITABLE for fmt in route):
            fmt = next(f for f in route if (path.name, f) in UNWRITABLE)
            with pytest.raises(ValueError, match=UNWRITABLE[(path.name, fmt)]):
                for f in route:
                    _convert(match, f)
            continue
        back = match
        for fmt in route:
            back = _convert(back, fmt)
        assert back == match, route
        assert back.comments == match.comments and back.tags == match.tags, route
        if positions is not None:
            assert _positions(back) == positions, route
        if "mat" in route:  # .mat holds no annotations but comments
            assert _comments(back) == _comments(match), route
            continue
        analysis = "ogxm" not in route
        assert _annotations(back, analysis=analysis) == _annotations(match, analysis=analysis), (
            route
        )
