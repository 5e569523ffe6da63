"""Trees the content-stage tests build from HTML fragments, and random ones."""

from __future__ import annotations

import copy
from collections.abc import Callable

from hypothesis import settings
from hypothesis import strategies as st
from lxml import etree

from addon.core.heuristics.parse import parse


def body_of(markup: str) -> etree._Element:
    """Parse a page, or a fragment of one, as extract does; return its body."""
    root = parse(f"<html><body>{markup}</body></html>")
    assert root is not None
    body = root.find("body")
    assert body is not None
    return body


def text_after(html: str, step: Callable[[etree._Element], None]) -> str:
    """Parse a page, run one preprocessing step on it, return its text, spaces collapsed."""
    root = parse(html)
    assert root is not None
    step(root)
    return " ".join(" ".join(root.itertext()).split())


def holder_of(markup: str) -> etree._Element:
    """Hold copies of a fragment's blocks in a fresh tree, as the content stage does."""
    holder = etree.Element("div")
    holder.extend(copy.deepcopy(block) for block in body_of(markup))
    return holder


# Tags a cleaned block may hold, a few attributes, and text with the characters
# the serialisers treat specially.
INNER_TAGS = (
    *("a", "em", "strong", "b", "i", "code", "sub", "small", "abbr", "q", "time", "s", "u"),
    *("br", "img", "p", "h2", "h3", "ul", "ol", "li", "dl", "dt", "dd", "pre", "blockquote"),
    *("figure", "figcaption", "hr", "table", "caption", "tbody", "tr", "th", "td"),
)


ROOT_TAGS = ("p", "h2", "ul", "ol", "dl", "pre", "blockquote", "figure", "table", "hr")


VOID_TAGS = {"br", "img", "hr"}


TEXTS = st.sampled_from(["x", " ", "\n", "y z", "\u00a0", "&", "<b>", "\t", "\r", '"q"', "é"])


@st.composite
def trees(draw: st.DrawFn, depth: int = 0) -> list[tuple[str, bool, list[object]]]:
    """Draw a list of (tag, with lang, children) element specs mixed with text."""
    items: list[object] = []
    for _ in range(draw(st.integers(0, 3 if depth < 4 else 0))):
        if draw(st.booleans()):
            items.append(draw(TEXTS))
            continue
        tag = draw(st.sampled_from(INNER_TAGS))
        children = [] if tag in VOID_TAGS else draw(trees(depth + 1))
        items.append((tag, draw(st.booleans()), children))
    return items  # type: ignore[return-value]


def build_tree(parent: etree._Element, items: list[object]) -> None:
    """Append element specs and text to an lxml element."""
    for item in items:
        if isinstance(item, str):
            if len(parent):
                parent[-1].tail = (parent[-1].tail or "") + item
            else:
                parent.text = (parent.text or "") + item
            continue
        tag, lang, children = item  # type: ignore[misc]
        child = etree.SubElement(parent, tag)
        if lang:
            child.set("lang", "en")
        if tag == "a":
            child.set("href", "https://example.com/a")
        if tag == "img":
            child.set("src", "https://example.com/i.png")
            child.set("alt", "")
        build_tree(child, children)


def holder_of_specs(blocks: list[tuple[str, list[object]]]) -> etree._Element:
    """Hold blocks built from element specs in a fresh tree."""
    holder = etree.Element("div")
    for tag, items in blocks:
        build_tree(etree.SubElement(holder, tag), [] if tag == "hr" else items)
    return holder


BLOCK_SPECS = st.lists(st.tuples(st.sampled_from(ROOT_TAGS), trees()), min_size=1, max_size=6)


# A fresh holder of blocks per example; each fast path is checked on many of them.
HOLDERS = BLOCK_SPECS.map(holder_of_specs)


THOROUGH = settings(max_examples=300, deadline=None)
