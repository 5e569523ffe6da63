"""Load test: a local origin, many clients through a running proxy, byte and memory checks.

The origin serves a fixed mix (dataset pages, images, compressed, chunked and
slow bodies, large downloads) and publishes the sha256 of every body as sent.
Clients fetch the mix through the proxy and compare each body with the
origin's; a sampler records the memory of the proxy and its worker processes.
Large downloads are gated: the origin sends the second half only once the
client has received the first, which a proxy that buffers whole bodies can
never satisfy. `scripts/loadtest` runs the whole thing.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import hashlib
import itertools
import json
import multiprocessing
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field, replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp
import brotli  # type: ignore[import-untyped]
import psutil  # type: ignore[import-untyped]
import zstandard
from aiohttp import web

KIB = 1024
MIB = 1024 * KIB
DATASET = Path(__file__).resolve().parents[3] / "shared/datasets/wcxb-dev"
REPORT = Path(__file__).resolve().parents[2] / "out" / "loadtest.json"
# How a reader view announces itself: our policy header and our page's landmarks.
PLAINVIEW_CSP = "default-src 'none'; img-src * data:; style-src 'sha256-"
READER_MARKS = (b'<main id="pv-content"', b"?plainview=original")
# Bodies are written and read in pieces of this size.
PIECE = 256 * KIB
# A trickled body arrives in this many pieces, spread over the item's trickle time.
TRICKLE_PIECES = 10
# HTML bodies are kept for the reader-view check up to this size (larger: only hashed).
KEEP_MAX = 16 * MIB
# Seconds of CPU a worker must spend on one job before it counts as busy.
BUSY_CPU_SECONDS = 0.1
# How often a worker's CPU time is read while looking for a busy one.
CPU_SAMPLE_SECONDS = 0.02
START_TIMEOUT = 120.0
# How often each family of resources is asked for (the large downloads have a fixed count).
FAMILY_SHARES = {"html": 45, "image": 25, "asset": 17, "binary": 6, "slow": 5, "big": 2}
HTML = "text/html; charset=utf-8"
JSON = "application/json"


# -- the mix ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Item:
    """One resource of the origin: its body as sent on the wire and how it is sent."""

    path: str
    group: str  # "family/variant": the family sets how often it is asked for
    content_type: str
    body: bytes  # already in its Content-Encoding
    encoding: str = ""
    chunked: bool = False
    trickle: float = 0.0  # seconds the body is spread over
    early_hints: bool = False  # a 103 Early Hints head goes before the response

    @property
    def family(self) -> str:
        """Return the family part of the group."""
        return self.group.split("/", 1)[0]

    @property
    def html(self) -> bool:
        """Tell whether the proxy may see this as a page."""
        return self.content_type.startswith("text/html")


@dataclass(frozen=True, slots=True)
class OriginSpec:
    """What the origin serves: how many dataset pages, how large the big bodies."""

    dataset: str = str(DATASET)
    pages: int = 200
    large_bytes: int = 100 * MIB
    big_page_bytes: int = 6 * MIB
    seed: int = 1
    # Seconds a gated download waits for the client to confirm the first half.
    gate_timeout: float = 60.0


def encode(body: bytes, coding: str) -> bytes:
    """Apply one Content-Encoding (empty: none)."""
    if coding == "gzip":
        return gzip.compress(body, mtime=0)
    if coding == "br":
        # Quality 5: brotli's default (11) takes seconds per megabyte.
        data: bytes = brotli.compress(body, quality=5)
        return data
    if coding == "zstd":
        return zstandard.ZstdCompressor().compress(body)
    return body


def noise(seed: int, size: int) -> bytes:
    """Return `size` deterministic pseudo-random bytes, different for each seed."""
    parts = []
    for index in range(0, size, MIB):
        key = f"{seed}:{index}".encode()
        parts.append(hashlib.shake_128(key).digest(min(MIB, size - index)))
    return b"".join(parts)


def article_page(size: int, seed: int = 0) -> bytes:
    """Return a plain article page of exactly `size` bytes (at least 1 KiB)."""
    words = ("harbour", "ferry", "engine", "crossing", "river", "deck", "season", "town")
    rng = random.Random(seed)
    texts = [" ".join(rng.choice(words) for _ in range(rng.randrange(20, 60))) for _ in range(256)]
    head = (
        b"<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        b"<title>The long crossing</title></head><body>\n<nav><a href='/'>Home</a></nav>\n"
        b"<article><h1>The long crossing</h1>\n"
    )
    tail = b"</article>\n<footer>Contact us</footer>\n</body></html>\n"
    parts, used = [head], len(head) + len(tail)
    for number in itertools.count():
        paragraph = f"<p>{number}. {texts[number % len(texts)].capitalize()}.</p>\n".encode()
        if used + len(paragraph) > size - 8:
            break
        parts.append(paragraph)
        used += len(paragraph)
    # A comment fills the page up to the exact size.
    parts += [b"<!--" + b" " * (size - used - 8) + b"-->\n", tail]
    return b"".join(parts)


def dataset_pages(dataset: Path, count: int) -> list[bytes]:
    """Return the first `count` pages of the dataset, as they were served."""
    files = sorted((dataset / "html").glob("*.html.gz"))[:count]
    if len(files) < count:
        raise FileNotFoundError(f"{dataset}: {count} pages wanted, {len(files)} found")
    return [gzip.decompress(path.read_bytes()) for path in files]


SHORT_PAGE = (
    b"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Sign in</title></head>"
    b"<body><form action='/login' method='post'><label>Name <input name='user'></label>"
    b"<button>Sign in</button></form></body></html>\n"
)
# (group, Content-Encoding, chunked, trickle seconds) of the dataset pages, in turn.
PAGE_VARIANTS = (
    ("html/identity", "", False, 0.0),
    ("html/gzip", "gzip", False, 0.0),
    ("html/br", "br", False, 0.0),
    ("html/zstd-chunked", "zstd", True, 0.0),
    ("html/chunked", "", True, 0.0),
    ("html/early-hints", "", False, 0.0),  # after a 103 head
    ("slow/html", "", False, 1.5),
)
# A page still arriving at the proxy's buffer deadline (plainview_buffer_timeout, 5 s
# by default) must come through as the original, streamed, not held for a reader view.
STREAMED_GROUP = "slow/html-streaming"
PAGES_PREFIX = "/pages/"
DATASET_PAGE = re.compile(r"/pages/\d+\.html")
# A page that frames a dataset page; asked for just before its frame (the family is
# not in FAMILY_SHARES).
FRAMES_PREFIX = "/frames/"
FRAME_PARENT_GROUP = "frame/parent"
STREAMED_SECONDS = 7.0


def frame_parent(path: str) -> bytes:
    """Return a page too short for a reader view that shows `path` in a frame."""
    frame = f"<iframe src='{path}' width=600 height=400></iframe></body>".encode()
    return SHORT_PAGE.replace(b"</body>", frame)


def parent_of(path: str) -> str:
    """Return the path of the page that frames a dataset page."""
    return FRAMES_PREFIX + path.removeprefix(PAGES_PREFIX)


def page_items(pages: Sequence[bytes]) -> list[Item]:
    """Return the dataset pages, each sent one of the page variants, and a page framing
    each."""
    items = []
    for number, page in enumerate(pages):
        group, coding, chunked, trickle = PAGE_VARIANTS[number % len(PAGE_VARIANTS)]
        path = f"{PAGES_PREFIX}{number:04d}.html"
        body = encode(page, coding)
        hints = group == "html/early-hints"
        items.append(Item(path, group, HTML, body, coding, chunked, trickle, early_hints=hints))
        items.append(Item(parent_of(path), FRAME_PARENT_GROUP, HTML, frame_parent(path)))
    return items


def small_items(seed: int) -> list[Item]:
    """Return the images, assets, binary bodies and slow non-page responses."""
    css = b"".join(
        b".c%d { color: #%06x; margin: %dpx; }\n" % (i, i * 997, i % 40) for i in range(4000)
    )
    script = b"".join(b"function f%d(a) { return a * %d + 1; }\n" % (i, i) for i in range(3000))
    data = json.dumps([{"id": i, "html": f"<p>item {i}</p>"} for i in range(2000)]).encode()
    items = [
        Item(f"/img/{size}.{kind}", f"image/{kind}", f"image/{kind}", noise(seed + size, size))
        for kind, size in (("png", KIB), ("jpeg", 20 * KIB), ("webp", 200 * KIB), ("gif", 2 * MIB))
    ]
    assets = (("css", "text/css", css), ("js", "text/javascript", script), ("json", JSON, data))
    for coding in ("", "gzip", "br", "zstd"):
        name = coding or "identity"
        items += [
            Item(f"/asset/{name}.{ext}", f"asset/{ext}-{name}", kind, encode(body, coding), coding)
            for ext, kind, body in assets
        ]
    octets, many = "application/octet-stream", encode(data * 20, "gzip")
    items += [
        # Too little text for a reader view: a page the proxy must pass on as it is.
        Item("/pages/sign-in.html", "html/short", HTML, SHORT_PAGE),
        Item("/bin/chunked.bin", "binary/chunked", octets, noise(seed, 5 * MIB), chunked=True),
        Item("/bin/gzip-chunked.json", "binary/gzip-chunked", JSON, many, "gzip", chunked=True),
        Item("/slow/image.png", "slow/image", "image/png", noise(seed + 7, 300 * KIB), trickle=1.5),
        Item("/slow/data.json", "slow/json-chunked", JSON, data, chunked=True, trickle=1.0),
        Item(
            "/slow/live.html",
            STREAMED_GROUP,
            HTML,
            article_page(64 * KIB),
            chunked=True,
            trickle=STREAMED_SECONDS,
        ),
    ]
    return items


def large_items(spec: OriginSpec) -> list[Item]:
    """Return the big page and the large downloads (one body shared by the binary ones)."""
    binary = noise(spec.seed, spec.large_bytes)
    octets = "application/octet-stream"
    big, large_page = article_page(spec.big_page_bytes), article_page(spec.large_bytes)
    return [
        Item("/big/article.html", "big/article", HTML, big),
        Item("/large/length.bin", "large/length", octets, binary),
        Item("/large/chunked.bin", "large/chunked", octets, binary, chunked=True),
        Item("/large/page.html", "large/html-chunked", HTML, large_page, chunked=True),
    ]


def catalogue(spec: OriginSpec) -> list[Item]:
    """Return everything the origin serves."""
    pages = dataset_pages(Path(spec.dataset), spec.pages)
    return [*page_items(pages), *small_items(spec.seed), *large_items(spec)]


# -- the origin --------------------------------------------------------------------------


def manifest_entry(item: Item) -> dict[str, Any]:
    """Describe an item for the clients: its digest, size, group and whether it is a page."""
    return {
        "sha256": hashlib.sha256(item.body).hexdigest(),
        "size": len(item.body),
        "group": item.group,
        "html": item.html,
    }


def pieces(size: int, cut: int | None, count: int | None) -> list[tuple[int, int]]:
    """Split [0, size) into pieces: `count` of them, else PIECE-sized; one always ends at `cut`."""
    bounds = {0, size}
    step = max(1, -(-size // count)) if count else PIECE
    bounds.update(range(0, size, step))
    if cut is not None:
        bounds.add(cut)
    ordered = sorted(bounds)
    return list(itertools.pairwise(ordered))


EARLY_HINTS = (
    b"HTTP/1.1 103 Early Hints\r\nLink: </asset/identity.css>; rel=preload; as=style\r\n\r\n"
)


class Origin:
    """Serve the items; hold gated downloads at their midpoint until the client says so."""

    def __init__(self, items: Sequence[Item], gate_timeout: float) -> None:
        self.items = {item.path: item for item in items}
        self.manifest = json.dumps({item.path: manifest_entry(item) for item in items}).encode()
        self.gates: dict[str, asyncio.Event] = {}
        self.held: dict[str, asyncio.Event] = {}  # set once a download waits at its gate
        self.gate_timeout = gate_timeout

    def app(self) -> web.Application:
        """Return the web application."""
        app = web.Application()
        app.router.add_get("/_manifest", self.serve_manifest)
        app.router.add_get("/_release", self.release)
        app.router.add_get("/_held", self.wait_held)
        app.router.add_get("/{tail:.*}", self.serve)
        return app

    async def serve_manifest(self, request: web.Request) -> web.Response:
        """Answer with every item's digest and size."""
        return web.Response(body=self.manifest, content_type="application/json")

    async def release(self, request: web.Request) -> web.Response:
        """Let a gated download send its second half."""
        self._gate(request.query.get("gate", "")).set()
        return web.Response(status=204)

    async def wait_held(self, request: web.Request) -> web.Response:
        """Answer once a gated download has sent its first half and waits at the gate."""
        await self._held(request.query.get("gate", "")).wait()
        return web.Response(status=204)

    def _held(self, name: str) -> asyncio.Event:
        """Return the event set when a download reaches its gate (the question may come first)."""
        return self.held.setdefault(name, asyncio.Event())

    def _gate(self, name: str) -> asyncio.Event:
        """Return the event of one gate (the release may come first)."""
        return self.gates.setdefault(name, asyncio.Event())

    async def serve(self, request: web.Request) -> web.StreamResponse:
        """Send one item: whole, chunked, trickled or gated."""
        item = self.items.get(request.path)
        if item is None:
            raise web.HTTPNotFound()
        headers = {"Content-Type": item.content_type}
        if item.encoding:
            headers["Content-Encoding"] = item.encoding
        gate = request.query.get("gate")
        if item.early_hints and request.transport is not None and request.version >= (1, 1):
            # What Node's writeEarlyHints() sends: a 1xx head, then the response.
            request.transport.write(EARLY_HINTS)
        if not (item.chunked or item.trickle or gate):
            return web.Response(body=item.body, headers=headers)
        response = web.StreamResponse(headers=headers)
        if item.chunked:
            response.enable_chunked_encoding()
        else:
            response.content_length = len(item.body)
        await response.prepare(request)
        await self._send(request, response, item, gate)
        return response

    async def _send(
        self, request: web.Request, response: web.StreamResponse, item: Item, gate: str | None
    ) -> None:
        """Write the body piece by piece, pausing for the trickle and at the gate."""
        size = len(item.body)
        cut = size // 2 if gate else None
        parts = pieces(size, cut, TRICKLE_PIECES if item.trickle else None)
        pause = item.trickle / max(1, len(parts) - 1)
        view = memoryview(item.body)
        for start, end in parts:
            if start == cut and gate is not None and not await self._opened(gate):
                # The first half never reached the client: end the exchange unfinished.
                if request.transport is not None:
                    request.transport.abort()
                return
            await response.write(view[start:end])
            if pause:
                await asyncio.sleep(pause)
        await response.write_eof()

    async def _opened(self, gate: str) -> bool:
        """Wait for the client's release of a gate; tell whether it came in time."""
        self._held(gate).set()
        try:
            await asyncio.wait_for(self._gate(gate).wait(), self.gate_timeout)
        except TimeoutError:
            return False
        finally:
            self.gates.pop(gate, None)
            self.held.pop(gate, None)
        return True


