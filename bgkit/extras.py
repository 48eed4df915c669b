"""The optional extras: which modules each brings, and one clear error when one is missing.

The core install reads, writes, verifies and converts records. Analysis needs GNU
Backgammon's evaluator and pandas (``bgkit[analysis]``), figures and tables pandas and
matplotlib (``bgkit[reports]``). A function that needs an extra calls :func:`require`
before any work, so that a core install gets one :class:`MissingExtraError` naming the
extra to install instead of a bare ``ModuleNotFoundError`` (or worker processes that
die one by one).

>>> require("analysis", ("os",), "bgkit.analyze")   # installed: nothing happens
>>> try:
...     require("analysis", ("no_such_module",), "bgkit.analyze")
... except MissingExtraError as err:
...     print(err.extra, err)  # doctest: +ELLIPSIS
analysis bgkit.analyze needs the analysis extra: pip install 'bgkit[analysis]' (no module ...
"""

from __future__ import annotations

import importlib.util

from bgkit.errors import BgkitError

__all__ = ["EXTRAS", "MissingExtraError", "missing", "require"]

EXTRAS: dict[str, tuple[str, ...]] = {
    "analysis": ("gnubg", "pandas", "matplotlib"),
    "reports": ("pandas", "matplotlib"),
    "batch": ("pandas", "pyarrow", "distributed"),
    "ogxm": ("ogxm",),
}
"""The modules each extra brings (the import names, not the distribution names)."""


class MissingExtraError(BgkitError, ImportError):
    """A function needs an optional extra that is not installed.

    Also an ``ImportError``, so code that catches a missing module keeps working.
    """

    extra: str
    """The extra to install (``pip install 'bgkit[EXTRA]'``)."""

    def __init__(self, what: str, extra: str, module: str) -> None:
        super().__init__(
            f"{what} needs the {extra} extra: pip install 'bgkit[{extra}]'"
            f" (no module named {module!r})"
        )
        self.extra = extra
        self.name = module


def missing(modules: tuple[str, ...]) -> str | None:
    """The first of ``modules`` that cannot be imported (without importing any), or ``None``."""
    for name in modules:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):  # a parent package missing, a broken entry
            return name
    return None


def require(extra: str, modules: tuple[str, ...] | None = None, what: str = "this") -> None:
    """Raise :class:`MissingExtraError` when a module of ``extra`` is not installed.

    :param modules: the modules needed (default: every module of the extra).
    :param what: what needs them, as the user calls it (``"bgkit.analyze"``).
    """
    absent = missing(modules if modules is not None else EXTRAS[extra])
    if absent is not None:
        raise MissingExtraError(what, extra, absent)
