"""The notebooks in notebooks/ run from top to bottom, and are committed without outputs.

Each is executed with nbclient in a ``python3`` kernel of this interpreter (jupyter_client
starts ``python`` kernels with ``sys.executable``), from the notebooks folder, as a user of
a fresh clone would run it. They read only files under ``data/``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("pandas")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
NAMES = [p.name for p in NOTEBOOKS]


def test_the_notebooks_are_there() -> None:
    assert NAMES == [
        "01_validate_transcripts.ipynb",
        "02_analyse_a_match.ipynb",
        "03_compare_matches.ipynb",
        "04_a_season_of_matches.ipynb",
        "05_auditing_an_event.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_committed_without_outputs(path: Path) -> None:
    book = nbformat.read(path, as_version=4)
    nbformat.validate(book)
    for cell in book.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]
    assert book.metadata.kernelspec.name == "python3"


def run(path: Path) -> Any:
    book = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        book,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return book


def outputs(book: Any) -> list[dict[str, Any]]:
    return [out for cell in book.cells if cell.cell_type == "code" for out in cell.outputs]


def mimetypes(book: Any) -> list[str]:
    return [m for out in outputs(book) for m in out.get("data", {})]


def text(book: Any) -> str:
    parts = []
    for out in outputs(book):
        parts.append(out.get("text", ""))
        parts.append(out.get("data", {}).get("text/plain", ""))
        parts.append(out.get("data", {}).get("text/html", ""))
    return "\n".join(parts)


@pytest.fixture(autouse=True)
def _quiet_jupyter(monkeypatch: pytest.MonkeyPatch) -> None:
    # jupyter_core warns (a DeprecationWarning, an error here) unless told which paths to use
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    monkeypatch.setenv(
        "MPLBACKEND", os.environ.get("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    )


def test_validate_transcripts() -> None:
    book = run(ROOT / "notebooks" / "01_validate_transcripts.ipynb")
    shown = text(book)
    assert "unreadable" in shown and "illegal-play" in shown
    assert "handwritten_3pt_illegal1.mat" in shown
    assert "image/svg+xml" in mimetypes(book)  # the board of the first problem


def test_analyse_a_match() -> None:
    pytest.importorskip("gnubg")
    book = run(ROOT / "notebooks" / "02_analyse_a_match.ipynb")
    kinds = mimetypes(book)
    assert kinds.count("image/svg+xml") >= 2  # the two boards
    assert kinds.count("image/png") == 5  # equity x2, errors, luck, race
    shown = text(book)
    assert "Luck based FIBS rating diff." in shown  # the statistics table
    assert shown.count('class="bgkit-board"') >= 5  # worst plays with their boards
    # an Analysis and a MatchReport show as the match viewer, with its data and script
    assert shown.count('<div class="bgkit-viewer"') == 2
    assert shown.count('"cs":[[') >= 200 and "bgkitViewer(document.currentScript" in shown


def test_compare_matches() -> None:
    pytest.importorskip("gnubg")
    book = run(ROOT / "notebooks" / "03_compare_matches.ipynb")
    assert mimetypes(book).count("image/png") == 2
    shown = text(book)
    assert "selfplay_0001.mat" in shown
    assert "the race leader then won" in shown


def test_a_season_of_matches() -> None:
    pytest.importorskip("gnubg")
    book = run(ROOT / "notebooks" / "04_a_season_of_matches.ipynb")
    # form, results with the luck taken out, rating, error against luck, phases
    assert mimetypes(book).count("image/png") == 5
    shown = text(book)
    assert "luck_adjusted_high" in shown and "narrower" in shown  # the intervals
    assert "luck_adjusted_rating" in shown  # the variance-reduced rating
    assert "luck_adjusted_ppg" in shown and "jacoby" in shown  # money sessions as money
    assert "Hossein Aghili" in shown  # lasse's last Galaxy match
    assert "illegal-play" in shown  # a record that breaks the rules, listed
    assert "opponent_pr" in shown and "luck_rate_memg" in shown  # lasse's opponents, months


def test_auditing_an_event() -> None:
    book = run(ROOT / "notebooks" / "05_auditing_an_event.ipynb")
    shown = text(book)
    assert "match10030560_resubmitted.sgf" in shown and "duplicate" in shown
    assert "did you mean 'Dimitri'?" in shown
    assert "image/svg+xml" in mimetypes(book)  # Dmitri's rolls