def _serve_origin(spec: OriginSpec, channel: Connection) -> None:
    """Run the origin in this (child) process until the parent closes the channel."""
    origin = Origin(catalogue(spec), spec.gate_timeout)
    asyncio.run(_serve_until_closed(origin, channel))


async def _serve_until_closed(origin: Origin, channel: Connection) -> None:
    """Listen on a free port of 127.0.0.1, report it, and serve until the channel closes."""
    runner = web.AppRunner(origin.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    channel.send(runner.addresses[0][1])
    await asyncio.to_thread(_wait_for_close, channel)
    await runner.cleanup()


def _wait_for_close(channel: Connection) -> None:
    """Block until the other end of the channel closes."""
    with suppress(EOFError, OSError):
        channel.recv()


@contextmanager
def run_origin(spec: OriginSpec) -> Iterator[str]:
    """Run the origin in its own process; yield its base URL."""
    # A process of its own: the origin's work must not slow the clients' event loop.
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=_serve_origin, args=(spec, child), daemon=True)
    process.start()
    child.close()
    try:
        if not parent.poll(START_TIMEOUT):
            raise RuntimeError(f"the origin did not start within {START_TIMEOUT:g} s")
        try:
            port = int(parent.recv())
        except EOFError:
            process.join(10)
            raise RuntimeError(f"the origin exited (code {process.exitcode})") from None
        yield f"http://127.0.0.1:{port}"
    finally:
        parent.close()
        process.join(10)
        if process.is_alive():
            process.kill()
            process.join()


