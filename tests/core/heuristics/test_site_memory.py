"""Site memory: fingerprints of a site's blocks, and leaving out the template."""

from __future__ import annotations

from lxml import html as lxml_html

from addon.core import Article, extract
from addon.core.heuristics.site_memory import (
    LEFT_OUT_REASON,
    SiteMemory,
    block_fingerprint,
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
    return remember({block_fingerprint(block) or 0 for block in page} for page in pages)


def test_fold_keeps_letters_and_digits_only_case_folded() -> None:
    assert fold("Related  Posts:\n") == "relatedposts"
    assert fold("Posted 3 May") != fold("Posted 9 May")  # digits tell posts apart
    assert fold("— ·") == ""


def test_fingerprint_tells_headings_from_other_blocks_and_ignores_spacing() -> None:
    assert fingerprint("h2", "Related posts") == fingerprint("h4", "Related  posts")
    assert fingerprint("h2", "Related posts") != fingerprint("p", "Related posts")
    assert fingerprint("p", "Sign up!") == fingerprint("div", "sign up")
    assert fingerprint("p", "  ...  ") is None


def test_page_fingerprints_match_the_blocks_extracted_from_the_same_markup() -> None:
    root = lxml_html.fromstring(
        "<html><body><div><h3>Related <b>posts</b></h3>"
        "<ul><li>One</li>\n<li>Two</li></ul><p>Tail <a href=x>link</a>.</p></div></body></html>"
    )
    prints = page_fingerprints(root)
    assert fingerprint("h2", "Related posts") in prints
    assert fingerprint("ul", "One\nTwo") in prints  # a list's items run together
    assert fingerprint("p", "Tail link.") in prints


def test_page_fingerprints_skip_containers_past_the_limit_and_script_text() -> None:
    long_text = "word " * 100
    root = lxml_html.fromstring(
        f"<html><body><div id=outer><p>{long_text}</p><p>short</p></div>"
        "<script>var x = 1;</script></body></html>"
    )
    prints = page_fingerprints(root, max_chars=200)
    assert fingerprint("p", "short") in prints
    assert fingerprint("p", long_text) not in prints  # 400 letters: past 200
    assert fingerprint("div", long_text + "short") not in prints
    assert fingerprint("p", "var x = 1;") not in prints


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
