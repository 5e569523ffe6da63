"""What each compiled function buys: extraction time with it turned into its Python twin.

Every variant runs in a fresh interpreter (the registry, addon.core.compiled,
picks at import): all compiled, all Python (the pure-Python build), and one
per compiled function with that one function's twin. The variants take turns
within each round, so the machine's drift hits them alike; each variant's time
is the median over rounds, and its cost is that time over the all-compiled one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from addon.core import compiled
from plainview_dev.bench.common import PAGE_CONTENT_TYPE, Json, Target, median, progress

ALL_COMPILED = "all compiled"
PURE_PYTHON = "pure Python"
# A compiled function stays only where it buys this much (the rule).
MIN_GAIN = 0.05


@dataclass(frozen=True, slots=True)
class Variant:
    """One way to load the core: its name and the environment that picks its twins."""

    name: str
    env: dict[str, str]


def variants() -> list[Variant]:
    """Return all compiled, pure Python, and one variant per compiled function."""
    return [
        Variant(ALL_COMPILED, {compiled.NO_EXTENSIONS: "0", compiled.TWINS: ""}),
        Variant(PURE_PYTHON, {compiled.NO_EXTENSIONS: "1", compiled.TWINS: ""}),
        *(
            Variant(name, {compiled.NO_EXTENSIONS: "0", compiled.TWINS: name})
            for name in compiled.FUNCTIONS
        ),
    ]


def run(dataset: Path, ids: Sequence[str], rounds: int) -> Json:
    """Time every variant over the pages, `rounds` times in turn; return the results."""
    racers = variants()
    seconds: dict[str, list[float]] = {variant.name: [] for variant in racers}
    for round_index in range(rounds):
        turn = round_index % len(racers)
        for variant in racers[turn:] + racers[:turn]:
            seconds[variant.name].append(_time_variant(variant, dataset, ids))
        progress(f"compiled round {round_index + 1}/{rounds} done")
    base = median(seconds[ALL_COMPILED])
    return {
        "benchmark": "compiled",
        "pages": len(ids),
        "rounds": rounds,
        "variants": [
            {
                "name": name,
                "module": compiled.FUNCTIONS.get(name, ""),
                "seconds": median(times),
                "seconds_rounds": times,
                "cost": median(times) / base - 1,
            }
            for name, times in seconds.items()
        ],
    }


def _time_variant(variant: Variant, dataset: Path, ids: Sequence[str]) -> float:
    """Run one variant's interpreter over the pages; return its extraction seconds."""
    argv = [sys.executable, "-m", "plainview_dev.bench.compiled", str(dataset), *ids]
    done = subprocess.run(
        argv, env={**os.environ, **variant.env}, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{variant.name}: {done.stderr.strip()}")
    return float(json.loads(done.stdout)["seconds"])


def targets(results: Json) -> list[Target]:
    """Say, for each compiled function, whether it buys the >= 5% it must to stay."""
    return [
        Target(
            f"{each['name']} ({each['module']}) buys",
            each["cost"] * 100,
            MIN_GAIN * 100,
            "%",
            False,
        )
        for each in results["variants"]
        if each["module"]
    ]


def _extract_all(dataset: Path, ids: Sequence[str]) -> float:
    """Extract each page once to warm up, then again; return the second pass's seconds."""
    from addon.core import extract
    from plainview_dev.bench.common import load_ids

    pages = load_ids(dataset, ids)
    for page in pages:
        extract(page.body, url=page.url, content_type=PAGE_CONTENT_TYPE)
    started = time.perf_counter()
    for page in pages:
        extract(page.body, url=page.url, content_type=PAGE_CONTENT_TYPE)
    return time.perf_counter() - started


if __name__ == "__main__":
    print(json.dumps({"seconds": _extract_all(Path(sys.argv[1]), sys.argv[2:])}))
