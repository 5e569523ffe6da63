"""Proxy overhead: each page fetched directly, through bare mitmproxy and through Plainview.

The three fetches of a page follow each other (their order turns from page to
page), so the differences are measured under the same load; each page's
latency is its median over the rounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lxml.html import HTMLParser, document_fromstring

from plainview_dev.bench.common import BenchPage, Json, Target, median, progress, spread
from plainview_dev.bench.servers import (
    PAGE_HEADERS,
    Client,
    Fetched,
    MemorySampler,
    Origin,
    memory_report,
    page_path,
    run_origin,
    run_proxy,
)

PATHS = ("direct", "mitmproxy", "plainview")
# The Server-Timing metric of the worker's part of a reader view (addon/proxy/adapter.py).
WORKER_METRIC = "plainview-worker"
MAX_ADDED_P50_MS = 10.0
MAX_ADDED_P95_MS = 40.0
# Subresources a page makes the browser download, by the element that names them.
KINDS = ("script", "img", "link", "iframe")
# <link rel> values whose target the browser fetches (not canonical, alternate, preconnect...).
FETCHED_RELS = frozenset(
    {
        "stylesheet", "icon", "shortcut", "apple-touch-icon", "apple-touch-icon-precomposed",
        "mask-icon", "preload", "modulepreload", "prefetch", "manifest",
    }
)  # fmt: skip
_PARSER = HTMLParser(encoding="utf-8")
# Failures listed by name in the results; the count covers them all.
MAX_LISTED_FAILURES = 20
WARM_UP_PAGES = 4


def subresources(body: bytes) -> dict[str, int]:
    """Count the distinct scripts, images, fetched links and frames a page references."""
    counts = dict.fromkeys(KINDS, 0)
    if not body.strip():
        return counts
    try:
        root = document_fromstring(body, parser=_PARSER)
    except (ValueError, SyntaxError):  # lxml's ParserError is a SyntaxError
        return counts
    seen: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for element in root.iter("script", "img", "link", "iframe"):
        kind = str(element.tag)
        url = element.get("href" if kind == "link" else "src") or element.get("srcset")
        if not url:
            continue
        if kind == "link" and not FETCHED_RELS & set((element.get("rel") or "").lower().split()):
            continue
        seen[kind].add(url.strip())
    return {kind: len(urls) for kind, urls in seen.items()}


@dataclass(slots=True)
class PageFacts:
    """What one page looked like on the first round: sizes, outcome, subresources."""

    original_bytes: int = 0
    reader_bytes: int = 0
    reader_view: bool = False
    original_refs: dict[str, int] = field(default_factory=dict)
    reader_refs: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Measured:
    """Latencies by path, round and page (NaN where the fetch failed), and what went wrong."""

    seconds: dict[str, list[list[float]]]
    facts: list[PageFacts]
    failures: list[str] = field(default_factory=list)
    altered: int = 0  # pages bare mitmproxy did not pass byte for byte
    # The worker's part of each reader view, by round and page, from its Server-Timing
    # header (NaN for an original sent back); empty when not measured.
    worker_ms: list[list[float]] = field(default_factory=list)


def run(
    pages: Sequence[BenchPage],
    rounds: int,
    dataset: Path,
    workdir: Path,
    options: Sequence[str] = (),
) -> Json:
    """Serve the pages, fetch each through the three paths `rounds` times; return the results.

    `options` are mitmproxy options (NAME=VALUE) for `plainview proxy`.
    """
    ids = [page.file_id for page in pages]
    with (
        run_origin(dataset, ids) as origin,
        run_proxy("mitmdump", workdir / "mitmdump") as bare,
        run_proxy("plainview", workdir / "plainview", options) as reader,
    ):
        clients = {
            "direct": Client(),
            "mitmproxy": Client(bare.port),
            "plainview": Client(reader.port),
        }
        _warm_up(clients, origin, ids[:WARM_UP_PAGES])
        with MemorySampler(reader.process.pid) as sampler:
            measured = measure(clients, origin, ids, rounds)
        memory = {
            "plainview": {**memory_report(reader.process.pid), "peak_total_mib": sampler.peak_mib},
            "mitmproxy": memory_report(bare.process.pid),
        }
    return {
        "benchmark": "proxy",
        "pages": len(pages),
        "rounds": rounds,
        **summarise(measured),
        "memory": memory,
    }


def _warm_up(clients: dict[str, Client], origin: Origin, ids: Sequence[str]) -> None:
    """Fetch a few pages through every path, so workers and connections are up."""
    for _ in range(2):
        for file_id in ids:
            for client in clients.values():
                client.get(origin.url(page_path(file_id)), PAGE_HEADERS)


def measure(
    clients: dict[str, Client], origin: Origin, ids: Sequence[str], rounds: int
) -> Measured:
    """Fetch every page through every path, `rounds` times, the paths' order turning."""
    seconds = {path: [[math.nan] * len(ids) for _ in range(rounds)] for path in PATHS}
    measured = Measured(seconds, [PageFacts() for _ in ids])
    measured.worker_ms = [[math.nan] * len(ids) for _ in range(rounds)]
    for round_index in range(rounds):
        for index, file_id in enumerate(ids):
            turn = (index + round_index) % len(PATHS)
            got: dict[str, Fetched] = {}
            for path in PATHS[turn:] + PATHS[:turn]:
                fetched = clients[path].get(origin.url(page_path(file_id)), PAGE_HEADERS)
                if isinstance(fetched, str) or fetched.status != 200:
                    reason = fetched if isinstance(fetched, str) else f"status {fetched.status}"
                    measured.failures.append(f"{path} {file_id}: {reason}")
                    continue
                seconds[path][round_index][index] = fetched.seconds
                got[path] = fetched
            if "plainview" in got:
                worker = got["plainview"].server_timing(WORKER_METRIC)
                measured.worker_ms[round_index][index] = math.nan if worker is None else worker
            if round_index == 0:
                _note(measured, index, got)
        progress(f"proxy round {round_index + 1}/{rounds} done")
    return measured


