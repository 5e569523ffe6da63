"""Site memory: fingerprints of a site's blocks, and leaving out the template."""

from __future__ import annotations

from addon.core import Article, extract
from addon.core.heuristics.site_memory import (
    LEFT_OUT_REASON,
    SiteMemory,
    block_fingerprints,
    block_seen,
    fingerprint,
    fold,
    forget_template,
    page_fingerprints,
    remember,
)
from addon.core.result import Block

PROSE = "This paragraph of the article runs on for well over twelve words, as prose does here."


def _p(text: str, kind: str = "p") -> Block:
    return Block(kind, f"<{kind}>{text}</{kind}>", text, len(text))


def _memory(*pages: list[Block]) -> SiteMemory:
    return remember({p for block in page for p in block_fingerprints(block)} for page in pages)


def test_fold_drops_white_space_and_case() -> None:
    assert fold("Related  Posts:\n") == "relatedposts:"
    assert fold("Posted 3 May") != fold("Posted 9 May")  # digits tell posts apart
    assert fold(" \n\t ") == ""


def test_fingerprint_tells_headings_from_other_blocks_and_ignores_spacing() -> None:
    assert fingerprint("h2", "Related posts") == fingerprint("h4", "Related  posts")
    assert fingerprint("h2", "Related posts") != fingerprint("p", "Related posts")
    assert fingerprint("p", "Sign up!") == fingerprint("div", "sign\n up!")
    assert fingerprint("p", " \n ") is None


def test_a_list_or_table_block_is_one_fingerprint_per_item_or_cell() -> None:
    items = _p("One\nTwo words", "ul")
    assert block_fingerprints(items) == (fingerprint("li", "One"), fingerprint("li", "Two words"))
    table = _p("a1\tb1\na2\t\t", "table")
    assert len(block_fingerprints(table)) == 3
    # A paragraph's line break is no split: its line is its whole inline text.
    joined = fingerprint("p", "Para onenext line.")
    assert block_fingerprints(_p("Para one\nnext line.")) == (joined,)


def test_page_fingerprints_are_those_of_its_lines_with_text() -> None:
    lines = [("h1", "Title"), ("div", ""), ("li", "One"), ("p", "  "), ("li", "One")]
    assert page_fingerprints(lines) == {fingerprint("h1", "Title"), fingerprint("li", "One")}


def test_extracted_blocks_match_the_fingerprints_learned_from_their_page() -> None:
    page = (
        b"<html><body><main><h1>T</h1><h2>Related <b>posts</b></h2><p>Para one "
        b"<b>bold</b><br>next line.</p><ul><li>Item <a href=x>one</a></li><li>Item two</li>"
        b"</ul><table><tr><td>a1</td><td>b1</td></tr></table></main></body></html>"
    )
    article = extract(page, learn=True)
    assert isinstance(article, Article) and len(article.blocks) == 4
    memory = remember([article.fingerprints])
    assert [block_seen(block, memory) for block in article.blocks] == [1, 1, 1, 1]


def test_a_block_is_seen_only_when_all_its_lines_are() -> None:
    items = _p("One\nTwo", "ul")
    assert block_seen(items, remember([{fingerprint("li", "One") or 0}])) == 0
    both = {fingerprint("li", "One") or 0, fingerprint("li", "Two") or 0}
    assert block_seen(items, remember([both, both])) == 2
    assert block_seen(items, remember([both]), keep={fingerprint("li", "Two") or 0}) == 0


def test_remember_counts_pages_not_occurrences() -> None:
    memory = remember([{1, 2}, {2}, [2, 2, 3]])
    assert memory.pages == 3
    assert memory.counts == {1: 1, 2: 3, 3: 1}


