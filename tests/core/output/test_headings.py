"""Tests for addon.core.output.headings: the article's outline, decided once."""

from __future__ import annotations

import lxml.html

from addon.core import Article, extract
from addon.core.output.headings import heading_level, outline, retag, step_headings
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
    body = "".join(f"<p>{'Words of the article, long enough to count. ' * 4}</p>" for _ in range(3))
    page = (
        "<html><head><title>Rivers</title></head><body><article><h1>Rivers</h1>"
        f"<h4>Sources</h4>{body}<h6>Mouths</h6>{body}</article></body></html>"
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
