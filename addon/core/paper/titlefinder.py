"""TitleFinder: the headline of a page by its similarity to the `<title>` (thesis §5.3).

The paper's procedure (`prefer_headings=False`) takes the `<title>` text as the query,
splits every text fragment of the page into sentences, scores each sentence against the
query with one of four measures (TF cosine, TF-IDF cosine, OSM, their aggregate) and
returns the best. The improved procedure (`prefer_headings=True`) scores whole headline-like
elements (h1-h6, elements marked title/headline) against the `<title>`, its parts,
og:title and the JSON-LD headline, adds structural bonuses and penalties, and falls back
to the `<title>`'s longest part when no element matches well. The chosen element's text is
cut to the stated title it holds when the rest is a label element before it (a kicker, a
date) or a tail set off by a separator or a bracket (a site name, a source).

Exact-match accuracy on wcxb-dev (even / odd file ids), each as its variant preprocesses:
paper TF 0.547 / 0.582, TF-IDF 0.536 / 0.570, OSM 0.532 / 0.563, aggregate 0.539 / 0.567;
improved TF 0.779 / 0.770 (TF-IDF 0.758 / 0.765); first <h1> 0.636 / 0.648, <title> 0.191 /
0.195.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from lxml import etree

from addon.core.dom import (
    attribute_value_set,
    elements_valued,
    is_element,
    is_permalink,
    text_content,
)
from addon.core.output.text import runs_together
from addon.core.paper.lines import BLOCK_TAGS
from addon.core.params import TitleMethod, TitleParams

# §5.3 preprocessing: quotes, commas and colons are removed before tokenising.
_REMOVED = re.compile(r"[\"'`´‘’‚‛“”„‟«»‹›,:，、：]")
_WORD = re.compile(r"\w+")
# A sentence ends at ., ! or ? (possibly repeated, possibly closed by a quote or bracket)
# followed by white space.
_SENTENCE_END = re.compile(r"[.!?…]+[\"'’”)\]]*\s+")
# Abbreviations whose period does not end a sentence: initialisms ("U.S.", "e.g."), single
# initials ("J. Smith") and common titles ("Dr.", "vs.").
_INITIALISM = re.compile(r"(?:[^\W\d_]\.)+")
_ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "dr", "st", "prof", "sr", "jr", "vs", "no", "inc", "ltd", "co", "corp",
     "gen", "gov", "sen", "rep", "rev", "mt", "ft", "fig", "vol", "approx", "etc", "jan", "feb",
     "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}
)  # fmt: skip
# Characters looked at before a full stop to tell an abbreviation (longer words are none).
_ABBREVIATION_WINDOW = 24
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Words in class/id/itemprop that mark an element as the page's headline.
_HEADLINE_ATTR = re.compile(r"title|headline|heading", re.IGNORECASE)
# The same words in lowercased ASCII text (IGNORECASE also matches "İ" and "ı" to "i").
_HEADLINE_LOWER = re.compile(r"title|head(?:line|ing)")
# The attributes whose values may name a headline (filtered by _HEADLINE_ATTR in Python,
# which is faster than a case-insensitive XPath test).
_MARKING_ATTRIBUTES = ("class", "id", "itemprop")
# Three element lists merged in document order, without duplicates.
_UNION = etree.XPath("$a | $b | $c")
# Page furniture: a heading inside one of these is rarely the page's headline.
_CHROME_TAGS = frozenset({"nav", "footer", "aside", "menu"})
_CHROME_ROLES = frozenset({"navigation", "contentinfo", "complementary", "banner", "menu"})
# Link targets of a site's home page: a heading that links there is a logo or site name.
_HOME_HREFS = frozenset({"/", "./", "index.html", "/index.html", "index.php", "/index.php"})
# A relative link up to an index ("../", "../../index.html"): a documentation set's logo or
# name, which links to the set's root from every page below it (Sphinx's "<h1><a
# href='../index.html'>Project Documentation</a></h1>"). Headline exact match on wcxb-dev
# even .7987 -> .8000, odd unchanged (.7790).
_UP_TO_INDEX = re.compile(r"(?:\.\./)+(?:index\.(?:html?|php))?")
# Anchor texts of permalink markers that sites append to headings ("¶", "#").
# Typographic quotes and their plain forms, compared alike when a headline is cut.
_PLAIN_QUOTES = str.maketrans("‘’‚‛“”„‟", "''''\"\"\"\"")
# Separators between the headline and the site name in a <title>.
_TITLE_SEPARATORS = re.compile(r"\s+(?:\||-|–|—|::|·|•|»|«|/|~)\s+|\s*\|\s*|\s+:\s+")
# A separator opening a <title> ("| Site"): the headline's place before it left empty.
_LEADING_SEPARATOR = re.compile(r"(?:\||-|–|—|::|·|•)\s")
# Characters that take no room on screen: soft hyphens ("Assis\xadtance" shows as one
# word), zero-width spaces, word joiners and byte-order marks. Zero-width joiners and
# non-joiners stay: Persian, Indic scripts and emoji sequences need them to render.
_INVISIBLE = str.maketrans(dict.fromkeys("\xad\u200b\u2060\ufeff"))
# Bidirectional embeddings and isolates that may wrap a whole text ("\u202aGeoffrey
# Hinton\u202c" in a <title>), with the direction they set (None: the text's own, FSI)
# and the mark that closes them. Overrides are left alone: they reorder what they hold.
_EMBEDDINGS: dict[str, tuple[str | None, str]] = {
    "\u202a": ("L", "\u202c"),
    "\u202b": ("R", "\u202c"),
    "\u2066": ("L", "\u2069"),
    "\u2067": ("R", "\u2069"),
    "\u2068": (None, "\u2069"),
}
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
# Unicode bidirectional classes of the strong characters, by the direction they set.
_STRONG = {"L": "L", "R": "R", "AL": "R"}


@dataclass(frozen=True, slots=True)
class Headline:
    """The headline found on a page and where it came from."""

    text: str
    # The DOM element holding it (None if it only came from metadata).
    element: etree._Element | None
    score: float
    method: str


# The private records below are not frozen: a frozen dataclass sets each field through
# object.__setattr__, which makes every candidate of every page slower to build.
@dataclass(slots=True)
class _Candidate:
    """One candidate headline: its text, tokens and the element it came from."""

    text: str
    tokens: tuple[str, ...]
    element: etree._Element | None


def tokenize(text: str) -> list[str]:
    """Return the lowercased words of a text, quotes, commas and colons removed (§5.3)."""
    return _WORD.findall(_REMOVED.sub("", text.lower()))


def split_sentences(text: str, *, keep_abbreviations: bool = False) -> list[str]:
    """Split a text into sentences at ., ! and ? (§5.3); optionally not after "U.S." or "Dr."."""
    sentences: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if keep_abbreviations and _is_abbreviation(text, match.start() + 1):
            continue
        sentence = text[start : match.end()].strip()
        if sentence:
            sentences.append(sentence)
        start = match.end()
    rest = text[start:].strip()
    if rest:
        sentences.append(rest)
    return sentences


def _is_abbreviation(text: str, end: int) -> bool:
    """Tell whether the period at text[end - 1] closes an abbreviation ("U.S.", "Dr.", "J.")."""
    # Only the last word matters; a bounded window keeps the split linear in the text.
    window = text[max(0, end - _ABBREVIATION_WINDOW) : end]
    words = window.split()
    if not window.endswith(".") or not words:
        return False
    word = words[-1].lstrip("([{\"'‘“")
    if len(words) == 1 and end > len(window) and not window[0].isspace():
        return False  # a word longer than the window is no abbreviation
    return bool(_INITIALISM.fullmatch(word)) or word[:-1].lower() in _ABBREVIATIONS


def inverse_document_frequencies(documents: Sequence[Sequence[str]]) -> dict[str, float]:
    """Return smoothed idf = ln((1 + N) / (1 + df)) + 1 of every term in the documents."""
    # Smoothing keeps idf positive for a one-sentence page and defined for a query
    # term that occurs in no candidate (df = 0).
    frequencies: Counter[str] = Counter()
    for document in documents:
        frequencies.update(set(document))
    total = len(documents)
    return {term: _idf(count, total) for term, count in frequencies.items()}


def _idf(document_frequency: int, documents: int) -> float:
    """Return the smoothed idf of a term found in `document_frequency` of `documents`."""
    return math.log((1 + documents) / (1 + document_frequency)) + 1


@dataclass(slots=True)
class _Vector:
    """A sparse term-weight vector with its Euclidean norm."""

    weights: dict[str, float]
    norm: float


@dataclass(slots=True)
class Terms:
    """A token list as the vectors the measures need: tf, and tf-idf when idf is known."""

    tf: _Vector
    tfidf: _Vector | None


def _vector(weights: dict[str, float]) -> _Vector:
    """Return a vector of the given weights."""
    # sum() over a list adds the same values in the same order as over a generator, faster.
    return _Vector(weights, math.sqrt(sum([weight * weight for weight in weights.values()])))


def terms(
    tokens: Sequence[str], idf: Mapping[str, float] | None = None, documents: int = 0
) -> Terms:
    """Return the tf vector of a token list, and its tf-idf vector when `idf` is given."""
    # Counted in a plain dict: Counter's Python-level setup costs more than the
    # count of a headline's few words. The same weights, in the same order.
    counts: dict[str, float] = {}
    for token in tokens:
        counts[token] = counts.get(token, 0.0) + 1.0
    tf = _vector(counts)
    if idf is None:
        return Terms(tf, None)
    unseen = _idf(0, documents)
    tfidf = {term: count * idf.get(term, unseen) for term, count in counts.items()}
    return Terms(tf, _vector(tfidf))


def _dot(left: Mapping[str, float], right: Mapping[str, float]) -> float:
    """Return the dot product of two sparse vectors."""
    if len(left) > len(right):
        left, right = right, left
    return sum([weight * right.get(term, 0.0) for term, weight in left.items()])


def _cosine(left: _Vector, right: _Vector) -> float:
    """Return the cosine of two vectors (0 when either is empty)."""
    dot = _dot(left.weights, right.weights)
    return dot / (left.norm * right.norm) if dot else 0.0


def _tfidf(terms: Terms) -> _Vector:
    """Return the tf-idf vector of terms built with an idf table."""
    if terms.tfidf is None:
        raise ValueError("tf-idf measures need terms built with an idf table")
    return terms.tfidf


def tf_cosine(query: Terms, candidate: Terms) -> float:
    """Return the cosine of the raw term-frequency vectors (§5.3, TF)."""
    return _cosine(query.tf, candidate.tf)


def tfidf_cosine(query: Terms, candidate: Terms) -> float:
    """Return the cosine of the tf-idf vectors (§5.3, TF-IDF)."""
    return _cosine(_tfidf(query), _tfidf(candidate))


def osm(query: Terms, candidate: Terms) -> float:
    """Return the overlap score: tf-idf query weights dotted with the candidate's unit tf (§5.3)."""
    if not candidate.tf.norm:
        return 0.0
    return _dot(_tfidf(query).weights, candidate.tf.weights) / candidate.tf.norm


