"""``bgkit convert``: match records from any format bgkit reads to .mat, SGF, JSON or OGXM:
one file, or every record of a folder into a folder, on every core."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from bgkit.cli._common import check_targets, fail, from_option, max_size_option, stdin
from bgkit.errors import BgkitError, error_line, visible
from bgkit.formats import FORMATS, WRITABLE

if TYPE_CHECKING:
    from bgkit.limits import Limits
    from bgkit.records import Match

__all__ = ["convert"]


@click.command(short_help="Convert match records to .mat, SGF, JSON or OGXM.")
@click.argument("source", metavar="FILE|FOLDER")
@click.argument("target", metavar="OUT")
@from_option
@click.option(
    "--to",
    type=click.Choice(sorted(set(WRITABLE.values())), case_sensitive=False),
    help="Format of TARGET.  [default: from its extension: .mat, .sgf, .json, .ogxm or .gvab;"
    " required for a folder]",
)
@click.option(
    "--force",
    is_flag=True,
    help="Overwrite TARGET, and convert even a record that fails verification.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="For a folder: processes to use.  [default: every core for more than a few files]",
)
@max_size_option
def convert(
    source: str,
    target: str,
    from_: str | None,
    to: str | None,
    force: bool,
    jobs: int | None,
    max_size: int | None,
) -> None:
    """Convert the match record FILE to OUT (.mat, .sgf, .json, .ogxm or .gvab), or every record
    in FOLDER into the folder OUT.

    FILE - reads stdin; OUT - writes to stdout (give --to). The record is verified
    first: one that breaks the rules is converted only with --force (and a warning).
    OUT is never overwritten without --force, is written atomically (a failure
    leaves no half-written file), and must be a regular file: bgkit does not write
    onto devices, FIFOs or sockets.

    A FOLDER is converted into the folder OUT (made if missing), on every core (--jobs):
    every record in it and its subfolders, each to the same name with the extension of
    --to (required), so FOLDER/a/b.mat becomes OUT/a/b.sgf. Each record refused (it does
    not read, fails verification, or its OUT file exists) gets one line; the others are
    converted. Exit code: 0 all converted, 1 some failed verification, 2 some could not
    be read or written.
    """
    from bgkit.limits import active

    to = to.lower() if to else None
    from_ = from_.lower() if from_ else None
    if source != "-" and Path(source).is_dir():
        _convert_folder(Path(source), Path(target), from_, to, force, jobs, max_size)
        return
    out_format = to or _format_of(target)
    check_targets((target,), force)
    limits = active().with_max_size(max_size)
    try:
        lines = _convert_one(source, target, from_, out_format, force, limits)
    except _Refused as refused:  # (its lines made visible: no name forges a line)
        *issues, last = refused.line.split("\n")
        for line in issues:  # (the first rule broken, as verify prints it)
            click.echo(line, err=True)
        click.echo(f"bgkit: {last}", err=True)
        sys.exit(refused.code)
    for line in lines:
        click.echo(line, err=True)


def _format_of(target: str) -> str:
    """The format the name ``target`` asks for, from its extension (any case)."""
    suffix = Path(target).suffix.lower()
    out_format = WRITABLE.get(suffix)
    if out_format is not None:
        return out_format
    known = ", ".join(WRITABLE)
    if target == "-":
        fail(f"writing to stdout needs --to ({', '.join(sorted(set(WRITABLE.values())))})")
    if any(suffix in f.extensions for f in FORMATS):
        fail(f"{target}: {suffix} is read-only here; bgkit writes {known} (or give --to)")
    what = f"the extension {suffix}" if suffix else "a name without an extension"
    fail(f"{target}: cannot tell the output format from {what}; bgkit writes {known} (--to)")


class _Refused(Exception):
    """A record not converted: the line to print and the exit code (1 verification, 2 the
    rest)."""

    def __init__(self, line: str, code: int = 2, *, brief: str | None = None) -> None:
        super().__init__(line)
        self.line = line
        self.code = code
        self.brief = brief or line  # one line, for a folder's record


def _convert_one(
    source: str, target: str, from_: str | None, out_format: str, force: bool, limits: Limits
) -> list[str]:
    """Read, verify and write one record; the lines to print on stderr after it.

    :raises _Refused: when it is not converted.
    """
    from bgkit.formats import read_match, write_match
    from bgkit.verify import verify as verify_match

    lines = []
    try:
        if source == "-":
            match = read_match(stdin(), format=from_, limits=limits)
        else:
            match = read_match(Path(source), format=from_, limits=limits)
    except (BgkitError, OSError) as err:
        raise _Refused(visible(error_line(err, source=source))) from None
    report = verify_match(match)
    if not report.ok:
        first = report.errors[0]
        count = len(report.errors)
        if not force:
            raise _Refused(
                f"{visible(str(first))}\n{visible(source)}: {count} issue(s); not converted"
                " (use --force to convert"
                " a record that fails verification)",
                1,
                brief=visible(f"{first}; not converted ({count} error(s); --force converts it)"),
            )
        lines.append(visible(f"warning: {first}"))
        lines.append(visible(f"warning: {source}: {count} issue(s); converting anyway (--force)"))
    try:
        write_match(match, sys.stdout if target == "-" else target, out_format, force=force)
    except BrokenPipeError:
        raise
    except (BgkitError, OSError) as err:
        raise _Refused(visible(error_line(err, source=target))) from None
    except ValueError as err:  # a name the format cannot hold (a ':' in a .mat name)
        raise _Refused(visible(f"{target}: {err}")) from None
    if target != "-":
        lines.append(visible(f"{source} -> {target}: {len(match.games)} game(s) as {out_format}"))
    if out_format in ("mat", "ogxm"):
        dropped = _analysed_actions(match)
        if dropped:
            why = "has no place for it" if out_format == "mat" else "is written without it"
            lines.append(
                visible(
                    f"note: {target}: the analysis of {dropped} action(s) is not written"
                    f" (.{out_format} {why}; .sgf and .json keep it)"
                )
            )
    return lines


def convert_rows(
    path: Path,
    *,
    folder: str,
    out: str,
    from_: str | None,
    out_format: str,
    force: bool,
    max_size: int | None,
) -> list[dict[str, Any]]:
    """``bgkit convert FOLDER OUT`` for one record of the folder (run in a worker): one
    row, ``kind`` None when converted, else ``"refused"`` with the exit ``code``."""
    from bgkit.limits import active

    target = _target(path, Path(folder), Path(out), out_format)
    if target.exists() and not force:
        return [{"kind": "refused", "code": 2, "message": f"{target}: exists; use --force"
                 " to overwrite it"}]  # fmt: skip
    target.parent.mkdir(parents=True, exist_ok=True)
    limits = active().with_max_size(max_size)
    try:
        lines = _convert_one(str(path), str(target), from_, out_format, force, limits)
    except _Refused as refused:
        return [{"kind": "refused", "code": refused.code, "message": refused.brief}]
    return [{"kind": None, "message": "\n".join(lines)}]


def _target(path: Path, folder: Path, out: Path, out_format: str) -> Path:
    """Where the record ``path`` of ``folder`` goes in ``out``: the same relative name,
    with the extension of ``out_format``."""
    suffix = next(s for s, name in WRITABLE.items() if name == out_format)
    return out / path.relative_to(folder).with_suffix(suffix)


def _convert_folder(
    folder: Path,
    out: Path,
    from_: str | None,
    to: str | None,
    force: bool,
    jobs: int | None,
    max_size: int | None,
) -> None:
    """``bgkit convert FOLDER OUT``: every record of the folder, on every core."""
    import contextlib
    import functools

    from bgkit import batch
    from bgkit.formats import find_records

    if to is None:
        fail(f"{folder} is a folder: give --to ({', '.join(sorted(set(WRITABLE.values())))})")
    if str(out) == "-":
        fail(f"{folder} is a folder: it is converted into a folder, not to stdout")
    if out.exists() and not out.is_dir():
        fail(f"{out}: not a folder; a folder is converted into a folder")
    files, _skipped = find_records([folder])
    if not files:
        fail(f"{folder}: no record files in it")
    # never onto a record being read, nor two records onto one name (a.mat and a.xg)
    sources = {p.resolve() for p in files}
    claimed: dict[Path, Path] = {}
    todo: list[Path] = []
    refused: list[tuple[str, int]] = []
    for path in files:
        target = _target(path, folder, out, to)
        if target.resolve() in sources:
            refused.append((f"{path}: converting it to {target} would replace a record"
                            " being converted; give another OUT folder", 2))  # fmt: skip
        elif target in claimed:
            refused.append((f"{path}: {target} is already the conversion of"
                            f" {claimed[target]}; not converted", 2))  # fmt: skip
        else:
            claimed[target] = path
            todo.append(path)
    func = functools.partial(
        convert_rows,
        folder=str(folder),
        out=str(out),
        from_=from_,
        out_format=to,
        force=force,
        max_size=max_size,
    )
    converted = 0
    code = 0
    for line, why in refused:
        click.echo(f"bgkit: {line}", err=True)
        code = max(code, why)
    if todo:
        out.mkdir(parents=True, exist_ok=True)
        with contextlib.closing(batch.stream_files(func, todo, jobs=jobs)) as results:
            for result in results:
                row = result.rows[0]
                if row.get("kind") is None:
                    converted += 1
                    for line in str(row["message"]).splitlines():
                        if not line.endswith(f"game(s) as {to}"):  # (the summary says it)
                            click.echo(line, err=True)
                    continue
                why = 1 if row.get("code") == 1 else 2
                code = max(code, why)
                click.echo(f"bgkit: {row['message']}", err=True)
    n = len(files)
    click.echo(
        f"{folder} -> {out}: {converted} of {n} record(s) converted as {to},"
        f" {n - converted} not converted",
        err=True,
    )
    if code:
        sys.exit(code)


def _analysed_actions(match: Match) -> int:
    """How many actions carry a program's analysis (candidate plays or a cube decision)."""
    from bgkit.formats.sgf_analysis import analysis_of

    count = 0
    for game in match.games:
        for action in game.actions:
            note = analysis_of(action) if action.annotations else None
            count += note is not None and (note.checker is not None or note.cube is not None)
    return count
