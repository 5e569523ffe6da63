"""Tests for plainview_dev.bench.report: tables from result JSON, as text and Markdown."""

from __future__ import annotations

import math

import pytest
from plainview_dev.bench import report
from plainview_dev.bench.common import Json, Target
from plainview_dev.bench.report import Table

SPREAD = {"p50": 1.0, "p95": 2.0, "p99": 3.0}
MEMORY = {
    "rss_mib": 90.0,
    "peak_rss_mib": 95.5,
    "children": [{"pid": 7, "role": "worker", "rss_mib": 80.0, "peak_rss_mib": 85.0}],
    "total_rss_mib": 170.0,
    "peak_total_mib": 180.0,
}
EXTRACTION: Json = {
    "benchmark": "extraction",
    "pages": 2,
    "bytes": 3_000_000,
    "rounds": 3,
    "contenders": [
        {"name": "plainview", "label": "plainview (addanag-plus)", "mb_per_s": 42.25,
         "median_ms": 2.0, "p99_ms": 9.0, "mean_ms": 3.0, "errors": 0},
        {"name": "trafilatura", "label": "trafilatura 2.3.1", "mb_per_s": 6.0,
         "median_ms": 14.0, "p99_ms": 60.0, "mean_ms": 20.0, "errors": 1},
    ],
    "ratios": {"trafilatura": 7.04},
    "profile": {
        "articles": 2, "skipped": 0,
        "stages": [{"stage": "parse", "total_ms": 10.0, "share": 0.25, "median_ms": 5.0}],
    },
    "targets": [Target("extraction throughput", 42.25, 40.0, "MB/s", at_most=False).to_json()],
}  # fmt: skip
PROXY: Json = {
    "benchmark": "proxy",
    "pages": 2,
    "rounds": 1,
    "latency_ms": {"direct": SPREAD, "mitmproxy": SPREAD, "plainview": SPREAD},
    "added_ms": {"plainview_over_mitmproxy": SPREAD, "mitmproxy_over_direct": SPREAD},
    "bytes": {
        "reader_views": 1, "originals_sent": 1, "original_total": 2_000_000,
        "sent_total": 1_100_000, "sent_share": 0.55, "reader_view_median_share": 0.1,
    },
    "subresources": {"pages": 1, "by_kind": {"script": {"original": 4, "reader": 0, "saved": 4}}},
    "failures": 0,
    "failure_examples": [],
    "altered_by_mitmproxy": 0,
    "memory": {"plainview": MEMORY, "mitmproxy": {**MEMORY, "children": []}},
    "targets": [Target("failed requests", 0.0, 0.0, "requests", at_most=True).to_json()],
}  # fmt: skip
LEVEL = {
    "pages_per_s": 12.5, "latency_ms": SPREAD, "reader_views": 3, "originals_sent": 1,
    "failures": 0, "requests": 4, "main_cpu_cores": 0.5, "workers_cpu_cores": 1.25,
}  # fmt: skip

def _phases(
    idle: tuple[float, float], loaded: tuple[float, float], *, reader: int, original: int,
    rate: float,
) -> Json:
    """Return one proxy's passthrough results: probe p50/p95 idle and loaded, the loaders."""
    phases: Json = {
        name: {"p50_ms": p50, "p95_ms": p95, "requests": 600, "failures": 0}
        for name, (p50, p95) in (("idle", idle), ("loaded", loaded))
    }
    return {
        **phases,
        "slowdown_p50": loaded[0] / idle[0] - 1,
        "slowdown_p95": loaded[1] / idle[1] - 1,
        "loaders": {"requests": reader + original, "reader_views": reader,
                    "originals_sent": original, "failures": 0, "latency_ms": SPREAD,
                    "pages_per_s": rate},
    }  # fmt: skip


CONCURRENCY: Json = {
    "benchmark": "concurrency",
    "pages": 4,
    "largest": [{"id": "0588", "bytes": 5_318_214}, {"id": "0602", "bytes": 5_071_471}],
    "rounds": 3,
    "cores": 2,
    "passthrough": _phases((5.0, 8.0), (6.0, 12.0), reader=30, original=10, rate=4.0),
    "mitmproxy_floor": _phases((4.0, 6.0), (5.0, 10.5), reader=0, original=38, rate=3.8),
    "throughput": {str(n): {**LEVEL, "clients": n} for n in (1, 2, 8)},
    "failures": 0,
    "memory": MEMORY,
    "targets": [
        Target("passthrough p95 slowdown under load", 50.0, 20.0, "%", at_most=True).to_json()
    ],
}  # fmt: skip


