"""End to end in a real browser: headless Chromium through a real `plainview proxy` process."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Literal

import lxml.html
import pytest
from e2e_servers import (
    DATASET,
    OriginServer,
    ProxyProcess,
    Resource,
    add_rule,
    article_html,
    serve_origin,
    set_defaults,
)
from playwright.sync_api import (
    BrowserContext,
    ConsoleMessage,
    Dialog,
    Page,
    Playwright,
    Response,
    sync_playwright,
)

from addon.core.extract import extract
from addon.core.result import Article

pytestmark = pytest.mark.e2e

# Opens Chromium through the proxy; keyword arguments are Playwright context options.
OpenBrowser = Callable[..., AbstractContextManager[BrowserContext]]

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "tests" / "artifacts"
ENCODINGS = DATASET.parents[1] / "corpora" / "encodings"
# Dataset articles whose extraction gives their real headline (checked by hand).
ARTICLE_IDS = ("0074", "0020", "0060")
RTL_PAGES = ("arabic_utf-8_rtl.html", "persian_utf-8_no-dir.html")
# Firefox's reference pages, forced into the reader view for axe: those that once
# had violations (lists holding bare text or lists, term lists without terms, an
# empty heading, a blank alt, code that scrolls) and some long ones. All of them:
# scripts/axe-audit.
READABILITY = DATASET.parent / "readability-even"
AXE_READABILITY = (
    "cnet-svg-classes", "nytimes-5", "salon-1", "table-style-attributes", "toc-missing",
    "wikipedia-3", "yahoo-2", "wikipedia", "medium-1", "lazy-image-2", "bbc-1",
    "firefox-nightly-blog",
)  # fmt: skip
THEMES = ("light", "dark", "sepia")
# Headers that let Chromium keep a page and ask again with If-None-Match.
CACHEABLE = (
    ("Content-Type", "text/html; charset=utf-8"),
    ("Cache-Control", "public, max-age=3600"),
    ("ETag", '"v1"'),
)
# How many dataset articles axe checks, spread evenly over the article ids.
AXE_ARTICLES = 50
PLAINVIEW_CSP = "default-src 'none'; img-src * data:; style-src 'sha256-"
# Milliseconds a browser action may wait: above the proxy's own page budget.
BROWSER_TIMEOUT_MS = 60_000
# A screenshot of a rendered reader page is far larger than a blank one (a few hundred bytes).
MIN_SCREENSHOT_BYTES = 10_000
# How Chromium's console reports a failed subresource (the broken image, the favicon).
NETWORK_ERROR = "Failed to load resource: "
HOSTILE = "document.title='PWNED';console.log('PWNED');alert('PWNED')"
PARAGRAPHS = "".join(
    f"<p>The harbour ferry carried its first passengers in months on day {n}, after the "
    "shipyard replaced the engines, the wheelhouse windows and most of the deck planks. "
    "Commuters said the crossing was quieter and the boat felt steadier in the swell.</p>"
    for n in range(1, 9)
)
HOSTILE_PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Harbour ferry returns</title>
<script>{HOSTILE}</script></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Harbour ferry returns after a winter of repairs</h1>
{PARAGRAPHS}
<p><img src="x" alt="The ferry at the pier" onerror="{HOSTILE}"></p>
</article><footer>Contact us</footer></body></html>
""".encode()


