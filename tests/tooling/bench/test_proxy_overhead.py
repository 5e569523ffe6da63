"""Tests for plainview_dev.bench.proxy_overhead, with the smoke run of the proxy benchmark."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from plainview_dev.bench import proxy_overhead
from plainview_dev.bench.common import DEFAULT_DATASET, load_pages
from plainview_dev.bench.proxy_overhead import Measured, PageFacts, subresources


def test_subresources_counts_distinct_fetched_references() -> None:
    page = b"""<html><head>
      <script src="/a.js"></script><script src="/a.js"></script><script>inline()</script>
      <link rel="stylesheet" href="/s.css"><link rel="Shortcut Icon" href="/f.ico">
      <link rel="canonical" href="/page"><link rel="preconnect" href="https://cdn">
      <link rel="preload" href="/font.woff2" as="font">
    </head><body>
      <img src="/1.png"><img srcset="/2.png 2x"><img alt="no source">
      <iframe src="/ad.html"></iframe><iframe></iframe>
    </body></html>"""
    assert subresources(page) == {"script": 1, "img": 2, "link": 3, "iframe": 1}


def test_subresources_of_nothing() -> None:
    assert subresources(b"") == {"script": 0, "img": 0, "link": 0, "iframe": 0}
    assert subresources(b"   \n") == {"script": 0, "img": 0, "link": 0, "iframe": 0}


def test_summarise_takes_each_page_median_and_the_differences() -> None:
    # Three pages, three rounds; page 2 failed once on mitmproxy, page 3 always on plainview.
    seconds = {
        "direct": [[0.001, 0.002, 0.003]] * 3,
        "mitmproxy": [[0.005, 0.006, 0.007], [0.005, math.nan, 0.007], [0.009, 0.006, 0.007]],
        "plainview": [[0.015, 0.026, math.nan]] * 3,
    }
    facts = [
        PageFacts(1000, 100, True, {"script": 3, "img": 2}, {"img": 1}),
        PageFacts(2000, 2000, False, {"script": 5}, {"script": 5}),
        PageFacts(1000, 300, True, {"link": 2}, {}),
    ]
    # The worker's part, from Server-Timing: none for page 2 (sent back as the original).
    worker = [[4.0, math.nan, math.nan], [6.0, math.nan, math.nan], [5.0, math.nan, math.nan]]
    summary = proxy_overhead.summarise(
        Measured(seconds, facts, ["plainview 3: status 502"], worker_ms=worker)
    )
    assert summary["latency_ms"]["direct"]["p50"] == pytest.approx(2.0)
    assert summary["latency_ms"]["mitmproxy"]["p50"] == pytest.approx(6.0)
    added = summary["added_ms"]["plainview_over_mitmproxy"]
    # Page medians: mitmproxy 5, 6, 7 ms; plainview 15, 26 ms, none: differences 10, 20.
    assert added["p50"] == pytest.approx(15.0)
    assert summary["added_ms"]["mitmproxy_over_direct"]["p50"] == pytest.approx(4.0)
    # Page 1: added 10 ms, the worker's median 5 ms of it.
    split = summary["added_split_ms"]
    assert split["worker"]["p50"] == split["worker"]["p99"] == pytest.approx(5.0)
    assert split["beyond_worker"]["p50"] == split["beyond_worker"]["p99"] == pytest.approx(5.0)
    assert summary["bytes"] == {
        "reader_views": 2,
        "originals_sent": 1,
        "original_total": 4000,
        "sent_total": 2400,
        "sent_share": 0.6,
        "reader_view_median_share": pytest.approx(0.2),
    }
    by_kind = summary["subresources"]["by_kind"]
    assert summary["subresources"]["pages"] == 2
    assert by_kind["script"] == {"original": 3, "reader": 0, "saved": 3}
    assert by_kind["img"] == {"original": 2, "reader": 1, "saved": 1}
    assert by_kind["link"] == {"original": 2, "reader": 0, "saved": 2}
    assert summary["failures"] == 1
    assert summary["failure_examples"] == ["plainview 3: status 502"]


def test_targets_judge_the_added_latency_and_failures() -> None:
    results = {
        "added_ms": {"plainview_over_mitmproxy": {"p50": 8.0, "p95": 41.0, "p99": 60.0}},
        "failures": 0,
    }
    verdicts = {t.name: t.passed for t in proxy_overhead.targets(results)}
    assert verdicts == {
        "reader mode added latency p50": True,
        "reader mode added latency p95": False,
        "failed requests": True,
    }


@pytest.mark.e2e
def test_smoke_run_three_pages_one_round(tmp_path: Path) -> None:
    pages = load_pages(DEFAULT_DATASET, 3)
    # A generous page budget: the first pages meet workers still starting on a busy machine.
    results = proxy_overhead.run(
        pages, 1, DEFAULT_DATASET, tmp_path, options=["plainview_timeout=60"]
    )
    assert results["benchmark"] == "proxy"
    assert (results["pages"], results["rounds"]) == (3, 1)
    assert results["failures"] == 0, results["failure_examples"]
    assert results["altered_by_mitmproxy"] == 0
    for path in proxy_overhead.PATHS:
        latency = results["latency_ms"][path]
        assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"], path
    assert set(results["added_ms"]) == {"plainview_over_mitmproxy", "mitmproxy_over_direct"}
    # Each reader view says what its worker took (Server-Timing): a part of the wait.
    split = results["added_split_ms"]
    assert 0 < split["worker"]["p50"] <= split["worker"]["p99"]
    assert split["worker"]["p50"] < results["latency_ms"]["plainview"]["p99"]
    size = results["bytes"]
    assert size["original_total"] == sum(len(page.body) for page in pages)
    assert size["reader_views"] + size["originals_sent"] == 3
    assert size["reader_views"] >= 1
    assert 0 < size["sent_share"] < 1
    for counts in results["subresources"]["by_kind"].values():
        assert counts["original"] >= counts["reader"] >= 0
        assert counts["saved"] == counts["original"] - counts["reader"]
    memory = results["memory"]
    assert memory["plainview"]["peak_total_mib"] >= memory["plainview"]["rss_mib"] > 0
    assert [c["role"] for c in memory["plainview"]["children"]].count("worker") >= 1
    assert memory["mitmproxy"]["children"] == []
    assert len(proxy_overhead.targets(results)) == 3
