"""``bgkit analyze``: analyse a match record with GNU Backgammon's evaluator.

The command object :data:`analyze` is registered in :mod:`bgkit.cli`. It prints a
per-player summary, or writes the analysis as JSON (``--json``: match, settings,
players, games and moves) and the per-move table as CSV (``--csv``); ``-`` is stdout.
Files are written atomically and never over an existing file without ``--force``.
Failures end with one line ``bgkit: file:line:col: reason`` on stderr and exit code 2.

>>> from click.testing import CliRunner
>>> args = ["data/fixtures/handwritten_3pt.mat", "--plies", "0", "--jobs", "1"]
>>> result = CliRunner().invoke(analyze, args)
>>> result.exit_code, "checker error" in result.output
(0, True)
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from bgkit.cli._common import (
    candidates_option,
    check_targets,
    from_option,
    max_size_option,
    met_option,
)
from bgkit.errors import EngineCrashError, place, visible

if TYPE_CHECKING:
    from bgkit.analysis.match import Analysis

__all__ = ["analyze"]


#: gnubg's named analysis strengths that are a depth with its default move filters.
STRENGTHS = {"expert": 0, "world-class": 2, "grandmaster": 3}


@click.command("analyze", short_help="Analyse a match, or a season of them, with GNU Backgammon.")
@click.argument("file", metavar="FILE|FOLDER")
@click.option(
    "--plies",
    "-p",
    type=click.IntRange(0, 4),
    default=2,
    show_default=True,
    help="Search depth for checker play and cube: 2 is gnubg's default analysis (world"
    " class); 0, its static evaluation, is a quick look.",
)
@click.option("--json", "json_out", metavar="OUT|-", help="Write the analysis as JSON.")
@click.option("--csv", "csv_out", metavar="OUT|-", help="Write the per-move table as CSV.")
@click.option("--html", "html_out", metavar="OUT|-", help="Write a self-contained HTML report.")
@click.option(
    "--sgf",
    "sgf_out",
    metavar="OUT|-",
    help="Write the match as SGF with the analysis as GNU Backgammon's (gnubg shows it).",
)
@candidates_option("Best plays kept per roll, with their chances (in --json and --sgf).")
@met_option
@click.option(
    "--strength",
    type=click.Choice(sorted(STRENGTHS)),
    help="A depth by gnubg's name for it: expert (0-ply), world-class (2-ply),"
    " grandmaster (3-ply); instead of --plies.",
)
@click.option(
    "--jacoby/--no-jacoby",
    default=None,
    help="Money play: the session was played with the Jacoby rule (or without)."
    "  [default: what the record says, else on, as gnubg]",
)
@click.option(
    "--beavers/--no-beavers",
    default=None,
    help="Money play: beavers were allowed (or not)."
    "  [default: what the record says, else allowed, as gnubg]",
)
@click.option(
    "--thresholds",
    metavar="D,B,VB",
    help="EMG a decision must lose to be marked doubtful, bad, very bad."
    "  [default: gnubg's, 0.03,0.06,0.12]",
)
@click.option(
    "--use-file-analysis",
    is_flag=True,
    help="Report the analysis the record holds (XG's in an .xg file, gnubg's in its SGF)"
    " instead of running GNU Backgammon.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1),
    default=None,
    help="Processes (default: cores; one more for several games deeper than 0-ply).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="For a folder: run on the Dask cluster at ADDRESS (tcp://host:8786); its workers"
    " need bgkit and gnubg and must see the files at the same paths.",
)
@click.option(
    "--output",
    "-o",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="For a folder: also keep every match's rows in FILE (.parquet or .csv); a rerun"
    " skips the files already in it that did not change.",
)
@click.option(
    "--rating-scale",
    type=click.Choice(["current", "legacy"]),
    default="current",
    show_default=True,
    help="gnubg's rating names since 2024 (current) or before.",
)
@click.option(
    "--player",
    metavar="NAME",
    help="For a folder: whose season it is (names compared case-blind)."
    "  [default: the player in most matches]",
)
@click.option(
    "--alias",
    "aliases",
    metavar="OTHER=NAME",
    multiple=True,
    help="For a folder: OTHER is NAME under another name (repeatable).",
)
@click.option("--force", is_flag=True, help="Overwrite existing output files.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar.  [default: when stderr is a terminal]",
)
@from_option
@max_size_option
def analyze(
    file: str,
    plies: int,
    json_out: str | None,
    csv_out: str | None,
    html_out: str | None,
    sgf_out: str | None,
    candidates: int,
    met: str,
    strength: str | None,
    jacoby: bool | None,
    beavers: bool | None,
    thresholds: str | None,
    use_file_analysis: bool,
    jobs: int | None,
    scheduler: str | None,
    output: str | None,
    rating_scale: str,
    player: str | None,
    aliases: tuple[str, ...],
    force: bool,
    progress: bool | None,
    from_: str | None,
    max_size: int | None,
) -> None:
    """Analyse every play, cube decision and roll of the match record FILE (- reads stdin).

    Errors, luck and ratings are GNU Backgammon's (cubeful, normalised as gnubg
    does: EMG and MWC). Without --json, --csv, --html or --sgf a summary per player
    is printed; OUT - writes to stdout. Exit code: 0 done, 2 bad input or a record
    that does not replay, 130 interrupted.

    FILE may be a folder: every record in it is analysed as a season of matches, on
    every core (--jobs) or a Dask cluster (--scheduler), resumable with --output. It
    prints the player's season: the result per match and the luck-adjusted result with
    their 95% intervals, the FIBS rating and its luck-adjusted (variance-reduced) twin,
    money sessions in points per game; --html writes the season's report (form, results
    with the luck taken out, rating, money, PR against luck, errors by game phase, the
    costliest plays, every match), --csv one row per player and match, --json the
    players and the matches.
    """
    from bgkit.cli._common import fail, require_extra, stdin
    from bgkit.errors import BgkitError, error_line
    from bgkit.formats import read_match
    from bgkit.limits import active

    if not use_file_analysis:
        require_extra("bgkit analyze", "analysis")
    if Path(file).is_dir():
        one_match = ("candidates", "jacoby", "beavers")
        if sgf_out or use_file_analysis or from_ or any(given(option) for option in one_match):
            fail("a folder is analysed as a season: --sgf, --candidates, --from, --jacoby,"
                 " --beavers and --use-file-analysis are for one match")  # fmt: skip
        _season(file, plies if strength is None else STRENGTHS[strength], met, jobs, scheduler,
                output, json_out, csv_out, html_out, force, progress,
                player, _aliases(aliases))  # fmt: skip
        return
    if player or aliases:
        fail("--player and --alias are for a folder (a season of matches)")
    if use_file_analysis and given("met"):
        fail("--met is for GNU Backgammon's analysis; the record's own used its analyser's")
    if use_file_analysis and (given("jacoby") or given("beavers")):
        fail("--jacoby and --beavers are for GNU Backgammon's analysis; the record's own"
             " used its analyser's rules")  # fmt: skip
    if scheduler or output:
        fail("--scheduler and --output are for a folder (a season of matches)")
    if strength is not None:
        if given("plies"):
            fail("give --plies or --strength, not both")
        plies = STRENGTHS[strength]
    marks = _thresholds(thresholds) if thresholds is not None else None
    outputs = (json_out, csv_out, html_out, sgf_out)
    if sum(out == "-" for out in outputs) > 1:
        fail("only one of --json, --csv, --html and --sgf can write to stdout (-)")
    check_targets(outputs, force)
    limits = active().with_max_size(max_size)
    scale: Literal["current", "legacy"] = "legacy" if rating_scale == "legacy" else "current"
    early: AbstractContextManager[None] = nullcontext()
    if not use_file_analysis and plies == 0:  # (its workers start as the record is read)
        from bgkit.analysis.tasks import early_workers

        early = early_workers(jobs, met, None if file == "-" else _size(file))
    with early:
        try:
            match = read_match(stdin() if file == "-" else Path(file), format=from_, limits=limits)
        except (BgkitError, OSError) as err:
            fail(error_line(err, source=file))
        _unread_analysis(match, file, use_file_analysis)
        try:
            from bgkit.analysis.match import analysis_from_file
            from bgkit.analysis.match import analyze as run_analysis

            if use_file_analysis:
                result = analysis_from_file(match, rating_scale=scale, thresholds=marks)
            else:
                result = run_analysis(
                    match,
                    plies,
                    progress=sys.stderr.isatty() if progress is None else progress,
                    jobs=jobs,
                    rating_scale=scale,
                    candidates=candidates,
                    thresholds=marks,
                    met=met,
                    jacoby=jacoby,
                    beavers=beavers,
                )
        except BgkitError as err:
            fail(str(err).splitlines()[0], 3 if isinstance(err, EngineCrashError) else 2)
        except ImportError as err:
            fail(f"analysis needs GNU Backgammon: pip install 'bgkit[analysis]' ({err})")
    try:
        if json_out:
            _write(json_out, _json_text(result.to_dict()), force)
        if csv_out:
            _write(csv_out, moves_csv(result), force)
        if html_out:
            from bgkit.reports.match_report import html_report

            _write(html_out, html_report(match, result), force)
        if sgf_out:
            _write(sgf_out, result.annotated_match().to_sgf(), force)
    except BrokenPipeError:
        raise
    except OSError as err:
        fail(error_line(err))
    except ImportError as err:
        fail(f"the HTML report needs pandas and matplotlib: pip install 'bgkit[reports]' ({err})")
    if not any(outputs):
        click.echo(summary(result), nl=False)


def given(option: str) -> bool:
    """Whether the option named ``option`` was given (not its default)."""
    source = click.get_current_context().get_parameter_source(option)
    return source is not None and source.name != "DEFAULT"


def _season(
    folder: str,
    plies: int,
    met: str,
    jobs: int | None,
    scheduler: str | None,
    output: str | None,
    json_out: str | None,
    csv_out: str | None,
    html_out: str | None,
    force: bool,
    progress: bool | None,
    player: str | None = None,
    aliases: dict[str, str] | None = None,
) -> None:
    """``bgkit analyze FOLDER``: the season of every record in it."""
    from bgkit.cli._common import EXIT_LOST, fail, from_dask, quiet_dask, require_extra
    from bgkit.errors import BatchError, BgkitError, error_line
    from bgkit.season import analyze_season

    require_extra("bgkit analyze FOLDER", "reports", ("pandas", "matplotlib"))
    if output:
        require_extra("bgkit analyze --output", "batch", ("pandas", "pyarrow"))
    if scheduler:
        require_extra("bgkit analyze --scheduler", "batch", ("distributed",))
        quiet_dask()
    outputs = (json_out, csv_out, html_out)
    if sum(out == "-" for out in outputs) > 1:
        fail("only one of --json, --csv and --html can write to stdout (-)")
    check_targets(outputs, force)
    try:
        season = analyze_season(
            folder, plies, met=met, jobs=jobs, client=scheduler, output=output, progress=progress
        )
    except Exception as err:
        if isinstance(err, (BatchError, BgkitError, OSError)) and not (
            scheduler and from_dask(err)
        ):
            fail(error_line(err))
        if not scheduler:
            raise
        kept = f"; the results so far are kept: rerun with --output {output} to go on"
        fail(  # (a dead scheduler, a lost connection: as bgkit verify says it)
            f"lost the Dask cluster at {scheduler} ({type(err).__name__})"
            + (kept if output else ""),
            EXIT_LOST,
        )
    except KeyboardInterrupt:
        click.echo(_kept(output), err=True)
        raise
    season = season.about(player, aliases)
    matches = season.matches
    if matches.empty:
        fail(f"{folder}: no match record bgkit could analyse in it")
    who = season.subject
    if who is None:
        most = ", ".join(str(n) for n in matches["name"].value_counts().index[:5])
        fail(f"--player {player!r}: nobody of that name in {folder} (most matches: {most})")
    try:
        if json_out:
            doc = {
                "players": season.players.to_dict("records"),
                "matches": matches.to_dict("records"),
                "skipped": season.skipped.to_dict("records"),
            }
            _write(json_out, _json_text(_plain(doc)), force)
        if csv_out:
            _write(csv_out, matches.to_csv(index=False, float_format="%.6g"), force)
        if html_out:
            title = f"A season of matches: {folder}"
            _write(html_out, season.html(title), force)
    except BrokenPipeError:
        raise
    except OSError as err:
        fail(error_line(err))
    if not any(outputs):
        click.echo(_season_text(season, folder, plies))


def _season_text(season: Any, folder: str, plies: int) -> str:
    """The season in the terminal: the player, the opponents, the files not analysed."""
    from bgkit.reports.figures import counted

    me = season.players[season.players["name"] == season.subject].iloc[0]
    who = visible(str(season.subject))  # (names shown escaped: none forges a line)
    played = []  # (a player of money sessions alone has no match record to show)
    if me["matches"] or not me["sessions"]:
        played.append(
            f"{counted(me['matches'], 'match', 'matches')}, won {me['won']},"
            f" lost {me['lost']}, unfinished {me['unfinished']}"
        )
    if me["sessions"]:
        played.append(counted(me["sessions"], "money session"))
    lines = [
        f"{visible(folder)}: {season.analysed()} ({plies}-ply),"
        f" {len(season.skipped)} file(s) not analysed",
        f"{who}: {', '.join(played)}; PR {me['pr']:.1f};"
        f" luck {me['luck_rate_memg']:+.1f} mEMG per roll",
        *_season_results(season),
    ]
    opponents = season.opponents()
    if len(opponents):
        lines.append(f"opponents ({len(opponents)}), most matches first:")
        shown = opponents.head(15)
        shown = shown.assign(opponent=shown["opponent"].map(lambda name: visible(str(name))))
        shown = shown.rename(
            columns={"pr": f"{who}'s PR", "opponent_pr": "their PR", "last": "last match"}
        )
        lines.append(shown.round(1).to_string(index=False, na_rep="n/a"))
        if len(opponents) > 15:
            lines.append(f"... and {len(opponents) - 15} more opponents")
    for row in season.skipped.itertuples(index=False):
        lines.append(visible(f"not analysed: {row.file}: {row.kind}: {row.message}"))
    return "\n".join(lines)


def _season_results(season: Any) -> list[str]:
    """The subject's results with their intervals, the two ratings, the money figures."""
    from bgkit.reports.figures import counted
    from bgkit.season import CONFIDENCE, START_RATING, _interval, _triple

    who = season.subject
    lines = []
    results = season.results()
    results = results[results["name"] == who]
    if len(results):
        row = results.iloc[0]
        narrower = row["narrower"]
        lines.append(
            f"result per match in MWC ({CONFIDENCE:.0%} interval):"
            f" {_interval(*_triple(row, 'result'), ascii=True)}; luck-adjusted"
            f" {_interval(*_triple(row, 'luck_adjusted'), ascii=True)}"
            + (f", {narrower:.0%} narrower" if narrower == narrower else "")
        )
    track = season.rating()
    if len(track):
        lines.append(
            f"FIBS rating from {START_RATING:g} after"
            f" {counted(len(track), 'finished match', 'finished matches')}:"
            f" {track['rating'].iloc[-1]:.0f}; luck-adjusted"
            f" {track['luck_adjusted_rating'].iloc[-1]:.0f}"
        )
    money = season.money()
    money = money[money["name"] == who]
    if len(money):
        row = money.iloc[0]
        ppg = _interval(*_triple(row, "ppg"), percent=False, ascii=True)
        adjusted = _interval(*_triple(row, "luck_adjusted_ppg"), percent=False, ascii=True)
        lines.append(
            f"money: {row['sessions']} session(s), {row['games']} game(s),"
            f" {row['points']:+g} points; per game {ppg}, luck-adjusted {adjusted};"
            f" error rate {row['error_rate_memg']:.1f} mEMG per decision;"
            f" Jacoby rule {row['jacoby']}"
        )
    return lines