def article_ids(count: int) -> list[str]:
    """Return `count` article ids of the dataset: every k-th of them in id order."""
    ids = []
    for path in sorted((DATASET / "ground-truth").glob("*.json")):
        record = json.loads(path.read_bytes())
        if record.get("_internal", {}).get("page_type", {}).get("primary") == "article":
            ids.append(path.stem)
    return ids[:: len(ids) // count][:count]


AXE_ARTICLE_IDS = article_ids(AXE_ARTICLES)


def extracted_title(body: bytes, url: str) -> str:
    """Return the title the extractor finds for a page."""
    article = extract(body, url=url, content_type="text/html; charset=utf-8")
    assert isinstance(article, Article), article
    return article.title


@pytest.fixture(scope="module")
def origin(origin_server: OriginServer, proxy_process: ProxyProcess) -> OriginServer:
    """Add the browser tests' pages to the shared origin."""
    html = (("Content-Type", "text/html; charset=utf-8"),)
    for page_id in ARTICLE_IDS:
        origin_server.serve_dataset_page(page_id)
    for page_id in AXE_ARTICLE_IDS:
        origin_server.serve_dataset_page(page_id, "/axe/")
    # Not all of these articles pass the auto mode's check: a rule asks for the reader view.
    add_rule(proxy_process, "/axe/", "reader")
    for name in AXE_READABILITY:
        body = (READABILITY / name / "source.html").read_bytes()
        origin_server.served[f"/re/{name}.html"] = Resource(body, html)
    add_rule(proxy_process, "/re/", "reader")
    for name in RTL_PAGES:
        # A bare type: the charset must come from the page itself. No rule: these
        # short news pages get the reader view in auto mode.
        body = (ENCODINGS / name).read_bytes()
        origin_server.served[f"/rtl/{name}"] = Resource(body, (("Content-Type", "text/html"),))
    for path in ("/hostile.html", "/hostile-original.html"):
        origin_server.served[path] = Resource(HOSTILE_PAGE, html)
    return origin_server


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Run the Playwright driver for this module."""
    with sync_playwright() as driver:
        yield driver


@contextmanager
def chromium(
    playwright: Playwright, proxy: ProxyProcess, profile: Path, **options: Any
) -> Iterator[BrowserContext]:
    """Run Chromium through the proxy with a fresh profile; options go to Playwright."""
    context = playwright.chromium.launch_persistent_context(
        profile,
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        proxy={"server": f"http://{proxy.address}"},
        **options,
    )
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def browser(
    playwright: Playwright, proxy_process: ProxyProcess, tmp_path: Path
) -> Iterator[OpenBrowser]:
    """Return a function opening Chromium through the proxy with a fresh profile."""

    def open_browser(**options: Any) -> AbstractContextManager[BrowserContext]:
        profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
        return chromium(playwright, proxy_process, profile, **options)

    yield open_browser


@pytest.fixture(scope="module")
def axe_browser(
    playwright: Playwright, proxy_process: ProxyProcess, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BrowserContext]:
    """Run one Chromium for every axe check; bypassing the CSP lets axe itself in."""
    with chromium(
        playwright, proxy_process, tmp_path_factory.mktemp("axe-profile"), bypass_csp=True
    ) as context:
        yield context


def open_reader(
    context: BrowserContext, url: str, *, wait_until: Literal["domcontentloaded", "load"] = "load"
) -> tuple[Page, Response]:
    """Open a URL in a new tab and return the tab and the document's response."""
    page = context.new_page()
    response = page.goto(url, wait_until=wait_until)
    assert response is not None
    assert response.status == 200
    return page, response


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Run axe-core on the page and return its violations."""
    page.add_script_tag(path=AXE)
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})"
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in result["violations"]
    ]


@pytest.mark.parametrize("page_id", ARTICLE_IDS)
def test_chromium_gets_the_reader_view_of_an_article(
    browser: OpenBrowser, origin: OriginServer, page_id: str
) -> None:
    url = origin.url(f"/wcxb/{page_id}.html")
    title = extracted_title(origin.served[f"/wcxb/{page_id}.html"].body, url)
    with browser() as context:
        page, response = open_reader(context, url, wait_until="domcontentloaded")
        assert response.headers["content-security-policy"].startswith(PLAINVIEW_CSP)
        headings = page.locator("h1")
        assert headings.count() == 1
        assert headings.inner_text().strip() == title
        assert page.locator("main article").count() == 1
        assert page.locator("script").count() == 0


def test_no_script_of_the_page_runs_in_the_reader_view(
    browser: OpenBrowser, origin: OriginServer
) -> None:
    seen: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        seen.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    def on_console(message: ConsoleMessage) -> None:
        # The browser's own report of a missing image or favicon is no page script.
        if not message.text.startswith(NETWORK_ERROR):
            seen.append(f"console {message.type}: {message.text}")

    with browser() as context:
        context.on("dialog", on_dialog)
        context.on("console", on_console)
        page, response = open_reader(context, origin.url("/hostile.html"))
        assert response.headers["content-security-policy"].startswith(PLAINVIEW_CSP)
        assert page.locator("main article p").count() >= 8
        assert page.title() != "PWNED"
        assert seen == []
        # The same page shown as the original runs its script: the listeners do hear it.
        original, _ = open_reader(context, origin.url("/hostile-original.html?plainview=original"))
        assert original.title() == "PWNED"
        assert "dialog: PWNED" in seen


@pytest.mark.parametrize(
    "path",
    [
        *(f"/wcxb/{page_id}.html" for page_id in ARTICLE_IDS),
        *(f"/axe/{page_id}.html" for page_id in AXE_ARTICLE_IDS),
        *(f"/rtl/{n}" for n in RTL_PAGES),
        *(f"/re/{name}.html" for name in AXE_READABILITY),
    ],
)
def test_axe_finds_no_violation_in_the_reader_view(
    axe_browser: BrowserContext, origin: OriginServer, path: str
) -> None:
    # The reader view carries no script; axe comes in through the bypassed CSP.
    page, response = open_reader(axe_browser, origin.url(path), wait_until="domcontentloaded")
    try:
        assert response.headers["content-security-policy"].startswith(PLAINVIEW_CSP)
        if path.startswith("/rtl/"):
            assert page.evaluate("document.documentElement.dir") == "rtl"
        assert axe_violations(page) == []
    finally:
        page.close()


@pytest.mark.parametrize("theme", THEMES)
def test_axe_finds_no_violation_in_plainviews_own_pages_in_each_theme(
    axe_browser: BrowserContext, origin: OriginServer, proxy_process: ProxyProcess, theme: str
) -> None:
    # Issue 30 (6): the settings page, a "why" page, the answer to "Always
    # original" and a reader view, in light, dark and sepia.
    saved = proxy_process.config.read_bytes()
    set_defaults(proxy_process, mode="auto", theme=theme)
    page = axe_browser.new_page()
    try:
        reader = page.goto(origin.url("/re/wikipedia-3.html"), wait_until="domcontentloaded")
        assert reader is not None
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        assert axe_violations(page) == []
        page.goto("http://plainview.proxy/")
        assert axe_violations(page) == []
        page.click("a[href^='/why?id=']")
        assert axe_violations(page) == []
        page.goto(origin.url("/re/wikipedia-3.html"))
        with page.expect_navigation():
            page.click("text=Always original on this site")
        assert page.url == "http://plainview.proxy/toggle"
        assert axe_violations(page) == []
    finally:
        page.close()
        proxy_process.config.write_bytes(saved)


def test_the_aa_panel_changes_the_next_load_and_no_other_site_may_post_it(
    browser: OpenBrowser, origin: OriginServer, proxy_process: ProxyProcess
) -> None:
    # Issue 30 (4): text size, font, line spacing, colours and width on the reader
    # page itself, without script; the text size scales the toolbar too (it did not).
    saved = proxy_process.config.read_bytes()
    toolbar = "parseFloat(getComputedStyle(document.querySelector('.toolbar')).fontSize)"
    try:
        with browser() as context:
            page, _ = open_reader(context, origin.url("/re/wikipedia-3.html"))
            before = page.evaluate(toolbar)
            page.click(".pv-aa summary")
            page.select_option("select[name=font_size]", "200")
            page.select_option("select[name=theme]", "sepia")
            page.select_option("select[name=font]", "sans")
            page.select_option("select[name=line_height]", "230")
            with page.expect_navigation(url=origin.url("/re/wikipedia-3.html")) as applied:
                page.click("text=Apply")
            response = applied.value
            assert response is not None
            assert response.headers["content-security-policy"].startswith(PLAINVIEW_CSP)
            assert page.evaluate("document.documentElement.dataset.theme") == "sepia"
            assert page.evaluate(toolbar) == pytest.approx(before * 2, rel=0.05)
            text = page.evaluate(
                "(() => { const s = getComputedStyle(document.querySelector('article p'));"
                " return [s.fontFamily, parseFloat(s.lineHeight) / parseFloat(s.fontSize)]; })()"
            )
            assert text[0].startswith("system-ui") and text[1] == pytest.approx(2.3, rel=0.02)
            # The /re/ rule took the style: its mode stays, the next page is a reader view.
            assert 'path = "/re/"' in proxy_process.config.read_text(encoding="utf-8")
            fields = page.eval_on_selector(
                ".pv-aa form", "f => Object.fromEntries(new FormData(f))"
            )
            forged = page.request.post(
                "http://plainview.proxy/style", form=fields, headers={"Origin": "http://evil.test"}
            )
            assert forged.status == 403
    finally:
        proxy_process.config.write_bytes(saved)


def test_no_page_scrolls_sideways_at_320_css_pixels(
    browser: OpenBrowser, origin: OriginServer, proxy_process: ProxyProcess
) -> None:
    # Issue 30 (5), WCAG 1.4.10: the settings page was 473 px wide on a 390 px
    # phone (its rules table), the "why" page 2,038 px (its parameters table).
    long_prefix = "/a-long-path-prefix-for-the-rules-table/that-goes-on-and-on/"
    add_rule(proxy_process, long_prefix, "reader")
    width = "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    with browser(viewport={"width": 320, "height": 640}) as context:
        page, _ = open_reader(context, origin.url("/re/wikipedia-3.html"))
        assert page.evaluate(width) == [320, 320]
        page.goto("http://plainview.proxy/")
        assert page.evaluate(width) == [320, 320]
        page.click("a[href^='/why?id=']")
        assert page.evaluate(width) == [320, 320]
        # What is still wider scrolls in a box of its own, which the keyboard reaches.
        boxes = page.eval_on_selector_all(".scroll", "els => els.map(e => e.tabIndex)")
        assert boxes and all(index == 0 for index in boxes)


@pytest.mark.parametrize("name", RTL_PAGES)
def test_short_rtl_news_pages_get_the_reader_view_in_auto_mode(
    browser: OpenBrowser, origin: OriginServer, name: str
) -> None:
    # No rule covers /rtl/: the auto mode itself finds these short pages to be articles.
    with browser() as context:
        page, response = open_reader(context, origin.url(f"/rtl/{name}"))
        assert response.headers["content-security-policy"].startswith(PLAINVIEW_CSP)
        source = lxml.html.document_fromstring((ENCODINGS / name).read_bytes())
        heading = source.findtext(".//h1")
        assert heading
        assert page.locator("main article h1").inner_text().strip() == heading.strip()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_screenshots_of_the_aa_panel_the_settings_and_the_why_pages(
    browser: OpenBrowser, origin: OriginServer, width: int, height: int
) -> None:
    # Issue 30: each at a desktop's and a phone's size, none scrolling sideways.
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    sideways = "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    with browser(viewport={"width": width, "height": height}) as context:
        page, _ = open_reader(context, origin.url("/re/wikipedia-3.html"))
        page.click(".pv-aa summary")
        shots = {"reader-aa-panel": page}
        settings, _ = open_reader(context, "http://plainview.proxy/")
        shots["settings"] = settings
        why, _ = open_reader(context, "http://plainview.proxy/")
        why.click("a[href^='/why?id=']")
        shots["why"] = why
        for name, shown in shots.items():
            target = ARTIFACTS / f"{name}-{width}x{height}.png"
            target.unlink(missing_ok=True)
            shown.screenshot(path=str(target))
            assert target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
            assert target.stat().st_size > MIN_SCREENSHOT_BYTES
            assert not shown.evaluate(sideways), name


@pytest.mark.parametrize(
    ("name", "path", "scheme"),
    [
        ("reader-light", "/wcxb/0074.html", "light"),
        ("reader-dark", "/wcxb/0074.html", "dark"),
        ("reader-rtl", f"/rtl/{RTL_PAGES[0]}", "light"),
    ],
)
def test_screenshots_of_reader_views(
    browser: OpenBrowser, origin: OriginServer, name: str, path: str, scheme: str
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = ARTIFACTS / f"{name}.png"
    target.unlink(missing_ok=True)
    with browser(color_scheme=scheme) as context:
        page, _ = open_reader(context, origin.url(path), wait_until="domcontentloaded")
        background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        page.screenshot(path=str(target))
    data = target.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > MIN_SCREENSHOT_BYTES
    # The dark scheme must give a dark page, the light one a light page.
    channels = [int(c) for c in background[background.index("(") + 1 : -1].split(",")[:3]]
    assert (sum(channels) < 3 * 128) == (scheme == "dark"), background


def dangling_page(collect: str, image: str) -> bytes:
    """Return an article into which a comment injected an unclosed image URL."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        "<title>Harbour ferry returns</title></head><body><article>"
        f"<h1>Harbour ferry returns after a winter of repairs</h1>{PARAGRAPHS}"
        f'<p>The ferry at the pier: <img src="{image}" alt="The ferry"></p>'
        f"<p>A reader wrote: <img src='{collect}?\n"
        "<p>Your account number is 12345678 and your session code is bright-otter.</p>"
        "<p>The council's vote on a second boat comes in the spring.</p>"  # the ' ends it
        f"{PARAGRAPHS}</article></body></html>"
    ).encode()


