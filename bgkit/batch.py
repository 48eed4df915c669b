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

>>> df = verify_files(
...     ["data/fixtures/handwritten_3pt.mat", "data/fixtures/handwritten_3pt_illegal1.mat",
...      "data/fixtures/handwritten_3pt_syntax3.mat"], jobs=1, progress=False)
>>> for row in df[["severity", "kind", "message"]].itertuples(index=False):
...     print(row.severity, row.kind, "|", row.message[:60].strip())
note unfinished-match | the match stops at 1-0 of 3
error illegal-play | illegal play 24/18 18/12 13/7 10/4 for 66: blocked: 18/12 la
note unverified | 6 later action(s) of game 1 not verified
note unfinished-match | the match stops at 1-0 of 3
<NA> unreadable | data/fixtures/handwritten_3pt_syntax3.mat:1:4: expected 'N p
>>> df.groupby("file", sort=False)["games"].first().tolist()
[1, 1, <NA>]
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import re
import shutil
import sys
import threading
import time
import uuid
import warnings
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from bgkit.errors import (
    BatchError,
    BatchNote,
    BgkitError,
    DecodingWarning,
    NotationError,
    error_line,
)
from bgkit.workers import worker_start

if TYPE_CHECKING:
    import pandas as pd
    from distributed import Client  # type: ignore[import-not-found, unused-ignore]

    from bgkit.records import Match
    from bgkit.verify import Issue

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

Row: TypeAlias = dict[str, Any]
"""One result row: column name -> value (``None`` for missing)."""

RowFunction: TypeAlias = Callable[[Path], list[Row]]
"""What :func:`map_files` runs: a file's path -> its rows (picklable: a module-level
function or a :func:`functools.partial` of one, for processes)."""

PathArg: TypeAlias = "str | os.PathLike[str] | Iterable[str | os.PathLike[str]]"

UNREADABLE = "unreadable"
"""``kind`` of the row of a file that could not be read or parsed."""
INTERNAL_ERROR = "internal-error"
"""``kind`` of the row of a file on which bgkit itself failed (a bug: please report it)."""

FILES_PER_JOB = 4
"""By default, one more process for every this many files, up to the number of cores."""
CHECKPOINT_SECONDS = 10.0
"""With ``output=``, finished rows are saved to ``OUTPUT.parts/`` at least this often."""
CHECKPOINT_ROWS = 20_000
"""... and whenever this many rows are waiting (it bounds the memory they take)."""
FRAME_ROWS = 10_000
"""Rows are gathered into DataFrames of this many rows (dicts take far more memory)."""

_BASE_COLUMNS: dict[str, str] = {"file": "string", "kind": "string", "message": "string"}
_KEY_COLUMNS: dict[str, str] = {"size": "Int64", "mtime_ns": "Int64"}
SETTINGS = "settings"
"""The column of an ``output`` file that says what its rows were made under."""
_FIXED = {**_BASE_COLUMNS, **_KEY_COLUMNS}
"""The columns every batch has, with these dtypes whatever the function's columns."""

VERIFY_COLUMNS: dict[str, str] = {
    "severity": "string",
    "line": "Int64",
    "column": "Int64",
    "game": "Int64",
    "move": "Int64",
    "player": "string",
    "player_index": "Int64",
    "games": "Int64",
    "actions": "Int64",
    "ok": "boolean",
}
"""The columns of :func:`verify_rows` (pandas dtypes), between ``file, kind, message``
and ``size, mtime_ns``: one row per :class:`~bgkit.verify.Issue` (``kind``, ``message``
and the rest of :meth:`Issue.to_dict <bgkit.verify.Issue.to_dict>`), and one row with
``kind`` missing for a file without issues. ``games``, ``actions`` and ``ok`` describe
the file and repeat on each of its rows."""


