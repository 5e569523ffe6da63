"""Site memory: leave out the blocks a site repeats on its other pages (its template).

BlockExtractor's step 3 (Lin, Chen, Niu, §3.3) removes the blocks that also occur on
other pages of the same site, compared by tree edit distance. A proxy sees every page
a person opens on a site, but must not keep their words: it keeps fingerprints, a
64-bit hash of each block's kind (heading or not) and of its text, with case and
spacing folded away. Digits stay: prices, counts and dates are what tells one product
or post from the next.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from addon.core.result import Block, LeftOut

Fingerprint = int

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Blocks made of several lines (items, terms, cells), each line a fingerprint.
SPLIT_KINDS = frozenset({"ul", "ol", "dl", "table"})
_PIECES = re.compile(r"[\n\t]+")

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
    """Return the text without its white space, case-folded."""
    # A block's text and its source line differ in spacing only (a <br> is a line
    # break in one, nothing in the other); split() and join() fold in 0.5 us where a
    # regex keeping letters and digits took 2.3 (the memory's 7% of the extraction).
    return "".join(text.split()).casefold()


def fingerprint(kind: str, text: str) -> Fingerprint | None:
    """Return a block's fingerprint from its element name and text; None for no text."""
    folded = fold(text)
    if not folded:
        return None
    shape = "h" if kind in _HEADINGS else "b"
    digest = hashlib.blake2b(f"{shape}:{folded}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def block_fingerprints(block: Block) -> tuple[Fingerprint, ...]:
    """Return an article block's fingerprints, as its source lines' would be: one for a
    paragraph or heading, one per item or cell for a list, term list or table."""
    pieces = _PIECES.split(block.text) if block.kind in SPLIT_KINDS else (block.text,)
    prints = (fingerprint(block.kind, piece) for piece in pieces)
    return tuple(print_ for print_ in prints if print_ is not None)


def page_fingerprints(lines: Iterable[tuple[str, str]]) -> frozenset[Fingerprint]:
    """Return the fingerprints of a page's lines (element name, text): what a later page
    of the site is compared with (DANAg's lines, thesis §4.3.1: each block's inline text)."""
    prints = (fingerprint(tag, text) for tag, text in lines)
    return frozenset(print_ for print_ in prints if print_ is not None)


def block_seen(
    block: Block, memory: SiteMemory, keep: Collection[Fingerprint] = frozenset()
) -> int:
    """Return how many other pages hold the block: all of its lines (0 for one in `keep`)."""
    prints = block_fingerprints(block)
    if not prints or any(print_ in keep for print_ in prints):
        return 0
    return min(memory.counts.get(print_, 0) for print_ in prints)


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
    seen = [block_seen(block, memory, keep) for block in blocks]
    if _seen_share(blocks, seen) > max_seen_share:
        return Forgotten(tuple(blocks), ())
    novel = _novel_prose(blocks, seen, min_words=prose_min_words)
    if len(novel) < max(min_paragraphs, 1):
        return Forgotten(tuple(blocks), ())
    strong = max(article_min_pages, math.ceil(article_min_share * memory.pages))
    kept: list[Block] = []
    left_out: list[LeftOut] = []
    for index, (block, count) in enumerate(zip(blocks, seen, strict=True)):
        trailing = index > novel[-1] and len(block.text.split()) < prose_min_words
        if count and count >= (min_pages if trailing else strong):
            left_out.append(LeftOut(LEFT_OUT_REASON, block.text))
        else:
            kept.append(block)
    if not kept:  # a page the template is all of is not made empty
        return Forgotten(tuple(blocks), ())
    return Forgotten(tuple(kept), tuple(left_out))


def _seen_share(blocks: Sequence[Block], seen: Sequence[int]) -> float:
    """Return the share of the blocks' text in blocks other pages hold."""
    total = sum(len(block.text) for block in blocks)
    held = sum(len(block.text) for block, count in zip(blocks, seen, strict=True) if count)
    return held / total if total else 0.0


def _novel_prose(blocks: Sequence[Block], seen: Sequence[int], *, min_words: int) -> list[int]:
    """Return the indices of the paragraphs of prose no other page holds."""
    return [
        index
        for index, (block, count) in enumerate(zip(blocks, seen, strict=True))
        if block.kind == "p" and not count and len(block.text.split()) >= min_words
    ]
