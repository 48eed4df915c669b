"""Audit a submission of match records: what a tournament director checks, in one call.

:func:`audit` reads every record of the files and folders given (any format bgkit reads,
on every core or a Dask cluster, resumable with ``output=``, as :func:`bgkit.batch.verify_files`)
and reports its **findings**, each located as the verifier locates an issue:

* the rules: every issue :func:`bgkit.verify.verify` reports, with its kind, place and message;
* ``duplicate`` (with ``same_as``): the same match twice, in one format or two, with the
  players swapped, or every game of one file inside another. What is compared is what was
  played, the dice and the position after each roll, never the bytes or the names;
* ``players``: a game's names differ from the names the file's header gives (``.mat``
  tags ``Player 1``/``Player 2`` and each game's score line, SGF's ``PW``/``PB`` of every
  game); with a roster, a name that is not on it (the nearest names suggested);
* ``analysis-missing``, ``analysis-level`` for the files that carry an engine's analysis
  (``.xg``, GNU Backgammon SGF, gnubg's text exports): the unforced rolls and cube actions
  without analysis, and those analysed below ``require_level``; ``transcribed`` (XG's own
  transcription fields) and ``xg-invalid`` (moves XG itself marked invalid);
* ``dice`` (with ``p_value``): per player and file, and per player over the submission,
  four tests of the rolls against fair dice (see :func:`dice_tests`); flagged when the
  p-value, corrected for the number of tests in the submission, is below ``alpha``.

With ``luck=True`` (needs GNU Backgammon: ``pip install 'bgkit[analysis]'``) the result
also holds figures, never flags, for a person to judge: per player and match the luck in
EMG against its expected spread (a z-score), the PR and the share of unforced moves that
were the engine's first choice, beside the same figures of that player's other matches.

>>> result = audit(["data/fixtures/handwritten_3pt.mat"], jobs=1, progress=False)
>>> result.findings[["kind", "severity", "message"]].values.tolist()
[['unfinished-match', 'note', 'the match stops at 1-0 of 3']]
>>> result.ok
True
"""

from __future__ import annotations

import csv
import difflib
import functools
import json
import math
import os
import re
import sys
import types
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bgkit.audit.files import (
    ANALYSIS_LEVEL,
    ANALYSIS_MISSING,
    AUDIT_COLUMNS,
    DICE,
    DUPLICATE,
    KINDS,
    PLAYERS,
    _finding,
    _norm,
    _swap_note,
    audit_rows,
    level_rank,
)
from bgkit.audit.files import TRANSCRIBED as TRANSCRIBED  # every kind stays a name here
from bgkit.audit.files import XG_INVALID as XG_INVALID
from bgkit.audit.stats import (
    ROLL_PROBABILITIES,
    ROLLS,
    binomial_two_sided,
    pips_p_value,
    poisson_binomial_two_sided,
    rolls_p_value,
)
from bgkit.batch import INTERNAL_ERROR, UNREADABLE, map_files
from bgkit.batch.common import PathArg, Row
from bgkit.errors import place

if TYPE_CHECKING:
    import pandas as pd
    from distributed import Client  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "AUDIT_COLUMNS",
    "FINDING_COLUMNS",
    "KINDS",
    "AuditResult",
    "audit",
    "audit_rows",
    "dice_tests",
    "finding_text",
    "finding_where",
    "given",
    "level_rank",
]

FINDING_COLUMNS: tuple[str, ...] = (
    "file",
    "line",
    "column",
    "game",
    "move",
    "player",
    "kind",
    "severity",
    "message",
    "same_as",
    "p_value",
)
"""The columns of :attr:`AuditResult.findings`: ``bgkit verify --json``'s and ``same_as``
(the other file of a duplicate), ``p_value`` (a dice test's, before the correction)."""

MIN_GAME_ROLLS = 6
"""A game counts in the search for duplicates when it has at least this many rolls (two
different short games, a few rolls and a drop, can be the same by chance)."""
MIN_SHARED_ROLLS = 12
"""... and two files are duplicates when the games they share hold this many rolls."""


