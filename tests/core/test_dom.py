"""Tests for addon/core/dom.py."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Collection
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from addon.core.dom import (
    Hidden,
    attribute_value_set,
    elements_holding,
    elements_valued,
    elements_with,
    hidden_elements,
    hides,
    is_element,
    is_permalink,
    text_content,
    text_length,
    walk_attribute_values,
    walk_elements_holding,
    walk_elements_with,
    walk_hidden_elements,
    walk_unlink_all,
)
from addon.core.heuristics.parse import parse


def test_text_content_joins_the_text_of_every_descendant_without_the_tail() -> None:
    root = etree.fromstring("<div>a<p>b<i>c</i>d</p>e</div>")
    paragraph = root[0]
    assert text_content(paragraph) == "bcd"
    assert text_content(root) == "abcde"
    assert type(text_content(root)) is str  # a plain string, not one tied to the tree


def test_a_permalink_is_a_fragment_link_whose_text_is_a_marker_or_none() -> None:
    doc = etree.fromstring(
        '<h2 id="x">Title<a href="#x">¶</a><a href="#x"> § </a><a href="#x"><i/></a>'
        '<a href="#fn1">1</a><a href="/x">¶</a><a>§</a></h2>'
    )
    assert [is_permalink(anchor) for anchor in doc] == [True, True, True, False, False, False]


def test_text_content_of_an_empty_element_is_empty() -> None:
    assert text_content(etree.Element("br")) == ""


def test_is_element_tells_elements_from_other_xpath_results() -> None:
    root = etree.fromstring("<div id='x'>text<!-- note --><p/></div>")
    results = root.xpath("node() | @id")
    # The attribute comes first (document order), then the text, the comment, the <p>.
    assert [is_element(node) for node in results] == [False, False, False, True]


def test_parsed_pages_are_plain_elements() -> None:
    # Plain lxml elements cost less to create on each walk than lxml.html's classes.
    root = parse("<p>Hello <b>world</b></p>")
    assert root is not None
    assert {type(element) for element in root.iter()} == {etree._Element}
    assert text_content(root) == "Hello world"


# --- The compiled queries and their Python twins ------------------------------

Query = Callable[[etree._Element, str], dict[etree._Element, str]]
ValueSet = Callable[[etree._Element, tuple[str, ...]], set[str]]
Owners = Callable[[etree._Element, tuple[str, ...], Collection[str]], list[etree._Element]]
COMPILED = importlib.util.find_spec("addon.core._dom") is not None
NAMES = ("class", "id", "hidden", "style", "aria-hidden", "role")


def _by_xpath(root: etree._Element, name: str) -> dict[etree._Element, str]:
    """Find the attribute as the XPath `//*/@name` does: the definition both queries follow."""
    found = root.xpath(f"//*/@{name}")
    assert isinstance(found, list)
    return {
        value.getparent(): str(value)
        for value in found
        if isinstance(value, etree._ElementUnicodeResult)
    }


def _queries() -> list[Query]:
    queries: list[Query] = [walk_attribute_values]
    if COMPILED:
        from addon.core import _dom

        queries.append(_dom.attribute_values)
    return queries


def _lengths() -> list[Callable[[etree._Element], int]]:
    lengths: list[Callable[[etree._Element], int]] = [text_length]
    if COMPILED:
        from addon.core import _dom

        lengths.append(_dom.text_length)
    return lengths


def test_the_compiled_queries_are_built() -> None:
    # dom falls back to the Python queries without them: slower, so the install
    # must have built them (pip install -e . with a C compiler and Python's headers).
    assert COMPILED


@pytest.mark.parametrize("text", ["", "abc", "héllo wörld", "日本語のテキスト", "emoji 🎉 ok"])
def test_text_length_counts_characters(text: str) -> None:
    root = etree.fromstring(f"<div><p>{text}<b>é</b></p>tail</div>")
    for length in _lengths():
        assert length(root[0]) == len(text_content(root[0])) == len(text) + 1
        assert length(root) == len(text_content(root))


def test_attribute_values_map_each_element_to_its_value_in_document_order() -> None:
    root = parse("<div class='a b' id=top><p class=''>x<b class='é &amp; \"q\"'>y</b></p></div>")
    assert root is not None
    for query in _queries():
        found = query(root, "class")
        assert [(element.tag, value) for element, value in found.items()] == [
            ("div", "a b"),
            ("p", ""),
            ("b", 'é & "q"'),
        ]
        assert [element.tag for element in query(root, "id")] == ["div"]
        assert query(root, "hidden") == {}


def test_namespaced_attributes_are_not_the_plain_one() -> None:
    root = etree.fromstring(
        "<div xmlns:x='urn:x'><p x:class='no' class='yes'/><p x:class='no'/></div>"
    )
    for query in _queries():
        assert (
            list(query(root, "class").values())
            == ["yes"]
            == list(_by_xpath(root, "class").values())
        )


FRAGMENTS = [
    "<div class='nav menu'>", "</div>", "<p id=lead hidden>", "</p>", "<span style='display:none'>",
    "</span>", "<a href=/x class=''>", "</a>", "<b aria-hidden=true>", "</b>", "<br class=x>",
    "<img src=x.png id=é>", "<li role=dialog class='日本 語'>", "<ul>", "</ul>", "<!-- c -->",
    "text ", "é", "日本語", "&amp;", "<td class=\"a&quot;b\">", "<table>", "</table>",
    "<hr hidden>", "<i style='Display : NONE'>", "</i>", "<i style='display:nonE;color:red'>",
    "<i style='dİsplay:none'>", "<i aria-hidden=TRUE>", "<i aria-hidden='true' hidden>",
    "<a rel=author>", "<a rel='AuThOr noopener'>", "<a rel=authors>", "<a rel='autho r'>",
    "<a rel='auth&#111;r'>", "<a rel='x&amp;AUTHOR'>", "<a rel='äuthor'>", "<link rel=author>",
    "<A REL=Author>", "<b rel=author>",
]  # fmt: skip


def _value_queries() -> list[tuple[ValueSet, Owners]]:
    queries: list[tuple[ValueSet, Owners]] = [(attribute_value_set, elements_valued)]
    if COMPILED:
        from addon.core import _dom

        queries.append((_dom.attribute_value_set, _dom.elements_valued))
    return queries


def _assert_read_as_xpath_reads(root: etree._Element) -> None:
    """Check every query on every name, and every element's text length, on one page."""
    for query in _queries():
        for name in NAMES:
            assert query(root, name) == _by_xpath(root, name)
    # The distinct values of class and id, and the elements of some of them.
    named = [_by_xpath(root, "class"), _by_xpath(root, "id")]
    values = {value for each in named for value in each.values()}
    some = set(sorted(values)[::2])
    owners = list(dict.fromkeys(e for each in named for e, value in each.items() if value in some))
    for value_set, valued in _value_queries():
        assert value_set(root, ("class", "id")) == values
        assert valued(root, ("class", "id"), some) == owners
        assert valued(root, ("class", "id"), set()) == []
    for length in _lengths():
        assert [length(element) for element in root.iter()] == [
            len(text_content(element)) for element in root.iter()
        ]
    wanted = {"role": ("dialog", "x"), "class": tuple(some), "aria-hidden": ("true",)}
    by_name = {name: _by_xpath(root, name) for name in wanted}
    with_values = [
        element
        for element in root.iter(etree.Element)
        if any(by_name[name].get(element) in values for name, values in wanted.items())
    ]
    assert walk_elements_with(root, wanted) == elements_with(root, wanted) == with_values
    assert elements_with(root, {}) == []
    styles, unvoiced = _by_xpath(root, "style"), _by_xpath(root, "aria-hidden")
    expected = Hidden(
        list(_by_xpath(root, "hidden")),
        [element for element, style in styles.items() if hides(style)],
        [element for element, value in unvoiced.items() if value == "true"],
    )
    assert walk_hidden_elements(root) == hidden_elements(root) == expected
    # What metadata's byline fallback looked for: links whose rel, AUTHOR lowered, holds author.
    fold = str.maketrans("AUTHOR", "author")
    authors = [
        element
        for element, rel in _by_xpath(root, "rel").items()
        if element.tag == "a" and "author" in rel.translate(fold)
    ]
    assert walk_elements_holding(root, "a", "rel", "author") == authors
    assert elements_holding(root, "a", "rel", "author") == authors


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40))
def test_queries_find_what_xpath_finds(fragments: list[str]) -> None:
    root = parse("<html><body>" + "".join(fragments) + "x</body></html>")
    assert root is not None
    _assert_read_as_xpath_reads(root)


