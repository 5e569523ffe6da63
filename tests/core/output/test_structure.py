"""Tests for mending the structure cleaning leaves invalid."""

from __future__ import annotations

import lxml.html
import pytest
from lxml import etree

from addon.core.output.structure import mend_structure, unwrap


def mended(html: str) -> str:
    """Mend a fragment under a holder and serialise what it holds."""
    holder = lxml.html.fragment_fromstring(html, create_parent="div")
    mend_structure(holder)
    parts = [etree.tostring(child, encoding="unicode", method="html") for child in holder]
    return "".join(parts) or (holder.text or "")


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        # readability-even cnet-svg-classes: the author link went, "por" stayed.
        ("<ul>por </ul>", "<p>por </p>"),
        # table-style-attributes: a list written straight inside a list.
        ("<ul><ul><li>a</li></ul></ul>", "<ul><li><ul><li>a</li></ul></li></ul>"),
        # wcxb-dev 3074: a list of a heading, a word and a list stays one block.
        (
            "<ul><h2>REQUIRED</h2>LINUX<br><ul><li>OS</li></ul></ul>",
            "<ul><li><h2>REQUIRED</h2>LINUX<br><ul><li>OS</li></ul></li></ul>",
        ),
        # salon-1 and others: a nested list or stray words after an item go into it.
        (
            "<ul><li>one</li><ul><li>sub</li></ul> tail<li>two</li></ul>",
            "<ul><li>one<ul><li>sub</li></ul> tail</li><li>two</li></ul>",
        ),
        ("<ol>lead <b>in</b><li>one</li></ol>", "<ol><li>lead <b>in</b></li><li>one</li></ol>"),
        ("<ul><li>fine</li></ul>", "<ul><li>fine</li></ul>"),
        # wcxb-dev 4492: a page jump's links after an item, the space before them
        # the item's tail; moved in without it, "Oct 26, 2015" and "2" ran together.
        (
            "<ul><li><a>Oct 26, 2015</a></li> <a>2</a> <a>3</a></ul>",
            "<ul><li><a>Oct 26, 2015</a> <a>2</a> <a>3</a></li></ul>",
        ),
    ],
)
def test_every_list_holds_items_only(html: str, expected: str) -> None:
    assert mended(html) == expected


def test_a_term_list_without_terms_unfolds_into_its_descriptions() -> None:
    # A wiki's indented lines (":" in MediaWiki) are <dl><dd> with no <dt>.
    assert mended('<dl id="eq"><dd><img src="/e.svg" alt="E = mc2">.</dd></dl>') == (
        '<p id="eq"><img src="/e.svg" alt="E = mc2">.</p>'
    )
    assert mended("<dl><dd><p>a</p><p>b</p></dd></dl>") == "<p>a</p><p>b</p>"
    # Words beside blocks get paragraphs: at the top, loose words stand in no block.
    assert mended("<dl><dd>lead<p>a</p>tail</dd></dl>") == "<p>lead</p><p>a</p><p>tail</p>"
    kept = "<dl><dt>Term</dt><dd>Description</dd></dl>"
    assert mended(kept) == kept


def test_a_term_list_without_descriptions_becomes_a_list_of_its_terms() -> None:
    # wcxb-dev 4498: Joomla's "Details" term, its values (links) left out, stood in a
    # list of a term alone; axe-core: definition-list, "serious".
    assert mended("<dl>\n<dt> Details </dt>\n</dl>") == "<ul>\n<li> Details </li>\n</ul>"
    assert mended('<dl><dt id="a">Author</dt><dt>Date</dt></dl>') == (
        '<ul><li id="a">Author</li><li>Date</li></ul>'
    )


def test_a_header_cell_that_says_nothing_is_a_data_cell() -> None:
    # wcxb-dev 4674: a comparison table's empty corner cell; axe-core: empty-table-header.
    assert mended("<table><tr><th> </th><th>Navee GT3</th></tr></table>") == (
        '<table tabindex="0"><tr><td> </td><th>Navee GT3</th></tr></table>'
    )
    named = '<table><tr><th><img src="/a.png" alt="Range"></th></tr></table>'
    assert mended(named) == named.replace("<table>", '<table tabindex="0">')


def test_a_heading_that_says_nothing_is_unwrapped() -> None:
    assert mended('<h2><img src="/i.png"></h2><h3> </h3>') == '<img src="/i.png"> '
    named = '<h2><img src="/i.png" alt="Our team"></h2>'
    assert mended(named) == named


def test_what_scrolls_is_reached_by_the_keyboard() -> None:
    assert mended('<pre tabindex="-1">code</pre>') == '<pre tabindex="0">code</pre>'
    assert mended("<table><tr><td>1</td></tr></table>") == (
        '<table tabindex="0"><tr><td>1</td></tr></table>'
    )


def test_unwrap_keeps_text_children_and_tail_in_place() -> None:
    holder = lxml.html.fragment_fromstring("<p>a<b>b<i>c</i>d</b>e</p>")
    unwrap(holder.find("b"))
    assert etree.tostring(holder, encoding="unicode") == "<p>ab<i>c</i>de</p>"


def test_text_holding_control_characters_is_moved_without_them() -> None:
    # The parser keeps a \x03 that lxml's API refuses to store: moving it must not raise.
    raw = lxml.html.document_fromstring(b"<ul>a\x03b<li>c</li></ul>").find(".//ul")
    assert raw is not None and "\x03" in (raw.text or "")
    mend_structure(raw.getparent())
    mended_list = etree.tostring(raw, encoding="unicode", method="html")
    assert mended_list == "<ul><li>ab</li><li>c</li></ul>"