# ---------------------------------------------------------------------- the submission


@dataclass(frozen=True)
class AuditResult:
    """What :func:`audit` found, as DataFrames."""

    findings: pd.DataFrame
    """One row per finding (:data:`FINDING_COLUMNS`), files in input order, then the
    submission's own (the dice of a player over all files)."""
    files: pd.DataFrame
    """One row per file: ``file, format, players, games, actions, errors, warnings,
    notes, verdict`` (``"clean"``, ``"notes"``, ``"findings"``, ``"errors"``,
    ``"unreadable"``)."""
    dice: pd.DataFrame
    """One row per player and file, and per player over the submission (``file`` is
    then :attr:`submission`): the rolls' counts and expected counts, doubles, pips, entries
    from the bar, each test's p-value, the combined ``p_value``, ``p_adjusted`` and
    ``flagged``."""
    play: pd.DataFrame
    """With ``luck=True``: one row per player and match: ``luck_emg``, ``luck_sd``,
    ``luck_z``, ``pr``, ``first_choice`` and the means of that player's other matches
    (``*_others``); else empty."""
    submission: str = "submission"
    """The name of the submission (the folder given, when one is)."""
    alpha: float = 0.001
    tests: int = 0
    """The number of dice tests the correction counts."""
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """No error and no warning (notes allowed)."""
        return not bool(self.findings["severity"].isin(["error", "warning"]).any())

    def lines(self) -> list[str]:
        """The findings as ``file:line:col: severity: message``, as compilers write."""
        out = []
        for row in self.findings.to_dict("records"):
            out.append(finding_text(row))
        return out

    def to_html(self) -> str:
        """One self-contained HTML page for the event (:func:`bgkit.audit.html.audit_html`)."""
        from bgkit.audit.html import audit_html

        return audit_html(self)


def given(value: Any) -> bool:
    """A value that is there: not ``None``, ``NaN`` or pandas' ``NA``."""
    return value is not None and not _missing(value)


def finding_where(row: dict[str, Any]) -> list[str]:
    """A finding's game, move and player, as words (``["game 2", "move 4", "Ann"]``)."""
    where = []
    if given(row.get("game")):
        where.append(f"game {int(row['game'])}")
        if given(row.get("move")) and row["move"]:
            where.append(f"move {int(row['move'])}")
    if given(row.get("player")):
        where.append(str(row["player"]))
    return where


def finding_text(row: dict[str, Any]) -> str:
    """One finding as ``file:line:col: severity: message (game, move, player)``."""
    line = int(row["line"]) if given(row.get("line")) else 0
    column = int(row["column"]) if line and given(row.get("column")) else 0
    where = finding_where(row)
    tail = f" ({', '.join(where)})" if where else ""
    message = str(row["message"])
    if row["kind"] in (UNREADABLE, INTERNAL_ERROR) and message.startswith(f"{row['file']}"):
        message = message.split(": ", 1)[1] if ": " in message else message
        message = re.sub(r"^[0-9]+:[0-9]+: ", "", message)
    return f"{place(str(row['file']), line, column)}: {row['severity']}: {message}{tail}"


def audit_files(paths: PathArg) -> list[Path]:
    """The files :func:`audit` reads: the record files of ``paths`` (as ``bgkit verify``
    finds them), and in folders gnubg's text exports too (they carry analysis)."""
    from bgkit.formats import find_records
    from bgkit.formats.gnubg_text import sniff_gnubg_text

    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    found, skipped = find_records(paths)
    for path in skipped:
        try:
            with path.open("rb") as handle:
                head = handle.read(4096).decode("utf-8", "replace")
        except OSError:
            continue
        if sniff_gnubg_text(head):
            found.append(path)
    return found