def aggregate(query: Terms, candidate: Terms) -> float:
    """Return the sum of the TF cosine, TF-IDF cosine and OSM scores (§5.3)."""
    return tf_cosine(query, candidate) + tfidf_cosine(query, candidate) + osm(query, candidate)


# TitleFinder's four measures (§5.3), by the name TitleParams.method gives them.
MEASURES: dict[TitleMethod, Callable[[Terms, Terms], float]] = {
    "tf": tf_cosine,
    "tfidf": tfidf_cosine,
    "osm": osm,
    "aggregate": aggregate,
}


def _measure(method: TitleMethod, query: Terms, candidate: Terms) -> float:
    """Return the named similarity of a candidate to the query (§5.3)."""
    return MEASURES[method](query, candidate)


def text_fragments(root: etree._Element) -> list[tuple[etree._Element, str]]:
    """List each block element with its own inline text, in document order (§4.3.1)."""
    body = root.find("body")
    top = body if body is not None else root
    fragments: list[tuple[etree._Element, str]] = []
    slots: list[int] = []
    buffers: list[list[str]] = [[]]
    for event, element in etree.iterwalk(top, events=("start", "end")):
        if not isinstance(element.tag, str):
            continue
        block = element.tag in BLOCK_TAGS or element is top
        if event == "start":
            if block:
                slots.append(len(fragments))
                fragments.append((element, ""))
                buffers.append([])
            buffers[-1].append(element.text or "")
            if element.tag == "br":
                buffers[-1].append(" ")
            continue
        if block:
            fragments[slots.pop()] = (element, " ".join("".join(buffers.pop()).split()))
        if element is not top:
            buffers[-1].append(element.tail or "")
    return [(element, text) for element, text in fragments if text]


