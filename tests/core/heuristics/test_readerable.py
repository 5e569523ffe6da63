"""Tests for addon.core.heuristics.readerable: which contents get the reader view in auto mode."""

from __future__ import annotations

import gzip
from dataclasses import replace
from pathlib import Path

import lxml.html
import pytest

from addon.core import Article, extract
from addon.core.heuristics.metadata import Declared
from addon.core.heuristics.readerable import (
    DATE_LINE_REASON,
    MAX_FRAGMENTS_PER_PARAGRAPH,
    MIN_CONTENT_SHARE,
    MIN_READER_CHARS,
    DeclaredArticle,
    Furnished,
    ListedProse,
    ShortArticle,
    content_share,
    dated_lines,
    is_readerable,
    is_short_article,
    link_density,
    measure,
    reader_refusal,
)
from addon.core.output.blocks import build_blocks
from addon.core.output.text import word_count
from addon.core.result import Block, LeftOut

SHARED = Path(__file__).resolve().parents[4] / "shared"
DATASET = SHARED / "datasets" / "wcxb-dev"
ENCODINGS = SHARED / "corpora" / "encodings"
FIREFOX = SHARED / "datasets" / "readability-even"
PARAGRAPH = (
    "The harbour ferry carried its first passengers in months after the shipyard replaced "
    "the engines, the wheelhouse windows and most of the deck planks over the winter."
)


def paragraph(text: str = PARAGRAPH) -> Block:
    """Return a p block holding some text."""
    return Block("p", f"<p>{text}</p>", text)


def built(html: str) -> Block:
    """Return the one block the output stage makes of HTML, with its text and link counts."""
    body = lxml.html.document_fromstring(f"<html><body>{html}</body></html>").find("body")
    (block,) = build_blocks([body], base_url="https://example.com/")
    return block


def text_of(blocks: list[Block]) -> str:
    """Return the plain text of blocks the way the extractor joins them."""
    return "\n\n".join(block.text for block in blocks if block.text)


def extracted(path: Path) -> Article:
    """Extract a saved page (gzipped or not) as the proxy would."""
    assert path.exists(), f"{path} is missing: ../shared must sit beside the checkout"
    body = path.read_bytes()
    if path.suffix == ".gz":
        body = gzip.decompress(body)
    article = extract(body, content_type="text/html")
    assert isinstance(article, Article), article
    return article


def share_of(article: Article) -> float:
    """Return the content share of an extracted page from its diagnostics."""
    assert article.diagnostics is not None
    return content_share(article.diagnostics.t1, article.diagnostics.selected)


def dataset_page(page_id: str) -> Article:
    """Extract one wcxb-dev page."""
    return extracted(DATASET / "html" / f"{page_id}.html.gz")


def verdict(article: Article, *, share: float | None = None, headline: bool = True) -> bool:
    """Return is_readerable for an extracted page, with its own share unless one is given."""
    used = share_of(article) if share is None else share
    assert article.diagnostics is not None
    dated = dated_lines(article.diagnostics.left_out)
    return is_readerable(
        article.blocks, article.text, headline, content_share=used, left_out_fragments=dated
    )


@pytest.mark.parametrize("page_id", ["0074", "0020", "0060"])
def test_dataset_articles_are_readerable(page_id: str) -> None:
    assert verdict(dataset_page(page_id))


@pytest.mark.parametrize(
    ("page_id", "what"),
    [
        ("0083", "news teasers: a figure, byline and date around every paragraph"),
        ("2916", "a list of paper titles in one <dl>, no paragraph"),
        ("2910", "a topic page: paragraphs under links to the papers, over half of it link text"),
    ],
)
def test_dataset_listings_are_not_readerable(page_id: str, what: str) -> None:
    article = dataset_page(page_id)
    assert not verdict(article), what
    # Even a page that is all content is no article: the blocks alone decide.
    assert not verdict(article, share=1.0), what


def test_a_shop_page_whose_prose_is_a_small_part_of_the_page_is_not_readerable() -> None:
    # wcxb-dev 4376 (a collection): the extractor keeps its buying guide, which
    # reads like an article; the product grid around it holds over 40% of the
    # page's text. Its six plain paragraphs pass as an article among furniture:
    # one of the collections that rule lets through (Furnished's measures).
    article = dataset_page("4376")
    share = share_of(article)
    assert share < MIN_CONTENT_SHARE
    strict = Furnished(min_content_share=MIN_CONTENT_SHARE)
    assert not is_readerable(
        article.blocks, article.text, True, content_share=share, furnished=strict
    )
    assert verdict(article, share=1.0)
    assert verdict(article)  # six long paragraphs, one fragment