@dataclass(frozen=True, slots=True)
class FileRows:
    """The rows of one input file, as :func:`stream_files` yields them."""

    file: str
    """The path as given (as :class:`~pathlib.Path` spells it)."""
    rows: list[Row]
    """At least one row; every row has ``file``, ``kind``, ``message``, ``size``, ``mtime_ns``."""
    reused: bool = False
    """True when the rows come from the output file of an earlier run."""

    @property
    def kind(self) -> str | None:
        """``"unreadable"`` or ``"internal-error"`` for a file that failed, else ``None``."""
        first = self.rows[0].get("kind")
        return first if first in (UNREADABLE, INTERNAL_ERROR) else None


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
    import pandas as pd

    files = record_files(paths)
    dtypes = _dtypes(columns)
    frames: list[pd.DataFrame] = []
    rows: list[Row] = []
    bar = _progress_bar(len(files), progress)
    stream = _stream(func, files, jobs=jobs, client=client, output=output, columns=columns)
    try:
        with contextlib.closing(stream):
            for result in stream:
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
    """Analyse every record file of ``paths`` (:func:`bgkit.analyze`): a row per player.

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
    return map_files(
        functools.partial(analyze_rows, plies=plies, met=table),
        paths,
        jobs=_cores() if jobs is None and client is None else jobs,
        client=client,
        output=output,
        progress=progress,
        columns=columns,
    )


# ---------------------------------------------------------------------- row functions


def verify_rows(
    path: Path,
    *,
    strict: bool = False,
    jacoby: bool = False,
    max_size: int | None = None,
    format: str | None = None,
) -> list[Row]:
    """The :data:`VERIFY_COLUMNS` rows of one file (what :func:`verify_files` runs).

    :param path: the record; ``-`` reads it from stdin (``bgkit verify -``).
    :param strict: stop at the first error (``bgkit verify --strict``).
    :param jacoby: the record is scored with the Jacoby rule (``bgkit verify --jacoby``).
    :param max_size: read files up to this many bytes (``--max-size``; default 64 MiB).
    :param format: read the file as this format (``--from``; default: its own).
    :raises BgkitError: when the file does not parse; :exc:`OSError` when it cannot be read.
    """
    from bgkit.verify import Issue, IssueKind, verify

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DecodingWarning)
        match = _read(path, max_size, format)
    report = verify(match, stop_at_first=strict, jacoby=jacoby)
    summary = {"games": report.games, "actions": report.actions_checked, "ok": report.ok}
    rows: list[Row] = []
    guesses = [w.message for w in caught if isinstance(w.message, DecodingWarning)]
    for warning in caught:
        if not isinstance(warning.message, DecodingWarning):
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )
    decoding = [  # (the reader's guess at the text, before what the rules found)
        Issue(IssueKind.ENCODING, g.reason, 0, 0, None, line=g.line, column=g.column)
        for g in guesses
    ]
    for issue in (*decoding, *report.issues):
        row = issue.to_dict()
        if str(path) == "-" or row["file"] in (None, str(path)):  # (else: a file of a series)
            del row["file"]
        rows.append({**row, **summary})
    return rows or [summary]


def _read(path: Path, max_size: int | None, format: str | None = None) -> Match:
    """The record at ``path`` (``-``: stdin), read with the file size raised to ``max_size``."""
    from bgkit.formats import read_match
    from bgkit.limits import active

    limits = active().with_max_size(max_size)
    if str(path) == "-":
        return read_match(sys.stdin.buffer, format=format, limits=limits)
    return read_match(path, format=format, limits=limits)


def issues_from_rows(rows: Iterable[Row]) -> list[Issue]:
    """The :class:`~bgkit.verify.Issue` s of :func:`verify_rows` rows (as read back too).

    >>> rows = verify_rows(Path("data/fixtures/handwritten_3pt_illegal2.mat"))
    >>> rows = [{"file": "data/fixtures/handwritten_3pt_illegal2.mat", **r} for r in rows]
    >>> print(issues_from_rows(rows)[0])  # doctest: +ELLIPSIS
    data/fixtures/handwritten_3pt_illegal2.mat:9:6: error: illegal play 24/21 for 21: blocked: ...
    """
    from bgkit.verify import Issue, IssueKind

    out = []
    for row in rows:
        kind = row.get("kind")
        if kind is None or kind in (UNREADABLE, INTERNAL_ERROR):
            continue
        index = row.get("player_index")
        out.append(
            Issue(
                kind=IssueKind(kind),
                message=row["message"],
                game=int(row["game"]),
                move=int(row["move"]),
                player=None if index is None else int(index),
                player_name=row.get("player") or "",
                source_name=row.get("file"),
                line=int(row["line"]),
                column=int(row["column"]),
            )
        )
    return out


def analysis_columns() -> dict[str, str]:
    """The columns of :func:`analyze_rows` (pandas dtypes).

    :raises ImportError: when :mod:`bgkit.analysis` cannot be imported.
    """
    from bgkit.analysis.match import PLAYER_COLUMNS

    columns = {"length": "Int64", "games": "Int64", "plies": "Int64", "met": "string"}
    for name in PLAYER_COLUMNS:
        columns[name] = _ANALYSIS_DTYPES.get(name, "float64")
    return {**columns, **SEASON_COLUMNS}


SEASON_COLUMNS: dict[str, str] = {
    "opponent": "string",
    "date": "string",
    "event": "string",
    "score": "string",
    "won": "boolean",
    **{
        f"{what}_{phase}": dtype
        for phase in ("contact", "race", "bearoff")
        for what, dtype in (("moves", "Int64"), ("error_emg", "float64"))
    },
    "worst_error_emg": "float64",
    "worst_game": "Int64",
    "worst_move": "Int64",
    "worst_position_id": "string",
    "worst_dice": "string",
    "worst_play": "string",
    "worst_best_play": "string",
}
"""What :func:`analyze_rows` adds to a player's row for a season of matches: the
``opponent``; the ``date`` (``YYYY-MM-DD``) from the record's ``EventDate`` tag or else
its file name (Backgammon Studio's ``..._2024_05_11_19_56_16``), ``event`` (``Event``,
else ``Site``); the final ``score`` (``"7-4"``, the player's first) and whether the
player ``won`` the match (missing when it is unfinished); per game phase
(:meth:`bgkit.position.Position.phase`) the unforced checker ``moves_<phase>`` and their
``error_emg_<phase>``; and the player's costliest checker play of the match
(``worst_*``: its error, game, move, position, dice, the play and the best play)."""


_ANALYSIS_STR = ("name", "checker_rating", "luck_rating", "cube_rating", "overall_rating")
_ANALYSIS_FLOAT = (
    "checker_error_emg",
    "checker_error_mwc",
    "checker_error_rate_memg",
    "checker_error_rate_mwc",
    "luck_emg",
    "luck_mwc",
    "luck_rate_memg",
    "cube_error_emg",
    "cube_error_mwc",
    "cube_error_rate_memg",
    "error_emg",
    "error_mwc",
    "error_rate_memg",
    "snowie_error_rate",
    "pr",
    "actual_result",
    "luck_adjusted_result",
    "fibs_rating_difference",
    "error_based_fibs_rating",
    "checker_rating_loss",
    "cube_rating_loss",
)
_ANALYSIS_INT = (
    "player",
    "total_moves",
    "unforced_moves",
    "doubtful",
    "bad",
    "very_bad",
    "very_lucky",
    "lucky",
    "unlucky",
    "very_unlucky",
    "cube_decisions",
    "close_cube_decisions",
    "doubles",
    "takes",
    "passes",
    "missed_doubles_below_cp",
    "missed_doubles_above_cp",
    "wrong_doubles_below_dp",
    "wrong_doubles_above_tg",
    "wrong_takes",
    "wrong_passes",
)
_ANALYSIS_DTYPES: dict[str, str] = {
    **dict.fromkeys(_ANALYSIS_INT, "Int64"),
    **dict.fromkeys(_ANALYSIS_STR, "string"),
    **dict.fromkeys(_ANALYSIS_FLOAT, "float64"),
}
"""The dtypes of :data:`~bgkit.analysis.match.PLAYER_COLUMNS` (a test checks none is missing)."""


def analyze_rows(
    path: Path, *, plies: int = 0, met: str | None = None, max_size: int | None = None
) -> list[Row]:
    """The :func:`analysis_columns` rows of one file: one per player (what
    :func:`analyze_files` runs), or one row with the verifier's kind and message for
    a record that does not replay.

    :raises BgkitError: when the file does not parse; :exc:`OSError` when it cannot be read.
    """
    from bgkit.analysis.match import AnalysisError, analyze
    from bgkit.analysis.met import DEFAULT_MET, met_name

    match = _read(path, max_size)
    table = met_name(met or DEFAULT_MET)
    match_row = {"length": match.length, "games": len(match.games), "plies": plies, "met": table}
    try:
        result = analyze(match, plies, jobs=1, met=met, progress=False)
    except AnalysisError as err:
        kind = err.issue.kind.value if err.issue is not None else "unanalysable"
        return [{**match_row, "kind": kind, "message": _first_line(err)}]
    facts = _season_facts(match, path)
    phases = _phase_rows(result.rows)
    return [
        {**match_row, **player, **facts[player["player"]], **phases[player["player"]]}
        for player in result.players_list
    ]


_FILE_DATE = re.compile(r"(?<![0-9])((?:19|20)[0-9]{2})[-_.]([01][0-9])[-_.]([0-3][0-9])(?![0-9])")


def _season_facts(match: Match, path: Path) -> dict[int, Row]:
    """Per player: the opponent, the date, the event, the final score and the outcome."""
    date = None
    tag = match.tag("EventDate") or ""
    found = _FILE_DATE.search(tag.strip()) or _FILE_DATE.search(Path(path).name)
    if found is not None:
        date = "-".join(found.groups())
    event = match.tag("Event") or match.tag("Site")
    score = list(match.games[0].score) if match.games else [0, 0]
    for game in match.games:
        score = list(game.score)
        if game.result is not None and game.result.winner in (0, 1):
            score[game.result.winner] += game.result.points
    finished = match.length > 0 and max(score) >= match.length
    facts = {}
    for p in (0, 1):
        facts[p] = {
            "opponent": match.players[1 - p],
            "date": date,
            "event": event,
            "score": f"{score[p]}-{score[1 - p]}",
            "won": (score[p] > score[1 - p]) if finished else None,
        }
    return facts


def _phase_rows(rows: Sequence[Row]) -> dict[int, Row]:
    """Per player: unforced checker moves and their error by game phase, and the worst."""
    from bgkit.position import Position

    out: dict[int, Row] = {
        p: {f"{w}_{ph}": 0 for ph in ("contact", "race", "bearoff") for w in ("moves", "error_emg")}
        for p in (0, 1)
    }
    worst: dict[int, Row] = {}
    for row in rows:
        error = row.get("error_emg")
        if row.get("action") != "move" or row.get("forced") or error is None or error != error:
            continue
        player = row["player"]
        phase = Position.from_gnubg_id(row["position_id"]).phase().replace("-", "")
        out[player][f"moves_{phase}"] += 1
        out[player][f"error_emg_{phase}"] += error
        if player not in worst or error > worst[player]["worst_error_emg"]:
            worst[player] = {
                "worst_error_emg": error,
                "worst_game": row["game"],
                "worst_move": row["move"],
                "worst_position_id": row["position_id"],
                "worst_dice": row["dice"],
                "worst_play": row["play"],
                "worst_best_play": row["best_play"],
            }
    for player in (0, 1):
        out[player].update(worst.get(player, {}))
    return out


# ---------------------------------------------------------------------- the run


def _stream(
    func: RowFunction,
    files: Sequence[Path],
    *,
    jobs: int | None,
    client: Client | str | None,
    output: str | os.PathLike[str] | None,
    columns: Mapping[str, str] | None,
) -> Generator[FileRows, None, None]:
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    store = _Store(Path(output), _dtypes(columns), _settings(func)) if output is not None else None
    done = store.load({str(f) for f in files}) if store is not None else {}
    items = [_item(path, done) for path in files]
    todo = sum(item.rows is None for item in items)
    return _ordered(items, functools.partial(_runner, func, todo, jobs, client), store)


@dataclass(slots=True)
class _Item:
    file: str
    size: int | None
    mtime_ns: int | None
    rows: list[Row] | None  # the stored rows of a file done by an earlier run


_Key: TypeAlias = tuple[str, int, int]


def _item(path: Path, done: Mapping[_Key, list[Row]]) -> _Item:
    file = str(path)
    try:
        st = os.stat(path)
    except OSError:
        return _Item(file, None, None, None)
    return _Item(file, st.st_size, st.st_mtime_ns, done.get((file, st.st_size, st.st_mtime_ns)))


def _ordered(
    items: list[_Item], start: Callable[[], _Runner], store: _Store | None
) -> Generator[FileRows, None, None]:
    """Keep ``runner.slots`` chunks in flight; yield every file's rows in input order.

    The runner (a process pool, a Dask client) is started on the first ``next()``, so
    that it is always closed again, by the end of the loop or by ``close()``.
    """
    runner = start()
    chunks = iter(_chunks(items, runner.chunk, runner.workers))
    pending: deque[tuple[list[_Item], _Handle | None]] = deque()

    def fill() -> None:
        while len(pending) < runner.slots:
            chunk = next(chunks, None)
            if chunk is None:
                return
            paths = [item.file for item in chunk if item.rows is None]
            pending.append((chunk, runner.submit(paths) if paths else None))

    finished = False
    try:
        fill()
        while pending:
            chunk, handle = pending.popleft()
            fill()
            computed = iter(handle.result() if handle is not None else [])
            for item in chunk:
                reused = item.rows is not None
                if item.rows is not None:
                    rows = item.rows
                else:
                    rows = [_complete(item, row) for row in next(computed)]
                if store is not None:
                    store.add(item, rows)
                yield FileRows(item.file, rows, reused)
        if store is not None:
            store.finish()
        finished = True
    finally:
        try:
            if store is not None and not finished:
                store.checkpoint()  # keep what is done for the next run
        finally:
            runner.close([h for _, h in pending if h is not None], cancel=not finished)


def _chunks(items: list[_Item], size: int, workers: int = 1) -> Iterator[list[_Item]]:
    """Consecutive items with up to ``size`` files to compute (done ones ride along),
    fewer as the end comes (:func:`_chunk_size` of the files left), down to one: the
    workers then finish together, where a last chunk of 60 analyses (a minute) would
    leave the other workers idle.

    >>> sizes = [len(c) for c in _chunks([_Item(str(i), 0, 0, None) for i in range(100)], 6, 2)]
    >>> sizes[:8], sizes[-3:], len(sizes)
    ([6, 5, 5, 5, 4, 4, 4, 4], [1, 1, 1], 52)
    """
    left = sum(item.rows is None for item in items)
    chunk: list[_Item] = []
    count = 0
    limit = min(size, _chunk_size(left, workers, size))
    for item in items:
        chunk.append(item)
        count += item.rows is None
        if count >= limit:
            yield chunk
            left -= count
            chunk, count = [], 0
            limit = _chunk_size(left, workers, size)
    if chunk:
        yield chunk


def _complete(item: _Item, row: Row) -> Row:
    return {
        "file": item.file,
        "kind": None,
        "message": None,
        **row,
        "size": item.size,
        "mtime_ns": item.mtime_ns,
    }


def _run_one(func: RowFunction, path: str) -> list[Row]:
    """``func(path)``, with a failure turned into one row (runs in the worker)."""
    try:
        rows = list(func(Path(path)))
    except (BgkitError, OSError) as err:
        row: Row = {"kind": UNREADABLE, "message": error_line(err, source=path)}
        if isinstance(err, NotationError):
            row.update(line=err.line, column=err.column)
        return [row]
    except Exception as err:
        message = f"{path}: internal error: {type(err).__name__}: {_first_line(err)}"
        return [{"kind": INTERNAL_ERROR, "message": message}]
    return rows or [{}]


def _run_chunk(func: RowFunction, paths: list[str]) -> list[list[Row]]:
    return [_run_one(func, path) for path in paths]


def _first_line(err: BaseException) -> str:
    text = str(err)
    return text.splitlines()[0] if text.strip() else type(err).__name__


# ---------------------------------------------------------------------- runners


class _Handle(Protocol):
    def result(self) -> list[list[Row]]: ...


class _Runner(Protocol):
    slots: int
    """Chunks in flight at once."""
    chunk: int
    """Files per chunk (at most; fewer towards the end)."""
    workers: int
    """Processes or threads that run chunks at once."""

    def submit(self, paths: list[str]) -> _Handle: ...

    def close(self, pending: list[_Handle], *, cancel: bool) -> None: ...


def _runner(func: RowFunction, todo: int, jobs: int | None, client: Client | str | None) -> _Runner:
    if client is not None:
        return _DaskRunner(func, todo, client)
    jobs = _default_jobs(todo) if jobs is None else min(jobs, max(1, todo))
    if jobs <= 1:
        return _SerialRunner(func)
    return _PoolRunner(func, todo, jobs)


def _cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _default_jobs(todo: int) -> int:
    return max(1, min(_cores(), todo // FILES_PER_JOB))


def _chunk_size(todo: int, workers: int, most: int) -> int:
    """Files per chunk: about 8 chunks per worker, at most ``most``."""
    return max(1, min(most, todo // (workers * 8)))


@dataclass
class _Later:
    """A chunk run in this process when its result is asked for."""

    func: RowFunction
    paths: list[str]

    def result(self) -> list[list[Row]]:
        return _run_chunk(self.func, self.paths)


class _SerialRunner:
    slots = 1
    chunk = 1
    workers = 1

    def __init__(self, func: RowFunction) -> None:
        self.func = func

    def submit(self, paths: list[str]) -> _Handle:
        return _Later(self.func, paths)

    def close(self, pending: list[_Handle], *, cancel: bool) -> None:
        pass


class _PoolRunner:
    def __init__(self, func: RowFunction, todo: int, jobs: int) -> None:
        from concurrent.futures import ProcessPoolExecutor

        self.func = func
        self.slots = jobs * 3
        self.workers = jobs
        self.chunk = _chunk_size(todo, jobs, 16)
        self.pool = ProcessPoolExecutor(
            max_workers=jobs, mp_context=_mp_context(), initializer=ignore_interrupts
        )

    def submit(self, paths: list[str]) -> _Handle:
        return self.pool.submit(_run_chunk, self.func, paths)

    def close(self, pending: list[_Handle], *, cancel: bool) -> None:
        self.pool.shutdown(wait=True, cancel_futures=cancel)


def ignore_interrupts() -> None:
    """In a worker process: leave Ctrl-C (SIGINT, sent to the whole process group) to the
    parent, which stops the run and reports it once, instead of a traceback per worker;
    and die with the parent (:func:`bgkit.workers.worker_start`)."""
    worker_start()


def _mp_context() -> Any:
    """``fork`` (fast: the workers inherit bgkit already imported) when it is safe, else
    ``forkserver``: not when GNU Backgammon is loaded (its threads would not exist in a
    forked child, which would wait for them forever), nor, on Python 3.12+, when this
    process runs threads. A script must then guard its main code with
    ``if __name__ == "__main__":``, as for any :mod:`multiprocessing` program.
    """
    methods = multiprocessing.get_all_start_methods()
    if (
        "fork" in methods
        and "gnubg" not in sys.modules
        and (sys.version_info < (3, 12) or threading.active_count() == 1)
    ):
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["bgkit.batch", "bgkit.verify", "bgkit.formats"])
        return ctx
    return multiprocessing.get_context("spawn")


class _DaskRunner:
    def __init__(self, func: RowFunction, todo: int, client: Client | str) -> None:
        import importlib

        try:  # imported by name: its functions are not annotated, and it is optional
            distributed: Any = importlib.import_module("distributed")
            addressing: Any = importlib.import_module("distributed.comm.addressing")
        except ImportError as err:
            raise BatchError(
                f"a Dask cluster needs dask.distributed: pip install 'bgkit[batch]' ({err})"
            ) from None
        self.owned = isinstance(client, str)
        self.client: Any = client
        if isinstance(client, str):
            try:
                if not client.startswith("inproc://"):
                    addressing.get_address_host_port(client)  # before a Client: it must close
                self.client = distributed.Client(client, timeout="10s", set_as_default=False)
            except (OSError, TimeoutError, ValueError) as err:
                raise BatchError(f"{client}: cannot reach the Dask scheduler: {err}") from None
        threads = sum(self.client.nthreads().values()) or 1
        self.func = func
        self.slots = max(4, threads * 3)
        self.workers = threads
        self.chunk = _chunk_size(todo, threads, 64)

    def submit(self, paths: list[str]) -> _Handle:
        future: _Handle = self.client.submit(_run_chunk, self.func, paths, pure=False)
        return future

    def close(self, pending: list[_Handle], *, cancel: bool) -> None:
        if cancel and pending:
            self.client.cancel(pending)
        if self.owned:
            self.client.close()


# ---------------------------------------------------------------------- output


def _dtypes(columns: Mapping[str, str] | None) -> dict[str, str] | None:
    if columns is None:
        return None
    return {**_BASE_COLUMNS, **columns, **_KEY_COLUMNS}


def _frame(rows: list[Row], dtypes: Mapping[str, str] | None) -> pd.DataFrame:
    """Rows as a DataFrame: with ``dtypes``, those columns in that order and types."""
    import pandas as pd

    if dtypes is not None:
        # built as objects: a column of integers and None must not pass through floats
        return pd.DataFrame(rows, columns=list(dtypes), dtype=object).astype(dict(dtypes))
    df = pd.DataFrame(rows, columns=_columns(rows), dtype=object)
    return df.astype(_FIXED).infer_objects()


def _columns(rows: list[Row]) -> list[str]:
    """``file, kind, message``, the other columns in order of appearance, ``size, mtime_ns``."""
    middle = dict.fromkeys(name for row in rows for name in row if name not in _FIXED)
    return [*_BASE_COLUMNS, *middle, *_KEY_COLUMNS]


def _none_for_missing(df: pd.DataFrame) -> pd.DataFrame:
    """Missing values as ``None`` (as in a fresh row), but in float columns (``NaN``)."""
    import pandas as pd

    df = df.copy()
    for name, dtype in df.dtypes.items():
        if not pd.api.types.is_float_dtype(dtype):
            column = df[name].astype(object)
            df[name] = column.where(column.notna(), None)
    return df


def _plain(value: Any) -> Any:
    """A value read back from a file as a fresh row has it (``None`` for missing)."""
    if value is None or isinstance(value, str | float | bool | int):
        return value
    import pandas as pd

    if value is pd.NA or value is pd.NaT:
        return None
    item = getattr(value, "item", None)
    return item() if callable(item) else value


def _settings(func: RowFunction) -> str:
    """What the rows of ``func`` depend on besides the file: the limits in force (with
    ``max_size``) and the other settings a :func:`functools.partial` gives (``jacoby``,
    ``plies``...), as the text the output keeps in its ``settings`` column. A rerun
    reuses only the rows made under the same settings: a file refused at 2K is read
    again once the limit is raised."""
    from bgkit.limits import DEFAULT_LIMITS, active

    given = dict(getattr(func, "keywords", None) or {})
    keywords = {k: v for k, v in given.items() if v is not None and v is not False}
    limits = active().with_max_size(given.get("max_size"))
    keywords.pop("max_size", None)
    changed = {
        name: value
        for name in limits.__dataclass_fields__
        if (value := getattr(limits, name)) != getattr(DEFAULT_LIMITS, name)
    }
    return ", ".join(f"{k}={v}" for k, v in sorted({**changed, **keywords}.items())) or "defaults"


class _Store:
    """The output file: resume from it, checkpoint to ``OUTPUT.parts/``, write it at the end.

    Every row it writes carries ``settings`` (:func:`_settings`), and only rows of the
    same settings are reused. A part is synced to the disk before it counts (a power
    loss leaves it whole or absent); a part that cannot be read all the same (a copy, a
    disk error) is set aside as ``part-N.EXT.broken`` with a :class:`BatchNote`, and its
    files are done again.
    """

    def __init__(
        self, path: Path, dtypes: dict[str, str] | None, settings: str = "defaults"
    ) -> None:
        suffix = path.suffix.lower()
        if suffix in (".parquet", ".pq"):
            self.format = "parquet"
        elif suffix == ".csv":
            self.format = "csv"
        else:
            raise BatchError(f"{path}: the output must be a .parquet or .csv file")
        if not path.parent.is_dir():
            raise BatchError(f"{path}: no such directory: {path.parent}")
        for link in (path, path.with_name(path.name + ".parts")):
            if link.is_symlink():
                raise BatchError(
                    f"{link}: a symbolic link; bgkit never writes through a link: name the"
                    " file itself"
                )
        self.path = path
        self.dtypes = {**dtypes, SETTINGS: "string"} if dtypes is not None else None
        self.settings = settings
        self.parts = path.with_name(path.name + ".parts")
        self.buffer: list[Row] = []
        self.written: set[_Key] = set()
        self.mine: list[Path] = []  # this run's parts
        self.saved = time.monotonic()
        old = self._old_parts()
        self.next = int(old[-1].stem.split("-")[-1]) + 1 if old else 1

    def _old_parts(self) -> list[Path]:
        if not self.parts.is_dir():
            return []
        return sorted(self.parts.glob(f"part-*.{self.format}"))

    def load(self, wanted: set[str]) -> dict[_Key, list[Row]]:
        """The stored rows of ``wanted`` files by key (the output first, then any parts),
        of those made under this run's settings."""
        sources = [self.path] if self.path.exists() else []
        sources += self._old_parts()
        done: dict[_Key, list[Row]] = {}
        for source in sources:
            df = self._read_part(source) if source != self.path else self._read(source)
            if df is None:
                continue
            same = df[SETTINGS].eq(self.settings).fillna(False).astype(bool)
            df = df[df["file"].isin(wanted) & df["size"].notna() & df["mtime_ns"].notna() & same]
            df = _none_for_missing(df)
            found: dict[_Key, list[Row]] = {}
            for row in df.to_dict("records"):
                clean = {str(k): _plain(v) for k, v in row.items() if k != SETTINGS}
                key = (clean["file"], int(clean["size"]), int(clean["mtime_ns"]))
                found.setdefault(key, []).append(clean)
            done.update(found)
        return done

    def values(self, column: str) -> set[Any]:
        """The values of ``column`` in the output and its parts (missing ones left out)."""
        found: set[Any] = set()
        for source in [self.path] if self.path.exists() else []:
            found.update(self._column(source, column))
        for source in self._old_parts():
            if self._read_part(source) is not None:
                found.update(self._column(source, column))
        return found

    def _read_part(self, part: Path) -> pd.DataFrame | None:
        """A part of an earlier run, or ``None`` when it cannot be read: it is then set
        aside (``.broken``) with a note, and its files are done again."""
        try:
            return self._read(part)
        except BatchError as err:
            aside = part.with_name(part.name + ".broken")
            os.replace(part, aside)
            size = aside.stat().st_size
            warnings.warn(
                BatchNote(
                    f"{part}: a part of an earlier run that cannot be read ({size} bytes:"
                    f" {str(err).rsplit(': ', 1)[-1]}); set aside as {aside.name}, its files"
                    " are done again"
                ),
                stacklevel=2,
            )
            return None

    def _column(self, source: Path, column: str) -> list[Any]:
        frame = self._read(source)
        return frame[column].dropna().tolist() if column in frame else []

    def _read(self, source: Path) -> pd.DataFrame:
        import pandas as pd

        try:
            if self.format == "parquet":
                df = pd.read_parquet(source)
            else:
                df = pd.read_csv(
                    source,
                    dtype=self.dtypes or _FIXED,
                    keep_default_na=False,
                    na_values=[""],
                )
        except ImportError as err:
            raise BatchError(f"{source}: cannot read it: {err}") from None
        except Exception as err:  # pandas and pyarrow raise many kinds for a bad file
            raise BatchError(f"{source}: cannot read it as {self.format}: {err}") from None
        if SETTINGS not in df.columns:  # (an output of bgkit before issue 29: redone)
            df[SETTINGS] = pd.Series([pd.NA] * len(df), dtype="string", index=df.index)
        missing = [c for c in (*_BASE_COLUMNS, *_KEY_COLUMNS) if c not in df.columns]
        if missing:
            raise BatchError(
                f"{source}: not a bgkit batch output (no {', '.join(missing)} column);"
                " choose another output file"
            )
        if self.dtypes is not None and list(df.columns) != list(self.dtypes):
            raise BatchError(
                f"{source}: holds other results (its columns differ); choose another output file"
            )
        return df

    def add(self, item: _Item, rows: list[Row]) -> None:
        if item.size is not None and item.mtime_ns is not None:
            key = (item.file, item.size, item.mtime_ns)
            if key in self.written:
                return  # a file named twice is stored once
            self.written.add(key)
        self.buffer.extend({**row, SETTINGS: self.settings} for row in rows)
        if (
            len(self.buffer) >= CHECKPOINT_ROWS
            or time.monotonic() - self.saved >= CHECKPOINT_SECONDS
        ):
            self.checkpoint()

    def checkpoint(self) -> None:
        """Save the rows so far as one more part (atomically: a part is whole or absent)."""
        self.saved = time.monotonic()
        if not self.buffer:
            return
        self.parts.mkdir(exist_ok=True)
        part = self.parts / f"part-{self.next:06d}.{self.format}"
        self.next += 1
        self._write(_frame(self.buffer, self.dtypes), part)
        self.mine.append(part)
        self.buffer = []

    def _write(self, df: pd.DataFrame, target: Path) -> None:
        tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
        try:
            if self.format == "parquet":
                df.to_parquet(tmp, index=False)
            else:
                df.to_csv(tmp, index=False)
            _replace_synced(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)

    def finish(self) -> None:
        """Write this run's parts as the output file, then remove the parts."""
        self.checkpoint()
        tmp = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex}.tmp")
        try:
            if not self.mine:
                self._write(_frame([], self.dtypes), self.path)
            elif self.format == "parquet":
                _concat_parquet(self.mine, tmp)
                _replace_synced(tmp, self.path)
            else:
                _concat_csv(self.mine, tmp)
                _replace_synced(tmp, self.path)
        finally:
            tmp.unlink(missing_ok=True)
        shutil.rmtree(self.parts, ignore_errors=True)