# -- judging responses -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expected:
    """What the origin sent for one path."""

    sha256: str
    size: int
    group: str
    html: bool

    @property
    def large(self) -> bool:
        """Tell whether this is a gated large download."""
        return self.group.startswith("large/")


def parse_manifest(data: bytes) -> dict[str, Expected]:
    """Return the origin's manifest by path."""
    raw: dict[str, dict[str, Any]] = json.loads(data)
    return {
        path: Expected(
            sha256=str(entry["sha256"]),
            size=int(entry["size"]),
            group=str(entry["group"]),
            html=bool(entry["html"]),
        )
        for path, entry in raw.items()
    }


def is_reader_view(policy: str, body: bytes | None) -> bool:
    """Tell whether a response is Plainview's reader view: its policy, landmarks, no script."""
    if not policy.startswith(PLAINVIEW_CSP) or body is None:
        return False
    return all(mark in body for mark in READER_MARKS) and b"<script" not in body.lower()


@dataclass(frozen=True, slots=True)
class Received:
    """What a client received: status, the body's digest and size, the policy, the body."""

    status: int
    sha256: str
    size: int
    policy: str = ""
    body: bytes | None = None  # kept for pages only


# What Chromium sends to a plain-HTTP site (no Fetch Metadata): for a page in a tab,
# for a script's fetch(), for an <img>, for an <iframe> (the same as a tab's, with the
# framing page as Referer). Issue 29: the last three are no page loads.
NAVIGATION = {
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "Upgrade-Insecure-Requests": "1",
}
REQUEST_HEADERS = {
    "page": NAVIGATION,
    "<iframe>": NAVIGATION,
    "fetch()": {"Accept": "*/*"},
    "<img>": {"Accept": "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"},
}