def audit(
    paths: PathArg,
    *,
    require_level: str | None = None,
    players: str | os.PathLike[str] | Iterable[str] | None = None,
    alpha: float = 0.001,
    luck: bool = False,
    jobs: int | None = None,
    client: Client | str | None = None,
    output: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    max_size: int | None = None,
    format: str | None = None,
) -> AuditResult:
    """Audit every record of ``paths``: the rules, duplicates, names, analysis, dice.

    :param paths: files and folders (folders recursively), as :func:`bgkit.batch.map_files`.
    :param require_level: report analysed decisions below this level (:func:`level_rank`:
        ``"2-ply"``, ``"xg:3-ply"``, ``"XG Roller++"``, ``"rollout"``).
    :param players: the roster: a CSV file (a ``name`` column, else the first; more
        columns of a row are other spellings of the same player) or a list of names.
    :param alpha: the chance that a submission of fair dice gets any dice finding at all:
        each test is flagged when its p-value is below ``alpha`` divided by the number of
        tests (Bonferroni's correction).
    :param luck: also the luck and play figures (GNU Backgammon at 0-ply, in the workers).
    :param jobs, client, output, progress, max_size: as :func:`bgkit.batch.map_files`;
        ``output`` keeps each file's facts, so that a rerun with other options reads
        only the files that changed.
    :param format: read every file as this format (a name of
        :data:`bgkit.formats.FORMATS`), whatever its name says.
    :raises ValueError: for a bad ``require_level`` or ``alpha``.
    :raises BgkitError: for a roster that cannot be read.
    """
    import pandas as pd

    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha}")
    required = None if require_level is None else level_rank(require_level)
    roster = _roster(players) if players is not None else None
    files = audit_files(paths)
    if output is not None:
        _check_output(Path(output), luck)
    func = functools.partial(audit_rows, luck=luck, max_size=max_size, format=format)
    frame = map_files(
        func,
        files,
        jobs=jobs,
        client=client,
        output=output,
        progress=progress,
        columns=AUDIT_COLUMNS,
    )
    name = _submission_name(paths)
    return _assemble(frame, name, required, require_level, roster, alpha, pd)


def _check_output(path: Path, luck: bool) -> None:
    """Refuse an output file of an audit made with the other ``luck`` setting (its rows
    would be reused without the figures, or with figures not asked for)."""
    from bgkit.batch.output import _dtypes, _Store
    from bgkit.errors import BatchError

    for text in _Store(path, _dtypes(AUDIT_COLUMNS)).values("facts"):
        info = json.loads(text)
        if "games" in info and ("play" in info) != luck:
            made = "with" if not luck else "without"
            raise BatchError(
                f"{path}: holds an audit made {made} --luck; choose another output file"
            )


def _submission_name(paths: PathArg) -> str:
    if isinstance(paths, str | os.PathLike):
        return str(Path(paths))
    named = [str(Path(p)) for p in paths]
    return named[0] if len(named) == 1 else "submission"


def _roster(players: str | os.PathLike[str] | Iterable[str]) -> dict[str, str]:
    """Every accepted spelling (normalised) -> the roster's name."""
    from bgkit.errors import NotationError

    rows: list[list[str]]
    if isinstance(players, str | os.PathLike):
        try:
            with open(players, encoding="utf-8-sig", newline="") as handle:
                rows = [r for r in csv.reader(handle) if any(c.strip() for c in r)]
        except (OSError, UnicodeDecodeError, csv.Error) as err:
            raise NotationError(f"{players}: cannot read the roster: {err}") from None
        if rows and any(c.strip().lower() == "name" for c in rows[0]):
            at = [c.strip().lower() for c in rows[0]].index("name")
            rows = [[r[at], *r[:at], *r[at + 1 :]] for r in rows[1:] if len(r) > at]
    else:
        rows = [[p] for p in players]
    out: dict[str, str] = {}
    for row in rows:
        names = [c.strip() for c in row if c.strip()]
        for spelling in names:
            out[_norm(spelling)] = names[0]
    return out


