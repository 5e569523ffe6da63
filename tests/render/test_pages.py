"""Tests for the reader, settings, "why" and message pages, parsed with lxml."""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import replace
from pathlib import Path

import lxml.html
import pytest
from lxml.html import HtmlElement

from addon.core.result import Article, Block, Diagnostics, LeftOut, Region
from addon.proxy.recent import PageRecord
from addon.render.chart import build_chart
from addon.render.pages import (
    PageStyle,
    ReaderLinks,
    Rendered,
    content_security_policy,
    render_message,
    render_reader,
    render_settings,
    render_why,
    style_block,
    style_source,
)
from addon.render.why import block_runs
from addon.settings.rules import SiteSettings

URL = "https://news.example/2024/story?id=7"
LINKS = ReaderLinks(
    original_url=URL + "&plainview=original",
    toggle_action="https://plainview.proxy/toggle",
    settings_url="https://plainview.proxy/",
    token="tok123",
    why_url="https://plainview.proxy/why?id=abc",
)


def article(**changes: object) -> Article:
    """Return a small article, with some fields changed."""
    fields: dict[str, object] = {
        "title": "Rivers <rise> & fall",
        "blocks": (
            Block("p", '<p>First paragraph with a <a href="https://x.example/">link</a>.</p>', ""),
            Block("h2", "<h2>Section</h2>", "Section"),
            Block("p", "<p>Second paragraph.</p>", "Second paragraph."),
        ),
        "text": "First paragraph with a link. Section Second paragraph.",
        "lang": "en-GB",
        "dir": "ltr",
        "readerable": True,
        "url": URL,
        "byline": "Ada Writer",
        "published": "2024-05-06T10:00:00Z",
        "site_name": "News Example",
        "page_title": "Rivers rise - News Example",
        "word_count": 700,
    }
    fields.update(changes)
    return Article(**fields)  # type: ignore[arg-type]


def parse(page: Rendered) -> HtmlElement:
    """Parse a rendered page."""
    return lxml.html.document_fromstring(page.body)


def style_text(root: HtmlElement) -> str:
    """Return the exact text of the page's one style element."""
    styles = root.findall(".//style")
    assert len(styles) == 1
    return str(styles[0].text)


def focusable(root: HtmlElement) -> list[HtmlElement]:
    """Return the focusable elements in document order."""
    return [
        el
        for el in root.iter()
        if (el.tag == "a" and el.get("href") is not None)
        or (el.tag in ("button", "select", "textarea"))
        or (el.tag == "input" and el.get("type") != "hidden")
    ]


def test_reader_page_structure() -> None:
    root = parse(render_reader(article(), URL, PageStyle(), LINKS))
    assert root.get("lang") == "en-GB" and root.get("dir") == "ltr"
    h1s = root.findall(".//h1")
    assert len(h1s) == 1 and h1s[0].text_content() == "Rivers <rise> & fall"
    articles = root.xpath("//main/article")
    assert len(articles) == 1
    assert articles[0].xpath(".//h2")[0].text == "Section"
    assert articles[0].xpath(".//a[@href='https://x.example/']")[0].text == "link"
    assert root.xpath("//title")[0].text == "Rivers <rise> & fall"


def test_a_headline_that_was_a_link_stays_one_in_the_h1() -> None:
    href = 'https://blog.example/post/1?a=1&b="2"'
    root = parse(render_reader(article(title_href=href), URL, PageStyle(), LINKS))
    h1 = root.findall(".//h1")[0]
    assert [(a.get("href"), a.text) for a in h1.iter("a")] == [(href, "Rivers <rise> & fall")]
    plain = parse(render_reader(article(), URL, PageStyle(), LINKS)).findall(".//h1")[0]
    assert not list(plain.iter("a")) and plain.text == "Rivers <rise> & fall"


def headings(blocks: tuple[Block, ...]) -> list[tuple[str, str]]:
    """Render blocks and return (tag, text) of each heading in the article."""
    root = parse(render_reader(article(blocks=blocks), URL, PageStyle(), LINKS))
    found = root.xpath("//article//*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5]")
    return [(el.tag, el.text_content()) for el in found]


def h(level: int, text: str) -> Block:
    """Return a heading block."""
    return Block(f"h{level}", f'<h{level} id="x{level}">{text}</h{level}>', text)


