"""Extraction throughput: Plainview against its peers and the bare parser, page by page.

Every contender gets the same page right after the others (their order turns
from page to page), so a burst of load elsewhere on the machine hits them
alike; the ratios compare numbers of the same run.
"""

from __future__ import annotations

import gc
import importlib.metadata
import importlib.util
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from lxml.html import HtmlElement, HTMLParser, document_fromstring

from addon.core import Article, ExtractParams, extract, params_for
from addon.core.heuristics.site_memory import remember
from addon.render.pages import PageStyle, ReaderLinks, render_reader
from plainview_dev.bench.common import (
    PAGE_CONTENT_TYPE,
    BenchPage,
    Json,
    Target,
    median,
    percentile,
    progress,
)

PLAINVIEW = "plainview"
# As the proxy's worker runs it with the site memory on: the page learned, and the
# memory of the pages before it applied (counted from their fingerprints per page).
REMEMBERING = "plainview+memory"
PEERS = ("trafilatura", "readability-lxml")
CEILING = "lxml-parse"
CONTENDERS = (PLAINVIEW, REMEMBERING, "addanag-paper", *PEERS, CEILING)
# Pages the site memory holds in the benchmark (the proxy holds up to 30 per site).
MEMORY_PAGES = 10
# The stages the extractor times itself (Diagnostics.timings_ms), then the reader page.
STAGES = ("decode", "parse", "preprocess", "lines", "core", "title", "output")
MIN_MB_PER_S = 40.0
PROGRESS_EVERY = 250
MIN_TRAFILATURA_RATIO = 6.0
# The parser settings of addon.core.heuristics.preprocess, on the raw bytes.
_PARSER = HTMLParser(
    encoding="utf-8", remove_comments=True, remove_pis=True, huge_tree=True, collect_ids=False
)
_LINKS = ReaderLinks("http://example.invalid/", "", "", "")


@dataclass(frozen=True, slots=True)
class Contender:
    """One way to turn a page's bytes into something, and how to describe it."""

    name: str
    label: str
    run: Callable[[BenchPage], object]


@dataclass(slots=True)
class Profile:
    """Plainview's per-stage milliseconds over the pages it made an article of."""

    stages: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in STAGES})
    render: list[float] = field(default_factory=list)
    extract: list[float] = field(default_factory=list)
    skipped: int = 0

    def add(self, result: object, extract_ms: float, url: str) -> None:
        """Record the stages of one extraction, rendering its article to time that too."""
        if not isinstance(result, Article) or result.diagnostics is None:
            self.skipped += 1
            return
        timings = result.diagnostics.timings_ms
        for stage in STAGES:
            self.stages[stage].append(timings.get(stage, 0.0))
        self.extract.append(extract_ms)
        started = time.perf_counter()
        render_reader(result, url, PageStyle(), _LINKS)
        self.render.append((time.perf_counter() - started) * 1000)


def contenders(only: Sequence[str] = ()) -> list[Contender]:
    """Return the contenders, all or the named ones; raise ValueError for an unknown name."""
    unknown = sorted(set(only) - set(CONTENDERS))
    if unknown:
        raise ValueError(f"unknown contender {', '.join(unknown)}; choose from {CONTENDERS}")
    wanted = [name for name in CONTENDERS if not only or name in only]
    return [_contender(name) for name in wanted]


def _contender(name: str) -> Contender:
    """Build one contender by name."""
    if name == PLAINVIEW:
        params = params_for()
        return Contender(name, f"plainview ({params.algorithm})", partial(_plainview, params))
    if name == REMEMBERING:
        return Contender(name, "plainview, site memory on", Remembering().run)
    if name == "addanag-paper":
        return Contender(name, name, partial(_plainview, params_for(name)))
    if name == "trafilatura":
        return Contender(name, f"trafilatura {_version(name)}", _trafilatura)
    if name == "readability-lxml":
        return Contender(name, f"readability-lxml {_version(name)}", _readability)
    return Contender(name, f"lxml {_version('lxml')} parse only", _parse_only)


def _version(distribution: str) -> str:
    """Return a peer's version; raise ValueError when it is not installed."""
    module = {"readability-lxml": "readability"}.get(distribution, distribution)
    if importlib.util.find_spec(module) is None:
        raise ValueError(f"{distribution} is not installed: pip install -e '.[dev]'")
    return importlib.metadata.version(distribution)


def _plainview(params: ExtractParams, page: BenchPage) -> object:
    """Extract the page as the proxy does."""
    return extract(page.body, url=page.url, content_type=PAGE_CONTENT_TYPE, params=params)


class Remembering:
    """Extract as the proxy's worker does with the site memory on: the memory of the
    previous pages applied, the page learned."""

    def __init__(self, pages: int = MEMORY_PAGES) -> None:
        self.pages = pages
        self.learned: list[frozenset[int]] = []

    def run(self, page: BenchPage) -> object:
        """Extract one page with the memory of those before it, and learn it."""
        memory = remember(self.learned)
        result = extract(
            page.body, url=page.url, content_type=PAGE_CONTENT_TYPE, memory=memory, learn=True
        )
        if isinstance(result, Article):
            self.learned = [*self.learned, result.fingerprints][-self.pages :]
        return result


