"""Preprocessing: parse with lxml and drop what is never content (thesis §4.3.1, §4.6)."""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement, HTMLParser

# libxml2 stops reading at a premature `</body>` or `</html>` mid-page and
# silently drops the rest; the end tags carry no information, so drop them all.
_PREMATURE_END = re.compile(r"</(?:body|html)\s*>", re.IGNORECASE)

# An XML declaration in a str makes lxml refuse to parse; we hand lxml UTF-8
# bytes instead, so the declaration must not claim another encoding.
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>", re.IGNORECASE)

# Elements that never hold reader content (thesis §4.3.1: scripts, styles,
# comments; plus their modern relatives).
NEVER_CONTENT = (
    "script",
    "style",
    "template",
    "link",
    "meta",
    "base",
    "head",
    "object",
    "embed",
    "param",
    "applet",
    "frameset",
    "frame",
    "noembed",
    "title",
)

# Page furniture that Plainview's extended variant removes outside <article>.
CHROME = ("nav", "aside", "footer", "header")
# Interactive and embedded elements that a reader view never shows.
CONTROLS = ("form", "button", "input", "select", "textarea", "label", "svg", "iframe", "canvas")

_PARSER_OPTIONS = {"remove_comments": True, "remove_pis": True, "huge_tree": True}


def strip_premature_end_tags(text: str) -> str:
    """Remove `</body>` and `</html>` so libxml2 reads the whole page."""
    return _PREMATURE_END.sub("", text)


def parse(text: str) -> HtmlElement | None:
    """Parse a decoded page into an lxml HTML tree; None when nothing parses."""
    source = _XML_DECLARATION.sub("", strip_premature_end_tags(text), count=1)
    if not source.strip():
        return None
    parser = HTMLParser(encoding="utf-8", **_PARSER_OPTIONS)
    try:
        root = etree.fromstring(source.encode("utf-8", "replace"), parser=parser)
    except etree.LxmlError:
        # libxml2 gives up on some inputs ("Document is empty"): no page to read.
        return None
    if root is None or not isinstance(root, HtmlElement):
        return None
    return root


def drop_non_content(root: HtmlElement, *, noscript_min_chars: int = 200) -> None:
    """Remove scripts, styles, templates, hidden elements and empty noscripts in place."""
    etree.strip_elements(root, *NEVER_CONTENT, with_tail=False)
    unwrap_noscript(root, min_chars=noscript_min_chars)
    drop_hidden(root)


def unwrap_noscript(root: HtmlElement, *, min_chars: int = 200) -> None:
    """Keep a `<noscript>` that holds real text (some forums put posts there), drop the rest."""
    for element in list(root.iter("noscript")):
        text = element.text_content()
        if len(text.strip()) >= min_chars:
            element.drop_tag()
        else:
            element.drop_tree()


def drop_hidden(root: HtmlElement) -> None:
    """Remove elements the page hides from every reader (`hidden`, `display:none`)."""
    hidden = [
        element
        for element in root.xpath(
            "//*[@hidden or @aria-hidden='true' or contains(translate(@style,"
            "'DISPLAYNOE ','displaynoe'),'display:none')]"
        )
        if element.getparent() is not None and element.tag not in ("html", "body")
    ]
    for element in hidden:
        element.drop_tree()


def drop_chrome(root: HtmlElement) -> None:
    """Remove nav/aside/footer/header outside any <article>, and all form controls."""
    for element in root.xpath(
        "//nav[not(ancestor::article)] | //aside[not(ancestor::article)]"
        " | //footer[not(ancestor::article)] | //header[not(ancestor::article)]"
    ):
        if element.getparent() is not None and not _holds_article(element):
            element.drop_tree()
    etree.strip_elements(root, *CONTROLS, with_tail=False)


def _holds_article(element: HtmlElement) -> bool:
    """Tell whether a chrome element wraps the article itself (some sites do)."""
    return bool(element.xpath("boolean(.//article | .//main | .//h1)"))
