"""Run a Python script inside Debian's GNU Backgammon (the judge CI installs).

The PyPI ``gnubg`` cannot load SGF; the Debian program can: ``gnubg -t -q -p script``
runs ``script`` with its ``gnubg`` module, and the script writes what it saw as JSON.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any


def debian_gnubg() -> str | None:
    """The ``gnubg`` program, or ``None`` when it is not installed."""
    return shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


def run_script(script: str, folder: Path, **env: str) -> tuple[Any, str]:
    """Run ``script`` in Debian's gnubg with ``env`` added to the environment; what it wrote
    to ``$BGKIT_OUT`` (as JSON) and what gnubg printed on stderr."""
    program = debian_gnubg()
    assert program is not None
    path = folder / "gnubg_script.py"
    path.write_text(script)
    out = folder / "gnubg_out.json"
    run = subprocess.run(
        [program, "-t", "-q", "-p", str(path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={**os.environ, **env, "BGKIT_OUT": str(out)},
        timeout=300,
        check=False,
    )
    assert out.exists(), run.stdout[-2000:] + run.stderr[-2000:]
    return json.loads(out.read_text()), run.stderr


def run_commands(lines: list[str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run gnubg's own commands ``lines`` in Debian's gnubg (``gnubg -t -q -c FILE``);
    what it printed. A command gnubg refuses does not stop it: check what it wrote."""
    program = debian_gnubg()
    assert program is not None
    with tempfile.NamedTemporaryFile("w", suffix=".cmds") as commands:
        commands.write("\n".join(lines) + "\n")
        commands.flush()
        return subprocess.run(
            [program, "-t", "-q", "-c", commands.name],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=True,
            timeout=timeout,
        )
