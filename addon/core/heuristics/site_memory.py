"""Site memory: leave out the blocks a site repeats on its other pages (its template).

BlockExtractor's step 3 (Lin, Chen, Niu, §3.3) removes the blocks that also occur on
other pages of the same site, compared by tree edit distance. A proxy sees every page
a person opens on a site, but must not keep their words: it keeps fingerprints, a
64-bit hash of each block's kind (heading or not) and of its letters and digits, with
case, spacing and punctuation folded away. Digits stay: prices, counts and dates are
what tells one product or post from the next.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from lxml import etree

from addon.core.dom import is_element
from addon.core.result import Block, LeftOut

Fingerprint = int

# Folded away before hashing: all but letters and digits (\W, and "_" which \w keeps).
_NOT_ALNUM = re.compile(r"[\W_]+")
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Elements whose text is never a block a reader shows.
_NO_TEXT = frozenset({"script", "style", "noscript", "template", "head", "title"})

LEFT_OUT_REASON = "a block this site repeats on its other pages (site memory)"


@dataclass(frozen=True, slots=True)
class SiteMemory:
    """How many of a site's other pages hold each block fingerprint."""

    pages: int = 0
    counts: Mapping[Fingerprint, int] = field(default_factory=dict)


def remember(pages: Iterable[Collection[Fingerprint]]) -> SiteMemory:
    """Return the memory of these pages: how many of them hold each fingerprint."""
    counts: Counter[Fingerprint] = Counter()
    seen = 0
    for page in pages:
        counts.update(set(page))
        seen += 1
    return SiteMemory(seen, dict(counts))


def fold(text: str) -> str:
    """Return the text's letters and digits only, case-folded."""
    return _NOT_ALNUM.sub("", text).casefold()


