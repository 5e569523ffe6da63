"""Furniture named by class and id words (related links, share bars, comments,
reviews, footers).

A word names an element when it fills one of the element's class or id tokens,
opens one before a - or _, or closes one after a - or _: "comment-list" and
"block--author-bio" are furniture, "with-sidebar-layout" wraps the page, and
"sidebar-enabled" states a setting of the page.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Set
from dataclasses import dataclass
from itertools import accumulate

from lxml import etree

from addon.core.dom import attribute_value_set, text_content
from addon.core.heuristics.consent import drop_consent
from addon.core.heuristics.hiding import NAMING, drop_unless_main, owners_of
from addon.core.output.furniture import heading_names_furniture
from addon.core.params import ExtendParams, Words


def drop_named_furniture(
    root: etree._Element,
    words: Words,
    footer_words: Words,
    review_words: Words,
    *,
    max_share: float,
    footer_max_share: float,
    review_max_sections: int,
    consent_words: Words = frozenset(),
    names: PageNames | None = None,
    headings: re.Pattern[str] | None = None,
) -> int:
    """Remove elements named as furniture, footer, reviews or consent; return the consent's text.

    `names` are the page's class and id values (`page_names`), when the caller has them;
    `headings`, the furniture headings' words: a heading they name goes by its id too.
    """
    # One pass over the class and id values finds all four; an element named only
    # after the footer gets the smaller share, as a wrapper named after the
    # footer below it ("page1-footer") may hold the whole page.
    names = page_names(root, words | footer_words | review_words) if names is None else names
    held = drop_consent(root, names.values, consent_words) if consent_words else 0
    marking = words | footer_words | review_words
    if not marking:
        return held
    values = names.named(marking)
    marked = owners_of(root, values)
    holders = article_holders(root) if marked else set()
    lines = Lines(set(marked))
    furniture, footers, reviews = _sort_marked(
        [
            e
            for e in marked
            if not in_running_text(e, lines)
            and e not in holders
            and not in_code(e)
            and not named_by_own_text(e, values, headings)
        ],
        names.named(words),
        names.named(review_words),
    )
    drop_unless_main(furniture, root, max_share=max_share)
    drop_unless_main(footers, root, max_share=footer_max_share)
    sections = review_sections(reviews, root, max_sections=review_max_sections)
    drop_unless_main(sections, root, max_share=max_share)
    return held


def in_code(element: etree._Element) -> bool:
    """Tell whether an element stands inside a <pre>: a program, which keeps every character."""
    # A highlighter's comment line (react.dev's `<pre><code><div class="cm-line"><span
    # class="sp-syntax-comment">`, wcxb-dev 0674, 2873: 17 of 29 comments gone).
    return next(element.iterancestors("pre"), None) is not None


def named_by_own_text(
    element: etree._Element, values: Set[str], headings: re.Pattern[str] | None = None
) -> bool:
    """Tell whether a heading, or a section by its first heading, is named furniture only by
    its id, and the id spells the heading's words (an anchor's slug: "20-we-are-social" over
    "20. We Are Social"), words that `headings` does not name furniture."""
    # wcxb-dev 0166's "20. We Are Social", 0674's "Sharing data between components":
    # the heading went, its section under the heading before it. A heading whose own
    # words name furniture ("Related Products", a field group in odd 4841's
    # documentation) would end the content at the output stage, its section with it.
    ident = element.get("id")
    if ident is None or ident not in values or element.get("class") in values:
        return False
    # A section's id may spell its heading's words too (wcxb-dev 2874's `<section
    # id="respond-to-review-comments"><h2>Respond to review comments`): Sphinx and
    # docutils name each section after its title.
    heading = element if element.tag in _HEADING_TAGS else next(element.iter(*_HEADING_TAGS), None)
    if heading is None:
        return False
    text = text_content(heading)
    if headings is not None and heading_names_furniture(text, headings):
        return False
    slug = [word for word in _SLUG_SPLIT.split(ident.lower()) if word]
    words = _SLUG_WORD.findall(text.lower())
    if heading is not element:  # a section: its id is its whole title, of a sentence's length
        return len(slug) >= _MIN_SECTION_SLUG_WORDS and slug == words
    return bool(slug) and set(slug) <= set(words)


# A section's id that spells its title names it by a phrase, not a word: "reviews",
# "related-posts" name a widget whose heading says as much (wcxb-dev 0450, 0616: 4 pages
# down with any length).
_MIN_SECTION_SLUG_WORDS = 3


_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# The pieces of an anchor's slug, and the words of a heading.
_SLUG_SPLIT = re.compile(r"[^\w]+|_")
_SLUG_WORD = re.compile(r"[^\W_]+")


def article_holders(root: etree._Element) -> set[etree._Element]:
    """Return the elements that hold every <article> and every <h1> of the page, if it has
    an <article>: whatever their names say, they are no furniture around it."""
    # A story opened in a dialog over a stream of teasers (readability-even
    # yahoo-2, `<div id="render-target-modal">`) is named a pop-up; dropped, it
    # left the reader view the stream (word F1 against Firefox 0.32 -> 0.995;
    # no wcxb-dev page changes on either split).
    marks = root.iter("article", "h1")
    first = next(marks, None)
    if first is None:
        return set()
    # The common ancestors are a chain up from the first mark; each other mark walks
    # up only until it meets the chain, which ends where the lowest shared one stands.
    chain = [first, *first.iterancestors()]
    place = {element: index for index, element in enumerate(chain)}
    lowest, has_article = 0, first.tag == "article"
    for mark in marks:
        has_article = has_article or mark.tag == "article"
        node: etree._Element | None = mark
        while node is not None and node not in place:
            node = node.getparent()
        if node is None:  # another tree: nothing holds them all
            return set()
        lowest = max(lowest, place[node])
    return set(chain[lowest:]) if has_article else set()


# Phrasing elements: inside a sentence they are its words, whatever their class
# says (a study text's note links are <a class="popup">).
_PHRASING = frozenset(
    {
        "a", "abbr", "b", "cite", "code", "em", "font", "i", "kbd", "mark", "q", "s",
        "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
    }
)  # fmt: skip


def in_running_text(element: etree._Element, lines: Lines) -> bool:
    """Tell whether a phrasing element stands inside a sentence or a program: a word or a
    sentence's mark in its line outside the named elements, a line that is a sentence of
    its own in a paragraph, or inside a <pre>."""
    # A study text's note links (readability-even clean-links, `<a class="popup">`)
    # open a paragraph ("Ah Bartleby! Ah humanity</a>!"), follow a quote mark, stand
    # two in a row, or are the whole paragraph; a link wrapped in a coloured span is
    # a sentence's words ("The <span><a class="external-popup">Internal Revenue
    # Service</a></span>, provide", wcxb-dev 4880). The line is judged whole, so its
    # named elements stay or go together: no paragraph loses some of its words.
    if element.tag not in _PHRASING:
        return False
    top = element
    while (parent := top.getparent()) is not None and parent.tag in _PHRASING:
        top = parent
    block = top.getparent()
    if block is None:
        return False
    # Code keeps every character: a highlighter's comment token (`<span class="comment">`,
    # wcxb-dev 4398's "// socket closed") is the program's text, not the page's comments.
    return block.tag == "pre" or lines.is_text(top, block)


class Lines:
    """The lines of inline elements that named elements stand in, each judged once."""

    def __init__(self, named: Set[etree._Element]) -> None:
        self.named = named
        self.runs: dict[etree._Element, list[etree._Element]] = {}  # member -> its line
        self.judged: dict[int, bool] = {}  # id of a line -> whether it is text

    def is_text(self, top: etree._Element, block: etree._Element) -> bool:
        """Tell whether the line `top` stands in is the article's text (see in_running_text)."""
        if top not in self.runs:
            for run in _inline_runs(block):
                self.runs.update(dict.fromkeys(run, run))
        run = self.runs[top]
        if id(run) not in self.judged:
            self.judged[id(run)] = _is_text(run, block, self.named)
        return self.judged[id(run)]


