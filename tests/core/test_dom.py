"""Tests for addon/core/dom.py."""

from __future__ import annotations

from lxml import etree

from addon.core.dom import is_element, text_content
from addon.core.preprocess import parse


def test_text_content_joins_the_text_of_every_descendant_without_the_tail() -> None:
    root = etree.fromstring("<div>a<p>b<i>c</i>d</p>e</div>")
    paragraph = root[0]
    assert text_content(paragraph) == "bcd"
    assert text_content(root) == "abcde"
    assert type(text_content(root)) is str  # a plain string, not one tied to the tree


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
