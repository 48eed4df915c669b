"""The wheel ships the grammars and the licence: build it, and parse from the built files
alone."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_contains_grammars_and_parses(tmp_path: Path) -> None:
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    wheel = next(tmp_path.glob("bgkit-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for grammar in (ROOT / "grammars").glob("*.lark"):
        assert f"bgkit/grammars/{grammar.name}" in names
    assert "bgkit/py.typed" in names
    assert "bgkit/schemas/match.schema.json" in names
    assert "bgkit/analysis/met_tables/Kazaross-XG2.xml" in names  # (the SGF analysis of .xg files)
    # every module and table of the tree (the packages listed in pyproject: a new one forgotten
    # there would be missing from the wheel only)
    shipped_files = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "bgkit").rglob("*")
        if path.suffix in (".py", ".xml", ".json") and "__pycache__" not in path.parts
    }
    assert shipped_files - set(names) == set()
    # and no module the tree no longer has (a stale build/ would ship an old flat module)
    modules = {n for n in names if n.startswith("bgkit/") and n.endswith(".py")}
    assert modules - shipped_files - {"bgkit/grammars/__init__.py"} == set()
    # the licence travels with the wheel: the full GPL-3.0 text, named in the metadata
    licence = next(n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
    shipped = zipfile.ZipFile(wheel).read(licence).decode("utf-8")
    assert shipped == (ROOT / "LICENSE").read_text("utf-8")
    assert shipped.split()[:6] == ["GNU", "GENERAL", "PUBLIC", "LICENSE", "Version", "3,"]
    assert len(shipped) > 30_000  # the whole text, not a pointer to it
    metadata = zipfile.ZipFile(wheel).read(licence.replace("licenses/LICENSE", "METADATA"))
    assert b"\nLicense-File: LICENSE\n" in metadata
    assert b"\nLicense-Expression: GPL-3.0-or-later\n" in metadata
    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    sample = (ROOT / "data" / "fixtures" / "handwritten_3pt.mat").read_text()
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import bgkit, bgkit.formats.mat;"
        "assert bgkit.__file__.startswith(sys.argv[1]), bgkit.__file__;"
        "m = bgkit.formats.mat.parse_mat(sys.stdin.read());"
        "print(len(m.games), bgkit.verify(m).ok, bgkit.Position.from_xgid("
        "'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10').gnubg_id());"
        "from bgkit.analysis.met import shipped_met; print(len(shipped_met().pre))"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-c", code, str(unpacked)],
        input=sample,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["1", "True", "4HPwATDgc/ABMA", "25"]
