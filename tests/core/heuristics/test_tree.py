"""From selected lines back to subtrees: link-dense lines, listings, enclosing the headline."""

from __future__ import annotations

from dataclasses import replace

import lxml.html
import pytest
from lxml.html import HtmlElement

from addon.core.heuristics.tree import (
    choose_content,
    is_permalink_heading,
    line_of,
    link_share,
    lowest_common_ancestor,
)
from addon.core.paper.danag import Selection
from addon.core.paper.lines import Line, build_lines
from addon.core.paper.titlefinder import Headline
from addon.core.params import SOURCE_HEADINGS, DanagParams, ExtendParams
from addon.core.result import Region

EXTEND = ExtendParams(max_link_share=0.8, listing_min_link_share=0.2)


def _lines(body: str) -> tuple[HtmlElement, list[Line]]:
    root = lxml.html.document_fromstring(f"<html><body>{body}</body></html>")
    return root, build_lines(root, DanagParams())


def _everything(lines: list[Line]) -> Selection:
    return Selection([1] * len(lines), [], list(range(len(lines))))


def _chosen_text(body: str, extend: ExtendParams = EXTEND) -> str:
    _, lines = _lines(body)
    chosen = choose_content(lines, _everything(lines), None, extend)
    texts = [lines[i].text for i in chosen.lines]
    return " | ".join(" ".join(t.split()) for t in texts)


def test_a_link_dense_line_in_an_article_is_left_out() -> None:
    body = (
        "<p>" + "A long paragraph of the story itself. " * 10 + "</p>"
        "<p><a href='/a'>Share this story with your friends</a></p>"
        "<p>" + "Another paragraph that the story needs. " * 10 + "</p>"
    )
    text = _chosen_text(body)
    assert "Share this story" not in text
    assert "Another paragraph" in text


def test_in_a_listing_the_links_are_the_content() -> None:
    items = "".join(
        f"<li><a href='/p/{n}'>Product number {n} with a long name</a></li>" for n in range(10)
    )
    text = _chosen_text(f"<p>Our air purifiers.</p><ul>{items}</ul>")
    assert "Product number 7 with a long name" in text


def test_without_the_listing_rule_a_listing_loses_its_links() -> None:
    items = "".join(
        f"<li><a href='/p/{n}'>Product number {n} with a long name</a></li>" for n in range(10)
    )
    off = ExtendParams(max_link_share=0.8)
    assert "Product number" not in _chosen_text(f"<p>Our air purifiers.</p><ul>{items}</ul>", off)


def test_link_share_counts_link_text_over_all_text() -> None:
    _, lines = _lines("<p>abcd <a href='/'>efgh</a></p><p>ijkl</p>")
    share = link_share(lines, range(len(lines)))
    assert abs(share - 4 / 13) < 0.01
    assert link_share(lines, []) == 0.0


def test_lowest_common_ancestor_and_line_of() -> None:
    root, lines = _lines("<div id='a'><p id='x'>one</p><div><p id='y'>two</p></div></div><p>z</p>")
    x, y = root.get_element_by_id("x"), root.get_element_by_id("y")
    assert lowest_common_ancestor([x, y]).get("id") == "a"
    assert lowest_common_ancestor([x]) is x
    index = line_of(lines, y)
    assert index is not None
    assert lines[index].text.strip() == "two"


def test_lowest_common_ancestor_of_many_elements_in_shared_branches() -> None:
    root, _ = _lines(
        "<div id='a'><div id='b'><p id='x'>1</p><p id='y'>2</p></div>"
        "<div id='c'><p id='z'>3</p></div></div><p id='w'>4</p>"
    )
    x, y, z, w = (root.get_element_by_id(name) for name in "xyzw")
    assert lowest_common_ancestor([x, y]).get("id") == "b"
    # y's walk up passes b, which x's chain holds; z's meets the chain at a.
    assert lowest_common_ancestor([x, y, z, y]).get("id") == "a"
    assert lowest_common_ancestor([y, z, x]).get("id") == "a"
    assert lowest_common_ancestor([x, y, z, w]).tag == "body"
    assert lowest_common_ancestor([x, root, y]) is root


def _selected_only(lines: list[Line], chosen: list[int]) -> Selection:
    return Selection([1] * len(lines), [], chosen)


_LANDING = (
    "<div id='page'><section><h2>Fast</h2><p>" + "Sync your files in seconds. " * 8 + "</p>"
    "</section><section><h2>Private</h2><p>Your files stay yours.</p></section>"
    "<section><h2>Cheap</h2><p>" + "One low price for every team. " * 8 + "</p></section>"
    "<p><a href='/a'>Pricing</a> <a href='/b'>Blog</a> <a href='/c'>Jobs</a></p></div>"
    "<p>Outside the page.</p>"
)


def _landing_text(extend: ExtendParams) -> str:
    _, lines = _lines(_LANDING)
    dense = [i for i, line in enumerate(lines) if any(w in line.text for w in ("seconds", "price"))]
    chosen = choose_content(lines, _selected_only(lines, dense), None, extend)
    return " | ".join(" ".join(lines[i].text.split()) for i in chosen.lines)


def test_without_a_headline_the_gaps_inside_the_subtree_are_kept() -> None:
    text = _landing_text(ExtendParams(max_link_share=0.8, keep_unselected_within=True))
    assert "Your files stay yours." in text  # between the dense sections
    assert "Fast" in text  # before the first selected line, inside the subtree
    assert "Pricing" not in text  # link-dense lines stay out
    assert "Outside the page" not in text  # beyond the selected lines' subtree


