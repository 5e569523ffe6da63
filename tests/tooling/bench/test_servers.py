"""Tests for plainview_dev.bench.servers: a real origin process, real proxies, client and memory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from plainview_dev.bench import servers
from plainview_dev.bench.common import DEFAULT_DATASET, PAGE_CONTENT_TYPE, load_ids
from plainview_dev.bench.servers import PAGE_HEADERS, Client, Origin, Proxy, page_path

PAGE_ID = "0074"  # a plain article page (CDC, "Healthy Eating Tips")


@pytest.fixture(scope="module")
def origin() -> Iterator[Origin]:
    """Serve one dataset page from a real origin process."""
    with servers.run_origin(DEFAULT_DATASET, [PAGE_ID]) as running:
        yield running


@pytest.fixture(scope="module")
def page_body() -> bytes:
    """Return the served page's HTML."""
    return load_ids(DEFAULT_DATASET, [PAGE_ID])[0].body


def test_origin_resources_name_the_pages_and_the_subresources() -> None:
    served = servers.origin_resources({"0001": b"<p>one</p>"})
    assert served["/page/0001.html"] == (b"<p>one</p>", PAGE_CONTENT_TYPE)
    assert served["/image.png"][1] == "image/png"
    assert served["/style.css"][1] == "text/css"


@pytest.mark.parametrize(
    ("header", "metric", "expected"),
    [
        ('plainview;desc="reader view";dur=12.5, plainview-worker;dur=9', "plainview", 12.5),
        ('plainview;desc="reader view";dur=12.5, plainview-worker;dur=9', "plainview-worker", 9.0),
        ("db;dur=53, app;dur=47.2", "plainview", None),
        ('plainview;desc="no duration"', "plainview", None),
        ("plainview;dur=soon", "plainview", None),
        ('plainview;DUR="3.5"', "plainview", 3.5),
        ("", "plainview", None),
    ],
)
def test_server_timing_ms(header: str, metric: str, expected: float | None) -> None:
    assert servers.server_timing_ms(header, metric) == expected


def test_proxy_commands() -> None:
    home = Path("/nowhere")
    reader = servers.proxy_command("plainview", 8123, home)
    assert reader[1:4] == ["-m", "addon.cli.main", "proxy"]
    assert reader[reader.index("--mode") : reader.index("--mode") + 2] == ["--mode", "reader"]
    assert "confdir=/nowhere/mitmproxy" in reader
    bare = servers.proxy_command("mitmdump", 8123, home)
    assert bare[0].endswith("mitmdump")
    assert "-s" not in bare  # no addon
    assert "flow_detail=0" in bare
    with_options = servers.proxy_command("plainview", 8123, home, ["plainview_timeout=9"])
    assert with_options[-2:] == ["--set", "plainview_timeout=9"]
    streaming = servers.proxy_command("mitmdump", 8123, home, ["stream_large_bodies=64k"])
    assert streaming[-2:] == ["--set", "stream_large_bodies=64k"]
    assert "flow_detail=0" in streaming
    # mitmdump refuses an option given twice: the one asked for replaces the default.
    detailed = servers.proxy_command("mitmdump", 8123, home, ["flow_detail=2"])
    assert "flow_detail=0" not in detailed and detailed[-1] == "flow_detail=2"


@pytest.mark.e2e
def test_origin_serves_pages_subresources_and_404(origin: Origin, page_body: bytes) -> None:
    client = Client()
    page = client.get(origin.url(page_path(PAGE_ID)))
    assert not isinstance(page, str)
    assert (page.status, page.body) == (200, page_body)
    assert page.headers["content-type"] == PAGE_CONTENT_TYPE
    assert page.seconds > 0 and not page.is_reader_view
    image = client.get(origin.url("/image.png"))
    assert not isinstance(image, str) and image.body == servers.IMAGE
    missing = client.get(origin.url("/page/9999.html"))
    assert not isinstance(missing, str) and missing.status == 404
    client.close()


def test_client_reports_a_refused_connection_as_a_reason() -> None:
    outcome = Client().get(f"http://127.0.0.1:{servers.free_port()}/")
    assert isinstance(outcome, str) and "Connection" in outcome


