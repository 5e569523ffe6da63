"""End to end under load: a real `plainview proxy` between many clients and a local origin.

A shorter run of `scripts/loadtest` (scripts/plainview_dev/loadtest.py): every body arrives
byte-identical or, for pages, as a reader view; no request fails; large
downloads stream; the proxy's memory stays bounded; and a worker killed in the
middle of a page costs that page its reader view and nothing else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from e2e_servers import DATASET, PAGE_BUDGET, Fetched, ProxyProcess, fetch_through, run_proxy
from plainview_dev.loadtest import (
    MIB,
    LoadSettings,
    OriginSpec,
    Report,
    Target,
    fetch_manifest,
    is_reader_view,
    kill_busy_worker,
    measure,
    pool_workers,
    run_origin,
    summary,
    wait_for_idle_workers,
    wait_for_workers,
)

pytestmark = pytest.mark.e2e

SPEC = OriginSpec(dataset=str(DATASET), pages=40, large_bytes=20 * MIB, big_page_bytes=6 * MIB)
LOAD = LoadSettings(requests=500, clients=20, large_count=4, large_html=False, deadline=900)
# Four large downloads at once, nothing else: the memory of streaming alone.
DOWNLOADS = ["/large/length.bin", "/large/chunked.bin"] * 2
BIG_PAGE = "/big/article.html"


@dataclass(frozen=True)
class Origin:
    """The load origin's base URL and its spec."""

    base: str
    spec: OriginSpec


@pytest.fixture(scope="module")
def origin() -> Iterator[Origin]:
    """Run the load origin (dataset pages, assets, large downloads) in its own process."""
    with run_origin(SPEC) as base:
        yield Origin(base, SPEC)


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[ProxyProcess]:
    """Run a fresh `plainview proxy` for one test, so memory and workers are its own."""
    with run_proxy(tmp_path) as running:
        yield running


def target(proxy: ProxyProcess, origin: Origin) -> Target:
    """Describe the proxy and origin for the load generator."""
    return Target(proxy.address, proxy.process.pid, origin.base, proxy.log)


def check_promises(report: Report) -> None:
    """Fail with the report's summary unless every body arrived whole and nothing failed."""
    text = summary(report)
    assert report.finished, text
    assert report.completed == report.requests, text
    assert report.failures == 0, text
    assert report.mismatches == 0, text
    assert report.large_streamed == report.large_planned, text
    assert report.proxy_errors == [], text
    # The proxy process grew by less than one page (of the page size limit) per client.
    assert report.memory.proxy_growth < report.memory_limit, text
    assert report.ok, text


def test_nothing_is_lost_under_load(proxy: ProxyProcess, origin: Origin) -> None:
    downloads = measure(replace(LOAD, clients=4), target(proxy, origin), SPEC, DOWNLOADS)
    print(summary(downloads))
    check_promises(downloads)
    # Buffering even one of the four downloads would add its whole size (and more).
    assert downloads.memory.proxy_growth < SPEC.large_bytes, summary(downloads)
    report = measure(LOAD, target(proxy, origin), SPEC)
    print(summary(report))
    check_promises(report)
    assert report.large_planned == LOAD.large_count
    # Both ways out were taken: pages became reader views, others went out as they were.
    assert report.html_reader > 0 and report.html_identical > 0, summary(report)
    # Every request counted once: the planned ones and the pages framing a frame request.
    assert report.requests > LOAD.requests, summary(report)
    assert report.html_reader + report.html_identical + report.other_identical == report.requests


def fetch(proxy: ProxyProcess, url: str) -> Fetched:
    """GET a URL through the proxy."""
    return fetch_through(proxy, url, timeout=PAGE_BUDGET * 2)


def test_a_worker_killed_mid_transform_costs_only_that_page(
    proxy: ProxyProcess, origin: Origin
) -> None:
    manifest = fetch_manifest(origin.base)
    pid = proxy.process.pid
    wait_for_workers(pid, PAGE_BUDGET)
    # Jobs of the earlier tests done, workers started: the busy worker is the page's.
    wait_for_idle_workers(pid, PAGE_BUDGET)
    url = origin.base + BIG_PAGE
    with ThreadPoolExecutor(1) as pool:
        # Watching starts before the request: the worker that takes up the page is killed
        # after a tenth of a second of work, long before its seconds of work are done.
        killer = pool.submit(kill_busy_worker, pid, PAGE_BUDGET)
        first = fetch(proxy, url)
        killed = killer.result()
    assert killed is not None, "no worker was seen working on the page"
    assert first.status == 200
    assert hashlib.sha256(first.body).hexdigest() == manifest[BIG_PAGE].sha256
    assert f"original {url}: the worker process crashed" in proxy.log.read_text()
    # The proxy carries on: a new worker makes the reader view of the same page.
    again = fetch(proxy, url)
    assert is_reader_view(again.headers.get("Content-Security-Policy", ""), again.body)
    assert killed not in {worker.pid for worker in pool_workers(pid)}
    image = fetch(proxy, origin.base + "/img/20480.jpeg")
    assert hashlib.sha256(image.body).hexdigest() == manifest["/img/20480.jpeg"].sha256


def test_a_large_chunked_page_streams_past_the_page_limit(proxy: ProxyProcess) -> None:
    # 64 MiB: buffered whole, the page alone would grow the proxy by more than that;
    # streamed, the growth is its transient buffers (about 20 MiB seen), far below.
    spec = replace(SPEC, gate_timeout=10.0, large_bytes=64 * MIB)
    with run_origin(spec) as base:
        report = measure(
            LOAD, Target(proxy.address, proxy.process.pid, base), spec, ["/large/page.html"]
        )
    check_promises(report)
    assert report.memory.proxy_growth < spec.large_bytes, summary(report)
