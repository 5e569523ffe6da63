"""Tests of the load generator's parts: the mix, the judging, the gate, workers and memory."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import multiprocessing
import os
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import replace

import aiohttp
import pytest
from aiohttp import web
from plainview_dev.loadtest import (
    FAMILY_SHARES,
    KIB,
    MIB,
    PLAINVIEW_CSP,
    REQUEST_HEADERS,
    STREAMED_GROUP,
    Expected,
    Item,
    LoadSettings,
    Memory,
    Origin,
    Received,
    Report,
    Tally,
    article_page,
    build_plan,
    decisions,
    encode,
    error_lines,
    framing_pages,
    judge,
    kill_busy_worker,
    noise,
    page_items,
    pieces,
    pool_workers,
    process_memory,
    request_kind,
    summary,
    wait_for_idle_workers,
)

from addon.core import Article, extract
from addon.job.content_encoding import decode_body

READER = b'<main id="pv-content"><article><a href="/x?plainview=original">Show original</a>'


def sha(data: bytes) -> str:
    """Return the hex SHA-256 of some bytes."""
    return hashlib.sha256(data).hexdigest()


# -- the mix -----------------------------------------------------------------------------


@pytest.mark.parametrize("coding", ["", "gzip", "br", "zstd"])
def test_every_encoding_decodes_back_with_the_proxys_decoder(coding: str) -> None:
    body = article_page(64 * KIB)
    sent = encode(body, coding)
    assert (sent == body) == (coding == "")
    assert decode_body(sent, coding, max_bytes=MIB).body == body


def test_noise_is_deterministic_exact_and_not_periodic() -> None:
    first = noise(7, 3 * MIB + 5)
    assert len(first) == 3 * MIB + 5
    assert first == noise(7, 3 * MIB + 5)
    assert first != noise(8, 3 * MIB + 5)
    # Each mebibyte differs, so a piece sent twice or dropped cannot go unnoticed.
    assert len({first[i : i + MIB] for i in range(0, 3 * MIB, MIB)}) == 3


@pytest.mark.parametrize("size", [KIB, 64 * KIB + 3, MIB])
def test_the_article_page_has_the_exact_size_and_is_an_article(size: int) -> None:
    page = article_page(size)
    assert len(page) == size
    assert page.startswith(b"<!doctype html>") and page.endswith(b"</html>\n")
    if size == 64 * KIB + 3:  # a larger one takes seconds to extract
        article = extract(page, url="http://127.0.0.1/a.html", content_type="text/html")
        assert isinstance(article, Article) and article.title == "The long crossing"


def test_pieces_cover_the_body_once_and_stop_at_the_cut() -> None:
    for size, cut, count in [(10 * MIB + 1, 5 * MIB, None), (1000, 500, 10), (1000, None, 10)]:
        parts = pieces(size, cut, count)
        assert parts[0][0] == 0 and parts[-1][1] == size
        assert all(a[1] == b[0] and a[0] < a[1] for a, b in itertools.pairwise(parts))
        assert cut is None or any(start == cut for start, _ in parts)
    assert len(pieces(1000, None, 10)) == 10
    assert pieces(0, None, None) == []


def test_dataset_pages_take_each_variant_in_turn() -> None:
    everything = page_items([article_page(4 * KIB, seed) for seed in range(8)])
    items = everything[0::2]
    parents = everything[1::2]  # a page framing each, too short for a reader view
    for item, parent in zip(items, parents, strict=True):
        assert parent.path == item.path.replace("/pages/", "/frames/")
        assert parent.group == "frame/parent" and parent.family not in FAMILY_SHARES
        assert f"<iframe src='{item.path}'".encode() in parent.body
    assert [item.group for item in items] == [
        "html/identity", "html/gzip", "html/br", "html/zstd-chunked",
        "html/chunked", "html/early-hints", "slow/html", "html/identity",
    ]  # fmt: skip
    assert [item.early_hints for item in items] == [False] * 5 + [True] + [False] * 2
    for item, seed in zip(items, range(8), strict=True):
        decoded = decode_body(item.body, item.encoding, max_bytes=MIB).body
        assert decoded == article_page(4 * KIB, seed)
        assert item.html and item.family in ("html", "slow")


def manifest_of(*groups: str, html: tuple[str, ...] = ()) -> dict[str, Expected]:
    """Return a manifest with one path per group."""
    return {f"/{group}": Expected(sha(group.encode()), 1, group, group in html) for group in groups}


def test_the_plan_has_the_large_downloads_and_a_weighted_mix() -> None:
    groups = ("html/a", "html/b", "image/png", "asset/css", "binary/x", "slow/y", "big/z")
    large = ("large/length", "large/chunked", "large/html-chunked")
    manifest = manifest_of(*groups, *large, html=("html/a", "html/b", "large/html-chunked"))
    settings = LoadSettings(requests=2000, large_count=9)
    plan = build_plan(manifest, settings)
    assert len(plan) == 2000
    assert plan == build_plan(manifest, settings)
    assert plan != build_plan(manifest, replace(settings, seed=2))
    counts = {path: plan.count(path) for path in manifest}
    assert [counts[f"/{group}"] for group in large] == [3, 3, 3]
    assert all(counts[f"/{group}"] > 0 for group in groups)
    assert counts["/html/a"] + counts["/html/b"] > counts["/image/png"] > counts["/big/z"]
    without_html = build_plan(manifest, replace(settings, large_html=False))
    assert "/large/html-chunked" not in without_html
    assert without_html.count("/large/length") + without_html.count("/large/chunked") == 9


# -- judging --------------------------------------------------------------------------------


PAGE = Expected(sha(b"<p>page</p>"), 11, "html/identity", True)
IMAGE = Expected(sha(b"png"), 3, "image/png", False)
STREAMED = Expected(sha(b"<p>live</p>"), 11, STREAMED_GROUP, True)


@pytest.mark.parametrize(
    ("expected", "received", "outcome"),
    [
        (IMAGE, Received(200, sha(b"png"), 3), "identical"),
        (PAGE, Received(200, sha(b"<p>page</p>"), 11), "identical"),
        (PAGE, Received(200, sha(READER), len(READER), PLAINVIEW_CSP + "x'", READER), "reader"),
        # A page still arriving at the buffer deadline must stream on as the original.
        (STREAMED, Received(200, sha(b"<p>live</p>"), 11), "identical"),
        (STREAMED, Received(200, "0", 9, PLAINVIEW_CSP + "x'", READER), "mismatch"),
        (IMAGE, Received(200, sha(b"pn"), 2), "mismatch"),
        (IMAGE, Received(200, sha(READER), len(READER), PLAINVIEW_CSP + "x'", READER), "mismatch"),
        (PAGE, Received(200, sha(READER), len(READER), "default-src *", READER), "mismatch"),
        (PAGE, Received(200, "0", 9, PLAINVIEW_CSP, READER + b"<SCRIPT>x</script>"), "mismatch"),
        (PAGE, Received(200, "0", 9, PLAINVIEW_CSP, b"<p>page</p>"), "mismatch"),
        (PAGE, Received(200, "0", 9, PLAINVIEW_CSP, None), "mismatch"),
        (IMAGE, Received(502, sha(b"png"), 3), "failure"),
    ],
)
def test_judging_a_response(expected: Expected, received: Received, outcome: str) -> None:
    got, problem = judge(expected, received)
    assert got == outcome
    assert (problem == "") == (outcome in ("identical", "reader"))


def test_the_tally_counts_by_outcome_and_group_and_keeps_the_first_problems() -> None:
    tally = Tally()
    for n in range(60):
        tally.add("image/png", "mismatch", f"problem {n}")
    tally.add("html/gzip", "reader", "")
    assert tally.done == 61
    assert tally.outcomes["mismatch"] == 60
    assert tally.groups["html/gzip"]["reader"] == 1
    assert tally.problems == [f"problem {n}" for n in range(50)]


def test_memory_keeps_the_peaks_and_the_growth() -> None:
    memory = Memory(baseline_proxy=100, baseline_workers=50)
    for proxy, workers in [(100, 50), (180, 40), (120, 90)]:
        memory.add(proxy, workers)
    assert (memory.peak_proxy, memory.peak_workers, memory.peak_total) == (180, 90, 220)
    assert (memory.growth, memory.proxy_growth, memory.samples) == (70, 80, 3)


def test_the_proxys_decisions_are_counted_from_its_log() -> None:
    origin = "http://127.0.0.1:4000"
    log = "\n".join(
        [
            f"[10:00:00.1] plainview: reader {origin}/a.html: reader view (12 ms)",
            f"[10:00:00.2] plainview: original {origin}/b.html: timed out after 2 s (2001 ms)",
            f"[10:00:00.3] plainview: original {origin}/c.html: timed out after 2 s (2004 ms)",
            "[10:00:00.4] plainview: reader http://elsewhere/d.html: reader view (9 ms)",
            "[10:00:00.5][127.0.0.1:5] client disconnect",
            "[10:00:00.6][127.0.0.1:5] error establishing server connection: refused",
        ]
    )
    assert decisions(log, origin) == {
        "original: timed out after N s": 2,
        "reader: reader view": 1,
    }
    assert error_lines(log) == [log.splitlines()[-1]]


def report(**changes: object) -> Report:
    """Return a report of a run where every promise held, with some fields changed."""
    base = Report(
        settings={"deadline": 60.0},
        origin={},
        requests=10,
        completed=10,
        failures=0,
        mismatches=0,
        html_reader=3,
        html_identical=2,
        other_identical=5,
        large_planned=2,
        large_streamed=2,
        bytes_received=5 * MIB,
        duration_s=2.0,
        finished=True,
        memory=Memory(100 * MIB, 50 * MIB, 180 * MIB, 60 * MIB, 230 * MIB, 9),
        worker_kills=[],
        groups={},
        problems=[],
        decisions={"reader: reader view": 3},
        memory_limit=100 * MIB,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "changes",
    [
        {"failures": 1},
        {"mismatches": 1},
        {"completed": 9},
        {"finished": False},
        {"large_streamed": 1},
        {"memory_limit": 80 * MIB},  # the proxy grew by 80 MiB
    ],
)
def test_a_report_fails_when_any_promise_breaks(changes: dict[str, object]) -> None:
    assert report().ok
    broken = report(**changes)
    assert not broken.ok
    assert summary(broken).endswith("result: FAILED")


def test_the_memory_limit_is_one_page_per_client() -> None:
    assert LoadSettings(clients=20).memory_limit == 20 * 8 * MIB
    assert LoadSettings(clients=3, page_limit=MIB).memory_limit == 3 * MIB


def test_the_report_as_json_and_as_text() -> None:
    data = json.loads(report().to_json())
    assert data["ok"] is True
    assert data["memory"]["growth"] == 80 * MIB and data["memory"]["proxy_growth"] == 80 * MIB
    text = summary(report())
    for line in [
        "requests: 10 of 10 in 2.0 s (5/s, 5 MiB received)",
        "failures: 0",
        "mismatched bodies: 0",
        "HTML pages: 3 reader views, 2 byte-identical",
        "large downloads streamed: 2 of 2",
        "peak RSS: 230.0 MiB in all, at the start 150.0 MiB",
        "  proxy process: peak 180.0 MiB, at the start 100.0 MiB (growth 80.0 MiB,"
        " limit 100.0 MiB)",
        "      3  reader: reader view",
        "result: every promise held",
    ]:
        assert line in text.splitlines(), text


# -- the origin -----------------------------------------------------------------------------


@asynccontextmanager
async def serving(items: list[Item], gate_timeout: float = 30.0) -> AsyncIterator[str]:
    """Serve items on a free port of 127.0.0.1; yield the base URL."""
    runner = web.AppRunner(Origin(items, gate_timeout).app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


ITEMS = [
    Item("/whole.bin", "binary/whole", "application/octet-stream", noise(1, 300 * KIB)),
    Item("/chunked.js", "asset/js", "text/javascript", encode(b"x();" * 9000, "br"), "br", True),
    Item("/trickle.png", "slow/image", "image/png", noise(2, 40 * KIB), trickle=0.2),
    Item("/gated.bin", "large/length", "application/octet-stream", noise(3, 2 * MIB)),
]


def run(test: Callable[[str, aiohttp.ClientSession], object], gate_timeout: float = 30.0) -> None:
    """Run an async test against a fresh origin serving ITEMS."""

    async def main() -> None:
        async with (
            serving(ITEMS, gate_timeout) as base,
            aiohttp.ClientSession(auto_decompress=False) as session,
        ):
            await test(base, session)  # type: ignore[misc]

    asyncio.run(main())


def test_the_origin_serves_what_its_manifest_says() -> None:
    async def check(base: str, session: aiohttp.ClientSession) -> None:
        async with session.get(f"{base}/_manifest") as answer:
            manifest = json.loads(await answer.read())
        for item in ITEMS[:3]:
            async with session.get(base + item.path) as response:
                body = await response.read()
                chunked = response.headers.get("Transfer-Encoding") == "chunked"
                assert chunked == item.chunked
                assert response.headers.get("Content-Encoding", "") == item.encoding
            assert manifest[item.path] == {
                "sha256": sha(body),
                "size": len(body),
                "group": item.group,
                "html": False,
            }

    run(check)


def test_a_gated_download_waits_for_the_release_at_its_midpoint() -> None:
    async def check(base: str, session: aiohttp.ClientSession) -> None:
        async with session.get(f"{base}/gated.bin?gate=g1") as response:
            first = await response.content.readexactly(MIB)
            # The origin says when it is holding the download at its midpoint.
            async with session.get(f"{base}/_held", params={"gate": "g1"}) as held:
                assert held.status == 204
            assert response.content.total_bytes == MIB  # nothing past the midpoint
            async with session.get(f"{base}/_release", params={"gate": "g1"}) as released:
                assert released.status == 204
            body = first + await response.read()
        assert body == ITEMS[3].body

    run(check)


def test_an_unreleased_gate_ends_the_download_unfinished() -> None:
    async def check(base: str, session: aiohttp.ClientSession) -> None:
        async with session.get(f"{base}/gated.bin?gate=g2") as response:
            with pytest.raises(aiohttp.ClientPayloadError):
                await response.read()

    run(check, gate_timeout=0.3)


# -- workers and memory -----------------------------------------------------------------------


def test_a_busy_worker_is_found_and_killed() -> None:
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        started = {pool.submit(os.getpid).result() for _ in range(4)}
        workers = pool_workers(os.getpid())
        # The workers themselves, not the fork server or the resource tracker.
        assert started == {worker.pid for worker in workers}
        assert all(worker.ppid() != os.getpid() for worker in workers)
        busy = pool.submit(sum, range(10**11))  # minutes of work, unless killed
        killed = kill_busy_worker(os.getpid(), timeout=60)
        assert killed is not None and killed != os.getpid()
        with pytest.raises(BrokenProcessPool):
            busy.result(timeout=60)


def test_waiting_for_idle_workers_ends_once_the_busy_one_is_done() -> None:
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        pool.submit(os.getpid).result(timeout=60)
        busy = pool.submit(sum, range(10**11))  # minutes of work
        with pytest.raises(TimeoutError):
            wait_for_idle_workers(os.getpid(), timeout=0.5, quiet=0.3)
        assert kill_busy_worker(os.getpid(), timeout=60) is not None
        with pytest.raises(BrokenProcessPool):
            busy.result(timeout=60)
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        pool.submit(os.getpid).result(timeout=60)
        wait_for_idle_workers(os.getpid(), timeout=60, quiet=0.3)  # returns: nothing runs


def test_the_memory_of_a_process_tree() -> None:
    own, children = process_memory(os.getpid())
    assert own > 10 * MIB and children >= 0


def test_html_requests_are_made_by_scripts_images_and_frames_too() -> None:
    # Issue 29 (3): such requests carry no Fetch Metadata over plain HTTP and must
    # get the page byte for byte; the rest load it as a page in a tab.
    kinds = [request_kind(serial, "/pages/0001.html") for serial in range(100)]
    counts = [kinds.count(kind) for kind in ("fetch()", "<img>", "<iframe>", "page")]
    assert counts == [10, 10, 10, 70]
    # Only a dataset page has a page framing it.
    assert request_kind(5, "/pages/sign-in.html") == request_kind(5, "/big/a.html") == "page"
    assert REQUEST_HEADERS["<iframe>"] == REQUEST_HEADERS["page"]
    assert "text/html" in REQUEST_HEADERS["page"]["Accept"]
    assert "text/html" not in REQUEST_HEADERS["fetch()"]["Accept"]


def test_each_frame_request_counts_its_framing_page_as_a_request_too() -> None:
    manifest = {
        "/pages/0001.html": Expected("a", 1, "html/identity", True),
        "/img/1.png": Expected("b", 1, "image/png", False),
    }
    plan = ["/pages/0001.html"] * 20 + ["/img/1.png"] * 20
    assert framing_pages(plan, manifest) == 2  # serials 5 and 15
