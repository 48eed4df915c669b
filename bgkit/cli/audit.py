"""``bgkit audit``: what a tournament director checks in a submission, in one command."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from bgkit.cli._common import (
    EXIT_LOST,
    check_targets,
    fail,
    from_option,
    max_size_option,
    require_extra,
)
from bgkit.cli.analyze import _write as write_out
from bgkit.cli.verify import _from_dask, verify
from bgkit.errors import BgkitError, error_line

__all__ = ["audit"]


@click.command(short_help="Check a submission: rules, duplicates, names, analysis, dice.")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--require-level",
    metavar="LEVEL",
    help="Report analysed decisions below LEVEL: gnubg's plies ('2-ply'), XG's"
    " ('xg:3-ply', 'XG Roller', 'Roller+', 'Roller++') or 'rollout'.",
)
@click.option(
    "--players",
    "roster",
    metavar="ROSTER.csv",
    type=click.Path(dir_okay=False),
    help="The players of the event (a 'name' column, else the first; more columns are"
    " other spellings): a name not on it is reported, with the nearest suggested.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.001,
    show_default=True,
    help="The chance that fair dice get any dice finding in the whole submission: each"
    " test is flagged when its p-value is below ALPHA / the number of tests.",
)
@click.option(
    "--luck",
    is_flag=True,
    help="Also the luck (EMG and z-score), PR and engine's first choices per player and"
    " match, with GNU Backgammon at 0-ply (the analysis extra): figures, never flags.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object per finding (JSON Lines)."
)
@click.option(
    "--csv", "csv_out", metavar="OUT", help="Write the findings as CSV to OUT (- stdout)."
)
@click.option("--html", "html_out", metavar="OUT", help="Write the event's page to OUT (- stdout).")
@click.option("--quiet", "-q", is_flag=True, help="Hide notes: print errors, warnings, summary.")
@click.option("--force", is_flag=True, help="Overwrite the --csv and --html files.")
@max_size_option
@from_option
def audit(
    paths: tuple[str, ...],
    require_level: str | None,
    roster: str | None,
    alpha: float,
    luck: bool,
    as_json: bool,
    csv_out: str | None,
    html_out: str | None,
    quiet: bool,
    jobs: int | None,
    scheduler: str | None,
    output: str | None,
    force: bool,
    max_size: int | None,
    from_: str | None,
) -> None:
    """Audit every record in PATHS (files and folders, any format bgkit reads), file by
    file and as one submission.

    Findings: everything `bgkit verify` reports; `duplicate` (the same match twice, in
    any formats, players swapped, or one file's games inside another's; `same_as` names
    the other file); `players` (a game's names differ from the header's; with --players,
    a name not on the roster); `analysis-missing` and `analysis-level` (files carrying
    an engine's analysis: .xg, gnubg SGF and text exports), `transcribed` and
    `xg-invalid` (XG's own fields); `dice` (a player's rolls in a match or over the
    submission unlikely with fair dice; with `p_value`).

    Each finding goes to stderr as 'file:line:col: error|warning|note: message'; with
    --json one JSON object per finding goes to stdout (file, line, column, game, move,
    player, kind, severity, message, same_as, p_value).

    Exit code: 0 nothing to report (notes allowed), 1 findings (errors or warnings),
    2 a file could not be read, 3 bgkit failed on a file (a bug), 4 the Dask cluster
    was lost (the results so far stay in --output), 130 interrupted.
    """
    require_extra("bgkit audit", "reports", ("pandas",))
    if output:
        require_extra("bgkit audit --output", "batch", ("pandas", "pyarrow"))
    if scheduler:
        require_extra("bgkit audit --scheduler", "batch", ("distributed",))
    if luck:
        require_extra("bgkit audit --luck", "analysis", ("gnubg",))
    from pathlib import Path

    from bgkit.audit import audit as run_audit
    from bgkit.audit import audit_files, finding_text, level_rank

    if require_level is not None:
        try:
            level_rank(require_level)
        except ValueError as err:
            fail(f"--require-level: {err}")
    if roster is not None and not Path(roster).is_file():
        fail(f"{roster}: no such roster file")
    check_targets((csv_out, html_out), force)
    if "-" in paths:
        fail("audit reads files and folders, not stdin (-): save the record to a file")
    if not audit_files(list(paths)):
        fail("no record files found in " + ", ".join(paths))
    try:
        result = run_audit(
            list(paths),
            require_level=require_level,
            players=roster,
            alpha=alpha,
            luck=luck,
            jobs=jobs,
            client=scheduler,
            output=output,
            progress=sys.stderr.isatty() and not as_json,
            max_size=max_size,
            format=from_,
        )
    except BrokenPipeError:
        raise
    except Exception as err:
        if isinstance(err, (BgkitError, OSError)) and not _from_dask(err):
            fail(error_line(err))
        if isinstance(err, ValueError):
            fail(str(err).splitlines()[0])
        if not scheduler:
            raise
        kept = f"; rerun with --output {output} to go on" if output else ""
        fail(f"lost the Dask cluster at {scheduler} ({type(err).__name__}){kept}", EXIT_LOST)
    rows = result.findings.to_dict("records")
    for row in rows:
        if quiet and row["severity"] == "note":
            continue
        if as_json:
            click.echo(json.dumps(_json(row), ensure_ascii=False))
        else:
            click.echo(finding_text(row), err=True)
    try:
        if csv_out:
            write_out(csv_out, result.findings.to_csv(index=False), force)
        if html_out:
            write_out(html_out, result.to_html(), force)
    except OSError as err:
        fail(error_line(err))
    files = result.files
    severities = [row["severity"] for row in rows]
    verdicts = files["verdict"].value_counts().to_dict()
    summary = (
        f"{len(files)} file(s), {int(files['games'].fillna(0).sum())} game(s):"
        f" {verdicts.get('clean', 0) + verdicts.get('notes', 0)} without findings,"
        f" {verdicts.get('findings', 0) + verdicts.get('errors', 0)} with findings,"
        f" {verdicts.get('unreadable', 0)} unreadable; {severities.count('error')} error(s),"
        f" {severities.count('warning')} warning(s), {severities.count('note')} note(s);"
        f" {result.tests} dice test(s) at alpha {alpha:g}"
    )
    if not as_json:
        click.echo(summary, err=True)
    kinds = set(result.findings["kind"].dropna())
    if "internal-error" in kinds:
        sys.exit(3)
    if "unreadable" in kinds:
        sys.exit(2)
    if not result.ok:
        sys.exit(1)


def _json(row: dict[str, Any]) -> dict[str, Any]:
    """A finding as ``bgkit verify --json`` writes an issue, with ``same_as`` and ``p_value``."""
    from bgkit.audit import FINDING_COLUMNS, given

    out: dict[str, Any] = {}
    for key in FINDING_COLUMNS:
        value: Any = row.get(key)
        out[key] = (value.item() if hasattr(value, "item") else value) if given(value) else None
    return out


# --jobs, --scheduler and --output are verify's own options, before --max-size
audit.params[-1:-1] = [p for p in verify.params if p.name in ("jobs", "scheduler", "output")]
