"""What each compiled function buys: extraction time with it turned into its Python twin.

Every variant runs in a fresh interpreter (the registry, addon.core.compiled,
picks at import): all compiled, all Python (the pure-Python build), and one
per compiled function with that one function's twin. The variants take turns
within each round, so the machine's drift hits them alike; each variant's time
is the median over rounds, and its cost is that time over the all-compiled one.

With `instructions`, each variant's cost is counted instead of timed: the
instructions its extraction of the pages runs under valgrind's callgrind (the
run with the pages, less the run that only loads them). Other tenants of a
shared machine move the clock by 10-30% and the count not at all.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
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
    """One way to load the core: its name, interpreter, and the environment picking its twins."""

    name: str
    env: dict[str, str]
    python: str = sys.executable


def variants(twins: Sequence[str] = (), against: Sequence[str] = ()) -> list[Variant]:
    """Return all compiled, pure Python, one variant per compiled function (or per one of
    TWINS), and one per other interpreter AGAINST (another checkout's install, as it is)."""
    unknown = sorted(set(twins) - compiled.FUNCTIONS.keys())
    if unknown:
        raise ValueError(f"no compiled function {', '.join(unknown)}")
    return [
        Variant(ALL_COMPILED, {compiled.NO_EXTENSIONS: "0", compiled.TWINS: ""}),
        Variant(PURE_PYTHON, {compiled.NO_EXTENSIONS: "1", compiled.TWINS: ""}),
        *(
            Variant(name, {compiled.NO_EXTENSIONS: "0", compiled.TWINS: name})
            for name in compiled.FUNCTIONS
            if not twins or name in twins
        ),
        *(Variant(f"{AGAINST_PREFIX}{python}", {}, python) for python in against),
    ]


AGAINST_PREFIX = "against "


def run(
    dataset: Path, ids: Sequence[str], rounds: int, twins: Sequence[str] = (),
    against: Sequence[str] = (), *, instructions: bool = False,
) -> Json:
    """Time (or count) every variant over the pages, `rounds` times in turn; return the results."""
    racers = variants(twins, against)
    measure = _count_variant if instructions else _time_variant
    rounds = 1 if instructions else rounds  # a count does not vary between rounds
    seconds: dict[str, list[float]] = {variant.name: [] for variant in racers}
    for round_index in range(rounds):
        turn = round_index % len(racers)
        for variant in racers[turn:] + racers[:turn]:
            seconds[variant.name].append(measure(variant, dataset, ids))
            progress(f"compiled: {variant.name} done")
        progress(f"compiled round {round_index + 1}/{rounds} done")
    base = median(seconds[ALL_COMPILED])
    return {
        "benchmark": "compiled",
        "unit": "instructions" if instructions else "seconds",
        "pages": len(ids),
        "rounds": rounds,
        "variants": [
            {
                "name": name,
                "module": compiled.FUNCTIONS.get(name, ""),
                "python": next(v.python for v in racers if v.name == name),
                "seconds": median(times),
                "seconds_rounds": times,
                "cost": median(times) / base - 1,
            }
            for name, times in seconds.items()
        ],
    }


# The worker: plain code any checkout's install runs (an older one has no plainview_dev).
# It extracts every page once to warm up, then times a second pass in the process's CPU
# seconds: on a shared virtual machine the wall clock also counts the time other
# tenants hold the core, which moved medians by 10-30% between rounds.
WORKER = f"""
import gzip, json, sys, time
from pathlib import Path
from addon.core import extract
html = Path(sys.argv[1]) / "html"
pages = [gzip.decompress((html / f"{{i}}.html.gz").read_bytes()) for i in sys.argv[2:]]
for body in pages:
    extract(body, url="http://example.org/page", content_type="{PAGE_CONTENT_TYPE}")
started = time.process_time()
for body in pages:
    extract(body, url="http://example.org/page", content_type="{PAGE_CONTENT_TYPE}")
print(json.dumps({{"seconds": time.process_time() - started}}))
"""


def _time_variant(variant: Variant, dataset: Path, ids: Sequence[str]) -> float:
    """Run one variant's interpreter over the pages; return its extraction seconds."""
    # -P: the worker imports the package its interpreter installed, not the one in the
    # current folder (an older checkout's venv would else run this checkout's code).
    argv = [variant.python, "-P", "-c", WORKER, str(dataset), *ids]
    done = subprocess.run(
        argv, env={**os.environ, **variant.env}, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{variant.name}: {done.stderr.strip()}")
    return float(json.loads(done.stdout)["seconds"])


# The worker under callgrind: it extracts every page once (or, given no pages, only loads).
COUNTED = f"""
import gzip, sys
from pathlib import Path
from addon.core import extract
html = Path(sys.argv[1]) / "html"
pages = [gzip.decompress((html / f"{{i}}.html.gz").read_bytes()) for i in sys.argv[2:]]
for body in pages:
    extract(body, url="http://example.org/page", content_type="{PAGE_CONTENT_TYPE}")
"""


def _count_variant(variant: Variant, dataset: Path, ids: Sequence[str]) -> float:
    """Count the instructions one variant's extraction of the pages runs, under callgrind."""
    return _callgrind(variant, dataset, ids) - _callgrind(variant, dataset, ())


def _callgrind(variant: Variant, dataset: Path, ids: Sequence[str]) -> float:
    """Run the counted worker under callgrind; return the instructions it ran."""
    argv = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        variant.python, "-P", "-c", COUNTED, str(dataset), *ids,
    ]  # fmt: skip
    # The system allocator, and one hash seed: the same count on every run.
    env = {**os.environ, **variant.env, "PYTHONMALLOC": "malloc", "PYTHONHASHSEED": "0"}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    collected = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or collected is None:
        raise RuntimeError(f"{variant.name} under callgrind: {done.stderr.strip()[-2000:]}")
    return float(collected.group(1))


_COLLECTED = re.compile(r"Collected : (\d+)")


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