def find_headline(
    root: etree._Element,
    page_title: str,
    params: TitleParams,
    *,
    og_title: str | None = None,
    ld_headline: str | None = None,
    max_query_chars: int = 2000,
) -> Headline | None:
    """Return the page's headline, or None when the page offers no candidate (§5.3)."""
    # Every candidate is compared with the queries: a megabyte-long <title> would make
    # that quadratic, and no headline is longer than `max_query_chars`.
    page_title = page_title[:max_query_chars]
    og_title = og_title[:max_query_chars] if og_title else None
    ld_headline = ld_headline[:max_query_chars] if ld_headline else None
    if params.prefer_headings:
        return _find_improved(root, page_title, params, og_title, ld_headline)
    return _find_paper(root, page_title, params)


def _find_paper(root: etree._Element, page_title: str, params: TitleParams) -> Headline | None:
    """Score every sentence of every text fragment against the <title> (§5.3)."""
    query = tokenize(page_title)
    if not query:
        return None
    candidates = list(_sentence_candidates(root, params.max_candidates))
    return _best(query, candidates, params.method)


def _sentence_candidates(root: etree._Element, limit: int) -> Iterator[_Candidate]:
    """Yield up to `limit` sentences of the page's text fragments with their tokens (§5.3)."""
    count = 0
    for element, text in text_fragments(root):
        for sentence in split_sentences(text):
            tokens = tuple(tokenize(sentence))
            if not tokens:
                continue
            yield _Candidate(sentence, tokens, element)
            count += 1
            if count >= limit:
                return


def _best(
    query: Sequence[str], candidates: Sequence[_Candidate], method: TitleMethod
) -> Headline | None:
    """Return the first candidate with the highest positive similarity to the query."""
    documents = len(candidates)
    idf = _idf_table(method, [candidate.tokens for candidate in candidates])
    query_terms = terms(query, idf, documents)
    words = frozenset(query)
    best: _Candidate | None = None
    best_score = 0.0
    for candidate in candidates:
        # Every measure is 0 without a shared term: skip the vector work.
        if words.isdisjoint(candidate.tokens):
            continue
        score = _measure(method, query_terms, terms(candidate.tokens, idf, documents))
        if score > best_score:
            best, best_score = candidate, score
    if best is None:
        return None
    return Headline(best.text, best.element, best_score, method)


def _idf_table(method: TitleMethod, documents: Sequence[Sequence[str]]) -> dict[str, float] | None:
    """Return the idf table over the candidates, or None when the measure needs none."""
    return None if method == "tf" else inverse_document_frequencies(documents)


@dataclass(slots=True)
class _Element:
    """A headline-like element of the page, as a candidate of the improved procedure."""

    candidate: _Candidate
    tag: str
    marked: bool  # class, id or itemprop names a title or headline
    first_h1: bool  # the page's first h1 candidate


def element_text(element: etree._Element, *, max_nodes: int = 1_000_000) -> str | None:
    """Return an element's text, spaced at line breaks and blocks, without permalink marks.

    Return None for an element of more than `max_nodes` nodes, so that a container
    marked "title" costs no more than a heading.
    """
    if max_nodes < 1:
        return None
    if len(element) == 0 and isinstance(element.tag, str):
        # Most headings hold text alone: their text is all there is to walk.
        if element.tag == "a" and is_permalink(element):
            return ""
        text = element.text
        return " ".join(text.split()) if text else ""
    return _walk_text(element, max_nodes)


def _walk_text(element: etree._Element, max_nodes: int) -> str | None:
    """Return the text of an element with children (see `element_text`)."""
    parts: list[str] = []
    append = parts.append
    walker = etree.iterwalk(element, events=("start", "end"))
    nodes = 0
    for event, node in walker:
        tag = node.tag
        if not isinstance(tag, str):
            continue
        if event == "end":
            if node is not element:
                append(" " if tag in BLOCK_TAGS else "")
                _add_piece(parts, node.tail)
            continue
        nodes += 1
        if nodes > max_nodes:
            return None
        if tag == "a" and is_permalink(node):
            walker.skip_subtree()
            continue
        append(" " if tag == "br" or tag in BLOCK_TAGS else "")
        _add_piece(parts, node.text)
    return " ".join("".join(parts).split())


def _add_piece(parts: list[str], text: str | None) -> None:
    """Append a text piece, parted from the one before where only a style sheet sets the two
    apart ("Black Edition<span class=block>Complete meal</span>")."""
    # The reader page's h1 would read "Black EditionComplete meal" (wcxb-dev 0589,
    # 2976); the view's blocks are parted the same way (`part_glued_words`).
    if not text:
        return
    before = next((part for part in reversed(parts) if part), "")  # "" where none is spaced
    if runs_together(before, text):
        parts.append(" ")
    parts.append(text)


