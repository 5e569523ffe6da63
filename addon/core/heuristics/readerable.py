"""The reader check: is this page one that a reader view serves well?

Modelled on Readability's isProbablyReaderable, applied to the chosen content
instead of the whole page: enough running prose, not drowned in fragments
(prices, captions, "Add to cart") or links, and holding most of the page's
text. A short page passes too when it is nothing but a headline and a few
paragraphs.

The defaults were tuned on the even file ids of wcxb-dev and confirmed on the
odd ones (`plainview eval --split even|odd`; docs/evaluation.md, "The auto
decision").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from addon.core.heuristics.metadata import NOTHING_DECLARED, Declared
from addon.core.output.text import word_count
from addon.core.result import Article, Block, LeftOut

# Blocks that carry running prose. A whole list is one block here, so lists
# (menus and link lists as often as prose) do not count, unlike Readability's li.
PROSE_KINDS = frozenset({"p", "pre", "blockquote"})
MEDIA_KINDS = frozenset({"figure", "img"})
LIST_KINDS = frozenset({"ul", "ol"})
SECTION_HEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})

# Readability's own defaults (minContentLength 140, minScore 20). On wcxb-dev's
# even ids other values did no better: 120 characters gains 1 article (0.3%) and
# 4 service and product pages; a score of 30 loses 4 articles for 1 collection.
MIN_BLOCK_CHARS = 140
MIN_SCORE = 20.0
# Readability's check on a whole page's text, kept as a floor for the content.
MIN_TEXT_CHARS = 500
# Share of the page's text (T1 characters after preprocessing) that lies in the
# chosen content. A shop or listing page surrounds a little prose with a grid
# of short lines (median share on even ids: collections 0.59, listings 0.65,
# articles 0.95). Even ids, reader views (articles, collections, listings)
# without this check: 98%, 30%, 28%; at 0.5: 95%, 15%, 24%; at 0.6: 93.5%, 11%,
# 18%; at 0.65: 92%, 11%, 18%.
MIN_CONTENT_SHARE = 0.6
# Fragments (text blocks of at most FRAGMENT_CHARS, images without a caption)
# per prose block: product grids and teaser lists have many, articles few
# (median on even ids 0.4 on articles, 2.0 on collections, 3.5 on products).
# Even ids, without this check: articles 94.0%, collections 26%, listings 20%;
# at 4: 93.5%, 11%, 18%; at 3 articles drop to 92.0% for no fewer collections
# or listings; 5 lets more forum and service pages through, no article.
FRAGMENT_CHARS = 40
MAX_FRAGMENTS_PER_PARAGRAPH = 4.0
# Share of the content's text inside links: listings that keep their link lists
# have much (90th percentile on even ids 0.48), articles little (0.05; 95th
# percentile 0.07). Even ids: any bound from 0.15 to 0.3 loses no article and
# takes listings from 20% to 16-18%; 0.1 loses 1% of the articles. 0.25, the
# bound of Readability's conditional cleaning, leaves link-rich articles the
# most room (it costs 1 documentation page).
MAX_LINK_DENSITY = 0.25


@dataclass(frozen=True, slots=True)
class ShortArticle:
    """When a short page is still an article: a headline and a few paragraphs, nothing else.

    Readability's score counts no paragraph under 140 characters, so a news
    item of five 100-character paragraphs (the Arabic and Persian pages of the
    encodings corpus) scores 0. Counted in words (a CJK character is a word),
    the rule holds for all 11 pages of that corpus and adds 1 of the 1,497
    wcxb-dev pages (a product): their pages are longer than `max_words`. Like
    a long read, a short article must not be mostly links.
    """

    max_words: int = 250
    min_paragraphs: int = 4
    paragraph_words: int = 10
    # Those paragraphs hold this share of the words: no list, table or byline soup.
    min_paragraph_share: float = 0.7
    # Lower than MIN_CONTENT_SHARE: a table layout's cells keep some text outside
    # the content (the Shift_JIS page: 0.76).
    min_content_share: float = 0.75


@dataclass(frozen=True, slots=True)
class Furnished:
    """When an article is a small part of its page: plain prose amid much furniture.

    A news story whose page is mostly menus, teasers and comments holds a third
    of the page's text (readability-even breitbart 0.38, heise 0.32, msn 0.36),
    under MIN_CONTENT_SHARE; a shop's buying guide beside its product grid can
    hold as little. Four long paragraphs or more, with at most one fragment
    each, tell the story from the guide. Even ids, reader views of articles,
    collections, listings: without it 94.0%, 11.3%, 18.0%; at 0.35 / 4 / 1:
    95.8%, 13.2%, 20.0% (0.3: collections 17.0%; 3 paragraphs: 18.9%). Odd ids:
    91.3%, 12.5%, 18.4% -> 92.1%, 18.8%, 18.4%; readability-even's real pages
    Firefox finds readerable: 35 -> 37 of 44.
    """

    min_content_share: float = 0.35
    min_paragraphs: int = 4
    max_fragments_per_paragraph: float = 1.0


@dataclass(frozen=True, slots=True)
class ListedProse:
    """When a list's long lines are paragraphs: a post written as bullet points.

    A release-notes post whose sections are lists of sentences (readability-even
    firefox-nightly-blog) scored 0, as a whole list is no prose block. Where the
    content is most of the page, has section headings and is not a link list,
    each line of a list longer than the paragraph floor counts as one. Even ids,
    reader views of articles, collections, listings: 95.8 / 13.2 / 20.0% ->
    96.2 / 15.1 / 20.0% (the extra collection is apple.com/watch, a product
    tour); odd ids 92.1 / 18.8 / 18.4% -> 92.6 / 18.8 / 18.4%. Without the
    headings a news listing of one long list passes (even listings 22%); at a
    page share of 0.6, 22% too.
    """

    min_content_share: float = 0.8
    min_headings: int = 2
    # 0.1 -> 0.15 once a list's one-link items are kept (tree.py `_article_lists`):
    # firefox-nightly-blog's lists hold 10.3% link text (its bugs); even and odd
    # reader-view shares unchanged at 0.15 and at 0.2.
    max_link_density: float = 0.15
    # The lists hold at least this share of the content's text: the post is its
    # lists, not a product page's paragraphs beside its feature bullets.
    min_list_share: float = 0.5


@dataclass(frozen=True, slots=True)
class DeclaredArticle:
    """How far a page's own word that it is an article lowers the bars.

    og:type "article" alone is weak evidence (section fronts say it too), so it
    only lowers the page-share floor to the furnished article's, without that
    rule's four paragraphs: one long paragraph amid furniture (readability-even
    yahoo-4, 0.42 of its page). Said twice, in og:type and in a schema.org type,
    the fragment bound goes too: a how-to of short steps, photos and captions
    (ehow-1, 18 fragments a paragraph). Even ids, articles 95.8% -> 96.8% with
    both, odd 92.1% -> 93.1%; no collection, listing or other page type gains a
    reader view. The schema.org type alone lets listings through (even 22%),
    og:type alone with no fragment bound collections (odd 21.9%).
    """

    min_content_share: float = 0.35
    max_fragments_per_paragraph: float = math.inf


@dataclass(frozen=True, slots=True)
class Prose:
    """What the content's blocks say about it: score, long paragraphs, fragments."""

    score: float
    paragraphs: int
    fragments: int