def test_trailing_short_blocks_other_pages_hold_are_left_out_with_the_reason() -> None:
    page = [_p("Intro " + PROSE), _p("More " + PROSE), _p("Related posts", "h2"), _p("Subscribe")]
    other = [_p("Related posts", "h2"), _p("Subscribe"), _p("Another article. " + PROSE)]
    forgotten = forget_template(page, _memory(other))
    assert [block.text for block in forgotten.blocks] == [page[0].text, page[1].text]
    assert [(item.reason, item.text) for item in forgotten.left_out] == [
        (LEFT_OUT_REASON, "Related posts"),
        (LEFT_OUT_REASON, "Subscribe"),
    ]


def test_a_block_inside_the_article_needs_three_pages_and_all_of_them() -> None:
    page = [_p("Intro " + PROSE), _p("Advertisement"), _p("More " + PROSE)]
    template = [_p("Advertisement"), _p("Elsewhere " + PROSE)]
    unrelated = [_p("Elsewhere " + PROSE)]
    assert len(forget_template(page, _memory(template, template)).blocks) == 3
    assert len(forget_template(page, _memory(template, template, unrelated)).blocks) == 3
    assert len(forget_template(page, _memory(template, template, template)).blocks) == 2


def test_a_paragraph_of_prose_after_the_article_needs_strong_evidence_too() -> None:
    bio = _p("The author writes about gardens and has done so for years, in many magazines.")
    page = [_p("Intro " + PROSE), _p("More " + PROSE), bio]
    assert forget_template(page, _memory([bio])).blocks == tuple(page)
    assert forget_template(page, _memory([bio], [bio], [bio])).blocks == tuple(page[:2])


def test_a_page_the_memory_mostly_holds_stays_whole() -> None:
    page = [_p("Intro " + PROSE), _p("More " + PROSE), _p("Related posts", "h2")]
    same_again = forget_template(page, _memory(page))  # a reload, or another version
    assert same_again.blocks == tuple(page)
    assert same_again.left_out == ()


def test_a_page_without_two_paragraphs_of_its_own_stays_whole() -> None:
    product = [_p("Intro " + PROSE), _p("Key features", "h2"), _p("Free shipping")]
    sibling = [_p("Key features", "h2"), _p("Free shipping"), _p("Other " + PROSE)]
    assert forget_template(product, _memory(sibling)).blocks == tuple(product)
    assert len(forget_template(product, _memory(sibling), min_paragraphs=1).blocks) == 1


def test_the_headline_is_never_left_out() -> None:
    page = [_p("Intro " + PROSE), _p("More " + PROSE), _p("Welcome", "h2")]
    memory = _memory([_p("Welcome", "h2")])
    keep = {fingerprint("h1", "Welcome") or 0}
    assert forget_template(page, memory, keep=keep).blocks == tuple(page)
    assert len(forget_template(page, memory).blocks) == 2


def test_extract_learns_a_page_and_leaves_out_its_template_on_the_next() -> None:
    def page(title: str, body: str) -> bytes:
        return (
            f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1>"
            f"{body}<p>Our shop is open daily, call us.</p><p>Sign up for our letter.</p>"
            "</main></body></html>"
        ).encode()

    first_page = page("Onions", f"<p>Onions first. {PROSE}</p><p>Onions then. {PROSE}</p>")
    second_page = page("Leeks", f"<p>Leeks first. {PROSE}</p><p>Leeks then. {PROSE}</p>")
    learned = extract(first_page, learn=True)
    assert isinstance(learned, Article)
    assert learned.fingerprints
    alone = extract(second_page)
    remembered = extract(second_page, memory=remember([learned.fingerprints]))
    assert isinstance(alone, Article) and isinstance(remembered, Article)
    assert "Sign up for our letter." in alone.text
    assert "Sign up for our letter." not in remembered.text
    assert "Our shop" in alone.text and "Our shop" not in remembered.text
    assert "Leeks first." in remembered.text and "Leeks then." in remembered.text
    assert remembered.diagnostics is not None
    reasons = {item.reason for item in remembered.diagnostics.left_out}
    assert reasons == {LEFT_OUT_REASON}
    assert remembered.fingerprints == frozenset()  # learned only when asked
