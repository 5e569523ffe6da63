"""End to end: what a reader view lets the browser fetch, and what never leaves the proxy.

Headless Chromium loads reader views of dataset articles through the real
proxy. Every request the browser attempts is recorded: only the article's own
images may be fetched, and without a Referer. The same pages shown as the
original are the control: they do reach for third-party scripts and fonts.
Nothing leaves the machine: requests to hosts other than the local origin are
recorded, then aborted inside the browser.
"""

from __future__ import annotations

import gzip
import json
import re
import socketserver
import ssl
import struct
import threading
import urllib.error
import urllib.request
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlencode, urljoin, urlsplit

import lxml.html
import pytest
from e2e_servers import DATASET, OriginServer, ProxyProcess, Resource, add_rule, run_proxy
from playwright.sync_api import Browser, Page, Playwright, Request, Route, sync_playwright
from test_browser_e2e import BROWSER_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, PLAINVIEW_CSP

pytestmark = pytest.mark.e2e

# Dataset articles whose originals load third-party fonts, trackers and analytics.
# 0001 and 0021 keep their images on the site's own host; 0019 on an image CDN.
PAGE_IDS = ("0001", "0019", "0021")
READER_PREFIX, ORIGINAL_PREFIX = "/privacy/", "/privacy-original/"
IMAGE_PATH = re.compile(r"(?<![\w:/])(/[^\s\"'(),]+?\.(?:jpe?g|png|gif|webp|avif))", re.I)


def tiny_png() -> bytes:
    """Return a valid 1x1 PNG, so that images served by the origin really load."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x80\x80\x80")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def local_copy(page_id: str) -> bytes:
    """Return a dataset page with its own site's absolute URLs made relative to the origin."""
    html = gzip.decompress((DATASET / "html" / f"{page_id}.html.gz").read_bytes()).decode()
    url = json.loads((DATASET / "ground-truth" / f"{page_id}.json").read_text())["url"]
    site = urlsplit(url).hostname
    for prefix in (f"https://{site}", f"http://{site}", f"//{site}"):
        html = html.replace(prefix, "")
    return html.encode()


def third_party_hosts(html: bytes, url: str) -> set[str]:
    """Return the other hosts a page's scripts, stylesheets, fonts and frames come from."""
    root = lxml.html.document_fromstring(html)
    hosts = set()
    for element in root.iter("script", "link", "iframe"):
        address = (element.get("src") or element.get("href") or "").strip()
        if address and not address.startswith("data:"):
            hosts.add(urlsplit(urljoin(url, address)).hostname or "")
    return hosts - {"", urlsplit(url).hostname or ""}


@pytest.fixture(scope="module")
def pages(origin_server: OriginServer, proxy_process: ProxyProcess) -> OriginServer:
    """Serve the articles twice (reader and original paths) and every image they name."""
    html = (("Content-Type", "text/html; charset=utf-8"),)
    image = Resource(tiny_png(), (("Content-Type", "image/png"),))
    for page_id in PAGE_IDS:
        body = local_copy(page_id)
        for prefix in (READER_PREFIX, ORIGINAL_PREFIX):
            origin_server.served[f"{prefix}{page_id}.html"] = Resource(body, html)
        for path in IMAGE_PATH.findall(body.decode()):
            origin_server.served[path] = image
    # Rules make the two views certain, whatever the auto mode would decide.
    add_rule(proxy_process, READER_PREFIX, "reader")
    add_rule(proxy_process, ORIGINAL_PREFIX, "original")
    return origin_server


@pytest.fixture(scope="module")
def chromium(proxy_process: ProxyProcess) -> Iterator[Browser]:
    """Run headless Chromium with every request sent to the proxy."""
    driver: Playwright
    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            proxy={"server": f"http://{proxy_process.address}"},
        )
        yield browser
        browser.close()


@dataclass
class Visit:
    """One page load: the tab and every request the browser attempted."""

    page: Page
    requests: list[Request]

    def hosts(self) -> set[str]:
        """Return the hosts the browser tried to reach."""
        return {urlsplit(request.url).hostname or "" for request in self.requests}

    def image_urls(self) -> set[str]:
        """Return every image address in the document: src and each srcset candidate."""
        found: list[str] = self.page.evaluate(
            """() => [...document.images].flatMap(img => [img.src,
                ...(img.srcset || '').split(',').map(c => c.trim().split(/\\s+/)[0])
                    .filter(Boolean).map(u => new URL(u, document.baseURI).href)])"""
        )
        return set(found)


@contextmanager
def visit(browser: Browser, origin: OriginServer, url: str) -> Iterator[Visit]:
    """Load a URL in a fresh context; only the local origin's requests go out."""
    context = browser.new_context()
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    requests: list[Request] = []

    def record(request: Request) -> None:
        requests.append(request)

    context.on("request", record)
    local = urlsplit(origin.base).netloc

    def only_local(route: Route) -> None:
        # Recorded above; anything for another host is stopped before it leaves the browser.
        if urlsplit(route.request.url).netloc == local:
            route.continue_()
        else:
            route.abort()

    context.route("**/*", only_local)
    try:
        page = context.new_page()
        response = page.goto(url, wait_until="load")
        assert response is not None and response.status == 200
        yield Visit(page, requests)
    finally:
        context.close()


