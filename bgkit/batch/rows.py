"""The row functions of a batch: what :func:`bgkit.batch.verify_files` and
:func:`bgkit.batch.analyze_files` run on each file, their columns, and a season's
facts of a match."""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from bgkit.batch.common import INTERNAL_ERROR, UNREADABLE, Row
from bgkit.errors import DecodingWarning, first_line
from bgkit.workers import Isolated, in_worker

if TYPE_CHECKING:
    from bgkit.analysis.match import Analysis
    from bgkit.records import Match
    from bgkit.verify import Issue

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
"""Documented as :data:`bgkit.batch.VERIFY_COLUMNS`."""


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
    :param max_size: read files up to this many bytes (``--max-size``; default 16 MiB).
    :param format: read the file as this format (``--from``; default: its own).
    :raises BgkitError: when the file does not parse; :exc:`OSError` when it cannot be read.
    """
    from bgkit.verify import Issue, IssueKind, verify

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DecodingWarning)
        # (without --strict, an SGF record's games are read as they are verified: memory
        # holds a game or two, not the record; --strict may stop before the last game)
        match = _read(path, max_size, format, stream=not strict)
    report = verify(match, stop_at_first=strict, jacoby=jacoby)
    del match  # (not held while the rows are made: a long record's moves are most of memory)
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


def _read(
    path: Path, max_size: int | None, format: str | None = None, *, stream: bool = False
) -> Match:
    """The record at ``path`` (``-``: stdin), read with the file size raised to ``max_size``;
    ``stream``: its games read as they are gone through, where the format allows
    (:func:`bgkit.formats.read_streamed`)."""
    from bgkit.formats import read_match, read_streamed
    from bgkit.limits import active

    limits = active().with_max_size(max_size)
    source = sys.stdin.buffer if str(path) == "-" else path
    if stream:
        return read_streamed(source, format=format, limits=limits)
    return read_match(source, format=format, limits=limits)


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
    from bgkit.analysis.match import PLAYER_DTYPES

    columns = {"length": "Int64", "games": "Int64", "plies": "Int64", "met": "string"}
    return {**columns, **PLAYER_DTYPES, **SEASON_COLUMNS}


SEASON_COLUMNS: dict[str, str] = {
    "opponent": "string",
    "date": "string",
    "event": "string",
    "score": "string",
    "won": "boolean",
    "jacoby": "boolean",
    "beavers": "boolean",
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
"""Documented as :data:`bgkit.batch.SEASON_COLUMNS`."""


def analyze_rows(
    path: Path, *, plies: int = 0, met: str | None = None, max_size: int | None = None
) -> list[Row]:
    """The :func:`analysis_columns` rows of one file: one per player (what
    :func:`analyze_files` runs; gnubg's own analysis of the match where it stands for
    bgkit's, :func:`bgkit.analysis.gnubg_match.gnubg_analysis`), or one row with the
    verifier's kind and message for a record that does not replay. BackgammonGalaxy's
    single-game sessions (a record of one game that does not decide its match, with a
    ``Site`` or ``Event`` tag saying BackgammonGalaxy) are analysed as the money sessions
    they are, with the Jacoby rule (``length`` 0).

    :raises BgkitError: when the file does not parse; :exc:`OSError` when it cannot be read.
    """
    from bgkit.analysis.match import AnalysisError, analyze, money_rules
    from bgkit.analysis.met import DEFAULT_MET, met_name

    match = _as_session(_read(path, max_size))
    table = met_name(met or DEFAULT_MET)
    match_row = {"length": match.length, "games": len(match.games), "plies": plies, "met": table}
    rules = money_rules(match)
    match_row["jacoby"], match_row["beavers"] = rules if rules is not None else (None, None)
    result = _gnubgs(match, plies, met)
    try:
        if result is None:
            result = analyze(match, plies, jobs=1, met=met, progress=False)
    except AnalysisError as err:
        kind = err.issue.kind.value if err.issue is not None else "unanalysable"
        return [{**match_row, "kind": kind, "message": first_line(err)}]
    facts = _season_facts(match, path)
    phases = _phase_rows(result.rows)
    return [
        {**match_row, **player, **facts[player["player"]], **phases[player["player"]]}
        for player in result.players_list
    ]


def _gnubgs(match: Match, plies: int, met: str | None) -> Analysis | None:
    """gnubg's own analysis of the match (:func:`bgkit.analysis.gnubg_match.gnubg_analysis`,
    cheaper than bgkit's), ``None`` where it cannot stand for bgkit's. In a season's or a
    Dask worker it runs in the worker, which analyses match after match; elsewhere in a
    forked process (one for the whole run within :func:`one_gnubg_process`), which keeps
    gnubg's threads out of the caller's (as :func:`~bgkit.analysis.match.analyze` keeps
    them), unless they run there already."""
    from bgkit.analysis.gnubg_match import gnubg_analysis, gnubg_may_analyse

    if not gnubg_may_analyse(match, met):
        return None
    shared = None if in_worker() else _GNUBG_PROCESS.get()  # (a forked worker inherits it)
    with contextlib.ExitStack() as stack:
        run = shared or stack.enter_context(_gnubg_process())
        # (a season's rows name the best play alone: the others need not be read)
        return run.call(gnubg_analysis, match, plies, met, candidates=1)


_GNUBG_PROCESS: ContextVar[Isolated | None] = ContextVar("_GNUBG_PROCESS", default=None)


def _gnubg_process() -> Isolated:
    """Where :func:`_gnubgs` runs gnubg: this process in a worker, else a forked one."""
    from bgkit.analysis.tasks import can_fork

    return Isolated(enabled=not in_worker() and can_fork())


@contextlib.contextmanager
def one_gnubg_process() -> Iterator[None]:
    """Within it, the matches :func:`analyze_rows` gives gnubg in this process (a run of
    one job) are analysed in one forked process, which starts gnubg once, not in one
    process each (a season of 40 matches with one job: 26.1 s, 25.0 CPU s so; 18.7-19.7 s,
    18.1-19.2 CPU s in one). This process stays free of gnubg's threads meanwhile (as
    :func:`~bgkit.analysis.match.analyze` keeps it), so the process can be forked when
    its first match comes."""
    if _GNUBG_PROCESS.get() is not None:
        yield
        return
    with _gnubg_process() as run:
        token = _GNUBG_PROCESS.set(run)
        try:
            yield
        finally:
            _GNUBG_PROCESS.reset(token)


def _as_session(match: Match) -> Match:
    """BackgammonGalaxy's single-game sessions (:data:`bgkit.verify.CONVENTIONS`
    ``jacoby-session``: a ``16 point match`` of one game that does not decide it) as the
    money sessions they are, with the Jacoby rule: analysed in points, not in the match
    winning chances of a 16-point match that was never played."""
    site = (match.tag("Site") or match.tag("Event") or "").strip().casefold()
    if match.length <= 0 or len(match.games) != 1 or site != "backgammongalaxy":
        return match  # (another one-game record is a match cut short)
    game = match.games[0]
    result = game.result
    if result is None or max(game.score) + result.points >= match.length:
        return match
    kept = tuple((k, v) for k, v in match.tags if k.lower() != "jacoby")
    return replace(match, length=0, tags=(*kept, ("Jacoby", "On")))


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
        phase = row["phase"].replace("-", "")
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