def request_kind(serial: int, path: str) -> str:
    """Return how the request for an HTML page is made: mostly as a page, one in ten by a
    script's fetch(), one in ten by an <img>, and a dataset page one in ten by a frame."""
    kind = {3: "fetch()", 5: "<iframe>", 7: "<img>"}.get(serial % 10, "page")
    framed = DATASET_PAGE.fullmatch(path) is not None
    return "page" if kind == "<iframe>" and not framed else kind


def framing_pages(plan: Sequence[str], manifest: Mapping[str, Expected]) -> int:
    """Return how many framing pages the plan's frame requests fetch first."""
    return sum(
        1
        for serial, path in enumerate(plan)
        if manifest[path].html and request_kind(serial, path) == "<iframe>"
    )


def judge(expected: Expected, received: Received) -> tuple[str, str]:
    """Return the outcome ("identical", "reader", "mismatch", "failure") and what was wrong."""
    if received.status != 200:
        return "failure", f"status {received.status}"
    if received.sha256 == expected.sha256 and received.size == expected.size:
        return "identical", ""
    if expected.html and is_reader_view(received.policy, received.body):
        if expected.group == STREAMED_GROUP:
            return "mismatch", "a reader view: held past the buffer deadline, not streamed"
        return "reader", ""
    got = f"{received.size} bytes, sha256 {received.sha256[:16]}"
    return (
        "mismatch",
        f"{got}; the origin sent {expected.size} bytes, sha256 {expected.sha256[:16]}",
    )


@dataclass
class Tally:
    """What the clients saw, counted by outcome and by group."""

    outcomes: Counter[str] = field(default_factory=Counter)
    groups: dict[str, Counter[str]] = field(default_factory=dict)
    bytes_received: int = 0
    large_streamed: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, group: str, outcome: str, problem: str) -> None:
        """Count one response; keep the first problems for the report."""
        self.outcomes[outcome] += 1
        self.groups.setdefault(group, Counter())[outcome] += 1
        if problem and len(self.problems) < 50:
            self.problems.append(problem)

    @property
    def done(self) -> int:
        """Return how many requests have finished, whatever their outcome."""
        return sum(self.outcomes.values())


# -- the clients -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LoadSettings:
    """How hard to push: requests, concurrent clients, large downloads, deadlines."""

    requests: int = 5000
    clients: int = 50
    large_count: int = 10
    # The large chunked HTML download: a proxy must stream it once it passes its page limit.
    large_html: bool = True
    seed: int = 1
    deadline: float = 1800.0  # seconds for the whole run
    read_timeout: float = 180.0  # seconds without a byte before a request counts as failed
    kill_workers: int = 0  # worker processes killed mid-run, evenly spread
    # The proxy's page size limit (plainview_max_bytes): it may hold one page of at
    # most this size per client connection, and should hold nothing more.
    page_limit: int = 8 * MIB

    @property
    def memory_limit(self) -> int:
        """Return how far the proxy process may grow: one page per client."""
        return self.clients * self.page_limit


def build_plan(manifest: Mapping[str, Expected], settings: LoadSettings) -> list[str]:
    """Return the paths to fetch, in order: the large downloads plus a weighted mix."""
    rng = random.Random(settings.seed)
    large = sorted(
        path
        for path, entry in manifest.items()
        if entry.large and (settings.large_html or not entry.html)
    )
    plan = [large[i % len(large)] for i in range(min(settings.large_count, settings.requests))]
    families: dict[str, list[str]] = {}
    for path in sorted(manifest):
        family = manifest[path].group.split("/", 1)[0]
        if family in FAMILY_SHARES:
            families.setdefault(family, []).append(path)
    names = sorted(families)
    weights = [FAMILY_SHARES[name] for name in names]
    for family in rng.choices(names, weights=weights, k=settings.requests - len(plan)):
        plan.append(rng.choice(families[family]))
    rng.shuffle(plan)
    return plan


