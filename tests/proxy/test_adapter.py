"""Tests for the mitmproxy addon, driven by mitmproxy's own test helpers."""

from __future__ import annotations

import asyncio
import gzip
import logging
import multiprocessing
import os
import re
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import lxml.html
import pytest
from mitmproxy import exceptions, http
from mitmproxy.addons.proxyserver import Proxyserver
from mitmproxy.connection import Server
from mitmproxy.proxy.server_hooks import ServerConnectionHookData
from mitmproxy.test import taddons, tflow, tutils

from addon.cli import proxy_command
from addon.core.paper.pipelines import Single, Vote
from addon.core.result import Article, Block
from addon.job.content_encoding import decode_body
from addon.job.reader_job import WORKER_NICENESS, PageJob, PageOutcome, outcome_for, run_job
from addon.proxy.adapter import (
    Plainview,
    PoolFactory,
    default_pool,
    informational_length,
    server_timing,
)
from addon.settings.guard import site_token
from addon.settings.rules import SiteConfig

LONG_TEXT = "A river rises in the hills and runs to the sea. " * 10
ARTICLE_HTML = (
    b"<!doctype html><html><head><title>Rivers</title></head><body>"
    b"<nav>Home</nav><article><h1>Rivers</h1><p>" + LONG_TEXT.encode() + b"</p></article>"
    b"</body></html>"
)
# The transforms below take their cue from the body: the word "listing" makes the
# page not readerable, "tiny" gives it too little text.
LISTING_HTML = ARTICLE_HTML.replace(b"Rivers</h1>", b"listing</h1>")
TINY_HTML = ARTICLE_HTML.replace(b"Rivers</h1>", b"tiny</h1>")
RELEASE = threading.Event()


def fake_transform(job: PageJob) -> PageOutcome:
    """Stand in for extraction: one paragraph; then the real floor, modes and rendering."""
    decoded = decode_body(job.body, job.content_encoding, max_bytes=job.max_bytes)
    if decoded.body is None:
        return PageOutcome(None, "", decoded.problem)
    text = "Too short." if b"tiny" in decoded.body else LONG_TEXT
    article = Article(
        title="Rivers",
        blocks=(Block("p", f"<p>{text}</p>", text),),
        text=text,
        lang="en",
        dir="ltr",
        readerable=b"listing" not in decoded.body,
        url=job.url,
    )
    return outcome_for(article, job)


def slow_transform(job: PageJob) -> PageOutcome:
    """Block until the test releases it, far past any budget."""
    RELEASE.wait()
    return fake_transform(job)


def failing_transform(job: PageJob) -> PageOutcome:
    """Fail inside the worker, as a bug in extraction would."""
    raise RuntimeError("extraction exploded")


def crashing_transform(job: PageJob) -> PageOutcome:
    """Kill the worker process, as a segfault would."""
    os._exit(3)


def thread_pool(workers: int = 0) -> Executor:
    """Return a pool of threads: fast for tests of everything but crashes."""
    return ThreadPoolExecutor(max_workers=workers or 2)


def run(coroutine: Coroutine[Any, Any, None]) -> None:
    """Run one async test body."""
    asyncio.run(coroutine)


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """Return the path of a fresh config file."""
    return tmp_path / "conf" / "sites.toml"


def make_flow(
    body: bytes = ARTICLE_HTML,
    *,
    method: str = "GET",
    status: int = 200,
    content_type: str | None = "text/html; charset=utf-8",
    response_headers: tuple[tuple[str, str], ...] = (),
    request_headers: tuple[tuple[str, str], ...] = (("sec-fetch-dest", "document"),),
    host: str = "news.example",
    path: str = "/story",
    scheme: str = "https",
) -> http.HTTPFlow:
    """Return a flow with a request and a response from the site."""
    headers = [("content-type", content_type)] if content_type else []
    headers += [("set-cookie", "session=1"), ("etag", '"v1"'), *response_headers]
    headers.append(("content-length", str(len(body))))
    request = tutils.treq(
        host=host,
        port=443 if scheme == "https" else 80,
        scheme=scheme.encode(),
        method=method.encode(),
        path=path.encode(),
        headers=http.Headers([(k.encode(), v.encode()) for k, v in request_headers]),
        content=b"",
    )
    response = tutils.tresp(
        status_code=status,
        headers=http.Headers([(k.encode(), v.encode()) for k, v in headers]),
        content=body,
    )
    return tflow.tflow(req=request, resp=response)


def snapshot(flow: http.HTTPFlow) -> tuple[bytes | None, list[tuple[bytes, bytes]], int]:
    """Return the response's raw bytes, headers and status, to compare before and after;
    all but Cache-Control, which an original page load gets as no-cache."""
    assert flow.response is not None
    fields = [field for field in flow.response.headers.fields if field[0] != b"cache-control"]
    return flow.response.raw_content, fields, flow.response.status_code


class Harness:
    """An addon under taddons with a config file; cycles flows through every hook."""

    def __init__(self, addon: Plainview, tctx: taddons.context) -> None:
        self.addon = addon
        self.tctx = tctx

    async def cycle(self, flow: http.HTTPFlow) -> http.HTTPFlow:
        """Run a flow's request and response hooks, as mitmproxy would."""
        await self.addon.request(flow)
        if flow.metadata.get("plainview_own"):
            return flow
        await self.addon.responseheaders(flow)
        await self.addon.response(flow)
        return flow

    async def ask(self, flow: http.HTTPFlow) -> http.HTTPFlow:
        """Send a request that the addon answers itself (no upstream response)."""
        flow.response = None
        self.addon.requestheaders(flow)
        if flow.response is None:  # answered from its headers alone: the body is never read
            await self.addon.request(flow)
        assert flow.metadata.get("plainview_own"), "the request would have gone upstream"
        await self.addon.response(flow)
        return flow


def harness(
    config: Path,
    body: Callable[[Harness], Coroutine[Any, Any, None]],
    *,
    transform: Callable[[PageJob], PageOutcome] = fake_transform,
    pool: PoolFactory = thread_pool,
    **options: Any,
) -> None:
    """Run `body` with a configured addon."""

    async def main() -> None:
        addon = Plainview(transform=transform, pool_factory=pool)
        options.setdefault("plainview_site_memory_dir", str(config.parent / "site-memory"))
        with taddons.context(addon) as tctx:
            tctx.configure(addon, plainview_config=str(config), **options)
            try:
                await body(Harness(addon, tctx))
            finally:
                addon.done()

    run(main())


def is_reader(flow: http.HTTPFlow) -> bool:
    """Tell whether the response is Plainview's reader view."""
    assert flow.response is not None
    return "content-security-policy" in flow.response.headers and b"Show original" in (
        flow.response.content or b""
    )


# -- which responses ---------------------------------------------------------------------


