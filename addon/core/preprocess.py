"""Preprocessing: parse with lxml and drop what is never content (thesis §4.3.1, §4.6)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree
from lxml.html import (
    HtmlComment,
    HtmlElement,
    HtmlEntity,
    HTMLParser,
    HtmlProcessingInstruction,
)

# libxml2 stops reading at a premature `</body>` or `</html>` mid-page and
# silently drops the rest; the end tags carry no information, so drop them all.
_PREMATURE_END = re.compile(r"</(?:body|html)\s*>", re.IGNORECASE)

# libxml2 refuses to nest deeper than 2048 elements and drops what lies
# deeper; browsers stop nesting at 512. Long runs of bare opening tags (the
# shape of such pages) are folded into one so the text inside survives.
_OPEN_TAG_RUN = re.compile(
    r"(?:<(div|span|section|article|font|b|i|table|tr|td|ul|li)\b[^<>]{0,200}>\s*){256,}",
    re.IGNORECASE,
)

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
    "applet",
    "frameset",
    "frame",
    "noembed",
    "title",
)

# Sentinel tags: elements renamed to these are removed / unwrapped in one C call.
_DROP = "x-plainview-drop"
_UNWRAP = "x-plainview-unwrap"

UNKNOWN_VOIDS = ("embed", "param", "source", "track", "wbr", "keygen")

# Page furniture that Plainview's extended variant removes outside <article>.
CHROME = ("nav", "aside", "footer", "header")
# Interactive and embedded elements that a reader view never shows.
CONTROLS = ("input", "select", "textarea", "svg", "iframe", "canvas")
# Controls that label themselves with text; libxml2 nests whole pages inside a
# <button> left open, so one holding more text than a label is unwrapped.
LABELLED_CONTROLS = ("button", "label")


def strip_premature_end_tags(text: str) -> str:
    """Remove `</body>` and `</html>` so libxml2 reads the whole page."""
    return _PREMATURE_END.sub("", text)


def parse(text: str) -> HtmlElement | None:
    """Parse a decoded page into an lxml HTML tree; None when nothing parses."""
    source = _XML_DECLARATION.sub("", strip_premature_end_tags(text), count=1)
    # isspace() stops at the first visible character; strip() would copy the page.
    if not source or source.isspace():
        return None
    # huge_tree lifts libxml2's depth limit, so deeply nested pages keep their text.
    root = _parse_utf8(source.encode("utf-8", "replace"))
    if root is _TOO_DEEP:
        root = _parse_utf8(_OPEN_TAG_RUN.sub(r"<\1>", source).encode("utf-8", "replace"))
    return None if root is _TOO_DEEP else root


_TOO_DEEP = HtmlElement("too-deep")

# Every element is an HtmlElement: lxml.html's default lookup picks a class per
# tag name in Python for each element proxy, a cost on every walk over the tree.
_ELEMENT_CLASSES = etree.ElementDefaultClassLookup(
    element=HtmlElement, comment=HtmlComment, pi=HtmlProcessingInstruction, entity=HtmlEntity
)


def _parse_utf8(source: bytes) -> HtmlElement | None:
    """Parse UTF-8 bytes; `_TOO_DEEP` when libxml2 hit its nesting limit."""
    # huge_tree lifts libxml2's default depth limit (256) to its hard one (2048).
    parser = HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True, huge_tree=True)
    parser.set_element_class_lookup(_ELEMENT_CLASSES)
    try:
        root = etree.fromstring(source, parser=parser)
    except etree.LxmlError:
        # libxml2 gives up on some inputs ("Document is empty"): no page to read.
        return None
    if any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log):
        return _TOO_DEEP
    return root if isinstance(root, HtmlElement) else None


def drop_non_content(
    root: HtmlElement, *, noscript_min_chars: int = 200, max_drop_share: float = 0.5
) -> None:
    """Remove scripts, styles, templates, hidden elements and empty noscripts in place."""
    etree.strip_elements(root, *NEVER_CONTENT, with_tail=False)
    # libxml2 does not know <embed>, <param> and <source> as empty elements and
    # nests the following text inside them: keep the text, drop the tags.
    etree.strip_tags(root, *UNKNOWN_VOIDS)
    unwrap_noscript(root, min_chars=noscript_min_chars)
    drop_hidden(root, max_share=max_drop_share)


def drop_unless_main(elements: list[HtmlElement], root: HtmlElement, *, max_share: float) -> None:
    """Drop each element unless it holds more than `max_share` of the page's text.

    Pages that reveal their content with script hide it in the markup, and
    libxml2 (an HTML4 parser) sometimes nests a whole page inside a <header>
    left open; dropping such an element would empty the page.
    """
    if not elements:
        return
    total = len(root.text_content())
    drop_all(
        root,
        [
            element
            for element in elements
            if element.getparent() is not None and len(element.text_content()) <= max_share * total
        ],
    )


def drop_all(root: HtmlElement, elements: Iterable[HtmlElement]) -> None:
    """Remove the elements with their content, keeping their tails, in one C call."""
    # lxml's drop_tree() joins text in Python and raises on the control
    # characters libxml2 accepted; strip_elements joins them inside libxml2.
    for element in elements:
        element.tag = _DROP
    etree.strip_elements(root, _DROP, with_tail=False)


def unwrap_all(root: HtmlElement, elements: Iterable[HtmlElement]) -> None:
    """Remove the elements' tags and keep their content, in one C call."""
    for element in elements:
        element.tag = _UNWRAP
    etree.strip_tags(root, _UNWRAP)


