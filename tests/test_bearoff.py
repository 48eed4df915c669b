"""gnubg's one-sided bear-off database as bgkit reads it, against gnubg's own code: the
index of every position against ``gnubg.positionbearoff``, and every distribution and
effective pip count against ``gnubg_nn`` (its C reader of the same file)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from bgkit.analysis import bearoff
from bgkit.analysis.bearoff import POSITIONS, bearoff_chances, position_index
from bgkit.analysis.metrics import PIPS_PER_ROLL, effective_pip_count

gnubg = pytest.importorskip("gnubg")
gnubg_nn = pytest.importorskip("gnubg_nn")


def homes() -> list[tuple[int, ...]]:
    """Every way to have up to 15 checkers on the six home points."""
    return [h for h in itertools.product(range(16), repeat=6) if sum(h) <= 15]


def test_every_position_has_gnubgs_index() -> None:
    found = homes()
    assert len(found) == POSITIONS == 54264
    indexes = [position_index(h) for h in found]
    assert sorted(indexes) == list(range(POSITIONS))
    for home, index in zip(found[::7], indexes[::7], strict=True):  # (gnubg's call is slow)
        assert index == gnubg.positionbearoff([*home] + [0] * 19, 6, 15), home


def test_every_distribution_and_epc_is_gnubg_nns() -> None:
    for home in homes()[1:]:  # (the first has no checker left)
        chances = bearoff_chances(home)
        assert chances is not None and len(chances) == 32
        # gnubg_nn lists the chances from one roll, up to the last one above zero
        theirs = gnubg_nn.bearoff_probabilities(home)
        mine = list(chances[1:])
        while mine[-1] == 0.0:
            mine.pop()
        assert tuple(mine) == tuple(theirs), home
        assert chances[0] == 0.0
        epc = PIPS_PER_ROLL * float(sum((k + 1) * p for k, p in enumerate(theirs)))
        assert effective_pip_count((0, *home) + (0,) * 19) == epc, home


def test_the_epc_of_a_side_not_all_home_is_none() -> None:
    assert effective_pip_count((0, 1) + (0,) * 5 + (1,) + (0,) * 18) is None
    assert effective_pip_count((15,) + (0,) * 25) is None  # (all borne off)


@pytest.mark.parametrize("home", [(1, 2, 3), (-1, 0, 0, 0, 0, 0), (16, 0, 0, 0, 0, 0)])
def test_what_is_not_a_bearoff_is_refused(home: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="not a bear-off"):
        position_index(home)


def test_a_file_that_is_not_the_database_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not GNU Backgammon's"):
        bearoff._Database(b"gnubg-TS-06-15" + bytes(600_000))
    with pytest.raises(ValueError, match="not GNU Backgammon's"):
        bearoff._Database(b"gnubg-OS-06-15-1-1-0")  # (cut short)


def test_reading_it_imports_neither_package() -> None:
    """The point of reading the file here: no nets loaded for a few bytes of it."""
    code = (
        "import sys\n"
        "from bgkit.analysis.metrics import effective_pip_count\n"
        "assert round(effective_pip_count((14, 0, 0, 0, 0, 0, 1) + (0,) * 19), 3) == 10.208\n"
        "print(sorted(m for m in ('gnubg', 'gnubg_nn') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
