"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def gnubg() -> Iterator[Any]:
    """The PyPI ``gnubg`` module, set up by :mod:`gnubg_session` (skips when missing);
    once per test module, which gets gnubg's players back as they were after it."""
    pytest.importorskip("gnubg")
    import gnubg_session

    yield gnubg_session.open_session()
    gnubg_session.close()