def unwrap_noscript(root: HtmlElement, *, min_chars: int = 200) -> None:
    """Keep a `<noscript>` that holds real text (some forums put posts there), drop the rest."""
    posts = []
    for element in root.iter("noscript"):
        if len(element.text_content().strip()) >= min_chars:
            posts.append(element)
    unwrap_all(root, posts)
    etree.strip_elements(root, "noscript", with_tail=False)


def drop_hidden(root: HtmlElement, *, max_share: float = 0.5) -> None:
    """Remove elements the page hides from every reader (`hidden`, `display:none`)."""
    found = _HIDDEN(root)
    hidden = [
        element
        for element in (found if isinstance(found, list) else ())
        if isinstance(element, HtmlElement) and element.tag not in ("html", "body")
    ]
    drop_unless_main(hidden, root, max_share=max_share)


# `@style and`: libxml2 then skips translate() on the many elements without a style.
_HIDDEN = etree.XPath(
    "//*[@hidden or @aria-hidden='true' or (@style and contains(translate(@style,"
    "'DISPLAYNOE ','displaynoe'),'display:none'))]"
)


DIALOG_XPATH = (
    "//dialog | //*[@role='dialog' or @role='alertdialog' or @aria-modal='true']"
)


def drop_chrome(
    root: HtmlElement, *, max_share: float = 0.3, max_label_chars: int = 200
) -> None:
    """Remove nav/aside/footer/header outside any <article> and all form controls; unwrap forms."""
    chrome = [
        element
        for element in root.xpath(
            "//nav[not(ancestor::article)] | //aside[not(ancestor::article)]"
            " | //footer[not(ancestor::article)] | //header[not(ancestor::article)]"
        )
        if not _holds_article(element)
    ]
    # Overlays (cookie banners, newsletter pop-ups) announce themselves as dialogs.
    chrome.extend(root.xpath(DIALOG_XPATH))
    drop_unless_main(chrome, root, max_share=max_share)
    etree.strip_elements(root, *CONTROLS, with_tail=False)
    drop_labelled_controls(root, max_label_chars=max_label_chars)
    # ASP.NET and shop pages wrap the whole page in one <form>: keep what it holds.
    etree.strip_tags(root, "form")


def drop_labelled_controls(root: HtmlElement, *, max_label_chars: int = 200) -> None:
    """Remove buttons and labels, unwrapping those that hold more text than a label."""
    wrappers = []
    for element in root.iter(*LABELLED_CONTROLS):
        if len(element.text_content()) > max_label_chars:
            wrappers.append(element)
    unwrap_all(root, wrappers)
    etree.strip_elements(root, *LABELLED_CONTROLS, with_tail=False)


def boilerplate_pattern(words: str) -> re.Pattern[str]:
    """Compile the class/id word pattern: a word that opens or closes a class token."""
    # The word must open or close a class token: "comment-list" and
    # "block--author-bio" are furniture, "with-sidebar-layout" wraps the page.
    return re.compile(
        rf"(?:^|\s)(?:{words})(?:$|[\s_-])|[_-](?:{words})(?:$|\s)", re.IGNORECASE
    )


def drop_boilerplate(root: HtmlElement, pattern: re.Pattern[str], *, max_share: float) -> None:
    """Remove elements whose class or id names them as furniture."""
    # Class lists repeat across a page: search each distinct one once.
    seen: dict[str, bool] = {}
    marked: list[HtmlElement] = []
    for element in root.iter(etree.Element):
        if element.tag in ("html", "body", "article", "main"):
            continue
        names = f"{element.get('class', '')} {element.get('id', '')}"
        found = seen.get(names)
        if found is None:
            found = seen[names] = pattern.search(names) is not None
        if found:
            marked.append(element)
    drop_unless_main(marked, root, max_share=max_share)


def _holds_article(element: HtmlElement) -> bool:
    """Tell whether a chrome element wraps the article itself (some sites do)."""
    return bool(element.xpath("boolean(.//article | .//main | .//h1)"))
