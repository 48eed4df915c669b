"""The SGF reader's fast paths read as its general code does (issue 29: a 64 MiB record).

A plain move node (``;B[52bdjl]``) becomes its Move without the general node code, the
nodes after a one-property node are read by one regular expression each, and lines are
counted from the last place asked instead of looked up in a table. The reference is the
reader with those paths turned off: every SGF record under ``data/`` and a few awkward
texts must give the same match, every field of every action included (line, column,
hit marks), or the same error.
"""

from __future__ import annotations

import bisect
import dataclasses
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

import bgkit.formats.sgf as sgf
from bgkit.errors import BgkitError

DATA = Path(__file__).resolve().parent.parent / "data"
SGF_FILES = sorted(p for p in DATA.rglob("*.sgf") if p.is_file())
NEVER = re.compile(r"(?!)")  # a pattern that matches nothing

AWKWARD = [
    # hits, a dance, a bear-off, a beaver and its implicit take
    "(;GM[6]MI[length:0]PW[a]PB[b]\n;W[31hefe]\n;B[64xroo]\n;W[55yz]\n;B[double]\n"
    ";W[double]\n;B[52])",
    # a node with analysis beside the move, a comment, blanks and tabs between nodes
    "(;GM[6]MI[length:3]PW[a]PB[b]\n;W[31hefe]LU[0.1]\n\t;B[62xrrp]C[note]  ;W[43mgmj])",
    # letters that are no steps, an odd number of letters, upper-case letters
    "(;GM[6]MI[length:3]PW[a]PB[b]\n;W[31hzfe]\n;B[62x]\n;W[43MGmj])",
    # variations, and moves after a node that could not be read
    "(;GM[6]MI[length:3]PW[a]PB[b]\n;W[31hefe](;B[62xrrp];W[43mgmj])(;B[11aa]))",
    "(;GM[6]MI[length:3]PW[a]PB[b]\n;W[7]\n;B[62xrrp]\n;W[43mgmj])",
    # two games, the second on the same line as the first ends
    "(;GM[6]MI[length:3][game:0]PW[a]PB[b]RE[W+1]\n;W[31hefe]\n;B[double]\n;W[drop])"
    "(;GM[6]MI[length:3][game:1][ws:1]PW[a]PB[b]\n;B[42xtxv])",
    # runs of one-property nodes holding what is not a plain move: a bad node, cube
    # actions and a beaver, a Gibbon word, set-up nodes, a comment, blanks of every kind
    "(;GM[6]MI[length:0]PW[a]PB[b]\n;W[31hefe]\n;B[64xroo]\n;W[7]\n;B[52xsxv]\n;W[double]"
    "\n;B[double]\n;W[take]\n;B[43lpaa]\r\n;W[55yzyz]\t;B[resign:2] ;W[accept]\n;B[66])",
    "(;GM[6]MI[length:0]PW[a]PB[b]\n;AE[a]\n;AB[b]\n;AW[x]\n;PL[B]\n;CV[2]\n;B[21bcbd]"
    "\n;C[hi]\n\n\n;W[31xwxu]\n;B[62cedf]\n;W[44zz]\n;B[11aa])",
    # runs in variations, and a run whose last node has a second property
    "(;GM[6]MI[length:3]PW[a]PB[b]\n;W[31hefe]\n;B[62xrrp]\n;W[43mgmj](;B[62xrrp]\n"
    ";W[43mgmj]\n;B[11aabb]\n;W[22ffgg])(;B[11aa];W[43mgmj];B[64xroo]))\n"
    "(;GM[6]MI[length:3][game:1]PW[a]PB[b]\n;W[31hefe]\n;B[62xrrp]\n;W[43mgmj]LU[0.5]\n"
    ";B[64xroo])",
]