def test_dangling_markup_carries_no_text_away_from_the_reader_view(
    browser: OpenBrowser, origin: OriginServer, proxy_process: ProxyProcess
) -> None:
    # Issue 29 (7): Chromium fetches no URL holding "<" and a line break; the
    # reader view wrote the injected URL back without the line break, and
    # Chromium sent the page's next lines to the URL's site.
    add_rule(proxy_process, "/dangling/", "reader")
    body = dangling_page(origin.url("/dangling/collect"), origin.url("/dangling/ferry.png"))
    html = (("Content-Type", "text/html; charset=utf-8"),)
    origin.served["/dangling/story.html"] = Resource(body, html)
    with browser() as context:
        page, response = open_reader(context, origin.url("/dangling/story.html"))
        assert response.headers["content-security-policy"].startswith(PLAINVIEW_CSP)
        page.wait_for_load_state("networkidle")
        original, _ = open_reader(context, origin.url("/dangling/story.html?plainview=original"))
        original.wait_for_load_state("networkidle")
    fetched = [path for path in origin.paths if path.startswith("/dangling/")]
    assert fetched.count("/dangling/ferry.png") == 2  # the article's own image, both views
    assert not [path for path in fetched if path.startswith("/dangling/collect")]


def test_show_original_is_once_and_a_mode_change_is_seen_at_once_on_cacheable_pages(
    browser: OpenBrowser, origin: OriginServer, proxy_process: ProxyProcess
) -> None:
    # Issue 29 (4): the original went out with the page's own caching headers, so
    # the next load came from Chromium's cache (or a 304 to its If-None-Match
    # passed through): the original, with its scripts, again.
    origin.served["/cached/story.html"] = Resource(HOSTILE_PAGE, CACHEABLE)
    origin.served["/cached-mode/story.html"] = Resource(HOSTILE_PAGE, CACHEABLE)
    url = origin.url("/cached/story.html")
    with browser() as context:
        page, first = open_reader(context, url)
        assert first.headers["content-security-policy"].startswith(PLAINVIEW_CSP)
        original = page.goto(url + "?plainview=original")
        assert original is not None and page.title() == "PWNED"  # the original, once
        again = page.goto(url)
        assert again is not None
        assert again.headers.get("content-security-policy", "").startswith(PLAINVIEW_CSP)
        assert page.title() != "PWNED"
        # A site shown as the original, then switched to reader mode.
        add_rule(proxy_process, "/cached-mode/", "original")
        mode_url = origin.url("/cached-mode/story.html")
        page.goto(mode_url)
        assert page.title() == "PWNED"
        add_rule(proxy_process, "/cached-mode/", "reader")
        switched = page.goto(mode_url)
        assert switched is not None
        assert switched.headers.get("content-security-policy", "").startswith(PLAINVIEW_CSP)