def _assemble(
    frame: pd.DataFrame,
    submission: str,
    required: int | None,
    require_level: str | None,
    roster: dict[str, str] | None,
    alpha: float,
    pd: Any,
) -> AuditResult:
    records = frame.to_dict("records")
    by_file: dict[str, list[Row]] = {}
    for row in records:
        by_file.setdefault(row["file"], []).append(
            {k: (None if _missing(v) else v) for k, v in row.items()}
        )
    findings: list[Row] = []
    facts: dict[str, dict[str, Any]] = {}
    file_rows: list[Row] = []
    for file, rows in by_file.items():
        own: list[Row] = []
        for row in rows:
            if row.get("facts"):
                facts[file] = json.loads(row["facts"])
            elif row.get("kind") in (UNREADABLE, INTERNAL_ERROR):
                own.append({**row, "severity": "error"})
            elif row.get("kind"):
                own.append(row)
        info = facts.get(file)
        if info is not None:
            own.extend(_analysis_findings(info, required, require_level))
            if roster is not None:
                own.extend(_roster_findings(info, roster))
        findings.extend({"file": file, **row} for row in own)
        first = rows[0]
        file_rows.append(
            {
                "file": file,
                "format": Path(file).suffix.lower().lstrip("."),
                "players": " vs. ".join(info["names"]) if info else None,
                "games": first.get("games"),
                "actions": first.get("actions"),
            }
        )
    duplicates = _duplicates(facts)
    findings.extend(duplicates)
    counted = {file: info for file, info in facts.items()}
    for row in duplicates:  # a match submitted twice counts once in a player's totals
        counted.pop(row["file"], None)
    dice_rows, tests = _dice_rows(facts, counted, submission, alpha)
    for row in dice_rows:
        if row["flagged"]:
            findings.append(_dice_finding(row, facts, tests, alpha))
    order = {file: i for i, file in enumerate(by_file)}
    findings.sort(
        key=lambda r: (order.get(r["file"], len(order)), _int(r.get("line")), _int(r.get("column")))
    )
    table = pd.DataFrame(
        [{c: r.get(c) for c in FINDING_COLUMNS} for r in findings],
        columns=list(FINDING_COLUMNS),
        dtype=object,
    ).astype(
        {
            "file": "string",
            "line": "Int64",
            "column": "Int64",
            "game": "Int64",
            "move": "Int64",
            "player": "string",
            "kind": "string",
            "severity": "string",
            "message": "string",
            "same_as": "string",
            "p_value": "float64",
        }
    )
    for row in file_rows:
        mine = [f for f in findings if f["file"] == row["file"]]
        severities = [f["severity"] for f in mine]
        row["errors"] = severities.count("error")
        row["warnings"] = severities.count("warning")
        row["notes"] = severities.count("note")
        unreadable = any(f["kind"] in (UNREADABLE, INTERNAL_ERROR) for f in mine)
        row["verdict"] = (
            "unreadable"
            if unreadable
            else "errors"
            if row["errors"]
            else "findings"
            if row["warnings"]
            else "notes"
            if row["notes"]
            else "clean"
        )
    files = pd.DataFrame(
        file_rows,
        columns=[
            "file",
            "format",
            "players",
            "games",
            "actions",
            "errors",
            "warnings",
            "notes",
            "verdict",
        ],
    )
    dice = pd.DataFrame(dice_rows, columns=list(_DICE_COLUMNS))
    play = _play_table(facts, pd)
    options = {"require_level": require_level, "roster": roster is not None}
    return AuditResult(table, files, dice, play, submission, alpha, tests, options)


def _missing(value: Any) -> bool:
    try:
        return value is None or bool(value != value) or str(value) == "<NA>"
    except (TypeError, ValueError):
        return False


def _int(value: Any) -> int:
    return 0 if value is None or _missing(value) else int(value)


# ---------------------------------------------------------------------- analysis


def _analysis_findings(
    info: dict[str, Any], required: int | None, require_level: str | None
) -> list[Row]:
    decisions = info.get("decisions")
    if not decisions:
        return []
    engine = info.get("engine", "gnubg")
    names = info["names"]
    missing = [d for d in decisions if d[6] is None]
    rows = []
    if missing:
        rows.append(_coverage_row(ANALYSIS_MISSING, missing, len(decisions), names, None))
    if required is not None:
        low = []
        for d in decisions:
            if d[6] is None or d[6] == "?":
                continue
            try:
                rank = level_rank(d[6], engine=engine)
            except ValueError:
                continue
            if rank < required:
                low.append(d)
        if low:
            rows.append(_coverage_row(ANALYSIS_LEVEL, low, len(decisions), names, require_level))
    return rows


