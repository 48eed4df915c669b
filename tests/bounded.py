"""Run ``bgkit`` (or Python) in a subprocess under resource limits, and measure it.

The tests of issue 29 assert exit code, message, time and memory of a whole command:
:func:`run` starts it with ``resource.setrlimit`` in ``preexec_fn`` (address space and CPU
time), waits at most ``seconds`` of wall time, and returns what it printed with its peak
resident memory (the child's own ``ru_maxrss``, read with ``os.wait4``).
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

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


def interrupt_group(process: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> None:
    """Send ``sig`` to the process group of ``process`` (as a terminal's Ctrl-C does)."""
    os.killpg(process.pid, sig)
