"""The ``bgkit`` command line (also ``python -m bgkit``).

Every failure the user can cause (a bad ID, a missing file, a broken record)
ends with one line ``place: reason`` on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from tqdm import tqdm

from bgkit.errors import BgkitError, NotationError, error_line
from bgkit.formats import find_records
from bgkit.position import Position

__all__ = ["main"]

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``bgkit: message`` on stderr and exit with ``code``."""
    click.echo(f"bgkit: {message}", err=True)
    sys.exit(code)


def parse_dice(text: str) -> tuple[int, int]:
    """``"31"``, ``"3-1"``, ``"3 1"`` or ``"3,1"`` -> ``(3, 1)``.

    :raises NotationError: when the text is not two dice 1-6.
    """
    digits = [c for c in text if not c.isspace() and c not in "-,:"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise NotationError(f"dice must be two digits 1-6: {text!r}", text, 0)
    return (int(digits[0]), int(digits[1]))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bgkit")
def main() -> None:
    """bgkit: read, verify, convert and analyse backgammon records and positions."""


@main.command()
@click.argument("notation")
def show(notation: str) -> None:
    """Show a position: board, pip counts and every notation.

    NOTATION is an XGID, a GNU Backgammon Position ID (optionally ':' Match ID)
    or a FIBS board: string.
    """
    pos = _position(notation)
    click.echo(str(pos))
    click.echo(f"FIBS: {pos.fibs()}")


@main.command()
@click.argument("notation")
@click.argument("dice", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def moves(notation: str, dice: str | None, as_json: bool) -> None:
    """List every legal play for DICE (e.g. 31) in the position NOTATION.

    Without DICE, the dice of the position are used. Plays are listed from the
    point of view of the player on roll, one per distinct resulting position.
    """
    pos = _position(notation)
    try:
        d1, d2 = parse_dice(dice) if dice else _rolled(pos)
    except BgkitError as err:
        fail(error_line(err, source="dice"))
    results = pos.legal_results(d1, d2)
    rolled = pos.with_dice(d1, d2)
    rows = []
    for play in results.values():
        after = rolled.apply(play)
        rows.append({"play": str(play), "steps": [str(s) for s in play], "xgid": after.xgid()})
    if as_json:
        out = {"position": pos.xgid(), "dice": [d1, d2], "count": len(rows), "plays": rows}
        click.echo(json.dumps(out, indent=2))
        return
    if not rows:
        click.echo(f"no legal play for {d1}{d2}: the player on roll cannot move")
        return
    for row in rows:
        click.echo(str(row["play"]))


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object per issue (JSON Lines)."
)
@click.option("--strict", is_flag=True, help="Stop at the first error.")
@click.option("--quiet", "-q", is_flag=True, help="Hide notes: print errors and the summary.")
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
    help="Processes to use (default: every core when there are more than a few files).",
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
def verify(
    paths: tuple[str, ...],
    as_json: bool,
    strict: bool,
    quiet: bool,
    jacoby: bool,
    jobs: int | None,
    scheduler: str | None,
    output: str | None,
) -> None:
    """Replay every record in PATHS (files or folders) and report every rule broken.

    Each issue goes to stderr as 'file:line:col: error: message' (a rule broken) or
    'file:line:col: note: message' (a fact worth knowing: a resignation, a forfeit, an
    unfinished match, a writer's convention), file after file in the order given; with
    --json, one JSON object per issue and per unreadable file goes to stdout, each with
    file, line, column, game, move, player, kind, severity and message.

    Exit code: 0 when no record breaks a rule (notes allowed), 1 when errors were found,
    2 when a file could not be read or parsed, 3 when bgkit itself failed on a file
    (a bug: please report it).
    """
    import contextlib
    import functools

    from bgkit import batch
    from bgkit.verify import Severity

    files, skipped = find_records(paths)
    if not files:
        fail("no record files found in " + ", ".join(paths))
    if strict and output:
        fail("--strict stops at the first issue, so it cannot fill --output: use one of them")
    clean = with_errors = unreadable = crashed = games = actions = n_errors = n_notes = 0
    show_bar = sys.stderr.isatty() and len(files) > 1 and not as_json
    bar = tqdm(total=len(files), unit="file", disable=not show_bar, leave=False)
    func: Callable[[Path], list[dict[str, Any]]] = batch.verify_rows
    if strict or jacoby:
        func = functools.partial(batch.verify_rows, strict=strict, jacoby=jacoby)

    def say(line: str) -> None:
        bar.clear()
        click.echo(line, err=True)

    try:
        results = batch.stream_files(
            func, files, jobs=jobs, client=scheduler, output=output, columns=batch.VERIFY_COLUMNS
        )
        with contextlib.closing(results):
            for result in results:
                bar.update(1)
                if result.kind is not None:
                    unreadable += 1
                    crashed += result.kind == batch.INTERNAL_ERROR
                    row = result.rows[0]
                    if as_json:
                        click.echo(json.dumps(_unreadable_json(result.file, row)))
                    else:
                        say(row["message"])
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
                    if as_json:
                        data = issue.to_dict()
                        del data["player_index"]
                        click.echo(json.dumps(data, ensure_ascii=False))
                    elif not (quiet and is_note):
                        say(str(issue))
                if first["ok"]:
                    clean += 1
                else:
                    with_errors += 1
                    if strict:
                        break
    except (BgkitError, OSError) as err:
        bar.close()
        fail(error_line(err))
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
        "message": row["message"],
    }


