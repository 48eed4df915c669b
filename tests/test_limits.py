"""Hostile input gets bounded work and one clear line (issue 13, items 1 and 4-7).

Each reproducer is made by the test. The command runs as a user would run it, in a
subprocess whose address space is capped (``RLIMIT_AS``), and the test asserts the exit
code, the one line of error, the time it took and the memory it used (``wait4``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

import bgkit
from bgkit.errors import IllegalPlayError, LimitError, NotationError
from bgkit.formats.json_record import parse_json
from bgkit.formats.mat import parse_mat
from bgkit.formats.sgf import parse_sgf
from bgkit.limits import DEFAULT_LIMITS, Limits, using

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "data" / "selfplay" / "selfplay_0002.mat"
SGF = ROOT / "data" / "real" / "sgf"
FIRST_PLAY = "42: 24/20 20/18 "  # Bob's opening play in RECORD, on line 7 from column 34
MEMORY = 1 << 30  # the address space each command may use (Python with Lark: ~150 MB)


_CAPPED = """
import json, os, resource, subprocess, sys
cap, report = int(sys.argv[1]), sys.argv[2]
def limit():
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
child = subprocess.Popen([sys.executable, "-m", "bgkit", *sys.argv[3:]], preexec_fn=limit)
_, status, usage = os.wait4(child.pid, 0)
with open(report, "w") as out:
    json.dump([os.waitstatus_to_exitcode(status), usage.ru_maxrss], out)