def _aliases(pairs: tuple[str, ...]) -> dict[str, str]:
    from bgkit.cli._common import fail

    out = {}
    for pair in pairs:
        other, sep, name = pair.partition("=")
        if not sep or not other.strip() or not name.strip():
            fail(f"--alias {pair!r}: OTHER=NAME, such as llabba2=Llabba")
        out[other.strip()] = name.strip()
    return out


def _kept(output: str | None) -> str:
    """What an interrupted season keeps, and how to go on."""
    if not output:
        return (
            "bgkit: the season was interrupted and nothing is kept: with --output FILE every"
            " match is kept as it is done, and a rerun goes on from there"
        )
    try:
        import pandas as pd

        table = pd.read_parquet(output) if output.endswith(".parquet") else pd.read_csv(output)
        done = f"{table['file'].nunique()} file(s) analysed so far are"
    except Exception:  # (nothing written yet, or unreadable: say it plainly)
        done = "the files analysed so far are"
    return f"bgkit: {done} kept in {output}; rerun the same command to go on from there"


def _plain(value: Any) -> Any:
    """JSON-ready: pandas' missing values as None, NaN as None, numpy numbers as Python's."""
    import math

    import pandas as pd

    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if value is None or value is pd.NA:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _json_text(doc: dict[str, Any]) -> str:
    """``doc`` as JSON, a row a line: each key of ``doc`` on a line of its own, and each
    item of a list (a move, a player, a match) whole on a line of its own.

    The same data as ``json.dumps(doc, indent=1)``, written by :mod:`json`'s C encoder
    (``indent`` takes its Python one): for a 25-point match's analysis, 24 ms against 59
    and 1.77 MB against 2.17.
    """
    encode = json.JSONEncoder(allow_nan=False).encode
    lines = []
    for key, value in doc.items():
        if isinstance(value, list) and value:
            items = ",\n  ".join(encode(item) for item in value)
            lines.append(f" {encode(key)}: [\n  {items}\n ]")
        else:
            lines.append(f" {encode(key)}: {encode(value)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def _write(target: str, text: str, force: bool) -> None:
    if target == "-":
        click.echo(text if text.endswith("\n") else text + "\n", nl=False)
        return
    from bgkit.fileio import write_atomic

    if not text.endswith("\n"):
        text += "\n"
    write_atomic(target, text.encode("utf-8"), force=force)


def _thresholds(text: str) -> tuple[float, float, float]:
    from bgkit.analysis.metrics import skill_thresholds
    from bgkit.cli._common import fail

    try:
        numbers = [float(x) for x in text.split(",")]
    except ValueError:
        numbers = []
    if len(numbers) != 3:
        fail(f"--thresholds {text!r}: three numbers, such as 0.03,0.06,0.12")
    doubtful, bad, very_bad = numbers
    try:
        skill_thresholds(doubtful, bad, very_bad)
    except ValueError as err:
        fail(f"--thresholds {text!r}: {err}")
    return doubtful, bad, very_bad


def moves_csv(result: Analysis) -> str:
    """The per-move table as CSV text (empty cells for missing figures)."""
    from bgkit.analysis.match import MOVE_COLUMNS

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(MOVE_COLUMNS), lineterminator="\n")
    writer.writeheader()
    for row in result.to_dict()["moves"]:
        writer.writerow({k: _csv_cell(row.get(k)) for k in MOVE_COLUMNS})
    return buffer.getvalue()