def test_without_the_rule_only_the_selected_lines_are_kept() -> None:
    text = _landing_text(ExtendParams(max_link_share=0.8))
    assert "Sync your files" in text
    assert "Your files stay yours." not in text


def test_lines_kept_only_for_their_place_are_not_evidence_of_an_article() -> None:
    _, lines = _lines(_LANDING)
    dense = [i for i, line in enumerate(lines) if any(w in line.text for w in ("seconds", "price"))]
    extend = ExtendParams(max_link_share=0.8, keep_unselected_within=True)
    chosen = choose_content(lines, _selected_only(lines, dense), None, extend)
    assert chosen.evidence == dense  # the reader check counts DANAg's lines only
    assert set(dense) < set(chosen.lines)


def test_without_the_rule_every_kept_line_is_evidence() -> None:
    _, lines = _lines(_LANDING)
    dense = [i for i, line in enumerate(lines) if "seconds" in line.text]
    chosen = choose_content(lines, _selected_only(lines, dense), None, ExtendParams())
    assert chosen.evidence is None
    assert chosen.lines == dense


def _heading_line(body: str) -> Line:
    _, lines = _lines(body)
    return next(line for line in lines if line.tag == "h2")


def test_a_heading_linked_to_itself_is_a_permalink() -> None:
    own = _heading_line("<h2 id='usage'><a href='#usage'>Usage</a></h2>")
    inside = _heading_line("<h2><a name='usage' href='#usage'>Usage</a></h2>")
    section = _heading_line("<section id='usage'><h2><a href='#usage'>Usage</a></h2></section>")
    assert all(is_permalink_heading(line) for line in (own, inside, section))


def test_a_heading_linked_elsewhere_is_no_permalink() -> None:
    other = _heading_line("<h2 id='a'><a href='#b'>Usage</a></h2><p id='b'>Text</p>")
    page = _heading_line("<h2 id='a'><a href='/usage#a'>Usage</a></h2>")
    bare = _heading_line("<h2 id='a'><a href='#'>Usage</a></h2>")
    paragraph = build_lines(
        lxml.html.document_fromstring("<p id='a'><a href='#a'>Usage</a></p>"), DanagParams()
    )[-1]
    assert not any(is_permalink_heading(line) for line in (other, page, bare, paragraph))


def test_permalink_headings_are_kept_among_the_paragraphs() -> None:
    body = (
        "<p>" + "A long paragraph of the guide itself. " * 10 + "</p>"
        "<h2 id='setup'><a href='#setup'>Setting up the server</a></h2>"
        "<p>" + "Another paragraph that the guide needs. " * 10 + "</p>"
        "<h2 id='x'><a href='#elsewhere'>Jump to another section</a></h2>"
    )
    spared = _chosen_text(body, replace(EXTEND, spare_permalink_headings=True))
    assert "Setting up the server" in spared
    assert "Jump to another section" not in spared
    assert "Setting up the server" not in _chosen_text(body)


def test_a_reference_lists_entries_are_never_link_dense() -> None:
    entry = (
        "<li id='cite_note-1'><a href='#cite_ref-1'>^</a> <cite><a href='/a'>Lee, Ann</a> "
        "(2004). <a href='/b'>River Crossings of the North</a>. <a href='/c'>Valley Press</a>."
        "</cite></li>"
    )
    links = "".join(f"<li><a href='/x{n}'>A related story, number {n}</a></li>" for n in range(3))
    body = (
        "<p>" + "A long paragraph of the article itself, with its own words. " * 40 + "</p>"
        f"<ol>{entry * 3}</ol><ul>{links}</ul>"
    )
    text = _chosen_text(body, replace(EXTEND, spare_permalink_headings=True))
    assert "River Crossings" in text
    assert "A related story" not in text


def test_a_sentence_whose_links_only_run_a_script_is_the_articles() -> None:
    # readability-even clean-links' last line: a study note's link around the story's
    # own words ("Ah Bartleby! Ah humanity!"); a control's label so linked still goes.
    prose = "<p>" + "A long paragraph of the story itself, with its own words. " * 40 + "</p>"
    body = (
        f"<div>{prose}<p><a href='javascript:void(0);'>Ah Bartleby! Ah humanity</a>!</p>"
        "<p><a href='javascript:;'>Autoplay</a></p></div>"
    )
    text = _chosen_text(body, replace(EXTEND, spare_permalink_headings=True))
    assert "Ah Bartleby! Ah humanity!" in text
    assert "Autoplay" not in text


# A list whose items DANAg leaves unselected, between selected paragraphs: the
# subtree brings them back, and with them the one item that is all link.
_LIST = (
    "<div id='post'><p>" + "The story opens with a long paragraph of prose. " * 8 + "</p>"
    "<ul><li>Will it end up in the list of things I threw out?</li>"
    "<li><a href='/where'>Where am I going to put it</a>?</li>"
    "<li>Have I included this purchase in my budget?</li></ul>"
    "<p>" + "The story closes with another paragraph of prose. " * 8 + "</p></div>"
)


