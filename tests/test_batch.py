"""Batches over many files (``bgkit.batch``, ``bgkit verify --jobs/--scheduler/--output``).

The same rows, in the same order, whether the files are done in this process, in a
process pool or on a Dask cluster; a broken file is a row, never the end of a batch;
a rerun with the same output file does only the files not done yet.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgkit import batch
from bgkit.batch import output as batch_output
from bgkit.batch import rows as batch_rows
from bgkit.batch import run as batch_run
from bgkit.cli import main

pd = pytest.importorskip("pandas")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "data" / "fixtures"
CLEAN = FIXTURES / "handwritten_3pt.mat"
ILLEGAL = FIXTURES / "handwritten_3pt_illegal1.mat"
SYNTAX = FIXTURES / "handwritten_3pt_syntax3.mat"  # (its header cannot be read)
SELFPLAY = sorted((ROOT / "data" / "selfplay").glob("*.mat"))
# small records with notes and issues, fixtures with illegal plays and syntax errors,
# and gnubg's own matches: every kind of row
MIXED = [
    *sorted((ROOT / "data" / "real" / "gmd").iterdir())[:16],
    *sorted(FIXTURES.glob("*.mat")),
    *SELFPLAY[:6],
]


def rel(paths: list[Path]) -> list[str]:
    """Paths relative to the repository root (the tests run from there or not)."""
    return [os.path.relpath(p) for p in paths]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    """A Dask cluster in this process (threads), as a user's notebook would start one."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        processes=False,
        n_workers=1,
        threads_per_worker=2,
        dashboard_address=":0",  # a free port: other clusters may run here
        protocol="tcp://",
    )
    client = distributed.Client(cluster, set_as_default=False)
    yield client
    client.close()
    cluster.close()


