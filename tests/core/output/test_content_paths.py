"""Tests for the fast paths of addon.core.output.content: each gives what the plain way gives."""

from __future__ import annotations

import copy
import importlib.util
import re
import sys
from dataclasses import replace
from pathlib import Path

import lxml.html
import pytest
from fragments import body_of
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from addon.core.output.content import (
    _BLOCK_SEPARATOR,
    _FILTERING_CLEANER,
    _PLAIN_CLEANER,
    LINK_SCHEMES,
    UrlBase,
    _block_texts,
    _closes_alike,
    _context,
    _finish,
    _Flow,
    _has_text,
    _marked_text,
    _may_hold_data_url,
    _Sanitiser,
    _serialise,
    _serialise_all,
    _text_of,
    _trim_rules,
    build_blocks,
    is_placeholder,
    is_plain_block,
    word_count,
)
from addon.core.result import Block

BASE = "https://example.com/news/story.html"
Blocks = tuple[Block, ...]

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
def test_one_nh3_call_gives_each_block_what_its_own_call_gives(holder: etree._Element) -> None:
    sources = [_serialise(block) for block in holder]
    joint = _Sanitiser(holder, sources, True).clean(sources)
    assert joint == [_PLAIN_CLEANER.clean(source) for source in sources]


@_THOROUGH
@given(_HOLDERS)
def test_one_serialisation_gives_each_block_what_its_own_gives(holder: etree._Element) -> None:
    roots = list(holder)
    expected = [_serialise(block) for block in roots]
    assert _serialise_all(holder, roots) == expected


@_THOROUGH
@given(_HOLDERS)
def test_text_written_for_all_blocks_at_once_is_the_text_of_each_marked_tree(
    holder: etree._Element,
) -> None:
    roots = list(holder)
    expected = [_marked_text(copy.deepcopy(block)) for block in roots]
    assert _block_texts(holder, roots) == expected


# Any character lxml stores, and those the serialisers escape, drawn often.
_ANY_TEXT = st.text(
    st.characters(codec="utf-8") | st.sampled_from(["\u00a0", "&", "<", ">", "\r", "\n", "\ufdd4"]),
    min_size=1,
)


def _stored(tag: str, text: str) -> str | None:
    """Serialise an element holding `text`, or None when lxml refuses the text."""
    element = etree.Element(tag)
    try:
        element.text = text
    except ValueError:  # control characters XML forbids
        return None
    return _serialise(element)


@_THOROUGH
@given(st.sampled_from(["p", "h2", "h6", "h1", "pre", "li"]), _ANY_TEXT)
def test_a_block_passed_as_plain_is_what_nh3_gives_back(tag: str, text: str) -> None:
    source = _stored(tag, text)
    if source is not None and is_plain_block(source):
        assert _PLAIN_CLEANER.clean(source) == source


@pytest.mark.parametrize(
    ("source", "plain"),
    [
        ("<p>a b\nc</p>", True),
        ("<h2>Title</h2>", True),
        ("<h6>x</h6>", True),
        ("<p>a\u00a0b</p>", False),  # nh3 writes &nbsp;
        ("<p>a &amp; b &lt; c &gt; d</p>", True),
        ("<p>a&#13;b</p>", False),  # nh3 writes the carriage return itself
        ("<h1>x</h1>", False),  # not an allowed tag: nh3 drops it
        ("<pre>x</pre>", False),
        ('<p lang="en">x</p>', False),
        ("<p>a<br>b</p>", False),
        ("<p>x</h2>", False),
        ("<p>x", False),
    ],
)
def test_plain_blocks_are_told_from_the_rest(source: str, plain: bool) -> None:
    assert is_plain_block(source) is plain


def test_an_empty_list_item_keeps_its_block_out_of_the_joint_call() -> None:
    # lxml writes no end tag for an empty li: in one call the item would stay open
    # and take in the next block.
    holder = _holder([("p", [("b", False, [("li", False, [])])]), ("p", ["after"])])
    sources = [_serialise(block) for block in holder]
    assert "</li>" not in sources[0]
    assert not _closes_alike(sources[0])
    assert _PLAIN_CLEANER.clean(_BLOCK_SEPARATOR.join(sources)).count("</li>") == 1
    assert _Sanitiser(holder, sources, True).clean(sources) == [
        _PLAIN_CLEANER.clean(source) for source in sources
    ]


def test_tables_are_cleaned_alone() -> None:
    assert not _closes_alike("<table><tr><td>x</td></tr></table>")
    assert not _closes_alike("<p><caption>x</caption></p>")
    assert _closes_alike("<p><time>x</time><br><img src='x'><hr></p>")


