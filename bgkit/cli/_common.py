"""What every ``bgkit`` command shares: one-line failures, ``-`` for stdin and stdout, the
``--max-size`` option, the check of the files a command will write, and the check that
an optional extra is installed.

Exit codes of every command: 0 done, 1 issues found (``verify``: a rule broken), 2 bad
input or usage (one line on stderr; a position GNU Backgammon does not support too), 3
bgkit failed on a file (a bug) or GNU Backgammon's process died on a position, 4 bgkit
could not finish (the Dask cluster was lost; what was done is kept), 130 interrupted
(Ctrl-C), 143 terminated (SIGTERM), 141 the reader of the output went away (``| head``).
Every line about input goes through :func:`say`: one line, whatever names it quotes.
"""

from __future__ import annotations

import errno
import importlib.util
import io
import re
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any, NoReturn, TypeVar

import click

from bgkit.errors import NotationError, visible

__all__ = [
    "EXIT_LOST",
    "ByteSize",
    "candidates_option",
    "check_targets",
    "fail",
    "from_dask",
    "from_option",
    "max_size_option",
    "parse_dice",
    "position_from_option",
    "quiet_dask",
    "require_extra",
    "say",
    "stdin",
]

F = TypeVar("F", bound=Callable[..., Any])

EXIT_LOST = 4
"""Exit code when bgkit could not finish (a lost Dask cluster): not the same as 1, the
code for "issues found"."""


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``bgkit: message`` on stderr, as one line (:func:`say`), and exit with ``code``."""
    say(f"bgkit: {message}")
    sys.exit(code)


def check_targets(targets: Iterable[str | None], force: bool) -> None:
    """Refuse, before any work, a file a command was asked to write that it would not
    write (:func:`bgkit.fileio.check_target`): one that exists, unless ``force``; a
    symbolic link, a folder, a device or a FIFO, even then (``-`` writes to stdout)."""
    from bgkit.fileio import check_target

    for target in targets:
        if not target or target == "-":
            continue
        try:
            check_target(target, force=force)
        except FileExistsError:
            fail(f"{target}: exists; use --force to overwrite it")
        except OSError as err:
            stdout = " (- writes to stdout)" if err.errno == errno.EINVAL else ""
            fail(f"{target}: {err.strerror or err}{stdout}")


def say(line: str, *, err: bool = True) -> None:
    """Print ``line`` (on stderr unless ``err`` is false) as one line, whatever names and
    file names it quotes: control and bidirectional characters are shown escaped
    (:func:`bgkit.errors.visible`), so that no name forges a line or hides another."""
    click.echo(visible(line), err=err)


def from_dask(err: BaseException) -> bool:
    """Whether ``err`` is Dask's (a comm to a scheduler that went away is an OSError)."""
    return type(err).__module__.split(".")[0] in ("distributed", "tornado")


def quiet_dask() -> None:
    """Silence Dask's client log: a lost scheduler is reported in one line, not in it."""
    import logging

    import distributed  # noqa: F401  (configures its loggers, which are then quietened)

    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name.split(".")[0] == "distributed":
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def parse_dice(text: str) -> tuple[int, int]:
    """``"31"``, ``"3-1"``, ``"3 1"`` or ``"3,1"`` -> ``(3, 1)``.

    :raises NotationError: when the text is not two dice 1-6.
    """
    digits = [c for c in text if not c.isspace() and c not in "-,:"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise NotationError(f"dice must be two digits 1-6: {text!r}", text, 0)
    return (int(digits[0]), int(digits[1]))


_EXTRAS = {
    "analysis": ("gnubg", "pandas", "matplotlib"),
    "reports": ("pandas", "matplotlib"),
    "batch": ("pandas", "pyarrow", "distributed"),
}


def require_extra(command: str, extra: str, modules: tuple[str, ...] | None = None) -> None:
    """Stop with one line when a module of the ``extra`` is not installed, before any work.

    :param command: the command as the user typed it (``"bgkit analyze"``).
    :param modules: the modules needed (default: every module of the extra).
    """
    for name in modules or _EXTRAS[extra]:
        if importlib.util.find_spec(name) is None:
            fail(f"`{command}` needs the {extra} extra: pip install 'bgkit[{extra}]'")


_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(i?b?)\s*", re.IGNORECASE)


class ByteSize(click.ParamType[int]):
    """A size in bytes: ``500000``, ``10M``, ``1.5G``, ``64MiB`` (powers of 1024)."""

    name = "size"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        m = _SIZE.fullmatch(str(value))
        if m is None:
            self.fail(f"{value!r} is not a size (e.g. 500000, 10M, 1G)", param, ctx)
        scale = 1024 ** " kmgt".index(m[2].lower() or " ")
        return int(float(m[1]) * scale)


def max_size_option(function: Any) -> Any:
    """The ``--max-size`` option: the largest record file (and XG match data) to read."""
    return click.option(
        "--max-size",
        type=ByteSize(),
        default=None,
        metavar="SIZE",
        help="Read record files up to SIZE (for example 200M). Larger files are refused,"
        " as are XG files whose match data inflates to more.  [default: 16M; XG match"
        " data 64M]",
    )(function)


def from_option(function: F) -> F:
    """``--from FORMAT``: read the records as FORMAT, whatever their names say."""
    from bgkit.formats import FORMATS

    option = click.option(
        "--from",
        "from_",
        type=click.Choice([f.name for f in FORMATS], case_sensitive=False),
        help="Read the records as this format.  [default: the format their content shows;"
        " the extension when the content fits it or fits none]",
    )
    decorated: F = option(function)
    return decorated


def position_from_option(function: F) -> F:
    """``--from FORMAT``: read the positions as FORMAT, not by what their text shows."""
    from bgkit.formats.positions import POSITION_FORMATS

    option = click.option(
        "--from",
        "from_",
        type=click.Choice(list(POSITION_FORMATS), case_sensitive=False),
        help="Read the positions as this format: a notation (xgid, gnubg-id, fibs-board)"
        " or a position export (xg-text, bgblitz-text, gnubg-text: the file or - for stdin;"
        " xgp), and no other.  [default: the format the text shows]",
    )
    decorated: F = option(function)
    return decorated


def candidates_option(help_text: str) -> Callable[[F], F]:
    """``--candidates/-n N``: how many of the best plays to keep (default 5)."""

    def decorate(function: F) -> F:
        option = click.option(
            "--candidates",
            "-n",
            type=click.IntRange(1),
            default=5,
            show_default=True,
            help=help_text,
        )
        decorated: F = option(function)
        return decorated

    return decorate


def _met_name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A name of :data:`bgkit.analysis.met.MET_NAMES`, given in any case."""
    from bgkit.analysis.met import met_name

    try:
        return met_name(value)
    except ValueError as err:
        raise click.BadParameter(str(err), ctx, param) from None


def met_option(function: F) -> F:
    """``--met NAME``: GNU Backgammon's match equity table (one bgkit ships, any case)."""
    from bgkit.analysis.met import DEFAULT_MET, MET_NAMES

    option = click.option(
        "--met",
        callback=_met_name,
        default=DEFAULT_MET,
        show_default=True,
        metavar="NAME",
        help="The match equity table for match-winning chances: one of those GNU Backgammon"
        f" ships ({', '.join(MET_NAMES)}).",
    )
    decorated: F = option(function)
    return decorated


def stdin() -> IO[bytes]:
    """What ``-`` names as an input: stdin, as bytes (readers then keep the size limit)."""
    buffer: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
    if buffer is not None:
        return buffer
    return io.BytesIO(sys.stdin.read().encode("utf-8"))  # a test runner's text stream
