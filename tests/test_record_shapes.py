"""Issue 29, item 6: the record shaped to cost the most per byte stays within bounds.

``benchmarks/bench_shapes.py`` builds, for each reader, records of hostile but plausible
shapes; these are the ones it found costly, each verified at 4 MiB as a whole process
(``bounded.run``: its own peak memory and time). Before the fixes, at 4 MiB: blank lines
after a tab in ``.mat`` 1,416 MB (Lark's line-end terminal kept Python's backtracking
state for each blank line), one long game read by the grammar 838 MB (its rows were one
token), blank lines in ``.gmd`` 541 MB, a comment after each line of a long game more
than 120 s and comments after a game's result 27 s (both quadratic), SGF's run of simple
nodes 96 MB and one move with 47,080 candidate plays 133 MB.

The shapes of one long game (100,000 actions and more at 4 MiB) are refused since
``max_game_actions`` (10,000 actions a game; the longest real game has 138): exit 2 at
the game's 10,001st action, read no further (``tests/test_max_game_actions.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from bounded import BGKIT, GIB, run

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_shapes import SHAPES  # noqa: E402  (what it measures)

SIZE = 4 << 20


@pytest.mark.parametrize(
    ("fmt", "shape", "megabytes", "seconds", "code"),
    [
        # (measured at 4 MiB after the fixes, load about 1: MB, CPU s)
        ("mat", "tab-blank-lines", 100, 10, 0),  # 43 MB, 0.2 s (107 MB while the text was split)
        ("mat", "long-game-tab", 250, 15, 2),  # 138 MB, 1.3 s; refused: 48 MB, 0.2 s
        ("mat", "game-comments", 250, 15, 2),  # 121 MB, 1.2 s; refused: 37 MB, 0.3 s
        ("mat", "comments", 120, 10, 0),  # 41 MB, 0.2 s
        ("gmd", "blank-lines", 120, 10, 0),  # 37 MB, 0.2 s
        ("javafibs", "blank-lines", 120, 10, 0),  # 32 MB, 0.2 s
        ("sgf", "long-game", 160, 15, 2),  # 80 MB, 1.4 s; refused: 34 MB, 0.2 s
        ("sgf", "one-move-analysis", 100, 10, 0),  # 51 MB, 0.2 s
    ],
)
def test_a_costly_shape_is_verified_within_bounds(
    tmp_path: Path, fmt: str, shape: str, megabytes: int, seconds: float, code: int
) -> None:
    suffix, build = SHAPES[fmt][shape]
    path = tmp_path / f"{shape}.{suffix}"
    path.write_bytes(build(SIZE))
    ran = run([*BGKIT, "verify", "-q", "-j", "1", str(path)], seconds=60, memory=2 * GIB)
    assert ran.code == code, ran.stderr[-2000:]
    assert ran.lines[-1].startswith("1 file(s), "), ran.lines[-1]
    assert ran.max_rss < megabytes << 20, (ran.max_rss >> 20, ran.seconds)
    assert ran.seconds < seconds, (ran.max_rss >> 20, ran.seconds)
