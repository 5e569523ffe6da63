#!/usr/bin/env python3
"""Print Markdown tables from `plainview eval --out` files (one per split).

    scripts/eval_table.py even=docs-even.json odd=docs-odd.json

Overall figures are page-weighted means of the splits, which is exact for
per-page averages.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

TYPES = ("article", "documentation", "forum", "service", "product", "collection", "listing")


def _fmt(value: float | None, percent: bool = False) -> str:
    """Format a score for a table cell."""
    if value is None:
        return "-"
    return f"{100 * value:.1f}%" if percent else f"{value:.3f}"


def _merge(
    runs: dict[str, dict[str, Any]], name: str, key: str, pages_key: str = "pages"
) -> float | None:
    """Return the page-weighted mean of one score over the splits."""
    total = weight = 0.0
    for run in runs.values():
        scores = run["extractors"].get(name)
        if scores is None or scores.get(key) is None:
            continue
        total += scores[key] * scores[pages_key]
        weight += scores[pages_key]
    return total / weight if weight else None


def table(runs: dict[str, dict[str, Any]]) -> str:
    """Return the overall table and the per-split F1 table in Markdown."""
    names = list(next(iter(runs.values()))["extractors"])
    head = (
        "| extractor | F1 | P | R | "
        + " | ".join(TYPES)
        + " | with | without | LCS F1 | headline | MB/s |"
    )
    rows = [head, "|" + "---|" * (head.count("|") - 1)]
    for name in names:
        by_type = []
        for kind in TYPES:
            total = weight = 0.0
            for run in runs.values():
                entry = run["extractors"][name]["by_type"][kind]
                if entry["f1"] is not None:
                    total += entry["f1"] * entry["pages"]
                    weight += entry["pages"]
            by_type.append(_fmt(total / weight if weight else None))
        cells = [
            _fmt(_merge(runs, name, "f1")),
            _fmt(_merge(runs, name, "precision")),
            _fmt(_merge(runs, name, "recall")),
            *by_type,
            _fmt(_merge(runs, name, "with_rate"), percent=True),
            _fmt(_merge(runs, name, "without_rate"), percent=True),
            _fmt(_merge(runs, name, "lcs_f1")),
            _fmt(_merge(runs, name, "headline_match", "headline_pages"), percent=True),
            _fmt(_merge(runs, name, "mb_per_s")),
        ]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    split_head = "| extractor | " + " | ".join(f"F1 {s} | article {s}" for s in runs) + " |"
    split_rows = [split_head, "|" + "---|" * (split_head.count("|") - 1)]
    for name in names:
        cells = []
        for run in runs.values():
            scores = run["extractors"][name]
            cells += [_fmt(scores["f1"]), _fmt(scores["by_type"]["article"]["f1"])]
        split_rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n\n" + "\n".join(split_rows) + "\n"


def main(argv: list[str]) -> int:
    """Read `split=file.json` arguments and print the tables."""
    if not argv or any("=" not in arg for arg in argv):
        print(__doc__, file=sys.stderr)
        return 2
    runs = {}
    for arg in argv:
        split, path = arg.split("=", 1)
        runs[split] = json.loads(Path(path).read_text(encoding="utf-8"))
    print(table(runs), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
