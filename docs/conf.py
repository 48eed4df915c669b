"""Sphinx configuration of bgkit's documentation: ``python -m sphinx -W -b html docs OUT``.

Before the build, :func:`generate` draws the pictures and tables the pages include from
bgkit itself (boards as SVG, figures of an analysis of ``data/sample.mat`` as PNG, the
verifier's kinds of issue), into ``docs/_generated/``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import bgkit

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
GENERATED = DOCS / "_generated"

project = "bgkit"
author = "bgkit developers"
copyright = "bgkit developers, GPL-3.0-or-later"
release = bgkit.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "sphinx_click",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "conftest.py"]
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": True}
html_theme = "furo"
html_title = f"bgkit {release}"
html_static_path: list[str] = []


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _markdown(rest: str) -> str:
    """A docstring's reST as Markdown: a role's target and a literal as code."""
    rest = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", rest)
    return re.sub(r"``(.+?)``", r"`\1`", rest)


def generate() -> None:
    """Write the pictures and tables the pages include (run at every build)."""
    from sphinx.pycode import ModuleAnalyzer

    from bgkit.reports import svg
    from bgkit.verify import IssueKind

    GENERATED.mkdir(exist_ok=True)
    os.chdir(ROOT)  # the paths below are the ones the guides use
    opening = bgkit.Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
    (GENERATED / "opening.svg").write_text(svg.position(opening), "utf-8")
    report = bgkit.verify(bgkit.read_match("data/fixtures/handwritten_3pt_illegal1.mat"))
    fault = report.errors[0].position
    assert fault is not None
    (GENERATED / "fault.svg").write_text(svg.position(fault), "utf-8")
    # (an enum member's __doc__ is its class's: the member's own is read from the source,
    # as autodoc reads it)
    said = ModuleAnalyzer.for_module(IssueKind.__module__).find_attr_docs()
    kinds = [
        (
            f"`{kind.value}`",
            kind.severity.value,
            _markdown(" ".join(" ".join(said["IssueKind", kind.name]).split())),
        )
        for kind in IssueKind
    ]
    (GENERATED / "issue_kinds.md").write_text(_table(("kind", "severity", "what"), kinds))
    try:
        import matplotlib

        matplotlib.use("Agg")
        from bgkit.reports import figures as reports
    except ImportError:  # the docs extra brings the analysis extra: say what is missing
        needed = "the documentation needs the docs extra: pip install -e '.[docs]'"
        raise SystemExit(needed) from None
    sample = bgkit.read_match("data/sample.mat")
    analysis = bgkit.analyze(sample, plies=0, progress=False, jobs=1)
    for name, figure in (
        ("equity", reports.equity_figure(analysis, game=1)),
        ("luck", reports.luck_figure(analysis)),
        ("pips", reports.pip_count_figure(sample, game=1)),
    ):
        figure.savefig(GENERATED / f"{name}.png", dpi=96, bbox_inches="tight")


def _parsable_signature(
    _app: Any,
    _what: str,
    _name: str,
    _obj: Any,
    _options: Any,
    signature: str | None,
    annotation: str | None,
) -> tuple[str | None, str | None] | None:
    """A dataclass field with a ``default_factory`` shows its default as ``<factory>``,
    which is no Python: Sphinx then prints the whole signature as written, type
    references (``~bgkit.records.Match``) included. Show such a default as ``...``."""
    if signature and "<factory>" in signature:
        return signature.replace("<factory>", "..."), annotation
    return None


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", lambda _app: generate())
    app.connect("autodoc-process-signature", _parsable_signature)
    return {"parallel_read_safe": True}
