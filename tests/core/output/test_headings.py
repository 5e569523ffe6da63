"""Tests for addon.core.output.headings: the article's outline, decided once."""

from __future__ import annotations

import lxml.html

from addon.core import Article, extract
from addon.core.output.headings import (
    heading_level,
    headline_link,
    outline,
    promote_aria_headings,
    retag,
    step_headings,
)
from addon.core.output.urls import UrlBase
from addon.core.result import Block


def h(level: int, text: str) -> Block:
    """Return a heading block with an id."""
    return Block(f"h{level}", f'<h{level} id="x{level}">{text}</h{level}>', text)


def levels(blocks: tuple[Block, ...]) -> list[tuple[str, str]]:
    """Return each heading block's kind and the element its HTML opens with."""
    return [(b.kind, b.html[1:3]) for b in blocks if heading_level(b)]


def test_the_outline_starts_at_h2_and_never_skips() -> None:
    blocks = (h(3, "A"), Block("p", "<p>t</p>", "t"), h(5, "B"), h(4, "C"), h(3, "D"))
    out = outline(blocks)
    assert levels(out) == [("h2", "h2"), ("h3", "h3"), ("h3", "h3"), ("h2", "h2")]
    assert out[1] is blocks[1]  # other blocks untouched
    assert out[0].html == '<h2 id="x3">A</h2>' and out[0].text == "A"


def test_a_repeated_h1_in_the_content_becomes_h2() -> None:
    assert levels(outline((h(1, "Again"), h(2, "Sub")))) == [("h2", "h2"), ("h3", "h3")]


def test_an_outline_without_headings_is_the_blocks() -> None:
    blocks = (Block("p", "<p>t</p>", "t"),)
    assert outline(blocks) == blocks and outline(()) == ()


def test_retag_keeps_attributes_content_and_trailing_space() -> None:
    assert retag('<h4 class="a">x <b>y</b></h4>\n', 2) == '<h2 class="a">x <b>y</b></h2>\n'


def test_headings_inside_a_block_step_down_one_level_at_a_time() -> None:
    holder = lxml.html.fragment_fromstring(
        "<div><blockquote><h2>a</h2><h5>b</h5><h6>c</h6></blockquote></div>"
    )
    step_headings(holder)
    assert [el.tag for el in holder.iter("h2", "h3", "h4", "h5", "h6")] == ["h2", "h3", "h4"]


def test_extraction_gives_the_outline_the_reader_page_shows() -> None:
    # Two sections of their own words: a repeated run would go, and its heading with it.
    body = "".join(f"<p>{'Words of the article, long enough to count. ' * 4}</p>" for _ in range(3))
    other = "".join(f"<p>{'Where the rivers meet the sea, and how. ' * 4}</p>" for _ in range(3))
    page = (
        "<html><head><title>Rivers</title></head><body><article><h1>Rivers</h1>"
        f"<h4>Sources</h4>{body}<h6>Mouths</h6>{other}</article></body></html>"
    )
    article = extract(page.encode(), url="http://example.org/")
    assert isinstance(article, Article)
    assert [b.kind for b in article.blocks if heading_level(b)] == ["h2", "h3"]
    assert "<h2>Sources</h2>" in article.html and "<h3>Mouths</h3>" in article.html


def test_sibling_sections_stay_siblings_whatever_level_they_start_at() -> None:
    # Shifted below the page's h1, two h2 sections came in as h3: the first was
    # pulled up to h2 and the second left at h3, nested under the first (a
    # "Contents" heading took every later section under it).
    holder = lxml.html.fragment_fromstring(
        "<div><h3>Contents</h3><p>t</p><h3>History</h3><h4>Early</h4><h3>Today</h3></div>"
    )
    step_headings(holder)
    tags = [el.tag for el in holder.iter("h2", "h3", "h4", "h5", "h6")]
    assert tags == ["h2", "h2", "h3", "h2"]


def test_headings_of_one_level_stay_siblings_before_a_higher_one() -> None:
    # wcxb-dev 4320: a thread's posters' names are h4, the "Similar threads" box
    # after them h3. Counted from the highest (h3), the first name was pulled up to
    # h2 and every later one left at h3, under it.
    holder = lxml.html.fragment_fromstring(
        "<div><h4>sean_g</h4><p>t</p><h4>Packard</h4><h5>Edit</h5><h4>cider</h4>"
        "<h3>Similar threads</h3><h4>Other</h4></div>"
    )
    step_headings(holder)
    tags = [el.tag for el in holder.iter("h2", "h3", "h4", "h5", "h6")]
    assert tags == ["h2", "h2", "h3", "h2", "h2", "h3"]
    blocks = (h(4, "sean_g"), h(4, "Packard"), h(3, "Similar"), h(4, "Other"))
    assert [kind for kind, _ in levels(outline(blocks))] == ["h2", "h2", "h2", "h3"]