def _coverage_row(
    kind: str, found: list[list[Any]], total: int, names: list[str], level: str | None
) -> Row:
    first = found[0]
    checker = sum(d[5] == "checker" for d in found)
    cube = len(found) - checker
    places = ", ".join(
        f"game {d[0]} move {d[1]}{f' ({names[d[4]]})' if names and d[4] in (0, 1) else ''}"
        if d[0]
        else f"board {d[1]}"
        for d in found[:3]
    )
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    if kind == ANALYSIS_MISSING:
        what = "not analysed"
    else:
        levels = sorted({str(d[6]) for d in found})
        what = f"analysed below {level} ({', '.join(levels)})"
    message = (
        f"{len(found)} of {total} decisions {what}: {checker} checker play(s),"
        f" {cube} cube action(s); first at {places}{more}"
    )
    player = names[first[4]] if first[4] in (0, 1) and names else None
    return _finding(
        kind,
        message,
        line=first[2],
        column=first[3],
        game=first[0] or None,
        move=first[1],
        player=player,
        player_index=first[4],
    )


# ---------------------------------------------------------------------- players


def _roster_findings(info: dict[str, Any], roster: dict[str, str]) -> list[Row]:
    rows = []
    spellings = sorted(set(roster))
    for index, name in enumerate(info["names"]):
        if not name or _norm(name) in roster:
            continue
        near = difflib.get_close_matches(_norm(name), spellings, n=3, cutoff=0.6)
        suggestion = sorted({roster[n] for n in near}, key=[roster[n] for n in near].index)
        hint = f"; did you mean {' or '.join(map(repr, suggestion))}?" if suggestion else ""
        rows.append(
            _finding(
                PLAYERS,
                f"{name!r} is not on the roster{hint}",
                line=info.get("first_line", 0),
                column=1 if info.get("first_line") else 0,
                player=name,
                player_index=index,
            )
        )
    return rows


# ---------------------------------------------------------------------- duplicates


def _duplicates(facts: dict[str, dict[str, Any]]) -> list[Row]:
    """A finding per file whose played games are all in an earlier file (or in a file
    with more games), naming that file in ``same_as``."""
    games: dict[str, dict[str, tuple[int, int, int]]] = {}
    for file, info in facts.items():
        kept = {
            digest: (number, rolls, line)
            for number, rolls, digest, line in info.get("games", [])
            if rolls >= MIN_GAME_ROLLS
        }
        if kept:
            games[file] = kept
    files = list(games)
    holders: dict[str, list[str]] = {}
    for file in files:
        for digest in games[file]:
            holders.setdefault(digest, []).append(file)
    rows = []
    for i, file in enumerate(files):
        mine = games[file]
        candidates = {other for d in mine for other in holders[d] if other != file}
        best = None
        for other in sorted(candidates, key=files.index):
            shared = set(mine) & set(games[other])
            rolls = sum(mine[d][1] for d in shared)
            if shared != set(mine) or rolls < MIN_SHARED_ROLLS:
                continue
            theirs = games[other]
            same = set(theirs) == set(mine)
            if same and files.index(other) > i:
                continue  # the later file of an identical pair is the one reported
            best = (other, same)
            break
        if best is None:
            continue
        other, same = best
        first = min(mine.values(), key=lambda g: g[0])
        swapped = _swap_note(facts[file]["names"], facts[other]["names"])
        how = (
            "the same match as"
            if same
            else f"{len(mine)} game(s), all contained in the {len(games[other])} of"
        )
        note = swapped
        rows.append(
            {
                "file": file,
                **_finding(
                    DUPLICATE,
                    f"{how} {other}: the same dice and positions{note}",
                    line=first[2],
                    column=1 if first[2] else 0,
                    game=first[0],
                    move=0,
                ),
                "same_as": other,
            }
        )
    return rows


# ---------------------------------------------------------------------- dice