def _trafilatura(page: BenchPage) -> object:
    """Extract the main text with trafilatura's defaults (no metadata: its cheapest call)."""
    import trafilatura

    return trafilatura.extract(page.body, url=page.url)


def _readability(page: BenchPage) -> object:
    """Extract the summary and the short title with readability-lxml."""
    from readability import Document

    document = Document(page.body, url=page.url)
    return document.summary(), document.short_title()


def _parse_only(page: BenchPage) -> HtmlElement:
    """Parse the page into a tree with the core's parser settings and do nothing else."""
    return document_fromstring(page.body, parser=_PARSER)


def _timed(contender: Contender, page: BenchPage) -> tuple[float, object, bool]:
    """Run one contender on one page: seconds, result, whether it raised."""
    started = time.perf_counter()
    try:
        result = contender.run(page)
    except Exception:  # a peer that chokes on a page still took the time
        return time.perf_counter() - started, None, True
    return time.perf_counter() - started, result, False


def run(pages: Sequence[BenchPage], rounds: int, only: Sequence[str] = ()) -> Json:
    """Time every contender on every page, `rounds` times; return the results."""
    racers = contenders(only)
    # seconds[name][round][page]
    seconds = {c.name: [[0.0] * len(pages) for _ in range(rounds)] for c in racers}
    errors = dict.fromkeys(seconds, 0)
    profile = Profile()
    for round_index in range(rounds):
        gc.collect()
        for index, page in enumerate(pages):
            turn = (index + round_index) % len(racers)
            for contender in racers[turn:] + racers[:turn]:
                took, result, failed = _timed(contender, page)
                seconds[contender.name][round_index][index] = took
                if round_index == 0:
                    errors[contender.name] += failed
                    if contender.name == PLAINVIEW:
                        profile.add(result, took * 1000, page.url)
            if (index + 1) % PROGRESS_EVERY == 0:
                progress(f"extraction round {round_index + 1}: {index + 1}/{len(pages)} pages")
        progress(f"extraction round {round_index + 1}/{rounds} done")
    total_bytes = sum(len(page.body) for page in pages)
    return {
        "benchmark": "extraction",
        "pages": len(pages),
        "bytes": total_bytes,
        "rounds": rounds,
        "contenders": [_summary(c, seconds[c.name], total_bytes, errors[c.name]) for c in racers],
        "ratios": _ratios(seconds),
        "profile": _profile_json(profile) if PLAINVIEW in seconds else None,
    }


def _summary(
    contender: Contender, seconds: list[list[float]], total_bytes: int, errors: int
) -> Json:
    """Summarise one contender: MB/s per round and its median, per-page ms over rounds."""
    mb_per_s = [total_bytes / 1e6 / sum(row) if sum(row) > 0 else math.nan for row in seconds]
    per_page_ms = [median(column) * 1000 for column in zip(*seconds, strict=True)]
    return {
        "name": contender.name,
        "label": contender.label,
        "mb_per_s": median(mb_per_s),
        "mb_per_s_rounds": mb_per_s,
        "total_s": median([sum(row) for row in seconds]),
        "median_ms": median(per_page_ms),
        "p99_ms": percentile(per_page_ms, 99),
        "mean_ms": sum(per_page_ms) / len(per_page_ms) if per_page_ms else math.nan,
        "errors": errors,  # pages on which it raised
    }


def _ratios(seconds: dict[str, list[list[float]]]) -> dict[str, float]:
    """Return how many times faster Plainview is than each other contender (round medians)."""
    if PLAINVIEW not in seconds:
        return {}
    ours = [sum(row) for row in seconds[PLAINVIEW]]
    ratios = {}
    for name, rows in seconds.items():
        if name != PLAINVIEW:
            theirs = [sum(row) for row in rows]
            per_round = [t / o for t, o in zip(theirs, ours, strict=True) if o > 0]
            ratios[name] = median(per_round)
    return ratios


def _profile_json(profile: Profile) -> Json:
    """Return each stage's total, share of the extraction plus render, and per-page median."""
    columns = {**profile.stages, "render": profile.render}
    extract_ms = sum(profile.extract)
    # Whatever the extractor does between its laps (assembling the Article).
    columns["other"] = [
        total - sum(stage[i] for stage in profile.stages.values())
        for i, total in enumerate(profile.extract)
    ]
    whole = extract_ms + sum(profile.render)
    stages = [
        {
            "stage": name,
            "total_ms": sum(values),
            "share": sum(values) / whole if whole > 0 else math.nan,
            "median_ms": median(values),
        }
        for name, values in columns.items()
    ]
    return {"articles": len(profile.extract), "skipped": profile.skipped, "stages": stages}


def targets(results: Json) -> list[Target]:
    """Return the extraction targets this run can judge."""
    found: list[Target] = []
    for contender in results["contenders"]:
        if contender["name"] == PLAINVIEW:
            found.append(
                Target("extraction throughput", contender["mb_per_s"], MIN_MB_PER_S, "MB/s", False)
            )
    ratio = results["ratios"].get("trafilatura")
    if ratio is not None:
        found.append(
            Target("speed vs trafilatura", ratio, MIN_TRAFILATURA_RATIO, "x", at_most=False)
        )
    return found
