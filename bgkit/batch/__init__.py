"""Run bgkit over many record files: on every local core, or on a Dask cluster.

:func:`verify_files` verifies, :func:`analyze_files` analyses, and :func:`map_files` runs
any function of a file path; each takes a folder or a list of files and returns one pandas
DataFrame with a ``file`` column on every row. :func:`stream_files` is the same run as a
stream of per-file results, in input order, without pandas (``bgkit verify`` uses it).

Where the work runs:

* ``jobs=1``: in this process, one file after the other;
* ``jobs=N`` (default: every core when there are more than a few files): ``N`` local
  processes, each given a chunk of files at a time; only a few chunks are in flight at
  once, and a worker sends back rows, never :class:`~bgkit.records.Match` objects, so
  memory stays flat however many files there are;
* ``client=``: a :class:`distributed.Client`, or a scheduler address such as
  ``"tcp://10.0.0.5:8786"``: chunks become Dask tasks. Every worker must have bgkit
  installed and see the files at the same paths (a shared file system).

One broken file never stops a run: a file that cannot be read or parsed gives one row
with ``kind`` ``"unreadable"`` and the one-line message ``bgkit verify`` prints; an
unexpected exception (a bug in bgkit) gives one row with ``kind`` ``"internal-error"``.

With ``output=`` (``.parquet`` or ``.csv``) the rows are also written to a file, and a
rerun with the same file is resumed: a file whose key is already there is not read
again, its stored rows are used. The key is the path as given, the size and the
modification time (``file``, ``size``, ``mtime_ns`` columns): a stat, not a read, so a
rerun over a large archive costs nothing for the files already done, and a file edited
since is done again. (A content hash would also survive a move or a ``touch``, at the
price of reading every file at every rerun.) While a run goes on, finished rows are
saved every few seconds in ``OUTPUT.parts/``; a run that is interrupted (Ctrl-C, a crash)
is resumed from there. When the run completes, ``OUTPUT`` holds exactly the rows of this
run's files, in input order, and ``OUTPUT.parts/`` is removed. An output file holds the
results of one function: one with other columns is refused, and so is an analysis at
other ``plies``; other settings of a function of your own are not told apart. One run
at a time per output file.

The parts: :mod:`bgkit.batch.run` hands the files out (in this process, to local worker
processes or to Dask) and yields each file's rows in order; :mod:`bgkit.batch.output`
is the output file (resume, checkpoints, the final write, ``CHECKPOINT_SECONDS`` and
``CHECKPOINT_ROWS``); :mod:`bgkit.batch.rows` holds the row functions and their columns.

>>> df = verify_files(
...     ["data/fixtures/handwritten_3pt.mat", "data/fixtures/handwritten_3pt_illegal1.mat",
...      "data/fixtures/handwritten_3pt_syntax3.mat"], jobs=1, progress=False)
>>> for row in df[["severity", "kind", "message"]].itertuples(index=False):
...     print(row.severity, row.kind, "|", row.message[:60].strip())
note unfinished-match | the match stops at 1-0 of 3
error illegal-play | illegal play 24/18 18/12 13/7 10/4 for 66: blocked: 18/12 la
note unfinished-match | the match stops at 1-0 of 3
<NA> unreadable | data/fixtures/handwritten_3pt_syntax3.mat:1:4: expected 'N p
>>> df.groupby("file", sort=False)["games"].first().tolist()
[1, 1, <NA>]
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from bgkit.batch import common as _common
from bgkit.batch import rows as _rows
from bgkit.batch.common import (
    FileRows,
    PathArg,
    Row,
    RowFunction,
)
from bgkit.batch.rows import (
    analysis_columns,
    analyze_rows,
    issues_from_rows,
    verify_rows,
)
from bgkit.batch.run import NullBar, _progress_bar, _stream
from bgkit.errors import BatchError
from bgkit.workers import usable_cores

if TYPE_CHECKING:
    from collections.abc import Generator, Mapping

    import pandas as pd
    from distributed import Client  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "INTERNAL_ERROR",
    "SEASON_COLUMNS",
    "UNREADABLE",
    "VERIFY_COLUMNS",
    "BatchError",
    "FileRows",
    "NullBar",
    "analysis_columns",
    "analyze_files",
    "analyze_rows",
    "issues_from_rows",
    "map_files",
    "record_files",
    "stream_files",
    "verify_files",
    "verify_rows",
]

UNREADABLE = _common.UNREADABLE
"""``kind`` of the row of a file that could not be read or parsed."""
INTERNAL_ERROR = _common.INTERNAL_ERROR
"""``kind`` of the row of a file on which bgkit itself failed (a bug: please report it)."""
VERIFY_COLUMNS = _rows.VERIFY_COLUMNS
"""The columns of :func:`verify_rows` (pandas dtypes), between ``file, kind, message``
and ``size, mtime_ns``: one row per :class:`~bgkit.verify.Issue` (``kind``, ``message``
and the rest of :meth:`Issue.to_dict <bgkit.verify.Issue.to_dict>`), and one row with
``kind`` missing for a file without issues. ``games``, ``actions`` and ``ok`` describe
the file and repeat on each of its rows."""
SEASON_COLUMNS = _rows.SEASON_COLUMNS
"""What :func:`analyze_rows` adds to a player's row for a season of matches: the
``opponent``; the ``date`` (``YYYY-MM-DD``) from the record's ``EventDate`` tag or else
its file name (Backgammon Studio's ``..._2024_05_11_19_56_16``), ``event`` (``Event``,
else ``Site``); the final ``score`` (``"7-4"``, the player's first) and whether the
player ``won`` the match (missing when it is unfinished); per game phase
(:meth:`bgkit.position.Position.phase`) the unforced checker ``moves_<phase>`` and their
``error_emg_<phase>``; and the player's costliest checker play of the match
(``worst_*``: its error, game, move, position, dice, the play and the best play)."""
FRAME_ROWS = 10_000
"""Rows are gathered into DataFrames of this many rows (dicts take far more memory)."""


# ---------------------------------------------------------------------- public API


def record_files(paths: PathArg) -> list[Path]:
    """The files named and the record files inside the folders named, as ``bgkit verify``
    finds them (recursively, sorted; ``.txt`` files only when they look like records).

    >>> [p.name for p in record_files("data/fixtures")][:2]
    ['handwritten_3pt.mat', 'handwritten_3pt_illegal1.mat']
    """
    from bgkit.formats import find_records

    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    found, _skipped = find_records(paths)
    return found


def stream_files(
    func: RowFunction,
    paths: PathArg,
    *,
    jobs: int | None = None,
    client: Client | str | None = None,
    output: str | os.PathLike[str] | None = None,
    columns: Mapping[str, str] | None = None,
) -> Generator[FileRows, None, None]:
    """Run ``func`` on every file and yield each file's rows, in input order, as they come.

    The same run as :func:`map_files`, without pandas unless ``output`` is given (close
    the iterator, e.g. with :func:`contextlib.closing`, to stop early: the work in flight
    is cancelled and, with ``output``, the rows so far are kept for a rerun).

    >>> rows = stream_files(verify_rows, "data/fixtures", jobs=1)
    >>> [(r.file.split("/")[-1], r.kind) for r in rows][-2:]
    [('handwritten_3pt_syntax3.mat', 'unreadable'), ('selfplay_7pt_noisy.mat', None)]
    """
    return _stream(
        func, record_files(paths), jobs=jobs, client=client, output=output, columns=columns
    )


def map_files(
    func: RowFunction,
    paths: PathArg,
    *,
    jobs: int | None = None,
    client: Client | str | None = None,
    output: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    columns: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Run ``func`` on every record file of ``paths`` and gather the rows in one DataFrame.

    :param func: a file's path -> a list of row dicts; :exc:`~bgkit.errors.BgkitError`
        and :exc:`OSError` it raises become an ``"unreadable"`` row, any other exception
        an ``"internal-error"`` row; a file with no rows gets one row with only ``file``
        (and its key) set, so that a rerun knows it was done.
    :param paths: a folder, a file, or a list of both (see :func:`record_files`).
    :param jobs: local processes (default: one per core when there are more than a few
        files; 1 runs in this process).
    :param client: run on this Dask cluster (a :class:`distributed.Client` or a
        scheduler address) instead; ``jobs`` is then ignored.
    :param output: also write the rows to this ``.parquet`` or ``.csv`` file, and resume
        from it (see the module documentation).
    :param progress: show a progress bar (``tqdm.auto``: a widget in notebooks); default:
        when stderr is a terminal or in a notebook.
    :param columns: the columns ``func`` gives, name -> pandas dtype, for a stable schema
        (else inferred from the rows; a CSV output then loses some types).
    :returns: columns ``file, kind, message``, ``func``'s columns, ``size, mtime_ns``; the
        rows of each file together, files in input order.
    :raises BatchError: when ``output`` or ``client`` cannot be used.

    >>> from pathlib import Path
    >>> def size(path: Path) -> list[dict[str, int]]:
    ...     return [{"bytes": len(path.read_bytes())}]
    >>> df = map_files(size, ["data/sample.mat", "no/such.mat"], jobs=1, progress=False,
    ...                columns={"bytes": "Int64"})
    >>> df["file"].tolist(), df["kind"].tolist(), df["bytes"].tolist()
    (['data/sample.mat', 'no/such.mat'], [<NA>, 'unreadable'], [7795, <NA>])
    """
    from bgkit.batch.output import _dtypes, _frame

    files = record_files(paths)
    dtypes = _dtypes(columns)
    frames: list[pd.DataFrame] = []
    rows: list[Row] = []
    bar = _progress_bar(len(files), progress)
    stream = _stream(func, files, jobs=jobs, client=client, output=output, columns=columns)
    try:
        with contextlib.closing(stream):
            for done, result in enumerate(stream):
                if not done:
                    # pandas takes half a second to import: once the workers run, beside
                    # them, not before they start (measured: they began 0.55 s later)
                    importlib.import_module("pandas")
                rows.extend(result.rows)
                if len(rows) >= FRAME_ROWS:
                    frames.append(_frame(rows, dtypes))
                    rows = []
                bar.update(1)
    finally:
        bar.close()
    frames.append(_frame(rows, dtypes))
    if len(frames) == 1:
        return frames[0]
    import pandas as pd

    return pd.concat(frames, ignore_index=True)


def verify_files(
    paths: PathArg,
    *,
    jobs: int | None = None,
    client: Client | str | None = None,
    output: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Verify every record file of ``paths`` (:func:`bgkit.verify.verify`): one row per issue.

    Columns :data:`VERIFY_COLUMNS` between ``file, kind, message`` and ``size, mtime_ns``;
    a file without issues has one row with ``kind`` missing. The other parameters are those
    of :func:`map_files`.

    >>> df = verify_files("data/selfplay", jobs=2, progress=False)
    >>> files = df.drop_duplicates("file")
    >>> len(files), int(files["games"].sum()), bool(df["ok"].all())
    (60, 208, True)
    >>> df["kind"].value_counts().to_dict()  # GNU Backgammon's records: notes only
    {'resignation': 96}
    """
    return map_files(
        verify_rows,
        paths,
        jobs=jobs,
        client=client,
        output=output,
        progress=progress,
        columns=VERIFY_COLUMNS,
    )


def analyze_files(
    paths: PathArg,
    plies: int = 0,
    *,
    met: str | None = None,
    jobs: int | None = None,
    client: Client | str | None = None,
    output: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Analyse every record file of ``paths``: a row per player. A match GNU Backgammon's
    own ``analyse match`` can stand for (:func:`bgkit.analysis.gnubg_match.gnubg_analysis`:
    1 to 64 points, every play recorded, the default table) is analysed by it, which
    costs less; the rest by :func:`bgkit.analyze`.

    Columns ``length, games, plies, met`` and :data:`bgkit.analysis.match.PLAYER_COLUMNS` between
    ``file, kind, message`` and ``size, mtime_ns`` (:func:`analysis_columns`). A record
    that does not replay gives one row with the verifier's kind for the first fault
    (``"illegal-play"``...) and the message. Each match is analysed in one process (the
    files are the unit of work): by default one per core as soon as there are two
    files (a match costs far more than a stat), each analysing its matches in turn
    with one GNU Backgammon loaded once. Needs GNU Backgammon (``pip install 'bgkit[analysis]'``),
    on every Dask worker too; give those workers one thread each (``nthreads=1``): GNU
    Backgammon is not made to evaluate in several threads of one process.

    :param plies: search depth of checker play and cube decisions (0 = static evaluation).
    :param met: GNU Backgammon's match equity table, by name (:data:`bgkit.analysis.met.MET_NAMES`;
        default Kazaross-XG2).
    :raises ImportError: when :mod:`bgkit.analysis` or GNU Backgammon cannot be imported.
    :raises ValueError: for a table bgkit does not ship.
    """
    import importlib.util

    from bgkit.analysis.met import DEFAULT_MET, met_name

    table = met_name(met or DEFAULT_MET)
    columns = analysis_columns()
    if client is None and importlib.util.find_spec("gnubg") is None:
        raise ImportError("analysis needs GNU Backgammon: pip install 'bgkit[analysis]'")
    if output is not None:
        from bgkit.batch.output import _dtypes, _Store

        store = _Store(Path(output), _dtypes(columns))
        other = store.values("plies") - {plies}
        if other:
            raise BatchError(
                f"{output}: holds a {min(other)}-ply analysis, not {plies}-ply;"
                " choose another output file"
            )
        tables = store.values("met") - {table}
        if tables:
            raise BatchError(
                f"{output}: holds an analysis with the {min(tables)} match equity table,"
                f" not {table}; choose another output file"
            )
    with _rows.one_gnubg_process():
        return map_files(
            functools.partial(analyze_rows, plies=plies, met=table),
            paths,
            jobs=usable_cores() if jobs is None and client is None else jobs,
            client=client,
            output=output,
            progress=progress,
            columns=columns,
        )
