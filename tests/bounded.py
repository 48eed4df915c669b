"""Run ``bgkit`` (or Python) in a subprocess under resource limits, and measure it.

The tests of issue 29 assert exit code, message, time and memory of a whole command:
:func:`run` starts it with ``resource.setrlimit`` in ``preexec_fn`` (address space and CPU
time), waits at most ``seconds`` of wall time, and returns what it printed with its peak
resident memory (the child's own ``ru_maxrss``, read with ``os.wait4``).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

GIB = 1 << 30
BGKIT = [sys.executable, "-m", "bgkit"]


@dataclass(frozen=True)
class Ran:
    code: int
    stdout: str
    stderr: str
    seconds: float
    max_rss: int
    """Peak resident memory of the process, in bytes."""

    @property
    def lines(self) -> list[str]:
        return self.stderr.splitlines()


LAUNCH = Path(__file__).resolve().parent.parent / "benchmarks" / "launch.py"
"""Starts the measured command from a small process of its own, so that its peak memory
is its own (the script says why)."""


def run(
    args: list[str],
    *,
    seconds: float = 60,
    memory: int = 4 * GIB,
    cwd: Path | None = None,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
) -> Ran:
    """Run ``args`` (a list given to ``subprocess``) with an address-space cap of
    ``memory`` bytes and ``seconds`` of CPU and wall time; fail the test past the time.
    The command is started by a small process of its own (:data:`LAUNCH`), so that its
    peak memory is its own."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        spec = {
            "args": args,
            "memory": memory,
            "cpu": int(seconds) + 1,
            "seconds": seconds,
            "report": str(report),
        }
        given, out, err = (Path(folder) / name for name in ("in", "out", "err"))
        given.write_bytes(stdin or b"")
        with given.open("rb") as i, out.open("wb") as o, err.open("wb") as e:
            subprocess.run(
                [sys.executable, str(LAUNCH), json.dumps(spec)],
                stdin=i,
                stdout=o,
                stderr=e,
                cwd=cwd,
                env={**os.environ, **(env or {})},
                check=True,
                timeout=seconds + 60,
            )
        code, elapsed, _cpu, max_rss, late = json.loads(report.read_text())
        if late:
            raise AssertionError(f"{args} ran more than {seconds} s")
        return Ran(
            code,
            out.read_bytes().decode("utf-8", "replace"),
            err.read_bytes().decode("utf-8", "replace"),
            elapsed,
            max_rss,
        )


@contextlib.contextmanager
def dask_cluster(cwd: Path) -> Iterator[tuple[str, int, subprocess.Popen[bytes]]]:
    """A Dask scheduler and one worker in processes of their own (``dask`` of this
    interpreter's environment): ``(address, port, scheduler)``, both stopped at the end."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    dask = str(Path(sys.executable).parent / "dask")
    address = f"tcp://127.0.0.1:{port}"
    quiet = subprocess.DEVNULL
    scheduler = subprocess.Popen(
        [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        stdout=quiet,
        stderr=quiet,
    )
    worker = subprocess.Popen(
        [dask, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
        cwd=cwd,
        stdout=quiet,
        stderr=quiet,
    )
    try:
        time.sleep(4)  # the scheduler and the worker start
        yield address, port, scheduler
    finally:
        for process in (scheduler, worker):
            process.kill()
            process.wait(timeout=30)


def interrupt_group(process: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> None:
    """Send ``sig`` to the process group of ``process`` (as a terminal's Ctrl-C does)."""
    os.killpg(process.pid, sig)


def count_parsed(monkeypatch: Any, module: ModuleType) -> list[int]:
    """Have ``module``'s ``parse_slice`` (bgkit.formats._by_lines) note the length of each
    slice of text it parses, in the list returned: the work of a reader in characters."""
    parsed: list[int] = []
    real = module.parse_slice

    def counted(lark: Any, source: str, start: int, end: int, line: int, rule: str) -> Any:
        parsed.append(end - start)
        return real(lark, source, start, end, line, rule)

    monkeypatch.setattr(module, "parse_slice", counted)
    return parsed


class CountedText(str):
    """A text that notes in :attr:`counts` how many characters each of its
    :meth:`str.count` calls covers: a reader (or a :class:`~bgkit.errors.NotationError`
    not told its line) that finds a fault's line by counting the lines before it counts
    from the start of the text, once a fault, and is quadratic in a record of faults."""

    counts: list[int]

    def __new__(cls, text: str) -> CountedText:
        made = super().__new__(cls, text)
        made.counts = []
        return made

    def count(self, sub: str, start: Any = None, end: Any = None) -> int:
        first, last, _ = slice(start, end).indices(len(self))
        self.counts.append(max(0, last - first))
        return super().count(sub, start, end)