def _list_text(
    body: str, extend: ExtendParams, *, thread: bool = False, host: str | None = None
) -> str:
    _, lines = _lines(body)
    dense = [i for i, line in enumerate(lines) if "story" in line.text]
    selection = _selected_only(lines, dense)
    chosen = choose_content(lines, selection, None, extend, thread=thread, host=host)
    return " | ".join(" ".join(lines[i].text.split()) for i in chosen.lines)


_WITHIN = ExtendParams(max_link_share=0.8, link_dense_min_run=2, keep_unselected_within=True)


def test_a_link_item_among_prose_items_of_the_subtree_is_kept() -> None:
    on = replace(_WITHIN, spare_within_subtree=True)
    assert "Where am I going to put it" in _list_text(_LIST, on)
    # Judged among DANAg's selected lines alone, its neighbours are not content.
    assert "Where am I going to put it" not in _list_text(_LIST, _WITHIN)


def test_a_link_item_among_short_or_linked_items_stays_out() -> None:
    on = replace(_WITHIN, spare_within_subtree=True)
    short = _LIST.replace("Will it end up in the list of things I threw out?", "Save: 5%")
    assert "Where am I going to put it" not in _list_text(short, on)
    linked = _LIST.replace(
        "Have I included this purchase in my budget?",
        "<a href='/t'>Have I included this purchase</a> in my budget?",
    )
    assert "Where am I going to put it" not in _list_text(linked, on)


def test_a_link_line_between_lines_of_another_kind_stays_out() -> None:
    on = replace(_WITHIN, spare_within_subtree=True)
    mixed = _LIST.replace("<li>Will it end up in the list of things I threw out?</li>", "").replace(
        "<ul>", "<p>Will it end up in the list of things I threw out?</p><ul>"
    )
    assert "Where am I going to put it" not in _list_text(mixed, on)


# A weekly report's list: two items that are each one link, then items of prose,
# one of them opening a sub-list of links (readability-even firefox-nightly-blog).
_REPORT = (
    "<div id='post'><p>" + "The story opens with a long paragraph of prose. " * 8 + "</p>"
    "<ul><li><a href='/year'>Here is our year in review!</a></li>"
    "<li><a href='/perf'>Here is our performance review!</a></li>"
    "<li>We have just landed a fix that stops an update while another copy runs.</li>"
    "<li>Work still in progress:<ul><li><a href='/b1'>Bug 1 - the window flickers</a></li>"
    "<li><a href='/b2'>Bug 2 - add a count of windows</a></li></ul></li>"
    "<li>Thanks to a volunteer, logins can now be imported from a file.</li></ul>"
    "<p>" + "The story closes with another paragraph of prose. " * 8 + "</p></div>"
)


@pytest.mark.parametrize(
    "item",
    [
        "Here is our year in review!",
        "Here is our performance review!",
        "Bug 1 - the window flickers",  # a sub-list under an item of prose
        "Bug 2 - add a count of windows",
    ],
)
def test_link_items_of_a_list_with_prose_items_are_kept(item: str) -> None:
    # Issue 28 (2): link-only blocks inside the content are kept; a list with an
    # item of prose is the article's, its items that are one link too.
    on = replace(_WITHIN, spare_within_subtree=True, spare_list_links=True)
    assert item in _list_text(_REPORT, on)
    assert item not in _list_text(_REPORT, replace(on, spare_list_links=False))


def test_a_list_of_links_only_and_a_menus_sub_list_stay_out() -> None:
    on = replace(_WITHIN, spare_within_subtree=True, spare_list_links=True)
    links = "".join(f"<li><a href='/s{n}'>Another story number {n}</a></li>" for n in range(4))
    closing = "</ul><p>The story closes"
    link_list = _REPORT.replace(closing, "</ul><ul>" + links + closing)
    assert "Another story number 0" not in _list_text(link_list, on)
    menu = _REPORT.replace("Work still in progress:", "<a href='/work'>Work in progress</a>")
    assert "Bug 1" not in _list_text(menu, on)


def test_one_item_of_prose_keeps_a_list_whole() -> None:
    # readability-even wikipedia-3 kept the one "See also" item with words beside its
    # link and lost the five that are only a link.
    on = replace(_WITHIN, spare_within_subtree=True, spare_list_links=True)
    see_also = _REPORT.replace(
        "<li>Thanks to a volunteer, logins can now be imported from a file.</li>",
        "".join(f"<li><a href='/s{n}'>Another story number {n}</a></li>" for n in range(6)),
    )
    assert "Another story number 5" in _list_text(see_also, on)


def test_a_list_of_links_under_a_heading_the_pages_contents_lead_to_is_kept() -> None:
    # readability-even wikipedia: "See also" and its list of links, one of the sections
    # the contents box lists; the list went and left the heading alone.
    on = replace(_WITHIN, spare_within_subtree=True, spare_list_links=True)
    links = "".join(f"<li><a href='/s{n}'>Another story number {n}</a></li>" for n in range(4))
    closing = "</ul><p>The story closes"
    section = f"</ul><h2><span id='See_also'>See also</span></h2><ul>{links}{closing}"
    contents = "<ul><li><a href='#See_also'>See also</a></li></ul>"
    listed = _REPORT.replace(closing, section)
    listed = listed.replace("<div id='post'>", f"{contents}<div id='post'>")
    assert "Another story number 3" in _list_text(listed, on)
    # Without the contents' link, a heading over links is a teaser box's.
    assert "Another story number 3" not in _list_text(listed.replace("#See_also", "#x"), on)