def test_the_page_shows_the_heading_levels_the_core_decided() -> None:
    # The core's output stage numbers the outline (addon/core/output/headings.py);
    # the page shows the blocks as they are, under its own h1.
    blocks = (h(2, "A"), Block("p", "<p>t</p>", "t"), h(3, "B"), h(2, "D"))
    shown = [("h1", "Rivers <rise> & fall"), ("h2", "A"), ("h3", "B"), ("h2", "D")]
    assert headings(blocks) == shown
    root = parse(render_reader(article(blocks=(h(2, "Again"),)), URL, PageStyle(), LINKS))
    assert len(root.findall(".//h1")) == 1
    assert root.xpath("//article//h2/@id") == ["x2"]


def test_reader_page_shows_byline_date_site_and_reading_time() -> None:
    root = parse(render_reader(article(), URL, PageStyle(), LINKS))
    meta = root.xpath("//p[@class='meta']")[0]
    assert [span.text_content() for span in meta.findall("span")] == [
        "Ada Writer",
        "2024-05-06",
        "News Example",
        "4 min read",
    ]
    assert meta.xpath(".//time/@datetime") == ["2024-05-06"]


def test_reader_page_leaves_out_unknown_meta_and_uses_the_host() -> None:
    bare = article(byline=None, published="last Tuesday", site_name=None, word_count=0)
    root = parse(render_reader(bare, URL, PageStyle(), LINKS))
    meta = root.xpath("//p[@class='meta']")[0]
    assert [span.text_content() for span in meta.findall("span")] == [
        "last Tuesday",
        "news.example",
    ]
    assert meta.xpath(".//time") == []


def test_skip_link_is_the_first_focusable_element_and_targets_main() -> None:
    root = parse(render_reader(article(), URL, PageStyle(), LINKS))
    first = focusable(root)[0]
    assert first.text == "Skip to content" and first.get("href") == "#pv-content"
    assert root.xpath("//main/@id") == ["pv-content"]


def test_no_script_anywhere_even_from_hostile_metadata() -> None:
    hostile = article(
        title="<script>alert(1)</script>",
        byline='"><script>alert(2)</script>',
        lang='en"><script>alert(3)</script>',
        site_name="<img src=x onerror=alert(4)>",
    )
    page = render_reader(hostile, URL, PageStyle(), LINKS)
    root = parse(page)
    assert root.xpath("//script") == []
    assert root.xpath("//@*[starts-with(name(), 'on')]") == []
    assert root.get("lang") == "und"
    assert b"<script>" not in page.body


def test_rtl_article_sets_dir_and_keeps_the_toolbar_ltr() -> None:
    root = parse(render_reader(article(lang="ar", dir="rtl"), URL, PageStyle(), LINKS))
    assert root.get("dir") == "rtl" and root.get("lang") == "ar"
    assert root.xpath("//header[contains(@class, 'toolbar')]/@dir") == ["ltr"]


def test_toggles_and_show_original_are_present() -> None:
    root = parse(render_reader(article(), URL, PageStyle(), LINKS))
    show = root.xpath("//a[.='Show original']")
    assert [a.get("href") for a in show] == [URL + "&plainview=original"]
    forms = root.xpath("//form")
    assert len(forms) == 2
    modes = []
    for form in forms:
        assert form.get("method") == "post"
        assert form.get("action") == "https://plainview.proxy/toggle"
        fields = {i.get("name"): i.get("value") for i in form.xpath(".//input")}
        assert fields["token"] == "tok123" and fields["url"] == URL
        modes.append(fields["mode"])
        assert form.xpath(".//button[@type='submit']")
    assert modes == ["original", "reader"]
    assert root.xpath("//a[.='Why this content?']/@href") == [LINKS.why_url]


def test_a_reader_view_a_site_rule_made_says_so_and_links_to_the_settings() -> None:
    # Issue 30 (3): neither kind of page showed whether a site rule exists.
    plain = parse(render_reader(article(), URL, PageStyle(), LINKS))
    assert plain.xpath("//p[@class='pv-rule']") == []
    ruled = replace(LINKS, rule="news.example")
    root = parse(render_reader(article(), URL, PageStyle(), ruled))
    (note,) = root.xpath("//p[@class='pv-rule']")
    assert note.text_content() == "Always reader for news.example: change"
    assert note.xpath(".//a/@href") == [LINKS.settings_url]


