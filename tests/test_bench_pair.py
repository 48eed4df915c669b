"""Smoke test of ``benchmarks/bench_pair.py``: paired runs of an earlier commit and the
working tree, both byte-compiled (with ``PYTHONDONTWRITEBYTECODE`` set, an uncompiled
tree pays 60-90 ms a start, which is what made the sixth round's pairs wrong, issue 31).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_pair.py"

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs git and a clone"
)


def test_bench_pair_compiles_both_trees_and_prints_the_ratio(tmp_path: Path) -> None:
    earlier = tmp_path / "earlier"
    try:
        out = subprocess.run(
            [sys.executable, str(SCRIPT), "HEAD", "--repeat", "2", "--keep", str(earlier),
             "--command=--version", f"--command=verify {ROOT / 'data' / 'sample.mat'}"],
            check=True, capture_output=True, text=True, cwd=tmp_path, timeout=300,
        ).stdout  # fmt: skip
        assert (earlier / "bgkit" / "__pycache__").is_dir()  # (compiled, not run from source)
        assert (ROOT / "bgkit" / "__pycache__").is_dir()
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(earlier)], cwd=ROOT,
                       check=False, capture_output=True)  # fmt: skip
    for command in ("--version", "verify"):
        assert re.search(rf"^bgkit {command}.*, 2 pairs:$", out, re.M), out
    assert len(re.findall(r"^ +HEAD: wall \d+\.\d\d-\d+\.\d\d \(median", out, re.M)) == 2, out
    assert (
        len(re.findall(r"^  working tree / HEAD: \d+\.\d{3} \(medians of wall\)$", out, re.M)) == 2
    )
    # the same commit twice (but for what this checkout changed): the same output
    assert out.count("values that differ: 0 between the trees' first runs, 0 between") == 2, out


def test_bench_pair_leaves_no_worktree_behind(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(SCRIPT), "HEAD", "--repeat", "1", "--command=--version"],
        check=True, capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    listed = subprocess.run(
        ["git", "worktree", "list", "--porcelain"], cwd=ROOT, check=True, capture_output=True,
        text=True,
    ).stdout  # fmt: skip
    assert "earlier" not in listed, listed
