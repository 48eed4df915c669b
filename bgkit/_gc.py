"""Reading and checking a record without Python's cyclic garbage collector running.

A record becomes millions of small objects (a ``Move`` and its ``Play`` per action), none
of them in a reference cycle. While they are being made, the collector runs every few
hundred allocations, and each of its full passes walks every object made so far: a third
of the time a 64 MiB ``.mat`` took to read (issue 29). :func:`paused` turns the collector
off for the duration of a reader or of the verifier (memory is still freed as soon as an
object is no longer referenced), and back on after, if it was on.

Nested and concurrent uses count: the collector comes back when the last one ends.
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

__all__ = ["paused", "without_gc"]

_LOCK = threading.Lock()
_depth = 0
_was_enabled = False

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def paused() -> Iterator[None]:
    """The cyclic garbage collector is off inside the block (on again after the last
    block ends, when it was on before the first)."""
    global _depth, _was_enabled
    with _LOCK:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _LOCK:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()


def without_gc(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` runs with the collector :func:`paused`."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with paused():
            return function(*args, **kwargs)

    return wrapper