GOLDEN_SOURCES = sorted((Path(__file__).parents[1] / "golden").glob("*/source.html"))


@pytest.mark.parametrize("source", GOLDEN_SOURCES, ids=lambda path: path.parent.name)
def test_queries_read_the_golden_pages_as_xpath_does(source: Path) -> None:
    root = parse(source.read_text(encoding="utf-8"))
    assert root is not None
    _assert_read_as_xpath_reads(root)


def _hidden_queries() -> list[Callable[[etree._Element], Hidden]]:
    queries: list[Callable[[etree._Element], Hidden]] = [walk_hidden_elements]
    if COMPILED:
        from addon.core import _dom

        queries.append(lambda root: Hidden(*_dom.hidden_elements(root)))
    return queries


def test_hidden_elements_finds_each_kind_in_document_order() -> None:
    root = parse(
        "<div hidden><p style='DISPLAY: none'>a</p><p style='display:block'>b</p>"
        "<b aria-hidden=true hidden>c</b><i aria-hidden=false>d</i></div>"
        "<span style='color:red;  display :  none '>e</span>"
    )
    assert root is not None
    for query in _hidden_queries():
        found = query(root)
        assert [element.tag for element in found.flagged] == ["div", "b"]
        assert [element.text for element in found.styled] == ["a", "e"]
        assert [element.text for element in found.unvoiced] == ["c"]