def test_the_reader_page_has_its_text_and_colour_controls_without_script() -> None:
    # Issue 30 (4): text size, colours and width were only on the settings page.
    links = replace(LINKS, style_action="https://plainview.proxy/style")
    style = PageStyle(theme="sepia", font_size=120, font="sans", line_height=200)
    root = parse(render_reader(article(), URL, style, links))
    (panel,) = root.xpath("//details[@class='pv-aa']")
    assert panel.xpath("./summary")[0].text_content().startswith("Aa")
    (form,) = panel.xpath(".//form")
    assert (form.get("method"), form.get("action")) == ("post", "https://plainview.proxy/style")
    fields = {i.get("name"): i.get("value") for i in form.xpath(".//input[@type='hidden']")}
    assert fields == {"token": "tok123", "url": URL}
    chosen = {s.get("name"): s.xpath("./option[@selected]/@value") for s in form.xpath(".//select")}
    assert chosen == {
        "font_size": ["120"], "theme": ["sepia"], "width": ["40"],
        "font": ["sans"], "line_height": ["200"],
    }  # fmt: skip
    labels = [label.text.strip() for label in form.xpath(".//label[select]")]
    assert labels == ["Text size", "Font", "Line spacing", "Colours", "Column width"]
    scopes = form.xpath(".//input[@name='scope']")
    choices = [(i.get("value"), i.get("checked")) for i in scopes]
    assert choices == [("site", "checked"), ("all", None)]
    assert root.xpath("//script") == []


def test_text_size_scales_the_toolbar_byline_and_footer_too() -> None:
    # Issue 30 (4): at 200% the article grew, its byline, date and toolbar did not.
    css = style_text(parse(render_reader(article(), URL, PageStyle(font_size=200), LINKS)))
    pattern = r"(\.toolbar|\.meta|\.page-footer) \{[^}]*?font-size: ([\d.]+r?em)"
    sizes = dict(re.findall(pattern, css))
    assert set(sizes) == {".toolbar", ".meta", ".page-footer"}
    assert not any(size.endswith("rem") for size in sizes.values())


def test_font_family_and_line_height_set_the_reader_text_only() -> None:
    # Issue 30 (4): the panel lacked font family and line height.
    sans = style_text(parse(render_reader(article(), URL, PageStyle(font="sans"), LINKS)))
    serif = style_text(parse(render_reader(article(), URL, PageStyle(line_height=230), LINKS)))
    assert "--reader-font:system-ui," in sans and "--line-height:1.7;" in sans
    assert "--reader-font:Georgia," in serif and "--line-height:2.3;" in serif
    body = re.search(r"\nbody \{[^}]*\}", serif)
    assert body is not None
    assert "font-family: var(--reader-font)" in body.group(0)
    assert "line-height: var(--line-height)" in body.group(0)


def test_csp_hash_matches_the_style_element() -> None:
    page = render_reader(article(), URL, PageStyle(theme="dark", font_size=120, width=35), LINKS)
    css = style_text(parse(page))
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode()
    assert page.style_source == f"'sha256-{digest}'"
    # 120 percent of the 1.125rem base; 35 em of that text.
    assert "--font-size:1.35rem" in css and "--measure:47.25rem" in css
    policy = content_security_policy(page.style_source, "'self'")
    assert f"style-src 'sha256-{digest}';" in policy
    assert policy.startswith("default-src 'none';")
    assert "frame-ancestors 'none'" in policy and "base-uri 'none'" in policy


def test_pages_leave_the_referrer_policy_to_the_headers() -> None:
    # A <meta name=referrer> would override the settings page's same-origin policy and
    # make its own forms send "Origin: null", which the settings host refuses.
    for page in (
        render_reader(article(), URL, PageStyle(), LINKS),
        render_message(PageStyle(), "t", "m"),
    ):
        assert parse(page).xpath("//meta[@name='referrer']") == []


def test_theme_is_an_attribute_and_unknown_themes_fall_back_to_auto() -> None:
    dark = parse(render_reader(article(), URL, PageStyle(theme="dark"), LINKS))
    assert dark.get("data-theme") == "dark"
    odd = parse(render_reader(article(), URL, PageStyle(theme="neon"), LINKS))
    assert odd.get("data-theme") == "auto"


def test_stylesheet_covers_themes_media_and_print() -> None:
    css = style_block(PageStyle())
    for needle in (
        ':root[data-theme="dark"]',
        ':root[data-theme="sepia"]',
        "@media (prefers-color-scheme: dark)",
        "@media (forced-colors: active)",
        "@media (prefers-reduced-motion: reduce)",
        "@media print",
        "min-height: 44px",
    ):
        assert needle in css
    assert re.search(r"@media print \{\s*\.toolbar", css)
    assert "</style" not in css


def test_style_source_differs_with_the_sizes() -> None:
    assert style_source(style_block(PageStyle(font_size=100))) != style_source(
        style_block(PageStyle(font_size=110))
    )