def _fields(value: Any) -> Any:
    """Every field of a record (those ``==`` ignores too), recursively."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__name__,
            tuple((f.name, _fields(getattr(value, f.name))) for f in dataclasses.fields(value)),
        )
    if isinstance(value, tuple | list):
        return tuple(_fields(v) for v in value)
    return value


def _outcome(text: str) -> Any:
    try:
        return _fields(sgf.parse_sgf(text, source_name="x.sgf"))
    except BgkitError as err:
        return f"{type(err).__name__}: {err}"


def _general(monkeypatch: pytest.MonkeyPatch, text: str) -> Any:
    """What the reader makes of ``text`` with its fast paths off."""
    with monkeypatch.context() as patch:
        patch.setattr(sgf, "_PLAIN_MOVE", NEVER)
        patch.setattr(sgf, "_NEXT_SIMPLE_NODE", NEVER)
        patch.setattr(sgf, "_SIMPLE_RUN", NEVER)
        patch.setattr(sgf, "_PLAIN_VALUES", NEVER)
        return _outcome(text)


@pytest.mark.parametrize(
    "text",
    [*(p.read_text(encoding="utf-8") for p in SGF_FILES), *AWKWARD],
    ids=[*(p.name for p in SGF_FILES), *(f"awkward-{k}" for k in range(len(AWKWARD)))],
)
def test_fast_paths_read_as_the_general_code(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    assert _outcome(text) == _general(monkeypatch, text)


def test_lines_counted_from_the_last_place_are_the_lines() -> None:
    """``line_col`` at offsets asked in any order (forward, back, on a line end, at the
    start and the end) is what a table of the line starts says."""
    rng = random.Random(29)
    text = "".join(rng.choice(["\n", "ab", "(;", "\n\n", "x" * 30]) for _ in range(400))
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    reader = sgf._Reader(text, None)
    offsets = [0, len(text), *(rng.randrange(len(text) + 1) for _ in range(300))]
    offsets += sorted(rng.randrange(len(text) + 1) for _ in range(100))
    for pos in offsets:
        i = bisect.bisect_right(starts, pos) - 1
        assert reader.line_col(pos) == (i + 1, pos - starts[i] + 1), pos


def test_nesting_checked_as_the_limit_checks_it() -> None:
    """The reader's check of how deep game trees nest (values cut out first) refuses
    exactly the texts :func:`bgkit.limits.check_nesting` refuses, with its error."""
    from bgkit.limits import Limits, using

    rng = random.Random(6)
    pieces = ["(", ")", "((", "[a(]", "[\\](((]", "[", "]", ";", "\\", "[x\\", "\n"]
    refused = 0
    with using(Limits(max_nesting=3)):
        for _ in range(3000):
            text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 14)))
            outcomes: list[str | None] = []
            for check in (sgf._check_nesting, _checked_by_the_limit):
                try:
                    check(text, "x.sgf")
                    outcomes.append(None)
                except BgkitError as err:
                    outcomes.append(str(err))
            assert outcomes[0] == outcomes[1], text
            refused += outcomes[0] is not None
    assert 300 < refused < 2700  # (both kinds of text were tried)


# property values (whose brackets do not count; an escaped line end in one, as the
# reader's tokens have it) and the brackets of game trees
_SGF_BRACKETS = re.compile(r"\[[^]\\]*+(?:\\.[^]\\]*+)*+\]|[()]", re.S)


def test_a_bracket_that_opens_no_value_is_looked_past_once() -> None:
    """The nesting check is linear in the text: 10,000 and 160,000 '[' that no ']' closes
    (then a tree nested too deep) cost in proportion (it was quadratic: 17 s for 100,000)."""
    from bgkit.limits import Limits, using

    def cost(n: int) -> float:
        text = "(;GM[6]" + "C[" * n + "(" * 4
        start = time.process_time()
        with using(Limits(max_nesting=3)), pytest.raises(BgkitError, match="max_nesting"):
            sgf._check_nesting(text, "x.sgf")
        return time.process_time() - start

    small, large = min(cost(10_000) for _ in range(3)), min(cost(160_000) for _ in range(3))
    assert large < 2 and large < 16 * 4 * max(small, 1e-4), (small, large)


def _checked_by_the_limit(text: str, name: str) -> None:
    from bgkit.limits import check_nesting

    check_nesting(text, _SGF_BRACKETS, name)
