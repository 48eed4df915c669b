"""Where bgkit's modules moved, and the two small mechanisms that keep old code working.

bgkit 0.1 had flat modules (``bgkit.gnubg_evaluator``, ``bgkit.metrics``, ``bgkit.html_report``,
...). They now live in two packages, :mod:`bgkit.analysis` and :mod:`bgkit.reports`, one
module per concern. :data:`MOVED` maps each old path to the new one; :func:`install` (run by
``import bgkit``) puts :class:`MovedFinder` in ``sys.meta_path``, so that ``import
bgkit.metrics`` and ``from bgkit.gnubg_evaluator import GnubgEvaluator`` still work: they
give the new module itself (the same object) and warn with a :class:`DeprecationWarning`
naming the new place.

The packages themselves keep the names the old modules of the same name had
(``from bgkit.analysis import analyze``, ``bgkit.reports.equity_figure``): :func:`lazy_names`
gives a package the module ``__getattr__`` that loads them on first use, so that importing
``bgkit.analysis.met`` (as the SGF reader does) loads neither pandas nor gnubg.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

__all__ = ["MOVED", "MovedFinder", "install", "lazy_names"]

MOVED: dict[str, str] = {
    "bgkit.analysis_tasks": "bgkit.analysis.tasks",
    "bgkit.engine_gate": "bgkit.analysis.engine_gate",
    "bgkit.evaluator": "bgkit.analysis.evaluator",
    "bgkit.gnubg_evaluator": "bgkit.analysis.gnubg",
    "bgkit.hints": "bgkit.analysis.hints",
    "bgkit.met": "bgkit.analysis.met",
    "bgkit.met_tables": "bgkit.analysis.met_tables",
    "bgkit.metrics": "bgkit.analysis.metrics",
    "bgkit.html": "bgkit.reports.record_html",
    "bgkit.html_report": "bgkit.reports.match_report",
    "bgkit.svg": "bgkit.reports.svg",
    "bgkit.viewer": "bgkit.reports.viewer",
}
"""Each module path of bgkit 0.1 that moved, and where it is now."""


class MovedFinder:
    """Finds a moved module under its old name: the module found is the new one.

    A meta path finder and its loader by their methods alone: ``importlib.abc``'s base
    classes would import ``importlib.resources`` and what it needs (6 ms of every
    ``import bgkit``)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return ModuleSpec(fullname, cast("Loader", self))

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return None  # a placeholder, replaced in sys.modules by exec_module

    def exec_module(self, module: ModuleType) -> None:
        old = module.__name__
        new = MOVED[old]
        warnings.warn(
            f"{old} is now {new}: import it from there",
            DeprecationWarning,
            stacklevel=_caller_level(),
        )
        # the import system returns what sys.modules holds under the old name once this
        # returns: the new module itself, its __spec__ and __name__ untouched
        sys.modules[old] = importlib.import_module(new)


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside the import system and this module, so
    that the warning names the line with the old import (and Python's default filter shows
    it when that line is in ``__main__`` or a notebook). :func:`warnings.warn` does not
    count the import system's bootstrap frames itself."""
    frame = sys._getframe(1)  # exec_module's: stacklevel 1
    level = 1
    while frame.f_back is not None:
        module = str(frame.f_globals.get("__name__", ""))
        if frame.f_code.co_filename != __file__ and module.partition(".")[0] != "importlib":
            break
        frame = frame.f_back
        file = frame.f_code.co_filename
        if not ("importlib" in file and "_bootstrap" in file):
            level += 1
    return level


def install() -> None:
    """Put :class:`MovedFinder` first in ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())


def lazy_names(
    package: str, names: dict[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` for ``names`` (name -> the module of the
    package that defines it), each module imported when one of its names is first asked."""
    own = sys.modules[package]

    def __getattr__(name: str) -> object:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(own, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(own), *names})

    return __getattr__, __dir__
