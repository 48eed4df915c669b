"""The module graph reads top-down (issue 14): every module-level import of a bgkit module
goes to a module of the same layer or a lower one, and the graph has no circle.

Functions may import upward lazily (a convenience method such as ``Match.to_sgf`` or
``Position.xgid``); what is imported when a module is loaded may not.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bgkit"

LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "errors",
        "extras",
        "fileio",
        "_moved",
        # the two packages' __init__ import nothing at load (their names load on first
        # use), so that the SGF reader can load analysis.met without the analysis
        "analysis",
        "reports",
        "analysis.met",
        "analysis.met_tables",
        "analysis.metrics",
        "analysis.bearoff",
        "analysis.evaluator",
        "workers",
        "analysis.engine_gate",
        "_gc",
    ),
    ("limits", "_grammars"),
    ("play", "_play_grammar", "movegen", "position"),  # the engine
    ("xgid", "gnubgid", "fibs", "notation", "ascii_board", "reports.svg"),  # notation
    ("records", "formats", "formats.*"),
    ("replay", "verify"),
    ("analysis.*", "reports.*"),  # analysis and reports
    ("batch", "batch.*", "season", "audit", "audit.*"),
    ("cli", "cli.*", "", "__main__"),  # "" is the package: bgkit/__init__.py
)


def module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def layer_of(name: str) -> int:
    for rank, members in enumerate(LAYERS):
        for member in members:
            if name == member or (member.endswith(".*") and name.startswith(member[:-1])):
                return rank
    raise AssertionError(f"bgkit.{name} is in no layer: add it to LAYERS")


def imports_at_load(name: str, path: Path, names: set[str]) -> set[str]:
    """The bgkit modules ``name`` imports at module level (``if`` blocks such as
    ``TYPE_CHECKING`` are not looked into)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]

    def short(target: str) -> str | None:
        if target != "bgkit" and not target.startswith("bgkit."):
            return None
        return target.removeprefix("bgkit").removeprefix(".")

    found: set[str] = set()
    for node in ast.parse(path.read_text("utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(s for alias in node.names if (s := short(alias.name)) is not None)
        elif isinstance(node, ast.ImportFrom):
            base = short(node.module or "") if not node.level else None
            if node.level:
                parent = package[: len(package) - node.level + 1]
                base = ".".join([*parent, node.module] if node.module else parent)
            if base is None:
                continue
            for alias in node.names:
                module = f"{base}.{alias.name}".lstrip(".")
                found.add(module if module in names else base)
    # importing bgkit.a.b loads the package bgkit.a first (a module of bgkit.a is loaded
    # while bgkit.a is, so that is no edge of its own)
    parents = {".".join(n.split(".")[:i]) for n in found for i in range(1, n.count(".") + 1)}
    found |= {p for p in parents if not name.startswith(f"{p}.")}
    return {n for n in found if n in names and n != name}


GRAPH = {
    name: imports_at_load(name, path, set(module_names())) for name, path in module_names().items()
}


def test_every_module_has_a_layer() -> None:
    for name in GRAPH:
        layer_of(name)


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_imports_at_load_go_down(name: str) -> None:
    upward = sorted(dep for dep in GRAPH[name] if layer_of(dep) > layer_of(name))
    assert not upward, f"bgkit.{name} imports {upward} from a higher layer at load time"


def test_no_import_circle() -> None:
    try:
        order = list(TopologicalSorter(GRAPH).static_order())
    except CycleError as err:
        pytest.fail(f"import circle: {' -> '.join(err.args[1])}")
    assert order[0] != ""


def test_the_checker_sees_an_upward_import(tmp_path: Path) -> None:
    fake = tmp_path / "position.py"
    fake.write_text("from bgkit.verify import verify\nfrom . import records\n")
    found = imports_at_load("position", fake, set(GRAPH))
    assert found == {"verify", "records"}
    assert layer_of("verify") > layer_of("position")


def test_the_checker_sees_the_package_an_import_loads(tmp_path: Path) -> None:
    fake = tmp_path / "sgf_analysis.py"
    fake.write_text("from bgkit.analysis.met import shipped_met\n")
    assert imports_at_load("formats.sgf_analysis", fake, set(GRAPH)) == {"analysis.met", "analysis"}


HEAVY = ("lark", "pandas", "numpy", "matplotlib", "gnubg", "distributed", "tqdm")
LOADED = "import sys\n{code}\nprint(*(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)"


@pytest.mark.parametrize(
    "code",
    [
        "import bgkit",
        "import bgkit; bgkit.Position.initial().with_dice(3, 1).legal_plays()",
        "import bgkit.analysis, bgkit.analysis.met, bgkit.reports",
        "import sys; sys.argv = ['bgkit', '--help']; from bgkit.cli import main\n"
        "try: main()\nexcept SystemExit: pass",
    ],
)
def test_what_import_bgkit_and_help_load(code: str) -> None:
    """``import bgkit`` and ``bgkit --help`` load no parser library, no pandas, no gnubg
    (issue 15: start-up time; ``benchmarks/bench_speed.py`` measures it)."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", LOADED.format(code=code, heavy=HEAVY)],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert run.stderr.split() == []
