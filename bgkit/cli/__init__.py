"""The ``bgkit`` command line (also ``python -m bgkit``).

Every failure the user can cause (a bad ID, a missing file, a broken record) ends with
one line ``place: reason`` on stderr and exit code 2, never a traceback; the exit codes
are listed in :mod:`bgkit.cli._common`. One module per command; the commands that need
an optional extra (``analyze``, ``hint``) import it only when they run, and say which
extra to install when it is missing.
"""

from __future__ import annotations

import signal
import sys
import warnings
from typing import Any

import click

from bgkit import __version__
from bgkit.cli._common import fail, parse_dice, say
from bgkit.errors import BgkitError, BgkitNote, error_line

__all__ = ["fail", "main", "parse_dice"]

# Each command's module, imported when the command is asked for: ``bgkit verify`` loads
# only what verify needs (issue 31: start-up), ``bgkit --help`` each command for its line.
_COMMANDS = {
    "analyze": "bgkit.cli.analyze",
    "audit": "bgkit.cli.audit",
    "convert": "bgkit.cli.convert",
    "hint": "bgkit.cli.hint",
    "moves": "bgkit.cli.positions",
    "show": "bgkit.cli.positions",
    "verify": "bgkit.cli.verify",
}


class _Terminated(BaseException):
    """SIGTERM, raised in the main thread so that ``finally`` blocks (temporary files)
    run as for Ctrl-C."""


def _terminate(_signum: int, _frame: Any) -> None:
    raise _Terminated


class _Main(click.Group):
    """The ``bgkit`` group: Ctrl-C, SIGTERM and a closed pipe end quietly, as Unix tools do.
    Its commands are imported on first use (:data:`_COMMANDS`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._loaded: dict[str, click.Command] = {}
        super().__init__(*args, **kwargs)

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        """Every command by name (each module imported)."""
        for name in _COMMANDS:
            self._load(name)
        return self._loaded

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._loaded.update(value)

    def _load(self, name: str) -> click.Command:
        if name not in self._loaded:
            import importlib

            command = getattr(importlib.import_module(_COMMANDS[name]), name)
            assert isinstance(command, click.Command)
            self._loaded[name] = command
        return self._loaded[name]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The ``bgkit`` process itself (its script, ``python -m bgkit``; a test runner
        calls :meth:`main`): everything made so far, the modules above all, lives as long
        as the process, so the garbage collector is told to pass it by (:func:`gc.freeze`).
        Its passes over them cost a short command more than its work (8-10 ms at exit,
        issue 31), and the worker processes a command forks then leave those pages shared.
        """
        import gc

        gc.freeze()
        return self.main(*args, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._load(cmd_name) if cmd_name in _COMMANDS else None

    def invoke(self, ctx: click.Context) -> Any:
        previous = signal.signal(signal.SIGTERM, _terminate)
        try:
            with warnings.catch_warnings():  # (a text decoded by a guess: one note line)
                warnings.simplefilter("always", BgkitNote)
                warnings.showwarning = _show_warning
                return super().invoke(ctx)
        except KeyboardInterrupt:
            fail("interrupted", 130)
        except _Terminated:
            fail("terminated", 143)
        except BrokenPipeError:
            _quiet_stdout()
            sys.exit(141)  # what a shell reports for a tool killed by SIGPIPE
        except (click.exceptions.ClickException, click.exceptions.Exit):
            raise  # (usage errors: click reports them)
        except BgkitError as err:  # (bad input a command did not place: one line all the same)
            fail(error_line(err))
        except (Exception, RecursionError) as err:  # a bug: one line, never a traceback
            fail(f"internal error: {type(err).__name__}: {error_line(BgkitError(str(err)))}", 3)
        finally:
            signal.signal(signal.SIGTERM, previous)


_shown_before = warnings.showwarning


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    if issubclass(category, BgkitNote):
        say(f"bgkit: note: {message}")
        return
    _shown_before(message, category, filename, lineno, file, line)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the flush at exit does not fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (a test runner's stream)
        pass


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="bgkit")
def main() -> None:
    """bgkit: read, verify, convert and analyse backgammon records and positions.

    Exit codes: 0 done, 1 issues found (verify), 2 bad input, 3 bgkit failed on a file
    (a bug), 4 could not finish (a lost Dask cluster), 130 interrupted.
    """


if __name__ == "__main__":  # pragma: no cover
    main()