# A news story with two paragraphs that are each one link the newsroom wrote,
# styled as its links in sentences are (readability-even bbc-1).
_STORY_LINKS = (
    "<div id='post'><p>The story opens: he said <a class='story-link' href='/iran'>how many"
    " minds he changed</a> on the deal after an intense sell to the allies.</p>"
    "<p>" + "The story goes on with a long paragraph of prose. " * 6 + "</p>"
    "<p><a class='story-link' href='/five'>Five things we learned from the interview</a></p>"
    "<p><a class='story-link' href='/swerve'>The presidential body swerve</a></p>"
    "<p>" + "The story closes with another paragraph of prose. " * 8 + "</p></div>"
)


def test_link_paragraphs_styled_as_the_storys_links_are_kept() -> None:
    # Issue 28 (2): link-only blocks inside the content are kept.
    on = replace(_WITHIN, spare_within_subtree=True, spare_styled_links=True)
    text = _list_text(_STORY_LINKS, on)
    assert "Five things we learned" in text and "presidential body swerve" in text
    assert "Five things" not in _list_text(_STORY_LINKS, replace(on, spare_styled_links=False))


def test_link_paragraphs_of_another_style_or_a_longer_run_stay_out() -> None:
    on = replace(_WITHIN, spare_within_subtree=True, spare_styled_links=True)
    widget = _STORY_LINKS.replace("class='story-link' href='/five'", "class='rel' href='/5'")
    assert "Five things" not in _list_text(widget, on)
    third = "<p><a class='story-link' href='/3'>A third story</a></p>"
    longer = _STORY_LINKS.replace("<p>The story closes", third + "<p>The story closes")
    assert "Five things" not in _list_text(longer, on)


def test_a_credit_under_a_sections_heading_is_kept_when_prose_follows() -> None:
    # readability-even lazy-image-2: "(Artist: 3ihard)" under a section's heading and
    # picture went as the edge of a link list, five times.
    credit = _STORY_LINKS.replace(
        "<p><a class='story-link' href='/five'>Five things we learned from the interview</a></p>"
        "<p><a class='story-link' href='/swerve'>The presidential body swerve</a></p>",
        "<h3>The living planet</h3><p>(<a class='story-link' href='/art'>Artist: Ann Lee</a>)</p>",
    )
    on = replace(_WITHIN, spare_within_subtree=True, spare_styled_links=True)
    assert "Artist: Ann Lee" in _list_text(credit, on)
    assert "Artist: Ann Lee" not in _list_text(credit, replace(on, spare_styled_links=False))
    last = credit.split("<p>The story closes")[0] + "</div>"  # no prose after it
    assert "Artist: Ann Lee" not in _list_text(last, on)


def test_a_sentence_around_a_link_at_the_contents_end_is_kept() -> None:
    # readability-even iab-1 closes with "Read more about ad blocking here.", a
    # sentence around its link, which went as the content's edge.
    closing = (
        "<div id='post'><p>" + "The story opens with a long paragraph of prose. " * 8 + "</p>"
        "<p>" + "The story closes with another paragraph of prose. " * 8 + "</p>"
        "<p>Read <a href='/more'>more about ad blocking here</a>.</p></div>"
    )
    on = replace(_WITHIN, spare_within_subtree=True, spare_link_sentences=True)
    assert "more about ad blocking here" in _list_text(closing, on)
    off = replace(on, spare_link_sentences=False)
    assert "more about ad blocking here" not in _list_text(closing, off)
    sentence = "Read <a href='/more'>more about ad blocking here</a>."
    back = closing.replace(sentence, "<a href='/'>Back to the blog</a> »")
    assert "Back to the blog" not in _list_text(back, on)


def test_a_linked_heading_between_kept_text_and_a_heading_of_its_rank_is_kept() -> None:
    # readability-even firefox-nightly-blog: an h4 that links to a bug list, between
    # a section's list and the next h4, went as a link line.
    prose = "<p>" + "A paragraph of the story's prose, long enough to count. " * 6 + "</p>"
    section = (
        f"<div id='post'>{prose}<h4>Welcomes</h4><ul><li>{'Amy joins the team. ' * 4}</li></ul>"
        "<h4><a href='/bugs'>Resolved bugs</a></h4>"
        f"<h4>Fixed more than one bug</h4>{prose}</div>"
    )
    on = replace(_WITHIN, spare_within_subtree=True, spare_section_links=True)
    assert "Resolved bugs" in _list_text(section, on)
    assert "Resolved bugs" not in _list_text(section, replace(on, spare_section_links=False))
    teaser = section.replace("<h4>Fixed more than one bug</h4>", "")  # prose after it
    assert "Resolved bugs" not in _list_text(teaser, on)


_INTRO = "<p>" + "The story opens with a long paragraph of prose. " * 8 + "</p>"


def _items_after_prose(item: str, count: int = 3) -> str:
    """Return a post of a paragraph of prose, then `count` items (`item`, {n} numbered)."""
    return f"<div id='post'>{_INTRO}{''.join(item.format(n=n) for n in range(count))}</div>"


