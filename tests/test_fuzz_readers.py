"""Every reader does bounded work on hostile input and fails only with a bgkit error;
every position reaches GNU Backgammon only through the engine gate.

Hypothesis grows real records of each format in the ways an attacker would (a slice
repeated thousands of times, brackets nested deep, one enormous token or number, the
record cut short) and feeds them to the reader: each answer must be a match (or
position) or a :class:`~bgkit.errors.BgkitError`, never another exception, in time
bounded by the size of the input. Positions made of hostile fields (match lengths past
gnubg's tables, cubes past its levels, finished games, odd checker counts) go through
what ``show``, ``moves`` and ``hint`` do with the engine in the loop, in a worker that a
crash in gnubg cannot take down: figures that are numbers, or one bgkit error.

CI runs a short run (``BGKIT_FUZZ_EXAMPLES``, default 60 examples a reader, 150
positions). The long run, before a release (about an hour on 2 cores)::

    BGKIT_FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz_readers.py -p no:randomly
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgkit.errors import BgkitError
from bgkit.formats.bgblitz_text import parse_bgblitz_text
from bgkit.formats.gmd import parse_gmd
from bgkit.formats.gnubg_text import parse_gnubg_text
from bgkit.formats.javafibs import parse_javafibs
from bgkit.formats.json_record import parse_json
from bgkit.formats.mat import parse_mat
from bgkit.formats.sgf import parse_sgf
from bgkit.formats.xg import parse_xg
from bgkit.formats.xg_text import parse_xg_text
from bgkit.play import Play
from bgkit.position import Position

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "data" / "real"
SELFPLAY = ROOT / "data" / "selfplay" / "selfplay_0002.mat"


def _smallest(folder: str, count: int = 2) -> list[bytes]:
    files = sorted((REAL / folder).iterdir(), key=lambda p: p.stat().st_size)
    return [p.read_bytes() for p in files[:count]]


def _json_seed() -> bytes:
    from bgkit.formats import read_match

    return read_match(SELFPLAY).to_json().encode("utf-8")


POSITIONS = [
    b"XGID=-b----E-C---eE---c-e----B-:0:0:1:42:0:0:0:0:10",
    b"4HPwATDgc/ABMA:cAkAAAAAAAAA",
    b"board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:"
    b"-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0",
]


def _text(parse: Callable[..., Any]) -> Callable[[bytes], object]:
    return lambda data: parse(data.decode("utf-8", "replace"), source_name="fuzz")


READERS: dict[str, tuple[Callable[[bytes], object], list[bytes]]] = {
    "mat": (_text(parse_mat), _smallest("mat")),
    "sgf": (_text(parse_sgf), _smallest("sgf")),
    "json": (_text(parse_json), [_json_seed()]),
    "xg": (lambda data: parse_xg(data, source_name="fuzz"), _smallest("xg", 1)),
    "gmd": (_text(parse_gmd), _smallest("gmd")),
    "javafibs": (_text(parse_javafibs), _smallest("javafibs", 1)),
    "gnubg_text": (_text(parse_gnubg_text), _smallest("gnubg_txt", 1)),
    "xg_text": (_text(parse_xg_text), _smallest("xg_txt", 1)),
    "bgblitz_text": (_text(parse_bgblitz_text), _smallest("bgblitz_txt", 1)),
    "position": (lambda data: Position.parse(data.decode("utf-8", "replace")), POSITIONS),
    "play": (lambda data: Play.parse(data.decode("utf-8", "replace")), [b"24/20* 13/8(2) bar/22"]),
}


def _ogxm_seed() -> bytes:
    from bgkit.formats import read_match
    from bgkit.formats.ogxm_record import dumps_ogxm

    return dumps_ogxm(read_match(SELFPLAY))


def _ogxm_parse(data: bytes) -> object:
    from bgkit.formats.ogxm_record import parse_ogxm

    return parse_ogxm(data, source_name="fuzz")


with contextlib.suppress(ImportError):  # (the ogxm extra)
    READERS["ogxm"] = (_ogxm_parse, [_ogxm_seed()])


_NESTS = ["(", "[", "{", "(;", '{"a":[']
_TOKENS = ["A", " ", "9", "/", "24/20 ", "\t", "\\"]
_GROWTH = st.one_of(
    st.tuples(st.just("repeat"), st.integers(1, 200), st.integers(2, 20_000)),
    st.tuples(st.just("nest"), st.sampled_from(_NESTS), st.integers(1, 50_000)),
    st.tuples(st.just("token"), st.sampled_from(_TOKENS), st.integers(1, 2_000_000)),
    st.tuples(st.just("cut"), st.just(0), st.just(0)),
)


def grow(data: bytes, where: int, how: tuple[str, Any, int]) -> bytes:
    """``data`` with one hostile change at ``where`` (a fraction of its length, in 1/1000)."""
    at = len(data) * where // 1000
    kind, what, times = how
    if kind == "repeat":
        return data[:at] + data[at : at + what] * times + data[at:]
    if kind == "cut":
        return data[:at]
    return data[:at] + str(what).encode("utf-8") * times + data[at:]


EXAMPLES = int(os.environ.get("BGKIT_FUZZ_EXAMPLES", "60"))


@pytest.mark.parametrize("fmt", sorted(READERS))
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(where=st.integers(0, 1000), how=_GROWTH, seed=st.integers(0, 10))
def test_hostile_growth(fmt: str, where: int, how: tuple[str, Any, int], seed: int) -> None:
    parse, seeds = READERS[fmt]
    data = grow(seeds[seed % len(seeds)], where, how)
    start = time.monotonic()
    try:
        parse(data)
    except BgkitError as err:
        assert str(err).splitlines()[0]
        assert all(len(line) < 400 for line in str(err).splitlines())
    seconds = time.monotonic() - start
    # linear work: real readers take ~4 µs per byte; the margin is for a loaded machine
    assert seconds < 5 + len(data) / 100_000, (fmt, how, len(data), seconds)


# ---------------------------------------------------------------------- with the engine

_LAYOUTS = [
    "-b----E-C---eE---c-e----B-",  # the opening
    "-aaa------------------AAA-",  # three a side (XGID: twelve borne off)
    "-A--------------------a---",  # a race of one checker each
    "-BBBBBB------------bbbbbb-",  # a bear-off
]


@st.composite
def hostile_xgids(draw: st.DrawFn) -> str:
    """An XGID with every field drawn from what gnubg supports and far past it."""
    layout = draw(st.sampled_from(_LAYOUTS))
    cube = draw(st.integers(0, 15))
    owner = draw(st.sampled_from([-1, 0, 1]))
    turn = draw(st.sampled_from([-1, 1]))
    dice = draw(st.sampled_from(["00", "52", "66", "11", "61", "D"]))
    length = draw(
        st.one_of(st.integers(0, 70), st.sampled_from([27_682, 30_000, 32_767, 999_999_999]))
    )
    top = max(length - 1, 0) if length else 40_000
    score = draw(st.tuples(st.integers(0, top), st.integers(0, top)))
    crawford = draw(st.integers(0, 1)) if length else 0
    limit = draw(st.integers(0, 15))
    fields = (cube, owner, turn, dice, *score, crawford, length, limit)
    return f"XGID={layout}:" + ":".join(str(f) for f in fields)


def _engine_answer(text: str) -> object:
    """What ``show``, ``moves`` and ``hint --json`` do with a position (run in a worker)."""
    from bgkit import hint
    from bgkit.errors import BgkitError

    try:
        pos = Position.parse(text)
    except BgkitError as err:
        return ("refused", str(err).splitlines()[0])
    answers: list[object] = []
    for show in (str, lambda p: p.xgid(), lambda p: p.fibs(), lambda p: p.match_id()):
        try:
            answers.append(show(pos))
        except BgkitError as err:
            answers.append(("refused", str(err).splitlines()[0]))
    if pos.dice is not None:
        try:
            answers.append(len(pos.legal_plays()))
        except BgkitError as err:
            answers.append(("refused", str(err).splitlines()[0]))
    try:
        answers.append(hint(pos, plies=0, candidates=3).to_dict())
    except BgkitError as err:
        answers.append(("refused", str(err).splitlines()[0]))
    return answers


def _numbers(value: object) -> list[float]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _numbers(v)]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _numbers(v)]
    return []


@pytest.fixture(scope="module")
def engine() -> Any:
    pytest.importorskip("gnubg")
    from bgkit.analysis.tasks import can_fork
    from bgkit.workers import Isolated

    with Isolated(enabled=can_fork()) as isolated:
        yield isolated


@settings(max_examples=max(EXAMPLES * 5 // 2, 10), deadline=None)
@given(text=hostile_xgids())
def test_hostile_positions_through_the_engine(engine: Any, text: str) -> None:
    """No crash (the worker would die: EngineCrashError), no traceback, no figure that is
    not a number, and every refusal one line."""
    answers = engine.call(_engine_answer, text)
    assert all(math.isfinite(x) for x in _numbers(answers)), (text, answers)
    refusals = [a for a in (answers if isinstance(answers, list) else [answers])]
    for answer in refusals:
        if isinstance(answer, tuple) and answer and answer[0] == "refused":
            assert answer[1] and "\n" not in answer[1]


# Places where a run of one token made a reader's work quadratic in it, found by
# inserting 30,000 blanks, digits or letters at every 7/1000 of each reader's first seed
# (2026-11-29): the seconds they took then, for 30,000 of the token. Each now reads
# 60,000 in milliseconds; the bound leaves a loaded machine room.
QUADRATIC_ONCE = [
    ("bgblitz_text", 609, " ", "the score line's names, 1.5 s"),
    ("bgblitz_text", 623, "9", "the match length after the score, 10.2 s"),
    ("bgblitz_text", 679, "9", "a line of chances, 1.0 s"),
    ("bgblitz_text", 819, " ", "the cube action's verdict, 6.1 s"),
    ("gnubg_text", 300, " ", "the name right of the frame, 5.0 s (found by CI)"),
    ("sgf", 609, " ", "blanks after a run of one-property nodes, 4.2 s"),
    ("xg_text", 49, " ", "the players' line, 1.5 s"),
    ("xg_text", 672, "9", "the analysis level, 1.1 s"),
]


@pytest.mark.parametrize(("fmt", "where", "token", "was"), QUADRATIC_ONCE)
def test_a_run_that_was_read_in_quadratic_time(fmt: str, where: int, token: str, was: str) -> None:
    parse, seeds = READERS[fmt]
    data = grow(seeds[0], where, ("token", token, 60_000))
    start = time.monotonic()
    with contextlib.suppress(BgkitError):
        parse(data)
    assert time.monotonic() - start < 3, was


@pytest.mark.parametrize("fmt", sorted(READERS))
def test_a_long_run_anywhere_in_a_record_is_read_in_linear_time(fmt: str) -> None:
    """Bounded work per byte, everywhere in a record: 20,000 blanks, digits or letters
    inserted at each hundredth of the reader's first seed (the places of every kind of
    line), each read well within the bound (a linear reader takes some 10 ms; before
    the fixes of ``QUADRATIC_ONCE`` it failed for bgblitz_text, gnubg_text, xg_text and
    sgf, at places that took 0.5-4.5 s)."""
    parse, seeds = READERS[fmt]
    slow = []
    for where in range(0, 1000, 10):
        for token in (" ", "9", "a"):
            data = grow(seeds[0], where, ("token", token, 20_000))
            start = time.monotonic()
            with contextlib.suppress(BgkitError):
                parse(data)
            seconds = time.monotonic() - start
            if seconds > 0.25 + len(data) / 100_000:
                slow.append((where, token, round(seconds, 2)))
    assert not slow, slow