"""


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float


def bgkit_run(*args: str, cwd: Path, timeout: float = 30.0) -> Run:
    """Run ``python -m bgkit ARGS`` under a memory cap; kill it after ``timeout`` seconds.

    A small Python starts bgkit under the cap and reports its exit code and peak memory
    (``wait4``): measured from the test process, the copy of it that ``fork`` makes would
    count in the peak.
    """
    out, err, report = cwd / ".stdout", cwd / ".stderr", cwd / ".report"
    report.unlink(missing_ok=True)
    start = time.monotonic()
    with out.open("wb") as o, err.open("wb") as e:
        proc = subprocess.Popen(
            [sys.executable, "-c", _CAPPED, str(MEMORY), str(report), *args],
            cwd=cwd,
            stdout=o,
            stderr=e,
            start_new_session=True,
        )
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise AssertionError(f"bgkit {' '.join(args)} ran past {timeout} s") from None
    seconds = time.monotonic() - start
    code, peak_kb = json.loads(report.read_text())
    return Run(code, out.read_text("utf-8"), err.read_text("utf-8"), seconds, peak_kb / 1024)


def assert_one_line(run: Run, code: int, *needles: str) -> str:
    """The command failed with ``code`` and one short line (no traceback) holding ``needles``."""
    lines = [line for line in run.stderr.splitlines() if not line.startswith(("1 file(s)",))]
    assert run.code == code, run.stderr
    assert "Traceback" not in run.stderr
    assert len(lines) == 1, run.stderr
    assert len(lines[0]) < 300
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


def hostile_record(tmp_path: Path, name: str, play: str) -> Path:
    text = RECORD.read_text("utf-8").replace(FIRST_PLAY, play, 1)
    assert text != RECORD.read_text("utf-8")
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


# ------------------------------------------------------------------- 1: play steps


def test_a_play_of_thousands_of_steps_is_refused_at_once(tmp_path: Path) -> None:
    path = hostile_record(tmp_path, "steps.mat", "42: " + "24/20 " * 9000)  # 55 KB
    run = bgkit_run("verify", path.name, cwd=tmp_path)
    line = assert_one_line(run, 2, "steps.mat:7:38:", "9000 steps", "max_play_steps")
    assert "24/20 24/20" not in line  # the play is not quoted
    assert run.seconds < 10 and run.peak_mb < 300, (run.seconds, run.peak_mb)


def test_a_json_play_of_nearly_a_million_steps_is_refused(tmp_path: Path) -> None:
    doc = json.loads(bgkit.read_match(RECORD).to_json())
    doc["games"][0]["actions"][0]["play"] = [[24, 20, False]] * 900_000  # (under 16 MiB)
    (tmp_path / "steps.json").write_text(json.dumps(doc), "utf-8")
    for command in (["verify"], ["convert"]):
        args = [*command, "steps.json"] + (["out.mat"] if command == ["convert"] else [])
        run = bgkit_run(*args, cwd=tmp_path)
        assert_one_line(run, 2, "steps.json:1:", "900000 steps", "max_play_steps")
        assert run.seconds < 20 and run.peak_mb < 900, (run.seconds, run.peak_mb)
    assert not (tmp_path / "out.mat").exists()


def test_five_to_eight_steps_are_an_illegal_play_not_a_search() -> None:
    """Under the reading limit, a play longer than four steps is a rule broken, at once."""
    path = RECORD.read_text("utf-8").replace(FIRST_PLAY, "42: " + "24/20 " * 6, 1)
    report = bgkit.verify(parse_mat(path, source_name="six.mat"))
    (error,) = report.errors
    assert "has 6 steps, but a play has at most four" in error.message
    assert (error.line, error.column) == (7, 34)
    start = time.monotonic()
    before = bgkit.Position.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:42:0:0:0:0:10")
    with pytest.raises(IllegalPlayError, match="has 20000 steps"):
        before.apply(bgkit.Play([bgkit.Play("24/20").steps[0]] * 20000))
    assert time.monotonic() - start < 1


# ------------------------------------------------------------------ 4: huge numbers


def test_a_json_number_of_5000_digits_is_one_line(tmp_path: Path) -> None:
    text = bgkit.read_match(RECORD).to_json().replace('"length": 5', '"length": ' + "9" * 5000)
    (tmp_path / "big.json").write_text(text, "utf-8")
    for args in (("verify", "big.json"), ("convert", "big.json", "out.mat")):
        run = bgkit_run(*args, cwd=tmp_path)
        assert_one_line(run, 2, "big.json:", "5000 digits", "max_integer_digits")
        assert run.seconds < 10


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        ("cube.mat", "Doubles => 2", "Doubles => " + "2" * 5000),
        ("length.sgf", "MI[length:7]", "MI[length:" + "7" * 5000 + "]"),
    ],
)
def test_long_numbers_in_text_records(tmp_path: Path, name: str, old: str, new: str) -> None:
    source = RECORD if name.endswith(".mat") else next(SGF.glob("*2308.sgf"))
    text = source.read_text("utf-8")
    assert old in text
    (tmp_path / name).write_text(text.replace(old, new, 1), "utf-8")
    run = bgkit_run("verify", name, cwd=tmp_path)
    assert_one_line(run, 2, f"{name}:", "5000 digits", "max_integer_digits")


# ---------------------------------------------------------------- 5: lines and names


def test_a_900_kb_name_is_refused_by_the_line_limit(tmp_path: Path) -> None:
    text = RECORD.read_text("utf-8").replace(" Alice :", " " + "A" * 900_000 + " :")
    (tmp_path / "name.mat").write_text(text, "utf-8")
    run = bgkit_run("verify", "name.mat", cwd=tmp_path)
    assert_one_line(run, 2, "name.mat:6:1:", "max_line_chars")
    assert run.seconds < 10 and run.peak_mb < 300, (run.seconds, run.peak_mb)


def test_a_long_name_under_the_line_limit_names_the_name_limit(tmp_path: Path) -> None:
    text = RECORD.read_text("utf-8").replace(" Alice :", " " + "A" * 500 + " :")
    (tmp_path / "name.mat").write_text(text, "utf-8")
    run = bgkit_run("verify", "name.mat", cwd=tmp_path)
    line = assert_one_line(run, 2, "name.mat:6:2:", "500 characters", "max_name_chars")
    assert "A" * 41 not in line


@pytest.mark.parametrize("fmt", ["sgf", "json"])
def test_long_names_in_sgf_and_json(fmt: str) -> None:
    match = bgkit.read_match(RECORD)
    long = "B" * 5000
    if fmt == "sgf":
        text = match.to_sgf().replace("PB[Bob]", f"PB[{long}]")
        with pytest.raises(LimitError) as info:
            parse_sgf(text, source_name="x.sgf")
    else:
        text = match.to_json().replace('"Bob"', f'"{long}"', 1)
        with pytest.raises(LimitError) as info:
            parse_json(text, source_name="x.json")
    assert info.value.limit == "max_name_chars"
    assert long[:41] not in info.value.one_line()


def test_a_15_mb_line_is_refused_without_running_out_of_memory(tmp_path: Path) -> None:
    path = tmp_path / "line.mat"
    with path.open("w") as out:  # (under the file limit of 16 MiB)
        out.write(" 5 point match\n\n Game 1\n Alice : 0    Bob : 0\n  1) 42: ")
        out.write("24/20 " * (15_000_000 // 6))
    run = bgkit_run("verify", "line.mat", cwd=tmp_path)
    assert_one_line(run, 2, "line.mat:5:1:", "max_line_chars")
    assert run.seconds < 15 and run.peak_mb < 600, (run.seconds, run.peak_mb)


@pytest.mark.parametrize("depth", [60_000, 100_000])
def test_deeply_nested_sgf_is_refused_quickly(tmp_path: Path, depth: int) -> None:
    text = "(;FF[4]GM[6]MI[length:0]PW[a]PB[b]" + "(;C[x]" * depth + ")" * (depth + 1)
    (tmp_path / "deep.sgf").write_text(text, "utf-8")
    run = bgkit_run("verify", "deep.sgf", cwd=tmp_path)
    assert_one_line(run, 2, "deep.sgf:1:", "max_nesting")
    assert run.seconds < 5, run.seconds


def test_deeply_nested_json_is_a_limit_error() -> None:
    with pytest.raises(LimitError) as info:
        parse_json('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert info.value.limit == "max_nesting"
    assert (info.value.line, info.value.column) == (1, 1006)


def test_a_long_json_record_is_read_in_linear_time() -> None:
    """2 MB of JSON with 21,660 actions: each play was once located in the text from its
    start (minutes); the place is now looked for only when a play is refused."""
    doc = json.loads(bgkit.read_match(RECORD).to_json())
    doc["games"] = doc["games"] * 60
    text = json.dumps(doc)
    start = time.monotonic()
    match = parse_json(text)
    assert time.monotonic() - start < 10
    assert len(match.games) == 300


def test_a_big_sgf_comment_is_read_in_bounded_memory() -> None:
    """A 15 MB comment is under every limit: it is read, in linear time and memory."""
    text = next(SGF.glob("*2308.sgf")).read_text("utf-8")
    text = text.replace("PW[charlot1]", "PW[charlot1]C[" + "x" * 15_000_000 + "]", 1)
    start = time.monotonic()
    match = parse_sgf(text)
    assert time.monotonic() - start < 10
    assert match.players == ("charlot1", "charlot2")


def test_a_file_over_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "huge.mat"
    with path.open("wb") as out:
        out.truncate(DEFAULT_LIMITS.max_file_bytes + 1)  # sparse: costs no disk
    run = bgkit_run("verify", "huge.mat", cwd=tmp_path)
    assert_one_line(
        run, 2, "huge.mat", "16,777,217 bytes, more than the limit of 16 MiB (max_file_bytes"
    )
    assert run.seconds < 10 and run.peak_mb < 200, (run.seconds, run.peak_mb)
    raised = bgkit_run("verify", "--max-size", "80M", "huge.mat", cwd=tmp_path)
    assert_one_line(
        raised, 2, "huge.mat:1:1: error: line 1 has 16777217 characters", "max_line_chars"
    )
    with using(Limits(max_file_bytes=100)), pytest.raises(LimitError) as info:
        bgkit.read_match(RECORD)
    assert info.value.limit == "max_file_bytes"
    assert bgkit.read_match(RECORD, limits=Limits(max_file_bytes=1 << 20)).games


# ------------------------------------------------------------------- 6: short errors


def test_error_lines_quote_an_excerpt() -> None:
    line = "  1) 42: 24/20 20/18 " + "x" * 5000
    err = NotationError("bad", line, 4000, source_name="f.mat")
    shown = str(err).splitlines()
    assert shown[0] == "f.mat:1:4001: bad"
    assert len(shown[1]) == 4 + 80 and shown[1].strip().startswith("...")
    assert shown[2].index("^") - 4 == 40  # the caret under the character at column 4001
    huge = NotationError("unexpected " + repr("y" * 10_000), "", 0)
    assert len(huge.msg) <= 300 and " ... " in huge.msg


# --------------------------------------------------------------- 7: unusual sources


@pytest.mark.parametrize("command", ["verify", "convert", "analyze"])
def test_a_fifo_as_the_source_does_not_block(tmp_path: Path, command: str) -> None:
    os.mkfifo(tmp_path / "in.mat")
    args = [command, "in.mat"] + (["out.json"] if command == "convert" else [])
    run = bgkit_run(*args, cwd=tmp_path, timeout=60)
    assert_one_line(run, 2, "in.mat", "not a regular file (a FIFO)")
    assert not (tmp_path / "out.json").exists()


def test_a_device_as_the_source(tmp_path: Path) -> None:
    run = bgkit_run("verify", "/dev/zero", cwd=tmp_path)
    assert_one_line(run, 2, "/dev/zero: error: not a regular file (a character device)")


def test_the_readme_names_every_limit_with_its_default() -> None:
    """Each field of :class:`Limits` is in the README's limits section, with its default
    as the README writes numbers (a limit added without a word there fails this)."""
    import dataclasses

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Limits on input", 1)[1].split("\n## ", 1)[0]
    for limit in dataclasses.fields(Limits):
        default = getattr(DEFAULT_LIMITS, limit.name)
        written = f"{default >> 20} MiB" if default >= 1 << 20 else f"{default:,}"
        assert f"`{limit.name}`" in section, limit.name
        assert f"`{limit.name}` | {written}" in section or f"`{limit.name}` ({written})" in (
            section
        ), (limit.name, written)