# The reasons the output stage's date-line steps give for what they leave out.
DATE_LINE_REASON = "a date, author or reading-time line the byline row shows"
FOOT_DATE_LINE_REASON = "a date or author line after the text: the byline row at its foot"


def dated_lines(left_out: Sequence[LeftOut]) -> int:
    """Count the date and author lines the byline row's steps left out: still the page's
    fragments for the reader check."""
    # A listing's teasers each carry a date and a byline: left out as the byline row's,
    # they made it read as an article (wcxb-dev 0083, four fragments a paragraph).
    reasons = (DATE_LINE_REASON, FOOT_DATE_LINE_REASON)
    return sum(1 for line in left_out if line.reason in reasons)


def measure(
    blocks: Sequence[Block], *, min_block_chars: int, fragment_chars: int, lists: bool = False
) -> Prose:
    """Score the prose blocks (Readability's sqrt(length - min)) and count fragments;
    with LISTS, each long line of a list block scores as a paragraph."""
    score = 0.0
    paragraphs = fragments = 0
    for block in blocks:
        length = len(block.text)
        if block.kind in PROSE_KINDS and length > min_block_chars:
            score += (length - min_block_chars) ** 0.5
            paragraphs += 1
        elif (block.kind in PROSE_KINDS and length <= fragment_chars) or (
            block.kind in MEDIA_KINDS and not block.text.strip()
        ):
            fragments += 1
        elif lists and block.kind in LIST_KINDS:
            lines = block.text.split("\n")
            long_lines = [len(line) for line in lines if len(line) > min_block_chars]
            score += sum((line - min_block_chars) ** 0.5 for line in long_lines)
            paragraphs += len(long_lines)
    return Prose(score, paragraphs, fragments)


