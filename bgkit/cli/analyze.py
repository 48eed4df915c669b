"""``bgkit analyze``: analyse a match record with GNU Backgammon's evaluator.

The command object :data:`analyze` is registered in :mod:`bgkit.cli`. It prints a
per-player summary, or writes the analysis as JSON (``--json``: match, settings,
players, games and moves) and the per-move table as CSV (``--csv``); ``-`` is stdout.
Files are written atomically and never over an existing file without ``--force``.
Failures end with one line ``bgkit: file:line:col: reason`` on stderr and exit code 2.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(analyze, ["data/fixtures/handwritten_3pt.mat", "--jobs", "1"])
>>> result.exit_code, "checker error" in result.output
(0, True)
"""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from bgkit.cli._common import candidates_option, max_size_option, met_option
from bgkit.errors import EngineCrashError, visible

if TYPE_CHECKING:
    from bgkit.analysis import Analysis

__all__ = ["analyze"]


#: gnubg's named analysis strengths that are a depth with its default move filters.
STRENGTHS = {"expert": 0, "world-class": 2, "grandmaster": 3}


@click.command("analyze", short_help="Analyse a match, or a season of them, with GNU Backgammon.")
@click.argument("file")
@click.option(
    "--plies",
    "-p",
    type=click.IntRange(0, 4),
    default=0,
    show_default=True,
    help="Search depth for checker play and cube (0 = static; gnubg's default analysis is 2).",
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
    "--jobs", "-j", type=click.IntRange(1), default=None, help="Processes (default: cores)."
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
@click.option("--force", is_flag=True, help="Overwrite existing output files.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar.  [default: when stderr is a terminal]",
)
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
    thresholds: str | None,
    use_file_analysis: bool,
    jobs: int | None,
    scheduler: str | None,
    output: str | None,
    rating_scale: str,
    force: bool,
    progress: bool | None,
    max_size: int | None,
) -> None:
    """Analyse every play, cube decision and roll of the match record FILE (- reads stdin).

    Errors, luck and ratings are GNU Backgammon's (cubeful, normalised as gnubg
    does: EMG and MWC). Without --json, --csv, --html or --sgf a summary per player
    is printed; OUT - writes to stdout. Exit code: 0 done, 2 bad input or a record
    that does not replay, 130 interrupted.

    FILE may be a folder: every record in it is analysed as a season of matches, on
    every core (--jobs) or a Dask cluster (--scheduler), resumable with --output. It
    prints the players over the season; --html writes the season's report (form, PR
    against luck, errors by game phase, the costliest plays, every match), --csv one row
    per player and match, --json the players and the matches.
    """
    from bgkit.cli._common import fail, require_extra, stdin
    from bgkit.errors import BgkitError, error_line
    from bgkit.formats import read_match
    from bgkit.limits import active

    if not use_file_analysis:
        require_extra("bgkit analyze", "analysis")
    if Path(file).is_dir():
        if sgf_out or use_file_analysis or given("candidates"):
            fail("a folder is analysed as a season: --sgf, --candidates and"
                 " --use-file-analysis are for one match")  # fmt: skip
        _season(file, plies if strength is None else STRENGTHS[strength], met, jobs, scheduler,
                output, json_out, csv_out, html_out, force, progress)  # fmt: skip
        return
    if use_file_analysis and given("met"):
        fail("--met is for GNU Backgammon's analysis; the record's own used its analyser's")
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
    for out in outputs:
        if out and out != "-" and Path(out).exists() and not force:
            fail(f"{out} exists; use --force to overwrite it")
    limits = active().with_max_size(max_size)
    try:
        match = read_match(stdin() if file == "-" else Path(file), limits=limits)
    except (BgkitError, OSError) as err:
        fail(error_line(err, source=file))
    try:
        from bgkit.analysis import analysis_from_file
        from bgkit.analysis import analyze as run_analysis

        scale: Literal["current", "legacy"] = "legacy" if rating_scale == "legacy" else "current"
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
            )
    except BgkitError as err:
        fail(str(err).splitlines()[0], 3 if isinstance(err, EngineCrashError) else 2)
    except ImportError as err:
        fail(f"analysis needs GNU Backgammon: pip install 'bgkit[analysis]' ({err})")
    try:
        if json_out:
            _write(json_out, json.dumps(result.to_dict(), indent=1, allow_nan=False), force)
        if csv_out:
            _write(csv_out, moves_csv(result), force)
        if html_out:
            from bgkit.html_report import html_report

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
    for out in outputs:
        if out and out != "-" and Path(out).exists() and not force:
            fail(f"{out} exists; use --force to overwrite it")
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
    matches = season.matches
    if matches.empty:
        fail(f"{folder}: no match record bgkit could analyse in it")
    try:
        if json_out:
            doc = {
                "players": season.players.to_dict("records"),
                "matches": matches.to_dict("records"),
                "skipped": season.skipped.to_dict("records"),
            }
            _write(json_out, json.dumps(_plain(doc), indent=1, allow_nan=False), force)
        if csv_out:
            _write(csv_out, matches.to_csv(index=False), force)
        if html_out:
            title = f"A season of matches: {folder}"
            _write(html_out, season.html(title), force)
    except BrokenPipeError:
        raise
    except OSError as err:
        fail(error_line(err))
    if not any(outputs):
        players = season.players.head(20)
        shown = players[["name", "matches", "won", "lost", "pr", "luck_rate_memg"]].round(2)
        shown = shown.assign(name=shown["name"].map(lambda name: visible(str(name))))
        head = (
            f"{visible(folder)}: {matches['file'].nunique()} matches analysed ({plies}-ply),"
            f" {len(season.skipped)} file(s) not analysed\n"
        )
        click.echo(head + shown.to_string(index=False, na_rep="n/a"))


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


def _write(target: str, text: str, force: bool) -> None:
    if target == "-":
        click.echo(text if text.endswith("\n") else text + "\n", nl=False)
        return
    from bgkit.fileio import write_atomic

    if not text.endswith("\n"):
        text += "\n"
    write_atomic(target, text.encode("utf-8"), force=force)


def _thresholds(text: str) -> tuple[float, float, float]:
    from bgkit.cli._common import fail
    from bgkit.metrics import skill_thresholds

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
    from bgkit.analysis import MOVE_COLUMNS

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(MOVE_COLUMNS), lineterminator="\n")
    writer.writeheader()
    for row in result.to_dict()["moves"]:
        writer.writerow({k: "" if row.get(k) is None else row[k] for k in MOVE_COLUMNS})
    return buffer.getvalue()


def summary(result: Analysis) -> str:
    """A plain-text table of the main figures per player."""
    from bgkit.metrics import luck_words

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
    return "".join(lines)


def _cell(value: Any, fmt: str) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "n/a"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return fmt.format(value)
    return str(value)