def _inline_runs(block: etree._Element) -> Iterator[list[etree._Element]]:
    """Yield the runs of phrasing children of a block, split at its block-level children."""
    run: list[etree._Element] = []
    for child in block:
        if child.tag in _PHRASING:
            run.append(child)
        elif run:
            yield run
            run = []
    if run:
        yield run


def _is_text(run: list[etree._Element], block: etree._Element, named: Set[etree._Element]) -> bool:
    """Tell whether a line holds a word or a sentence's mark outside its named elements, or
    is a paragraph's sentence of its own."""
    outside = " ".join(_unmarked_text(run, block, named))
    if _WORD.search(outside) is not None or _SENTENCE_MARK.search(outside) is not None:
        return True
    # Words and sentence marks, not separators: a breadcrumb's links stand between
    # "»" and "/". A line all of named elements is the article's if it is a sentence.
    return block.tag == "p" and is_sentence(" ".join(_unmarked_text(run, block, frozenset())))


def _unmarked_text(
    run: list[etree._Element], block: etree._Element, marked: Set[etree._Element]
) -> list[str]:
    """Return the texts of a line (the run of siblings in `block`), less the `marked`
    elements' own."""
    first = run[0]
    previous = first.getprevious()
    texts = [(block.text if previous is None else previous.tail) or ""]
    stack = list(run)
    while stack:  # a walk, not a recursion: pages nest elements thousands deep
        node = stack.pop()
        if node.getparent() is block:  # a member of the run: its tail is the line's
            texts.append(node.tail or "")
        if node in marked:
            continue
        texts.append(node.text or "")
        for child in node:
            texts.append(child.tail or "")
            stack.append(child)
    return texts