class _Collector:
    """Turn headline-like elements into candidates, in order, until `max_candidates`."""

    __slots__ = ("count", "full", "params", "seen", "seen_h1")

    def __init__(self, params: TitleParams) -> None:
        self.params = params
        self.seen: set[etree._Element] = set()
        self.seen_h1 = False
        self.count = 0
        self.full = False

    def add(self, element: etree._Element, marked: bool) -> list[_Element]:
        """Return an element's candidates (itself and its sentences); none if seen before."""
        if element in self.seen:
            return []
        self.seen.add(element)
        candidate = _element_candidate(element, self.params)
        if candidate is None:
            return []
        tag = element.tag
        if self.params.skip_toggles and _holds_toggle(element):
            return []
        first_h1 = tag == "h1" and not self.seen_h1
        self.seen_h1 = self.seen_h1 or tag == "h1"
        found = [_Element(candidate, tag, marked, first_h1)]
        # A heading without a sentence end is one sentence: no split to try.
        if _SENTENCE_END.search(candidate.text):
            found.extend(_sentence_elements(candidate, tag, marked))
        self.count += len(found)
        self.full = self.count >= self.params.max_candidates
        return found


def _holds_toggle(element: etree._Element) -> bool:
    """Tell whether an element is or holds a control that opens a panel (an accordion's)."""
    # "<h3><a aria-controls='content-1' aria-expanded='false'>How much do I need to
    # retire?</a></h3>": a question of the page's FAQ, whose answer the control shows.
    for node in element.iter():
        if node.get("aria-expanded") is not None or node.get("aria-controls") is not None:
            return True
    return False


def _top(root: etree._Element) -> etree._Element:
    """Return the body, or the root of a page without one."""
    body = root.find("body")
    return body if body is not None else root


def _headline_elements(root: etree._Element, params: TitleParams) -> list[_Element]:
    """List h1-h6 and elements marked as title or headline (and their sentences), in order."""
    collector = _Collector(params)
    found: list[_Element] = []
    for element, marked in _headline_like(_top(root)):
        found.extend(collector.add(element, marked))
        if collector.full:
            break
    return found


def _heading_elements(top: etree._Element, collector: _Collector) -> list[_Element]:
    """List the h1-h6 candidates (and their sentences) in order, the first step of the list."""
    found: list[_Element] = []
    for heading in top.iter(*HEADING_TAGS):
        found.extend(collector.add(heading, _is_marked(heading)))
        if collector.full:
            break
    return found


def _sentence_elements(candidate: _Candidate, tag: str, marked: bool) -> list[_Element]:
    """Return the sentences of a multi-sentence heading as candidates of their own."""
    # Headings such as "Headline. Strapline" hold the headline as their first sentence
    # (on wcxb-dev the same 0.779 / 0.770 with or without these candidates); splitting at
    # "U.S." or "Dr." too would cut real headlines (0.776 / 0.770).
    sentences = split_sentences(candidate.text, keep_abbreviations=True)
    if len(sentences) < 2:
        return []
    found: list[_Element] = []
    for sentence in sentences:
        tokens = tuple(tokenize(sentence))
        if tokens:
            text = _drop_full_stop(sentence)
            found.append(_Element(_Candidate(text, tokens, candidate.element), tag, marked, False))
    return found


def _headline_like(top: etree._Element) -> Iterator[tuple[etree._Element, bool]]:
    """Yield the headings, then the elements marked title or headline, each in document order."""
    # Selecting in C is what keeps this cheap; one XPath union of headings and attributes
    # would be quadratic in libxml2 (8 s on a 20 MiB page), so headings come first.
    for heading in top.iter(*HEADING_TAGS):
        yield heading, _is_marked(heading)
    for element in _marked_elements(top):
        yield element, True


def _marked_elements(top: etree._Element) -> list[etree._Element]:
    """Return the elements whose class, id or itemprop names a title, in document order."""
    # One query per attribute: libxml2 merges a union of attribute paths in quadratic
    # time; the few elements found are merged instead.
    found = [
        elements_valued(top, (name,), _headline_values(attribute_value_set(top, (name,))))
        for name in _MARKING_ATTRIBUTES
    ]
    if sum(1 for parents in found if parents) < 2:
        return found[0] or found[1] or found[2]
    # lxml takes node-sets as XPath variables; its type stubs do not say so.
    merged = _UNION(top, a=cast(Any, found[0]), b=cast(Any, found[1]), c=cast(Any, found[2]))
    if not isinstance(merged, list):
        return []
    return [element for element in merged if is_element(element)]


def _headline_values(values: set[str]) -> set[str]:
    """Return the attribute values that name a title or headline."""
    if not values:
        return set()
    strings = list(values)
    # One search over all values joined is a C loop. They are joined by NUL, which no
    # libxml2 string holds and the pattern does not match, so the NULs before a match
    # number its value.
    joined = "\0".join(strings)
    if joined.isascii():  # ASCII lowercases in place, and a plain search beats IGNORECASE
        joined, pattern = joined.lower(), _HEADLINE_LOWER
    else:
        pattern = _HEADLINE_ATTR
    found: set[str] = set()
    index = position = 0
    while match := pattern.search(joined, position):
        index += joined.count("\0", position, match.start())
        found.add(strings[index])
        position = joined.find("\0", match.end())  # on to the next value
        if position < 0:
            break
    return found


def _element_candidate(element: etree._Element, params: TitleParams) -> _Candidate | None:
    """Return an element as a candidate, or None when it is empty or too long for a headline."""
    text = element_text(element, max_nodes=params.max_headline_nodes)
    if text and params.drop_invisible and not text.isascii():
        text = without_invisible(text)
    if not text:
        return None
    tokens = tuple(tokenize(text))
    if not tokens or len(tokens) > params.max_headline_words:
        return None
    return _Candidate(text, tokens, element)