def test_origin_that_cannot_start_raises() -> None:
    with (
        pytest.raises(servers.StartFailed, match="origin did not start"),
        servers.run_origin(DEFAULT_DATASET, ["9999"]),
    ):
        pass


@pytest.fixture(scope="module")
def bare_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """Run a bare mitmdump."""
    with servers.run_proxy("mitmdump", tmp_path_factory.mktemp("bare")) as proxy:
        yield proxy


@pytest.fixture(scope="module")
def reader_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """Run `plainview proxy` in reader mode."""
    # A generous page budget: the first page meets workers still starting on a busy machine.
    home = tmp_path_factory.mktemp("reader")
    with servers.run_proxy("plainview", home, ["plainview_timeout=60"]) as proxy:
        yield proxy


@pytest.mark.e2e
def test_bare_mitmproxy_passes_the_page_unchanged(
    origin: Origin, bare_proxy: Proxy, page_body: bytes
) -> None:
    fetched = Client(bare_proxy.port).get(origin.url(page_path(PAGE_ID)), PAGE_HEADERS)
    assert not isinstance(fetched, str)
    assert (fetched.status, fetched.body) == (200, page_body)
    assert not fetched.is_reader_view


@pytest.mark.e2e
def test_plainview_proxy_serves_the_reader_view_and_passes_the_image(
    origin: Origin, reader_proxy: Proxy, page_body: bytes
) -> None:
    client = Client(reader_proxy.port)
    fetched = client.get(origin.url(page_path(PAGE_ID)), PAGE_HEADERS)
    assert not isinstance(fetched, str)
    assert fetched.status == 200 and fetched.is_reader_view
    assert b"Healthy Eating" in fetched.body and len(fetched.body) < len(page_body)
    # The real worker's time, within the proxy's wait for it.
    worker, total = fetched.server_timing("plainview-worker"), fetched.server_timing("plainview")
    assert worker is not None and total is not None
    assert 0 < worker <= total
    image = client.get(origin.url("/image.png"), servers.IMAGE_HEADERS)
    assert not isinstance(image, str) and image.body == servers.IMAGE
    assert "server-timing" not in image.headers


@pytest.mark.e2e
def test_memory_report_lists_the_workers(origin: Origin, reader_proxy: Proxy) -> None:
    # A page makes sure the pool is up.
    Client(reader_proxy.port).get(origin.url(page_path(PAGE_ID)), PAGE_HEADERS)
    report = servers.memory_report(reader_proxy.process.pid)
    workers = [child for child in report["children"] if child["role"] == "worker"]
    assert len(workers) == max(1, (os.cpu_count() or 1) - 1)  # one core left to the proxy
    assert all(child["rss_mib"] > 0 for child in report["children"])
    assert report["peak_rss_mib"] >= report["rss_mib"] > 0
    assert report["total_rss_mib"] >= report["rss_mib"] + sum(w["rss_mib"] for w in workers) - 1


@pytest.mark.e2e
def test_memory_sampler_keeps_the_peak_of_the_tree(reader_proxy: Proxy) -> None:
    # An hour's interval: only the samples at both ends are taken.
    with servers.MemorySampler(reader_proxy.process.pid, interval=3600) as sampler:
        assert sampler.peak_total > 0
    assert sampler.peak_mib is not None and sampler.peak_mib > 0
    assert (
        servers.tree_rss(reader_proxy.process.pid)
        > psutil.Process(reader_proxy.process.pid).memory_info().rss
    )


@pytest.mark.e2e
def test_cpu_seconds_grow_with_work_in_the_workers(origin: Origin, reader_proxy: Proxy) -> None:
    main_before, workers_before = servers.cpu_seconds(reader_proxy.process.pid)
    client = Client(reader_proxy.port)
    # CPU time is counted in clock ticks (10 ms): one fast page may not show in it.
    for _ in range(20):
        client.get(origin.url(page_path(PAGE_ID)), PAGE_HEADERS)
        main_after, workers_after = servers.cpu_seconds(reader_proxy.process.pid)
        if main_after > main_before and workers_after > workers_before:
            break
    assert main_after > main_before > 0
    assert workers_after > workers_before


def test_peak_rss_of_this_process() -> None:
    me = psutil.Process()
    peak = servers.peak_rss(me)
    assert peak is not None and peak >= me.memory_info().rss * 0.5