def _replace_synced(tmp: Path, target: Path) -> None:
    """Move ``tmp`` to ``target`` once its bytes are on the disk, and sync the folder: a
    power loss then leaves ``target`` whole (old or new), never empty."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, target)
    with contextlib.suppress(OSError):  # (a folder cannot be opened on some systems)
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def _concat_parquet(parts: list[Path], target: Path) -> None:
    """One Parquet file from several, a part at a time (row groups, flat memory)."""
    import importlib

    pa: Any = importlib.import_module("pyarrow")  # no type information
    pq: Any = importlib.import_module("pyarrow.parquet")

    schemas = [pq.read_schema(p) for p in parts]
    schema = pa.unify_schemas(schemas, promote_options="permissive")
    schema = schema.with_metadata(schemas[0].metadata)
    with pq.ParquetWriter(target, schema) as writer:
        for part in parts:
            writer.write_table(pq.read_table(part).cast(schema))


def _concat_csv(parts: list[Path], target: Path) -> None:
    """One CSV file from several: the first header, then every part's lines."""
    headers = []
    for part in parts:
        with part.open("rb") as handle:
            headers.append(handle.readline())
    if len(set(headers)) > 1:  # inferred columns that differ: let pandas line them up
        import pandas as pd

        frames = [
            pd.read_csv(p, dtype=_FIXED, keep_default_na=False, na_values=[""]) for p in parts
        ]
        pd.concat(frames, ignore_index=True).to_csv(target, index=False)
        return
    with target.open("wb") as out:
        out.write(headers[0])
        for part in parts:
            with part.open("rb") as handle:
                handle.readline()
                shutil.copyfileobj(handle, out)


# ---------------------------------------------------------------------- progress


class _Bar(Protocol):
    def update(self, n: int = 1) -> object: ...

    def close(self) -> None: ...


def _progress_bar(total: int, show: bool | None) -> _Bar:
    """``tqdm.auto`` (a widget in notebooks) when shown, else a bar that does nothing."""
    if show is None:
        show = sys.stderr.isatty() or _in_notebook()
    if show:
        from tqdm.auto import tqdm

        bar: _Bar = tqdm(total=total, unit="file")
        return bar
    return NullBar()


class NullBar:
    """A progress bar that shows nothing, without loading tqdm (12 ms, and a monitor
    thread per process)."""

    def update(self, n: int = 1) -> None:
        """Count ``n`` more done (nothing to show)."""

    def clear(self) -> None:
        """Clear the bar (there is none)."""

    def close(self) -> None:
        """Close the bar (there is none)."""


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    get = getattr(shell, "get_ipython", None)
    ip = get() if callable(get) else None
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"
