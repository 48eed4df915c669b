"""Run a command as a whole process and write what it cost, from a small process of its own.

    python benchmarks/launch.py SPEC

``SPEC`` is JSON: ``args`` (the command), ``report`` (the file the cost is written to, as
JSON ``[exit code, wall seconds, CPU seconds, peak resident bytes, late]``), and, each
optional, ``memory`` (an address-space cap in bytes), ``cpu`` (a CPU-time cap in
seconds) and ``seconds`` (wall time after which the command is killed: ``late``). The
command inherits this process's standard streams, folder and environment.

Why a process of its own: Linux counts in a process's peak memory (``ru_maxrss``) the
resident memory of the process it was forked from, as it was at the fork. Forked from
pytest's process (hundreds of MB late in a run) or from a benchmark that has made its
records, a small command would measure as that, and two sizes of a record alike. This
launcher is a process of about 10 MB. ``tests/bounded.py`` and ``bench_large.py`` use it.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time


def main() -> None:
    spec = json.loads(sys.argv[1])
    memory, cpu, seconds = spec.get("memory"), spec.get("cpu"), spec.get("seconds")

    def limits() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if cpu is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))

    started = time.perf_counter()
    process = subprocess.Popen(spec["args"], preexec_fn=limits)
    late = False
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if seconds is not None and time.perf_counter() - started > seconds:
            process.kill()
            _, status, usage = os.wait4(process.pid, 0)
            late = True
            break
        time.sleep(0.01)
    report = [
        os.waitstatus_to_exitcode(status),
        time.perf_counter() - started,
        usage.ru_utime + usage.ru_stime,
        usage.ru_maxrss * 1024,
        late,
    ]
    with open(spec["report"], "w", encoding="utf-8") as out:
        json.dump(report, out)


if __name__ == "__main__":
    main()