def test_read_this_page_once_from_an_original_page_by_bookmark_and_from_recent_pages(
    browser: OpenBrowser, origin: OriginServer, proxy_process: ProxyProcess
) -> None:
    # Issue 30 (2): on a page shown as the original there was no way into the
    # reader view but a site rule. The bookmarklet from the settings page and the
    # recent pages' link each give one reader view of that page; no rule is written.
    origin.served["/once/story.html"] = Resource(HOSTILE_PAGE, CACHEABLE)
    add_rule(proxy_process, "/once/", "original")
    rules = proxy_process.config.read_text(encoding="utf-8")
    url = origin.url("/once/story.html")
    with browser() as context:
        page, _ = open_reader(context, url)
        assert page.title() == "PWNED"  # the original, its script ran
        settings, _ = open_reader(context, "http://plainview.proxy/")
        bookmarklet = settings.get_attribute("a.bookmarklet", "href")
        assert bookmarklet is not None and bookmarklet.startswith("javascript:")
        with page.expect_navigation(url=url) as clicked:
            page.evaluate(bookmarklet.removeprefix("javascript:"))  # as a bookmark runs it
        response = clicked.value
        assert response is not None and response.request.redirected_from is not None
        assert response.headers["content-security-policy"].startswith(PLAINVIEW_CSP)
        assert page.title() != "PWNED" and page.url == url  # the marker is gone
        # Once: the next load is the site's mode again, not a cached reader view.
        page.goto(url)
        assert page.title() == "PWNED"
        settings.goto("http://plainview.proxy/")
        with settings.expect_navigation(url=url) as clicked:
            settings.click(f"a[href='{url}?plainview=reader']")
        response = clicked.value
        assert response is not None
        assert response.headers["content-security-policy"].startswith(PLAINVIEW_CSP)
        assert proxy_process.config.read_text(encoding="utf-8") == rules


