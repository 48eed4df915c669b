"""Issue 29, item 5: the tracebacks the README rules out, each from its reproducer made here.

(The player named ``$$$`` is in test_output_safety, Ctrl-C during ``hint --plies 3`` in
test_engine_gate.)
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from bounded import BGKIT, GIB, dask_cluster, run

import bgkit

DATA = Path(__file__).resolve().parent.parent / "data"
SAMPLE = DATA / "sample.mat"


def deep_ogxm(tmp_path: Path, depth: int = 1500) -> Path:
    """A 4 KB OGXM file whose ``x-bgkit`` annotation nests ``depth`` lists."""
    ogxm = pytest.importorskip("ogxm")
    from bgkit.formats.ogxm_record import dumps_ogxm

    doc = ogxm.binary_to_json(dumps_ogxm(bgkit.read_match(SAMPLE)))
    value = "[" * depth + "]" * depth
    doc["annotations"] = [{"key": "x-bgkit", "scope": "match", "ref": 0, "value": value}]
    path = tmp_path / "deep.ogxm"
    path.write_bytes(ogxm.json_to_binary(doc))
    assert path.stat().st_size < 5000
    return path


REASON = "an x-bgkit annotation (match 0): nested more than 1000 levels deep (max_nesting)"


def test_a_nested_ogxm_annotation_is_refused_in_one_line(tmp_path: Path) -> None:
    path = deep_ogxm(tmp_path)
    ran = run([*BGKIT, "verify", str(path)], seconds=30, memory=2 * GIB)
    assert ran.code == 2  # (was 3: RecursionError)
    assert ran.lines[0] == f"{path}:1:1: error: {REASON}"
    for args in (["convert", str(path), str(tmp_path / "out.sgf")], ["analyze", str(path)]):
        ran = run([*BGKIT, *args], seconds=30, memory=2 * GIB)
        assert ran.code == 2
        assert ran.lines == [f"bgkit: {path}:1:1: {REASON}"]


def test_json_nested_under_the_limit_is_read_not_a_recursion_error(tmp_path: Path) -> None:
    """995 levels, under max_nesting (1,000): Python's JSON parser ran out of recursion."""
    doc = json.loads(bgkit.read_match(SAMPLE).to_json())
    text = json.dumps(doc).replace('"comments": []', '"comments": ' + "[" * 995 + "]" * 995)
    path = tmp_path / "deep.json"
    path.write_text(text, "utf-8")
    ran = run([*BGKIT, "verify", str(path)], seconds=30, memory=2 * GIB)
    assert ran.code == 1  # (#28: a bad comment costs only itself; the record is verified)
    assert ": error: comments[0] must be a string (game 0" in ran.lines[0]
    path.write_text(text.replace("[" * 995, "[" * 1001).replace("]" * 995, "]" * 1001))
    ran = run([*BGKIT, "verify", str(path)], seconds=30, memory=2 * GIB)
    assert "nested more than 1000 levels deep (max_nesting)" in ran.lines[0]


def connected(pid: int, port: int) -> bool:
    """Whether process ``pid`` has a TCP connection to ``port`` open (``/proc``)."""
    try:
        inodes = {
            link.removeprefix("socket:[").removesuffix("]")
            for fd in Path(f"/proc/{pid}/fd").iterdir()
            if (link := str(fd.readlink())).startswith("socket:[")
        }
        rows = Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return False
    for row in rows:
        fields = row.split()
        remote_port = int(fields[2].split(":")[1], 16)
        if remote_port == port and fields[3] == "01" and fields[9] in inodes:
            return True
    return False


def test_analyze_folder_when_the_scheduler_dies(tmp_path: Path) -> None:
    """The last round fixed this in verify only: analyze FOLDER --scheduler printed 80
    lines and exited 1 when the scheduler went away."""
    pytest.importorskip("distributed")
    pytest.importorskip("gnubg")
    folder = tmp_path / "records"
    folder.mkdir()
    for i in range(30):
        (folder / f"m{i:02d}.mat").write_bytes(SAMPLE.read_bytes())
    with dask_cluster(tmp_path) as (address, port, scheduler):
        command = subprocess.Popen(
            [*BGKIT, "analyze", "--plies", "0", "--scheduler", address, str(folder)],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while not connected(command.pid, port):  # at work on the cluster
            assert command.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        time.sleep(1)
        scheduler.kill()
        _, err = command.communicate(timeout=120)
    assert command.returncode == 4, err
    assert "Traceback" not in err
    (line,) = err.splitlines()
    assert line.startswith(f"bgkit: lost the Dask cluster at {address} (")
