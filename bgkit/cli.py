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

from bgkit.errors import BgkitError, NotationError
from bgkit.position import Position

__all__ = ["main"]

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``bgkit: message`` on stderr and exit with ``code``."""
    click.echo(f"bgkit: {message}", err=True)
    sys.exit(code)


def error_line(err: BgkitError | OSError, *, source: str | None = None) -> str:
    """One line for an error: ``file:line:col: reason`` or ``source: reason``."""
    if isinstance(err, NotationError):
        if source and not err.source_name:
            err = err.with_source_name(source)
        return err.one_line()
    if isinstance(err, OSError):
        where = err.filename if err.filename else source
        reason = err.strerror or str(err)
        return f"{where}: {reason}" if where else reason
    text = str(err).splitlines()[0] if str(err) else type(err).__name__
    return f"{source}: {text}" if source else text


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


RECORD_SUFFIXES = (".mat", ".txt")
"""File endings ``bgkit verify`` picks up when it walks a folder."""


def record_paths(paths: tuple[str, ...]) -> list[Path]:
    """The files named, and the record files inside the folders named (recursively, sorted)."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file() and p.suffix.lower() in RECORD_SUFFIXES
                )
            )
        else:
            found.append(path)
    return found


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object per issue (JSON Lines)."
)
@click.option("--strict", is_flag=True, help="Stop at the first issue.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary line.")
def verify(paths: tuple[str, ...], as_json: bool, strict: bool, quiet: bool) -> None:
    """Replay every record in PATHS (files or folders) and report every rule broken.

    Issues go to stderr as ``file:line:col: message`` (or to stdout as JSON Lines
    with --json). Exit code: 0 when every record is clean, 1 when issues were
    found, 2 when a file could not be read or parsed.
    """
    from bgkit.formats import read_match
    from bgkit.verify import verify as verify_match

    files = record_paths(paths)
    if not files:
        fail("no record files found in " + ", ".join(paths))
    errors = unreadable = clean = games = actions = 0
    show_bar = sys.stderr.isatty() and len(files) > 1 and not as_json
    bar = tqdm(files, unit="file", disable=not show_bar, leave=False)
    for path in bar:
        try:
            match = read_match(path)
        except (BgkitError, OSError) as err:
            unreadable += 1
            line = error_line(err, source=str(path))
            if as_json:
                click.echo(json.dumps({"file": str(path), "kind": "unreadable", "message": line}))
            else:
                bar.clear()
                click.echo(line, err=True)
            if strict:
                break
            continue
        report = verify_match(match, stop_at_first=strict)
        games += report.games
        actions += report.actions_checked
        for issue in report.issues:
            if as_json:
                click.echo(json.dumps(issue.to_dict(), ensure_ascii=False))
            elif not quiet:
                bar.clear()
                click.echo(str(issue), err=True)
        if report.ok:
            clean += 1
        else:
            errors += 1
            if strict:
                break
    bar.close()
    n = len(files)
    summary = (
        f"{n} file(s), {games} game(s), {actions} action(s) checked:"
        f" {clean} clean, {errors} with issues, {unreadable} unreadable"
    )
    if not as_json:
        click.echo(summary, err=True)
    if unreadable:
        sys.exit(2)
    if errors:
        sys.exit(1)


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
