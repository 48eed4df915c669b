"""One file of a submission audited alone: what :func:`bgkit.audit.audit` runs on each file.

:func:`audit_rows` is the worker (run on every core or a Dask cluster, resumable, as
:func:`bgkit.batch.map_files` runs it): it reads one record, verifies it, and returns its
rows (:data:`AUDIT_COLUMNS`): a first row with the file's **facts**, the material of the
findings across files (the names, each game's fingerprint, the dice, the analysed
decisions and their levels, XG's own fields, with ``luck`` the luck and play figures), then
the verifier's issues and the findings this file alone shows (names that differ from the
header, XG's transcription and invalid-move fields). The finding kinds (:data:`KINDS`) and
the analysis levels (:func:`level_rank`) are defined here, and :mod:`bgkit.audit` builds
the submission's findings from the facts.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import string
import struct
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bgkit.audit.stats import (
    ROLL_PROBABILITIES,
    ROLLS,
)
from bgkit.batch import VERIFY_COLUMNS
from bgkit.batch.common import Row
from bgkit.errors import BgkitError

if TYPE_CHECKING:
    from bgkit.records import Match

__all__ = [
    "ANALYSIS_LEVEL",
    "ANALYSIS_MISSING",
    "AUDIT_COLUMNS",
    "DICE",
    "DUPLICATE",
    "KINDS",
    "PLAYERS",
    "TRANSCRIBED",
    "XG_INVALID",
    "audit_rows",
    "level_rank",
]

DUPLICATE = "duplicate"
PLAYERS = "players"
ANALYSIS_MISSING = "analysis-missing"
ANALYSIS_LEVEL = "analysis-level"
TRANSCRIBED = "transcribed"
XG_INVALID = "xg-invalid"
DICE = "dice"
KINDS: dict[str, str] = {
    DUPLICATE: "warning",
    PLAYERS: "warning",
    ANALYSIS_MISSING: "warning",
    ANALYSIS_LEVEL: "warning",
    TRANSCRIBED: "note",
    XG_INVALID: "warning",
    DICE: "warning",
}
"""The audit's own finding kinds and their severity (the verifier's keep theirs)."""

AUDIT_COLUMNS: dict[str, str] = {**VERIFY_COLUMNS, "facts": "string"}
"""The columns of :func:`audit_rows` (what ``output=`` keeps): the verifier's, and on the
first row of each file, whose ``kind`` is missing, the ``facts`` the submission-wide
findings are made of (JSON: names, each game's fingerprint, the dice, the analysed
decisions, XG's fields, the luck and play figures)."""


# ---------------------------------------------------------------------- levels


_XG_ROLLERS = {
    "xg roller": 10,
    "roller": 10,
    "xg roller+": 11,
    "roller+": 11,
    "xg roller++": 12,
    "roller++": 12,
    "xg roller+++": 13,
    "roller+++": 13,
    "rollout": 20,
    "book": 20,
}


def level_rank(level: str, *, engine: str = "gnubg") -> int:
    """A level of analysis as a number that orders them: gnubg's plies (``"2-ply"`` is 2,
    ``"Cubeful 0-ply"`` 0), XG's ``N-ply`` as gnubg's ``N-1`` (XG counts the static
    evaluation as 1-ply), XG Roller 10, Roller+ 11, Roller++ 12, Roller+++ 13, a rollout
    or a book position 20. ``engine`` says whose ``N-ply`` a bare ``"N-ply"`` is; the
    prefixes ``xg:`` and ``gnubg:`` say it too (``"xg:3-ply"`` is 2).

    >>> level_rank("2-ply"), level_rank("xg:3-ply"), level_rank("XG Roller++", engine="xg")
    (2, 2, 12)

    :raises ValueError: for a level that is none of these.
    """
    text = " ".join(level.strip().lower().split())
    if text.startswith(("xg:", "gnubg:")):
        engine, text = text.split(":", 1)
        text = text.strip()
    text = text.removeprefix("cubeful ").removeprefix("cubeless ")
    if text in _XG_ROLLERS:
        return _XG_ROLLERS[text]
    found = re.fullmatch(r"([0-9]{1,2})[- ]?ply", text)
    if found is None:
        raise ValueError(
            f"not a level of analysis: {level!r} (N-ply, xg:N-ply, XG Roller, Roller+,"
            " Roller++, rollout)"
        )
    plies = int(found[1])
    return max(plies - 1, 0) if engine == "xg" else plies


# ---------------------------------------------------------------------- the worker


def audit_rows(
    path: Path, *, luck: bool = False, max_size: int | None = None, format: str | None = None
) -> list[Row]:
    """The :data:`AUDIT_COLUMNS` rows of one file (what :func:`audit` runs on each file):
    a first row with the file's facts, then the verifier's issues and the findings that
    need this file alone (names, XG's fields). ``format`` reads it as that format
    (:func:`bgkit.formats.read_match`'s), whatever its name says.

    :raises BgkitError: when the file does not parse; :exc:`OSError` when it cannot be read.
    """
    from bgkit.formats import read_match
    from bgkit.limits import active
    from bgkit.verify import verify

    limits = active().with_max_size(max_size)
    export = _gnubg_export(path, limits.max_file_bytes) if format in (None, "gnubg-text") else None
    if export is not None:
        return export
    match = read_match(path, format=format, limits=limits)
    report = verify(match)
    summary = {"games": report.games, "actions": report.actions_checked, "ok": report.ok}
    facts = _facts(match, path)
    findings = _file_findings(match, path, facts)
    if luck:
        facts["play"] = _play_figures(match)
    rows: list[Row] = [{**summary, "facts": json.dumps(facts, ensure_ascii=False)}]
    for issue in report.issues:
        row = issue.to_dict()
        del row["file"]
        rows.append({**row, **summary})
    rows.extend({**row, **summary} for row in findings)
    return rows


def _gnubg_export(path: Path, max_bytes: int) -> list[Row] | None:
    """The rows of a gnubg text export (positions, not a match), else ``None``."""
    if path.suffix.lower() != ".txt":
        return None
    from bgkit.formats.gnubg_text import parse_gnubg_text, sniff_gnubg_text

    with path.open("rb") as handle:
        head = handle.read(4096).decode("utf-8", "replace")
    if not sniff_gnubg_text(head):
        return None
    if path.stat().st_size > max_bytes:
        return None  # the match reader says so in its own words
    boards = parse_gnubg_text(path.read_text("utf-8", "replace"), source_name=str(path))
    decisions = []
    for n, board in enumerate(boards, 1):
        heading = board.heading or ""
        who = board.position.turn
        if board.position.dice is not None and len(board.position.legal_results()) > 1:
            level = None if board.checker is None else _checker_level(board.checker)
            decisions.append([0, n, board.line, 1, who, "checker", level, heading])
        elif board.cube is not None or "double" in heading.lower():
            level = None if board.cube is None else board.cube.level
            decisions.append([0, n, board.line, 1, who, "cube", level, heading])
    names = list(boards[0].names) if boards else ["", ""]
    facts = {"names": names, "engine": "gnubg", "decisions": decisions, "export": True}
    return [{"games": 0, "actions": 0, "ok": True, "facts": json.dumps(facts)}]


def _facts(match: Match, path: Path) -> dict[str, Any]:
    """What the submission-wide findings need of one record, small enough to keep."""
    from bgkit.formats.sgf_analysis import PROPERTY, analysis_of
    from bgkit.records import Move
    from bgkit.replay import replay_game

    games: list[list[Any]] = []
    dice: dict[int, dict[str, Any]] = {
        p: {"rolls": [0] * 21, "bar_chances": [], "bar_entered": 0} for p in (0, 1)
    }
    decisions: list[list[Any]] = []
    analysed = False
    engine = "xg" if _is_xg(path) else "gnubg"
    for game in match.games:
        analysed = analysed or any(_has_analysis(analysis_of(a)) for a in game.actions)
        if any(key == PROPERTY for a in game.actions for key, _ in a.annotations):
            engine = "xg"  # bgkit's own property: the analysis of an XG file, converted
    first_line = 0
    for index, game in enumerate(match.games):
        keys: list[str] = []
        rolls = 0
        try:
            for step in replay_game(match, index):
                action = step.action
                if not first_line and action.line:
                    first_line = action.line
                if analysed:
                    decisions.extend(_decision(step))
                if not isinstance(action, Move):
                    continue
                d1, d2 = action.dice
                rolls += 1
                keys.append(f"{max(d1, d2)}{min(d1, d2)}:{step.after.gnubg_id()}")
                if step.turn == 1:
                    continue  # the opening roll: two dice that are never equal
                mine = dice[step.player]
                mine["rolls"][ROLLS.index((max(d1, d2), min(d1, d2)))] += 1
                before = step.before
                if before.board[step.player][25]:
                    home = before.board[1 - step.player]
                    open_points = sum(home[d] < 2 for d in range(1, 7))
                    mine["bar_chances"].append(1 - ((6 - open_points) / 6) ** 2)
                    mine["bar_entered"] += home[d1] < 2 or home[d2] < 2
        except (BgkitError, ValueError):
            pass  # the verifier reports it; what was replayed still counts
        digest = hashlib.blake2b("|".join(keys).encode(), digest_size=10).hexdigest()
        games.append([game.number, rolls, digest, game.line])
    facts: dict[str, Any] = {
        "names": list(match.players),
        "games": games,
        "dice": dice,
        "first_line": first_line,
    }
    if analysed:
        facts["engine"] = engine
        facts["decisions"] = decisions
    return facts


def _has_analysis(note: Any) -> bool:
    """An engine's analysis, not a comment alone."""
    return note is not None and (note.checker is not None or note.cube is not None)


def _decision(step: Any) -> list[list[Any]]:
    """The step as a decision ``[game, move, line, column, player, what, level]``, where
    a player chose (an unforced roll, a cube action); ``level`` None: not analysed."""
    from bgkit.formats.sgf_analysis import analysis_of
    from bgkit.records import Double, Drop, Move, Take

    action = step.action
    note = analysis_of(action)
    where = [step.game.number, step.move_number, action.line, action.column, step.player]
    if isinstance(action, Move):
        if action.play is None or len(step.rolled.legal_results()) <= 1:
            return []
        level = None
        if note is not None and note.checker is not None:
            level = _checker_level(note.checker)
        return [[*where, "checker", level]]
    if isinstance(action, Double | Take | Drop):
        level = None if note is None or note.cube is None else note.cube.level or "?"
        return [[*where, "cube", level]]
    return []


def _checker_level(checker: Any) -> str | None:
    """The level of a checker analysis: its best play's (the engines list it first, at
    their deepest level; a play pruned by the move filters, even the play made, keeps
    the level it was dropped at)."""
    if not checker.candidates:
        return None
    level: str | None = checker.candidates[0].level
    return level or "?"


def _is_xg(path: Path) -> bool:
    """An XG match file by its name and its bytes (a text record saved as ``.xg``, XG
    Mobile's, is read as the text it is: it has no XG fields)."""
    from bgkit.formats.xg import sniff_xg

    if path.suffix.lower() != ".xg":
        return False
    try:
        with path.open("rb") as handle:
            return sniff_xg(handle.read(4))
    except OSError:
        return False


def _file_findings(match: Match, path: Path, facts: dict[str, Any]) -> list[Row]:
    """The findings one file shows alone: its names, XG's own fields."""
    rows = [_finding(PLAYERS, message, **where) for where, message in _name_mismatches(match, path)]
    if _is_xg(path):
        rows.extend(_xg_findings(match, path))
    return rows


def _finding(kind: str, message: str, **fields: Any) -> Row:
    row: Row = {
        "line": 0,
        "column": 0,
        "game": None,
        "move": None,
        "player": None,
        "player_index": None,
        **fields,
        "kind": kind,
        "severity": KINDS[kind],
        "message": message,
    }
    return row


def _norm(name: str) -> str:
    """A name as compared: Unicode-normalised, case-folded, blanks collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _score_names(line: str) -> tuple[str, str] | None:
    """The two names of a ``.mat`` score line, ``NAME : SCORE   NAME : SCORE``, each
    without a rating written after it (``(1650.2)`` or ``,1650``); ``None`` for another
    line. What ``^\\s*(.*?)\\s*:\\s*-?[0-9]+\\s+(.*?)\\s*:\\s*-?[0-9]+\\s*$`` matches, read in
    time linear in the line: the pattern backtracked over each blank of a long run in a
    name (a run of 10,000 took 0.16 s, and a line may hold 100,000)."""
    text = line.rstrip()
    head = text.rstrip(string.digits)
    if len(head) == len(text):
        return None
    head = head.removesuffix("-").rstrip()
    if not head.endswith(":"):
        return None
    colon = len(head) - 1  # (the second score's colon)
    start = len(text) - len(text.lstrip())
    at = text.find(":", start)
    while 0 <= at < colon:
        # (each colon's score is tried once, up to the next non-blank non-digit)
        score = _SCORE_AFTER.match(text, at + 1, colon)
        if score is not None:
            return _unrated(text[start:at]), _unrated(text[score.end() : colon])
        at = text.find(":", at + 1)
    return None


_SCORE_AFTER = re.compile(r"\s*-?[0-9]+\s+")
"""A score and the blanks after it, up to the name that follows."""


def _unrated(name: str) -> str:
    """``name`` without a rating after it, ``(1650.2)`` or ``,1650``, and blanks."""
    name = name.strip()
    if name.endswith(")"):
        opening = name.rfind("(")
        if opening >= 0 and _rating(name[opening + 1 : -1]):
            return name[:opening].strip()
    comma = name.rfind(",")
    if comma >= 0 and _rating(name[comma + 1 :]):
        return name[:comma].strip()
    return name


def _rating(text: str) -> bool:
    return bool(text) and not text.strip(string.digits + ".")


def _game_names(match: Match, path: Path) -> list[tuple[int, int, int, tuple[str, str]]]:
    """Each game's names as its own header gives them: ``(game, line, column, names)``
    (``.mat``: the score line under ``Game N``; SGF: the game's ``PW``/``PB``)."""
    suffix = path.suffix.lower()
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return []
    out = []
    if suffix == ".sgf":
        for number, (start, names) in enumerate(_sgf_roots(text), 1):
            line = text.count("\n", 0, start) + 1
            column = start - (text.rfind("\n", 0, start) + 1) + 1
            out.append((number, line, column, names))
        return out
    if suffix not in (".mat", ".txt"):
        return []
    lines = text.splitlines()
    for game in match.games:
        if not game.score_places:
            continue
        line = game.score_places[0][0]
        if not 0 < line <= len(lines):
            continue
        found = _score_names(lines[line - 1])
        if found is not None:
            out.append((game.number, line, 1, found))
    return out


_SGF_NAME = re.compile(r"\b(PW|PB)\[((?:[^\]\\]|\\.)*)\]", re.S)


def _sgf_roots(text: str) -> list[tuple[int, tuple[str, str]]]:
    """The offset and ``PW``/``PB`` names of every game tree's root node of an SGF text."""
    out = []
    for tree in re.finditer(r"\(\s*;", text):
        start = tree.end()
        end = text.find(";", start)
        # the root node ends at the next node mark outside a property value
        node = text[start : end if end >= 0 else len(text)]
        names = dict.fromkeys(("PW", "PB"), "")
        for found in _SGF_NAME.finditer(node):
            names[found[1]] = re.sub(r"\\(.)", r"\1", found[2])
        out.append((tree.start(), (names["PW"], names["PB"])))
    return out


def _name_mismatches(match: Match, path: Path) -> list[tuple[dict[str, Any], str]]:
    """The games whose names differ from the file header's."""
    suffix = path.suffix.lower()
    if suffix in (".mat", ".txt"):
        one, two = match.tag("Player 1"), match.tag("Player 2")
        header = (one, two) if one is not None and two is not None else None
        said = "the header (Player 1, Player 2)"
    elif suffix == ".sgf":
        header = None  # the first game's PW/PB are the match's
        said = ""
    else:
        return []  # XG's names are in its header alone; Gibbon's and JavaFIBS's are the tags
    games = _game_names(match, path)
    if not games:
        return []
    out = []
    first_number, first_line, first_column, first_names = games[0]
    if header is not None and not _same(first_names, header):
        agree = sum(_same(g[3], first_names) for g in games)
        line = _tag_line(path, "Player 1") if suffix != ".sgf" else first_line
        message = (
            f"{said} names the players {header[0]!r} and {header[1]!r}, but"
            f" {'every game' if agree == len(games) else f'{agree} of {len(games)} games'}"
            f" {first_names[0]!r} and {first_names[1]!r}{_swap_note(first_names, header)}"
        )
        where = {"line": line, "column": 1 if line else 0}
        if suffix == ".sgf":
            where = {"line": first_line, "column": first_column}
        out.append((where, message))
    for number, line, column, names in games[1:]:
        if _same(names, first_names):
            continue
        where = {"line": line, "column": column, "game": number, "move": 0}
        message = (
            f"game {number} names the players {names[0]!r} and {names[1]!r}, game"
            f" {first_number} {first_names[0]!r} and {first_names[1]!r}"
            f"{_swap_note(names, first_names)}"
        )
        out.append((where, message))
    return out


def _same(a: Sequence[str], b: Sequence[str]) -> bool:
    return [_norm(n) for n in a] == [_norm(n) for n in b]


def _swap_note(a: Sequence[str], b: Sequence[str]) -> str:
    return " (the players swapped)" if _same(a, list(reversed(b))) else ""


def _tag_line(path: Path, key: str) -> int:
    """The line of the ``; [key "..."]`` tag of a ``.mat`` file (0 when not found)."""
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return 0
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(r"^\ufeff?\s*;\s*\[" + re.escape(key) + r"\s+\"", line):
            return number
    return 0


# ---------------------------------------------------------------------- XG's own fields

_MATCH_TRANSCRIBED = 620
_MOVE_INVALID = 2480  # TMoveEntry.InvalidM (xg_format.pas), after AnalyzeM and AnalyzeL


def _xg_findings(match: Match, path: Path) -> list[Row]:
    """XG's transcription fields and the moves XG marked invalid."""
    from bgkit.formats import xg

    rows: list[Row] = []
    transcriber = match.tag("Transcriber")
    if transcriber:
        who = "" if transcriber == "yes" else f" by {transcriber}"
        rows.append(_finding(TRANSCRIBED, f"XG says the match was transcribed{who}"))
    data = path.read_bytes()
    body = xg._archive(data, str(path)).get("temp.xg", b"")
    size = xg._RECORD_SIZE
    game = turn = 0
    opener: int | None = None
    for n in range(len(body) // size):
        record = body[n * size : (n + 1) * size]
        kind = record[8]
        if kind == xg._HEADER_GAME:
            game += 1
            turn, opener = 0, None
        elif kind == xg._MOVE and len(record) >= _MOVE_INVALID + 4:
            (active,) = struct.unpack_from("<l", record, 64)
            (invalid,) = struct.unpack_from("<l", record, _MOVE_INVALID)
            player = 0 if active == 1 else 1
            turn += 1
            opener = player if opener is None else opener
            if invalid:
                number = match.games[game - 1].number if 0 < game <= len(match.games) else game
                name = match.players[player]
                move = (turn + opener + 1) // 2  # the move number of its .mat line
                rows.append(
                    _finding(
                        XG_INVALID,
                        f"XG marks {name}'s play with the roll of move {move} of game"
                        f" {number} as an invalid move (InvalidM {invalid})",
                        game=number,
                        move=move,
                        player=name,
                        player_index=player,
                    )
                )
    return rows


# ---------------------------------------------------------------------- luck and play


def _play_figures(match: Match) -> dict[str, Any] | None:
    """Per player: luck (EMG, gnubg 0-ply) with its spread, PR, first-choice share."""
    from bgkit.analysis.gnubg import GnubgEvaluator
    from bgkit.analysis.match import AnalysisError, analyze
    from bgkit.analysis.metrics import NON_DOUBLES
    from bgkit.analysis.tasks import roll_values

    evaluator = GnubgEvaluator()
    try:
        result = analyze(match, 0, evaluator=evaluator)
    except AnalysisError as err:
        return {"error": str(err).splitlines()[0]}
    variance = {0: 0.0, 1: 0.0}
    luck = {0: 0.0, 1: 0.0}
    for row in result.rows:
        if row.get("luck_emg") is None or row.get("dice") is None:
            continue
        pos = _row_position(row)
        mine = roll_values(evaluator, pos)
        if row["turn"] == 1 and pos.board == _initial_board(pos):
            theirs = roll_values(evaluator, _swapped(pos))
            outcomes = [mine[r] for r in NON_DOUBLES] + [-theirs[r] for r in NON_DOUBLES]
            weights = [1.0] * len(outcomes)
        else:
            outcomes = [mine[r] for r in ROLLS]
            weights = [36 * p for p in ROLL_PROBABILITIES]
        total = sum(weights)
        mean = sum(w * v for w, v in zip(weights, outcomes, strict=True)) / total
        spread = sum(w * (v - mean) ** 2 for w, v in zip(weights, outcomes, strict=True)) / total
        variance[row["player"]] += spread
        luck[row["player"]] += row["luck_emg"]
    out: dict[str, Any] = {}
    players = result.players_list
    for player in players:
        p = player["player"]
        rows = [
            r
            for r in result.rows
            if r["player"] == p and r["action"] == "move" and not r["forced"] and r["rank"]
        ]
        first = sum(r["rank"] == 1 for r in rows)
        sd = math.sqrt(variance[p])
        out[str(p)] = {
            "luck_emg": luck[p],
            "luck_sd": sd,
            "luck_z": luck[p] / sd if sd else None,
            "pr": player.get("pr"),
            "unforced_moves": len(rows),
            "first_choice": first / len(rows) if rows else None,
        }
    return out


def _row_position(row: dict[str, Any]) -> Any:
    from bgkit.position import Position

    return Position.from_gnubg_id(row["position_id"])


def _initial_board(pos: Any) -> Any:
    from bgkit.position import Position

    return Position.initial(match_length=pos.match_length).board


def _swapped(pos: Any) -> Any:
    from dataclasses import replace

    return replace(pos, turn=pos.opponent)