def test_message_page() -> None:
    page = render_message(PageStyle(), "Refused", "No <token>.", back_url="/")
    root = parse(page)
    assert root.xpath("//h1")[0].text == "Refused"
    assert "No <token>." in root.text_content()
    assert root.xpath("//script") == []


def diagnostics() -> Diagnostics:
    """Return the measurements of a 6-line page."""
    return Diagnostics(
        t1=(5, 40, 80, 0, 3, 2),
        t2=(30, 10, 12, 40, 20, 25),
        diff=(-20, 25, 60, -20, -15, -20),
        regions=(Region(1, 2, 120),),
        selected=(1, 2),
        headline_line=1,
        line_tags=("div", "h1", "p", "nav", "li", "footer"),
        params={"algorithm": "addanag-plus", "gap": "80"},
        line_texts=("Menu", "Rivers", "A river rises.", "Home", "", "Contact"),
    )


def test_why_page_draws_an_accessible_chart() -> None:
    record = PageRecord("abc", URL, "reader", "reader view", 12.5, "Rivers", diagnostics())
    page = render_why(
        PageStyle(),
        record=record,
        chart=build_chart(diagnostics()),
        summary="Six lines.",
        params=sorted(diagnostics().params.items()),
        runs=block_runs(diagnostics()),
        left_out=[
            LeftOut("a date, author or reading-time line the byline row shows", "5 min read")
        ],
        settings_url="/",
    )
    root = parse(page)
    assert len(root.findall(".//h1")) == 1
    svg = root.xpath("//svg")[0]
    assert svg.get("role") == "img" and svg.get("aria-label")
    assert svg.xpath("./title")[0].text
    assert root.xpath("//p[@id='pv-chart-summary']")[0].text == "Six lines."
    assert len(root.xpath("//svg/path")) == 3
    assert root.xpath("//svg/line[@class='headline']/@x1") == ["1.5"]
    assert root.xpath("//td/text()") == ["algorithm", "addanag-plus", "gap", "80"]
    assert root.xpath("//script") == []
    runs = [" ".join(li.xpath("./p")[0].text_content().split()) for li in root.xpath("//ol/li")]
    assert runs == [
        "Left out, line 1: more markup than text around it (DANAg)",
        "Kept, line 2: the headline",
        "Kept, line 3",
        "Left out, lines 4 to 6: more markup than text around it (DANAg)",
    ]
    assert root.xpath("//ol/li[2]/ul/li/text()") == ["Rivers"]
    assert root.xpath("//h2[.='Left out of the kept content']/following-sibling::ul/li")[
        0
    ].text_content() == "a date, author or reading-time line the byline row shows: 5 min read"


def test_why_page_without_diagnostics() -> None:
    record = PageRecord("abc", URL, "original", "timed out", 2000.0)
    root = parse(
        render_why(
            PageStyle(),
            record=record,
            chart=None,
            summary="",
            params=[],
            runs=[],
            left_out=[],
            settings_url="/",
        )
    )
    assert root.xpath("//svg") == []
    assert "No line measurements" in root.text_content()


@pytest.mark.parametrize("theme", ["auto", "light", "dark", "sepia"])
def test_every_theme_renders_the_settings_page(theme: str) -> None:
    page = render_settings(
        PageStyle(theme=theme),
        error=None,
        notice="",
        config_path="/tmp/sites.toml",
        mode_override="",
        modes=("reader", "original", "auto"),
        themes=("auto", "light", "dark", "sepia"),
        defaults=SiteSettings(theme=theme),  # type: ignore[arg-type]
        limits={
            "font_min": 50,
            "font_max": 300,
            "width_min": 20,
            "width_max": 120,
            "line_min": 120,
            "line_max": 250,
        },
        fonts=("serif", "sans"),
        rules=[],
        recent=[],
        bookmarklet="javascript:void(0)",
        memory_on=True,
        memory_sites=[],
        memory_max_pages=30,
        token="t",
    )
    root = parse(page)
    assert root.get("data-theme") == theme
    assert len(root.findall(".//h1")) == 1


def test_the_reader_pages_own_ids_are_all_reserved_for_it() -> None:
    # The article keeps its ids (output/anchors.py) and never one starting with
    # the reserved prefix: the page around it must use only such ids.
    from addon.core.output.anchors import RESERVED_PREFIX

    templates = Path(__file__).parents[2] / "templates"
    for template in templates.glob("*.html"):
        for ident in re.findall(r'\bid="([^"{]*)"', template.read_text(encoding="utf-8")):
            assert ident.startswith(RESERVED_PREFIX), (template.name, ident)