def _csv_cell(value: Any) -> Any:
    """A CSV cell: empty for a missing figure, a float to 6 significant digits (the
    evaluator's precision, not Python's 17)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return value


def summary(result: Analysis) -> str:
    """A plain-text table of the main figures per player."""
    from bgkit.analysis.metrics import luck_words

    is_match = bool(result.match.length)
    spec: list[tuple[str, Any]] = [
        ("unforced moves", "unforced_moves"),
        ("checker error EMG", ("checker_error_emg", "{:.3f}")),
        ("checker error rate mEMG", ("checker_error_rate_memg", "{:.1f}")),
        ("checker rating", "checker_rating"),
        ("doubtful / bad / very bad", lambda p: f"{p['doubtful']} / {p['bad']} / {p['very_bad']}"),
        (
            "cube decisions (close)",
            lambda p: f"{p['cube_decisions']} ({p['close_cube_decisions']})",
        ),
        ("cube error EMG", ("cube_error_emg", "{:.3f}")),
        ("luck EMG", ("luck_emg", "{:+.3f}")),
        (
            "luck rating",
            lambda p: luck_words(p["luck_rating"]),
        ),
        ("error rate mEMG", ("error_rate_memg", "{:.1f}")),
        ("PR", ("pr", "{:.1f}")),
        ("overall rating", "overall_rating"),
        ("actual result", ("actual_result", "{:+.2%}" if is_match else "{:+.0f}")),
        (
            "luck adjusted result",
            ("luck_adjusted_result", "{:+.2%}" if is_match else "{:+.2f}"),
        ),
    ]
    games = len(result.match.games)
    if not is_match and games:  # money sessions: the figures players quote
        spec += [
            ("points per game", lambda p: f"{p['actual_result'] / games:+.3f}"),
            ("luck adjusted per game", lambda p: f"{p['luck_adjusted_result'] / games:+.3f}"),
        ]
    rows = []
    for label, how in spec:
        cells = []
        for p in result.players_list:
            if callable(how):
                cells.append(how(p))
            elif isinstance(how, tuple):
                cells.append(_cell(p[how[0]], how[1]))
            else:
                cells.append(_cell(p[how], "{}"))
        rows.append((label, *cells))
    names = [visible(str(p["name"])) for p in result.players_list]
    width = max(len(r[0]) for r in rows) + 2
    col = max(12, *(len(n) for n in names), *(len(c) for r in rows for c in r[1:])) + 2
    settings = result.settings
    head = (
        f"{visible(result.match.source_name or 'match')}: {len(result.rows)} actions, "
        f"{settings['description']}, ratings: {settings['rating_scale']} scale\n"
    )
    lines = [head, f"{'':<{width}}{names[0]:>{col}}{names[1]:>{col}}\n"]
    lines += [f"{r[0]:<{width}}{r[1]:>{col}}{r[2]:>{col}}\n" for r in rows]
    lines += _skipped_lines(result.skipped)
    return "".join(lines)


def _size(file: str) -> int | None:
    """The size of ``file`` in bytes, when it is a regular file (``None``: not known
    before it is read; reading it says what is wrong, if anything)."""
    try:
        status = os.stat(file)
    except (OSError, ValueError):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


def _unread_analysis(match: Any, file: str, from_file: bool) -> None:
    """A note on stderr for each line of the record's own analysis that could not be read
    (gnubg's candidate plays beside a move...): the record is analysed without it."""
    for err in match.read_errors:
        if err.record:
            continue
        where = place(visible(err.source_name or match.source_name or file), err.line, err.column)
        why = (
            "that decision's analysis is read without it"
            if from_file
            else "GNU Backgammon analyses the match anew without it"
        )
        click.echo(
            f"{where}: note: {err.message} (a part of the record's own analysis: {why})",
            err=True,
        )


def _skipped_lines(skipped: list[dict[str, Any]]) -> list[str]:
    """One line per roll whose play the record does not give, with what else it stops, and
    one per decision whose analysis in the record is damaged."""
    lines = []
    for entry in skipped:
        if entry["reason"].startswith("the record's analysis"):
            lines.append(
                f"not analysed: game {entry['game']} move {entry['move']} ({entry['name']},"
                f" {entry['dice'] or entry['action']}, line {entry['line']}): {entry['reason']}\n"
            )
            continue
        if not entry["reason"].startswith("the play for"):
            continue
        rest = sum(1 for e in skipped if e["game"] == entry["game"] and e is not entry)
        after = f"; the {rest} action(s) after it are not analysed" if rest else ""
        lines.append(
            f"not analysed: game {entry['game']} move {entry['move']} ({entry['name']},"
            f" {entry['dice']}): {entry['reason']}{after}\n"
        )
    return lines


def _cell(value: Any, fmt: str) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "n/a"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return fmt.format(value)
    return str(value)