class Clients:
    """A pool of HTTP clients fetching through the proxy and judging every body."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        direct: aiohttp.ClientSession,
        proxy: str,
        origin: str,
        manifest: Mapping[str, Expected],
    ) -> None:
        self.session = session
        self.direct = direct
        self.proxy = f"http://{proxy}"
        self.origin = origin
        self.manifest = manifest
        self.tally = Tally()

    async def run(self, plan: Sequence[str], clients: int) -> None:
        """Fetch every path of the plan with `clients` concurrent clients."""
        queue = list(enumerate(plan))
        queue.reverse()  # pop() from the end takes them in plan order

        async def client() -> None:
            while queue:
                serial, path = queue.pop()
                await self.fetch(serial, path)

        await asyncio.gather(*(client() for _ in range(clients)))

    async def fetch(self, serial: int, path: str) -> None:
        """Fetch one path through the proxy and count the outcome."""
        expected = self.manifest[path]
        gate = f"g{serial}" if expected.large else ""
        url = self.origin + path + (f"?gate={gate}" if gate else "")
        kind = request_kind(serial, path) if expected.html else "page"
        headers = dict(REQUEST_HEADERS[kind])
        if kind != "page":  # a script's, an image's, a frame's request: never a reader view
            expected = replace(expected, group=f"{expected.group} by {kind}", html=False)
        if kind == "<iframe>":  # its page first, as a browser loads them
            parent = parent_of(path)
            await self.get(self.origin + parent, self.manifest[parent], NAVIGATION, "", parent)
            headers["Referer"] = self.origin + parent
        await self.get(url, expected, headers, gate, path)

    async def get(
        self, url: str, expected: Expected, headers: dict[str, str], gate: str, path: str
    ) -> None:
        """Fetch one URL through the proxy and count the outcome."""
        try:
            async with self.session.get(url, proxy=self.proxy, headers=headers) as response:
                outcome, problem = await self._read(response, expected, gate)
        except (aiohttp.ClientError, TimeoutError) as error:
            outcome, problem = "failure", f"{type(error).__name__}: {error}"
        self.tally.add(expected.group, outcome, f"{path}: {problem}" if problem else "")

    async def _read(
        self, response: aiohttp.ClientResponse, expected: Expected, gate: str
    ) -> tuple[str, str]:
        """Hash the body as it arrives; open the gate once the first half is in."""
        digest, size = hashlib.sha256(), 0
        kept: bytearray | None = bytearray() if expected.html else None
        waiting = bool(gate)
        async for chunk in response.content.iter_chunked(PIECE):
            digest.update(chunk)
            size += len(chunk)
            if kept is not None:
                kept += chunk
                kept = kept if len(kept) <= KEEP_MAX else None
            if waiting and size >= expected.size // 2:
                waiting = False
                await self._release(gate)
        self.tally.bytes_received += size
        received = Received(
            status=response.status,
            sha256=digest.hexdigest(),
            size=size,
            policy=response.headers.get("Content-Security-Policy", ""),
            body=None if kept is None else bytes(kept),
        )
        outcome = judge(expected, received)
        if gate and not waiting and outcome[0] == "identical":
            self.tally.large_streamed += 1
        return outcome

    async def _release(self, gate: str) -> None:
        """Tell the origin (directly, not through the proxy) to send the second half."""
        async with self.direct.get(f"{self.origin}/_release", params={"gate": gate}) as answer:
            answer.raise_for_status()


def fetch_manifest(origin: str) -> dict[str, Expected]:
    """Return the origin's manifest, fetched directly."""

    async def get() -> bytes:
        async with aiohttp.ClientSession() as session, session.get(f"{origin}/_manifest") as answer:
            answer.raise_for_status()
            return await answer.read()

    return parse_manifest(asyncio.run(get()))


# -- memory and workers ----------------------------------------------------------------


def process_memory(pid: int) -> tuple[int, int]:
    """Return the RSS of a process and the summed RSS of all its descendants, in bytes."""
    process = psutil.Process(pid)
    own = int(process.memory_info().rss)
    children = 0
    for child in process.children(recursive=True):
        with suppress(psutil.Error):  # a worker may exit between listing and reading
            children += int(child.memory_info().rss)
    return own, children


@dataclass
class Memory:
    """Memory of the proxy process and its workers: at the start and at the peak, in bytes."""

    baseline_proxy: int = 0
    baseline_workers: int = 0
    peak_proxy: int = 0
    peak_workers: int = 0
    peak_total: int = 0
    samples: int = 0

    def add(self, proxy: int, workers: int) -> None:
        """Take one sample into the peaks."""
        self.peak_proxy = max(self.peak_proxy, proxy)
        self.peak_workers = max(self.peak_workers, workers)
        self.peak_total = max(self.peak_total, proxy + workers)
        self.samples += 1

    @property
    def growth(self) -> int:
        """Return how far the total rose above the baseline at its peak."""
        return self.peak_total - self.baseline_proxy - self.baseline_workers

    @property
    def proxy_growth(self) -> int:
        """Return how far the proxy process alone rose above its baseline at its peak."""
        return self.peak_proxy - self.baseline_proxy


