"""Issue 29, item 1: nothing reaches GNU Backgammon's C code unchecked, a crash there takes
down only a worker, and no figure that is not a number is printed or written as JSON.

Each reproducer is the issue's own, run as a whole command under resource limits
(:mod:`bounded`): exit code, the one line, time and memory.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from bounded import BGKIT, GIB, run

from bgkit.analysis import engine_gate
from bgkit.errors import EngineCrashError, EngineLimitError
from bgkit.position import GameState, Position
from bgkit.workers import Isolated

pytest.importorskip("gnubg")

OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:{dice}:0:0:0:{length}:10"


def xgid(length: int, dice: str = "52") -> str:
    return OPENING.format(dice=dice, length=length)


# ---------------------------------------------------------------------- the gate


@pytest.mark.parametrize(
    ("position", "reason"),
    [
        (Position.initial(match_length=65), "gnubg's match equity tables stop at 64 points"),
        (Position.initial(match_length=30000), "a 30000-point match"),
        (Position.initial(variant="hypergammon"), r"3 checkers a side \(hypergammon\)"),
        (
            replace(Position.initial(match_length=7), cube=128, cube_owner=0),
            "gnubg's match play stops at a cube of 64",
        ),
        (replace(Position.initial(), cube=1 << 16, cube_owner=0), "at most 32768"),
        (replace(Position.initial(), cube=1 << 29, cube_owner=1), "at most 32768"),
        (replace(Position.initial(), game_state=GameState.OVER), "the game is over"),
        (replace(Position.initial(), score=(1 << 15, 0)), "gnubg cannot be handed"),
    ],
)
def test_the_gate_refuses_what_gnubg_does_not_support(position: Position, reason: str) -> None:
    with pytest.raises(EngineLimitError, match=reason) as caught:
        engine_gate.check(position)
    assert "\n" not in str(caught.value)


def test_the_gate_lets_through_what_gnubg_supports() -> None:
    for length in (0, 1, 25, 64):
        engine_gate.check(Position.initial(match_length=length), 4)
    engine_gate.check(replace(Position.initial(match_length=64), cube=64, cube_owner=1))
    engine_gate.check(replace(Position.initial(), cube=1 << 15, cube_owner=1))


@pytest.mark.parametrize("plies", [-1, 5, 7, True, 2.0])
def test_the_gate_refuses_depths_bgkit_does_not_ask(plies: object) -> None:
    with pytest.raises(EngineLimitError, match="plies must be 0 to 4"):
        engine_gate.check_plies(plies)  # type: ignore[arg-type]


def test_no_figure_that_is_not_a_number_passes() -> None:
    engine_gate.finite_all({"plays": [{"equity": 0.1, "probabilities": [0.5] * 5}]}, "it")
    with pytest.raises(EngineLimitError, match=r"no number for it \(plays\[1\]\.equity\)"):
        engine_gate.finite_all({"plays": [{"equity": 0.1}, {"equity": float("-inf")}]}, "it")


def test_python_hint_refuses_before_the_engine() -> None:
    """``bgkit.hint()`` of a 30,000-point match killed the interpreter; a hypergammon board
    and 7 plies gave tracebacks from deep inside."""
    from bgkit.analysis.hints import hint

    with pytest.raises(EngineLimitError, match="stop at 64 points"):
        hint(Position.from_xgid(xgid(30000)))
    with pytest.raises(EngineLimitError, match="15 checkers a side"):
        hint(replace(Position.initial(variant="hypergammon"), dice=(5, 2)))
    with pytest.raises(EngineLimitError, match="plies must be 0 to 4"):
        hint(Position.from_xgid(xgid(7)), plies=7)


# ---------------------------------------------------------------------- the commands


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hint", xgid(30000), "--plies", "0"], "a 30000-point match: gnubg's match equity"),
        (["hint", xgid(27682), "--plies", "0"], "stop at 64 points"),
        (["hint", xgid(100), "--plies", "0", "--json"], "stop at 64 points"),
        (["hint", xgid(65), "--plies", "2"], "stop at 64 points"),
        (
            [
                "hint",
                "board:p:o:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1"
                ":0:0:0:0:536870912:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1",
            ],
            "a cube of 536870912: gnubg takes a cube of at most 32768",
        ),
        (["show", xgid(999_999_999)], "the match length field holds 15 bits"),
        (["moves", "4HPwATDgc/ABMA:cIrqAAAAAAAE"], "the game is over"),
    ],
)
def test_each_reproducer_is_one_line(args: list[str], message: str) -> None:
    ran = run([*BGKIT, *args], seconds=30, memory=2 * GIB)
    assert ran.code == 2, ran.stderr
    assert ran.lines == [ran.lines[0]] and message in ran.lines[0], ran.stderr
    assert "NaN" not in ran.stdout and "nan" not in ran.stdout
    assert ran.seconds < 20


@pytest.mark.parametrize("length", [26, 30, 64])
def test_matches_up_to_64_points_get_figures(length: int) -> None:
    """Past 25 points the cube decision needs the match equity table past 25 (gnubg's goes
    to 64); every figure is a number."""
    ran = run([*BGKIT, "hint", xgid(length, "00"), "--json"], seconds=30, memory=2 * GIB)
    assert ran.code == 0, ran.stderr
    cube = json.loads(ran.stdout)["cube"]
    assert 0.2 < cube["take_point"] < 0.3
    assert cube["double_pass"] == 1.0 and -1 < cube["no_double"] < 1


# ---------------------------------------------------------------------- crashes


def _segfault() -> None:
    import ctypes

    ctypes.string_at(0)


def _gnubg_unchecked(length: int) -> object:
    """What bgkit did before the gate: the position straight into gnubg's C code (a
    30,000-point match: a segmentation fault, every time)."""
    from bgkit.analysis.hints import hint

    engine_gate.check = lambda *args, **kwargs: None  # (in this worker only)
    return len(hint(Position.from_xgid(xgid(length)), plies=0).plays)


def test_a_crash_in_a_worker_is_an_error_for_that_call() -> None:
    with Isolated() as engine:
        with pytest.raises(EngineCrashError, match="SIGSEGV"):
            engine.call(_segfault)
        assert engine.call(sum, [1, 2]) == 3  # a new worker for the next call


def test_gnubg_crashing_does_not_take_the_caller_down() -> None:
    """The issue's reproducer itself (hint of a 30,000-point match without the gate), in
    a fresh interpreter: gnubg reads past its tables, and crashes (``bgkit hint`` exited
    139 every time) or, in another memory layout, gives ``nan`` or figures from whatever
    it read. Whatever it does, the caller lives on (a crash and a ``nan`` are one clean
    error), and the next call gets its answer."""
    script = (
        "from bgkit.workers import Isolated\n"
        "from bgkit.errors import EngineCrashError, EngineLimitError\n"
        "import test_engine_gate as t\n"
        "with Isolated() as engine:\n"
        "    try:\n"
        "        print('answered', engine.call(t._gnubg_unchecked, 30000))\n"
        "    except (EngineCrashError, EngineLimitError) as err:\n"
        "        print(type(err).__name__, err)\n"
        "    print(engine.call(t._gnubg_unchecked, 7))\n"
    )
    ran = run(
        [sys.executable, "-c", script],
        seconds=30,
        env={"PYTHONPATH": str(Path(__file__).parent)},
    )
    assert ran.code == 0, ran.stderr
    first, second = ran.stdout.splitlines()
    assert first in (
        "EngineCrashError GNU Backgammon's process died (killed by SIGSEGV) on this position;"
        " nothing else was lost",
    ) or first.startswith(("EngineLimitError gnubg gave no number", "answered")), first
    assert second == "5"


def test_ctrl_c_during_a_deep_hint_is_one_line() -> None:
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) during ``hint
    --plies 3``: exit 130, one line, no traceback, no worker left."""
    process = subprocess.Popen(
        [*BGKIT, "hint", *[xgid(7, d) for d in ("52", "31", "64", "21")], "--plies", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    time.sleep(2.0)  # (gnubg loaded, searching)
    import os

    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert err.decode().splitlines() == ["bgkit: interrupted"]
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.killpg(process.pid, 0)  # nobody of the group is left


def test_a_crash_in_an_analysis_worker_is_one_line() -> None:
    """analyze's workers run gnubg: one that dies is one line and exit 3, not a
    traceback (the crash made here, in the workers' own task function)."""
    script = (
        "import ctypes, sys\n"
        "from bgkit.analysis import tasks as analysis_tasks\n"
        "def crash(*args):\n"
        "    ctypes.string_at(0)\n"
        "crash.__module__, crash.__qualname__ = 'bgkit.analysis.tasks', '_worker_run'\n"
        "analysis_tasks._worker_run = crash\n"
        "from bgkit.cli import main\n"
        "sys.argv = ['bgkit', 'analyze', '--plies', '0', '--jobs', '2', sys.argv[1]]\n"
        "main()\n"
    )
    sample = Path(__file__).resolve().parent.parent / "data" / "sample.mat"
    ran = run([sys.executable, "-c", script, str(sample)], seconds=60)
    assert ran.code == 3, ran.stderr
    assert ran.lines == [
        "bgkit: cannot analyse: GNU Backgammon's process died (a crash in its C code);"
        " nothing else was lost"
    ]