def test_a_heading_inside_a_block_opens_its_section_for_the_heading_blocks_after_it() -> None:
    # wcxb-dev 4064: each product's title is an h3 inside its list item, its
    # "Why We Picked It" an h4 block after the list: it stays under the title.
    item = Block("ul", "<ul><li><h3>Logitech MX Master 4</h3><p>A mouse.</p></li></ul>", "")
    blocks = (h(2, "The best mice"), item, h(4, "Why We Picked It"), h(2, "How we test"))
    assert [kind for kind, _ in levels(outline(blocks))] == ["h2", "h4", "h2"]


def test_extraction_keeps_sections_after_the_first_at_its_level() -> None:
    body = f"<p>{'Words of the article, long enough to count. ' * 4}</p>"
    page = (
        "<html><head><title>Lanterns</title></head><body><article><h1>Lanterns</h1>"
        f"{body}<h2>The song</h2>{body}<h2>Three lanterns</h2><h3>Storm lantern</h3>{body}"
        "</article></body></html>"
    )
    article = extract(page.encode(), url="http://example.org/")
    assert isinstance(article, Article)
    assert [b.kind for b in article.blocks if heading_level(b)] == ["h2", "h2", "h3"]


def test_retag_closes_the_heading_it_opened_when_the_block_holds_two() -> None:
    # wcxb-dev 0146: a heading block serialised with the next heading beside it.
    assert retag("<h3>a</h3><h4>b</h4>", 2) == "<h2>a</h2><h4>b</h4>"


def test_a_heading_already_at_its_level_keeps_its_markup() -> None:
    block = Block("h2", "<h2>a</h2><h3>b</h3>", "a b")
    assert outline((block,)) == (block,)


def _linked_headline_page(heading: str) -> bytes:
    words = "Words of the post, long enough to count here. " * 5
    body = f"<p>{words}</p>" * 4
    return (
        "<html><head><title>The Bountiful Update - A blog</title></head><body><div id='posts'>"
        f"{heading}{body}</div></body></html>"
    ).encode()


def test_a_headline_that_links_to_its_post_keeps_the_link() -> None:
    # tumblr: a blog's front page shows its newest post, titled by a link to the post.
    page = _linked_headline_page('<h3><a href="/post/1/bountiful">The Bountiful Update</a></h3>')
    article = extract(page, url="http://blog.example.org/")
    assert isinstance(article, Article) and article.title == "The Bountiful Update"
    assert article.title_href == "http://blog.example.org/post/1/bountiful"


def test_a_headline_link_to_the_page_itself_or_unsafe_is_not_kept() -> None:
    hrefs = ("/post/1#top", "/post/1?t=1&sid=5", "javascript:go()", "#top", "")
    for href in hrefs:
        page = _linked_headline_page(f'<h3><a href="{href}">The Bountiful Update</a></h3>')
        article = extract(page, url="http://blog.example.org/post/1?t=1")
        assert isinstance(article, Article) and article.title == "The Bountiful Update"
        assert article.title_href is None, href


def test_a_link_that_is_only_part_of_the_headline_is_not_its_link() -> None:
    page = _linked_headline_page('<h3>The Bountiful Update, by <a href="/bob">Bob</a></h3>')
    article = extract(page, url="http://blog.example.org/")
    assert isinstance(article, Article) and article.title_href is None


def test_headline_link_reads_a_link_around_the_heading_too() -> None:
    holder = lxml.html.fragment_fromstring(
        '<div><a href="/post/2"><h2> Two  words </h2></a></div>'
    )
    heading = next(holder.iter("h2"))
    assert headline_link(heading, UrlBase.of("https://example.org/")) == (
        "https://example.org/post/2"
    )


def test_a_headline_link_to_the_address_the_page_states_is_its_own() -> None:
    # tumblr: a post's page titles the post by a link to the post, og:url says so.
    meta = b'<meta property="og:url" content="http://blog.example.org/post/7/slug"></head>'
    for target, kept in (("7/slug", None), ("8/next", "http://blog.example.org/post/8/next")):
        link = f'<h3><a href="http://blog.example.org/post/{target}">The Bountiful Update</a></h3>'
        page = _linked_headline_page(link).replace(b"</head>", meta)
        article = extract(page, url="http://mirror.example.net/7")
        assert isinstance(article, Article) and article.title == "The Bountiful Update"
        assert article.title_href == kept


def test_an_element_marked_as_a_heading_becomes_one_at_its_aria_level() -> None:
    root = lxml.html.fragment_fromstring(
        '<div><div role="heading" aria-level="3">Steps</div><p role="heading">Cost</p>'
        '<div><span role="heading" aria-level="9">Alone</span></div>'
        '<p>Text <span role="heading">inline</span> more</p>'
        '<div role="heading"><p>holds a block</p></div></div>'
    )
    promote_aria_headings([root])
    assert [(e.tag, e.text) for e in root.iter("h1", "h2", "h3", "h4", "h5", "h6")] == [
        ("h3", "Steps"), ("h2", "Cost"), ("h6", "Alone"),
    ]  # fmt: skip
    assert all(e.get("role") is None for e in root.iter("h2", "h3", "h6"))