def test_a_linked_heading_over_a_section_of_its_own_is_kept() -> None:
    # Issue 28 (2): a listicle's item titles, each linking to the shop, went as link
    # lines while their reviews stayed: a run of two link lines with the "map" link
    # under each (wcxb-dev 4340; 4362, odd 4917's FAQ questions alike).
    item = (
        "<div class='item'><h3><a href='/shop/{n}'>Sewing machine {n}</a></h3>"
        "<p><a href='/shop/{n}/map'>map</a></p>"
        "<p>" + "The story of this machine, told at length. " * 6 + "</p>"
        "<p>" + "More of the story: what it sews and how well. " * 6 + "</p></div>"
    )
    listicle = _items_after_prose(item)
    on = replace(_WITHIN, spare_within_subtree=True, section_link_min_chars=400)
    assert all(f"Sewing machine {n}" in _list_text(listicle, on) for n in range(3))
    off = replace(on, section_link_min_chars=0)
    assert "Sewing machine 1" not in _list_text(listicle, off)
    # A teaser's excerpt is shorter: its title stays out.
    short = listicle.replace("<p>" + "More of the story: what it sews and how well. " * 6, "<p>")
    assert "Sewing machine 1" not in _list_text(short, on)
    # A related story's box set in the text: the prose after it is not the box's.
    boxed = (
        f"<div id='post'>{_INTRO}<aside><h3><a href='/other'>Another tale</a></h3>"
        "<p><a href='/other'>Read it</a></p></aside>"
        + "<p>"
        + "The story goes on after the box, at length. " * 12
        + "</p></div>"
    )
    assert "Another tale" not in _list_text(boxed, on)


def test_a_heading_linking_to_another_site_names_its_short_section() -> None:
    # wcxb-dev 4106: 60 brands, each "<h2><a href='https://brand.com/'>Brand</a></h2>"
    # over a short description; 46 went nameless. A teaser links to the site itself.
    item = (
        "<div class='brand'><h2><a href='https://brand{n}.example/'>Brand {n}</a></h2>"
        "<p><a href='https://brand{n}.example/shop'>Shop</a></p>"
        "<p>" + "The story of this brand, in brief. " * 4 + "</p></div>"
    )
    brands = _items_after_prose(item)
    on = replace(
        _WITHIN, spare_within_subtree=True, section_link_min_chars=400, item_link_min_chars=100
    )
    assert "Brand 1" in _list_text(brands, on, host="guide.example")
    assert "Brand 1" not in _list_text(
        brands, replace(on, item_link_min_chars=0), host="guide.example"
    )
    assert "Brand 1" not in _list_text(brands, on)  # the page's site unknown
    # A subdomain is the same site: a teaser of the site's own story.
    assert "Brand 1" not in _list_text(brands, on, host="example")
    teasers = brands.replace("https://brand", "/posts/brand")
    assert "Brand 1" not in _list_text(teasers, on, host="guide.example")


def test_a_linked_heading_that_leads_nowhere_keeps_a_short_section() -> None:
    # A FAQ's accordion: each question a toggle ("#", role=button) over its answer,
    # shorter than a listicle item's review (odd 4917); a named anchor (0406).
    item = (
        "<div class='toggle'><h3><a href='#' role='button'>Question {n}?</a></h3>"
        "<p><a href='#'>Open</a></p>"
        "<div><p>" + "The story's short answer. " * 4 + "</p></div></div>"
    )
    faq = _items_after_prose(item)
    on = replace(_WITHIN, spare_within_subtree=True, section_link_min_chars=400)
    assert all(f"Question {n}?" in _list_text(faq, on) for n in range(3))
    named = faq.replace("<a href='#' role='button'>", "<a name='q'>")
    assert "Question 1?" in _list_text(named, on)
    # A link elsewhere (a forum post's permalink) needs the longer section.
    assert "Question 1?" not in _list_text(faq.replace("'#' role='button'", "'#p21'"), on)
    assert "Question 1?" not in _list_text(faq, replace(on, section_link_min_chars=0))


def test_a_list_of_links_under_the_articles_sources_heading_is_kept() -> None:
    # Issue 28: "a closing list of references is gone" (wcxb-dev 2722's "References &
    # Sources", 4582's "References"): a list of links only, left out as a link list.
    prose = "<p>" + "The story's argument, set out at length in prose. " * 8 + "</p>"
    sources = "".join(
        f"<li><a href='https://journal.example/{n}'>Paper {n}</a></li>" for n in range(4)
    )
    body = f"<div id='post'>{prose}<h2>{{heading}}</h2><ol>{sources}</ol>{prose}</div>"
    on = replace(_WITHIN, spare_within_subtree=True, spare_list_links=True)
    cited = replace(on, source_headings=SOURCE_HEADINGS)
    assert "Paper 2" in _list_text(body.format(heading="References &amp; Sources"), cited)
    assert "Paper 2" in _list_text(body.format(heading="Sources¶"), cited)
    assert "Paper 2" not in _list_text(body.format(heading="References"), on)
    assert "Paper 2" not in _list_text(body.format(heading="Related posts"), cited)