_DICE_COLUMNS = (
    "file",
    "scope",
    "player",
    "rolls",
    "counts",
    "expected",
    "chi2",
    "p_rolls",
    "doubles",
    "doubles_expected",
    "p_doubles",
    "pips",
    "pips_expected",
    "p_pips",
    "bar_rolls",
    "bar_entered",
    "bar_expected",
    "p_bar",
    "p_value",
    "p_adjusted",
    "flagged",
)


def dice_tests(counts: Sequence[int], bar_chances: Sequence[float], bar_entered: int) -> Row:
    """The four tests of one player's rolls (the opening rolls left out) against fair dice:

    * ``p_rolls``: the 21 rolls' counts against 1/36 and 2/36, Pearson's chi-square
      (:func:`bgkit.audit.stats.rolls_p_value`);
    * ``p_doubles``: the number of doubles against 1/6, an exact binomial test;
    * ``p_pips``: the total pips rolled (a double counts four times its die), from its
      exact distribution;
    * ``p_bar``: the rolls from the bar that could enter at least one checker, against
      the chance of each (1 - (closed points / 6)^2), an exact Poisson-binomial test;

    and ``p_value``, four times the smallest of the four (Bonferroni over the four
    tests, at most 1).

    >>> fair = [36 if a == b else 72 for a, b in ROLLS]
    >>> row = dice_tests(fair, [0.75] * 8, 6)
    >>> row["rolls"], row["doubles"], round(row["p_rolls"], 3), round(row["p_value"], 3)
    (1296, 216, 1.0, 1.0)
    """
    n = sum(counts)
    doubles = sum(c for c, (a, b) in zip(counts, ROLLS, strict=True) if a == b)
    pips = sum(c * (4 * a if a == b else a + b) for c, (a, b) in zip(counts, ROLLS, strict=True))
    from bgkit.audit.stats import PIPS_PER_ROLL, rolls_chi2

    tests = {
        "p_rolls": rolls_p_value(counts),
        "p_doubles": binomial_two_sided(doubles, n, 1 / 6),
        "p_pips": pips_p_value(pips, n),
        "p_bar": poisson_binomial_two_sided(bar_entered, bar_chances) if bar_chances else 1.0,
    }
    return {
        "rolls": n,
        "counts": list(counts),
        "expected": [n * p for p in ROLL_PROBABILITIES],
        "chi2": rolls_chi2(counts),
        "doubles": doubles,
        "doubles_expected": n / 6,
        "pips": pips,
        "pips_expected": n * PIPS_PER_ROLL,
        "bar_rolls": len(bar_chances),
        "bar_entered": bar_entered,
        "bar_expected": sum(bar_chances),
        **tests,
        "p_value": min(1.0, 4 * min(tests.values())),
    }


MIN_DICE_ROLLS = 20
"""A player's rolls of a file are tested when there are at least this many."""


def _dice_rows(
    facts: dict[str, dict[str, Any]],
    counted: dict[str, dict[str, Any]],
    submission: str,
    alpha: float,
) -> tuple[list[Row], int]:
    """The dice rows of every player of every file, and of every player over the files
    ``counted`` (those that are no duplicate); and the number of tests."""
    rows: list[Row] = []
    total: dict[str, dict[str, Any]] = {}
    for file, info in facts.items():
        if "dice" not in info:
            continue
        for key, data in info["dice"].items():
            name = info["names"][int(key)] or f"player {int(key)}"
            if sum(data["rolls"]) == 0:
                continue
            if sum(data["rolls"]) >= MIN_DICE_ROLLS:
                tests = dice_tests(data["rolls"], data["bar_chances"], data["bar_entered"])
                rows.append({"file": file, "scope": "file", "player": name, **tests})
            if file not in counted:
                continue
            mine = total.setdefault(  # one player however the files spell the name
                _norm(name),
                {"name": name, "rolls": [0] * 21, "bar_chances": [], "bar_entered": 0, "files": 0},
            )
            mine["rolls"] = [a + b for a, b in zip(mine["rolls"], data["rolls"], strict=True)]
            mine["bar_chances"] += data["bar_chances"]
            mine["bar_entered"] += data["bar_entered"]
            mine["files"] += 1
    for data in total.values():
        if data["files"] < 2 or sum(data["rolls"]) < MIN_DICE_ROLLS:
            continue
        tests = dice_tests(data["rolls"], data["bar_chances"], data["bar_entered"])
        rows.append({"file": submission, "scope": "submission", "player": data["name"], **tests})
    m = len(rows)
    for row in rows:
        row["p_adjusted"] = min(1.0, row["p_value"] * m)
        row["flagged"] = row["p_adjusted"] < alpha
    return rows, m