class MemorySampler:
    """Sample a process tree's memory in a thread while the block runs."""

    def __init__(self, pid: int, interval: float = 0.05) -> None:
        self.pid = pid
        self.interval = interval
        self.memory = Memory()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> MemorySampler:
        """Take the baseline and start sampling."""
        proxy, workers = process_memory(self.pid)
        self.memory.baseline_proxy, self.memory.baseline_workers = proxy, workers
        self.memory.add(proxy, workers)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop sampling."""
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        """Sample until stopped; a vanished process ends the sampling."""
        while not self._stop.wait(self.interval):
            try:
                self.memory.add(*process_memory(self.pid))
            except psutil.NoSuchProcess:
                return


def _command_line(process: psutil.Process) -> str:
    """Return a process's command line, or "" once it is gone."""
    try:
        return " ".join(process.cmdline())
    except psutil.Error:
        return ""


def pool_workers(pid: int) -> list[psutil.Process]:
    """Return the proxy's worker processes: the fork server's children, or spawned ones."""
    workers: list[psutil.Process] = []
    for child in psutil.Process(pid).children():
        line = _command_line(child)
        if "multiprocessing.forkserver" in line:
            with suppress(psutil.Error):
                workers += child.children()
        elif "spawn_main" in line:
            workers.append(child)
    return workers


def _cpu_seconds(process: psutil.Process) -> float | None:
    """Return a process's user and system CPU time, or None once it is gone."""
    try:
        times = process.cpu_times()
    except psutil.Error:
        return None
    return float(times.user + times.system)


def kill_busy_worker(pid: int, timeout: float, stop: threading.Event | None = None) -> int | None:
    """Kill the first worker seen working (SIGKILL); return its pid, None if none worked."""
    deadline = time.monotonic() + timeout
    first: dict[int, float] = {}
    stop = stop or threading.Event()
    # CPU time can only be sampled; between samples the wait is on `stop`, which ends it.
    while time.monotonic() < deadline and not stop.is_set():
        for worker in pool_workers(pid):
            used = _cpu_seconds(worker)
            if used is None:
                continue
            if used - first.setdefault(worker.pid, used) >= BUSY_CPU_SECONDS:
                with suppress(psutil.Error):
                    worker.send_signal(signal.SIGKILL)
                    return int(worker.pid)
        stop.wait(CPU_SAMPLE_SECONDS)
    return None


# -- one run -------------------------------------------------------------------------------


@dataclass
class Report:
    """The outcome of one load run."""

    settings: dict[str, Any]
    origin: dict[str, Any]
    requests: int
    completed: int
    failures: int
    mismatches: int
    html_reader: int
    html_identical: int
    other_identical: int
    large_planned: int
    large_streamed: int
    bytes_received: int
    duration_s: float
    finished: bool
    memory: Memory
    worker_kills: list[int]
    groups: dict[str, dict[str, int]]
    problems: list[str]
    decisions: dict[str, int] = field(default_factory=dict)
    proxy_errors: list[str] = field(default_factory=list)
    memory_limit: int = 0  # bytes the proxy process may grow by (0: no limit)

    @property
    def ok(self) -> bool:
        """Tell whether every promise held."""
        return (
            self.finished
            and self.completed == self.requests
            and self.failures == 0
            and self.mismatches == 0
            and self.large_streamed == self.large_planned
            and (not self.memory_limit or self.memory.proxy_growth < self.memory_limit)
        )

    def to_json(self) -> str:
        """Return the report as JSON."""
        data = asdict(self)
        data["ok"] = self.ok
        data["memory"]["growth"] = self.memory.growth
        data["memory"]["proxy_growth"] = self.memory.proxy_growth
        return json.dumps(data, indent=2, sort_keys=True)


def html_counts(tally: Tally, manifest: Mapping[str, Expected]) -> tuple[int, int, int]:
    """Return (reader views, identical pages, identical other bodies)."""
    html_groups = {entry.group for entry in manifest.values() if entry.html}
    identical = sum(c["identical"] for g, c in tally.groups.items() if g in html_groups)
    return tally.outcomes["reader"], identical, tally.outcomes["identical"] - identical


async def _drive(
    clients: Clients, plan: Sequence[str], settings: LoadSettings, pid: int
) -> list[int]:
    """Run the clients, killing workers along the way if asked; return the killed pids."""
    stop = threading.Event()
    killer = asyncio.create_task(
        _kill_along(clients.tally, len(plan), settings.kill_workers, pid, stop)
    )
    try:
        await clients.run(plan, settings.clients)
    finally:
        stop.set()
    return await killer


async def _kill_along(
    tally: Tally, total: int, kills: int, pid: int, stop: threading.Event
) -> list[int]:
    """Kill a busy worker each time another 1/(kills+1) of the requests has finished."""
    killed: list[int] = []
    for number in range(1, kills + 1):
        while tally.done < total * number // (kills + 1) and not stop.is_set():
            await asyncio.sleep(0.05)
        found = await asyncio.to_thread(kill_busy_worker, pid, 30.0, stop)
        if found is not None:
            killed.append(found)
    return killed


@dataclass(frozen=True, slots=True)
class Target:
    """The proxy under test ("host:port" and its process id) and the origin's base URL."""

    proxy: str
    pid: int
    origin: str
    log: Path | None = None  # the proxy's output, for its per-page decisions


async def _load(
    settings: LoadSettings, target: Target, plan: Sequence[str], manifest: Mapping[str, Expected]
) -> tuple[Tally, list[int], bool]:
    """Open the sessions and run the plan within the deadline."""
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=settings.read_timeout)
    connector = aiohttp.TCPConnector(limit=0)
    async with (
        aiohttp.ClientSession(
            connector=connector, timeout=timeout, auto_decompress=False
        ) as session,
        aiohttp.ClientSession(timeout=timeout) as direct,
    ):
        clients = Clients(session, direct, target.proxy, target.origin, manifest)
        drive = _drive(clients, plan, settings, target.pid)
        try:
            kills = await asyncio.wait_for(drive, settings.deadline)
        except TimeoutError:
            return clients.tally, [], False
        return clients.tally, kills, True