def without_invisible(text: str) -> str:
    """Remove the characters a page shows as nothing (soft hyphens, zero-width spaces)."""
    # A soft hyphen splits a word for the measures ("assis", "tance") and stays in the
    # headline's text, where the reader sees none. An embedding around the whole text in
    # the text's own direction changes nothing on screen either.
    return _unwrapped(" ".join(text.translate(_INVISIBLE).split()))


def _unwrapped(text: str) -> str:
    """Remove an embedding or isolate around a whole text that sets the text's own direction."""
    opening = _EMBEDDINGS.get(text[:1])
    if opening is None or len(text) < 2:
        return text
    direction, closer = opening
    inner = text[1:-1]
    if text[-1] != closer or _BIDI_CONTROLS.search(inner) is not None:
        return text
    if direction is not None and _first_strong(inner) != direction:
        return text
    return inner.strip()


def _first_strong(text: str) -> str | None:
    """Return the direction ("L" or "R") of a text's first strongly directed character."""
    for char in text:
        direction = _STRONG.get(unicodedata.bidirectional(char))
        if direction is not None:
            return direction
    return None


def _drop_full_stop(sentence: str) -> str:
    """Remove the full stop that ends a sentence (headlines have none), not an abbreviation's."""
    if (
        sentence.endswith(".")
        and not sentence.endswith("..")
        and not _is_abbreviation(sentence, len(sentence))
    ):
        return sentence[:-1]
    return sentence


def _comparable(text: str) -> str:
    """Return a text with white space collapsed and case folded, for equality tests."""
    return " ".join(text.split()).casefold()


def _links_home(element: etree._Element) -> bool:
    """Tell whether an element is, holds or sits in a link to the site's home page."""
    for anchor in (*element.iterancestors("a"), *element.iter("a")):
        if _is_home_href(anchor.get("href") or ""):
            return True
    return False


def _is_home_href(href: str) -> bool:
    """Tell whether a link target is a site's home page ("/", "https://host/")."""
    href = href.strip()
    if href in _HOME_HREFS or _UP_TO_INDEX.fullmatch(href) is not None:
        return True
    scheme_less = href.split("//", 1)[1] if href.startswith(("http://", "https://", "//")) else None
    return scheme_less is not None and "/" not in scheme_less.rstrip("/") and "?" not in scheme_less


def _is_marked(element: etree._Element) -> bool:
    """Tell whether class, id or itemprop names the element a title or headline."""
    for attribute in ("itemprop", "class", "id"):
        value = element.get(attribute)
        if value and _names_headline(value):
            return True
    return False


def _names_headline(value: str) -> bool:
    """Tell whether an attribute value holds "title", "headline" or "heading", in any case."""
    if value.isascii():  # ASCII lowercases in place, and `in` beats an IGNORECASE search
        lower = value.lower()
        return "title" in lower or "headline" in lower or "heading" in lower
    return _HEADLINE_ATTR.search(value) is not None


@dataclass(frozen=True, slots=True)
class TitleParts:
    """A <title> cut at its separators: the whole, its longest part and the other parts."""

    whole: str
    core: str  # the longest part: the headline without the site name, most often
    others: tuple[str, ...]


def split_title(page_title: str, *, max_parts: int = 8) -> TitleParts:
    """Cut a <title> at " | ", " - ", " — ", " :: " and similar separators."""
    # Each part is a query; real titles have at most four or five (a breadcrumb trail).
    whole = " ".join(page_title.split())
    parts = [part.strip() for part in _TITLE_SEPARATORS.split(whole, maxsplit=max_parts - 1)]
    parts = [part for part in parts if part] or [whole]
    core = max(parts, key=len)
    others = tuple(part for part in parts if part != core)
    return TitleParts(whole, core, others)


@dataclass(frozen=True, slots=True)
class _Query:
    """One query of the improved procedure and the weight of its matches."""

    tokens: tuple[str, ...]
    weight: float


def _queries(
    title: TitleParts, og_title: str | None, ld_headline: str | None, params: TitleParams
) -> list[_Query]:
    """Return the weighted queries: the <title>, its parts, og:title and the JSON-LD headline."""
    weighted = [
        (title.whole, 1.0),
        (title.core, params.core_weight),
        *((other, params.part_weight) for other in title.others),
        (og_title or "", params.og_weight),
        (ld_headline or "", params.ld_weight),
    ]
    queries = [_Query(tuple(tokenize(text)), weight) for text, weight in weighted if weight > 0]
    return [query for query in queries if query.tokens]


def _find_improved(
    root: etree._Element,
    page_title: str,
    params: TitleParams,
    og_title: str | None,
    ld_headline: str | None,
) -> Headline | None:
    """Score whole headline-like elements against the <title>, its parts and metadata."""
    stated = [text for text in (page_title, og_title, ld_headline) if text and text.strip()]
    title = split_title(stated[0] if stated else "")
    queries = _queries(title, og_title, ld_headline, params)
    if not queries:
        # Only headings can be the first heading: the marked elements follow them.
        return _first_heading(_heading_elements(_top(root), _Collector(params)))
    if params.method == "tf":
        best, best_score = _best_tf_element(root, queries, title, params)
    else:
        best, best_score = _best_element(_headline_elements(root, params), queries, title, params)
    has_core = bool(tokenize(title.core))
    agreed = _stated_heading(root, og_title, ld_headline, best) if params.stated_heading else None
    if agreed is not None:
        text = " ".join(text_content(agreed).split())
        return Headline(text, agreed, best_score, "stated-heading")
    if best is not None and (best_score >= params.min_heading_score or not has_core):
        candidate = best.candidate
        text = candidate.text
        if params.pipe_tail_max_words:  # first: the share of a stated title is of the rest
            text = cut_pipe_tail(text, max_words=params.pipe_tail_max_words)
        text = _trimmed(text, candidate.element, (title.whole, title.core, *stated[1:]), params)
        return Headline(text, candidate.element, best_score, f"headings-{params.method}")
    if not has_core:
        return None
    stated_titles = (og_title, ld_headline)
    return _title_fallback(root, title, queries, params, stated=stated_titles, score=best_score)