def is_sentence(text: str) -> bool:
    """Tell whether a text ends as a sentence does: a full stop, question or exclamation mark,
    with its closing quotes."""
    return _SENTENCE_END.search(text) is not None


_SENTENCE_MARK = re.compile(r"[!?.,;:\"\u201c\u201d\u201e]")
_SENTENCE_END = re.compile(r"[.!?\u2026][\"'\u201d\u2019)]*\s*$")
_WORD = re.compile(r"[^\W_]")


@dataclass(frozen=True, slots=True)
class PageNames:
    """A page's distinct class and id values, and the words each names, of those asked about.

    Read once for the furniture steps (`page_names`): one pass over the values finds
    every word's hits, whichever step asks about them.
    """

    values: set[str]
    asked: Words  # the words looked for
    held: dict[str, Words]  # each value some of them name -> those words

    def named(self, words: Words) -> set[str]:
        """Return the values some of the words name."""
        if not words <= self.asked:  # words not looked for: look now
            return set(words_held(self.values, words))
        return {value for value, held in self.held.items() if not held.isdisjoint(words)}


def page_names(root: etree._Element, words: Words) -> PageNames:
    """Read the distinct class and id values under root (root too); find which of `words` name
    each."""
    values = attribute_value_set(root, NAMING)
    return PageNames(values, words, words_held(values, words))


def words_held(values: set[str], words: Words) -> dict[str, Words]:
    """Map each class or id value that some of the words name to those words."""
    # One look at all the values cut into pieces (at spaces, - and _) rules out
    # the words no value holds, most of them on most pages; each word left is
    # found in all the values joined at once, and only the values it stands in
    # are cut into tokens.
    ordered = list(values)
    # Lowered one by one: lowering may lengthen a value ("İ"), which would shift
    # the offsets of all after it in a string lowered whole.
    lowered = [value.lower() for value in ordered]
    joined = "\n".join(lowered)
    pieces = set(joined.replace("-", " ").replace("_", " ").split())
    present = [word for word in words if word and pieces.issuperset(_pieces(word))]
    if not present:
        return {}
    starts = list(accumulate((len(value) + 1 for value in lowered), initial=0))
    candidates = {
        bisect_right(starts, place) - 1 for word in present for place in _places(joined, word)
    }
    held: dict[str, Words] = {}
    for index in candidates:
        found = words.intersection(word_places(lowered[index]))
        if found:
            held[ordered[index]] = frozenset(found)
    return held


def _places(text: str, word: str) -> Iterator[int]:
    """Yield where a word occurs in a text."""
    place = text.find(word)
    while place >= 0:
        yield place
        place = text.find(word, place + 1)


def word_places(value: str) -> Iterator[str]:
    """Yield what a word may fill in a class or id value: each token, each token's head up
    to a - or _ (but before a feature flag's state), each tail after one."""
    for token in value.split():
        yield token
        if "-" not in token and "_" not in token:
            continue
        for joint in _JOINT.finditer(token):
            tail = token[joint.end() :]
            if not _states_a_flag(tail):
                yield token[: joint.start()]
            yield tail


# "sidebar-enabled--false", "comments-disabled": the page's settings, not the element's
# name. wcxb-dev 4614's article ends in a `div.sidebar-enabled--false`, taken for a
# sidebar (F1 .894 -> .988; no other page of either split changes).
_FLAG_STATES = ("enabled", "disabled")