def test_number_and_percent_show_missing_values_as_a_dash() -> None:
    assert report.number(1234.567) == "1,234.6"
    assert report.number(2, 0) == "2"
    assert report.number(None) == report.number(math.nan) == "-"
    assert report.percent(0.255) == "25.5%"
    assert report.percent(None) == "-"


def test_markdown_escapes_pipes_and_bolds_the_title() -> None:
    table = Table("Title", ("a", "b"), (("x|y", "1"),))
    assert report.markdown(table) == "**Title**\n\n| a | b |\n|---|---|\n| x\\|y | 1 |"


def test_text_aligns_columns() -> None:
    table = Table("Title", ("name", "n"), (("long name", "1"), ("x", "22")))
    assert report.text(table).splitlines() == [
        "Title",
        "name       n",
        "---------  --",
        "long name  1",
        "x          22",
    ]


def test_extraction_tables() -> None:
    tables = report.tables(EXTRACTION)
    assert [t.title.split(":")[0] for t in tables] == ["Extraction", "Plainview profile", "Targets"]
    assert tables[0].rows[0][:2] == ("plainview (addanag-plus)", "42.2")
    assert tables[0].rows[1][5:] == ("7.04x", "1")
    assert tables[0].rows[0][5] == "-"
    assert tables[1].rows == (("parse", "10", "25.0%", "5.00"),)
    assert tables[2].rows == (("extraction throughput", "42.2 MB/s", ">= 40.0 MB/s", "pass"),)


def test_proxy_tables() -> None:
    tables = {t.title: t for t in report.tables(PROXY)}
    assert "Added latency per page" in tables
    assert tables["Added latency per page"].rows[0] == (
        "plainview over mitmproxy",
        "1.0",
        "2.0",
        "3.0",
    )
    sizes = tables["What the user downloads (the page itself)"].rows[0]
    assert sizes == ("1", "1", "2.0", "1.1", "55.0%", "10.0%")
    assert tables["Subresources referenced, over the 1 reader views"].rows == (
        ("script", "4", "0", "4"),
    )
    plainview = tables["Memory of the plainview proxy after the run"].rows
    assert plainview[1] == ("worker (pid 7)", "80.0", "85.0")
    assert plainview[-1] == ("all together", "170.0", "180.0")
    assert tables["Memory of the mitmproxy proxy after the run"].rows[-1][2] == "180.0"
    assert tables["Targets"].rows == (("failed requests", "0 requests", "<= 0 requests", "pass"),)
    # Results of a run before the proxy sent Server-Timing have no split.
    assert not any("split" in title for title in tables)


def test_proxy_tables_split_the_added_latency_at_the_worker() -> None:
    split = {"worker": {"p50": 9.0, "p95": 30.0, "p99": 50.0}, "beyond_worker": SPREAD}
    tables = {t.title: t for t in report.tables({**PROXY, "added_split_ms": split})}
    assert tables["Reader views: the added latency split (Server-Timing)"].rows == (
        ("worker: decode, extract, render", "9.0", "30.0", "50.0"),
        ("the rest: handing over, hooks", "1.0", "2.0", "3.0"),
    )


def test_concurrency_tables() -> None:
    tables = report.tables(CONCURRENCY)
    passthrough, loaders, floor, floor_loaders, throughput, memory, targets = tables
    assert "2 largest pages (5.1-5.3 MB)" in passthrough.title
    assert passthrough.rows[-1] == ("slowdown", "20.0%", "50.0%", "", "")
    assert loaders.rows == (("40", "4.0", "30", "10", "0", "1", "2"),)
    assert "bare mitmdump" in floor.title and "Plainview's rate (4.0 pages/s)" in floor.title
    assert floor.rows[1] == ("loaded", "5.0", "10.5", "600", "0")
    assert floor.rows[-1] == ("slowdown", "25.0%", "75.0%", "", "")
    assert floor_loaders.rows == (("38", "3.8", "0", "38", "0", "1", "2"),)
    assert [row[0] for row in throughput.rows] == ["1", "2", "8"]
    assert throughput.rows[0][1:] == ("12.5", "1", "2", "0.50", "1.25", "3", "1", "0")
    assert memory.title == "Memory of the plainview proxy after the run"
    assert targets.rows[0][3] == "FAIL"