def test_a_script_s_request_for_the_marked_url_arms_no_original(
    browser: OpenBrowser, origin: OriginServer, proxy_process: ProxyProcess
) -> None:
    # Issue 29 (13): a page's fetch(url + "?plainview=original") armed the 30 s
    # one-time pass, and the user's next visit to url got the original.
    html = (("Content-Type", "text/html; charset=utf-8"),)
    target = origin.url("/armed/story.html")
    origin.served["/armed/story.html"] = Resource(HOSTILE_PAGE, html)
    script = (
        f"<script>fetch({json.dumps(target + '?plainview=original')}, {{redirect: 'manual'}})"
        ".then(() => { document.title = 'sent'; });</script>"
    )
    page_of_script = f"<!doctype html><title>waiting</title><p>Elsewhere.</p>{script}"
    origin.served["/elsewhere/page.html"] = Resource(page_of_script.encode(), html)
    add_rule(proxy_process, "/elsewhere/", "original")
    with browser() as context:
        page, _ = open_reader(context, origin.url("/elsewhere/page.html"))
        page.wait_for_function("document.title === 'sent'")
        visit = page.goto(target)
        assert visit is not None
        assert visit.headers.get("content-security-policy", "").startswith(PLAINVIEW_CSP)
        assert page.title() != "PWNED"


