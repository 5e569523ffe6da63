"""Render Plainview's pages (reader view, settings, "why", messages) from templates.

Templates are compiled once at import; every page carries its CSS inline in
one `<style>` element whose SHA-256 goes into the Content-Security-Policy.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, PackageLoader, StrictUndefined, Template
from markupsafe import Markup

from addon.core.output.text import reading_minutes
from addon.core.result import Article

# The top-level templates/ is linked into this package as addon/render/templates,
# so the wheel carries it as package data and the pages load through importlib.
_ENV = Environment(
    loader=PackageLoader("addon.render", "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    # The templates ship with the package: no page render needs to stat their
    # files to see whether they changed (the reader page extends its base).
    auto_reload=False,
)
_READER = _ENV.get_template("reader.html")
_SETTINGS = _ENV.get_template("settings.html")
_WHY = _ENV.get_template("why.html")
_MESSAGE = _ENV.get_template("message.html")
_TOGGLED = _ENV.get_template("toggled.html")
# The stylesheet is a template only so the dark colours are written once.
_CSS = _ENV.get_template("plainview.css").render()

# A BCP 47 language tag, loosely: "en", "pt-BR", "zh-Hant-TW".
_LANG_TAG = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
THEMES = ("auto", "light", "dark", "sepia")
# The reader view's text size at 100 percent: 18 px with the browsers' default 16 px rem.
BASE_FONT_REM = 1.125


@dataclass(frozen=True, slots=True)
class PageStyle:
    """How a page looks: theme, text size (percent of the base), column width (CSS em),
    the reader text's font family and line height (percent of the text size)."""

    theme: str = "auto"
    font_size: int = 100
    width: int = 40
    font: str = "serif"
    line_height: int = 170


@dataclass(frozen=True, slots=True)
class ReaderLinks:
    """Where the reader page's toolbar points; `token` authorises its toggles."""

    original_url: str
    toggle_action: str
    settings_url: str
    token: str
    why_url: str = ""
    # The site rule that asks for the reader view ("example.org/blog/"), if one does.
    rule: str = ""
    style_action: str = ""  # where the "Aa" panel posts; "" leaves the panel out


@dataclass(frozen=True, slots=True)
class Rendered:
    """A rendered page and the CSP source that allows its inline style."""

    body: bytes
    style_source: str  # "'sha256-...'"


@dataclass(frozen=True, slots=True)
class MetaItem:
    """One item of the byline row; `datetime` is set for machine-readable dates."""

    text: str
    datetime: str = ""


def style_block(style: PageStyle) -> str:
    """Return the exact text of the page's `<style>` element."""
    # The theme is an attribute on <html>; only the sizes vary the CSS text.
    # The base size is in rem, so the browser's own text size setting still counts.
    size = BASE_FONT_REM * int(style.font_size) / 100
    # The width is in em of the reader text; rem keeps it the same in the smaller toolbar.
    measure = size * int(style.width)
    family = FONT_FAMILIES.get(style.font, FONT_FAMILIES["serif"])
    leading = int(style.line_height) / 100
    root = (
        f":root{{--font-size:{size:.4g}rem;--measure:{measure:.4g}rem;"
        f"--line-height:{leading:.3g};--reader-font:{family}}}\n"
    )
    return root + _CSS


# The reader text's font families: the reader's choice of serif or sans.
FONT_FAMILIES = {
    "serif": 'Georgia, "Iowan Old Style", "Noto Serif", "Times New Roman", serif',
    "sans": 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
}