def measure(
    settings: LoadSettings, target: Target, spec: OriginSpec, plan: Sequence[str] | None = None
) -> Report:
    """Run a load through the proxy and report what happened (`plan`: these paths only)."""
    manifest = fetch_manifest(target.origin)
    plan = build_plan(manifest, settings) if plan is None else list(plan)
    wait_for_workers(target.pid, START_TIMEOUT)
    with MemorySampler(target.pid) as sampler:
        started = time.monotonic()
        tally, kills, finished = asyncio.run(_load(settings, target, plan, manifest))
        duration = time.monotonic() - started
    reader, identical, other = html_counts(tally, manifest)
    log_text = target.log.read_text(errors="replace") if target.log else ""
    return Report(
        settings=asdict(settings),
        origin=asdict(spec),
        requests=len(plan) + framing_pages(plan, manifest),
        completed=tally.done,
        failures=tally.outcomes["failure"],
        mismatches=tally.outcomes["mismatch"],
        html_reader=reader,
        html_identical=identical,
        other_identical=other,
        large_planned=sum(1 for path in plan if manifest[path].large),
        large_streamed=tally.large_streamed,
        memory_limit=settings.memory_limit,
        bytes_received=tally.bytes_received,
        duration_s=round(duration, 2),
        finished=finished,
        memory=sampler.memory,
        worker_kills=kills,
        groups={group: dict(counts) for group, counts in sorted(tally.groups.items())},
        problems=tally.problems,
        decisions=decisions(log_text, target.origin),
        proxy_errors=error_lines(log_text),
    )


# "plainview: ACTION URL: REASON (N ms)", one line per page (addon/proxy/adapter.py).
DECISION_LINE = re.compile(r"plainview: (\w+) (\S+): (.*) \(\d+ ms\)$")
ERROR_LINE = re.compile(r"error|traceback|exception", re.IGNORECASE)


def decisions(log: str, origin: str) -> dict[str, int]:
    """Count the proxy's decisions on the origin's pages by action and reason (digits as N)."""
    counts: Counter[str] = Counter()
    for line in log.splitlines():
        found = DECISION_LINE.search(line)
        if found and found.group(2).startswith(origin):
            reason = re.sub(r"\d+(\.\d+)?", "N", found.group(3))
            counts[f"{found.group(1)}: {reason}"] += 1
    return dict(counts.most_common())


def error_lines(log: str, limit: int = 20) -> list[str]:
    """Return the first lines of the proxy's output that report an error."""
    return [line for line in log.splitlines() if ERROR_LINE.search(line)][:limit]


def wait_for_workers(pid: int, timeout: float) -> None:
    """Wait until the proxy has started its workers, so the memory baseline includes them."""
    deadline = time.monotonic() + timeout
    proxy = psutil.Process(pid)
    while len(pool_workers(pid)) < (os.cpu_count() or 1) and time.monotonic() < deadline:
        try:
            # Between looks, wait on the proxy itself: its exit ends the wait at once.
            proxy.wait(timeout=0.1)
        except psutil.TimeoutExpired:
            continue
        raise RuntimeError(f"the proxy exited while its workers started (pid {pid})")


def wait_for_idle_workers(pid: int, timeout: float, *, quiet: float = 0.3) -> None:
    """Wait until no worker has used CPU for `quiet` seconds; raise TimeoutError if none rest."""
    # A job left from earlier requests, or a worker still starting, would otherwise
    # look like the work that comes next.
    deadline = time.monotonic() + timeout
    proxy = psutil.Process(pid)
    used: dict[int, float | None] = {}
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        now = {worker.pid: _cpu_seconds(worker) for worker in pool_workers(pid)}
        if now != used:
            used, quiet_since = now, time.monotonic()
        elif time.monotonic() - quiet_since >= quiet:
            return
        try:
            # Between looks, wait on the proxy itself: its exit ends the wait at once.
            proxy.wait(timeout=CPU_SAMPLE_SECONDS)
        except psutil.TimeoutExpired:
            continue
        raise RuntimeError(f"the proxy exited while its workers were busy (pid {pid})")
    raise TimeoutError(f"the proxy's workers kept working for {timeout} s (pid {pid})")


def summary(report: Report) -> str:
    """Return the report as a few lines of text."""
    memory = report.memory
    lines = [
        f"requests: {report.completed} of {report.requests} in {report.duration_s:.1f} s"
        f" ({report.completed / max(report.duration_s, 1e-9):.0f}/s,"
        f" {report.bytes_received / MIB:.0f} MiB received)",
        f"failures: {report.failures}",
        f"mismatched bodies: {report.mismatches}",
        f"HTML pages: {report.html_reader} reader views, {report.html_identical} byte-identical",
        f"other bodies byte-identical: {report.other_identical}",
        f"large downloads streamed: {report.large_streamed} of {report.large_planned}",
        f"peak RSS: {mib(memory.peak_total)} in all, at the start"
        f" {mib(memory.baseline_proxy + memory.baseline_workers)}",
        f"  proxy process: peak {mib(memory.peak_proxy)}, at the start"
        f" {mib(memory.baseline_proxy)} (growth {mib(memory.proxy_growth)},"
        f" limit {mib(report.memory_limit)})",
        f"  worker processes: peak {mib(memory.peak_workers)}, at the start"
        f" {mib(memory.baseline_workers)}",
    ]
    if report.worker_kills:
        lines.append(f"workers killed mid-run: {len(report.worker_kills)}")
    lines.append("proxy decisions on the origin's pages:")
    lines += [f"  {count:5d}  {decision}" for decision, count in report.decisions.items()]
    if not report.finished:
        lines.append(f"deadline of {report.settings['deadline']:g} s passed before the end")
    lines += [f"  problem: {problem}" for problem in report.problems[:10]]
    lines.append("result: " + ("every promise held" if report.ok else "FAILED"))
    return "\n".join(lines)


