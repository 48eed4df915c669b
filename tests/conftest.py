"""Fixtures shared by the test modules."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from typing import Any

import pytest

# The tests of Ctrl-C send SIGINT to the commands they start. A shell that runs pytest in
# the background (`./.ci/run &`, nohup) starts it with SIGINT ignored, which every child
# inherits (an ignored signal stays ignored across exec): those commands then never see
# the Ctrl-C, and the tests fail. A handler here is reset to the default in each child.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="module")
def gnubg() -> Iterator[Any]:
    """The PyPI ``gnubg`` module, set up by :mod:`gnubg_session` (skips when missing);
    once per test module, which gets gnubg's players back as they were after it."""
    pytest.importorskip("gnubg")
    import gnubg_session

    yield gnubg_session.open_session()
    gnubg_session.close()


@pytest.fixture(autouse=True)
def gnubg_default_table() -> Iterator[None]:
    """A test that analysed with another match equity table in this process leaves gnubg
    with its default one: the oracle sessions of the tests ask gnubg directly."""
    yield
    import sys

    module = sys.modules.get("bgkit.analysis.gnubg")
    if module is not None and module._Table.loaded != module.DEFAULT_MET:
        module.GnubgEvaluator().match_equity_table()  # (loads the default table)