def style_source(css: str) -> str:
    """Return the CSP source expression (hash) that allows exactly this style text."""
    digest = hashlib.sha256(css.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def content_security_policy(style_src: str, form_action: str) -> str:
    """Return the strict policy of every page Plainview serves."""
    return (
        f"default-src 'none'; img-src * data:; style-src {style_src}; "
        f"form-action {form_action}; base-uri 'none'; frame-ancestors 'none'"
    )


def _lang(article: Article) -> str:
    """Return the article's language tag, or "und" (undetermined) when unknown or malformed."""
    lang = (article.lang or "").strip()
    return lang if _LANG_TAG.fullmatch(lang) else "und"


def _meta(article: Article, site_name: str, *, words_per_minute: int = 230) -> list[MetaItem]:
    """Return the byline row: author, date, site name, reading time, when known."""
    items: list[MetaItem] = []
    if article.byline:
        items.append(MetaItem(article.byline))
    if article.published:
        date = article.published.strip()
        # An ISO date-time shows as its date: the time of day is noise in a byline.
        stamp = date[:10] if _ISO_DATE.match(date) else ""
        items.append(MetaItem(stamp or date, stamp))
    if site_name:
        items.append(MetaItem(site_name))
    minutes = reading_minutes(article.word_count, wpm=words_per_minute)
    if minutes:
        items.append(MetaItem(f"{minutes} min read"))
    return items


def _page(template: Template, style: PageStyle, **context: Any) -> Rendered:
    """Render one template with the shared style block and return it with its hash."""
    css = style_block(style)
    theme = style.theme if style.theme in THEMES else "auto"
    html = template.render(style=Markup(css), theme=theme, **context)
    return Rendered(html.encode("utf-8"), style_source(css))


def render_reader(
    article: Article, page_url: str, style: PageStyle, links: ReaderLinks
) -> Rendered:
    """Render the reader view of one article."""
    site_name = article.site_name or urlsplit(page_url).hostname or ""
    return _page(
        _READER,
        style,
        lang=_lang(article),
        dir="rtl" if article.dir == "rtl" else "ltr",
        article=article,
        page_url=page_url,
        site_name=site_name,
        meta=_meta(article, site_name),
        # Block.html is sanitised by the core; it must not be escaped again.
        content=Markup(quiet_images(article.html)),  # the core set the heading levels
        links=links,
        controls=reader_controls(style),
    )


@dataclass(frozen=True, slots=True)
class ReaderControls:
    """The choices of the reader page's "Aa" panel, and the page's own values among them."""

    sizes: tuple[int, ...]
    themes: tuple[str, ...]
    widths: tuple[int, ...]
    fonts: tuple[str, ...]
    line_heights: tuple[int, ...]
    font_size: int
    theme: str
    width: int
    font: str
    line_height: int


# Text sizes (percent) and column widths (em) the "Aa" panel offers.
PANEL_SIZES = (80, 90, 100, 110, 125, 150, 175, 200, 250, 300)
PANEL_WIDTHS = (30, 35, 40, 45, 50, 60, 80)
# Line heights (percent of the text size) the "Aa" panel offers.
PANEL_LINE_HEIGHTS = (130, 150, 170, 200, 230)


def reader_controls(style: PageStyle) -> ReaderControls:
    """Return the panel's choices, the page's own values among them."""
    size, width, leading = int(style.font_size), int(style.width), int(style.line_height)
    return ReaderControls(
        sizes=tuple(sorted({*PANEL_SIZES, size})),
        themes=THEMES,
        widths=tuple(sorted({*PANEL_WIDTHS, width})),
        fonts=tuple(FONT_FAMILIES),
        line_heights=tuple(sorted({*PANEL_LINE_HEIGHTS, leading})),
        font_size=size,
        theme=style.theme if style.theme in THEMES else "auto",
        width=width,
        font=style.font if style.font in FONT_FAMILIES else "serif",
        line_height=leading,
    )


def quiet_images(html: str) -> str:
    """Make the article's images send no Referer, whatever the page's referrer policy."""
    # The page's policy sends its origin, so that its toggle forms carry a real
    # Origin; the images, its only requests, keep sending nothing. Sanitised
    # markup holds "<img " only as a tag: text and values escape "<".
    return html.replace("<img ", '<img referrerpolicy="no-referrer" ')


def render_settings(style: PageStyle, **context: Any) -> Rendered:
    """Render the settings page (defaults, rules, config error, recent pages)."""
    return _page(_SETTINGS, style, lang="en", dir="ltr", **context)


def render_why(style: PageStyle, **context: Any) -> Rendered:
    """Render the "Why this content?" page of one recent page."""
    return _page(_WHY, style, lang="en", dir="ltr", **context)


def render_toggled(style: PageStyle, **context: Any) -> Rendered:
    """Render the answer to "Always original on this site": what it did, and its undo."""
    return _page(_TOGGLED, style, lang="en", dir="ltr", **context)


def render_message(style: PageStyle, title: str, message: str, back_url: str = "") -> Rendered:
    """Render a short page with a title and one message (errors, refusals)."""
    return _page(
        _MESSAGE,
        style,
        lang="en",
        dir="ltr",
        title=title,
        message=message,
        back_url=back_url,
    )