def test_a_posts_linked_date_and_author_are_kept_in_a_thread() -> None:
    # XenForo's "<a itemprop=url><time>Jan 11, 2024</time></a>" over each post, a
    # permalink: a run of link lines with the poster's name (wcxb-dev 0522, 0532).
    post = (
        "<div class='message'><ul><li><a href='/members/ann'>ann</a></li>"
        "<li><a href='/t/1/post-{n}'><time datetime='2024-01-1{n}'>Jan 1{n}, 2024</time></a>"
        "</li></ul><div class='body'><p>" + "The story of my repair, post {n}. " * 8 + "</p>"
        "</div></div>"
    )
    thread = f"<div id='thread'>{''.join(post.format(n=n) for n in range(3))}</div>"
    on = replace(_WITHIN, spare_within_subtree=True, spare_post_attribution=True)
    assert "Jan 11, 2024" in _list_text(thread, on, thread=True)
    assert "Jan 11, 2024" not in _list_text(thread, on)  # not a thread: a byline's link
    assert "Jan 11, 2024" not in _list_text(
        thread, replace(on, spare_post_attribution=False), thread=True
    )
    # The poster's name, a link to the profile marked as the author's.
    assert "ann" not in _list_text(thread, on, thread=True).split(" | ")
    named = thread.replace("href='/members/ann'", "href='/members/ann' class='username'")
    assert "ann" in _list_text(named, on, thread=True).split(" | ")
    # A link that says more than its date leads elsewhere.
    more = thread.replace("Jan 11, 2024</time>", "Jan 11, 2024</time> in Repairs")
    assert "Jan 11, 2024" not in _list_text(more, on, thread=True)


def test_a_list_of_links_a_paragraph_announces_with_a_colon_is_kept() -> None:
    # wcxb-dev 4110: "...explore our blog posts about dress codes for tips:" over four
    # links, left out as a link list: the sentence ended on nothing.
    links = "".join(f"<li><a href='/guides/{n}'>Dress code guide {n}</a></li>" for n in range(4))
    lead = "The story of the working wardrobe goes on in our guides about dress codes"
    body = f"<div id='post'>{_INTRO}<p>{{lead}}</p><ul>{links}</ul>{_INTRO}</div>"
    on = replace(_WITHIN, spare_within_subtree=True, spare_list_links=True)
    announced = replace(on, spare_announced_lists=True)
    assert "Dress code guide 2" in _list_text(body.format(lead=lead + ":&nbsp;"), announced)
    assert "Dress code guide 2" not in _list_text(body.format(lead=lead + ":"), on)
    assert "Dress code guide 2" not in _list_text(body.format(lead=lead + "."), announced)
    related = "If you liked this story you might also like:"
    assert "Dress code guide 2" not in _list_text(body.format(lead=related), announced)
    assert "Dress code guide 2" not in _list_text(body.format(lead="Related:"), announced)
    # A sentence that names what is popular or recommended announces the article's list.
    popular = "The story's most popular guides to dress codes include:"
    assert "Dress code guide 2" in _list_text(body.format(lead=popular), announced)


# A data table between paragraphs whose first column links each row's subject:
# DANAg selects the prose, the subtree brings back the table's rows.
_TABLE = (
    "<div id='post'><p>" + "The story opens with a long paragraph of prose. " * 8 + "</p>"
    "<table><tr><td><p>Application</p></td><td><p>Original size</p></td></tr>"
    "<tr><td><p><a href='/apps/maps'>Maps</a></p></td><td><p>32.7 MB</p></td></tr>"
    "<tr><td><p><a href='/apps/mail'>Mail</a></p></td><td><p>17.8 MB</p></td></tr></table>"
    "<p>" + "The story closes with another paragraph of prose. " * 8 + "</p></div>"
)


def test_a_linked_cell_of_a_data_tables_row_is_kept() -> None:
    # Issue 28 (2): readability-even links-in-tables kept every size of its
    # table of apps under an empty name: each name is a link, left out as
    # link-dense, though the row's other cells and the header row are plain text.
    on = replace(_WITHIN, spare_within_subtree=True)
    text = _list_text(_TABLE, on)
    assert "Maps" in text
    assert "Mail" in text
    assert "Maps" not in _list_text(_TABLE, replace(on, spare_within_subtree=False))


def test_a_linked_cell_beside_links_or_without_a_plain_header_stays_out() -> None:
    on = replace(_WITHIN, spare_within_subtree=True)
    linked_header = _TABLE.replace("<p>Application</p>", "<p><a href='/apps'>Application</a></p>")
    assert "Maps" not in _list_text(linked_header, on)
    linked_row = _TABLE.replace("<p>32.7 MB</p>", "<p><a href='/size'>32.7 MB</a></p>")
    assert "Maps" not in _list_text(linked_row, on)
    assert "17.8 MB" in _list_text(linked_row, on)


def test_a_one_column_tables_linked_cell_under_its_plain_header_is_kept() -> None:
    # MDN (wcxb-dev 2992): "Specification" over a link to the standard; the link
    # went, the header stood over an empty body.
    table = (
        "<div><p>" + "The story opens with a long paragraph of prose. " * 8 + "</p>"
        "<table><thead><tr><th>Specification</th></tr></thead><tbody><tr><td>"
        "<a href='https://tc39.example/spec#sec-promise'>ECMAScript Language Specification</a>"
        "</td></tr></tbody></table>"
        "<p>" + "The story closes with another paragraph of prose. " * 8 + "</p></div>"
    )
    on = replace(_WITHIN, spare_within_subtree=True)
    assert "ECMAScript Language Specification" in _list_text(table, on)
    linked_header = table.replace("<th>Specification</th>", "<th><a href='/s'>Specs</a></th>")
    assert "ECMAScript Language Specification" not in _list_text(linked_header, on)


