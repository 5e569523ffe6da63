"""XSS payloads in headless Chromium, through a real `plainview proxy`: no script may run.

A fixed sample of the shared payload list (every 13th line: 509 payloads) is
spread over ten article pages, each payload raw in its own paragraph, in a
link's attributes or in an image's src, plus one in each page's <title> and
headline. Chromium loads every page's reader view with the page CSP bypassed,
so the sanitised markup alone must keep script from running; the proxy's CSP
is checked to be there as well. Then every element of the article gets the
events that payloads wait for (hover, focus, animation, clicks on anything but
links). Three detectors listen throughout: dialogs, console messages from page
script, and requests to any host but the origin and the proxy's own. The same
page loaded as the original is the positive control: there the detectors fire.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from e2e_servers import OriginServer, ProxyProcess, Resource, add_rule
from plainview_dev import gates
from playwright.sync_api import (
    BrowserContext,
    ConsoleMessage,
    Dialog,
    Page,
    Playwright,
    Request,
    Route,
    sync_playwright,
)

pytestmark = pytest.mark.e2e

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
# Every 13th payload: 509 of 6,613, the same on every run.
STRIDE = 13
PAGES = 10
PREFIX = "/xss-browser/"
PROXY_HOST = "plainview.proxy"
# What every detector must hear when the page is shown as it was sent.
CONTROL_PAGE = (
    b"<!doctype html><title>Control</title><p>Control page."
    b"<script>console.log('control'); fetch('http://elsewhere.example/beacon');</script>"
    b"<img src=x onerror=alert('control')>"
)
PLAINVIEW_CSP = "default-src 'none'; img-src * data:; style-src 'sha256-"
BROWSER_TIMEOUT_MS = 60_000
# Milliseconds to let timers, animations and transitions of a loaded page fire.
SETTLE_MS = 500
NETWORK_ERROR = "Failed to load resource: "
# Below this share of payload blocks in the reader view, a payload swallowed too much of its page.
MIN_COVERAGE = 0.8
PROSE = (
    "The harbour ferry carried its first passengers in months (item {n}), after the shipyard "
    "replaced the engines, the wheelhouse windows and most of the deck planks."
)
# Dispatch what payloads wait for to every element of the article; links are not clicked
# (they would navigate away), their targets are checked by the browser's URL parser instead.
PROVOKE = """() => {
  const names = ['mouseover', 'mouseenter', 'mousemove', 'mousedown', 'mouseup', 'focus',
    'focusin', 'blur', 'animationstart', 'animationend', 'transitionend', 'toggle', 'input',
    'change', 'keydown', 'keyup', 'pointerover', 'pointerdown', 'wheel', 'scroll', 'error',
    'load', 'beforetoggle', 'contextmenu', 'dblclick', 'copy', 'cut', 'paste'];
  const all = document.querySelectorAll('main article *');
  for (const el of all) {
    for (const name of names) { el.dispatchEvent(new Event(name, {bubbles: true})); }
    if (!el.closest('a')) { el.click(); }
    if (el.focus) { el.focus(); }
  }
  const handlers = [...document.querySelectorAll('*')].flatMap(
    el => [...el.attributes].filter(a => a.name.startsWith('on')).map(a => a.name));
  const links = [...document.querySelectorAll('a[href]')].map(a => a.protocol)
    .filter(p => !['http:', 'https:', 'mailto:', 'tel:'].includes(p));
  return {elements: all.length, handlers, links};
}"""


def sample(payloads: list[str]) -> list[str]:
    """Return the fixed sample of payloads."""
    return payloads[::STRIDE]


def payload_block(n: int, payload: str) -> str:
    """Return a prose paragraph and then the payload raw in one of three places."""
    prose = f"<p>{PROSE.format(n=n)}</p>\n"
    if n % 3 == 0:
        return prose + f"<p>Readers wrote: {payload} The council answered.</p>\n"
    if n % 3 == 1:
        return prose + (
            f'<p>See the <a href="{payload}" title="{payload}" class="{payload}">timetable</a>'
            " for the crossings.</p>\n"
        )
    return prose + f'<figure><img src="{payload}" alt="The pier"><figcaption>The pier.</figcaption>'


def batch_page(payloads: list[str], first: int) -> bytes:
    """Build an article page with many payloads, one per block, numbered from `first`."""
    blocks = "".join(payload_block(first + i, p) for i, p in enumerate(payloads))
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{payloads[0]}"
        f"</title></head><body><nav><a href='/'>Home</a></nav><article><h1>{payloads[1]}</h1>\n"
        f"{blocks}</article><footer><p>Coast News</p></footer></body></html>"
    ).encode()


@dataclass
class Detectors:
    """What the listeners heard: dialogs, page console output, requests to other hosts."""

    allowed_hosts: frozenset[str]
    dialogs: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    requests: int = 0

    def on_dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def on_console(self, message: ConsoleMessage) -> None:
        # The browser's own report of a failed load (a broken image) is no page script.
        if not message.text.startswith(NETWORK_ERROR):
            self.console.append(f"{message.type}: {message.text}")

    def on_request(self, request: Request) -> None:
        self.requests += 1

    def on_route(self, route: Route) -> None:
        # Requests to other hosts never leave the browser: recorded, then aborted.
        url = route.request.url
        if urlsplit(url).netloc.lower() in self.allowed_hosts or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.foreign.append(url)
            route.abort()

    def heard(self) -> list[str]:
        return [*self.dialogs, *self.console, *self.foreign]


@pytest.fixture(scope="module")
def pages(origin_server: OriginServer, proxy_process: ProxyProcess) -> dict[str, int]:
    """Serve the payload pages on the shared origin; return their paths and payload counts."""
    chosen = sample(gates.load_payloads())
    assert len(chosen) >= 500
    html = (("Content-Type", "text/html; charset=utf-8"),)
    paths: dict[str, int] = {}
    for index in range(PAGES):
        path = f"{PREFIX}page-{index}.html"
        # Payload n of the sample goes to page n mod PAGES, numbered n in its block.
        numbered = list(range(index, len(chosen), PAGES))
        body = batch_page([chosen[n] for n in numbered], first=0)
        origin_server.served[path] = Resource(body, html)
        paths[path] = len(numbered)
    origin_server.served[f"{PREFIX}control.html"] = Resource(CONTROL_PAGE, html)
    add_rule(proxy_process, PREFIX, "reader")
    return paths


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def context(
    playwright: Playwright, proxy_process: ProxyProcess, origin_server: OriginServer, tmp_path: Path
) -> Iterator[tuple[BrowserContext, Detectors]]:
    """Open Chromium through the proxy with the page CSP bypassed and every detector on."""
    detectors = Detectors(frozenset({urlsplit(origin_server.base).netloc, PROXY_HOST}))
    browser = playwright.chromium.launch_persistent_context(
        tmp_path / "profile",
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        proxy={"server": f"http://{proxy_process.address}"},
        bypass_csp=True,
    )
    browser.set_default_timeout(BROWSER_TIMEOUT_MS)
    browser.on("dialog", detectors.on_dialog)
    browser.on("console", detectors.on_console)
    browser.on("request", detectors.on_request)
    browser.route("**/*", detectors.on_route)
    try:
        yield browser, detectors
    finally:
        browser.close()


def open_page(browser: BrowserContext, url: str) -> tuple[Page, dict[str, str]]:
    """Load a URL in a new tab, let it settle, and return the tab and the document's headers."""
    page = browser.new_page()
    response = page.goto(url, wait_until="load")
    assert response is not None and response.status == 200, url
    page.wait_for_timeout(SETTLE_MS)
    return page, response.headers