@pytest.mark.parametrize("page_id", PAGE_IDS)
def test_a_reader_view_fetches_only_its_images_without_a_referer(
    chromium: Browser, pages: OriginServer, page_id: str
) -> None:
    url = pages.url(f"{READER_PREFIX}{page_id}.html")
    with visit(chromium, pages, url) as seen:
        assert document_policy(seen, url).startswith(PLAINVIEW_CSP)
        images = seen.image_urls()
        assert images, "the reader view kept no image; pick another article"
        assert [r.url for r in seen.requests if r.url not in images | {url}] == []
        trackers = third_party_hosts(local_copy(page_id), url) - image_hosts(images)
        assert seen.hosts() & trackers == set()
        referers = {r.url: r.header_value("referer") for r in seen.requests if r.url != url}
        assert set(referers.values()) == {None}, referers
        if urlsplit(url).netloc in {urlsplit(image).netloc for image in images}:
            loaded = seen.page.evaluate("[...document.images].filter(i => i.naturalWidth).length")
            assert loaded > 0  # the origin's images did load


def document_policy(seen: Visit, url: str) -> str:
    """Return the Content-Security-Policy of the document's response."""
    document = next(r for r in seen.requests if r.url == url)
    response = document.response()
    assert response is not None
    return response.header_value("content-security-policy") or ""


def image_hosts(images: set[str]) -> set[str]:
    """Return the hosts of a set of image URLs."""
    return {urlsplit(image).hostname or "" for image in images}


@pytest.mark.parametrize("page_id", PAGE_IDS)
def test_the_original_page_would_reach_third_parties_and_send_a_referer(
    chromium: Browser, pages: OriginServer, page_id: str
) -> None:
    url = pages.url(f"{ORIGINAL_PREFIX}{page_id}.html")
    with visit(chromium, pages, url) as seen:
        assert not document_policy(seen, url).startswith(PLAINVIEW_CSP)
        reached = seen.hosts() & third_party_hosts(local_copy(page_id), url)
        assert reached, f"the original reached for none of its third parties: {seen.hosts()}"
        subresources = [r for r in seen.requests if r.url != url]
        assert any(r.header_value("referer") for r in subresources)


# -- the reserved host -----------------------------------------------------------------


class Upstream(socketserver.ThreadingTCPServer):
    """An upstream proxy that records the head of every request and refuses it (502)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Recorder)
        self.heads: list[str] = []


class _Recorder(socketserver.StreamRequestHandler):
    """Record one request head, then answer 502 and close."""

    server: Upstream

    def handle(self) -> None:
        lines = []
        while (line := self.rfile.readline(65536)) not in (b"", b"\r\n", b"\n"):
            lines.append(line.decode("latin-1").strip())
        self.server.heads.append(" | ".join(lines))
        self.wfile.write(
            b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )


@pytest.fixture(scope="module")
def upstream() -> Iterator[Upstream]:
    """Run the recording upstream proxy on a free port of 127.0.0.1."""
    server = Upstream()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="module")
def chained(tmp_path_factory: pytest.TempPathFactory, upstream: Upstream) -> Iterator[ProxyProcess]:
    """Run `plainview proxy` sending everything it forwards to the recording upstream."""
    port = upstream.server_address[1]
    home = tmp_path_factory.mktemp("chained")
    with run_proxy(home, "--set", f"mode=upstream:http://127.0.0.1:{port}") as proxy:
        yield proxy


def status_of(proxy: ProxyProcess, url: str, form: dict[str, str] | None = None) -> int:
    """Return the status of a GET (or form POST) through the proxy; -1 if no answer came."""
    address = f"http://{proxy.address}"
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({"http": address, "https": address}),
        urllib.request.HTTPSHandler(context=ssl.create_default_context(cafile=proxy.ca_file)),
    )
    data = None if form is None else urlencode(form).encode()
    try:
        with opener.open(urllib.request.Request(url, data=data), timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except urllib.error.URLError:
        return -1  # a refused CONNECT: the tunnel was never set up


def new_heads(upstream: Upstream, before: int) -> list[str]:
    """Return the request heads the upstream proxy received since it had `before` of them."""
    return upstream.heads[before:]


def test_plain_http_to_the_settings_host_never_goes_upstream(
    chained: ProxyProcess, upstream: Upstream
) -> None:
    before = len(upstream.heads)
    answers = {
        "http://plainview.proxy/": 200,
        "http://Plainview.PROXY./": 200,
        "http://plainview.proxy:8080/": 200,
        "http://plainview.proxy/nothing-here": 404,
    }
    for url, status in answers.items():
        assert status_of(chained, url) == status, url
    assert status_of(chained, "http://plainview.proxy/defaults", {"mode": "original"}) == 403
    # The control: another host does go to the upstream proxy.
    assert status_of(chained, "http://news.example/story") == 502
    heads = new_heads(upstream, before)
    assert [head for head in heads if head.startswith("GET http://news.example/story ")]
    assert [head for head in heads if "plainview" in head.lower()] == []


def test_https_to_the_settings_host_never_goes_upstream(
    chained: ProxyProcess, upstream: Upstream
) -> None:
    before = len(upstream.heads)
    for url in ("https://plainview.proxy/", "https://plainview.proxy:8443/"):
        assert status_of(chained, url) == 200, url
    # The control: another host's tunnel is asked of the upstream proxy (which refuses it).
    assert status_of(chained, "https://news.example/story") in (-1, 502)
    heads = new_heads(upstream, before)
    assert [head for head in heads if head.startswith("CONNECT news.example:443 ")]
    assert [head for head in heads if "plainview" in head.lower()] == []