WRITERS: dict[str, tuple[str, str]] = {
    "mat": ("bgkit.formats.mat", "write_mat"),
    "sgf": ("bgkit.formats.sgf", "write_sgf"),
    "json": ("bgkit.formats.json_record", "write_json"),
}
"""Formats ``bgkit convert`` writes: name -> (module, writer function)."""

OUT_SUFFIXES = {".mat": "mat", ".txt": "mat", ".sgf": "sgf", ".json": "json"}


@main.command()
@click.argument("source", type=click.Path(dir_okay=False))
@click.argument("target", type=click.Path(dir_okay=False))
@click.option("--from", "from_", metavar="FORMAT", help="Format of SOURCE (default: detected).")
@click.option(
    "--to",
    type=click.Choice(sorted(WRITERS)),
    help="Format of TARGET (default: from its extension).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Overwrite TARGET, and convert even a record that fails verification.",
)
def convert(source: str, target: str, from_: str | None, to: str | None, force: bool) -> None:
    """Convert the match record SOURCE to TARGET (.mat, .sgf or .json).

    The record is verified first: one that breaks the rules is converted only with
    --force (and a warning). TARGET is never overwritten without --force, and is
    written atomically: a failure leaves no half-written file.
    """
    import importlib

    from bgkit.formats import FORMATS, read_match
    from bgkit.verify import verify as verify_match

    out_format = to or OUT_SUFFIXES.get(Path(target).suffix.lower())
    if out_format is None:
        fail(f"{target}: cannot tell the output format from the extension; use --to")
    if Path(target).exists() and not force:
        fail(f"{target}: exists; use --force to overwrite it")
    try:
        if from_ is None:
            match = read_match(source)
        else:
            fmt = next((f for f in FORMATS if f.name == from_), None)
            if fmt is None:
                known = ", ".join(f.name for f in FORMATS)
                fail(f"--from {from_}: unknown format (known: {known})")
            match = fmt.parse_bytes(Path(source).read_bytes(), source_name=source)
    except (BgkitError, OSError) as err:
        fail(error_line(err, source=source))
    report = verify_match(match)
    if not report.ok:
        first = report.errors[0]
        count = len(report.errors)
        if not force:
            fail(
                f"{first}\n{source}: {count} issue(s); not converted (use --force to convert"
                " a record that fails verification)",
                1,
            )
        click.echo(f"warning: {first}", err=True)
        click.echo(f"warning: {source}: {count} issue(s); converting anyway (--force)", err=True)
    module, function = WRITERS[out_format]
    writer = getattr(importlib.import_module(module), function)
    try:
        writer(match, target, force=force)
    except (BgkitError, OSError, ValueError) as err:
        fail(
            error_line(err, source=target)
            if isinstance(err, BgkitError | OSError)
            else f"{target}: {err}"
        )
    click.echo(f"{source} -> {target}: {len(match.games)} game(s) as {out_format}", err=True)


def _register_analyze() -> None:
    # the command objects import nothing heavy; gnubg and pandas load when they run
    from bgkit.analysis_cli import analyze
    from bgkit.hint_cli import hint

    main.add_command(analyze)
    main.add_command(hint)


_register_analyze()


def _rolled(pos: Position) -> tuple[int, int]:
    if pos.dice is None:
        fail("no dice given and the position has none: add DICE, e.g. 'bgkit moves ID 31'")
    return pos.dice


def _position(notation: str) -> Position:
    try:
        return Position.parse(notation)
    except BgkitError as err:
        fail(error_line(err, source="position"))


if __name__ == "__main__":  # pragma: no cover
    main()
