"""The code stays typed and linted: ``mypy --strict`` and ``ruff`` run as tests."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_mypy_strict() -> None:
    pytest.importorskip("mypy")
    result = _run(sys.executable, "-m", "mypy", "--strict", "bgkit")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed")
    result = _run(ruff, "check", "bgkit", "tests", "benchmarks", "docs")
    assert result.returncode == 0, result.stdout + result.stderr
