"""``bgkit hint``: the ranked plays or the cube decision of positions, from GNU Backgammon.

The command object :data:`hint` is registered in :mod:`bgkit.cli`. Each position is a
notation (XGID, GNU Backgammon Position ID with an optional Match ID, FIBS ``board:``) or
a position export file (eXtreme Gammon, BGBlitz, GNU Backgammon text). A position with
dice (or ``--dice``) gets its plays ranked, best first; one without dice its cube
decision. ``--json`` prints one JSON object per position (JSON Lines). An XG position
file (``.xgp``) holds XG's own analysis of its position: that is printed, unless
``--gnubg`` (or ``--dice``) asks GNU Backgammon.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from typing import TYPE_CHECKING

import click

from bgkit.cli._common import candidates_option, met_option, position_from_option

if TYPE_CHECKING:
    from bgkit.formats.annotations import PositionExport
    from bgkit.position import Position

__all__ = ["hint"]


@click.command("hint", short_help="Ranked plays or the cube decision of positions.")
@click.argument("positions", nargs=-1, required=True, metavar="NOTATION|FILE...")
@click.option(
    "--dice",
    "-d",
    metavar="DICE",
    help="The roll to play, for example 31.  [default: the position's dice]",
)
@click.option(
    "--plies",
    "-p",
    type=click.IntRange(0, 4),
    default=2,
    show_default=True,
    help="Search depth: 2 is GNU Backgammon's default strength (world class); 0, its"
    " static evaluation, is a quick look.",
)
@candidates_option("How many plays to list, best first.")
@met_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per position (JSON Lines).")
@click.option(
    "--gnubg",
    "use_gnubg",
    is_flag=True,
    help="Ask GNU Backgammon about an XG position file (.xgp) too, not print XG's analysis.",
)
@position_from_option
def hint(
    positions: tuple[str, ...],
    dice: str | None,
    plies: int,
    candidates: int,
    met: str,
    as_json: bool,
    use_gnubg: bool = False,
    from_: str | None = None,
) -> None:
    """Rank the plays of each position with dice, or give its cube decision without.

    Each argument is a notation or a position export file (see bgkit show), its format
    told by the text or given by --from (with --from, - reads stdin). Equities are
    cubeful, from the view of the player on roll (EMG; in a match, GNU Backgammon's match
    winning chances turned into EMG). Chances are win, win gammon, win backgammon, lose
    gammon, lose backgammon (cubeless).
    """
    from dataclasses import replace

    from bgkit.cli._common import fail, parse_dice, say
    from bgkit.cli._file_analysis import file_analysis, file_hint_dict, file_hint_text
    from bgkit.errors import BgkitError, error_line
    from bgkit.formats.annotations import PositionExport
    from bgkit.formats.positions import positions_from

    roll = None
    if dice is not None:
        try:
            roll = parse_dice(dice)
        except BgkitError as err:
            fail(error_line(err, source="--dice"))
    found: list[Position | PositionExport] = []
    for number, argument in enumerate(positions, 1):
        try:
            if from_ is not None:
                found.extend(_positions_as(argument, from_, use_gnubg or roll is not None))
                continue
            xg = None if use_gnubg or roll is not None else file_analysis(argument)
            found.extend((xg,) if xg is not None else positions_from(argument))
        except (BgkitError, OSError) as err:
            if from_ is None:
                fail(error_line(err, source=argument))
            from bgkit.cli.positions import _error_line

            fail(_error_line(err, argument, number, from_))
    needs_gnubg = not all(isinstance(p, PositionExport) for p in found)
    if needs_gnubg and importlib.util.find_spec("gnubg") is None:
        fail("`bgkit hint` needs the analysis extra: pip install 'bgkit[analysis]'")
    from bgkit.analysis.hints import hint as ask
    from bgkit.analysis.tasks import can_fork
    from bgkit.errors import EngineCrashError
    from bgkit.workers import Isolated

    crashed = False
    with Isolated(enabled=can_fork() and needs_gnubg) as engine:  # (a crash loses one position)
        for pos in found:
            if isinstance(pos, PositionExport):  # XG's own analysis, from an .xgp
                if as_json:
                    click.echo(json.dumps(file_hint_dict(pos, candidates), allow_nan=False))
                else:
                    click.echo(file_hint_text(pos, candidates))
                continue
            if roll is not None:
                pos = replace(pos, dice=roll, doubled=False)
            try:
                result = engine.call(ask, pos, plies=plies, candidates=candidates, met=met)
            except EngineCrashError as err:
                say(f"bgkit: {error_line(err, source=pos.xgid())}")
                crashed = True
                continue
            except BgkitError as err:
                fail(error_line(err, source=pos.xgid()))
            if as_json:
                click.echo(json.dumps(result.to_dict(), allow_nan=False))
                continue
            click.echo(_text(result))
    if crashed:
        sys.exit(3)


def _positions_as(argument: str, fmt: str, gnubg: bool) -> list[Position | PositionExport]:
    """The positions of ``argument`` read as ``fmt`` (``--from``): an XG position file's
    with XG's analysis, unless ``gnubg`` asks GNU Backgammon."""
    from bgkit.cli.positions import positions_as

    out: list[Position | PositionExport] = []
    for pos, _, export in positions_as(argument, fmt):
        analysed = export is not None and (export.checker is not None or export.cube is not None)
        if fmt == "xgp" and analysed and not gnubg:
            assert export is not None
            out.append(export)
        else:
            out.append(pos)
    return out


def _text(result: object) -> str:
    from bgkit.analysis.hints import Hint

    assert isinstance(result, Hint)
    pos = result.position
    lines = [f"{pos.xgid()}  (GNU Backgammon, {result.plies}-ply)"]
    if pos.dice is not None:
        d1, d2 = pos.dice
        if not result.plays:
            lines.append(f"  no legal play for {d1}{d2}")
        for rank, play in enumerate(result.plays, 1):
            diff = f" ({play.difference:+.3f})" if rank > 1 else ""
            figures = f"{play.equity:+.3f}{diff:<10}"
            lines.append(f"  {rank}. {play.play!s:<24} {figures} {_chances(play.probabilities)}")
    if result.cube is not None:
        cube = result.cube
        lines.append(f"  chances before the roll: {_chances(cube.probabilities)}")
        if cube.available:
            nd = cube.no_double
            lines.append(f"  no double     {nd:+.3f}")
            lines.append(f"  double, take  {cube.double_take:+.3f} ({cube.double_take - nd:+.3f})")
            lines.append(f"  double, pass  {cube.double_pass:+.3f} ({cube.double_pass - nd:+.3f})")
        lines.append(f"  proper cube action: {cube.proper_action}")
        if cube.take_point is not None:
            lines.append(f"  take point (dead cube, no gammons): {cube.take_point:.1%}")
    return "\n".join(lines)


def _chances(p: tuple[float, float, float, float, float]) -> str:
    return (
        f"win {p[0]:.1%} (g {p[1]:.1%}, bg {p[2]:.1%})"
        f"  lose {1 - p[0]:.1%} (g {p[3]:.1%}, bg {p[4]:.1%})"
    )
