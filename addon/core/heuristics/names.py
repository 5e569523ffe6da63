"""Furniture named by class and id words (related links, share bars, comments,
reviews, footers), and the fast reading of those words.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from types import MappingProxyType

from lxml import etree

from addon.core import compiled
from addon.core.dom import (
    attribute_value_set,
    attribute_values,
)
from addon.core.heuristics.consent import drop_consent
from addon.core.heuristics.hiding import NAMING, NOT_FURNITURE, drop_unless_main, owners_of
from addon.core.params import ALGORITHMS, ExtendParams


def join_words(*words: str) -> str:
    """Join lists of class/id words ("a|b") into one, leaving out the empty ones."""
    return "|".join(word for word in words if word)


def boilerplate_pattern(words: str) -> re.Pattern[str]:
    """Compile the class/id word pattern: a word that opens or closes a class token."""
    # The word must open or close a class token: "comment-list" and
    # "block--author-bio" are furniture, "with-sidebar-layout" wraps the page.
    return re.compile(rf"(?:^|\s)(?:{words})(?:$|[\s_-])|[_-](?:{words})(?:$|\s)", re.IGNORECASE)


def drop_named_furniture(
    root: etree._Element,
    words: str,
    footer_words: str,
    review_words: str,
    *,
    max_share: float,
    footer_max_share: float,
    review_max_sections: int,
    consent_words: str = "",
    names: PageNames | None = None,
) -> int:
    """Remove elements named as furniture, footer, reviews or consent; return the consent's text.

    `names` are the page's class and id values (`page_names`), when the caller has them.
    """
    # One pass over the class and id values finds all four; an element named only
    # after the footer gets the smaller share, as a wrapper named after the
    # footer below it ("page1-footer") may hold the whole page.
    # The distinct values only: their elements are looked up once a value matches.
    names = page_names(root) if names is None else names
    held = drop_consent(root, names.values, consent_words) if consent_words else 0
    marking = join_words(words, footer_words, review_words)
    if not marking:
        return held
    marked = _marked(root, boilerplate_pattern(marking), names)
    furniture, footers, reviews = _sort_marked(
        [element for element in marked if not in_running_text(element)],
        words,
        review_words,
        names,
    )
    drop_unless_main(furniture, root, max_share=max_share)
    drop_unless_main(footers, root, max_share=footer_max_share)
    sections = review_sections(reviews, root, max_sections=review_max_sections)
    drop_unless_main(sections, root, max_share=max_share)
    return held


# Phrasing elements: inside a sentence they are its words, whatever their class
# says (a study text's note links are <a class="popup">).
_PHRASING = frozenset(
    {
        "a", "abbr", "b", "cite", "code", "em", "font", "i", "kbd", "mark", "q", "s",
        "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
    }
)  # fmt: skip


def in_running_text(element: etree._Element) -> bool:
    """Tell whether a phrasing element stands inside a sentence: a word beside it."""
    parent = element.getparent()
    if element.tag not in _PHRASING or parent is None:
        return False
    before = element.getprevious()
    text_before = parent.text if before is None else before.tail
    # Words, not separators: a breadcrumb's links stand between "»" and "/".
    beside = f"{text_before or ''} {element.tail or ''}"
    return _WORD.search(beside) is not None


_WORD = re.compile(r"[^\W_]")


@dataclass(frozen=True, slots=True)
class PageNames:
    """A page's distinct class and id values, and the values each of some plain words names.

    Read once for the furniture steps (`page_names`): one pass over the values finds
    every word's hits, whichever step's pattern asks for them.
    """

    values: set[str]
    plain: list[str]  # the ASCII values, which `hits` numbers
    others: list[str]  # the rest, which a pattern searches one by one
    words: SpelledWords  # the words searched
    hits: dict[str, set[int]]  # each searched word that names some values -> their numbers

    def named(self, pattern: re.Pattern[str]) -> set[str] | None:
        """Return the values a pattern of plain words matches; None for any other pattern."""
        spelled = _spelled_out(pattern)
        if spelled is None:
            return None
        if not self.words.keys() >= spelled.keys():  # words not searched: search them now
            return _matching_values(self.values, pattern, spelled)
        found = {value for value in self.others if pattern.search(value)}
        plain, hits = self.plain, self.hits
        for word in spelled.keys() & hits.keys():
            found.update([plain[index] for index in hits[word]])
        return found


def page_names(root: etree._Element, words: str = "") -> PageNames:
    """Read the distinct class and id values under root (root too); find where `words` name them.

    `words` are class/id words for `boilerplate_pattern`, all the furniture steps may ask about.
    """
    values = attribute_value_set(root, NAMING)
    plain = [value for value in values if value.isascii()]
    others = [value for value in values if not value.isascii()] if len(plain) < len(values) else []
    spelled = _spelled_out(boilerplate_pattern(words)) if words else None
    if spelled is None:
        return PageNames(values, plain, others, {}, {})
    return PageNames(values, plain, others, spelled, _WORD_HITS(plain, spelled))


def _sort_marked(
    marked: list[etree._Element], words: str, review_words: str, page: PageNames | None = None
) -> tuple[list[etree._Element], list[etree._Element], list[etree._Element]]:
    """Split the named elements into furniture, footers and reviews, in that precedence.

    `page` holds the page's class and id values (those of `marked` among them).
    """
    names = [(element.get("class"), element.get("id")) for element in marked]
    values = {value for pair in names for value in pair if value}
    furniture_names = _Naming.of(words, values, page) if words else None
    review_names = _Naming.of(review_words, values, page) if review_words else None
    furniture: list[etree._Element] = []
    footers: list[etree._Element] = []
    reviews: list[etree._Element] = []
    for element, pair in zip(marked, names, strict=True):
        if furniture_names is not None and furniture_names.names(element, pair):
            furniture.append(element)
        elif review_names is not None and review_names.names(element, pair):
            reviews.append(element)
        else:
            footers.append(element)
    return furniture, footers, reviews


@dataclass(frozen=True, slots=True)
class _Naming:
    """A pattern of class/id words, with the values it matches when its words are plain."""

    pattern: re.Pattern[str]
    matched: set[str] | None  # among the values asked about; None: search each element

    @classmethod
    def of(cls, words: str, values: set[str], page: PageNames | None = None) -> _Naming:
        """Compile the words' pattern and match the values once, if it is one of plain words.

        `page`, when given, holds the page's values, `values` among them.
        """
        pattern = boilerplate_pattern(words)
        if page is not None:
            named = page.named(pattern)
            return cls(pattern, None if named is None else named & values)
        spelled = _spelled_out(pattern)
        matched = None if spelled is None else _matching_values(values, pattern, spelled)
        return cls(pattern, matched)

    def names(self, element: etree._Element, pair: tuple[str | None, str | None]) -> bool:
        """Tell whether an element (whose class and id are `pair`) is named by the words."""
        # Plain words hold no space: the pattern matches "class id" exactly when it
        # matches the class or the id alone.
        if self.matched is None:
            return _named(element, self.pattern)
        return element.tag not in NOT_FURNITURE and (
            pair[0] in self.matched or pair[1] in self.matched
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


def _marked(
    root: etree._Element, pattern: re.Pattern[str], names: PageNames
) -> list[etree._Element]:
    """Return the elements whose class or id (of the page's `names`) matches the pattern."""
    if pattern.search(" "):
        # Even an element with neither attribute would match: test them all.
        return [element for element in root.iter(etree.Element) if _named(element, pattern)]
    named = names.named(pattern)
    if named is not None:
        # The words hold no space, so the pattern matches "class id" exactly when it
        # matches the class or the id alone: each distinct value is matched once
        # (class lists repeat across a page), and only the matching values' elements
        # are fetched.
        return owners_of(root, named)
    classes, ids = attribute_values(root, "class"), attribute_values(root, "id")
    return _named_furniture(classes, ids, pattern)


def _named(element: etree._Element, pattern: re.Pattern[str]) -> bool:
    """Tell whether an element's "class id" names match the pattern."""
    names = f"{element.get('class', '')} {element.get('id', '')}"
    return element.tag not in NOT_FURNITURE and pattern.search(names) is not None


def _named_furniture(
    classes: dict[etree._Element, str],
    ids: dict[etree._Element, str],
    pattern: re.Pattern[str],
) -> list[etree._Element]:
    """Return the elements whose "class id" names match a pattern that " " does not match."""
    # Only elements with a class or an id can match: read the few with an id
    # whole, the others as "class ", each distinct class once.
    identified = {element: f"{classes.get(element, '')} {ident}" for element, ident in ids.items()}
    furniture = {value for value in set(classes.values()) if pattern.search(f"{value} ")}
    marked = [
        element
        for element, names in identified.items()
        if element.tag not in NOT_FURNITURE and pattern.search(names)
    ]
    marked.extend(
        element
        for element, value in classes.items()
        if value in furniture and element not in identified and element.tag not in NOT_FURNITURE
    )
    return marked


def _matching_values(values: set[str], pattern: re.Pattern[str], words: SpelledWords) -> set[str]:
    """Return the values that a pattern of the plain `words` matches."""
    plain = [value for value in values if value.isascii()]
    found = {value for value in values if not value.isascii() and pattern.search(value)}
    hits = _WORD_HITS(plain, words)
    return found | {plain[index] for indexes in hits.values() for index in indexes}


# How boilerplate_pattern() wraps its words.
_OWN_PATTERN = (r"(?:^|\s)(?:", r")(?:$|[\s_-])|[_-](?:", r")(?:$|\s)")


# Words of letters, digits, - and _, each letter optional with a ?; possessive,
# so a string that is not such a list fails without backtracking.
_PLAIN_WORDS = re.compile(r"(?:[A-Za-z0-9_-]++\??)++(?:\|(?:[A-Za-z0-9_-]++\??)++)*+")


_LETTER = re.compile(r"([a-z0-9_-])(\??)")


# What both str.split() and the pattern's \s take for space in ASCII text.
_ASCII_SPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def _plain_words(pattern: re.Pattern[str], *, max_optional: int = 4) -> set[str] | None:
    """Spell out the words of a pattern from boilerplate_pattern(); None for any other."""
    opening, middle, closing = _OWN_PATTERN
    source = pattern.pattern
    size = (len(source) - len(opening) - len(middle) - len(closing)) // 2
    alternatives = source[len(opening) : len(opening) + size]
    if (
        source != f"{opening}{alternatives}{middle}{alternatives}{closing}"
        or pattern.flags != re.IGNORECASE | re.UNICODE
        or not _PLAIN_WORDS.fullmatch(alternatives)
    ):
        return None
    words: set[str] = set()
    for word in alternatives.lower().split("|"):
        if "?" not in word:
            words.add(word)
        elif word.count("?") <= max_optional:
            words.update(_spellings(word))
        else:
            return None
    # An empty spelling matches around any space: the pattern then matches " ".
    return None if "" in words else words


# Each word of a name pattern, spelled out, with its pieces cut at every - and _.
SpelledWords = dict[str, tuple[str, ...]]


def spell_out(pattern: re.Pattern[str]) -> SpelledWords | None:
    """Spell out the words of a pattern from boilerplate_pattern(), cut into their pieces."""
    words = _plain_words(pattern)
    return None if words is None else {word: tuple(_pieces(word)) for word in words}


def _spelled_out(pattern: re.Pattern[str]) -> SpelledWords | None:
    """Return `spell_out(pattern)`, worked out at import for the named variants' patterns."""
    # Spelling out the ~60 default words took 0.07 ms of every page.
    known = _VARIANTS_SPELLED.get(pattern.pattern)
    if known is not None and pattern.flags == _PATTERN_FLAGS:
        return known
    return spell_out(pattern)


def _spell_out_variants() -> dict[str, SpelledWords]:
    """Spell out the furniture patterns of every named variant."""
    found: dict[str, SpelledWords] = {}
    for params in ALGORITHMS.values():
        for words in furniture_word_lists(params.extend):
            pattern = boilerplate_pattern(words)
            spelled = spell_out(pattern)
            if spelled is not None:
                found[pattern.pattern] = spelled
    return found


def all_furniture_words(extend: ExtendParams) -> str:
    """Return every class/id word the furniture steps may ask about, for `page_names`."""
    return join_words(
        extend.boilerplate_words, extend.comment_words, extend.footer_words, extend.review_words
    )


def furniture_word_lists(extend: ExtendParams) -> Iterator[str]:
    """Yield the class/id word lists the furniture steps compile: all (for `page_names`),
    the comment words (for `opens_discussion`), to find, then to sort."""
    if every := all_furniture_words(extend):
        yield every
    if extend.comment_words:
        yield extend.comment_words
    # With and without the comment words (furniture_words in extract.py).
    for words in (
        extend.boilerplate_words,
        join_words(extend.boilerplate_words, extend.comment_words),
    ):
        for each in (
            join_words(words, extend.footer_words, extend.review_words),
            words,
            extend.review_words,
        ):
            if each:
                yield each


def _spellings(word: str) -> list[str]:
    """Spell out a word's optional letters ("ads?" -> "ad", "ads")."""
    spellings = [""]
    for letter, optional in _LETTER.findall(word):
        spellings = [spelling + letter for spelling in spellings] + (spellings * bool(optional))
    return spellings


def _word_hits(names: list[str], words: SpelledWords) -> dict[str, set[int]]:
    """Map each word that matches some of the ASCII names, as its pattern would, to their
    indexes."""
    # The pattern tries its many case-insensitive words at every space, - and _
    # of every name. Substring searches over all names at once are far faster;
    # the names cut at every - and _ show which words need searching at all.
    text = " ".join(names).lower()
    pieces = set(text.replace("-", " ").replace("_", " ").split())
    present = [word for word, parts in words.items() if pieces.issuperset(parts)]
    starts = [*accumulate((len(named) + 1 for named in names), initial=0)]
    hits: dict[str, set[int]] = {}
    for word in present:
        found = {bisect_right(starts, start) - 1 for start in _bounded(text, word)}
        if found:
            hits[word] = found
    return hits


def _pieces(word: str) -> list[str]:
    """Cut a word at every - and _."""
    return word.replace("-", " ").replace("_", " ").split() if not word.isalnum() else [word]


def _bounded(text: str, word: str) -> Iterator[int]:
    """Yield where a word occurs as the pattern wants it, in lowercase ASCII text."""
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if _word_bounds(before, after):
            yield start
        start = text.find(word, start + 1)


def _word_bounds(before: str, after: str) -> bool:
    """Tell whether a word between these characters opens or closes a name token.

    It opens one after a space (or the start) and ends at a space, - or _ (or
    the end); it closes one after a - or _ and ends at a space (or the end).
    """
    if before in _ASCII_SPACE:
        return after in _ASCII_SPACE or after in "-_"
    return before in "-_" and after in _ASCII_SPACE


def opens_discussion(
    root: etree._Element,
    pattern: re.Pattern[str],
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
    matched = names.named(pattern) if names is not None and root.getparent() is None else None
    if matched is not None and not matched:
        return False  # no class or id on the page names a comment (most pages)
    lead = 0
    for element in _following(headline):
        pair = element.get("class"), element.get("id")
        if (
            (pair[0] or pair[1])
            and _comment_named(pair, pattern, matched)
            and _holds_text(element, min_post_chars)
        ):
            return True
        lead += len((element.text or "").strip()) + len((element.tail or "").strip())
        if lead > max_lead:
            return False
    return False


def _comment_named(
    pair: tuple[str | None, str | None], pattern: re.Pattern[str], matched: set[str] | None
) -> bool:
    """Tell whether an element's class and id (`pair`) match the comment pattern."""
    if matched is None:
        return pattern.search(f"{pair[0] or ''} {pair[1] or ''}") is not None
    # Plain words hold no space: "class id" matches when the class or the id does.
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


_WORD_HITS = compiled.pick("word_hits", _word_hits)


_PATTERN_FLAGS = boilerplate_pattern("x").flags


# Immutable once built: the patterns' words, read by every page.
_VARIANTS_SPELLED = MappingProxyType(_spell_out_variants())