def counts_lists(blocks: Sequence[Block], share: float, listed: ListedProse) -> bool:
    """Tell whether the content's lists are its prose: most of the page, under section
    headings, few links."""
    lists = [block for block in blocks if block.kind in LIST_KINDS]
    in_lists = sum(len(block.text) for block in lists)
    return (
        share >= listed.min_content_share
        and sum(block.kind in SECTION_HEADINGS for block in blocks) >= listed.min_headings
        and link_density(lists) < listed.max_link_density
        and in_lists >= listed.min_list_share * sum(len(block.text) for block in blocks)
    )


def link_density(blocks: Sequence[Block]) -> float:
    """Return the share of the blocks' text that is link text (0.0 for no text)."""
    total = sum(block.text_chars for block in blocks)
    return sum(block.link_chars for block in blocks) / total if total else 0.0


def content_share(t1: Sequence[int], selected: Iterable[int]) -> float:
    """Return the share of the page's text characters on the selected lines (1.0 if none)."""
    total = sum(t1)
    return sum(t1[index] for index in selected) / total if total else 1.0


def is_readerable(
    blocks: Sequence[Block],
    text: str,
    has_headline: bool,
    *,
    content_share: float | None = None,
    min_block_chars: int = MIN_BLOCK_CHARS,
    min_score: float = MIN_SCORE,
    min_text_chars: int = MIN_TEXT_CHARS,
    min_content_share: float = MIN_CONTENT_SHARE,
    fragment_chars: int = FRAGMENT_CHARS,
    max_fragments_per_paragraph: float = MAX_FRAGMENTS_PER_PARAGRAPH,
    max_link_density: float = MAX_LINK_DENSITY,
    short: ShortArticle = ShortArticle(),
    furnished: Furnished = Furnished(),
    listed: ListedProse = ListedProse(),
    declared: Declared = NOTHING_DECLARED,
    declared_article: DeclaredArticle = DeclaredArticle(),
    words: int | None = None,
    left_out_fragments: int = 0,
) -> bool:
    """Tell whether the chosen content reads like an article.

    `content_share` is the share of the page's text inside the content (see
    `content_share()`); None means unknown, and the checks on it pass.
    `declared` is what the page says it is. `words` is `word_count(text)` when
    the caller has it already. `left_out_fragments` are short lines the output stage
    left out (a teaser's date and byline) that still count as fragments.
    """
    share = 1.0 if content_share is None else content_share
    lists = counts_lists(blocks, share, listed)
    prose = measure(
        blocks, min_block_chars=min_block_chars, fragment_chars=fragment_chars, lists=lists
    )
    prose = Prose(prose.score, prose.paragraphs, prose.fragments + left_out_fragments)
    if declared.open_graph:
        min_content_share = min(min_content_share, declared_article.min_content_share)
        if declared.schema:
            max_fragments_per_paragraph = declared_article.max_fragments_per_paragraph
    long_read = (
        len(text) >= min_text_chars
        and prose.score > min_score
        and prose.fragments <= max_fragments_per_paragraph * max(1, prose.paragraphs)
        and (share >= min_content_share or is_furnished(prose, share, furnished))
    )
    article = long_read or (
        has_headline and is_short_article(blocks, text, share, short, words=words)
    )
    return article and link_density(blocks) <= max_link_density


def is_furnished(prose: Prose, share: float, furnished: Furnished) -> bool:
    """Tell whether content under the page-share floor is still plain prose: enough long
    paragraphs, few fragments."""
    return (
        share >= furnished.min_content_share
        and prose.paragraphs >= furnished.min_paragraphs
        and prose.fragments <= furnished.max_fragments_per_paragraph * prose.paragraphs
    )


def is_short_article(
    blocks: Sequence[Block],
    text: str,
    share: float,
    short: ShortArticle,
    *,
    words: int | None = None,
) -> bool:
    """Tell whether a short content is a few paragraphs and nearly all of the page."""
    if share < short.min_content_share:
        return False
    if words is None:  # the caller may have counted them already
        words = word_count(text)
    if words > short.max_words:
        return False
    paragraphs = [
        count
        for count in (word_count(b.text) for b in blocks if b.kind in PROSE_KINDS)
        if count >= short.paragraph_words
    ]
    enough = len(paragraphs) >= short.min_paragraphs
    return enough and sum(paragraphs) >= short.min_paragraph_share * words


# Brave's Speedreader-style floor: fewer characters of main text than this is not
# worth a reader view in any mode; the original page goes out instead.
MIN_READER_CHARS = 200


def reader_refusal(article: Article, mode: str, *, min_chars: int = MIN_READER_CHARS) -> str:
    """Return why the article must not replace its page in MODE ("reader", "auto"), or ""."""
    if mode == "auto" and not article.readerable:
        return "auto mode: the page is not an article"
    chars = len(article.text.strip())
    if chars < min_chars:
        return f"too little text ({chars} < {min_chars} characters)"
    return ""
