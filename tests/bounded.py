"""Run ``bgkit`` (or Python) in a subprocess under resource limits, and measure it.

The tests of issue 29 assert exit code, message, time and memory of a whole command:
:func:`run` starts it with ``resource.setrlimit`` in ``preexec_fn`` (address space and CPU
time), waits at most ``seconds`` of wall time, and returns what it printed with its peak
resident memory (the child's own ``ru_maxrss``, read with ``os.wait4``).
"""

from __future__ import annotations

import contextlib
import os
import resource
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


def _limits(memory: int, cpu: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))


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
    ``memory`` bytes and ``seconds`` of CPU and wall time; fail the test past the time."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        with tempfile.TemporaryFile() as given:
            given.write(stdin or b"")
            given.seek(0)
            started = time.perf_counter()
            process = subprocess.Popen(
                args,
                stdin=given,
                stdout=out,
                stderr=err,
                cwd=cwd,
                env={**os.environ, **(env or {})},
                preexec_fn=lambda: _limits(memory, int(seconds) + 1),
            )
        while True:  # (wait4: the child's own peak memory)
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - started > seconds:
                process.kill()
                os.wait4(process.pid, 0)
                raise AssertionError(f"{args} ran more than {seconds} s")
            time.sleep(0.01)
        elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Ran(
            process.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            elapsed,
            usage.ru_maxrss * 1024,
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