def _title_fallback(
    root: etree._Element,
    title: TitleParts,
    queries: Sequence[_Query],
    params: TitleParams,
    *,
    stated: tuple[str | None, str | None],
    score: float,
) -> Headline:
    """Return the <title>'s part that names the page, or the heading that states it better."""
    og_title, ld_headline = stated
    # No element matches well: the page shows no headline, and the <title> without its
    # site name is the closest thing to one (the reference headline on 23% of wcxb-dev).
    text = stated_part(title, og_title, min_words=params.og_part_min_words) or title.core
    if params.drop_invisible and not text.isascii():
        text = without_invisible(text) or text
    top = _top(root)
    if params.site_name_prefix:
        text = without_site_name(text, top)
    found = _colon_part_heading(top, text, params) if params.colon_part_heading else None
    limit = params.branded_title_max_match
    if found is None and limit is not None and not og_title and not ld_headline:
        found = _branded_title_h1(top, title, queries, params, max_match=limit)
    if found is None and params.empty_slot_h1 and opens_with_separator(title.whole):
        found = _lone_h1(top, params)
    return found or Headline(text, None, score, "title-part")


def opens_with_separator(page_title: str) -> bool:
    """Tell whether a <title> opens with a separator: its headline's place left empty."""
    # "| Nuts & Volts Magazine": a "{headline} | {site}" template given no headline; the
    # <title> then names the site alone, and the page's one h1 names the page.
    return _LEADING_SEPARATOR.match(page_title.strip()) is not None


def _lone_h1(top: etree._Element, params: TitleParams) -> Headline | None:
    """Return the page's one h1 as the headline, or None with none or several."""
    # The element is not given, as for `_branded_title_h1`: the content stays as the
    # <title> fallback encloses it.
    h1 = _only_h1(top, params)
    return Headline(h1.text, None, 0.0, "lone-h1") if h1 is not None else None


def _only_h1(top: etree._Element, params: TitleParams) -> _Candidate | None:
    """Return the page's one h1 as a candidate, or None with none or several."""
    h1s = [found for h1 in top.iter("h1") if (found := _element_candidate(h1, params))]
    return h1s[0] if len(h1s) == 1 else None


def without_site_name(text: str, top: etree._Element) -> str:
    """Cut a site's name from the start of a <title> part, where a heading linking home shows it."""
    # "davidbau.com Vibe Coding" beside "<h1><a href='https://davidbau.com/'>davidbau.com":
    # a blog template that puts the site's name before the post's with no separator.
    words = text.split()
    folded = _comparable(text)
    for heading in top.iter(*HEADING_TAGS):
        name = _comparable(text_content(heading))
        if name and folded.startswith(name + " ") and _links_home(heading):
            rest = " ".join(words[len(name.split()) :])
            return rest if tokenize(rest) else text
    return text


def _colon_part_heading(top: etree._Element, text: str, params: TitleParams) -> Headline | None:
    """Return a heading that is one side of the <title> part's "A: B" and shows it alone."""
    # The element is not given: enclosing the content at it cut the text of pages whose
    # content is that heading and little more (word F1 on wcxb-dev even 2982 .755 -> .697).
    head, colon, tail = text.partition(": ")
    sides = (_comparable(head), _comparable(tail))
    if not colon or not all(sides):
        return None
    shown = {_comparable(found.text): found.text for found in _heading_candidates(top, params)}
    for side, other in (sides, sides[::-1]):
        if side in shown and not any(_overlaps(other, seen) for seen in shown):
            return Headline(shown[side], None, 0.0, "colon-part")
    return None


def _heading_candidates(top: etree._Element, params: TitleParams) -> list[_Candidate]:
    """Return up to `max_candidates` h1-h6 outside page furniture as candidates, in order."""
    found: list[_Candidate] = []
    for heading in top.iter(*HEADING_TAGS):
        candidate = _element_candidate(heading, params)
        toggle = params.skip_toggles and candidate is not None and _holds_toggle(heading)
        if candidate is None or toggle or _in_chrome(heading):
            continue
        found.append(candidate)
        if len(found) >= params.max_candidates:
            break
    return found


def _overlaps(text: str, heading: str) -> bool:
    """Tell whether a heading holds a text or is part of it ("Open Journalism Project:")."""
    heading = heading.rstrip(":").strip()
    return bool(heading) and (text in heading or heading in text)


def _branded_title_h1(
    top: etree._Element,
    title: TitleParts,
    queries: Sequence[_Query],
    params: TitleParams,
    *,
    max_match: float,
) -> Headline | None:
    """Return the page's one h1 when the <title> is a site's name and tagline, not on the page."""
    # "Reddit - The heart of the internet": the longest part is nowhere in the page's text,
    # and the h1 shares at most a word such as "the" with the <title>. A one-part <title>
    # is a page's own more often ("Base URL test" over "<h1>Lorem</h1>" on
    # readability-even, where Firefox shows the <title>). The element is not given: the
    # content enclosed at it lost the post that is the h1 alone (wcxb-dev 0561 .93 -> .12).
    h1 = _only_h1(top, params)
    if h1 is None or not title.others:
        return None
    h1_terms = terms(h1.tokens)
    match = max(query.weight * tf_cosine(terms(query.tokens), h1_terms) for query in queries)
    if match > max_match or _comparable(title.core) in _comparable(text_content(top)):
        return None
    return Headline(h1.text, None, match, "lone-h1")