def _dice_finding(row: Row, facts: dict[str, dict[str, Any]], tests: int, alpha: float) -> Row:
    parts = []
    if row["p_rolls"] * 4 <= row["p_value"] * 1.0000001:
        worst = max(
            range(21),
            key=lambda i: (
                abs(row["counts"][i] - row["expected"][i]) / math.sqrt(row["expected"][i])
            ),
        )
        a, b = ROLLS[worst]
        parts.append(
            f"the 21 rolls p={row['p_rolls']:.2g} ({a}{b}: {row['counts'][worst]}"
            f" for {row['expected'][worst]:.1f} expected)"
        )
    if row["p_doubles"] * 4 <= row["p_value"] * 1.0000001:
        parts.append(
            f"doubles p={row['p_doubles']:.2g} ({row['doubles']} for"
            f" {row['doubles_expected']:.1f} expected)"
        )
    if row["p_pips"] * 4 <= row["p_value"] * 1.0000001:
        parts.append(
            f"pips p={row['p_pips']:.2g} ({row['pips']} for {row['pips_expected']:.0f} expected)"
        )
    if row["p_bar"] * 4 <= row["p_value"] * 1.0000001:
        parts.append(
            f"entering from the bar p={row['p_bar']:.2g} ({row['bar_entered']} of"
            f" {row['bar_rolls']} for {row['bar_expected']:.1f} expected)"
        )
    scope = "in this match" if row["scope"] == "file" else "over the submission"
    message = (
        f"{row['player']}'s dice {scope} are unlikely with fair dice: {row['rolls']} rolls,"
        f" p={row['p_value']:.2g} ({'; '.join(parts)}); corrected for {tests} tests"
        f" p={row['p_adjusted']:.2g} < alpha {alpha:g}"
    )
    info = facts.get(row["file"], {})
    line = info.get("first_line", 0) if row["scope"] == "file" else 0
    return {
        "file": row["file"],
        **_finding(DICE, message, line=line, column=1 if line else 0, player=row["player"]),
        "p_value": row["p_value"],
    }


# ---------------------------------------------------------------------- play figures


_PLAY_COLUMNS = (
    "file",
    "player",
    "luck_emg",
    "luck_sd",
    "luck_z",
    "pr",
    "unforced_moves",
    "first_choice",
    "matches",
    "luck_z_others",
    "pr_others",
    "first_choice_others",
)


def _play_table(facts: dict[str, dict[str, Any]], pd: Any) -> pd.DataFrame:
    rows = []
    for file, info in facts.items():
        figures = info.get("play")
        if not figures or "error" in figures:
            continue
        for key, data in figures.items():
            rows.append({"file": file, "player": info["names"][int(key)], **data})
    for row in rows:
        others = [r for r in rows if r["player"] == row["player"] and r is not row]
        row["matches"] = len(others) + 1
        for name in ("luck_z", "pr", "first_choice"):
            values = [r[name] for r in others if r[name] is not None]
            row[f"{name}_others"] = sum(values) / len(values) if values else None
    return pd.DataFrame(rows, columns=list(_PLAY_COLUMNS))


class _CallableModule(types.ModuleType):
    """``bgkit.audit`` is this package and :func:`audit` at once: ``bgkit.audit(paths)``
    works whether or not ``bgkit.audit`` was imported as a module first (importing a
    submodule makes it the package's attribute, over the lazy function)."""

    def __call__(self, paths: PathArg, **options: Any) -> AuditResult:
        return audit(paths, **options)


sys.modules[__name__].__class__ = _CallableModule