def test_the_toggle_of_a_reader_view_is_saved_from_chromium_and_a_null_origin_is_not(
    browser: OpenBrowser, origin: OriginServer, proxy_process: ProxyProcess
) -> None:
    # Issue 29 (3): /toggle accepted Origin: null, which any page can send (a
    # sandboxed frame). The reader page now sends its own origin; Chromium's real
    # click must still be saved.
    html = (("Content-Type", "text/html; charset=utf-8"),)
    origin.served["/toggled/story.html"] = Resource(HOSTILE_PAGE, html)
    url = origin.url("/toggled/story.html")
    saved = proxy_process.config.read_bytes()
    try:
        with browser() as context:
            page, _ = open_reader(context, url)
            fields = page.eval_on_selector(
                "form:has(input[name=mode][value=original])",
                "f => Object.fromEntries(new FormData(f))",
            )
            forged = page.request.post(
                "http://plainview.proxy/toggle", form=fields, headers={"Origin": "null"}
            )
            assert forged.status == 403
            assert proxy_process.config.read_bytes() == saved
            rule = b'host = "127.0.0.1"\nmode = "original"'
            with page.expect_navigation():
                page.click("text=Always original on this site")
            # Issue 30 (3): it says what it did, and takes it back in one step.
            assert page.url == "http://plainview.proxy/toggle"
            assert page.inner_text("h1") == "127.0.0.1: always the original"
            assert rule in proxy_process.config.read_bytes()
            with page.expect_navigation(url=url) as undone:
                page.click("text=Undo")
            response = undone.value
            assert response is not None
            assert response.headers["content-security-policy"].startswith(PLAINVIEW_CSP)
            assert rule not in proxy_process.config.read_bytes()
            # A reader view a site rule asks for says so.
            assert page.query_selector("p.pv-rule") is None
            with page.expect_navigation(url=url):
                page.click("text=Always reader on this site")
            assert page.inner_text("p.pv-rule") == "Always reader for 127.0.0.1: change"
            with page.expect_navigation():
                page.click("text=Always original on this site")
            with page.expect_navigation(url=url):
                page.click("text=Go on to the page")
            assert page.title() == "PWNED"  # on the page, as the original
        assert rule in proxy_process.config.read_bytes()
    finally:
        proxy_process.config.write_bytes(saved)


