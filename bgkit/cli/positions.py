"""``bgkit show`` and ``bgkit moves``: one position, from a notation or a position export."""

from __future__ import annotations

import json

import click

from bgkit.cli._common import fail, parse_dice, stdin
from bgkit.errors import BgkitError, error_line
from bgkit.position import Position

__all__ = ["moves", "show"]


@click.command(short_help="Show positions: board, pips, every notation.")
@click.argument("positions", nargs=-1, required=True, metavar="NOTATION|FILE...")
def show(positions: tuple[str, ...]) -> None:
    """Show positions: the board, pip counts and every notation.

    Each argument is an XGID, a GNU Backgammon Position ID (optionally ':' and a Match
    ID, or both IDs as gnubg shows them: 'Position ID: ... Match ID: ...'), a FIBS board:
    line, or a position export file (eXtreme Gammon, BGBlitz or GNU Backgammon text, or an
    eXtreme Gammon position file, .xgp), whose positions are all shown; - reads a notation
    or a text export from stdin.
    """
    found: list[Position] = []
    for argument in positions:
        try:
            found.extend(_positions_of(argument))
        except (BgkitError, OSError) as err:
            fail(error_line(err, source=argument))
    for i, pos in enumerate(found):
        if i:
            click.echo()
        click.echo(str(pos))
        click.echo(f"FIBS: {pos.fibs()}")


def _positions_of(argument: str) -> tuple[Position, ...]:
    """The positions an argument names; ``-`` is stdin: a notation, or an export's text."""
    from bgkit.formats import decode_bytes, source_data
    from bgkit.formats.positions import parse_exports, positions_from

    if argument != "-":
        return positions_from(argument)
    data, _ = source_data(stdin())
    text = decode_bytes(data) if isinstance(data, bytes) else data
    if len(text.strip().splitlines()) > 2:  # (a notation copied from gnubg has two lines)
        return tuple(export.position for export in parse_exports(text, "-"))
    return (Position.parse(text.rstrip()),)


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


def _rolled(pos: Position) -> tuple[int, int]:
    if pos.dice is None:
        fail("no dice given and the position has none: add DICE, e.g. 'bgkit moves ID 31'")
    return pos.dice


def _position(notation: str) -> Position:
    try:
        return Position.parse(notation)
    except BgkitError as err:
        fail(error_line(err, source="position"))
