"""The layout of issue 30 breaks no user code.

* Every bgkit name the README, the docs and the notebooks show imports from where they
  show it, without a warning (collected by reading those files, so the test follows them).
* Every module path of bgkit 0.1 that moved still imports (one alias mechanism,
  :mod:`bgkit._moved`): the same module object as the new path, with a
  ``DeprecationWarning`` naming the new place.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import bgkit
from bgkit._moved import MOVED

ROOT = Path(__file__).resolve().parent.parent
SHOWN = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

PROMPT = r"^\s*(?:>>> |\.\.\. )?"
FROM_IMPORT = re.compile(PROMPT + r"from (bgkit[\w.]*) import (\([^)]*\)|[^\n#]+)", re.M)
IMPORT = re.compile(PROMPT + r"import (bgkit[\w.]*)(?: as \w+)?\s*$", re.M)
AUTODOC = re.compile(r"^\.\. auto(?:module|function|class|data):: (bgkit[\w.]*)", re.M)
DOTTED = re.compile(r"`(bgkit(?:\.\w+)+)(?:\(\))?`")


def texts() -> list[tuple[str, str]]:
    found = [(path.relative_to(ROOT).as_posix(), path.read_text("utf-8")) for path in SHOWN]
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text("utf-8"))["cells"]
        text = "\n".join("".join(cell["source"]) for cell in cells)
        found.append((path.relative_to(ROOT).as_posix(), text))
    return found


def shown_names() -> set[str]:
    """Every ``bgkit...`` module or name the files import, document or name in code."""
    names: set[str] = set()
    for _source, text in texts():
        for module, imported in FROM_IMPORT.findall(text):
            for item in imported.strip("()").split(","):
                if item := item.split(" as ")[0].strip():
                    names.add(f"{module}:{item}")
        names.update(IMPORT.findall(text))
        names.update(AUTODOC.findall(text))
        # prose may name an old path as such (the README says they moved)
        names.update(name for name in DOTTED.findall(text) if name not in MOVED)
    return names


def resolve(shown: str) -> object:
    """The object a file shows: ``module:name`` as ``from module import name`` finds it (an
    attribute of the module, a lazy one too, else its submodule); a dotted name as the
    longest module that imports (an old path only as an attribute), then attributes."""
    if ":" in shown:
        module, name = shown.split(":")
        found = importlib.import_module(module)
        if hasattr(found, name):
            return getattr(found, name)
        return importlib.import_module(f"{module}.{name}")
    parts = shown.split(".")
    for cut in range(len(parts), 0, -1):
        prefixes = {".".join(parts[:i]) for i in range(1, cut + 1)}
        if prefixes & set(MOVED):
            continue
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            value = getattr(value, attribute)
        return value
    raise ModuleNotFoundError(shown)


SHOWN_NAMES = sorted(shown_names())


def test_the_files_show_names() -> None:
    """The collection finds what the README shows (so that the test below is not empty)."""
    for name in ("bgkit.analysis:analyze", "bgkit:reports", "bgkit:svg", "bgkit.read_match"):
        assert name in SHOWN_NAMES


@pytest.mark.parametrize("name", SHOWN_NAMES)
def test_each_name_shown_imports_without_a_warning(name: str) -> None:
    # pytest turns warnings into errors (pyproject): a deprecated path shown fails here
    assert resolve(name) is not None


@pytest.mark.parametrize("old", sorted(MOVED))
def test_each_old_path_warns_and_gives_the_new_module(
    old: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = importlib.import_module(MOVED[old])
    monkeypatch.delitem(sys.modules, old, raising=False)
    with pytest.warns(DeprecationWarning, match=re.escape(f"{old} is now {MOVED[old]}")) as seen:
        module = importlib.import_module(old)
    assert module is new
    assert module.__name__ == MOVED[old]  # the new module untouched
    assert Path(seen[0].filename) == Path(__file__)  # the warning names the importing line


def test_from_bgkit_import_an_old_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "bgkit.metrics", raising=False)
    monkeypatch.delattr(bgkit, "metrics", raising=False)
    with pytest.warns(DeprecationWarning, match="bgkit.analysis.metrics"):
        from bgkit import metrics
    from bgkit.analysis import metrics as new

    assert metrics is new


def test_the_old_modules_names_stay_on_the_packages() -> None:
    """``bgkit.analysis`` and ``bgkit.reports`` were modules: what they held is still there."""
    from bgkit.analysis import match
    from bgkit.reports import figures

    for package, module in ((bgkit.analysis, match), (bgkit.reports, figures)):
        for name in module.__all__:
            assert getattr(package, name) is getattr(module, name)
            assert name in dir(package)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        bgkit.analysis.nothing  # noqa: B018


def test_an_old_import_warns_in_a_users_script(tmp_path: Path) -> None:
    """Python's default filter shows the warning for a script's own import line."""
    script = tmp_path / "old.py"
    script.write_text("from bgkit.gnubg_evaluator import GnubgEvaluator\n")
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True, timeout=60
    )
    assert f"{script}:1: DeprecationWarning: bgkit.gnubg_evaluator is now bgkit.analysis.gnubg" in (
        run.stderr
    )