def test_concurrency_tables_of_a_run_without_the_floor() -> None:
    before = {key: value for key, value in CONCURRENCY.items() if key != "mitmproxy_floor"}
    titles = [table.title for table in report.tables(before)]
    assert len(titles) == 5 and not any("bare mitmdump" in title for title in titles)


FLOOR: Json = {
    "benchmark": "floor",
    "largest": [{"id": "0588", "bytes": 5_318_214}, {"id": "0602", "bytes": 5_071_471}],
    "rounds": 3,
    "rates": [5.0, 40.0],
    "mitmdump_options": ["stream_large_bodies=64k"],
    "direct": {
        "5": _phases((1.0, 1.0), (1.0, 1.1), reader=0, original=20, rate=5.0),
        "40": _phases((1.0, 1.0), (1.1, 1.2), reader=0, original=160, rate=39.5),
    },
    "mitmdump": {
        "5": _phases((3.0, 4.0), (3.5, 5.0), reader=0, original=20, rate=4.9),
        "40": _phases((3.0, 4.0), (4.0, 7.0), reader=0, original=150, rate=37.25),
    },
    "failures": 0,
    "targets": [Target("failed requests", 0.0, 0.0, "requests", at_most=True).to_json()],
}


def test_floor_tables_put_each_rate_on_a_row() -> None:
    floor, targets = report.tables(FLOOR)
    assert "2 largest pages" in floor.title and "(stream_large_bodies=64k)" in floor.title
    assert floor.rows == (
        ("5", "5.0", "1.0", "1.1", "10.0%", "4.9", "4.0", "5.0", "25.0%"),
        ("40", "39.5", "1.0", "1.2", "20.0%", "37.2", "4.0", "7.0", "75.0%"),
    )
    assert targets.rows[0][3] == "pass"
    defaults = {key: value for key, value in FLOOR.items() if key != "mitmdump_options"}
    assert "(its defaults)" in report.tables(defaults)[0].title


@pytest.mark.parametrize("results", [EXTRACTION, PROXY, CONCURRENCY, FLOOR])
def test_render_joins_every_table(results: Json) -> None:
    text = report.render(results)
    markdown = report.render(results, as_markdown=True)
    assert text.count("\n\n") == markdown.count("\n\n**")
    assert markdown.startswith("**") and "|---|" in markdown
    assert "Targets" in text


def test_machine_table() -> None:
    machine = {
        "cpu": "AMD EPYC", "cores": 2, "ram_gib": 23.5, "system": "Linux 6", "python": "3.13.0",
        "libraries": {"lxml": "6.1.3", "trafilatura": "2.3.1"}, "load_average": [1.5, 2.0, 3.0],
        "commit": "abc1234", "date": "2026-11-21",
    }  # fmt: skip
    rows = dict(report.machine_table(machine).rows)
    assert rows["CPU"] == "AMD EPYC, 2 cores"
    assert rows["libraries"] == "lxml 6.1.3, trafilatura 2.3.1"
    assert set(rows) == {"CPU", "memory", "system", "Python", "libraries"}


def test_run_table_comes_first_when_the_run_is_known() -> None:
    machine = {"date": "2026-11-21 09:00", "commit": "abc1234", "load_average": [1.5, 2.0, 3.0]}
    results = {**PROXY, "machine": machine, "seconds": 170.3, "command": "scripts/bench proxy"}
    first = report.tables(results)[0]
    assert first.title == "Run of the proxy benchmark"
    assert first.rows == (
        ("2026-11-21 09:00", "abc1234", "1.5 2.0 3.0", "170", "scripts/bench proxy"),
    )
    assert report.tables(PROXY)[0].title.startswith("Proxy")