def test_a_link_list_is_not_readerable() -> None:
    items = "".join(
        f'<li><a href="/t/{n}">Topic number {n} of the site</a></li>' for n in range(60)
    )
    html = f"<ul>{items}</ul>"
    text = "\n".join(f"Topic number {n} of the site" for n in range(60))
    blocks = [built("<h2>Topics</h2>"), built(html)]
    assert blocks[1].text == text
    assert len(text) > 1000
    assert not is_readerable(blocks, text_of(blocks), True, content_share=1.0)


def test_a_product_grid_around_paragraphs_is_not_readerable() -> None:
    prose = [paragraph(f"{PARAGRAPH} {PARAGRAPH}") for _ in range(3)]  # score 3 * 14
    image = Block("figure", '<figure><img src="/shoe.jpg" alt=""></figure>', "")
    card = [image, paragraph("$49.99")]
    assert is_readerable(prose, text_of(prose), True, content_share=1.0)
    # Up to four fragments per paragraph pass (captionless images and prices count).
    six_cards = [*prose, *(card * 6)]
    assert measure(six_cards, min_block_chars=140, fragment_chars=40).fragments == 12
    assert MAX_FRAGMENTS_PER_PARAGRAPH * 3 == 12
    assert is_readerable(six_cards, text_of(six_cards), True, content_share=1.0)
    seven_cards = [*prose, *(card * 7)]
    assert not is_readerable(seven_cards, text_of(seven_cards), True, content_share=1.0)


def test_prose_under_links_is_not_readerable() -> None:
    teaser = f'<a href="/story">{PARAGRAPH}</a>'
    linked = [built(f"<p>{teaser} {PARAGRAPH}</p>")] * 4
    assert link_density(linked) == pytest.approx(0.5, abs=0.01)
    assert not is_readerable(linked, text_of(linked), True, content_share=1.0)
    assert is_readerable(linked, text_of(linked), True, content_share=1.0, max_link_density=0.6)
    plain = [paragraph(f"{PARAGRAPH} {PARAGRAPH}")] * 4
    assert link_density(plain) == 0.0
    assert is_readerable(plain, text_of(plain), True, content_share=1.0)


def test_link_density_counts_link_text_in_the_whole_content() -> None:
    blocks = [
        built('<p>See <a href="/a">the <b>first</b> report</a> and more.</p>'),
        built('<ul><li><a href="/b">Second</a></li><li>third</li></ul>'),
    ]
    # 'See the first report and more.' + 'Second' + 'third': 41 characters, 22 in links.
    assert [(b.text_chars, b.link_chars) for b in blocks] == [(30, 16), (11, 6)]
    assert link_density(blocks) == pytest.approx(22 / 41)
    nested = built('<p>a <a href="/x">bc <a href="/y">de</a></a></p>')
    assert nested.link_chars >= len("bc de")
    assert link_density([]) == 0.0
    assert link_density([Block("hr", "<hr>", "")]) == 0.0


def test_too_little_prose_is_not_readerable() -> None:
    blocks = [paragraph("A short note.") for _ in range(60)]
    assert len(text_of(blocks)) > 500
    assert not is_readerable(blocks, text_of(blocks), True, content_share=1.0)


def test_the_prose_score_follows_readability() -> None:
    blocks = [paragraph("x" * 240), paragraph("y" * 141), paragraph("z" * 140), paragraph("w" * 40)]
    prose = measure(blocks, min_block_chars=140, fragment_chars=40)
    assert prose.score == pytest.approx(10 + 1)  # sqrt(100) + sqrt(1); 140 itself counts no more
    assert (prose.paragraphs, prose.fragments) == (2, 1)


def test_an_unknown_share_does_not_refuse() -> None:
    article = dataset_page("4376")
    assert is_readerable(article.blocks, article.text, True)
    assert is_readerable(article.blocks, article.text, True, content_share=None)


def test_content_share_weighs_the_selected_lines() -> None:
    assert content_share([10, 30, 60], [1, 2]) == pytest.approx(0.9)
    assert content_share([10, 30, 60], []) == 0.0
    assert content_share([], []) == 1.0
    assert content_share([0, 0], [0]) == 1.0


@pytest.mark.parametrize("name", sorted(path.name for path in ENCODINGS.glob("*.html")))
def test_the_short_news_pages_of_the_encodings_corpus_are_readerable(name: str) -> None:
    # About 100 words in four to six short paragraphs: too little prose for the
    # long-read rule, but a headline and nothing but paragraphs.
    article = extracted(ENCODINGS / name)
    assert verdict(article)


