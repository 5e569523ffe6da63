"""Tests for addon.core.output.tags."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from addon.core.output.tags import has_text, text_of

# Tags a cleaned block may hold, a few attributes, and text with the characters
# the serialisers treat specially.
_INNER = (
    *("a", "em", "strong", "b", "i", "code", "sub", "small", "abbr", "q", "time", "s", "u"),
    *("br", "img", "p", "h2", "h3", "ul", "ol", "li", "dl", "dt", "dd", "pre", "blockquote"),
    *("figure", "figcaption", "hr", "table", "caption", "tbody", "tr", "th", "td"),
)


_ROOTS = ("p", "h2", "ul", "ol", "dl", "pre", "blockquote", "figure", "table", "hr")


_VOID = {"br", "img", "hr"}


_TEXTS = st.sampled_from(["x", " ", "\n", "y z", "\u00a0", "&", "<b>", "\t", "\r", '"q"', "é"])


@st.composite
def _trees(draw: st.DrawFn, depth: int = 0) -> list[tuple[str, bool, list[object]]]:
    """Draw a list of (tag, with lang, children) element specs mixed with text."""
    items: list[object] = []
    for _ in range(draw(st.integers(0, 3 if depth < 4 else 0))):
        if draw(st.booleans()):
            items.append(draw(_TEXTS))
            continue
        tag = draw(st.sampled_from(_INNER))
        children = [] if tag in _VOID else draw(_trees(depth + 1))
        items.append((tag, draw(st.booleans()), children))
    return items  # type: ignore[return-value]


def _build(parent: etree._Element, items: list[object]) -> None:
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
        _build(child, children)


def _holder(blocks: list[tuple[str, list[object]]]) -> etree._Element:
    holder = etree.Element("div")
    for tag, items in blocks:
        _build(etree.SubElement(holder, tag), [] if tag == "hr" else items)
    return holder


_BLOCKS = st.lists(st.tuples(st.sampled_from(_ROOTS), _trees()), min_size=1, max_size=6)


# A fresh holder of blocks per example; each fast path is checked on many of them.
_HOLDERS = _BLOCKS.map(_holder)


_THOROUGH = settings(max_examples=300, deadline=None)


@_THOROUGH
@given(_HOLDERS)
def test_text_found_from_the_first_text_is_the_text_of_the_whole_element(
    holder: etree._Element,
) -> None:
    for el in holder.iter():
        assert has_text(el) == bool(text_of(el).strip())