def test_no_payload_runs_in_the_reader_views(
    context: tuple[BrowserContext, Detectors], origin_server: OriginServer, pages: dict[str, int]
) -> None:
    browser, detectors = context
    covered = 0
    for path, count in pages.items():
        page, headers = open_page(browser, origin_server.url(path))
        assert headers["content-security-policy"].startswith(PLAINVIEW_CSP), path
        assert page.locator("main article").count() == 1, path
        found = page.evaluate(PROVOKE)
        page.wait_for_timeout(SETTLE_MS)
        assert (found["handlers"], found["links"]) == ([], []), path
        text = page.locator("main article").inner_text()
        covered += sum(f"(item {n})" in text for n in range(count))
        page.close()
    assert detectors.heard() == []
    assert detectors.requests >= len(pages)
    # Most payload blocks reach the reader view; the rest were swallowed by a payload before.
    blocks = sum(pages.values())
    print(
        f"\n{blocks} payloads in {len(pages)} pages; {covered} payload blocks in the reader views"
    )
    assert covered >= MIN_COVERAGE * blocks, (covered, blocks)


def test_the_detectors_fire_on_the_original_pages(
    context: tuple[BrowserContext, Detectors], origin_server: OriginServer, pages: dict[str, int]
) -> None:
    browser, detectors = context
    first = next(iter(pages))
    _, headers = open_page(browser, origin_server.url(first + "?plainview=original"))
    assert "content-security-policy" not in headers
    assert detectors.dialogs, "no dialog from the original page's payloads"
    # A page of known behaviour, as it was sent, trips the other two detectors as well.
    open_page(browser, origin_server.url(f"{PREFIX}control.html?plainview=original"))
    assert "control" in detectors.dialogs
    assert "log: control" in detectors.console
    assert "http://elsewhere.example/beacon" in detectors.foreign