def assert_frames_are_originals(page: Page, urls: list[str], *, min_chars: int) -> None:
    """Check that each frame shows its page as it is (a refused frame is at another URL,
    Chromium's error page)."""
    for url in urls:
        frame = page.frame(url=url)
        assert frame is not None, url
        assert "pv-content" not in frame.content()
        assert frame.evaluate("document.body.innerText.length") > min_chars


def assert_link_opens_a_reader_view(page: Page, selector: str) -> None:
    """Click a link on the page and check that a reader view comes back."""
    with page.expect_navigation() as clicked:
        page.click(selector)
    response = clicked.value
    assert response is not None
    assert response.headers["content-security-policy"].startswith(PLAINVIEW_CSP)


def test_a_frame_on_a_page_is_the_original_by_its_fetch_metadata(
    browser: OpenBrowser, origin: OriginServer, proxy_process: ProxyProcess
) -> None:
    # An embed of another site's article in a page shown as the original: the
    # frame's request says Sec-Fetch-Dest: iframe, so it is no page load and the
    # frame shows the article as it is (a reader view would refuse to be framed).
    # Chromium sends Fetch Metadata to loopback origins, so this is the case of
    # trustworthy origins; over plain HTTP to another host it sends none (the
    # next test).
    html = (("Content-Type", "text/html; charset=utf-8"),)
    article = article_html()
    with serve_origin() as other:  # another port: another origin, as an embed's
        other.served["/embed/article.html"] = Resource(article, html)
        framed = other.url("/embed/article.html")
        story = origin.url("/framing/story.html")
        outer = (
            f"<!doctype html><title>Outer</title><p>A page with an embed.</p>"
            f"<iframe src='{framed}' width=600 height=400></iframe>"
            f"<p><a id=same href='{story}'>A story on this site</a></p>"
        )
        origin.served["/framing/page.html"] = Resource(outer.encode(), html)
        origin.served["/framing/story.html"] = Resource(article, html)
        add_rule(proxy_process, "/framing/page.html", "original")
        with browser() as context:
            page, _ = open_reader(context, origin.url("/framing/page.html"))
            assert_frames_are_originals(page, [framed], min_chars=1000)
            assert_link_opens_a_reader_view(page, "#same")  # to the page's own site


def test_frames_of_a_plain_http_page_shown_as_the_original_are_the_originals(
    browser: OpenBrowser, origin: OriginServer, proxy_process: ProxyProcess
) -> None:
    # Issue 29 (3): over plain HTTP to a host on the web Chromium sends no Fetch
    # Metadata, so a frame's request looks like a page load in a tab: the embed
    # became a reader view, which refuses to be framed (Chromium's error page).
    # The frames of a page that went out as it is are known by their addresses.
    html = (("Content-Type", "text/html; charset=utf-8"),)
    gzipped = (*html, ("Content-Encoding", "gzip"))
    article = (  # no subresources: the frames are done once their text is in
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Ferry</title></head>"
        f"<body><article><h1>Harbour ferry returns</h1>{PARAGRAPHS * 3}</article></body></html>"
    ).encode()
    with serve_origin() as other:
        other.served["/embed/article.html"] = Resource(article, html)
        framed = other.url("/embed/article.html", host="embed.test")
        site = origin.url("", host="outer.test")
        outer = (
            "<!doctype html><title>Outer</title><p>A page with two embeds.</p>"
            f"<iframe src='{framed}' width=600 height=400></iframe>"
            "<IFRAME width=600 height=400 SRC=/framing/inner.html?a=1&amp;b=2></IFRAME>"
            "<p><a id=same href='/framing/story.html'>A story on this site</a></p>"
        )
        origin.served["/framing/plain.html"] = Resource(gzip.compress(outer.encode()), gzipped)
        origin.served["/framing/inner.html"] = Resource(article, html)
        origin.served["/framing/story.html"] = Resource(article, html)
        add_rule(proxy_process, "/framing/plain.html", "original", host="outer.test")
        with browser() as context:
            page, response = open_reader(context, f"{site}/framing/plain.html")
            assert "sec-fetch-dest" not in response.request.all_headers()
            inner = f"{site}/framing/inner.html?a=1&b=2"
            assert_frames_are_originals(page, [framed, inner], min_chars=2000)
            assert_link_opens_a_reader_view(page, "#same")