def _states_a_flag(tail: str) -> bool:
    """Tell whether the rest of a token after a joint opens with a flag's state."""
    if not tail.startswith(_FLAG_STATES):
        return False
    rest = tail.removeprefix("enabled").removeprefix("disabled")
    return not rest or rest[0] in "-_"


def names_any(value: str, words: Words) -> bool:
    """Tell whether some of the words name a class or id value."""
    return not words.isdisjoint(word_places(value.lower()))


_JOINT = re.compile(r"[-_]")


def _pieces(word: str) -> list[str]:
    """Cut a word at every - and _."""
    return word.replace("-", " ").replace("_", " ").split()


def _sort_marked(
    marked: list[etree._Element], furniture_named: set[str], review_named: set[str]
) -> tuple[list[etree._Element], list[etree._Element], list[etree._Element]]:
    """Split the named elements into furniture, footers and reviews, in that precedence.

    `furniture_named` and `review_named` are the class and id values the furniture
    and the review words name.
    """
    furniture: list[etree._Element] = []
    footers: list[etree._Element] = []
    reviews: list[etree._Element] = []
    for element in marked:
        pair = element.get("class"), element.get("id")
        if pair[0] in furniture_named or pair[1] in furniture_named:
            furniture.append(element)
        elif pair[0] in review_named or pair[1] in review_named:
            reviews.append(element)
        else:
            footers.append(element)
    return furniture, footers, reviews


def all_furniture_words(extend: ExtendParams) -> Words:
    """Return every class/id word the furniture steps may ask about, for `page_names`."""
    return (
        extend.boilerplate_words
        | extend.comment_words
        | extend.footer_words
        | extend.review_words
        | extend.hiding_classes
    )


def review_sections(
    elements: list[etree._Element], root: etree._Element, *, max_sections: int
) -> list[etree._Element]:
    """Return the outermost of the elements still in the page; none when more than max_sections."""
    # A shop page gathers its buyers' reviews in one section or two (a summary,
    # the list); a word naming many separate elements names a part of every card
    # in a grid (each tile's rating or blurb), which is the page's content.
    # Elements inside furniture dropped before are out of the page already.
    inside = set(elements)
    sections = []
    for element in elements:
        above = list(element.iterancestors())
        if above and above[-1] is root and not any(up in inside for up in above):
            sections.append(element)
    return sections if len(sections) <= max_sections else []


def opens_discussion(
    root: etree._Element,
    words: Words,
    *,
    max_lead: int,
    min_post_chars: int = 100,
    names: PageNames | None = None,
) -> bool:
    """Tell whether comment-marked posts follow the page's first <h1> with little text between.

    `names` are the page's class and id values (`page_names`), when the caller has them.
    """
    # A forum thread marks its first post as a comment too: the posts are the
    # page. Under an article the article's text stands between headline and comments.
    headline = next(root.iter("h1"), None)
    if headline is None:
        return False
    # The walk may leave root's subtree for the rest of its document, which the
    # values would not cover.
    matched = names.named(words) if names is not None and root.getparent() is None else None
    if matched is not None and not matched:
        return False  # no class or id on the page names a comment (most pages)
    lead = 0
    for element in _following(headline):
        pair = element.get("class"), element.get("id")
        if (
            (pair[0] or pair[1])
            and _comment_named(pair, words, matched)
            and _holds_text(element, min_post_chars)
        ):
            return True
        lead += len((element.text or "").strip()) + len((element.tail or "").strip())
        if lead > max_lead:
            return False
    return False


def _comment_named(
    pair: tuple[str | None, str | None], words: Words, matched: set[str] | None
) -> bool:
    """Tell whether the comment words name an element's class or id (`pair`).

    `matched` are the page's values they name, when known.
    """
    if matched is None:
        return any(value is not None and names_any(value, words) for value in pair)
    return pair[0] in matched or pair[1] in matched


def _holds_text(element: etree._Element, chars: int) -> bool:
    """Tell whether an element holds at least `chars` characters of text."""
    # Read piece by piece: a comment section may hold most of a long page.
    total = 0
    for piece in element.itertext():
        total += len(piece.strip())
        if total >= chars:
            return True
    return False


def _following(element: etree._Element) -> Iterator[etree._Element]:
    """Yield the elements after `element` in document order, outside its subtree."""
    node: etree._Element | None = element
    while node is not None:
        for sibling in node.itersiblings():
            yield from sibling.iter(etree.Element)
        node = node.getparent()
