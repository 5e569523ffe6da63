"""Tests for addon.core.output.anchors: in-page links keep their targets."""

from __future__ import annotations

import lxml.html
from lxml.html import HtmlElement

from addon.core import Article, extract
from addon.core.output.anchors import page_fragment, usable_id
from addon.core.output.blocks import build_blocks
from addon.core.output.urls import UrlBase

PAGE = "https://example.org/guide/page.html"


def _html(body: str) -> HtmlElement:
    """Build the blocks of a body and parse their HTML back under one div."""
    root = lxml.html.document_fromstring(f"<html><body>{body}</body></html>")
    blocks = build_blocks([root.body], base_url=PAGE)
    return lxml.html.fragment_fromstring("".join(b.html for b in blocks), create_parent="div")


def _ids(tree: HtmlElement) -> list[tuple[str, str]]:
    return [(el.tag, el.get("id", "")) for el in tree.iter() if el.get("id")]


def test_footnote_links_and_their_notes_keep_their_ids() -> None:
    tree = _html(
        "<p>A claim.<sup id='cite_ref-1' class='reference'><a href='#cite_note-1'>[1]</a></sup></p>"
        "<ol class='references'><li id='cite_note-1'><a href='#cite_ref-1'>^</a> A source.</li>"
        "</ol><p id='unlinked'>Nobody links here.</p>"
    )
    assert _ids(tree) == [("sup", "cite_ref-1"), ("li", "cite_note-1")]
    assert [a.get("href") for a in tree.iter("a")] == ["#cite_note-1", "#cite_ref-1"]


def test_an_id_on_an_unwrapped_element_moves_to_where_it_still_stands() -> None:
    # A Wikipedia heading's id is on a span inside it; an old-style target is an
    # empty named anchor; a section's id is on a wrapper div.
    tree = _html(
        "<p><a href='#History'>History</a> <a href='#old'>old</a> <a href='#sec'>sec</a></p>"
        "<h2><span class='mw-headline' id='History'>History</span></h2>"
        "<p><a name='old'></a>An old target.</p>"
        "<div id='sec'><h3>Section</h3><p>Text.</p></div>"
    )
    assert _ids(tree) == [("h2", "History"), ("p", "old"), ("h3", "sec")]


def test_a_wrappers_linked_id_wins_the_first_blocks_place() -> None:
    # Issue 28 (2): readability-even mozilla-1's tab panels, `section#themes` in
    # `div#customizers-wrapper`: the heading took the wrapper's id, the section's
    # had no place left, and the last "Next" link to #themes went nowhere.
    tree = _html(
        "<div id='wrapper'><section id='themes'><h3>Themes</h3><p>Pick a theme.</p>"
        "<p><a href='#themes'>Next</a></p></section></div>"
    )
    assert _ids(tree) == [("h2", "themes")]
    # Linked or not, the wrappers' ids go to the block in order where places remain.
    tree = _html("<div id='wrapper'><section id='themes'><h3>Th<b>em</b>es</h3></section></div>")
    assert _ids(tree) == [("h2", "wrapper"), ("b", "themes")]


def test_an_empty_boxs_id_goes_to_no_block_after_it_unless_linked() -> None:
    # readability-even aktualne: an ad's empty `div#article-adsense` gave its id to
    # the heading of the box after it.
    tree = _html(
        "<div id='article-adsense'><script>ads()</script></div>"
        "<div class='timeline'><h3>Now</h3><p>News of the day.</p></div>"
    )
    assert _ids(tree) == []
    # A link points at it: the next block is where the reader lands.
    tree = _html(
        "<p><a href='#end'>To the end</a></p><div id='end'></div><h3>End</h3><p>Text.</p>"
    )
    assert _ids(tree) == [("h2", "end")]


def test_heading_ids_stay_without_a_link_for_links_from_elsewhere() -> None:
    tree = _html("<h2 id='usage'>Usage</h2><p>Text of the section.</p>")
    assert _ids(tree) == [("h2", "usage")]


def test_an_id_is_kept_once_and_never_in_the_reader_pages_own_namespace() -> None:
    tree = _html(
        "<p><a href='#a'>a</a> <a href='#pv-content'>b</a> <a href='#two words'>c</a></p>"
        "<p id='a'>First.</p><p id='a'>Second.</p><p id='pv-content'>Reserved.</p>"
    )
    assert _ids(tree) == [("p", "a")]


def test_a_link_to_the_page_itself_becomes_a_fragment_and_others_stay_absolute() -> None:
    tree = _html(
        f"<p><a href='{PAGE}#intro'>here</a> <a href='page.html#intro'>rel</a> "
        "<a href='other.html#intro'>other</a></p><h2 id='intro'>Intro</h2>"
    )
    assert [a.get("href") for a in tree.iter("a")] == [
        "#intro",
        "#intro",
        "https://example.org/guide/other.html#intro",
    ]


def test_page_fragment_reads_only_links_into_the_page() -> None:
    base = UrlBase.of(PAGE)
    assert page_fragment("#note%201", base) == "note 1"
    assert page_fragment(f"{PAGE}#x", base) == "x"
    assert page_fragment("/elsewhere#x", base) == ""
    assert page_fragment("page.html", base) == ""
    assert page_fragment("#x", UrlBase.of(None)) == "x"


def test_usable_ids() -> None:
    assert usable_id("cite_note-1") and usable_id("Überblick")
    assert not usable_id("") and not usable_id("a b") and not usable_id("pv-x")
    assert not usable_id("a\x00")


def test_a_table_of_contents_leads_to_its_sections_in_the_reader_view() -> None:
    body = "".join(
        f"<h2 id='s{n}'>Section {n}</h2><p>{'Words of the section, long enough. ' * 6}</p>"
        for n in range(3)
    )
    toc = "".join(f"<li><a href='#s{n}'>Section {n}</a></li>" for n in range(3))
    page = (
        "<html><head><title>Guide</title></head><body><article><h1>Guide</h1>"
        f"<h2>Contents</h2><ul>{toc}</ul>{body}</article></body></html>"
    )
    article = extract(page, url=PAGE)
    assert isinstance(article, Article)
    tree = lxml.html.fragment_fromstring(article.html, create_parent="div")
    ids = {el.get("id") for el in tree.iter() if el.get("id")}
    hrefs = [a.get("href") for a in tree.iter("a")]
    assert hrefs == ["#s0", "#s1", "#s2"] and {"s0", "s1", "s2"} <= ids
    # The sections stay beside "Contents", not under it.
    assert [el.tag for el in tree.iter("h2", "h3")] == ["h2"] * 4