def test_blocks_needing_the_attribute_filter_still_get_it() -> None:
    doc = lxml.html.document_fromstring(
        "<body><p>a</p><p><img src='data:image/gif;base64,AAAA' alt='x'>"
        "<a href='data:text/html,b'>b</a></p><p>c</p></body>"
    )
    holder = etree.Element("div")
    holder.extend(copy.deepcopy(list(doc.find("body"))))
    sources = [_serialise(block) for block in holder]
    cleaned = _Sanitiser(holder, sources, True).clean(sources)
    assert cleaned[1] == _FILTERING_CLEANER.clean(sources[1])
    assert cleaned[1] != _PLAIN_CLEANER.clean(sources[1])  # the data: link goes
    assert cleaned[1].startswith('<p><img src="data:image/gif;base64,AAAA" alt="x"><a rel=')


def test_the_block_end_mark_in_page_text_is_kept() -> None:
    doc = lxml.html.document_fromstring("<body><p>a\ufdd5b</p><p>c</p></body>")
    blocks = build_blocks([doc.find("body")], base_url=BASE)
    assert [(block.html, block.text) for block in blocks] == [
        ("<p>a\ufdd5b</p>", "a\ufdd5b"),
        ("<p>c</p>", "c"),
    ]


def test_the_separator_of_the_joint_nh3_call_in_page_text_is_kept() -> None:
    doc = lxml.html.document_fromstring(
        f"<body><p>a{_BLOCK_SEPARATOR}b</p><ul><li>c</li></ul><p>d</p></body>"
    )
    blocks = build_blocks([doc.find("body")], base_url=BASE)
    assert [(block.html, block.text) for block in blocks] == [
        (f"<p>a{_BLOCK_SEPARATOR}b</p>", f"a{_BLOCK_SEPARATOR}b"),
        ("<ul><li>c</li></ul>", "c"),
        ("<p>d</p>", "d"),
    ]


def test_carriage_returns_and_control_characters_in_text() -> None:
    doc = lxml.html.document_fromstring(
        "<body><p>a&#13;b <i>c</i>\x01d</p><ul><li>e\ufffef</li></ul></body>"
    )
    blocks = build_blocks([doc.find("body")], base_url=BASE)
    assert [block.text for block in blocks] == ["a b cd", "ef"]


def test_nested_pre_keeps_its_lines_and_spaces() -> None:
    doc = lxml.html.document_fromstring(
        "<body><blockquote><p>a  b</p><pre>x  y\n\tz</pre></blockquote></body>"
    )
    (block,) = build_blocks([doc.find("body")], base_url=BASE)
    assert block.text == "a b\nx  y\n\tz"


def test_text_inside_a_void_element_still_counts() -> None:
    # The HTML parser gives a void element no content; a built tree may, and lxml
    # does not write it out.
    body = etree.Element("body")
    p = etree.SubElement(body, "p")
    p.text = "one"
    br = etree.SubElement(p, "br")
    br.text = "hidden"
    br.tail = "two"
    blocks = build_blocks([body], base_url=BASE)  # type: ignore[list-item]
    assert [(block.html, block.text) for block in blocks] == [
        ("<p>one<br>two</p>", "onehidden\ntwo")
    ]


def test_placeholder_words_match_in_any_case_and_script() -> None:
    assert is_placeholder("https://example.com/img/Blank.GIF")
    assert is_placeholder("https://example.com/img/\u017fpacer.gif")  # long s matches s
    assert is_placeholder("https://example.com/\u00e9t\u00e9/lazy_load.jpg")
    assert is_placeholder("https://example.com/pixel.png\n?x=1")  # $ matches before \n
    assert not is_placeholder("https://example.com/img/photo.jpg")
    assert not is_placeholder("https://example.com/gif/blank-page.jpg")


def test_urls_with_tabs_controls_and_brackets_resolve_as_before() -> None:
    base = UrlBase.of(BASE)
    assert base.resolve("/a\tb", schemes=LINK_SCHEMES) == "https://example.com/ab"
    assert base.resolve("a\x01b", schemes=LINK_SCHEMES) is None
    assert base.resolve("/a[1]", schemes=LINK_SCHEMES) == "https://example.com/a[1]"
    assert base.resolve("./a/../b", schemes=LINK_SCHEMES) == "https://example.com/news/b"
    assert base.resolve(".well-known", schemes=LINK_SCHEMES) == (
        "https://example.com/news/.well-known"
    )