def _note(measured: Measured, index: int, got: dict[str, Fetched]) -> None:
    """Record a page's sizes, outcome and subresources from its first round."""
    direct, bare, reader = (got.get(path) for path in PATHS)
    if direct is None or reader is None:
        return
    if bare is not None and bare.body != direct.body:
        measured.altered += 1
    facts = measured.facts[index]
    facts.original_bytes = len(direct.body)
    facts.reader_bytes = len(reader.body)
    facts.reader_view = reader.is_reader_view
    facts.original_refs = subresources(direct.body)
    facts.reader_refs = subresources(reader.body)


def summarise(measured: Measured) -> Json:
    """Return latencies, added latencies, sizes, subresources and failures."""
    per_page = {
        path: [median(_finite(column)) for column in zip(*rows, strict=True)]
        for path, rows in measured.seconds.items()
    }
    ms = {path: [value * 1000 for value in values] for path, values in per_page.items()}
    return {
        "latency_ms": {path: spread(_finite(values)) for path, values in ms.items()},
        "added_ms": {
            "plainview_over_mitmproxy": spread(_differences(ms["plainview"], ms["mitmproxy"])),
            "mitmproxy_over_direct": spread(_differences(ms["mitmproxy"], ms["direct"])),
        },
        "added_split_ms": _split(ms, measured.worker_ms),
        "bytes": _bytes(measured.facts),
        "subresources": _subresources(measured.facts),
        "failures": len(measured.failures),
        "failure_examples": measured.failures[:MAX_LISTED_FAILURES],
        "altered_by_mitmproxy": measured.altered,
    }


def _finite(values: Sequence[float]) -> list[float]:
    """Drop NaN (pages whose every fetch failed)."""
    return [value for value in values if not math.isnan(value)]


def _split(ms: dict[str, list[float]], worker_ms: list[list[float]]) -> Json:
    """Split the reader views' added latency into the worker's part and the rest."""
    # Each page's median of the worker's time, against the medians of its fetches;
    # pages sent back as the original have no worker time and drop out.
    added = [a - b for a, b in zip(ms["plainview"], ms["mitmproxy"], strict=True)]
    worker = [median(_finite(column)) for column in zip(*worker_ms, strict=True)] or [
        math.nan
    ] * len(added)
    return {
        "worker": spread(_finite(worker)),
        "beyond_worker": spread(_differences(added, worker)),
    }


def _differences(slower: Sequence[float], faster: Sequence[float]) -> list[float]:
    """Return the per-page differences where both are known."""
    return _finite([a - b for a, b in zip(slower, faster, strict=True)])


def _bytes(facts: Sequence[PageFacts]) -> Json:
    """Compare what the user downloads: the original pages and what Plainview sends."""
    views = [fact for fact in facts if fact.reader_view]
    original = sum(fact.original_bytes for fact in facts)
    sent = sum(fact.reader_bytes for fact in facts)
    return {
        "reader_views": len(views),
        "originals_sent": len(facts) - len(views),
        "original_total": original,
        "sent_total": sent,
        "sent_share": sent / original if original else math.nan,
        "reader_view_median_share": median(
            [f.reader_bytes / f.original_bytes for f in views if f.original_bytes]
        ),
    }


def _subresources(facts: Sequence[PageFacts]) -> Json:
    """Add up, per kind, the subresources the originals reference and the reader views keep."""
    views = [fact for fact in facts if fact.reader_view]
    result = {}
    for kind in KINDS:
        original = sum(fact.original_refs.get(kind, 0) for fact in views)
        kept = sum(fact.reader_refs.get(kind, 0) for fact in views)
        result[kind] = {"original": original, "reader": kept, "saved": original - kept}
    return {"pages": len(views), "by_kind": result}


def targets(results: Json) -> list[Target]:
    """Return the proxy-overhead targets this run can judge."""
    added = results["added_ms"]["plainview_over_mitmproxy"]
    return [
        Target("reader mode added latency p50", added["p50"], MAX_ADDED_P50_MS, "ms", at_most=True),
        Target("reader mode added latency p95", added["p95"], MAX_ADDED_P95_MS, "ms", at_most=True),
        Target("failed requests", float(results["failures"]), 0.0, "requests", at_most=True),
    ]
