"""What every benchmark shares: the pages, the statistics, the machine and the targets."""

from __future__ import annotations

import importlib.metadata
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from addon.evaluation.run import load_page, page_ids

# The repository's checkout sits beside the shared data folder.
DEFAULT_DATASET = Path(__file__).resolve().parents[4] / "shared/datasets/wcxb-dev"
# The dataset's pages are stored as UTF-8, whatever their markup declares.
PAGE_CONTENT_TYPE = "text/html; charset=utf-8"
# The libraries whose versions decide the numbers.
LIBRARIES = (
    "lxml", "trafilatura", "readability-lxml", "mitmproxy", "jinja2", "nh3", "aiohttp", "psutil",
)  # fmt: skip

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class BenchPage:
    """One page of the dataset: its id, its URL and its HTML as served."""

    file_id: str
    url: str
    body: bytes


def sample_ids(ids: Sequence[str], sample: int | None) -> list[str]:
    """Return every id, or `sample` of them spread evenly (every k-th from the first)."""
    if sample is None or sample >= len(ids):
        return list(ids)
    if sample <= 0:
        return []
    step = len(ids) // sample
    return list(ids[::step][:sample])


def load_pages(dataset: Path, sample: int | None = None) -> list[BenchPage]:
    """Load the dataset's pages (all, or an even sample); raise ValueError if unreadable."""
    ids = page_ids(dataset)
    if isinstance(ids, str):
        raise ValueError(ids)
    return load_ids(dataset, sample_ids(ids, sample))


def load_ids(dataset: Path, ids: Sequence[str]) -> list[BenchPage]:
    """Load the named pages of the dataset; raise ValueError if one is unreadable."""
    pages = []
    for file_id in ids:
        page = load_page(dataset, file_id)
        if isinstance(page, str):
            raise ValueError(f"{dataset} page {file_id}: {page}")
        url = page.url or f"http://wcxb.invalid/{file_id}.html"
        pages.append(BenchPage(file_id, url, page.html))
    return pages


def percentile(values: Sequence[float], q: float) -> float:
    """Return the q-th percentile (0-100), interpolating between the two nearest ranks."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def median(values: Sequence[float]) -> float:
    """Return the median, NaN for no values."""
    return statistics.median(values) if values else math.nan


def spread(values: Sequence[float]) -> Json:
    """Return p50, p95 and p99 of some values."""
    return {f"p{q}": percentile(values, q) for q in (50, 95, 99)}


@dataclass(frozen=True, slots=True)
class Target:
    """A number the project promises, and whether this run meets it."""

    name: str
    value: float
    limit: float
    unit: str
    at_most: bool  # True: value <= limit passes; False: value >= limit passes

    @property
    def passed(self) -> bool:
        """Tell whether the value meets the limit (a NaN never does)."""
        if math.isnan(self.value):
            return False
        return self.value <= self.limit if self.at_most else self.value >= self.limit

    def to_json(self) -> Json:
        """Return the target with its verdict, for the results file."""
        return {**asdict(self), "passed": self.passed}


def machine() -> Json:
    """Describe the machine, the interpreter, the libraries and the load right now."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else (math.nan,) * 3
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "ram_gib": round(total_memory() / 2**30, 1),
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "libraries": {name: _version(name) for name in LIBRARIES},
        "load_average": [round(value, 2) for value in load],
        "commit": git_commit(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
    }


def cpu_model() -> str:
    """Return the CPU's model name (from /proc/cpuinfo where there is one)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def total_memory() -> int:
    """Return the machine's memory in bytes."""
    import psutil  # type: ignore[import-untyped]

    return int(psutil.virtual_memory().total)


def git_commit() -> str:
    """Return the checkout's commit, with "+changes" when the tree differs from it."""
    root = Path(__file__).resolve().parents[3]
    try:
        head = _git(root, "rev-parse", "--short", "HEAD")
        changed = _git(root, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if changed else "")


def _git(root: Path, *args: str) -> str:
    """Run a read-only git command in the checkout and return its output."""
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True, timeout=30
    )
    return done.stdout.strip()


def _version(distribution: str) -> str:
    """Return an installed distribution's version, or "missing"."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "missing"


def write_json(data: Json, path: Path) -> None:
    """Write results as JSON (NaN as null), creating the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(_finite(data), indent=1) + "\n", encoding="utf-8")


def _finite(value: Any) -> Any:
    """Replace NaN and infinities by None, all the way down, so the JSON is standard."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def progress(message: str) -> None:
    """Tell the user how far a benchmark is, on standard error."""
    print(f"bench: {message}", file=sys.stderr, flush=True)