def fingerprint(kind: str, text: str) -> Fingerprint | None:
    """Return a block's fingerprint from its element name and text; None for no text."""
    folded = fold(text)
    if not folded:
        return None
    shape = "h" if kind in _HEADINGS else "b"
    digest = hashlib.blake2b(f"{shape}:{folded}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def block_fingerprint(block: Block) -> Fingerprint | None:
    """Return an article block's fingerprint (as its source element's would be)."""
    return fingerprint(block.kind, block.text)


def page_fingerprints(
    root: etree._Element, *, max_chars: int = 2000, max_blocks: int = 4000
) -> frozenset[Fingerprint]:
    """Return the fingerprints of every element's text on the page, what a later page
    of the site is compared with.

    An element holding more than `max_chars` letters and digits is a container, never
    one block of a template: it and its ancestors are not fingerprinted (which bounds
    the work by `max_chars` per element).
    """
    prints: set[Fingerprint] = set()
    for element, folded in _folded_elements(root, max_chars=max_chars):
        if folded and len(prints) < max_blocks:
            shape = "h" if element.tag in _HEADINGS else "b"
            digest = hashlib.blake2b(f"{shape}:{folded}".encode(), digest_size=8).digest()
            prints.add(int.from_bytes(digest, "big"))
    return frozenset(prints)


def _folded_elements(
    root: etree._Element, *, max_chars: int
) -> Iterable[tuple[etree._Element, str]]:
    """Yield each element with its folded text, children before parents (None: too long)."""
    folded: dict[etree._Element, str | None] = {}
    for element in _postorder(root):
        text = _fold_own(element, folded, max_chars=max_chars)
        folded[element] = text
        if text is not None:
            yield element, text
        for child in element:
            folded.pop(child, None)  # read once, by its parent: the map stays small


def _fold_own(
    element: etree._Element, folded: Mapping[etree._Element, str | None], *, max_chars: int
) -> str | None:
    """Fold the element's text from its own text, its children's folded texts and tails."""
    if element.tag in _NO_TEXT:
        return ""
    parts = [fold(element.text or "")]
    for child in element:
        if is_element(child):
            inner = folded.get(child, "")
            if inner is None:
                return None
            parts.append(inner)
        parts.append(fold(child.tail or ""))
    text = "".join(parts)
    return text if len(text) <= max_chars else None


def _postorder(root: etree._Element) -> Iterable[etree._Element]:
    """Yield the elements under `root` (itself included), children before their parent."""
    # iterwalk's "end" events come children first; comments and PIs are not elements.
    for _event, element in etree.iterwalk(root, events=("end",)):
        if is_element(element):
            yield element


@dataclass(frozen=True, slots=True)
class Forgotten:
    """The blocks kept, and those the site memory left out with their reason."""

    blocks: tuple[Block, ...]
    left_out: tuple[LeftOut, ...]


def forget_template(
    blocks: Sequence[Block],
    memory: SiteMemory,
    *,
    min_pages: int = 1,
    article_min_pages: int = 3,
    article_min_share: float = 1.0,
    prose_min_words: int = 12,
    max_seen_share: float = 0.5,
    min_paragraphs: int = 2,
    keep: Collection[Fingerprint] = frozenset(),
) -> Forgotten:
    """Leave out the blocks the site's other pages hold; spare the article's own run.

    The article runs from the headline to its last paragraph of prose no other page
    holds (`prose_min_words` words or more). After it (teasers, "related", sign-ups,
    footers) a short block goes once `min_pages` other pages hold it; inside it, and a
    paragraph of prose anywhere, only on strong evidence: at least `article_min_pages`
    other pages, and `article_min_share` of the pages the memory holds. `keep` never
    goes (the headline's fingerprint). A page whose text the memory holds more than
    `max_seen_share` of is an article seen before (a reload, another address or
    version of it), not a template around a new one: it stays whole. So does a page
    with fewer than `min_paragraphs` such paragraphs (a product, a listing, a
    collection: short lines a template shares).
    """
    prints = [block_fingerprint(block) for block in blocks]
    if _seen_share(blocks, prints, memory) > max_seen_share:
        return Forgotten(tuple(blocks), ())
    novel = _novel_prose(blocks, prints, memory, min_words=prose_min_words)
    if len(novel) < max(min_paragraphs, 1):
        return Forgotten(tuple(blocks), ())
    strong = max(article_min_pages, math.ceil(article_min_share * memory.pages))
    kept: list[Block] = []
    left_out: list[LeftOut] = []
    for index, (block, print_) in enumerate(zip(blocks, prints, strict=True)):
        trailing = index > novel[-1] and len(block.text.split()) < prose_min_words
        seen = 0 if print_ is None or print_ in keep else memory.counts.get(print_, 0)
        if seen and seen >= (min_pages if trailing else strong):
            left_out.append(LeftOut(LEFT_OUT_REASON, block.text))
        else:
            kept.append(block)
    if not kept:  # a page the template is all of is not made empty
        return Forgotten(tuple(blocks), ())
    return Forgotten(tuple(kept), tuple(left_out))


def _seen_share(
    blocks: Sequence[Block], prints: Sequence[Fingerprint | None], memory: SiteMemory
) -> float:
    """Return the share of the blocks' text in blocks the memory holds."""
    total = seen = 0
    for block, print_ in zip(blocks, prints, strict=True):
        total += len(block.text)
        if print_ is not None and memory.counts.get(print_, 0):
            seen += len(block.text)
    return seen / total if total else 0.0


def _novel_prose(
    blocks: Sequence[Block],
    prints: Sequence[Fingerprint | None],
    memory: SiteMemory,
    *,
    min_words: int,
) -> list[int]:
    """Return the indices of the paragraphs of prose no other page holds."""
    return [
        index
        for index, (block, print_) in enumerate(zip(blocks, prints, strict=True))
        if block.kind == "p"
        and len(block.text.split()) >= min_words
        and memory.counts.get(print_ or 0, 0) == 0
    ]
