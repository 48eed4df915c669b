"""``bgkit verify``: replay records and report every rule broken, and the notes."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from bgkit.cli._common import (
    EXIT_LOST,
    fail,
    from_dask,
    from_option,
    max_size_option,
    quiet_dask,
    require_extra,
    say,
)
from bgkit.errors import BgkitError, error_line, place
from bgkit.formats import find_records

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = ["verify"]


@click.command(short_help="Replay records and report every rule broken.")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object per issue (JSON Lines)."
)
@click.option("--strict", is_flag=True, help="Stop at the first error.")
@click.option(
    "--quiet", "-q", is_flag=True, help="Hide notes (in --json too): print errors and the summary."
)
@click.option(
    "--jacoby",
    is_flag=True,
    help="The records are scored with the Jacoby rule (a gammon with the cube in the middle"
    " counts 1), as BackgammonGalaxy's single-game sessions are.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Processes to use.  [default: every core when there are more than a few files]",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Run on the Dask cluster at ADDRESS (tcp://host:8786) instead; its workers"
    " need bgkit and must see the files at the same paths.",
)
@click.option(
    "--output",
    "-o",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="Also write every result to FILE (.parquet or .csv); a rerun with the same"
    " FILE skips the files already in it that did not change.",
)
@from_option
@max_size_option
def verify(
    paths: tuple[str, ...],
    as_json: bool,
    strict: bool,
    quiet: bool,
    jacoby: bool,
    jobs: int | None,
    scheduler: str | None,
    output: str | None,
    from_: str | None,
    max_size: int | None,
) -> None:
    """Replay every record in PATHS (files or folders; - reads one from stdin) and
    report every rule broken.

    Each issue goes to stderr as 'file:line:col: error: message' (a rule broken) or
    'file:line:col: note: message' (a fact worth knowing: a resignation, a forfeit, an
    unfinished match, a writer's convention), file after file in the order given; with
    --json, one JSON object per issue and per unreadable file goes to stdout, each with
    file, line, column, game, move, player, kind, severity and message.

    Exit code: 0 when no record breaks a rule (notes allowed), 1 when errors were found,
    2 when a file could not be read or parsed, 3 when bgkit itself failed on a file
    (a bug: please report it), 4 when bgkit could not finish (the Dask cluster was
    lost; the results so far stay in --output), 130 when interrupted.
    """
    import contextlib
    import functools

    from bgkit import batch
    from bgkit.batch.run import _stream
    from bgkit.verify import Severity

    if output:
        require_extra("bgkit verify --output", "batch", ("pandas", "pyarrow"))
    if scheduler:
        require_extra("bgkit verify --scheduler", "batch", ("distributed",))
        quiet_dask()
    if "-" in paths:
        if len(paths) > 1 or scheduler or output:
            fail("- (stdin) is read alone: no other paths, --scheduler or --output with it")
        files, skipped, jobs = [Path("-")], list[Path](), 1
    else:
        files, skipped = find_records(paths)
    if not files:
        fail("no record files found in " + ", ".join(paths))
    if strict and output:
        fail("--strict stops at the first issue, so it cannot fill --output: use one of them")
    clean = with_errors = unreadable = crashed = games = actions = n_errors = n_notes = 0
    show_bar = sys.stderr.isatty() and len(files) > 1 and not as_json
    bar: tqdm[Any] | batch.NullBar = batch.NullBar()
    if show_bar:
        from tqdm import tqdm  # (loaded only to show the bar)

        bar = tqdm(total=len(files), unit="file", leave=False)
    func: Callable[[Path], list[dict[str, Any]]] = batch.verify_rows
    if strict or jacoby or max_size is not None or from_ is not None:
        func = functools.partial(
            batch.verify_rows, strict=strict, jacoby=jacoby, max_size=max_size, format=from_
        )

    def tell(line: str) -> None:
        bar.clear()
        say(line)  # (one line: a name or file name cannot forge another)

    done = reused = 0
    try:
        # (batch.stream_files less its search for the files, made above)
        results = _stream(
            func, files, jobs=jobs, client=scheduler, output=output, columns=batch.VERIFY_COLUMNS
        )
        with contextlib.closing(results):
            for result in results:
                done += 1
                reused += result.reused
                bar.update(1)
                if result.kind is not None:
                    unreadable += 1
                    crashed += result.kind == batch.INTERNAL_ERROR
                    row = result.rows[0]
                    if as_json:
                        click.echo(json.dumps(_unreadable_json(result.file, row)))
                    else:
                        tell(_labelled(result.file, row))
                    if strict:
                        break
                    continue
                first = result.rows[0]
                games += first["games"]
                actions += first["actions"]
                for issue in batch.issues_from_rows(result.rows):
                    is_note = issue.severity is Severity.NOTE
                    n_notes += is_note
                    n_errors += not is_note
                    if quiet and is_note:
                        continue
                    if as_json:
                        data = issue.to_dict()
                        del data["player_index"]
                        click.echo(json.dumps(data, ensure_ascii=False))
                    else:
                        tell(str(issue))
                if first["ok"]:
                    clean += 1
                else:
                    with_errors += 1
                    if strict:
                        break
    except BrokenPipeError:
        raise
    except Exception as err:
        # a closed comm to a Dask cluster is an OSError too: the cluster went away
        if isinstance(err, (BgkitError, OSError)) and not (scheduler and _from_dask(err)):
            bar.close()
            fail(error_line(err))
        if not scheduler:
            raise
        bar.close()  # the cluster went away (a dead scheduler, a lost connection)
        kept = (
            f"; the results so far are kept: rerun with --output {output} to go on"
            if output
            else ""
        )
        fail(
            f"lost the Dask cluster at {scheduler} after {done} of {len(files)} file(s)"
            f" ({type(err).__name__}){kept}",
            EXIT_LOST,
        )
    bar.close()
    n = len(files)
    summary = (
        f"{n} file(s), {games} game(s), {actions} action(s) checked: {clean} clean,"
        f" {with_errors} with errors, {unreadable} unreadable; {n_errors} error(s),"
        f" {n_notes} note(s)"
    )
    unchecked = n - clean - with_errors - unreadable
    if unchecked:
        summary += f"; {unchecked} not checked (--strict stopped at the first error)"
    if reused:
        summary += (
            f"; {reused} of the files were done before and are unchanged: their results"
            f" come from {output}, {done - reused} checked now"
        )
    if skipped:
        summary += f" ({len(skipped)} .txt file(s) that are not match records skipped)"
    if not as_json:
        click.echo(summary, err=True)
    if crashed:
        sys.exit(3)
    if unreadable:
        sys.exit(2)
    if with_errors:
        sys.exit(1)


def _reason(file: str, row: dict[str, Any]) -> tuple[str, str]:
    """An unreadable file's ``file:line:col`` and the reason alone, split apart."""
    message = str(row["message"])
    line, column = row.get("line"), row.get("column")
    where = place(file, line, column)
    for prefix in (where, place("<stdin>", line, column)):
        if message.startswith(f"{prefix}: "):  # (stdin's reader names it <stdin>)
            return where, message[len(prefix) + 2 :]
    return where, message


def _labelled(file: str, row: dict[str, Any]) -> str:
    """An unreadable file's line labelled as compilers do: ``file:line:col: error: ...``."""
    where, reason = _reason(file, row)
    label = "" if reason.startswith("internal error: ") else "error: "  # a bug in bgkit
    return f"{where}: {label}{reason}"


def _unreadable_json(file: str, row: dict[str, Any]) -> dict[str, Any]:
    """The JSON line of a file that could not be read: the shape of an issue's."""
    return {
        "file": file,
        "line": row.get("line"),
        "column": row.get("column"),
        "game": None,
        "move": None,
        "player": None,
        "kind": row["kind"],
        "severity": "error",
        "message": _reason(file, row)[1],
    }


_from_dask = from_dask  # (its name before it moved to bgkit.cli._common)