def test_a_short_article_needs_its_headline_and_most_of_the_page() -> None:
    article = extracted(ENCODINGS / "arabic_utf-8_rtl.html")
    share = share_of(article)
    assert share >= ShortArticle().min_content_share
    long_read = is_readerable(article.blocks, article.text, False, content_share=share)
    assert not long_read  # it passes as a short article only
    assert not verdict(article, share=ShortArticle().min_content_share - 0.01)
    assert verdict(article, share=share)


def test_a_short_article_is_a_few_paragraphs_and_nothing_else() -> None:
    # A huge min_text_chars turns the long-read rule off: only the short-article rule decides.
    def short(blocks: list[Block], *, headline: bool = True, share: float = 1.0) -> bool:
        text = text_of(blocks)
        return is_readerable(blocks, text, headline, content_share=share, min_text_chars=10**6)

    four = [paragraph() for _ in range(4)]  # 27 words each
    assert short(four)
    assert not short(four[:3])
    assert not short(four, headline=False)
    assert not short(four, share=0.7)
    assert not short([paragraph() for _ in range(10)])  # 270 words: no longer short
    # A list holding 60 of 168 words: the paragraphs hold 64% of the text, not 70%.
    listed = [*four, Block("ul", "<ul><li>item</li></ul>", " ".join(["item"] * 60))]
    assert not short(listed)


def test_a_given_word_count_is_the_one_the_short_article_rule_uses() -> None:
    four = [paragraph() for _ in range(4)]  # 108 words in all
    text = text_of(four)
    words = word_count(text)

    def short(count: int | None) -> bool:
        return is_readerable(four, text, True, content_share=1.0, min_text_chars=10**6, words=count)

    assert short(None) and short(words)
    # The rule reads the count it is given: a count over max_words makes it no short article.
    assert not short(ShortArticle().max_words + 1)
    assert is_short_article(four, text, 1.0, ShortArticle(), words=words)
    assert not is_short_article(four, text, 1.0, ShortArticle(), words=10**6)
    assert not is_short_article(four, text, 0.5, ShortArticle(), words=words)


def test_reader_refusal_is_the_one_decision_of_enough_text_and_auto_mode() -> None:
    long_text = " ".join([PARAGRAPH] * 3)
    article = Article("T", (paragraph(long_text),), long_text, "en", "ltr", readerable=False)
    assert reader_refusal(article, "reader") == ""
    assert reader_refusal(article, "auto") == "auto mode: the page is not an article"
    assert reader_refusal(replace(article, readerable=True), "auto") == ""
    short = replace(article, text="  A short note.  ")
    refused = reader_refusal(short, "reader")
    assert refused == f"too little text (13 < {MIN_READER_CHARS} characters)"
    assert reader_refusal(short, "reader", min_chars=13) == ""
    assert MIN_READER_CHARS == 200


def test_an_article_among_much_furniture_is_readerable_when_its_prose_is_plain() -> None:
    # Issue 30 (1): news stories whose page is mostly menus, teasers and comments
    # (readability-even breitbart, heise, msn: 32-38% of the page's text in the
    # article) stayed original in auto mode. Four long paragraphs or more, at
    # most one fragment each, still make an article there; a shop's buying guide
    # beside its grid has more fragments than paragraphs.
    prose = [paragraph(f"{PARAGRAPH} {PARAGRAPH}") for _ in range(4)]
    assert not is_readerable(prose, text_of(prose), True, content_share=0.34)
    assert is_readerable(prose, text_of(prose), True, content_share=0.36)
    three = prose[:3]
    assert not is_readerable(three, text_of(three), True, content_share=0.5)
    card = [Block("figure", '<figure><img src="/shoe.jpg" alt=""></figure>', ""), paragraph("$49")]
    shop = [*prose, *(card * 3)]  # 6 fragments for 4 paragraphs
    assert not is_readerable(shop, text_of(shop), True, content_share=0.5)
    assert is_readerable(shop, text_of(shop), True, content_share=0.6)


def listed(*items: str, links: int = 0) -> Block:
    """Return a ul block whose text holds one line per item, LINKS of its characters in links."""
    text = "\n".join(items)
    html = "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"
    return Block("ul", html, text, text_chars=len(text), link_chars=links)


def heading(text: str = "Fixed this week") -> Block:
    """Return an h2 block."""
    return Block("h2", f"<h2>{text}</h2>", text)