HARBOUR_STORIES = ("The night ferry returns", "A new pier for the island", "Lighthouse keepers")
# Blocks every page of the Harbour Post's site shares after its article.
HARBOUR_TEMPLATE = (
    "Also on the quay",
    "Tide tables for May",
    "Times for every high water this month.",
    "Fish market hours",
    "Open from dawn until the last boat sells.",
    "Sign up for the Harbour Post letter, sent every Friday.",
)


def harbour_page(n: int) -> bytes:
    """Return story `n` of a local news site: its menu, its article, then the site's
    teasers, sign-up line and footer, the same on every page."""
    title = HARBOUR_STORIES[n]
    paragraphs = "".join(
        f"<p>Story {n}, part {k}: the harbour town has talked of little else this week, "
        f"and {title.lower()} drew a crowd at the quay on evening {k} of the month.</p>"
        for k in range(1, 6)
    )
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>{title} | Harbour Post</title></head><body><header><nav><a href="/harbour/0.html">Ferries</a>
<a href="/harbour/1.html">Piers</a> <a href="/harbour/2.html">Lights</a></nav></header>
<main><article><h1>{title}</h1>{paragraphs}</article>
<section><h2>{HARBOUR_TEMPLATE[0]}</h2>
<div class="teaser"><h3>{HARBOUR_TEMPLATE[1]}</h3><p>{HARBOUR_TEMPLATE[2]}</p></div>
<div class="teaser"><h3>{HARBOUR_TEMPLATE[3]}</h3><p>{HARBOUR_TEMPLATE[4]}</p></div>
</section><p>{HARBOUR_TEMPLATE[5]}</p></main>
<footer><p>The Harbour Post, 12 Quay Street.</p></footer></body></html>""".encode()


def remembered_pages(settings: Page, site: str, at_least: int) -> int:
    """Reload the settings page until its site memory holds `at_least` pages of `site`
    (the memory learns after the page went out); return how many it shows."""
    shown = 0
    for _ in range(100):
        settings.goto("http://plainview.proxy/")
        row = settings.locator("div[aria-label='Site memory'] tr", has_text=site)
        shown = int(row.locator("td").nth(1).inner_text()) if row.count() else 0
        if shown >= at_least:
            break
        settings.wait_for_timeout(100)
    return shown


def test_the_site_memory_leaves_a_sites_template_out_of_its_third_page_and_forgets_it(
    browser: OpenBrowser, origin: OriginServer, proxy_process: ProxyProcess
) -> None:
    # Issue 31 (3): after two pages of a site, the blocks its pages share (teasers,
    # a sign-up line) are left out of the third's reader view, all of its article
    # kept; the settings page shows the memory and forgets it.
    html = (("Content-Type", "text/html; charset=utf-8"),)
    for n in range(3):
        origin.served[f"/harbour/{n}.html"] = Resource(harbour_page(n), html)
    add_rule(proxy_process, "/harbour/", "reader", host="harbour.test")
    with browser() as context:
        settings = context.new_page()
        page = context.new_page()
        for n in range(2):
            page.goto(origin.url(f"/harbour/{n}.html", host="harbour.test"))
            if n == 0:  # nothing learned yet: the template is in the reader view
                text = page.locator("main").inner_text()
                assert all(line in text for line in HARBOUR_TEMPLATE)
            assert remembered_pages(settings, "harbour.test", n + 1) == n + 1
        page.goto(origin.url("/harbour/2.html", host="harbour.test"))
        text = page.locator("main").inner_text()
        assert [line for line in HARBOUR_TEMPLATE if line in text] == []
        assert all(f"Story 2, part {k}:" in text for k in range(1, 6))
        assert page.locator("main h1").inner_text() == HARBOUR_STORIES[2]
        assert remembered_pages(settings, "harbour.test", 3) == 3
        settings.click("button:has-text('Forget harbour.test')")
        settings.wait_for_url("http://plainview.proxy/")
        rows = settings.locator("div[aria-label='Site memory'] tr", has_text="harbour.test")
        assert rows.count() == 0
        page.reload()  # the memory forgotten: the third page alone, its template shown
        text = page.locator("main").inner_text()
        assert all(line in text for line in HARBOUR_TEMPLATE)