def test_a_linked_value_beside_its_row_label_is_kept() -> None:
    # Issue 28 (2): readability-even wikipedia's infobox kept "Industry" and
    # "Founder" without their values, each a link: a row's th of plain text
    # labels the cell beside it, whatever the table's first row holds (a logo).
    infobox = _TABLE.replace(
        "<tr><td><p>Application</p></td><td><p>Original size</p></td></tr>",
        "<tr><td><a href='/logo'><img src='/logo.png'></a></td></tr>",
    ).replace("<td><p><a href='/apps/maps'>", "<th>Industry</th><td><p><a href='/apps/maps'>")
    on = replace(_WITHIN, spare_within_subtree=True)
    assert "Maps" in _list_text(infobox, on)
    assert "Mail" not in _list_text(infobox, on)  # no label, no plain header: a link


# An infobox whose linked values stand one under the other: a run of link lines.
_INFOBOX = (
    "<div><p>" + "The story opens with a long paragraph of prose. " * 8 + "</p>"
    "<table><tr><th>Founder</th><td><a href='/wiki/north'>Northport Networks</a></td></tr>"
    "<tr><th>Products</th><td><a href='/wiki/suite'>Harbour Suite</a></td></tr>"
    "<tr><th><a href='/wiki/div'>Divisions</a></th><td><ul><li><a href='/wiki/labs'>Labs</a>"
    "</li><li><a href='/wiki/fund'>Foundation</a></li></ul></td></tr></table>"
    "<p>" + "The story closes with another paragraph of prose. " * 8 + "</p></div>"
)


def test_an_infobox_value_in_a_run_of_link_lines_is_kept() -> None:
    # readability-even wikipedia: "Products" stood empty, its linked value part of
    # a run of link lines with the "Divisions" row after it.
    on = replace(_WITHIN, spare_within_subtree=True)
    assert "Harbour Suite" not in _list_text(_INFOBOX, on)
    text = _list_text(_INFOBOX, replace(on, spare_labelled_values=True))
    assert "Harbour Suite" in text
    assert "Labs" not in text  # a linked label names no value
    up = "<td><a href='/up'>Up</a></td><th>Products</th>"
    navigation = _INFOBOX.replace("<th>Products</th>", up)
    assert "Harbour Suite" not in _list_text(navigation, replace(on, spare_labelled_values=True))


# An article body in two containers of one class, a box of links between them,
# the headline in a section of its own: DANAg's main region is the second half.
_SPLIT = (
    "<section><h1>The headline</h1></section><section class='body'>"
    "<div class='rich-text'><p>" + "The first half of the article runs on. " * 12 + "</p></div>"
    "<div class='callout'><h4><a href='/other'>Another article</a></h4></div>"
    "<div class='rich-text'><p>" + "The second half of the article goes on. " * 20 + "</p>"
    "<p>" + "And it closes with one more paragraph of prose. " * 10 + "</p></div></section>"
)


def _split_text(body: str, extend: ExtendParams) -> str:
    root, lines = _lines(body)
    first = [i for i, line in enumerate(lines) if "first half" in line.text]
    second = [i for i, line in enumerate(lines) if "second" in line.text or "closes" in line.text]
    regions = [
        Region(first[0], first[-1], sum(lines[i].t1 for i in first)),
        Region(second[0], second[-1], sum(lines[i].t1 for i in second)),
    ]
    selection = Selection([1] * len(lines), regions, [*first, *second])
    h1 = next(root.iter("h1"))
    headline = Headline("The headline", h1, 1.0, "test")
    chosen = choose_content(lines, selection, headline, extend)
    return " | ".join(" ".join(lines[i].text.split())[:20] for i in chosen.lines)


def test_an_article_body_split_by_a_box_is_kept_whole() -> None:
    # Issue 28 (5): wcxb-dev 4252's body, two rich-text divs with a featured-article
    # box between them, kept its second half only.
    main_only = replace(EXTEND, enclose_headline=True, enclose_main_region_only=True)
    on = replace(main_only, twin_min_chars=400)
    text = _split_text(_SPLIT, on)
    assert "The first half" in text and "The second half" in text
    assert "Another article" not in text
    assert "The first half" not in _split_text(_SPLIT, main_only)
    # Too little of the selected text in the twin, or a grid's columns: not kept.
    assert "The first half" not in _split_text(_SPLIT, replace(on, twin_min_chars=1000))
    columns = _SPLIT.replace("'rich-text'", "'wp-block-column'")
    assert "The first half" not in _split_text(columns, on)


def test_a_series_of_posts_is_kept_whole_short_replies_too() -> None:
    # wcxb-dev 0560: a thread's 15 posts, each a div of one class; the three of 500
    # characters or more came in as the chosen post's twins, the 11 short replies went.
    answer = "<p>" + "A long answer about the fish tank's water. " * 7 + "</p>"
    long_post = f"<div class='post'>{answer}{answer}</div>"
    posts = [long_post, "<div class='post'><p>Short reply number 1, thanks.</p></div>"] * 2
    body = "<h1>The headline</h1><div id='thread'>" + "".join([*posts, long_post]) + "</div>"
    root, lines = _lines(body)
    picked = [i for i, line in enumerate(lines) if "long answer" in line.text]
    main = Region(picked[2], picked[3], lines[picked[2]].t1 + lines[picked[3]].t1)
    selection = Selection([1] * len(lines), [main], picked)
    headline = Headline("The headline", next(root.iter("h1")), 1.0, "test")
    main_only = replace(
        EXTEND, enclose_headline=True, enclose_main_region_only=True, twin_min_chars=500
    )

    def text(extend: ExtendParams) -> str:
        chosen = choose_content(lines, selection, headline, extend)
        return " | ".join(lines[i].text for i in chosen.lines)

    assert "Short reply" not in text(main_only)
    assert text(replace(main_only, twin_series=2)).count("Short reply") == 2
    assert "Short reply" not in text(replace(main_only, twin_series=3))