def mib(size: int) -> str:
    """Return a byte count in MiB with one decimal."""
    return f"{size / MIB:.1f} MiB"


# -- the proxy under test -------------------------------------------------------------------


def free_port() -> int:
    """Return a TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> bool:
    """Tell whether something accepts connections on 127.0.0.1:port."""
    with socket.socket() as probe:
        probe.settimeout(1.0)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def run_proxy(home: Path, extra: Sequence[str] = ()) -> Iterator[tuple[int, int]]:
    """Run `plainview proxy` with a fresh config under `home`; yield (pid, port).

    Its output goes to `home`/proxy.log.
    """
    port = free_port()
    command = [
        sys.executable, "-m", "addon.cli.main", "proxy", "--listen-port", str(port),
        "--config", str(home / "config" / "config.toml"),
        "--set", f"confdir={home / 'mitmproxy'}", *extra,
    ]  # fmt: skip
    # The proxy must reach the origin directly, whatever the environment says.
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy")}
    with (home / "proxy.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        problem = why_not_listening(process, port, START_TIMEOUT)
        if problem:
            raise RuntimeError(f"plainview proxy {problem}")
        yield process.pid, port
    finally:
        stop(process)


def why_not_listening(
    process: subprocess.Popen[bytes] | subprocess.Popen[str], port: int, timeout: float
) -> str:
    """Wait until a started server listens on the port; return why not ("" once it does)."""
    deadline = time.monotonic() + timeout
    while not listening(port):
        if time.monotonic() > deadline:
            return f"did not listen within {timeout:g} s"
        try:
            # Between tries, wait on the process itself: its exit ends the wait at once.
            process.wait(timeout=0.1)
        except subprocess.TimeoutExpired:
            continue
        return f"exited with {process.returncode}"
    return ""


def stop(process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    """Stop a process this module's callers started: terminate, then kill if it lingers."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# -- command line --------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser."""
    defaults, origin = LoadSettings(), OriginSpec()
    parser = argparse.ArgumentParser(
        prog="scripts/loadtest",
        description="Drive a real `plainview proxy` with a mixed load and check every body.",
    )
    add = parser.add_argument
    add(
        "--requests",
        type=int,
        default=defaults.requests,
        help="requests in all (default: %(default)s)",
    )
    add(
        "--clients",
        type=int,
        default=defaults.clients,
        help="concurrent clients (default: %(default)s)",
    )
    add(
        "--large-mb",
        type=int,
        default=origin.large_bytes // MIB,
        help="size of each large download in MiB (default: %(default)s)",
    )
    add(
        "--large-count",
        type=int,
        default=defaults.large_count,
        help="large downloads among the requests (default: %(default)s)",
    )
    add("--no-large-html", action="store_true", help="leave out the large chunked HTML download")
    add(
        "--pages",
        type=int,
        default=origin.pages,
        help="dataset pages served (default: %(default)s)",
    )
    add("--kill-workers", type=int, default=0, help="kill this many busy workers during the run")
    add(
        "--deadline",
        type=float,
        default=defaults.deadline,
        help="seconds for the whole run (default: %(default)s)",
    )
    add(
        "--seed",
        type=int,
        default=defaults.seed,
        help="seed of the request order (default: %(default)s)",
    )
    add("--dataset", type=Path, default=DATASET, help="wcxb-dev folder (default: %(default)s)")
    add(
        "--json",
        type=Path,
        default=REPORT,
        help="where to write the report (default: %(default)s)",
    )
    add(
        "--set",
        dest="proxy_options",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="pass a mitmproxy option to the proxy; repeatable",
    )
    return parser


def settings_from(args: argparse.Namespace) -> tuple[LoadSettings, OriginSpec]:
    """Return the run's settings and the origin's from the parsed arguments."""
    settings = replace(
        LoadSettings(),
        requests=args.requests,
        clients=args.clients,
        large_count=args.large_count,
        large_html=not args.no_large_html,
        seed=args.seed,
        deadline=args.deadline,
        kill_workers=args.kill_workers,
    )
    spec = replace(
        OriginSpec(), dataset=str(args.dataset), pages=args.pages, large_bytes=args.large_mb * MIB
    )
    return settings, spec


def main(argv: Sequence[str] | None = None, *, out: Callable[[str], None] = print) -> int:
    """Run the load test against a fresh proxy; print the summary, write the JSON report."""
    args = build_parser().parse_args(argv)
    settings, spec = settings_from(args)
    extra = [item for option in args.proxy_options for item in ("--set", option)]
    with tempfile.TemporaryDirectory(prefix="plainview-load-") as home:
        out(f"origin: {spec.pages} pages, {spec.large_bytes // MIB} MiB downloads; starting")
        with run_origin(spec) as origin, run_proxy(Path(home), extra) as (pid, port):
            target = Target(f"127.0.0.1:{port}", pid, origin, Path(home) / "proxy.log")
            report = measure(settings, target, spec)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(report.to_json() + "\n", encoding="utf-8")
    out(summary(report))
    out(f"report: {args.json}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
