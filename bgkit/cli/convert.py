"""``bgkit convert``: a match record from any format bgkit reads to .mat, SGF, JSON or OGXM."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bgkit.cli._common import fail, max_size_option, say, stdin
from bgkit.errors import BgkitError, error_line
from bgkit.formats import FORMATS, WRITABLE

if TYPE_CHECKING:
    from bgkit.records import Match

__all__ = ["convert"]


@click.command(short_help="Convert a match record to .mat, SGF, JSON or OGXM.")
@click.argument("source")
@click.argument("target")
@click.option(
    "--from",
    "from_",
    type=click.Choice([f.name for f in FORMATS]),
    help="Format of SOURCE.  [default: from its extension, else its content]",
)
@click.option(
    "--to",
    type=click.Choice(sorted(WRITABLE.values())),
    help="Format of TARGET.  [default: from its extension: .mat, .sgf, .json or .ogxm]",
)
@click.option(
    "--force",
    is_flag=True,
    help="Overwrite TARGET, and convert even a record that fails verification.",
)
@max_size_option
def convert(
    source: str,
    target: str,
    from_: str | None,
    to: str | None,
    force: bool,
    max_size: int | None,
) -> None:
    """Convert the match record SOURCE to TARGET (.mat, .sgf, .json or .ogxm).

    SOURCE - reads stdin; TARGET - writes to stdout (give --to). The record is verified
    first: one that breaks the rules is converted only with --force (and a warning).
    TARGET is never overwritten without --force, is written atomically (a failure
    leaves no half-written file), and must be a regular file: bgkit does not write
    onto devices, FIFOs or sockets.
    """
    from bgkit.formats import read_match, write_match
    from bgkit.limits import active
    from bgkit.verify import verify as verify_match

    suffix = Path(target).suffix.lower()
    out_format = to or WRITABLE.get(suffix)
    if out_format is None:
        known = ", ".join(WRITABLE)
        if target == "-":
            fail(f"writing to stdout needs --to ({', '.join(sorted(WRITABLE.values()))})")
        if any(suffix in f.extensions for f in FORMATS):
            fail(f"{target}: {suffix} is read-only here; bgkit writes {known} (or give --to)")
        what = f"the extension {suffix}" if suffix else "a name without an extension"
        fail(f"{target}: cannot tell the output format from {what}; bgkit writes {known} (--to)")
    if target != "-" and Path(target).exists() and not force:
        fail(f"{target}: exists; use --force to overwrite it")
    limits = active().with_max_size(max_size)
    try:
        if source == "-":
            match = read_match(stdin(), format=from_, limits=limits)
        else:
            match = read_match(Path(source), format=from_, limits=limits)
    except (BgkitError, OSError) as err:
        fail(error_line(err, source=source))
    report = verify_match(match)
    if not report.ok:
        first = report.errors[0]
        count = len(report.errors)
        if not force:
            say(str(first))
            fail(
                f"{source}: {count} issue(s); not converted (use --force to convert"
                " a record that fails verification)",
                1,
            )
        say(f"warning: {first}")
        say(f"warning: {source}: {count} issue(s); converting anyway (--force)")
    try:
        write_match(match, sys.stdout if target == "-" else target, out_format, force=force)
    except BrokenPipeError:
        raise
    except (BgkitError, OSError) as err:
        fail(error_line(err, source=target))
    except ValueError as err:  # a name the format cannot hold (a ':' in a .mat name)
        fail(f"{target}: {err}")
    if target != "-":
        games = len(match.games)
        say(f"{source} -> {target}: {games} game(s) as {out_format}")
    if out_format in ("mat", "ogxm"):
        dropped = _analysed_actions(match)
        if dropped:
            why = "has no place for it" if out_format == "mat" else "is written without it"
            say(
                f"note: {target}: the analysis of {dropped} action(s) is not written"
                f" (.{out_format} {why}; .sgf and .json keep it)"
            )


def _analysed_actions(match: Match) -> int:
    """How many actions carry a program's analysis (candidate plays or a cube decision)."""
    from bgkit.formats.sgf_analysis import analysis_of

    count = 0
    for game in match.games:
        for action in game.actions:
            note = analysis_of(action) if action.annotations else None
            count += note is not None and (note.checker is not None or note.cube is not None)
    return count
