"""The user's files are never damaged, and interrupts end quietly (issue 13, items 7-9).

Every command runs as a user runs it, in a subprocess; signals are sent the way a
terminal (Ctrl-C: SIGINT to the process group) or a supervisor (SIGTERM) sends them.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_limits import assert_one_line, bgkit_run

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"
SELFPLAY = sorted((ROOT / "data" / "selfplay").glob("*.mat"))


# ------------------------------------------------------------ 7: what convert writes onto


def test_convert_refuses_a_fifo_target(tmp_path: Path) -> None:
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    run = bgkit_run("convert", "--force", str(SAMPLE), "out.json", cwd=tmp_path)
    assert_one_line(run, 2, "out.json: not a regular file (a FIFO)")
    assert fifo.is_fifo()


def test_convert_refuses_a_device_even_with_to(tmp_path: Path) -> None:
    run = bgkit_run("convert", "--force", "--to", "json", str(SAMPLE), "/dev/null", cwd=tmp_path)
    assert_one_line(run, 2, "/dev/null: not a regular file (a character device)")
    assert Path("/dev/null").is_char_device()


def test_convert_never_writes_through_a_symlink(tmp_path: Path) -> None:
    """Issue 29: a link is never followed, with or without --force (it was, into the
    file it points to; a dangling one created the file where it pointed)."""
    (tmp_path / "real.json").write_text("{}")
    (tmp_path / "link.json").symlink_to("real.json")
    run = bgkit_run("convert", "--force", str(SAMPLE), "link.json", cwd=tmp_path)
    assert_one_line(run, 2, "link.json: a symbolic link (to 'real.json'); bgkit never writes")
    assert (tmp_path / "link.json").is_symlink()
    assert (tmp_path / "real.json").read_text() == "{}"


@pytest.mark.parametrize(
    "command",
    [
        ("analyze", "--plies", "0", str(SAMPLE), "--json"),
        ("convert", "--to", "json", str(SAMPLE)),
        ("audit", str(SAMPLE), "--csv"),
    ],
    ids=["analyze", "convert", "audit"],
)
def test_a_target_bgkit_would_not_write_is_refused_before_any_work(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """Every command says at once what it will not write, in the same words: a device
    (without --force too: it was "exists; use --force", then refused with it), a link
    (even with --force), a file that exists (unless --force)."""
    run = bgkit_run(*command, "/dev/null", cwd=tmp_path)
    assert_one_line(run, 2, "/dev/null: not a regular file (a character device)")
    (tmp_path / "real.csv").write_text("keep")
    (tmp_path / "link.csv").symlink_to("real.csv")
    run = bgkit_run(*command, "link.csv", "--force", cwd=tmp_path)
    assert_one_line(run, 2, "link.csv: a symbolic link (to 'real.csv'); bgkit never writes")
    run = bgkit_run(*command, "real.csv", cwd=tmp_path)
    assert_one_line(run, 2, "real.csv: exists; use --force to overwrite it")
    assert (tmp_path / "real.csv").read_text() == "keep"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("x.xg", "x.xg: .xg is read-only here; bgkit writes .mat, .sgf, .json, .ogxm"),
        ("x.txt", "x.txt: cannot tell the output format from the extension .txt"),
        ("noext", "noext: cannot tell the output format from a name without an extension"),
        ("no/such/x.sgf", "no/such/x.sgf: no such folder: no/such"),
    ],
)
def test_convert_targets_it_cannot_write(tmp_path: Path, target: str, message: str) -> None:
    run = bgkit_run("convert", str(SAMPLE), target, cwd=tmp_path)
    line = assert_one_line(run, 2, message)
    assert ".tmp" not in line
    assert (
        sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith((".std", ".report")))
        == []
    )


# ----------------------------------------------------------- 8: temporaries and signals

_SLOW_WRITE = """
import os, sys, time
real_fsync = os.fsync
def slow_fsync(fd):
    print("writing", flush=True)
    time.sleep(60)
    real_fsync(fd)