def test_article_page_becomes_a_reader_view(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = await h.cycle(make_flow(response_headers=(("content-security-policy", "x"),)))
        assert flow.response is not None and is_reader(flow)
        headers = flow.response.headers
        assert headers["content-type"] == "text/html; charset=utf-8"
        policy = headers["content-security-policy"]
        assert policy.startswith("default-src 'none'; img-src * data:; style-src 'sha256-")
        assert "form-action http://plainview.proxy https://plainview.proxy 'self'" in policy
        assert "base-uri 'none'" in policy and "frame-ancestors 'none'" in policy
        assert headers["referrer-policy"] == "strict-origin"
        assert headers["cache-control"] == "no-store"
        assert "etag" not in headers and "content-security-policy-report-only" not in headers
        assert headers["set-cookie"] == "session=1"
        assert headers["content-length"] == str(len(flow.response.raw_content or b""))
        root = lxml.html.document_fromstring(flow.response.content or b"")
        assert root.xpath("//h1")[0].text == "Rivers"

    harness(config, body)


ORIGIN_ONLY = (
    ("link", "<https://tracker.example/pixel.js>; rel=preload; as=script"),
    ("refresh", "5; url=https://elsewhere.example/"),
    ("access-control-allow-origin", "*"),
    ("access-control-allow-credentials", "true"),
    ("access-control-expose-headers", "x-token"),
    ("timing-allow-origin", "*"),
)


def test_a_reader_view_drops_the_headers_that_speak_for_the_original(config: Path) -> None:
    # Issue 29 (3, 12): a preload fetched a third-party URL that is not in the
    # article; "Access-Control-Allow-Origin: *" let any site read a reader view
    # (and the site token in it) with fetch().
    async def body(h: Harness) -> None:
        flow = await h.cycle(make_flow(response_headers=ORIGIN_ONLY))
        assert flow.response is not None and is_reader(flow)
        assert [name for name, _ in ORIGIN_ONLY if name in flow.response.headers] == []
        original = await h.cycle(make_flow(response_headers=ORIGIN_ONLY, content_type="image/png"))
        assert original.response is not None
        assert all(name in original.response.headers for name, _ in ORIGIN_ONLY)

    harness(config, body)


def test_a_page_looks_its_site_settings_up_once_and_off_the_event_loop(config: Path) -> None:
    async def body(h: Harness) -> None:
        store = h.addon.store
        assert store is not None
        loop_thread = threading.get_ident()
        threads: list[int] = []
        current = store.current

        def counted() -> SiteConfig:
            threads.append(threading.get_ident())
            return current()

        store.current = counted  # type: ignore[method-assign]
        flow = await h.cycle(make_flow())
        assert is_reader(flow)
        assert len(threads) == 1  # one lookup for the decision and the job alike
        assert threads[0] != loop_thread  # the file's stat ran in a thread
        threads.clear()
        original = await h.cycle(make_flow(b"<p>tiny</p>"))
        assert not is_reader(original) and len(threads) == 1

    harness(config, body)


def test_a_reader_view_says_what_it_cost(config: Path) -> None:
    def timed(job: PageJob) -> PageOutcome:
        return replace(fake_transform(job), worker_ms=7.5)

    async def body(h: Harness) -> None:
        flow = await h.cycle(make_flow(response_headers=(("server-timing", "db;dur=40"),)))
        assert flow.response is not None and is_reader(flow)
        # The origin's header timed the original; the reader view's replaces it.
        header = flow.response.headers.get_all("server-timing")
        assert len(header) == 1
        timing = re.fullmatch(
            r'plainview;desc="reader view";dur=(\d+\.\d), '
            r'plainview-worker;desc="extraction and rendering";dur=7\.5',
            header[0],
        )
        assert timing is not None, header

    harness(config, body, transform=timed)


def test_an_original_keeps_its_own_server_timing(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = await h.cycle(
            make_flow(b"<p>tiny</p>", response_headers=(("server-timing", "db;dur=40"),))
        )
        assert flow.response is not None and not is_reader(flow)
        assert flow.response.headers.get_all("server-timing") == ["db;dur=40"]

    harness(config, body)


def test_server_timing_names_both_parts() -> None:
    assert server_timing(12.345, 9.87) == (
        'plainview;desc="reader view";dur=12.3, '
        'plainview-worker;desc="extraction and rendering";dur=9.9'
    )


@pytest.mark.parametrize(
    ("changes", "streamed"),
    [
        ({"method": "POST"}, True),
        ({"method": "HEAD"}, True),
        ({"status": 404}, True),
        ({"status": 206}, True),
        ({"content_type": "application/json"}, True),
        ({"content_type": "text/plain"}, True),
        ({"content_type": None}, True),
        ({"request_headers": (("sec-fetch-dest", "image"),)}, True),
        ({"request_headers": (("sec-fetch-dest", "iframe"),)}, True),
        ({"request_headers": (("sec-fetch-dest", "empty"),)}, True),
        ({"response_headers": (("content-disposition", "attachment; filename=a.html"),)}, True),
        # Issue 29 (3): without Fetch Metadata (Chromium sends none to plain-HTTP
        # sites), a script's fetch() and an <img> of an HTML page got reader views.
        ({"request_headers": (("accept", "*/*"),)}, True),
        ({"request_headers": (("accept", "image/avif,image/webp,image/*,*/*;q=0.8"),)}, True),
        ({"request_headers": (("accept", "text/html"), ("hx-request", "true"))}, True),
        ({"request_headers": (("accept", "text/html"), ("turbo-frame", "main"))}, True),
        ({"request_headers": (("accept", "text/html"), ("x-requested-with", "fetch"))}, True),
    ],
)
def test_responses_that_are_not_page_loads_pass_untouched(
    config: Path, changes: dict[str, Any], streamed: bool
) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow(**changes)
        before = snapshot(flow)
        await h.cycle(flow)
        assert snapshot(flow) == before
        assert flow.response is not None and flow.response.stream is streamed

    harness(config, body)


def test_xhtml_and_pages_without_sec_fetch_dest_are_transformed(config: Path) -> None:
    async def body(h: Harness) -> None:
        assert is_reader(await h.cycle(make_flow(content_type="application/xhtml+xml")))
        assert is_reader(await h.cycle(make_flow(request_headers=())))  # no Accept at all
        navigation = (("accept", "text/html,application/xhtml+xml,*/*;q=0.8"),)
        assert is_reader(await h.cycle(make_flow(request_headers=navigation)))
        assert is_reader(await h.cycle(make_flow(scheme="http")))

    harness(config, body)


def test_a_declared_length_over_the_limit_is_streamed(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow(ARTICLE_HTML + b" " * 2000)
        before = snapshot(flow)
        await h.cycle(flow)
        assert flow.response is not None and flow.response.stream is True
        assert snapshot(flow) == before

    harness(config, body, plainview_max_bytes=1000)


def test_a_buffered_body_over_the_limit_without_length_passes(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow(ARTICLE_HTML + b" " * 2000)
        assert flow.response is not None
        del flow.response.headers["content-length"]
        flow.response.headers["transfer-encoding"] = "chunked"
        before = snapshot(flow)
        await h.cycle(flow)
        assert snapshot(flow) == before
        assert h.addon.recent.newest()[0].reason.startswith("too large")

    harness(config, body, plainview_max_bytes=1000)


def test_a_gzipped_page_is_decoded_and_served_uncompressed(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow()
        assert flow.response is not None
        flow.response.encode("gzip")
        await h.cycle(flow)
        assert is_reader(flow)
        assert "content-encoding" not in flow.response.headers

    harness(config, body)


def test_a_compression_bomb_keeps_the_original(config: Path) -> None:
    async def body(h: Harness) -> None:
        bomb = gzip.compress(ARTICLE_HTML + b" " * 5_000_000)
        flow = make_flow(bomb, response_headers=(("content-encoding", "gzip"),))
        before = snapshot(flow)
        await h.cycle(flow)
        assert snapshot(flow) == before
        assert h.addon.recent.newest()[0].reason == "too large once decoded (over 100000 bytes)"

    harness(config, body, plainview_max_bytes=100_000)


def test_an_undecodable_body_passes_untouched(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow(response_headers=(("content-encoding", "gzip"),))
        before = snapshot(flow)
        await h.cycle(flow)
        assert snapshot(flow) == before
        assert h.addon.recent.newest()[0].reason.startswith("cannot decode")

    harness(config, body)


def test_answers_made_inside_the_proxy_are_left_alone(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow(host="mitm.it", path="/")
        flow.server_conn.timestamp_start = None
        before = snapshot(flow)
        await h.cycle(flow)
        assert snapshot(flow) == before
        assert h.addon.recent.newest()[0].reason == "not from the site"

    harness(config, body)


def test_websocket_upgrade_passes(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow(status=101)
        flow.websocket = tflow.twebsocket()
        before = snapshot(flow)
        await h.cycle(flow)
        assert snapshot(flow) == before

    harness(config, body)


def test_a_response_streamed_by_someone_else_is_left_alone(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow()
        assert flow.response is not None
        flow.response.stream = True
        before = snapshot(flow)
        await h.addon.response(flow)
        assert snapshot(flow) == before

    harness(config, body)


# -- modes, floor, failures --------------------------------------------------------------


def set_rule(config: Path, host: str, mode: str) -> None:
    """Write one rule through the config store, as the settings page does."""
    from addon.settings.rules import ConfigStore

    ConfigStore(config).set_rule(host, mode)


@pytest.mark.parametrize(
    ("mode", "page", "reader"),
    [
        ("reader", ARTICLE_HTML, True),
        ("reader", LISTING_HTML, True),
        ("original", ARTICLE_HTML, False),
        ("auto", ARTICLE_HTML, True),
        ("auto", LISTING_HTML, False),
    ],
)
def test_modes_from_a_site_rule(config: Path, mode: str, page: bytes, reader: bool) -> None:
    async def body(h: Harness) -> None:
        set_rule(config, "news.example", mode)
        flow = make_flow(page)
        before = snapshot(flow)
        await h.cycle(flow)
        assert is_reader(flow) is reader
        if not reader:
            assert snapshot(flow) == before

    harness(config, body)


@pytest.mark.parametrize(("mode", "reader"), [("original", False), ("reader", True)])
def test_mode_option_overrides_the_default_but_not_rules(
    config: Path, mode: str, reader: bool
) -> None:
    async def body(h: Harness) -> None:
        assert is_reader(await h.cycle(make_flow(LISTING_HTML))) is reader
        set_rule(config, "news.example", "auto")
        assert is_reader(await h.cycle(make_flow(LISTING_HTML))) is False

    harness(config, body, plainview_mode=mode)


def test_too_little_text_keeps_the_original_and_logs_why(
    config: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow(TINY_HTML)
        before = snapshot(flow)
        with caplog.at_level(logging.INFO, logger="addon.proxy.adapter"):
            await h.cycle(flow)
        assert snapshot(flow) == before
        lines = [r.getMessage() for r in caplog.records if r.name == "addon.proxy.adapter"]
        assert len(lines) == 1 and "too little text (10 < 200 characters)" in lines[0]

    harness(config, body)


def test_a_slow_transform_times_out_and_the_original_goes_out(
    config: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow()
        before = snapshot(flow)
        try:
            with caplog.at_level(logging.INFO, logger="addon.proxy.adapter"):
                await h.cycle(flow)
        finally:
            RELEASE.set()
        assert snapshot(flow) == before
        assert any("timed out after 0.05 s" in r.getMessage() for r in caplog.records)

    RELEASE.clear()
    harness(config, body, transform=slow_transform, plainview_timeout="0.05")


def test_a_failing_extraction_leaves_bytes_and_headers_untouched(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow()
        before = snapshot(flow)
        await h.cycle(flow)
        assert snapshot(flow) == before
        record = h.addon.recent.newest()[0]
        assert record.action == "original"
        assert record.reason == "extraction failed: RuntimeError: extraction exploded"

    harness(config, body, transform=failing_transform)


def spawn_pool(workers: int = 0) -> Executor:
    """Return a real one-process pool, like the default but smaller."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


def test_a_crashed_worker_serves_the_original_and_the_pool_is_recreated(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow()
        before = snapshot(flow)
        await h.cycle(flow)
        assert snapshot(flow) == before
        assert h.addon.recent.newest()[0].reason == "the worker process crashed"
        # The next page gets a fresh pool; the real worker function runs in it.
        h.addon.transform = fake_transform
        assert is_reader(await h.cycle(make_flow()))

    harness(config, body, transform=crashing_transform, pool=spawn_pool, plainview_timeout="60")


def _failing_initializer() -> None:
    raise RuntimeError("this worker cannot start")


def test_a_pool_broken_between_pages_costs_no_page(config: Path) -> None:
    made: list[Executor] = []

    def pools(workers: int) -> Executor:
        # The first pool's workers die as they start: it breaks with no page in it.
        spawn = multiprocessing.get_context("spawn")
        initializer = None if made else _failing_initializer
        made.append(ProcessPoolExecutor(max_workers=1, mp_context=spawn, initializer=initializer))
        return made[-1]

    async def body(h: Harness) -> None:
        with pytest.raises(BrokenProcessPool):
            h.addon.pool.get().submit(os.getpid).result(timeout=60)
        flow = await h.cycle(make_flow())
        assert h.addon.recent.newest()[0].reason == "reader view"
        assert is_reader(flow)
        assert len(made) == 2  # the broken pool was replaced, once

    harness(config, body, transform=fake_transform, pool=pools, plainview_timeout="60")


def test_the_default_pool_runs_jobs_in_worker_processes(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = await h.cycle(make_flow())
        assert h.addon.recent.newest()[0].reason == "reader view"
        assert is_reader(flow)

    harness(config, body, pool=default_pool, plainview_timeout="60")


def test_default_pool_workers_run_below_the_proxy_s_priority() -> None:
    niceness: list[int] = []

    async def main() -> None:
        pool = default_pool()
        try:
            niceness.append(await pool.run(os.nice, 0))
        finally:
            pool.shutdown()

    run(main())
    assert niceness == [min(os.nice(0) + WORKER_NICENESS, 19)]


# -- show original -----------------------------------------------------------------------


def test_show_original_redirects_to_the_clean_url_and_works_once(config: Path) -> None:
    async def body(h: Harness) -> None:
        marked = make_flow(path="/story?a=1&plainview=original&b=%20x")
        await h.ask(marked)
        assert marked.response is not None and marked.response.status_code == 303
        assert marked.response.headers["location"] == "https://news.example/story?a=1&b=%20x"
        # The browser follows the redirect: the site gets the clean URL, once untransformed.
        first = make_flow(path="/story?a=1&b=%20x")
        before = snapshot(first)
        await h.cycle(first)
        assert first.request.path == "/story?a=1&b=%20x"
        assert snapshot(first) == before
        assert is_reader(await h.cycle(make_flow(path="/story?a=1&b=%20x")))

    harness(config, body)


def test_read_this_page_gives_one_reader_view_on_a_site_shown_as_the_original(
    config: Path,
) -> None:
    # Issue 30 (2): from an original page there was no way in but a site rule.
    async def body(h: Harness) -> None:
        set_rule(config, "news.example", "original")
        rules = config.read_text(encoding="utf-8")
        marked = make_flow(path="/story?a=1&plainview=reader")
        await h.ask(marked)
        assert marked.response is not None and marked.response.status_code == 303
        assert marked.response.headers["location"] == "https://news.example/story?a=1"
        read = await h.cycle(make_flow(path="/story?a=1"))
        assert is_reader(read)
        assert h.addon.recent.newest()[0].action == "reader"
        # Once: the next load is the site's mode again, and no rule was written.
        assert not is_reader(await h.cycle(make_flow(path="/story?a=1")))
        assert config.read_text(encoding="utf-8") == rules

    harness(config, body)


def test_read_this_page_on_a_page_too_short_keeps_the_original(config: Path) -> None:
    async def body(h: Harness) -> None:
        tiny = ARTICLE_HTML.replace(LONG_TEXT.encode(), b"tiny")
        await h.ask(make_flow(path="/short?plainview=reader"))
        flow = await h.cycle(make_flow(tiny, path="/short"))
        assert not is_reader(flow)
        assert flow.response is not None and flow.response.content == tiny

    harness(config, body)


def test_a_marker_on_a_post_is_stripped_without_a_redirect(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow(method="POST", path="/form?plainview=original")
        await h.addon.request(flow)
        assert flow.request.path == "/form"
        assert not flow.metadata.get("plainview_own")

    harness(config, body)


@pytest.mark.parametrize(
    "request_headers", [(("sec-fetch-dest", "empty"),), (("accept", "*/*"),)]
)
def test_a_marker_on_a_request_that_is_no_page_load_arms_no_pass(
    config: Path, request_headers: tuple[tuple[str, str], ...]
) -> None:
    # Issue 29 (13): another site's fetch(url + "?plainview=original") armed a
    # 30 s pass that the user's next visit used.
    async def body(h: Harness) -> None:
        marked = make_flow(path="/story?plainview=original", request_headers=request_headers)
        await h.addon.request(marked)
        assert marked.request.path == "/story"  # the site never sees the marker
        assert not marked.metadata.get("plainview_own")
        assert is_reader(await h.cycle(make_flow()))
        set_rule(config, "news.example", "original")
        marked = make_flow(path="/story?plainview=reader", request_headers=request_headers)
        await h.addon.request(marked)
        assert marked.request.path == "/story"
        assert not is_reader(await h.cycle(make_flow()))

    harness(config, body)


def test_show_original_link_on_a_page_without_query(config: Path) -> None:
    async def body(h: Harness) -> None:
        marked = make_flow(path="/story?plainview=original")
        await h.ask(marked)
        assert marked.response is not None
        assert marked.response.headers["location"] == "https://news.example/story"

    harness(config, body)


CACHEABLE = (("cache-control", "public, max-age=3600"),)


def test_an_original_page_load_is_never_kept_by_the_browser(config: Path) -> None:
    # Issue 29 (4): "show original" went out with the page's Cache-Control and the
    # next load came from the browser's cache: the original, scripts and all, again.
    async def body(h: Harness) -> None:
        marked = make_flow(path="/story?plainview=original")
        await h.ask(marked)
        passed = await h.cycle(make_flow(response_headers=CACHEABLE))
        assert passed.response is not None and not is_reader(passed)
        assert passed.response.headers["cache-control"] == "no-cache"
        assert passed.response.content == ARTICLE_HTML  # the body as sent
        set_rule(config, "news.example", "original")  # a mode that may change later
        kept = await h.cycle(make_flow(response_headers=CACHEABLE))
        assert kept.response is not None and kept.response.headers["cache-control"] == "no-cache"
        image = await h.cycle(make_flow(content_type="image/png", response_headers=CACHEABLE))
        assert image.response is not None
        assert image.response.headers["cache-control"] == "public, max-age=3600"

    harness(config, body)


@pytest.mark.parametrize(
    ("request_headers", "stripped"),
    [
        ((("sec-fetch-dest", "document"),), True),
        ((("accept", "text/html,application/xhtml+xml,*/*;q=0.8"),), True),  # no Fetch Metadata
        ((("sec-fetch-dest", "image"),), False),
        ((("accept", "image/avif,image/webp,*/*"),), False),
    ],
)
def test_a_page_load_is_not_revalidated_into_a_cached_original(
    config: Path, request_headers: tuple[tuple[str, str], ...], stripped: bool
) -> None:
    # Issue 29 (4): a 304 to If-None-Match passed through and the browser showed
    # the original it had cached; a page load now asks for the page itself.
    async def body(h: Harness) -> None:
        conditional = (("if-none-match", '"v1"'), ("if-modified-since", "Mon, 01 Jan 2024"))
        flow = make_flow(request_headers=(*request_headers, *conditional))
        await h.addon.request(flow)
        left = [name for name, _ in conditional if name in flow.request.headers]
        assert left == ([] if stripped else ["if-none-match", "if-modified-since"])

    harness(config, body)


# -- the settings host -------------------------------------------------------------------


def settings_flow(
    path: str = "/",
    *,
    method: str = "GET",
    form: dict[str, str] | None = None,
    headers: tuple[tuple[str, str], ...] = (),
    scheme: str = "http",
) -> http.HTTPFlow:
    """Return a request to the settings host."""
    content = urlencode(form or {}).encode()
    request = tutils.treq(
        host="plainview.proxy",
        port=80 if scheme == "http" else 443,
        scheme=scheme.encode(),
        method=method.encode(),
        path=path.encode(),
        headers=http.Headers([(k.encode(), v.encode()) for k, v in headers]),
        content=content,
    )
    return tflow.tflow(req=request)


def test_the_settings_host_is_answered_and_never_forwarded(config: Path) -> None:
    async def body(h: Harness) -> None:
        for scheme in ("http", "https"):
            flow = await h.ask(settings_flow(scheme=scheme))
            assert flow.response is not None and flow.response.status_code == 200
            assert b"Plainview settings" in (flow.response.content or b"")
            assert "style-src 'sha256-" in flow.response.headers["content-security-policy"]
        data = ServerConnectionHookData(
            server=Server(address=("plainview.proxy", 443)), client=tflow.tclient_conn()
        )
        h.addon.server_connect(data)
        assert data.server.error
        other = ServerConnectionHookData(
            server=Server(address=("news.example", 443)), client=tflow.tclient_conn()
        )
        h.addon.server_connect(other)
        assert other.server.error is None

    harness(config, body)


def test_a_connect_to_the_settings_host_is_answered_here(config: Path) -> None:
    async def body(h: Harness) -> None:
        connect = tflow.tflow(req=tutils.treq(method=b"CONNECT", host="plainview.proxy", port=443))
        h.addon.http_connect(connect)
        assert connect.response is not None and connect.response.status_code == 200
        other = tflow.tflow(req=tutils.treq(method=b"CONNECT", host="news.example", port=443))
        h.addon.http_connect(other)
        assert other.response is None

    harness(config, body)


def test_unknown_settings_path_is_404(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = await h.ask(settings_flow("/nope"))
        assert flow.response is not None and flow.response.status_code == 404

    harness(config, body)


def secret_of(config: Path) -> str:
    """Read the per-install secret the addon created beside the config."""
    path = config.parent / "secret-token"
    assert path.stat().st_mode & 0o777 == 0o600
    return path.read_text().strip()


def rules_of(config: Path) -> list[tuple[str, str]]:
    """Return (host, mode) of each rule in the config file."""
    from addon.settings.rules import ConfigStore

    return [(rule.host, rule.mode) for rule in ConfigStore(config).current().rules]


def test_a_toggle_changes_the_rule_and_says_so(config: Path) -> None:
    async def body(h: Harness) -> None:
        page = make_flow()
        await h.cycle(page)
        root = lxml.html.document_fromstring(page.response.content or b"")  # type: ignore[union-attr]
        form = root.xpath("//form[.//input[@name='mode'][@value='original']]")[0]
        assert form.get("action") == "https://plainview.proxy/toggle"
        fields = {i.get("name"): i.get("value") for i in form.xpath(".//input")}
        flow = await h.ask(
            settings_flow(
                "/toggle",
                method="POST",
                form=fields,
                headers=(("origin", "https://news.example"), ("sec-fetch-site", "cross-site")),
                scheme="https",
            )
        )
        assert flow.response is not None and flow.response.status_code == 200
        answer = lxml.html.document_fromstring(flow.response.content or b"")
        assert answer.xpath("//a[@href='https://news.example/story']")  # on to the page
        assert answer.xpath("//form[@action='/toggle/undo']")
        assert rules_of(config) == [("news.example", "original")]
        after = make_flow()
        before = snapshot(after)
        await h.cycle(after)
        assert snapshot(after) == before

    harness(config, body)


@pytest.mark.parametrize(
    ("token", "origin"),
    [
        ("", "https://news.example"),
        ("wrong", "https://news.example"),
        ("SITE:other.example", "https://news.example"),
        ("SITE:news.example", "https://evil.example"),
    ],
)
def test_toggle_refusals(config: Path, token: str, origin: str) -> None:
    async def body(h: Harness) -> None:
        secret = secret_of(config)
        given = site_token(secret, token[5:]) if token.startswith("SITE:") else token
        form = {"token": given, "url": "https://news.example/story", "mode": "original"}
        flow = await h.ask(
            settings_flow("/toggle", method="POST", form=form, headers=(("origin", origin),))
        )
        assert flow.response is not None and flow.response.status_code == 403
        assert rules_of(config) == []

    harness(config, body)


@pytest.mark.parametrize(
    ("token", "headers", "status"),
    [
        ("", (("origin", "http://plainview.proxy"),), 403),
        ("wrong", (("origin", "http://plainview.proxy"),), 403),
        ("SECRET", (("origin", "https://evil.example"), ("sec-fetch-site", "cross-site")), 403),
        ("SECRET", (("sec-fetch-site", "cross-site"),), 403),
        ("SECRET", (("origin", "null"),), 403),
        ("SECRET", (("origin", "http://plainview.proxy"), ("sec-fetch-site", "same-origin")), 303),
        ("SECRET", (), 303),
    ],
)
def test_settings_posts_need_the_token_and_the_settings_origin(
    config: Path, token: str, headers: tuple[tuple[str, str], ...], status: int
) -> None:
    async def body(h: Harness) -> None:
        given = secret_of(config) if token == "SECRET" else token
        form = {"token": given, "host": "docs.example", "mode": "reader", "theme": "sepia"}
        flow = await h.ask(settings_flow("/rules", method="POST", form=form, headers=headers))
        assert flow.response is not None and flow.response.status_code == status
        assert rules_of(config) == ([("docs.example", "reader")] if status == 303 else [])

    harness(config, body)


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "br", "zstd", "identity, gzip"])
def test_a_compressed_body_to_the_settings_host_is_refused_unread(
    config: Path, encoding: str
) -> None:
    # Issue 29 (2): the handler decompressed any Content-Encoding on the event
    # loop before the form limit and the token: 1 MB of gzip took the proxy to
    # 2.1 GiB. The body is now never decoded, and a form must come plain.
    async def body(h: Harness) -> None:
        form = {"token": secret_of(config), "host": "a.example", "mode": "reader"}
        headers = (
            ("origin", "http://plainview.proxy"),
            ("sec-fetch-site", "same-origin"),
            ("content-encoding", encoding),
        )
        flow = settings_flow("/rules", method="POST", form=form, headers=headers)
        bomb = gzip.compress(b"\0" * 50_000_000)  # 49 KB that would decode to 50 MB
        flow.request.raw_content = bomb
        answered = await h.ask(flow)
        assert answered.response is not None and answered.response.status_code == 415
        assert answered.request.raw_content is bomb  # never decoded
        assert rules_of(config) == []

    harness(config, body)


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ((("content-length", "16385"),), 413),  # past the form limit
        ((("content-length", str(1 << 20)),), 413),
        ((("content-length", str(9 << 20)),), None),  # far past it: dropped, never read
        ((("transfer-encoding", "chunked"),), None),  # no length to check first
        ((("content-length", "12, 12"),), 400),
    ],
)
def test_a_settings_request_with_a_body_past_the_limit_is_answered_from_its_headers(
    config: Path, headers: tuple[tuple[str, str], ...], status: int | None
) -> None:
    # Issue 29 (8): a POST over 8 MiB was streamed upstream before the hook ran.
    async def body(h: Harness) -> None:
        flow = settings_flow("/rules", method="POST", form={"token": "x"})
        for name, value in headers:
            flow.request.headers[name] = value
        h.addon.requestheaders(flow)
        assert flow.metadata.get("plainview_own")
        if status is None:
            assert flow.killable is False and flow.error is not None  # killed
            return
        assert flow.response is not None and flow.response.status_code == status
        await h.addon.request(flow)  # runs once the body is in: the answer stays
        assert flow.response.status_code == status

    harness(config, body)


def test_a_settings_request_the_app_fails_on_is_answered_never_forwarded(
    config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 29 (8): an error in the settings app left the flow without a response,
    # and mitmproxy sent it on (upstream, in upstream mode). A bug is simulated:
    # no request reaches one any more.
    def broken(self: object, request: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("addon.settings.app.SettingsApp.handle", broken)

    async def body(h: Harness) -> None:
        flow = settings_flow("/")
        with pytest.raises(RuntimeError):
            await h.addon.request(flow)
        assert flow.metadata.get("plainview_own")
        assert flow.response is not None and flow.response.status_code == 500

    harness(config, body)


def test_a_settings_post_is_written_off_the_event_loop(config: Path) -> None:
    # Issue 29 (11): with ~10,000 rules one toggle held every request 1.2 s while
    # the file was parsed and rewritten on the event loop.
    rule = '[[rule]]\nhost = "site{}.example"\nmode = "reader"\n'
    rules = "".join(rule.format(n) for n in range(9_000))  # the limit is 10,000
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(rules, encoding="utf-8")

    async def body(h: Harness) -> None:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0)
                ticks += 1

        form = {"token": secret_of(config), "host": "docs.example", "mode": "original"}
        headers = (("origin", "http://plainview.proxy"), ("sec-fetch-site", "same-origin"))
        flow = settings_flow("/rules", method="POST", form=form, headers=headers)
        running = asyncio.ensure_future(ticker())
        await asyncio.sleep(0)
        ticks = 0
        await h.ask(flow)
        during = ticks
        running.cancel()
        assert flow.response is not None and flow.response.status_code == 303
        assert ("docs.example", "original") in rules_of(config)
        assert during > 0  # the loop went on serving while the file was written

    harness(config, body)


def test_settings_get_never_changes_anything(config: Path) -> None:
    async def body(h: Harness) -> None:
        form = urlencode({"token": secret_of(config), "host": "a.example", "mode": "reader"})
        flow = await h.ask(settings_flow("/rules?" + form))
        assert flow.response is not None and flow.response.status_code == 405
        assert rules_of(config) == []

    harness(config, body)


def test_recent_pages_and_why_page(config: Path) -> None:
    async def body(h: Harness) -> None:
        await h.cycle(make_flow())
        await h.cycle(make_flow(TINY_HTML, path="/short"))
        await h.cycle(make_flow(content_type="image/png", path="/img.png"))
        records = h.addon.recent.newest()
        assert [(r.url, r.action) for r in records] == [
            ("https://news.example/short", "original"),
            ("https://news.example/story", "reader"),
        ]
        flow = await h.ask(settings_flow())
        root = lxml.html.document_fromstring(flow.response.content or b"")  # type: ignore[union-attr]
        links = root.xpath("//a[starts-with(@href, '/why?id=')]/@href")
        assert len(links) == 2
        why = await h.ask(settings_flow(links[1]))
        assert why.response is not None and why.response.status_code == 200
        assert b"Why this content?" in (why.response.content or b"")
        missing = await h.ask(settings_flow("/why?id=nope"))
        assert missing.response is not None and missing.response.status_code == 404

    harness(config, body)


class CountingPool(ThreadPoolExecutor):
    """A thread pool that counts the jobs submitted to it."""

    submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """Count, then submit."""
        CountingPool.submitted += 1
        return super().submit(fn, *args, **kwargs)


def counting_pool(workers: int) -> Executor:
    """Return a counting thread pool (of 2 threads when told one per core)."""
    return CountingPool(max_workers=workers or 2)


def test_running_warms_up_each_worker_of_the_default_pool(config: Path) -> None:
    async def body(h: Harness) -> None:
        CountingPool.submitted = 0
        await h.addon.running()
        assert CountingPool.submitted == max(1, (os.cpu_count() or 1) - 1)

    harness(config, body, pool=counting_pool)


def test_running_warms_up_as_many_workers_as_asked(config: Path) -> None:
    async def body(h: Harness) -> None:
        CountingPool.submitted = 0
        await h.addon.running()
        assert CountingPool.submitted == 3

    harness(config, body, pool=counting_pool, plainview_workers=3)


def test_a_new_worker_count_replaces_the_pool(config: Path) -> None:
    made: list[int] = []

    def pools(workers: int) -> Executor:
        made.append(workers)
        return ThreadPoolExecutor(max_workers=workers or 2)

    async def body(h: Harness) -> None:
        first = await h.cycle(make_flow())
        h.tctx.configure(h.addon, plainview_workers=1)
        h.tctx.configure(h.addon, plainview_timeout="5")  # the same count: the pool stays
        second = await h.cycle(make_flow())
        assert is_reader(first) and is_reader(second)
        assert made == [0, 1]

    harness(config, body, pool=pools)


def test_the_default_pool_has_as_many_workers_as_asked() -> None:
    assert default_pool(3).size == 3
    # 0: one core left to the proxy's event loop (issue 29).
    assert default_pool(0).size == max(1, (os.cpu_count() or 1) - 1)


# -- options -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("plainview_mode", "fast", "plainview_mode must be one of"),
        ("plainview_max_bytes", 0, "plainview_max_bytes must be above 0"),
        ("plainview_max_bytes", -5, "plainview_max_bytes must be above 0"),
        ("plainview_timeout", "soon", "plainview_timeout must be a number of seconds"),
        ("plainview_timeout", "0", "plainview_timeout must be a number of seconds"),
        ("plainview_timeout", "nan", "plainview_timeout must be a number of seconds"),
        ("plainview_timeout", "inf", "plainview_timeout must be a number of seconds"),
        ("plainview_buffer_timeout", "-1", "plainview_buffer_timeout must be a number of seconds"),
        ("plainview_buffer_timeout", "", "plainview_buffer_timeout must be a number of seconds"),
        ("plainview_workers", -1, "plainview_workers must be from 0 to 64, not -1"),
        ("plainview_workers", 65, "plainview_workers must be from 0 to 64, not 65"),
        ("plainview_pipeline", "nope", "plainview_pipeline: unknown algorithm 'nope'"),
        ("plainview_pipeline", "vote3(danag,dana)", r"plainview_pipeline: vote3 needs at least"),
        ("plainview_pipeline", "serial(danag", r"plainview_pipeline: unbalanced parentheses"),
    ],
)
def test_bad_options_are_refused_clearly(
    config: Path, option: str, value: object, message: str
) -> None:
    async def body(h: Harness) -> None:
        with pytest.raises(exceptions.OptionsError, match=message):
            h.tctx.configure(h.addon, **{option: value})

    harness(config, body)


def test_an_unusable_config_path_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")

    async def main() -> None:
        addon = Plainview(transform=fake_transform, pool_factory=thread_pool)
        with taddons.context(addon) as tctx, pytest.raises(exceptions.OptionsError):
            tctx.configure(addon, plainview_config=str(blocker / "sites.toml"))

    run(main())


def test_options_are_declared_with_their_defaults(config: Path) -> None:
    async def body(h: Harness) -> None:
        options = h.tctx.options
        assert options.plainview_mode == ""
        assert options.plainview_max_bytes == 8 * 1024 * 1024
        assert options.plainview_timeout == "2.0"
        assert h.addon.limits.timeout == 2.0
        assert h.addon.limits.buffer_timeout == 5.0
        assert options.plainview_workers == 0 and h.addon.pool.size == 0
        assert options.plainview_pipeline == "" and h.addon.pipeline is None
        # `plainview proxy` checks the names given to --set against this list.
        names: set[str] = options.keys()  # an OptManager is not iterable
        declared = {
            name: type(getattr(options, name)) for name in names if name.startswith("plainview_")
        }
        assert declared == proxy_command.ADDON_OPTIONS

    harness(config, body)


@pytest.fixture(autouse=True)
def _release_slow_workers() -> Iterator[None]:
    """Never leave a slow worker blocked after a test."""
    yield
    RELEASE.set()


@pytest.mark.parametrize(
    ("user_value", "expected"), [(None, str(1_000_000)), ("2m", "2m")]
)
def test_bodies_of_unknown_length_stream_once_past_the_page_limit(
    config: Path, user_value: str | None, expected: str
) -> None:
    # mitmproxy buffers a chunked body whole unless stream_large_bodies is set;
    # a limit the user chose is kept.
    async def main() -> None:
        addon = Plainview(transform=fake_transform, pool_factory=thread_pool)
        with taddons.context(Proxyserver(), addon) as tctx:
            tctx.configure(addon, plainview_config=str(config), plainview_max_bytes=1_000_000)
            if user_value is not None:
                tctx.options.update(stream_large_bodies=user_value)
                tctx.configure(addon, plainview_max_bytes=1_000_000)
            assert tctx.options.stream_large_bodies == expected
            addon.done()

    run(main())


def recording_transform(jobs: list[PageJob]) -> Callable[[PageJob], PageOutcome]:
    """Return the fake transform, noting each job it is handed in `jobs`."""

    def recording(job: PageJob) -> PageOutcome:
        jobs.append(job)
        return fake_transform(job)

    return recording


def test_jobs_carry_the_time_budget_as_a_deadline(config: Path) -> None:
    jobs: list[PageJob] = []
    recording = recording_transform(jobs)

    async def body(h: Harness) -> None:
        before = time.time()
        await h.cycle(make_flow())
        assert len(jobs) == 1
        assert before + 2.0 <= jobs[0].deadline <= time.time() + 2.0

    harness(config, body, transform=recording, plainview_timeout="2")


def test_jobs_carry_the_configured_pipeline(config: Path) -> None:
    jobs: list[PageJob] = []
    recording = recording_transform(jobs)

    async def body(h: Harness) -> None:
        assert is_reader(await h.cycle(make_flow()))
        h.tctx.configure(h.addon, plainview_pipeline="")  # off again: the single algorithm
        assert is_reader(await h.cycle(make_flow()))
        assert [job.pipeline for job in jobs] == [
            Vote(2, (Single("addanag-plus"), Single("danag"), Single("dana"))),
            None,
        ]

    harness(
        config, body, transform=recording, plainview_pipeline=" vote2(addanag-plus, danag, dana) "
    )


# -- mitmproxy's HTTP layer ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "length"),
    [
        (b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\n", 57),
        # Two heads, and one with bare line ends.
        (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early\nLink: <x>\n\nHTTP/1.1 200", 55),
        (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n", 0),
        (b"HTTP/1.1 200 OK\r\n\r\n", 0),
        (b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>", 0),  # not all in yet
    ],
)
def test_only_complete_informational_heads_are_dropped(data: bytes, length: int) -> None:
    assert informational_length(data) == length


# What Chromium sends to a plain-HTTP site for a page in a tab and for a frame alike.
NAVIGATION = ("accept", "text/html,application/xhtml+xml,*/*;q=0.8")
FRAMED_PAGE = ARTICLE_HTML.replace(b"<nav>", b"<iframe src='/embed/player.html'></iframe><nav>")


def plain_http_flow(
    path: str, *headers: tuple[str, str], body: bytes = ARTICLE_HTML
) -> http.HTTPFlow:
    """Return a plain-HTTP page load as Chromium makes it: no Fetch Metadata."""
    return make_flow(body, path=path, scheme="http", request_headers=(NAVIGATION, *headers))


def test_a_frame_of_a_streamed_original_page_is_no_page_load(config: Path) -> None:
    # Issue 29 (3): over plain HTTP a frame's request is a page load by its
    # headers; it got a reader view, which refuses framing.
    async def body(h: Harness) -> None:
        set_rule(config, "news.example", "original")
        page = await h.cycle(plain_http_flow("/story", body=FRAMED_PAGE))
        assert page.response is not None and callable(page.response.stream)
        assert page.response.stream(FRAMED_PAGE) == FRAMED_PAGE  # as mitmproxy streams it
        set_rule(config, "news.example", "reader")
        referer = ("referer", "http://news.example/story")
        framed = await h.cycle(plain_http_flow("/embed/player.html", referer))
        assert not is_reader(framed)
        assert h.addon.recent.newest()[0].reason == "a frame of a page that went out as it came"
        # Fetch Metadata, when sent, decides; a page of another site links to it.
        tab = await h.cycle(plain_http_flow("/embed/player.html", ("sec-fetch-dest", "document")))
        assert is_reader(tab)
        other = ("referer", "http://other.example/")
        assert is_reader(await h.cycle(plain_http_flow("/embed/player.html", other)))

    harness(config, body)


def test_a_frame_of_a_page_too_short_for_a_reader_view_is_no_page_load(config: Path) -> None:
    async def body(h: Harness) -> None:
        short = FRAMED_PAGE.replace(LONG_TEXT.encode(), b"tiny")
        page = await h.cycle(plain_http_flow("/short", body=short))
        assert not is_reader(page)
        referer = ("referer", "http://news.example/short")
        assert not is_reader(await h.cycle(plain_http_flow("/embed/player.html", referer)))
        # An https page's frames are told by their Sec-Fetch-Dest: nothing is scanned.
        secure = await h.cycle(make_flow(short.replace(b"player", b"clip"), path="/s"))
        assert "plainview_frame_scan" not in secure.metadata
        referer = ("referer", "https://news.example/s")
        assert is_reader(await h.cycle(plain_http_flow("/embed/clip.html", referer)))
        # Typed or from a bookmark (no Referer): a page load, framed elsewhere or not.
        assert is_reader(await h.cycle(plain_http_flow("/embed/player.html")))

    harness(config, body)


def test_a_reader_view_says_when_a_site_rule_asks_for_it(config: Path) -> None:
    # Issue 30 (3): no page showed whether a site rule exists.
    def note(flow: http.HTTPFlow) -> list[str]:
        assert flow.response is not None
        root = lxml.html.document_fromstring(flow.response.content or b"")
        return [p.text_content() for p in root.xpath("//p[@class='pv-rule']")]

    async def body(h: Harness) -> None:
        assert note(await h.cycle(make_flow())) == []  # the defaults' mode
        set_rule(config, "news.example", "reader")
        assert note(await h.cycle(make_flow())) == ["Always reader for news.example: change"]

    harness(config, body)


# -- site memory -------------------------------------------------------------------------

PROSE = "The ferry crosses the bay twice a day, and the crossing takes a full hour. "


def site_page(title: str) -> bytes:
    """Return a page of a site whose every page ends with the same sign-up lines."""
    return (
        f"<!doctype html><html><head><title>{title}</title></head><body><main>"
        f"<h1>{title}</h1><p>{title} first. {PROSE * 2}</p><p>{title} then. {PROSE * 2}</p>"
        "<p>Our harbour shop opens at nine.</p><p>Sign up for the tide letter.</p>"
        "</main></body></html>"
    ).encode()


async def settled(addon: Plainview) -> None:
    """Wait for the site memory's reading and writing to end."""
    while addon.learning.running:
        await asyncio.gather(*addon.learning.running)


def test_the_site_memory_learns_a_reader_view_and_leaves_the_template_out_of_the_next(
    config: Path,
) -> None:
    async def body(h: Harness) -> None:
        first = await h.cycle(make_flow(site_page("Ferries"), path="/ferries"))
        assert first.response is not None
        assert b"Sign up for the tide letter" in first.response.content
        await settled(h.addon)
        second = await h.cycle(make_flow(site_page("Tides"), path="/tides"))
        assert second.response is not None
        text = lxml.html.fromstring(second.response.content).text_content()
        assert "Tides first." in text and "Tides then." in text
        assert "Sign up for the tide letter" not in text
        assert "Our harbour shop" not in text
        await settled(h.addon)
        assert h.addon.memory is not None
        assert [(c.site, c.pages) for c in h.addon.memory.counts()] == [("news.example", 2)]
        # A reload of the first page is no other page: its own lines stay.
        again = await h.cycle(make_flow(site_page("Ferries"), path="/ferries"))
        assert again.response is not None and b"Ferries then." in again.response.content
        assert [record.action for record in h.addon.recent.newest()] == ["reader"] * 3

    harness(config, body, transform=run_job, plainview_mode="reader")


def test_the_site_memory_learns_a_page_shown_as_the_original(config: Path) -> None:
    async def body(h: Harness) -> None:
        flow = make_flow(gzip.compress(site_page("Ferries")), response_headers=(
            ("content-encoding", "gzip"),
        ))
        await h.addon.request(flow)
        await h.addon.responseheaders(flow)
        assert flow.response is not None and callable(flow.response.stream)
        raw = flow.response.raw_content or b""
        # mitmproxy hands a streamed body to the stream callable piece by piece.
        assert flow.response.stream(raw[:100]) + flow.response.stream(raw[100:]) == raw
        assert flow.response.stream(b"") == b""
        await h.addon.response(flow)
        await settled(h.addon)
        assert h.addon.memory is not None
        assert [(c.site, c.pages) for c in h.addon.memory.counts()] == [("news.example", 1)]
        memory = h.addon.memory.memory_for("news.example", "https://news.example/other")
        assert memory.pages == 1 and len(memory.counts) > 4

    harness(config, body, transform=run_job, plainview_mode="original")


def test_the_site_memory_switched_off_learns_nothing_and_leaves_nothing_out(
    config: Path, tmp_path: Path
) -> None:
    directory = tmp_path / "memory-off"

    async def body(h: Harness) -> None:
        assert h.addon.memory is None
        for title in ("Ferries", "Tides"):
            flow = await h.cycle(make_flow(site_page(title), path=f"/{title}"))
            assert flow.response is not None
            assert b"Sign up for the tide letter" in flow.response.content
        await settled(h.addon)
        assert not directory.exists()

    harness(
        config,
        body,
        transform=run_job,
        plainview_mode="reader",
        plainview_site_memory=False,
        plainview_site_memory_dir=str(directory),
    )


def test_a_site_memory_dir_that_is_a_file_is_refused(config: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")

    async def body(h: Harness) -> None:
        with pytest.raises(exceptions.OptionsError, match="is not a directory"):
            h.tctx.configure(h.addon, plainview_site_memory_dir=str(blocker))

    harness(config, body)


def test_an_original_page_past_the_copy_limit_is_not_learned(config: Path) -> None:
    padding = b"<p>" + b"x" * (2 * 1024 * 1024) + b"</p></main>"
    big = site_page("Ferries").replace(b"</main>", padding)

    async def body(h: Harness) -> None:
        flow = make_flow(big)
        await h.addon.request(flow)
        await h.addon.responseheaders(flow)
        assert flow.response is not None and callable(flow.response.stream)
        raw = flow.response.raw_content or b""
        pieces = [raw[i : i + 65536] for i in range(0, len(raw), 65536)]
        assert b"".join(flow.response.stream(piece) for piece in pieces) == raw
        flow.response.stream(b"")
        await h.addon.response(flow)
        await settled(h.addon)
        assert h.addon.memory is not None and h.addon.memory.counts() == []

    harness(config, body, transform=run_job, plainview_mode="original")
