"""How often ``bgkit audit`` flags fair dice: the false-alarm rate its ``--alpha`` promises.

    python tests/make_audit_data.py fair 2000 /tmp/fair     # gnubg plays 2000 matches
    python benchmarks/audit_calibration.py /tmp/fair [GROUP]

GNU Backgammon (PyPI ``gnubg``, 0-ply, its own Mersenne Twister dice, ``set seed``
1..N) plays 5-point matches against itself; each match is audited once (its facts), then:

* per test: the share of the players' p-values of one match (``scope`` file) below
  0.1, 0.05, 0.01 and 0.001, for each of the four tests and the combined p-value (a
  calibrated test gives the level itself; the combined one, a Bonferroni bound over four
  correlated tests, and the discrete ones give less);
* per submission: the matches in groups of GROUP (default 10; the same two players in
  every match, so that each also gets a submission-wide test), corrected as ``audit``
  corrects them; the share of submissions with any dice finding at alpha 0.1, 0.05 and
  0.01 (Bonferroni promises at most alpha).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from bgkit.audit import _dice_rows
from bgkit.audit.files import AUDIT_COLUMNS, audit_rows
from bgkit.batch import map_files

LEVELS = (0.1, 0.05, 0.01, 0.001)


def main(folder: Path, group: int) -> None:
    files = sorted(folder.glob("*.mat"))
    frame = map_files(audit_rows, files, columns=AUDIT_COLUMNS, progress=False)
    facts = {
        str(row["file"]): json.loads(row["facts"])
        for row in frame.to_dict("records")
        if isinstance(row["facts"], str)
    }
    print(f"{len(facts)} gnubg matches of fair dice")
    rows, _ = _dice_rows(facts, facts, "all", 0.05)
    per_file = [r for r in rows if r["scope"] == "file"]
    n = len(per_file)
    print(f"\nper test: {n} players' matches with at least 20 rolls")
    print("test        " + "".join(f"  p<{level:<7g}" for level in LEVELS))
    for name in ("p_rolls", "p_doubles", "p_pips", "p_bar", "p_value"):
        shares = [sum(r[name] < level for r in per_file) / n for level in LEVELS]
        print(f"{name:<12}" + "".join(f"  {share:<9.4f}" for share in shares))
    print("(one standard error at 0.05:", f"{math.sqrt(0.05 * 0.95 / n):.4f})")
    names = list(facts)
    groups = [names[i : i + group] for i in range(0, len(names) - group + 1, group)]
    print(f"\nper submission: {len(groups)} submissions of {group} matches")
    for alpha in (0.1, 0.05, 0.01):
        flagged = 0
        tests = 0
        for members in groups:
            subset = {name: facts[name] for name in members}
            found, tests = _dice_rows(subset, subset, "submission", alpha)
            flagged += any(r["flagged"] for r in found)
        share = flagged / len(groups)
        print(
            f"alpha {alpha:<5g}: {flagged} of {len(groups)} submissions flagged ({share:.3f});"
            f" {tests} tests each"
        )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 10)