SPACES = st.sampled_from(["", " ", "  ", "\t", "\u00a0", "\n"])
DISPLAYS = st.sampled_from(["display", "DISPLAY", "Display", "dİsplay", "dısplay", "dis play", "x"])
NONES = st.sampled_from(["none", "NONE", "nonE", "Nöne", "no ne", "n"])
STYLES = st.builds(
    lambda *parts: "".join(parts), SPACES, DISPLAYS, SPACES, st.just(":"), SPACES, NONES, SPACES
)


@settings(max_examples=300, deadline=None)
@given(st.lists(STYLES | st.sampled_from([";", "color:red", "d"]), max_size=3).map("".join))
def test_the_compiled_style_test_folds_as_hides_does(style: str) -> None:
    # Only U+0020 is dropped and only the capitals of DISPLAYNOE lowered: a tab, a
    # no-break space, a dotted or dotless i and the lowercase of other letters do not count.
    root = etree.Element("div")
    root.set("style", style)
    for query in _hidden_queries():
        assert (query(root).styled == [root]) is hides(style)


def test_elements_holding_a_word_want_the_plain_tag_and_attribute() -> None:
    root = etree.Element("div")
    plain = etree.SubElement(root, "a", rel="me Author")
    etree.SubElement(root, "{http://example.com/ns}a", rel="author")
    etree.SubElement(root, "a", {"{http://example.com/ns}rel": "author"})
    etree.SubElement(root, "a", rel="auth")
    assert walk_elements_holding(root, "a", "rel", "author") == [plain]
    assert elements_holding(root, "a", "rel", "author") == [plain]


def _unlinked_twice(source: str, picks: list[int]) -> tuple[bytes, bytes]:
    """Remove the same elements of two copies of a page, by lxml's strip and by unlinking."""
    from addon.core import _dom

    results = []
    for unlink in (walk_unlink_all, _dom.unlink_all):
        root = parse(source)
        assert root is not None
        elements = list(root.iter(etree.Element))
        chosen = [elements[pick % len(elements)] for pick in picks]
        unlink(root, chosen)
        assert all(element is root or root not in element.iterancestors() for element in chosen)
        assert root.getroottree().getroot() is root  # the page itself stays
        results.append(etree.tostring(root))
    return results[0], results[1]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(FRAGMENTS), max_size=40),
    st.lists(st.integers(min_value=0, max_value=200), max_size=8),
)
def test_unlinking_removes_what_the_strip_removes(fragments: list[str], picks: list[int]) -> None:
    # Elements nested in one another, the root itself and text between them among the picks.
    source = "<html><body>a" + "".join(fragments) + "x</body></html>"
    stripped, unlinked = _unlinked_twice(source, picks)
    assert unlinked == stripped


def test_unlinking_keeps_tails_and_skips_the_root() -> None:
    source = "<html><body><p>a<b>b</b>c<i>d<u>e</u>f</i>g</p><p>h</p></body></html>"
    stripped, unlinked = _unlinked_twice(source, [0, 4, 5, 3])  # html, i, u (in i), b
    assert unlinked == stripped
    assert b"<p>acg</p><p>h</p>" in unlinked


def test_unlinked_subtrees_are_freed_with_their_last_proxy() -> None:
    from addon.core import _dom

    root = parse("<html><body><div><p>a</p><p>b</p></div>tail</body></html>")
    assert root is not None
    div = root.find(".//div")
    inner = div[1]
    _dom.unlink_all(root, [div])
    del div  # the subtree lives on while a proxy of it does
    assert inner.text == "b" and inner.getparent() is not None
    assert etree.tostring(root) == b"<html><body>tail</body></html>"
