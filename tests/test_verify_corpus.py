"""Every real record and every GNU Backgammon self-play record, verified.

Records written by real programs must verify cleanly, except the ones with real
faults, whose exact issues are listed in ``tests/data/verify_golden.txt`` (one
line per issue: ``file:line:col: kind: message``). The golden entries were read
and confirmed by hand: the synthetic BgMatchFormat_Lib goldens break the rules
(money scores not cumulative, plays from checkers that are not there, a dance
with a legal play, an opening double) and some transcripts leave rolls
unrecorded (``???``, reported as unverifiable notes); Gibbon's GMD fixtures are
synthetic too (rolls without plays, a double in the Crawford game). The same match
in several formats must give the same issues from each.

Regenerate after a deliberate change with ``python tests/test_verify_corpus.py``
and review the diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bgkit.formats import read_match
from bgkit.verify import IssueKind, Severity, verify

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "verify_golden.txt"
RECORD_DIRS = ("mat", "sgf", "xg", "gmd", "javafibs")
FILES = [p for d in RECORD_DIRS for p in sorted((ROOT / "data" / "real" / d).iterdir())] + sorted(
    (ROOT / "data" / "selfplay").glob("*.*")
)


def issues_of(path: Path) -> list[str]:
    report = verify(read_match(path))
    rel = path.relative_to(ROOT).as_posix()
    return [f"{rel}:{i.line}:{i.column}: {i.kind.value}: {i.message}" for i in report.issues]


def golden() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            out.setdefault(line.split(":", 1)[0], []).append(line)
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_record_verifies_as_expected(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    assert issues_of(path) == golden().get(rel, [])


def test_selfplay_records_are_all_clean() -> None:
    # GNU Backgammon's own records break no rule: at most notes (its resignations)
    selfplay = [p for p in FILES if p.parent.name == "selfplay"]
    assert len(selfplay) >= 60  # .mat and .sgf
    expected = golden()
    kinds = {
        line.split(": ")[1]
        for p in selfplay
        for line in expected.get(p.relative_to(ROOT).as_posix(), [])
    }
    assert kinds <= {"resignation"}


def test_real_records_give_errors_only_where_a_rule_is_broken() -> None:
    # the files with errors are the synthetic goldens that break rules (an opening double,
    # bearing off with checkers outside, a checker moved from the empty bar, a forced
    # roll not played)
    errors = {
        line.split(":", 1)[0]
        for lines in golden().values()
        for line in lines
        if IssueKind(line.split(": ")[1]).severity is Severity.ERROR
    }
    assert errors == {
        "data/real/mat/halheinrich__BgMatchFormat_Lib__cube_take.mat",
        "data/real/mat/halheinrich__BgMatchFormat_Lib__dance.mat",
        "data/real/mat/halheinrich__BgMatchFormat_Lib__doubles_hit_bearoff.mat",
    }


def test_golden_names_only_existing_files() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in FILES}
    assert set(golden()) <= names


if __name__ == "__main__":  # regenerate the golden file
    lines = ["# bgkit verify: expected issues in the real corpus (reviewed by hand)"]
    for path in FILES:
        lines.extend(issues_of(path))
    GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines) - 1} issues to {GOLDEN}", file=sys.stderr)