@_THOROUGH
@given(_HOLDERS)
def test_text_found_from_the_first_text_is_the_text_of_the_whole_element(
    holder: etree._Element,
) -> None:
    for el in holder.iter():
        assert _has_text(el) == bool(_text_of(el).strip())


@_THOROUGH
@given(_HOLDERS)
def test_the_h1_test_stops_at_the_first_and_finds_what_iteration_finds(
    holder: etree._Element,
) -> None:
    for index, el in enumerate(list(holder.iter("h2"))):
        if index % 2 == 0:
            el.tag = "h1"
    roots = list(holder)
    expected = any(next(root.iter("h1"), None) is not None for root in roots)
    assert _context(roots, BASE, ()).shift_headings == expected  # type: ignore[arg-type]


@given(st.text(st.sampled_from("dDaAtT:á \n"), max_size=12))
def test_the_data_url_pretest_never_misses_one(text: str) -> None:
    if "data:" in text.lower():
        assert _may_hold_data_url(text)
    assert _may_hold_data_url(text) == ("a:" in text or "A:" in text)


_PLAIN_WORDS = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+"
# Letters, digits, CJK; and the CJK-range characters that are no letters (゠ ・
# and a combining mark), numbers str.isalnum takes (² ½ ٣), a combining accent.
_WORD_ALPHABET = (
    "ab1_ \u00e9\u0436\u65e5\u672c\u3042'-\n\u30a0\u30fb\u30fc\u3099\u00b2\u00bd\u0663\u0301"
)


@given(st.text(st.sampled_from(_WORD_ALPHABET), max_size=16))
def test_word_count_counts_what_the_plain_pattern_finds(text: str) -> None:
    assert word_count(text) == len(re.findall(_PLAIN_WORDS, text))


def test_the_compiled_word_count_is_built() -> None:
    # word_count falls back to the pattern without it: slower, so the install
    # must have built it (pip install -e . with a C compiler and Python's headers).
    assert importlib.util.find_spec("addon.core._words") is not None


def test_word_count_takes_each_character_as_the_pattern_does() -> None:
    # Every code point, alone and after a letter: where a word starts, and whether it goes on.
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        assert word_count(char) == len(re.findall(_PLAIN_WORDS, char)), hex(code)
        assert word_count("a" + char) == len(re.findall(_PLAIN_WORDS, "a" + char)), hex(code)


# --- Blocks taken out of the page, or copied ----------------------------------

GOLDEN_SOURCES = sorted((Path(__file__).parents[2] / "golden").glob("*/source.html"))


def _built(roots: list[etree._Element], *, take: bool, drop: frozenset[etree._Element]) -> Blocks:
    """Build the blocks as build_blocks does, taking them out of the page or copying them."""
    ctx = replace(_context(roots, BASE, drop), take=take)
    flow = _Flow(ctx)
    for root in roots:
        flow.feed(root)
    flow.close()
    return _trim_rules(_finish(flow.out, ctx))


@pytest.mark.parametrize("source", GOLDEN_SOURCES, ids=lambda path: path.parent.name)
def test_blocks_taken_out_of_the_page_are_the_blocks_copied_from_it(source: Path) -> None:
    markup = source.read_text(encoding="utf-8")
    taken_from, copied_from = body_of(markup), body_of(markup)
    before = etree.tostring(copied_from)
    # Every third paragraph dropped: the dropped parts go from taken blocks too.
    drops = [frozenset(list(body.iter("p"))[::3]) for body in (taken_from, copied_from)]
    taken = _built([taken_from], take=True, drop=drops[0])
    assert taken == _built([copied_from], take=False, drop=drops[1])
    assert etree.tostring(copied_from) == before  # copying leaves the page as it was
    if taken:
        assert etree.tostring(taken_from) != before


def test_subtrees_that_hold_one_another_or_repeat_are_copied() -> None:
    body = body_of("<div><p>One paragraph of text.</p><div><p>Another one.</p></div></div>")
    outer = body[0]
    inner = outer[1]
    before = etree.tostring(body)
    for roots in ([outer, inner], [inner, outer], [outer, outer]):
        assert not _context(roots, BASE, ()).take
        texts = [block.text for block in build_blocks(roots, base_url=BASE)]
        assert texts.count("Another one.") == 2
        assert etree.tostring(body) == before
    assert _context([outer[0], inner], BASE, ()).take
    blocks = build_blocks([outer[0], inner], base_url=BASE)
    assert [block.text for block in blocks] == ["One paragraph of text.", "Another one."]
    assert "One paragraph" not in etree.tostring(body, encoding="unicode")
