"""``bgkit show`` and ``bgkit moves``: one position, from a notation or a position export."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bgkit.cli._common import fail, parse_dice, position_from_option, stdin
from bgkit.errors import BgkitError, NotationError, error_line
from bgkit.position import Position

if TYPE_CHECKING:
    from bgkit.formats.annotations import PositionExport

__all__ = ["moves", "positions_as", "show"]


@click.command(short_help="Show positions: board, pips, every notation.")
@click.argument("positions", nargs=-1, required=True, metavar="NOTATION|FILE...")
@position_from_option
def show(positions: tuple[str, ...], from_: str | None = None) -> None:
    """Show positions: the board, pip counts and every notation.

    Each argument is an XGID, a GNU Backgammon Position ID (optionally ':' and a Match
    ID, or both IDs as gnubg shows them: 'Position ID: ... Match ID: ...'), a FIBS board:
    line, or a position export file (eXtreme Gammon, BGBlitz or GNU Backgammon text, or an
    eXtreme Gammon position file, .xgp), whose positions are all shown, with the players'
    names when the input gives them; - reads a notation or a text export from stdin. The
    format is told by the text, or given by --from. An argument that is neither (or not
    the --from format) gets one line on stderr, and the others are still shown (exit
    code 2).
    """
    from bgkit.ascii_board import render

    shown = failed = 0
    for number, argument in enumerate(positions, 1):
        try:
            if from_ is None:
                found = _named_positions(argument)
            else:
                found = [(pos, names) for pos, names, _ in positions_as(argument, from_)]
        except (BgkitError, OSError) as err:
            failed += 1
            click.echo(f"bgkit: {_error_line(err, argument, number, from_)}", err=True)
            continue
        for pos, names in found:
            if shown:
                click.echo()
            shown += 1
            click.echo(render(pos) if names is None else render(pos, names=names))
            click.echo(f"FIBS: {pos.fibs()}")
    if failed:
        sys.exit(2)


def _named_positions(argument: str) -> list[tuple[Position, tuple[str, str] | None]]:
    """The positions an argument names, each with the players' names when it gives them
    (a position export, a FIBS board: line)."""
    from bgkit.formats.positions import positions_from, read_exports

    if argument == "-":
        return _stdin_positions()
    if "\n" not in argument and Path(argument).is_file():
        return [(export.position, export.names) for export in read_exports(argument)]
    (pos,) = positions_from(argument)
    return [(pos, _fibs_names(argument))]


def _fibs_names(text: str) -> tuple[str, str] | None:
    """The players' names of a FIBS board: line (``None`` for another notation)."""
    if not text.lstrip().lower().startswith("board:"):
        return None
    fields = text.strip().split(":")
    return (fields[2], fields[1])  # FIBS: "player" is player 1 (X), as in gnubg


def positions_as(
    argument: str, fmt: str
) -> list[tuple[Position, tuple[str, str] | None, PositionExport | None]]:
    """The positions of ``argument`` read as the position format ``fmt`` (``--from``), each
    with the players' names when the input gives them and the export it comes from (a
    position export's, with its analysis). A notation is the argument itself, or the text
    of the file it names, or of stdin for ``-``; an export is the file, or stdin for ``-``.
    """
    from bgkit.formats import decode_bytes, read_file, source_data
    from bgkit.formats.positions import NOTATION_FORMATS, exports_as, notation_as

    name = None if argument == "-" else argument
    data: bytes | None = None
    if argument == "-":
        raw, _ = source_data(stdin())
        data = raw if isinstance(raw, bytes) else raw.encode("utf-8")
    elif "\n" not in argument and Path(argument).is_file():
        data = read_file(argument)
    if fmt in NOTATION_FORMATS:
        text = argument if data is None else decode_bytes(data, source_name=name).rstrip()
        try:
            pos = notation_as(text, fmt)
        except NotationError as err:
            if name is None or data is None:
                raise
            raise err.with_source_name(name) from None
        return [(pos, _fibs_names(text), None)]
    if data is None:
        data = read_file(argument)  # (no such file: its error)
    return [(e.position, e.names, e) for e in exports_as(data, fmt, name or "-")]


_FILE_SUFFIXES = (".txt", ".xgp", ".TXT", ".XGP")
"""Endings that name a file, not a notation (a GNU ID has no full stop)."""


def _error_line(
    err: BgkitError | OSError, argument: str, number: int, fmt: str | None = None
) -> str:
    """The error's line, a notation named by its place among the arguments (not printed
    as if it were a file name): ``<argument 2>:1:39: XGID dice must be...``."""
    if argument == "-" or ("\n" not in argument and Path(argument).exists()):
        return error_line(err, source=argument)
    if fmt is not None and isinstance(err, OSError):  # (--from an export: it names a file)
        return error_line(err, source=argument)
    looks_like_notation = argument.strip().lower().startswith(("xgid=", "board:"))
    named_file = "/" in argument or Path(argument).suffix in _FILE_SUFFIXES
    if fmt is None and not looks_like_notation and named_file:
        return f"{argument}: no such file (and not a position notation)"
    if isinstance(err, NotationError) and err.source_name in (None, argument):
        err = err.with_source_name(f"<argument {number}>")
    return error_line(err, source=f"<argument {number}>")


def _stdin_positions() -> list[tuple[Position, tuple[str, str] | None]]:
    """The positions on stdin: a notation, or an export's text."""
    from bgkit.formats import decode_bytes, source_data
    from bgkit.formats.positions import parse_exports

    data, _ = source_data(stdin())
    text = decode_bytes(data) if isinstance(data, bytes) else data
    if len(text.strip().splitlines()) > 2:  # (a notation copied from gnubg has two lines)
        return [(export.position, export.names) for export in parse_exports(text, "-")]
    return [(Position.parse(text.rstrip()), None)]


@click.command(short_help="List every legal play for a roll.")
@click.argument("notation")
@click.argument("dice", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def moves(notation: str, dice: str | None, as_json: bool) -> None:
    """List every legal play for DICE (for example 31) in the position NOTATION.

    Without DICE, the dice of the position are used. Plays are listed from the point of
    view of the player on roll, one per distinct resulting position.
    """
    pos = _position(notation)
    try:
        d1, d2 = parse_dice(dice) if dice else _rolled(pos)
    except BgkitError as err:
        fail(error_line(err, source="dice"))
    results = pos.legal_results(d1, d2)
    rolled = pos.with_dice(d1, d2)
    rows = []
    for play in (found.ordered() for found in results.values()):
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


def _rolled(pos: Position) -> tuple[int, int]:
    if pos.dice is None:
        fail("no dice given and the position has none: add DICE, e.g. 'bgkit moves ID 31'")
    return pos.dice


def _position(notation: str) -> Position:
    try:
        return Position.parse(notation)
    except BgkitError as err:
        fail(error_line(err, source="position"))