def _stated_heading(
    root: etree._Element, og_title: str | None, ld_headline: str | None, best: _Element | None
) -> etree._Element | None:
    """Return the first h2-h6 whose text is og:title and the JSON-LD headline alike, where
    the chosen element says otherwise."""
    if not og_title or not ld_headline:
        return None
    stated = _comparable(og_title)
    if stated != _comparable(ld_headline):
        return None
    if best is not None and _comparable(best.candidate.text) == stated:
        return None
    for heading in _top(root).iter(*_LOWER_HEADINGS):
        if _comparable(text_content(heading)) == stated and not _in_chrome(heading):
            return heading
    return None


_LOWER_HEADINGS = ("h2", "h3", "h4", "h5", "h6")


def stated_part(title: TitleParts, og_title: str | None, *, min_words: int) -> str | None:
    """Return og:title when it is one of the <title>'s shorter parts, of at least `min_words`."""
    # "What's your range? - Forum Name: A Longer Tagline": the longest part is the site's,
    # and og:title names the part that is the page's own. A one-word part is a section
    # ("Home", "Issues") more often than a headline. 0 words = off.
    # A "Blog Name: Post Title" <title> sets off the site by a colon alone, which
    # split_title keeps (it is part of "Rust-lang: the book"); og:title naming what
    # follows the colon shows it is a separator there (even .8000 -> .8013, odd unchanged).
    if min_words <= 0 or not og_title:
        return None
    og = " ".join(og_title.split())
    if len(og.split()) < min_words:
        return None
    folded = og.casefold()
    if any(_comparable(part) == folded for part in title.others):
        return og
    whole = title.whole.casefold()
    if whole == folded:
        return None
    return og if whole.endswith(": " + folded) or _opens_title(whole, folded) else None


def _opens_title(whole: str, folded: str) -> bool:
    """Tell whether a <title> opens with a stated title and goes on past a separator."""
    # "New to Astronomy – Best First Telescope? - Site Feedback - Astronomy": og:title
    # is the opening parts; the longest part alone would cut the headline in two. Not
    # when og:title holds a pipe: it sets off a site name there too ("Jackets | Brand").
    if "|" in folded or not whole.startswith(folded):
        return False
    return _TITLE_SEPARATORS.match(whole, len(folded)) is not None


def _trimmed(
    text: str, element: etree._Element | None, stated: Sequence[str], params: TitleParams
) -> str:
    """Return a chosen element's text, cut to the stated title it holds when that is set off."""
    # The <title>'s parts other than its core are not offered: they name the site.
    if params.trim_min_share <= 0:
        return text
    return trim_to_stated(
        text,
        stated,
        min_share=params.trim_min_share,
        labels=heading_labels(element) if element is not None else frozenset(),
        max_label_words=params.trim_max_label_words,
    )


def trim_to_stated(
    text: str,
    stated: Iterable[str],
    *,
    min_share: float,
    labels: Collection[str] = (),
    max_label_words: int = 3,
) -> str:
    """Cut a headline to the longest stated title it holds, if the rest is a label or a tail."""
    # A heading often carries a kicker ("News", "Title:"), a date, a byline or the site
    # name beside the headline, which the page's <title> or og:title state without them.
    # The kicker is an element of its own, or loose text before the title that is one
    # ("<h1>Thread: <span>Title</span></h1>").
    # The cut keeps the heading's own characters (its typography), matched with quotes
    # folded and case ignored; a lowercasing that changes the length gives up.
    folded = _fold(text)
    if len(folded) != len(text):
        return text
    best = ""
    for part in stated:
        query = _fold(" ".join(part.split()))
        size = len(query)
        if size <= len(best) or size >= len(text) or size < min_share * len(text):
            continue
        start = folded.find(query)
        if start < 0 or not _is_tail(text[start + size :], labels):
            continue
        before = text[:start].strip()
        piece = text[start : start + size]
        if not before or (
            (before in labels or piece in labels) and len(tokenize(before)) <= max_label_words
        ):
            best = piece
    return best or text


def cut_pipe_tail(text: str, *, max_words: int) -> str:
    """Cut a headline at its last " | " when what follows is a label of a few words."""
    # A bar in a shown headline sets off a section, an edition or a size ("... | Opinion",
    # "... | 2020 Edition"), which the <title> may not state; a longer part after it is
    # a subtitle ("Trekking Backpack 40L | Lightweight & Adventure-Ready").
    head, bar, tail = text.rpartition(" | ")
    if not bar or not head.strip() or len(tokenize(tail)) > max_words:
        return text
    if not tokenize(head):
        return text
    return head.rstrip()


def _is_tail(after: str, labels: Collection[str] = ()) -> bool:
    """Tell whether what follows a headline is set off from it: a separator, bracket or label."""
    # " | Site", " - Section", " (example.com)" are tails; a subtitle after a colon or a
    # comma, or a further word, continues the headline. A byline or a date nested in the
    # heading as an element of its own ("<h3>Posted on July 1 by ...</h3>") is a tail too
    # (headline exact match even .785 -> .787, odd .776 -> .778).
    if not after or after.startswith(" (") or _TITLE_SEPARATORS.match(after) is not None:
        return True
    return after.startswith(" ") and after.strip() in labels


def heading_labels(element: etree._Element, *, max_nodes: int = 200) -> frozenset[str]:
    """Return the texts of the elements inside a heading (its kicker, date or badge)."""
    labels: set[str] = set()
    for count, node in enumerate(element.iterdescendants()):
        if count >= max_nodes:
            break
        if isinstance(node.tag, str):
            labels.add(" ".join(text_content(node).split()))
    return frozenset(labels)


def _fold(text: str) -> str:
    """Return a text lowercased with typographic quotes made plain, its length kept."""
    return text.translate(_PLAIN_QUOTES).lower()


