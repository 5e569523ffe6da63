"""Tests for plainview_dev.bench.concurrency, with the smoke run of the concurrency benchmark."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from pathlib import Path
from typing import Any

import pytest
from plainview_dev.bench import concurrency
from plainview_dev.bench.common import DEFAULT_DATASET, BenchPage, load_pages
from plainview_dev.bench.concurrency import Tally

from tests.local_http import Reply, Server, serve


def test_tally_adds_up_and_reports() -> None:
    tally = Tally(reader=2, original=1, seconds=[0.010, 0.020, 0.030])
    tally.add(Tally(reader=1, failures=["x: status 502"], seconds=[0.040]))
    report = tally.to_json()
    assert report["requests"] == 5
    assert (report["reader_views"], report["originals_sent"], report["failures"]) == (3, 1, 1)
    assert report["failure_examples"] == ["x: status 502"]
    assert report["latency_ms"]["p50"] == pytest.approx(25.0)


def test_tally_gives_the_rate_over_the_running_time() -> None:
    tally = Tally(reader=6, seconds=[0.01] * 6, running=2.0)
    tally.add(Tally(original=2, seconds=[0.01] * 2, running=2.0))
    assert tally.to_json()["pages_per_s"] == pytest.approx(2.0)
    assert Tally().to_json()["pages_per_s"] != Tally().to_json()["pages_per_s"]  # NaN


class _StopAfter:
    """A stop signal that is set once the server has answered `count` requests."""

    def __init__(self, server: Server, count: int) -> None:
        self.server, self.count = server, count

    def is_set(self) -> bool:
        return len(self.server.requests) >= self.count


def _run_loaders(rate: float | None, count: int) -> tuple[Tally, float]:
    """Run the loading clients against a local server standing in for the proxy."""
    page = "http://origin.test/page"
    with serve({page: Reply(200, b"<p>page</p>")}) as server:
        receiver, sender = multiprocessing.Pipe(duplex=False)
        stop: Any = _StopAfter(server, count)
        started = time.perf_counter()
        tally = asyncio.run(concurrency._load([page], server.base, rate, stop, sender))
        seconds = time.perf_counter() - started
        assert receiver.poll(), "the clients said they were ready"
    return tally, seconds


def test_paced_loaders_start_no_more_pages_than_the_rate() -> None:
    rate, count = 100.0, 40
    tally, seconds = _run_loaders(rate, count)
    assert tally.requests >= count and not tally.failures
    # The first starts spread over one interval; after that one start per 1/rate seconds.
    assert seconds >= (tally.requests - 1) / rate
    assert tally.to_json()["pages_per_s"] <= rate * 1.05


def test_loaders_without_a_proxy_ask_the_origin_itself() -> None:
    with serve({"/page": Reply(200, b"<p>page</p>")}) as server:
        _receiver, sender = multiprocessing.Pipe(duplex=False)
        stop: Any = _StopAfter(server, 10)
        url = f"{server.base}/page"
        tally = asyncio.run(concurrency._load([url], None, None, stop, sender))
    assert tally.original >= 10 and not tally.failures
    # Origin-form targets: a proxy would have been sent the absolute URL.
    assert {request["path"] for request in server.requests} == {"/page"}


def test_passthrough_failures_count_probes_and_loaders() -> None:
    runs = [
        {"idle": {"failures": 1}, "loaded": {"failures": 2}, "loaders": {"failures": 4}},
        {"idle": {"failures": 0}, "loaded": {"failures": 0}, "loaders": {"failures": 8}},
    ]
    assert concurrency.passthrough_failures(runs) == 15


def test_probe_summary_takes_round_medians_and_the_slowdown() -> None:
    idle = [Tally(original=4, seconds=[0.010] * 4), Tally(original=4, seconds=[0.012] * 4)]
    loaded = [
        Tally(original=4, seconds=[0.011, 0.011, 0.011, 0.030]),
        Tally(original=3, failures=["/image.png: status 502"], seconds=[0.013] * 3),
    ]
    summary = concurrency._probe_summary({"idle": idle, "loaded": loaded}, Tally(reader=7))
    assert summary["idle"]["p50_ms"] == pytest.approx(11.0)
    assert summary["idle"]["p95_ms"] == pytest.approx(11.0)
    assert summary["loaded"]["p50_ms"] == pytest.approx(12.0)
    # Round p95s: 11 + 0.85 * 19 = 27.15 and 13; their median 20.075.
    assert summary["loaded"]["p95_ms"] == pytest.approx(20.075)
    assert summary["slowdown_p95"] == pytest.approx(20.075 / 11 - 1)
    assert (summary["loaded"]["requests"], summary["loaded"]["failures"]) == (8, 1)
    assert summary["loaders"]["reader_views"] == 7


def test_largest_pages_come_largest_first() -> None:
    pages = [BenchPage(str(n), "u", b"x" * size) for n, size in enumerate([5, 50, 20, 7])]
    assert [p.file_id for p in concurrency.largest_pages(pages, 2)] == ["1", "2"]
    assert len(concurrency.largest_pages(pages)) == 4


def test_targets_judge_the_slowdown_and_failures() -> None:
    results = {"passthrough": {"slowdown_p95": 0.15}, "failures": 2}
    verdicts = {t.name: (t.value, t.passed) for t in concurrency.targets(results)}
    assert verdicts["passthrough p95 slowdown under load"] == (pytest.approx(15.0), True)
    assert verdicts["failed requests"] == (2.0, False)


@pytest.mark.e2e
def test_smoke_run_small_sample_one_round(tmp_path: Path) -> None:
    pages = load_pages(DEFAULT_DATASET, 4)
    # The two smallest pages stand in for the largest: the smoke run proves the parts work.
    largest = sorted(pages, key=lambda page: len(page.body))[:2]
    setup = concurrency.Setup(
        rounds=1,
        probes=6,
        dataset=DEFAULT_DATASET,
        workdir=tmp_path,
        # A generous page budget: the first pages meet workers still starting.
        options=["plainview_timeout=60"],
    )
    results = concurrency.run(pages, largest, setup)
    assert results["benchmark"] == "concurrency"
    assert results["failures"] == 0, results
    assert [entry["id"] for entry in results["largest"]] == [p.file_id for p in largest]
    passthrough = results["passthrough"]
    for phase in ("idle", "loaded"):
        assert passthrough[phase]["requests"] == 6
        assert 0 < passthrough[phase]["p50_ms"] <= passthrough[phase]["p95_ms"]
    assert passthrough["slowdown_p95"] > -1
    # Each loading client saw at least one page through before the probe started.
    assert passthrough["loaders"]["requests"] >= concurrency.LOADERS
    assert list(results["throughput"]) == ["1", "2", "8"]
    levels = list(results["throughput"].values())
    for level in levels:
        assert level["requests"] == 4
        assert level["reader_views"] + level["originals_sent"] == 4
        assert level["pages_per_s"] > 0
        assert level["main_cpu_cores"] >= 0 and level["workers_cpu_cores"] >= 0
    # CPU time comes in clock ticks (10 ms): the main process may spend less than
    # one on four small pages, the workers not on the twelve they extract.
    assert sum(level["workers_cpu_cores"] for level in levels) > 0
    assert results["memory"]["peak_total_mib"] > 0
    assert [c["role"] for c in results["memory"]["children"]].count("worker") >= 1
    assert len(concurrency.targets(results)) == 2
    # The floor: a bare mitmdump, its loaders paced to the rate Plainview's achieved.
    floor = results["mitmproxy_floor"]
    for phase in ("idle", "loaded"):
        assert floor[phase]["requests"] == 6 and floor[phase]["failures"] == 0
    assert floor["loaders"]["reader_views"] == 0
    assert floor["loaders"]["requests"] >= concurrency.LOADERS
    assert passthrough["loaders"]["pages_per_s"] > 0