class Counting:
    """:func:`bgkit.batch.verify_rows` that counts its calls (``jobs=1``: this process)."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.calls: list[str] = []
        self.stop_after = stop_after
        self.verify_rows = batch.verify_rows  # the real one, even once monkeypatched

    def __call__(self, path: Path) -> list[dict[str, Any]]:
        if self.stop_after is not None and len(self.calls) == self.stop_after:
            raise KeyboardInterrupt  # the user presses Ctrl-C
        self.calls.append(path.name)
        return self.verify_rows(path)


# ---------------------------------------------------------------------- same results


def test_processes_and_dask_give_the_rows_of_one_process(dask_client: Any) -> None:
    files = rel(MIXED)
    serial = batch.verify_files(files, jobs=1, progress=False)
    assert list(serial.columns) == [
        "file",
        "kind",
        "message",
        *batch.VERIFY_COLUMNS,
        "size",
        "mtime_ns",
    ]
    assert serial["file"].unique().tolist() == files  # input order
    kinds = set(serial["kind"].dropna())
    assert {"unreadable", "illegal-play", "unverifiable"} <= kinds
    ok = serial.drop_duplicates("file")["ok"]
    assert ok.eq(True).sum() >= 6  # the clean files (notes allowed)
    pooled = batch.verify_files(files, jobs=2, progress=False)
    pd.testing.assert_frame_equal(pooled, serial)
    on_dask = batch.verify_files(files, client=dask_client, progress=False)
    pd.testing.assert_frame_equal(on_dask, serial)
    workers = batch.map_files(_worker, files[:3], client=dask_client, progress=False)
    assert set(workers["worker"]) == set(dask_client.scheduler_info()["workers"])


def _worker(path: Path) -> list[dict[str, Any]]:
    from distributed import get_worker

    return [{"worker": get_worker().address}]  # raises outside a Dask worker


def test_rows_are_the_verifier_issues() -> None:
    from bgkit.formats import read_match
    from bgkit.verify import verify

    files = rel(MIXED[:16])
    df = batch.verify_files(files, jobs=2, progress=False)
    for file in files:
        report = verify(read_match(file))
        rows = df[df["file"] == file].to_dict("records")
        assert [str(i) for i in batch.issues_from_rows(rows)] == [str(i) for i in report]
        assert {r["games"] for r in rows} == {report.games}
        assert {r["actions"] for r in rows} == {report.actions_checked}


def test_a_broken_file_is_a_row_and_the_batch_goes_on(tmp_path: Path) -> None:
    broken = tmp_path / "broken.mat"
    broken.write_bytes(b" 12) 97: 24/17\n" + CLEAN.read_bytes())
    files = [str(broken), str(tmp_path / "missing.mat"), str(SYNTAX), str(CLEAN)]
    df = batch.verify_files(files, jobs=2, progress=False)
    assert df["file"].tolist() == files
    assert df["kind"].tolist()[:3] == ["unreadable"] * 3
    # the good file after them is verified: clean, with its one note
    assert (df["kind"].iloc[3], df["severity"].iloc[3], df["ok"].iloc[3]) == (
        "unfinished-match",
        "note",
        True,
    )
    assert df["games"].iloc[3] == 1
    # the one-line messages of `bgkit verify`
    assert df["message"].iloc[1] == f"{tmp_path / 'missing.mat'}: No such file or directory"
    assert df["message"].iloc[2] == f"{SYNTAX}:1:4: expected 'N point match', found 'pt'"
    assert df["message"].iloc[0].startswith(f"{broken}:")
    assert "\n" not in "".join(df["message"].dropna())
    assert df["size"].isna().tolist() == [False, True, False, False]


_verify_rows = batch.verify_rows  # the real one, even once monkeypatched


def _explode(path: Path) -> list[dict[str, Any]]:
    if path.name == CLEAN.name:
        raise ZeroDivisionError("a bug")
    return _verify_rows(path)


def test_an_exception_in_the_function_is_an_internal_error_row() -> None:
    files = [str(CLEAN), str(ILLEGAL)]
    for jobs in (1, 2):
        df = batch.map_files(
            _explode, files, jobs=jobs, progress=False, columns=batch.VERIFY_COLUMNS
        )
        assert df["kind"].iloc[0] == batch.INTERNAL_ERROR
        assert df["message"].iloc[0] == f"{CLEAN}: internal error: ZeroDivisionError: a bug"
        assert df["kind"].iloc[1] == "illegal-play"


def test_a_folder_and_generic_rows(capsys: pytest.CaptureFixture[str]) -> None:
    def size(path: Path) -> list[dict[str, Any]]:
        data = path.read_bytes()
        return [{"bytes": len(data)}] if data else []

    df = batch.map_files(size, rel([FIXTURES]), jobs=1, progress=True)
    assert "8/8" in capsys.readouterr().err  # the progress bar, on stderr
    names = sorted(p.name for p in FIXTURES.glob("*.mat"))
    assert [Path(f).name for f in df["file"]] == names
    assert df["bytes"].tolist() == [(FIXTURES / n).stat().st_size for n in names]
    assert df["kind"].isna().all()


def test_stream_yields_in_input_order_and_stops_cleanly() -> None:
    files = rel(SELFPLAY[:20])
    stream = batch.stream_files(batch.verify_rows, files, jobs=2)
    got = [next(stream).file for _ in range(5)]
    stream.close()  # cancels the chunks in flight and stops the pool
    assert got == files[:5]


def _where(path: Path) -> list[dict[str, Any]]:
    time.sleep(0.05)  # long enough for every worker to get some files
    return [{"pid": os.getpid()}]


def test_jobs_are_processes() -> None:
    files = rel(SELFPLAY[:16])
    pids = set(batch.map_files(_where, files, jobs=2, progress=False)["pid"])
    assert len(pids) == 2 and os.getpid() not in pids
    few = files[: batch_run.FILES_PER_JOB - 1]  # by default, a few files are done here
    assert set(batch.map_files(_where, few, progress=False)["pid"]) == {os.getpid()}


def test_default_jobs() -> None:
    assert batch_run._default_jobs(1) == 1
    assert batch_run._default_jobs(batch_run.FILES_PER_JOB - 1) == 1
    assert 1 <= batch_run._default_jobs(10_000) <= (os.cpu_count() or 1)


# ---------------------------------------------------------------------- resume


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_a_rerun_skips_the_files_done(tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    folder = tmp_path / "records"
    folder.mkdir()
    for path in [*MIXED[:4], ILLEGAL, SYNTAX]:
        shutil.copy(path, folder / path.name)
    missing = tmp_path / "missing.mat"  # no key: done again every time
    output = tmp_path / f"results{suffix}"

    def again(calls: Counting) -> Any:
        return batch.map_files(
            calls,
            [folder, missing],
            jobs=1,
            output=output,
            progress=False,
            columns=batch.VERIFY_COLUMNS,
        )

    first = Counting()
    df1 = again(first)
    assert len(first.calls) == 7
    assert output.exists() and not output.with_name(output.name + ".parts").exists()
    second = Counting()
    df2 = again(second)
    assert second.calls == ["missing.mat"]
    pd.testing.assert_frame_equal(df2, df1)
    # an edited file is done again, and so is one not in the output yet
    edited = folder / ILLEGAL.name
    edited.write_bytes(CLEAN.read_bytes())
    shutil.copy(CLEAN, folder / "new.mat")
    third = Counting()
    df3 = again(third)
    assert sorted(third.calls) == [ILLEGAL.name, "missing.mat", "new.mat"]
    assert df3[df3["file"] == str(edited)]["ok"].all()  # now clean
    assert df3["file"].unique().tolist() == [*sorted(map(str, folder.iterdir())), str(missing)]
    if suffix == ".parquet":  # (and what its rows were made under: issue 29)
        stored = pd.read_parquet(output)
        assert set(stored.pop(batch_output.SETTINGS)) == {"defaults"}
        pd.testing.assert_frame_equal(stored, df3)


def test_an_interrupted_run_resumes_from_its_checkpoints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pyarrow")
    monkeypatch.setattr(batch_output, "CHECKPOINT_SECONDS", 0.0)  # save after every file
    files = rel(SELFPLAY[:6])
    output = tmp_path / "results.parquet"
    parts = tmp_path / "results.parquet.parts"
    stopped = Counting(stop_after=4)
    with pytest.raises(KeyboardInterrupt):
        batch.map_files(
            stopped, files, jobs=1, output=output, progress=False, columns=batch.VERIFY_COLUMNS
        )
    assert not output.exists()
    assert len(list(parts.iterdir())) == 4
    rest = Counting()
    df = batch.map_files(
        rest, files, jobs=1, output=output, progress=False, columns=batch.VERIFY_COLUMNS
    )
    assert rest.calls == [Path(f).name for f in files[4:]]
    assert not parts.exists()
    pd.testing.assert_frame_equal(df, batch.verify_files(files, jobs=1, progress=False))
    pd.testing.assert_frame_equal(pd.read_parquet(output).drop(columns=batch_output.SETTINGS), df)


def test_an_output_bgkit_cannot_use(tmp_path: Path) -> None:
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    with pytest.raises(batch.BatchError, match="not a bgkit batch output"):
        batch.verify_files([str(CLEAN)], jobs=1, output=other, progress=False)
    with pytest.raises(batch.BatchError, match=r"must be a \.parquet or \.csv"):
        batch.verify_files([str(CLEAN)], jobs=1, output=tmp_path / "x.txt", progress=False)
    verified = tmp_path / "verified.csv"
    batch.verify_files([str(CLEAN)], jobs=1, output=verified, progress=False)
    with pytest.raises(batch.BatchError, match="columns differ"):
        batch.map_files(
            batch.verify_rows, [str(CLEAN)], jobs=1, output=verified, columns={"x": "Int64"}
        )


# ---------------------------------------------------------------------- the CLI


def _cli_runs(args: list[str]) -> list[tuple[int, str, str]]:
    return [
        (r.exit_code, r.stdout, r.stderr)
        for r in (run("verify", *jobs, *args) for jobs in (["--jobs", "1"], ["--jobs", "2"]))
    ]


@pytest.mark.parametrize("mode", [[], ["--json"], ["--strict"], ["--quiet"]])
def test_cli_jobs_2_prints_what_jobs_1_prints(mode: list[str]) -> None:
    one, two = _cli_runs([*mode, *rel(MIXED)])
    assert one == two
    code, out, err = one
    assert code == (2 if "--strict" not in mode else 1)  # the fixtures hold syntax errors
    assert (out if "--json" in mode else err).strip()


def test_cli_on_a_dask_cluster(dask_client: Any) -> None:
    address = dask_client.scheduler.address
    assert address.startswith("tcp://")
    files = rel(MIXED)
    for mode in ([], ["--json"]):
        local = run("verify", "--jobs", "1", *mode, *files)
        remote = run("verify", "--scheduler", address, *mode, *files)
        assert (remote.exit_code, remote.stdout, remote.stderr) == (
            local.exit_code,
            local.stdout,
            local.stderr,
        )


def test_cli_output_and_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = rel(MIXED[:10])
    output = str(tmp_path / "results.csv")
    plain = run("verify", *files)
    plain_json = run("verify", "--json", *files)
    first = run("verify", "-o", output, *files)
    assert (first.exit_code, first.stderr) == (plain.exit_code, plain.stderr)
    calls = Counting()
    monkeypatch.setattr(batch, "verify_rows", calls)
    again = run("verify", "--jobs", "1", "-o", output, *files)
    assert calls.calls == []  # every file came from the output
    assert again.exit_code == plain.exit_code
    *issues, summary = again.stderr.splitlines()
    assert issues == plain.stderr.splitlines()[:-1]
    assert summary == plain.stderr.splitlines()[-1] + (  # it says the work was done before
        f"; {len(files)} of the files were done before and are unchanged: their results come"
        f" from {output}, 0 checked now"
    )
    as_json = run("verify", "--json", "--jobs", "1", "-o", output, *files)
    assert as_json.stdout == plain_json.stdout
    assert calls.calls == []
    stored = pd.read_csv(output)
    assert stored["file"].unique().tolist() == files


def test_cli_bad_output_and_strict_output(tmp_path: Path) -> None:
    result = run("verify", "-o", str(tmp_path / "r.txt"), str(CLEAN))
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"bgkit: {tmp_path / 'r.txt'}: the output must be a .parquet or .csv file\n"
    )
    result = run("verify", "--strict", "-o", str(tmp_path / "r.csv"), str(CLEAN))
    assert result.exit_code == 2
    assert result.stderr.startswith("bgkit: --strict stops at the first issue")
    assert not (tmp_path / "r.csv").exists()


def test_cli_scheduler_address_that_is_not_one() -> None:
    pytest.importorskip("distributed")
    result = run("verify", "--scheduler", "nonsense", str(CLEAN))
    assert result.exit_code == 2
    assert result.stderr == (
        "bgkit: nonsense: cannot reach the Dask scheduler:"
        " missing port number in address 'nonsense'\n"
    )


def test_cli_exit_3_when_bgkit_fails_on_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "verify_rows", _explode)
    result = CliRunner().invoke(main, ["verify", "--jobs", "1", str(CLEAN), str(ILLEGAL)])
    assert result.exit_code == 3
    lines = result.stderr.splitlines()
    assert lines[0] == f"{CLEAN}: internal error: ZeroDivisionError: a bug"
    assert lines[1].startswith(f"{ILLEGAL}:8:34: error: illegal play")  # the batch went on
    assert lines[-1].endswith(": 0 clean, 1 with errors, 1 unreadable; 1 error(s), 1 note(s)")


# ---------------------------------------------------------------------- analysis


def test_analysis_columns_type_what_an_analysis_gives() -> None:
    """Each per-player column's dtype is the type of what an analysis puts in it."""
    pytest.importorskip("gnubg")
    from bgkit.analysis.match import PLAYER_DTYPES, analyze
    from bgkit.formats import read_match

    python_type = {"Int64": int, "string": str, "float64": float}
    rows = analyze(read_match(CLEAN), plies=0).players_list
    for row in rows:
        assert list(row) == list(PLAYER_DTYPES)
        wrong = {
            name: (PLAYER_DTYPES[name], type(value).__name__)
            for name, value in row.items()
            if type(value) is not python_type[PLAYER_DTYPES[name]]
        }
        assert wrong == {}
    columns = batch_rows.analysis_columns()
    assert {name: columns[name] for name in PLAYER_DTYPES} == PLAYER_DTYPES