os.fsync = slow_fsync
from bgkit.cli import main
sys.argv = ["bgkit", "convert", "--force", sys.argv[1], sys.argv[2]]
main()
"""


_SIGNALS = [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")]


@pytest.mark.parametrize(("sig", "code", "word"), _SIGNALS)
def test_a_signal_during_the_write_leaves_no_temporary(
    tmp_path: Path, sig: signal.Signals, code: int, word: str
) -> None:
    (tmp_path / "out.json").write_text("old")
    proc = subprocess.Popen(
        [sys.executable, "-c", _SLOW_WRITE, str(SAMPLE), "out.json"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "writing\n"
    assert [p.name for p in tmp_path.glob(".out.json.bgkit-*.tmp")]  # the write is under way
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code
    assert err == f"bgkit: {word}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]
    assert (tmp_path / "out.json").read_text() == "old"


def test_a_stale_temporary_of_a_dead_process_is_removed(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    stale = tmp_path / f".out.json.bgkit-{dead.stdout.strip()}-0123456789ab.tmp"
    stale.write_text("half")
    alive = tmp_path / f".out.json.bgkit-{os.getpid()}-0123456789ab.tmp"  # a live writer's
    alive.write_text("in progress")
    other = tmp_path / f".other.json.bgkit-{dead.stdout.strip()}-0123456789ab.tmp"
    other.write_text("another target's")
    run = bgkit_run("convert", str(SAMPLE), "out.json", cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert not stale.exists() and alive.exists() and other.exists()


# --------------------------------------------------------------------- 9: interrupts


def _many_records(folder: Path, copies: int) -> None:
    folder.mkdir()
    for i in range(copies):
        for record in SELFPLAY:
            shutil.copy(record, folder / f"{i:03d}_{record.name}")


def test_ctrl_c_during_a_parallel_verify_is_one_line(tmp_path: Path) -> None:
    # 6,000 files: several seconds of work, still running when Ctrl-C comes (1,200 took
    # 1.4 s once gnubg's records were read without the parser)
    _many_records(tmp_path / "records", 200)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bgkit", "verify", "-q", "-j", "2", "records"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, which Ctrl-C signals as a whole
    )
    time.sleep(1.5)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err == "bgkit: interrupted\n"
    assert out == ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _listening(address: str, seconds: float) -> None:
    """Wait until the scheduler at ``address`` accepts connections (its start imports
    Dask: seconds, more on a busy machine)."""
    host, port = address.removeprefix("tcp://").rsplit(":", 1)
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection((host, int(port)), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_a_lost_dask_scheduler_exits_4_and_keeps_the_results(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    copies = 240  # 7,200 files: work past the first checkpoint (10 s) on a quick machine
    _many_records(tmp_path / "records", copies)
    address = f"tcp://127.0.0.1:{_free_port()}"
    bin_dir = Path(sys.executable).parent
    scheduler = subprocess.Popen(
        [str(bin_dir / "dask"), "scheduler", "--host", "127.0.0.1", "--port",
         address.rsplit(":", 1)[1], "--no-dashboard"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    worker = subprocess.Popen(
        [str(bin_dir / "dask"), "worker", address, "--nworkers", "1", "--nthreads", "1",
         "--no-dashboard"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _listening(address, 60)  # (a fixed wait was too short on a loaded machine)
        run = subprocess.Popen(
            [sys.executable, "-m", "bgkit", "verify", "-q", "--scheduler", address,
             "-o", "out.parquet", "records"],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        parts = tmp_path / "out.parquet.parts"
        deadline = time.monotonic() + 60
        while run.poll() is None and time.monotonic() < deadline:
            if parts.is_dir() and any(parts.iterdir()):
                break  # some results are saved: the cluster goes away mid-run
            time.sleep(0.2)
        scheduler.kill()
        _, err = run.communicate(timeout=120)
    finally:
        for proc in (scheduler, worker):
            proc.kill()
            proc.wait(timeout=30)
    assert run.returncode == 4, err
    assert "Traceback" not in err, err
    (line,) = err.splitlines()
    assert line.startswith(f"bgkit: lost the Dask cluster at {address} after ")
    assert line.endswith("; the results so far are kept: rerun with --output out.parquet to go on")
    done = int(line.split(" after ")[1].split(" of ")[0])
    assert done > 0
    rerun = bgkit_run("verify", "-q", "-j", "1", "-o", "out.parquet", "records", cwd=tmp_path,
                      timeout=120)  # fmt: skip
    assert rerun.code == 0, rerun.stderr
    import pandas as pd

    assert pd.read_parquet(tmp_path / "out.parquet")["file"].nunique() == copies * len(SELFPLAY)


def test_a_closed_comm_to_the_cluster_counts_as_a_lost_cluster() -> None:
    """Dask reports a scheduler that went away mid-gather as CommClosedError, an OSError:
    it must give exit 4 (lost cluster), not exit 2 (a file error); seen once in CI."""
    pytest.importorskip("distributed")
    from distributed.comm.core import CommClosedError

    from bgkit.cli.verify import _from_dask

    assert _from_dask(CommClosedError("in <TCP (closed) ConnectionPool.gather>: Stream is closed"))
    assert not _from_dask(OSError("disk full")) and not _from_dask(FileNotFoundError("x.mat"))