class _Judge:
    """Score candidates in order, keeping the first of highest positive score."""

    __slots__ = (
        "best", "best_score", "documents", "idf", "params", "site", "weighted", "whole", "words"
    )  # fmt: skip

    def __init__(
        self,
        queries: Sequence[_Query],
        title: TitleParts,
        params: TitleParams,
        idf: Mapping[str, float] | None,
        documents: int,
    ) -> None:
        self.params = params
        self.idf = idf
        self.documents = documents
        # A verbatim copy of a <title> that carries a site name is a breadcrumb or hidden
        # heading, rarely the headline.
        self.whole = _comparable(title.whole) if title.others else None
        site = site_part(title) if params.site_part_penalty else None
        self.site = _comparable(site) if site else None
        self.weighted = [(query.weight, terms(query.tokens, idf, documents)) for query in queries]
        self.words = frozenset(term for query in queries for term in query.tokens)
        self.best: _Element | None = None
        self.best_score = 0.0

    def offer(self, elements: Iterable[_Element]) -> None:
        """Score each element in turn and keep it if it beats the best so far."""
        for element in elements:
            tokens = element.candidate.tokens
            if self.words.isdisjoint(tokens):
                continue
            match = self.match(terms(tokens, self.idf, self.documents))
            if not match > 0:
                continue
            # The structure checks walk the tree: skip them when even the largest bonus
            # cannot lift the element above the best (float sums are monotonic).
            if match + _structure_ceiling(element, self.params) <= self.best_score:
                continue
            score = match + _structure_score(element, self.whole, self.site, self.params)
            if score > self.best_score:
                self.best, self.best_score = element, score

    def match(self, terms: Terms) -> float:
        """Return the best weighted similarity of a candidate to the queries."""
        method = self.params.method
        if method == "tf":  # the TF measure is the cosine alone: no dispatch per query
            return max(weight * _cosine(query.tf, terms.tf) for weight, query in self.weighted)
        return max(weight * _measure(method, query, terms) for weight, query in self.weighted)


def _best_element(
    elements: Sequence[_Element], queries: Sequence[_Query], title: TitleParts, params: TitleParams
) -> tuple[_Element | None, float]:
    """Return the first element of highest positive score, and its score."""
    documents = len(elements)
    idf = _idf_table(params.method, [element.candidate.tokens for element in elements])
    judge = _Judge(queries, title, params, idf, documents)
    judge.offer(elements)
    return judge.best, judge.best_score


def _best_tf_element(
    root: etree._Element, queries: Sequence[_Query], title: TitleParts, params: TitleParams
) -> tuple[_Element | None, float]:
    """Return what `_best_element` returns for TF, looking for marked elements only if needed."""
    # TF scores need no statistics over the candidates, so the headings can be scored
    # before the marked elements are looked for; those follow the headings and win only
    # by a higher score, which their ceiling may rule out.
    top = _top(root)
    collector = _Collector(params)
    judge = _Judge(queries, title, params, None, 0)
    judge.offer(_heading_elements(top, collector))
    if collector.full or judge.best_score >= _marked_ceiling(judge, params):
        return judge.best, judge.best_score
    for element in _marked_elements(top):
        judge.offer(collector.add(element, True))
        if collector.full:
            break
    return judge.best, judge.best_score


def _marked_ceiling(judge: _Judge, params: TitleParams) -> float:
    """Return a score no marked element outside h1-h6 can exceed under the TF measure."""
    # A TF cosine is at most 1 (the margin covers rounding), and such an element earns
    # no h1 bonus: every h1 was a heading candidate already.
    heaviest = max(weight for weight, _ in judge.weighted)
    return heaviest * (1 + 1e-9) + _bonus_ceiling(params.marked_bonus, params)


def _structure_ceiling(element: _Element, params: TitleParams) -> float:
    """Return the highest `_structure_score` an element could earn, computed the same way."""
    score = 0.0
    if element.tag == "h1":
        score += params.h1_bonus + (params.first_h1_bonus if element.first_h1 else 0.0)
    return _bonus_ceiling(score + params.marked_bonus if element.marked else score, params)


def _bonus_ceiling(score: float, params: TitleParams) -> float:
    """Return a bonus after the penalties that can only raise it (a negative one)."""
    penalties = (
        params.chrome_penalty,
        params.home_link_penalty,
        params.whole_title_penalty,
        params.site_part_penalty,
    )
    for penalty in penalties:
        if penalty < 0:
            score -= penalty
    return score


def _structure_score(
    element: _Element, whole_title: str | None, site: str | None, params: TitleParams
) -> float:
    """Return the bonus (or penalty) an element earns by its tag, marks and place."""
    score = 0.0
    if element.tag == "h1":
        score += params.h1_bonus + (params.first_h1_bonus if element.first_h1 else 0.0)
    if element.marked:
        score += params.marked_bonus
    node = element.candidate.element
    if node is not None and _in_chrome(node):
        score -= params.chrome_penalty
    if node is not None and _links_home(node):
        score -= params.home_link_penalty
    if whole_title is not None or site is not None:
        text = _comparable(element.candidate.text)
        if text == whole_title:
            score -= params.whole_title_penalty
        if text == site:
            score -= params.site_part_penalty
    return score


def _in_chrome(element: etree._Element) -> bool:
    """Tell whether an element sits inside navigation, footer or aside furniture."""
    for ancestor in element.iterancestors():
        if ancestor.tag in _CHROME_TAGS or ancestor.get("role") in _CHROME_ROLES:
            return True
    return False


def site_part(title: TitleParts) -> str | None:
    """Return the <title>'s last part when it is not its longest: the site name, most often."""
    # "Headline - Site" is the common order; a first part is most often the headline
    # itself ("Quickstart — Example Docs"), and a longest last part is the core.
    if not title.others:
        return None
    last = _TITLE_SEPARATORS.split(title.whole)[-1].strip()
    return last if last and last != title.core else None


def _first_heading(elements: Sequence[_Element]) -> Headline | None:
    """Return the first h1 (or else the first heading) when there is nothing to compare with."""
    headings = [element for element in elements if element.tag in HEADING_TAGS]
    h1s = [element for element in headings if element.tag == "h1"]
    for element in h1s or headings:
        return Headline(element.candidate.text, element.candidate.element, 0.0, "first-heading")
    return None