def test_analyze_files_per_player_rows(tmp_path: Path) -> None:
    pytest.importorskip("gnubg")
    from bgkit.analysis.match import analyze
    from bgkit.formats import read_match

    files = [str(CLEAN), str(ILLEGAL), str(SYNTAX)]
    output = tmp_path / "analysis.csv"
    serial = batch.analyze_files(files, jobs=1, output=output, progress=False)
    assert serial["file"].tolist() == [files[0], files[0], files[1], files[2]]
    assert serial["kind"].tolist()[2:] == ["illegal-play", "unreadable"]
    assert serial["player"].tolist()[:2] == [0, 1]
    # (gnubg's own analysis of the match, read back from its SGF: six decimals)
    expected = analyze(read_match(files[0]), 0, jobs=1).players
    for column in ("name", "unforced_moves"):
        assert serial[column].tolist()[:2] == expected[column].tolist()
    for column in ("checker_error_emg", "pr"):
        assert serial[column].tolist()[:2] == pytest.approx(expected[column].tolist(), rel=1e-5)
    pooled = batch.analyze_files(files, jobs=2, progress=False)
    pd.testing.assert_frame_equal(pooled, serial)
    resumed = batch.analyze_files(files, jobs=1, output=output, progress=False)
    pd.testing.assert_frame_equal(resumed, serial)
    with pytest.raises(batch.BatchError, match="holds a 0-ply analysis, not 1-ply"):
        batch.analyze_files(files, 1, output=output, progress=False)
    assert set(serial["met"].dropna()) == {"Kazaross-XG2"}
    with pytest.raises(batch.BatchError, match="with the Kazaross-XG2 match equity table, not"):
        batch.analyze_files(files, met="woolsey", output=output, progress=False)
    other = batch.analyze_files(files[:1], met="WOOLSEY", jobs=1, progress=False)
    assert set(other["met"]) == {"woolsey"}
    assert other["luck_emg"].tolist() != serial["luck_emg"].tolist()[:2]