_APART = (
    "<header><h1>The headline</h1></header>"
    "<div class='post'><div class='intro'><p>"
    + "The article opens with its own introduction. " * 12
    + "</p></div><div class='embed'><p>"
    + "The long middle of the article is a data table. " * 40
    + "</p></div></div>"
)


def _apart_text(body: str, extend: ExtendParams) -> str:
    root, lines = _lines(body)
    intro = [i for i, line in enumerate(lines) if "opens" in line.text]
    middle = [i for i, line in enumerate(lines) if "long middle" in line.text]
    regions = [
        Region(intro[0], intro[-1], sum(lines[i].t1 for i in intro)),
        Region(middle[0], middle[-1], sum(lines[i].t1 for i in middle)),
    ]
    selection = Selection([1] * len(lines), regions, [*intro, *middle])
    headline = Headline("The headline", next(root.iter("h1")), 1.0, "test")
    chosen = choose_content(lines, selection, headline, extend)
    return " | ".join(" ".join(lines[i].text.split())[:20] for i in chosen.lines)


def test_a_main_region_apart_from_the_headline_takes_the_kept_lines_subtree() -> None:
    # wcxb-dev 0061: a tip chart (a data table in an embed) was the main region;
    # its subtree and the headline meet only at <body>, so the narrow enclosure
    # kept the table alone and the guide's first half went.
    main_only = replace(
        EXTEND, enclose_headline=True, enclose_main_region_only=True, min_main_share=0.35
    )
    on = replace(main_only, widen_region_apart=True)
    assert "The article opens" in _apart_text(_APART, on)
    assert "The article opens" not in _apart_text(_APART, main_only)
    # The kept lines meet only at <body> too: the narrow subtree stays.
    loose = _APART.replace("<div class='post'>", "").replace("</div></div>", "</div>")
    assert "The article opens" not in _apart_text(loose, on)


ORPHANS = replace(EXTEND, drop_orphaned_headings=True, furniture_headings="related articles")
PROSE = "A paragraph of the walk that the article describes at some length. " * 4


def _orphan_page(title: str, links: str = "", toc: str = "") -> str:
    items = "".join(f"<li><a href='/{n}'>Link number {n} to elsewhere</a></li>" for n in range(4))
    return (
        f"{toc}<h2>First walk</h2><p>{PROSE}</p><h3{links}>{title}</h3><ul>{items}</ul>"
        f"<h2>Second walk</h2><p>{PROSE}</p>"
    )


def test_a_heading_whose_section_was_left_out_goes_with_it() -> None:
    text = _chosen_text(_orphan_page("More on the walk:"), ORPHANS)
    assert "More on the walk:" not in text
    assert "Link number" not in text
    assert "First walk" in text and "Second walk" in text
    # Without the rule, the heading stays over nothing.
    assert "More on the walk:" in _chosen_text(_orphan_page("More on the walk:"), EXTEND)


def test_a_heading_the_pages_links_lead_to_or_that_names_furniture_stays() -> None:
    toc = "<p><a href='#more'>More</a> <a href='#first'>First</a> and a sentence of text.</p>"
    linked = _chosen_text(_orphan_page("More on the walk:", " id='more'", toc), ORPHANS)
    assert "More on the walk:" in linked
    assert "Related articles" in _chosen_text(_orphan_page("Related articles"), ORPHANS)


def test_a_heading_right_over_a_heading_or_over_kept_text_stays() -> None:
    body = f"<h2>Part one</h2><h3>The start</h3><p>{PROSE}</p><h2>Part two</h2><p>{PROSE}</p>"
    assert _chosen_text(body, ORPHANS).count("Part") == 2


def test_a_linked_term_whose_description_is_kept_is_kept() -> None:
    # MDN (wcxb-dev 2992): `<dt><a><code>Promise.all()</code></a></dt>` over its
    # description; the terms went as link lines, the descriptions stayed nameless.
    prose = "The Promise class offers static methods to run promises together. " * 4
    terms = "".join(
        f"<dt><a href='/docs/Promise/{name}'><code>Promise.{name}()</code></a></dt>"
        f"<dd><p>{text} when the promises the story gives it settle, as described.</p></dd>"
        for name, text in (("all", "Fulfills"), ("any", "Fulfills first"), ("race", "Settles"))
    )
    body = f"<div><p>{prose}</p><dl>{terms}</dl><p>{prose}</p></div>"
    on = replace(_WITHIN, spare_within_subtree=True)
    text = _list_text(body, on)
    assert "Promise.all()" in text and "Promise.race()" in text
    # Terms without descriptions are a link list: they stay out, the prose in.
    bare = "".join(f"<dt><a href='/docs/{n}'><code>Promise.{n}()</code></a></dt>" for n in "xyz")
    told = f"<div><p>{prose} A story.</p><dl>{bare}</dl><p>{prose} The story.</p></div>"
    text = _list_text(told, on)
    assert "The story." in text and "Promise.x()" not in text