def test_a_post_of_lists_under_headings_is_readerable_when_it_is_the_page() -> None:
    # Issue 30 (1): readability-even firefox-nightly-blog, a post that is all
    # sections of bullet points whose items are sentences, scored 0: a list is
    # no prose block. Its long list lines count as paragraphs where the content
    # is most of the page, has section headings and is not a link list.
    item = f"{PARAGRAPH} {PARAGRAPH}"
    post = [heading(), listed(item, "Short one"), heading(), listed(item, item)]
    text = text_of(post)
    assert measure(post, min_block_chars=140, fragment_chars=40).paragraphs == 0
    assert is_readerable(post, text, True, content_share=0.9)
    assert not is_readerable(post, text, True, content_share=0.7)  # a list amid furniture
    lists_only = [block for block in post if block.kind == "ul"]
    assert not is_readerable(lists_only, text_of(lists_only), True, content_share=1.0)
    linked = [heading(), listed(item, item, links=250), heading(), post[3]]
    assert not is_readerable(linked, text_of(linked), True, content_share=1.0)  # 250 of 1318
    loose = ListedProse(max_link_density=0.2)
    assert is_readerable(linked, text_of(linked), True, content_share=1.0, listed=loose)


def test_a_page_that_calls_itself_an_article_may_hold_less_of_its_page() -> None:
    # Issue 30 (1): readability-even yahoo-4, one long paragraph in 42% of its
    # page, under MIN_CONTENT_SHARE. A page whose og:type says "article" gets
    # the floor of an article among furniture (0.35) without its four paragraphs.
    story = [paragraph(f"{PARAGRAPH} {PARAGRAPH} {PARAGRAPH} {PARAGRAPH}")]
    text = text_of(story)
    said = Declared(open_graph=True)
    assert not is_readerable(story, text, True, content_share=0.42)
    assert is_readerable(story, text, True, content_share=0.42, declared=said)
    assert not is_readerable(story, text, True, content_share=0.3, declared=said)


def test_a_page_called_an_article_twice_may_hold_many_fragments() -> None:
    # Issue 30 (1): readability-even ehow-1, a how-to of 36 short steps, photos
    # and captions around two long paragraphs: 18 fragments a paragraph. Where
    # the page says "article" in og:type and in schema.org, the fragments do not
    # refuse it; where it says so once, they do.
    step = [paragraph("Step 1"), Block("figure", '<figure><img src="/a.jpg" alt=""></figure>', "")]
    long = paragraph(f"{PARAGRAPH} {PARAGRAPH}")
    how_to = [long, *(step * 10), long]
    text = text_of(how_to)

    def passes(said: Declared, bars: DeclaredArticle | None = None) -> bool:
        bars = bars or DeclaredArticle()
        return is_readerable(
            how_to, text, True, content_share=0.8, declared=said, declared_article=bars
        )

    assert not passes(Declared())
    assert not passes(Declared(open_graph=True))
    assert not passes(Declared(schema=True))
    both = Declared(open_graph=True, schema=True)
    assert passes(both)
    bounded = DeclaredArticle(max_fragments_per_paragraph=MAX_FRAGMENTS_PER_PARAGRAPH)
    assert not passes(both, bounded)


@pytest.mark.parametrize("name", ["firefox-nightly-blog", "yahoo-4", "ehow-1"])
def test_firefox_readerable_pages_that_stayed_original_are_readerable(name: str) -> None:
    path = FIREFOX / name / "source.html"
    assert path.exists(), f"{path} is missing: ../shared must sit beside the checkout"
    page = path.read_bytes()
    article = extract(page, url="http://fakehost/test/page.html", content_type="text/html")
    assert isinstance(article, Article), article
    assert article.readerable


def test_date_lines_left_out_still_count_as_fragments() -> None:
    # wcxb-dev 0083: a listing's teasers, each a figure, a byline and a date; the
    # date-line step left one byline out, and the page read as an article.
    paragraph = Block("p", "<p>x</p>", "A teaser's excerpt, long enough to count. " * 4)
    date = Block("p", "<p>x</p>", "Dec 17, 2025")
    blocks = (paragraph, date, date, date, date) * 20
    text = "\n\n".join(block.text for block in blocks)
    assert is_readerable(blocks, text, True, left_out_fragments=0)
    assert not is_readerable(blocks, text, True, left_out_fragments=1)
    left = (LeftOut(DATE_LINE_REASON, "By Logan Jones"), LeftOut("another reason", "x"))
    assert dated_lines(left) == 1