def _printed(script: str, paths: list[Path]) -> tuple[list[str], str]:
    """The words ``script`` prints run in a new Python process on ``paths``, its stderr."""
    out = subprocess.run(
        [sys.executable, "-c", script, *rel(paths)], capture_output=True, text=True, check=True
    )
    return out.stdout.split(), out.stderr


# a row function in a process that has not imported pandas: whether its workers have
_PANDAS_IN_WORKERS = """
import os, sys, time
from bgkit import batch

def pandas_here(path):
    time.sleep(0.05)  # (every worker gets some files)
    return [{"pandas": "pandas" in sys.modules, "pid": os.getpid()}]

if __name__ == "__main__":
    rows = batch.map_files(pandas_here, sys.argv[1:], jobs=2, progress=False)
    print(sorted(set(rows["pandas"])), rows["pid"].nunique(), "pandas" in sys.modules)
"""


def test_workers_start_before_pandas_is_imported() -> None:
    """pandas takes half a second to import: the workers are forked before it, so that
    they start at once and do not carry it (they never need it)."""
    printed, stderr = _printed(_PANDAS_IN_WORKERS, SELFPLAY[:8])
    assert printed == ["[False]", "2", "True"], stderr[-2000:]


# a season of one job in a new process (whose gnubg has started no thread, so that it
# can fork): how many processes it forked, and whether its rows are a two-job run's
_ONE_JOB = """
import sys
from bgkit import batch, workers

started = []
start = workers.Forked.start.__func__

def counted(cls, *args, **kwargs):
    started.append(args)
    return start(cls, *args, **kwargs)

workers.Forked.start = classmethod(counted)
serial = batch.analyze_files(sys.argv[1:], jobs=1, progress=False)
forked = len(started)
pooled = batch.analyze_files(sys.argv[1:], jobs=2, progress=False)
print(forked, len(serial), serial["kind"].isna().all(), pooled.equals(serial))
"""


def test_a_run_in_this_process_starts_one_process_for_gnubg() -> None:
    """A season of one job: gnubg's analyses of its matches in one forked process (its
    start, with gnubg's nets, cost each match more than a third of its analysis)."""
    pytest.importorskip("gnubg")
    printed, stderr = _printed(_ONE_JOB, SELFPLAY[:3])
    assert printed == ["1", "6", "True", "True"], stderr[-2000:]
